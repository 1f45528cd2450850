"""Formatting shared by the desk's back office and its chat agent: money, quantities, slots."""

from __future__ import annotations

from datetime import date

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def money(pence: int) -> str:
    """£3.00 style."""
    sign = "-" if pence < 0 else ""
    pence = abs(int(pence))
    return f"{sign}£{pence // 100}.{pence % 100:02d}"


def number(value: float) -> str:
    """2 -> '2', 1.5 -> '1.5', 0.25 -> '0.25'."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def quantity_text(value: float, unit: str) -> str:
    """2 kg, 500 g, 1.5 l, 6 (for items sold each)."""
    if unit == "each":
        return number(value)
    return f"{number(value)} {unit}"


def hour_text(hour: int) -> str:
    """19 -> '7 pm', 12 -> '12 pm', 9 -> '9 am'."""
    suffix = "am" if hour < 12 else "pm"
    shown = hour % 12 or 12
    return f"{shown} {suffix}"


def window(hour: int) -> str:
    """The one-hour slot starting at `hour`: '7–8 pm', '11 am–12 pm', '9–10 am'."""
    start, end = hour_text(hour), hour_text(hour + 1)
    if start[-2:] == end[-2:]:
        return f"{start[:-3]}–{end}"
    return f"{start}–{end}"


def day_text(day: date) -> str:
    """'Thursday 19 November'."""
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]}"


def slot_text(day: date, hour: int) -> str:
    """'Thursday 19 November, 6–7 pm'."""
    return f"{day_text(day)}, {window(hour)}"


def line_pence(quantity: float, price_pence: int, price_per: float) -> int:
    """The price of `quantity` units of a product priced at `price_pence` per `price_per`."""
    return int(quantity / price_per * price_pence + 0.5 + 1e-9)
