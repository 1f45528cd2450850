"""Plausible other values for a fact: what a user could really say instead of the true one.

A behaviour operation that says a wrong value first (`correct`) or asks for another one before
switching (`change_mind`) is a fair test only if a real user could have said that value: of the
same type and unit, a real other value from the environment where one exists (another order of
the shop, another train time of the timetable), never a date already past, and never a
near-duplicate ("09:31" for "09:30" is no other time a person means). `other_value` picks one;
`implausible` says why a proposed alternative is refused.

Identity facts (an email, a name, a date of birth) are never changed: nobody changes their mind
about them, and saying another person's is no test of the agent. Their ids may still be mistyped
(`correct`), which agents must handle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta

from vistasim.scenario import Scalar
from vistasim.values import id_shape, text_ids

__all__ = ["ValuePool", "choice_slot", "identity_slot", "implausible", "other_value"]

_IDENTITY = re.compile(
    r"(?:^|_)(?:e?mail|name|surname|dob|birth|birthday|phone|mobile|pin|password|username|"
    r"postcode|zip|address|iban|card|account|passport|licen[cs]e|registration|reg|plate|vin)"
    r"(?:$|_)",
    re.IGNORECASE,
)
_ID_NAME = re.compile(r"(?:^|_)(?:id|ref|reference|number|no|code)$", re.IGNORECASE)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_TEXT_DATE = re.compile(
    rf"^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?"
    rf"(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{_MONTH})"
    rf"|(?P<month2>{_MONTH})\s+(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?)"
    rf"(?P<year>,?\s+\d{{4}})?$",
    re.IGNORECASE,
)
"""A date in words ("22 December", "Friday 12 June 2026"): no amount in a unit of December."""
_AMOUNT = re.compile(r"^([£$€]?)(\d+(?:\.\d+)?)(\s*[A-Za-z%]+(?:\s+[A-Za-z]+)?)?$")
_MIN_TIME_GAP = 30
"""Minutes two times must be apart to be different times a person means."""
_MIN_AMOUNT_GAP = 0.05
"""Share two amounts (above 20) must differ by: "£45.99" for "£46.00" is no other amount."""


@dataclass(frozen=True)
class ValuePool:
    """Values the environment holds, by column, to draw real other values from."""

    columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """`table.column` -> its distinct values as text, sorted."""

    @classmethod
    def from_rows(cls, tables: Mapping[str, Iterable[Mapping[str, object]]]) -> ValuePool:
        """Collect each column's distinct values (as text) from rows by table."""
        found: dict[str, set[str]] = {}
        for table, rows in tables.items():
            for row in rows:
                for column, value in row.items():
                    if isinstance(value, str | int | float) and not isinstance(value, bool):
                        found.setdefault(f"{table}.{column}", set()).add(str(value))
        return cls({k: tuple(sorted(v)) for k, v in sorted(found.items())})

    def others(self, name: str, value: Scalar) -> list[str]:
        """Other values of the columns holding `value` (case-insensitive), in column order.

        A number is only looked up in columns named like the slot: a 2 in a column of nights
        is no other value for a quantity of shirts.
        """
        text = str(value).casefold()
        numeric = isinstance(value, int | float)
        out: list[str] = []
        for key, values in self.columns.items():
            column = key.split(".", 1)[-1].casefold()
            if numeric and not (column in name.casefold() or name.casefold() in column):
                continue
            if any(v.casefold() == text for v in values):
                out += [v for v in values if v.casefold() != text and v not in out]
        return out


def identity_slot(name: str) -> bool:
    """Whether a slot holds who the user is (email, name, birth date, car): never changed.

    A vehicle's registration proves the user's right to its bookings as a postcode does; another
    customer's, said for one's own car, makes a correct desk refuse the whole chat.
    """
    return bool(_IDENTITY.search(name))


def choice_slot(name: str, value: Scalar) -> bool:
    """Whether a slot is something the user chooses (a date, a time, a size), not a record id.

    Only choices can be changed with `change_mind`: nobody changes their mind about which order
    they mean, though they may mistype its number.
    """
    if identity_slot(name) or _ID_NAME.search(name) or isinstance(value, bool):
        return False
    return not (isinstance(value, str) and _is_id(value))


def other_value(
    name: str, value: Scalar, *, pool: ValuePool | None = None, today: date | None = None
) -> Scalar | None:
    """A plausible other value for slot `name` (None when there is none to say).

    >>> other_value("departure_time", "09:30")
    '10:30'
    >>> other_value("order_id", "W1007", pool=ValuePool({"orders.id": ("W1003", "W1007")}))
    'W1003'
    >>> other_value("travel_date", "2026-03-20", today=date(2026, 3, 16))
    '2026-03-21'
    >>> other_value("email", "ann@example.com") is None
    True
    """
    if identity_slot(name) or isinstance(value, bool):
        return None
    real = [
        v for v in (pool.others(name, value) if pool else []) if not implausible(value, v, today)
    ]
    if real:
        # The nearest real value after the original, so the same slot always gets the same one.
        after = [v for v in real if str(v) > str(value)]
        return _typed(value, (after or real)[0])
    made = _made_up(value, today)
    return made if made is not None and not implausible(value, made, today) else None


