"""How the desk agent words times, money and durations for customers."""

from __future__ import annotations

from datetime import timedelta

from benchmarks.bikes._seed import NOW, at

__all__ = ["a_bike", "bike_name", "clock", "day", "money", "span", "when"]

_BIKE_NAMES = {"city": "city bike", "e-bike": "e-bike", "cargo": "cargo bike"}


def money(cents: int) -> str:
    """`€36.00`."""
    return f"€{cents / 100:.2f}"


def clock(moment: str) -> str:
    """The clock time of a stored time: `18:00`."""
    return moment[11:16]


def day(moment: str) -> str:
    """The day of a stored time: `Friday 12 June`."""
    value = at(moment)
    return f"{value:%A} {value.day} {value:%B}"


def when(moment: str) -> str:
    """A time as customers like to hear it: `18:00 today`, `09:00 on Friday 12 June`."""
    value = at(moment)
    if value.date() == NOW.date():
        return f"{clock(moment)} today"
    if value.date() == NOW.date() + timedelta(days=1):
        return f"{clock(moment)} tomorrow ({day(moment)})"
    if value.date() == NOW.date() - timedelta(days=1):
        return f"{clock(moment)} yesterday"
    return f"{clock(moment)} on {day(moment)}"


def span(amount: int, unit: str) -> str:
    """`2 days`, `1 hour`."""
    word = unit.rstrip("s")
    return f"{amount} {word}{'' if amount == 1 else 's'}"


def bike_name(bike_type: str) -> str:
    """`city bike`, `e-bike`, `cargo bike`."""
    return _BIKE_NAMES[bike_type]


def a_bike(bike_type: str) -> str:
    """`a city bike`, `an e-bike`."""
    name = _BIKE_NAMES[bike_type]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