def implausible(original: Scalar, other: Scalar, today: date | None = None) -> str | None:
    """Why `other` is no value a user could say instead of `original` (None: it is plausible).

    >>> implausible("09:30", "09:31")
    'a near-duplicate of 09:30 (times under 30 minutes apart)'
    >>> implausible("2026-03-20", "2026-03-01", date(2026, 3, 16))
    'a date in the past (today is 2026-03-16)'
    >>> implausible("W1007", "12:00")
    'not the same kind of value as W1007'
    """
    a, b = str(original).strip(), str(other).strip()
    if a.casefold() == b.casefold():
        return "the same value"
    kind_a, kind_b = _kind(original), _kind(other)
    if kind_a != kind_b:
        return f"not the same kind of value as {a}"
    if kind_a == "date":
        return _date_problem(b, today)
    if kind_a == "time":
        gap = abs(_minutes(a) - _minutes(b))
        if gap < _MIN_TIME_GAP:
            return f"a near-duplicate of {a} (times under {_MIN_TIME_GAP} minutes apart)"
    if kind_a.startswith("amount"):
        return _amount_problem(a, b)
    if kind_a == "id" and id_shape(a) != id_shape(b):
        return f"not shaped like {a}"
    return None


def _date_problem(text: str, today: date | None) -> str | None:
    if today is not None and date.fromisoformat(text) < today:
        return f"a date in the past (today is {today.isoformat()})"
    return None


def _amount_problem(a: str, b: str) -> str | None:
    ma, mb = _AMOUNT.match(a), _AMOUNT.match(b)
    assert ma is not None and mb is not None  # both are amounts (_kind)
    if (ma.group(1), (ma.group(3) or "").strip()) != (mb.group(1), (mb.group(3) or "").strip()):
        return f"not in the unit of {a}"
    if not ma.group(1) and "." not in ma.group(2) and "." in mb.group(2):
        return f"not a whole number like {a}"
    x, y = float(ma.group(2)), float(mb.group(2))
    if abs(x) > 20 and abs(x - y) / abs(x) < _MIN_AMOUNT_GAP:
        return f"a near-duplicate of {a} (amounts under {_MIN_AMOUNT_GAP:.0%} apart)"
    return None


def _kind(value: Scalar) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "amount:" + type(value).__name__
    text = value.strip()
    if _ISO_DATE.match(text):
        return "date"
    if _TEXT_DATE.match(text):
        return "date:text"
    if _TIME.match(text):
        return "time"
    if _AMOUNT.match(text):
        return "amount:text"
    if _is_id(text):
        return "id"
    return "text"


def _is_id(text: str) -> bool:
    return text_ids(text) == {text.strip()} and any(ch.isdigit() for ch in text)


def _typed(original: Scalar, text: str) -> Scalar:
    """`text` in the type of `original` (a pool holds text; an int slot gets an int)."""
    try:
        if isinstance(original, int) and not isinstance(original, bool):
            return int(float(text))
        if isinstance(original, float):
            return float(text)
    except ValueError:
        return text
    return text


def _made_up(value: Scalar, today: date | None) -> Scalar | None:
    """An other value of the same type when the environment holds none: a step of one unit."""
    if isinstance(value, int):
        return value + 1 if value <= 20 else round(value * 1.25)
    if isinstance(value, float):
        return round(value * 1.25, 2)
    text = value.strip()
    kind = _kind(text)
    if kind == "date":
        day = date.fromisoformat(text) + timedelta(days=1)
        if today is not None and day < today:
            day = today + timedelta(days=1)
        return day.isoformat()
    if kind == "date:text":
        return _other_day(text)
    if kind == "time":
        minutes = _minutes(text) + (60 if _minutes(text) < 20 * 60 else -60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    if kind == "amount:text":
        return _other_amount(text)
    if kind == "id":
        return _mistyped(text)
    return None


def _other_amount(text: str) -> str:
    match = _AMOUNT.match(text)
    assert match is not None
    number = float(match.group(2))
    other = number + 1 if number <= 20 and number.is_integer() else round(number * 1.25, 2)
    if not match.group(1) and "." not in match.group(2):
        other = round(other)  # a count or a meter reading has no pence: 31877 is not 39846.25
    shown = (
        str(int(other))
        if float(other).is_integer() and "." not in match.group(2)
        else f"{other:.2f}"
    )
    return f"{match.group(1)}{shown}{match.group(3) or ''}"


def _other_day(text: str) -> str:
    """The next day in the same words ("23 December" for "22 December"), weekday dropped.

    >>> _other_day("Friday 22 December")
    '23 December'
    >>> _other_day("December 31st, 2026")
    'December 30th, 2026'
    """
    match = _TEXT_DATE.match(text)
    assert match is not None
    key = "day" if match.group("day") else "day2"
    day = int(match.group(key))
    other = day + 1 if day < 28 else day - 1
    start = match.start(key)
    tail = text[match.end(key) :]
    if re.match(r"(?:st|nd|rd|th)", tail):
        tail = _ordinal(other) + tail[2:]
    head = text[:start]
    head = re.sub(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+", "", head, flags=re.I)
    return f"{head}{other}{tail}"


def _ordinal(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _mistyped(text: str) -> str:
    """An id with its last digit one off: what a user mistypes."""
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    i = digits[-1]
    return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]


def _minutes(text: str) -> int:
    match = _TIME.match(text)
    assert match is not None
    return int(match.group(1)) * 60 + int(match.group(2))
