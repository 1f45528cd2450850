"""Typed values in agent replies and in tool calls: money, dates, times, weekdays, quantities, ids.

To tell whether an agent's reply says what its tool calls did, both sides are read into the same
typed values: "$45.99" and `{"refund_cents": 4599}` are one amount, "March 18" and
`"2026-03-18"` one date (and its weekday), "half past eleven" and `"11:30"` one time, "two days"
and `{"days": 2}` one quantity. Everything is text processing
over one reply and one JSON value, the same for every product; no model is involved. The failure
detectors read agent replies with it, and the offline user reads proposals with it.

>>> sorted(text_values("Refunded $45.99; due back 18:00 on March 18, extended by two days."))
[('date', '03-18'), ('money', '45.99'), ('quantity:day', '2'), ('time', '18:00')]
>>> sorted(text_values("Booked for half past eleven on Friday."))
[('time', '11:30'), ('weekday', 'friday')]
>>> sorted(text_values("Yoga at half seven, for half an hour"))
[('quantity:hour', '0.5'), ('time', '19:30')]
>>> sorted(json_values({"refund_cents": 4599, "due_back": "2026-03-18T18:00:00", "days": 2}))[:4]
[('date', '03-18'), ('money', '45.99'), ('quantity:day', '2'), ('time', '18:00')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from pydantic import JsonValue

__all__ = [
    "NUMERIC_DATE",
    "OPENING_HOURS",
    "UNIT_FAMILIES",
    "Value",
    "id_shape",
    "iter_strings",
    "json_values",
    "money_amount",
    "measure_of",
    "numeric_days",
    "text_ids",
    "text_values",
    "with_equivalents",
]

Value = tuple[str, str]
"""(kind, canonical text): `("money", "45.99")`, `("date", "03-18")`, `("quantity:day", "2")`."""

UNIT_FAMILIES: dict[str, tuple[str, ...]] = {
    "minute": ("minute", "minutes", "min", "mins"),
    "hour": ("hour", "hours", "hr", "hrs", "h"),
    "day": ("day", "days"),
    "night": ("night", "nights"),
    "week": ("week", "weeks"),
    "month": ("month", "months"),
    "tablet": ("tablet", "tablets", "pill", "pills", "capsule", "capsules"),
    "seat": ("seat", "seats"),
    "ticket": ("ticket", "tickets"),
    "bag": ("bag", "bags"),
    "metre": ("metre", "metres", "meter", "meters"),
}
"""Units whose quantities replies and arguments state; a key named like a unit carries one."""

_SPANS = frozenset({"minute", "hour", "day", "night", "week", "month"})


def measure_of(kind: str) -> str:
    """What a value of this kind measures: the kind, and for a quantity its unit's measure.

    A span of time is one measure whatever its unit ("2 hours" may be a wrong "2 days"); a
    length or a count is a measure of its own ("9.4 m" is never a wrong "6 weeks").

    >>> measure_of("quantity:week"), measure_of("quantity:hour"), measure_of("quantity:metre")
    ('span', 'span', 'quantity:metre')
    >>> measure_of("money")
    'money'
    """
    family, _, unit = kind.partition(":")
    if family != "quantity":
        return family
    return "span" if unit in _SPANS else kind


_SPAN_AS = {"hour": ("minute", 60), "week": ("day", 7)}
"""Spans said in another unit with an exact factor (a month or a night has no fixed days)."""


def with_equivalents(values: set[Value]) -> set[Value]:
    """The values with each span also in its other exact unit: hours and minutes, weeks and days.

    A one-hour lesson is 60 minutes, and 90 minutes an hour and a half.

    >>> sorted(with_equivalents({("quantity:hour", "1"), ("money", "38.00")}))
    [('money', '38.00'), ('quantity:hour', '1'), ('quantity:minute', '60')]
    >>> sorted(with_equivalents({("quantity:minute", "90")}))
    [('quantity:hour', '1.5'), ('quantity:minute', '90')]
    """
    out = set(values)
    for kind, value in values:
        unit = kind.partition(":")[2]
        try:
            number = float(value)
        except ValueError:
            continue
        for big, (small, factor) in _SPAN_AS.items():
            if unit == big:
                out.add((f"quantity:{small}", _number(number * factor)))
            elif unit == small:
                out.add((f"quantity:{big}", _number(number / factor)))
    return out


OPENING_HOURS = re.compile(
    r"\b(?:we(?:'re| are) open|open(?:ing)? (?:hours|times)|(?:is|are) open|"
    r"(?:opens|closes)(?=\s+(?:at|from|on|until|till|daily|every\s+day|weekdays|at\s+weekends"
    r"|\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day))|closed on|hours are)\b",
    re.IGNORECASE,
)
"""A sentence giving opening hours: its days and times bound a choice, they answer nothing.

"Opens" and "closes" say hours only before a time or a day ("the office opens at 9:00"): "the
code opens every pontoon gate" says none."""

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1,
}  # fmt: skip
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")]
    )
    for m in names
}  # fmt: skip
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONEY_TEXT = re.compile(
    r"(?:\$|USD\s?|EUR\s?|GBP\s?|€|£)\s?(\d[\d,]*(?:\.\d{1,2})?)"
    r"|(\d[\d,]*(?:\.\d{2})?)\s?(?:dollars|USD|EUR|GBP|euros?|pounds)\b",
    re.I,
)
_HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_HOUR = r"(1[0-2]|0?[1-9]|" + "|".join(_HOUR_WORDS) + ")"
_SPOKEN_TIME = re.compile(
    rf"\b(?:(half|quarter)\s+(?:(past|to|after)\s+)?{_HOUR}(?!\s*(?:hours?|minutes?|mins?)\b)|{_HOUR}\s+o'?\s?clock|(noon|midday|midnight)"
    rf"|{_HOUR}\s+(fifteen|thirty|forty-five|forty five))\b"
    r"(?:\s+(?:in\s+the\s+)?(morning|afternoon|evening|tonight|a\.?m\.?|p\.?m\.?))?",
    re.I,
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_TEXT = re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")\b", re.I)
NUMERIC_DATE = re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?![\d/.])")
"""A date in figures, "02/11/1969" or "2.11.69": day and month in either order."""
_ISO_YEAR_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_ISO_DATE = re.compile(r"\b(?:\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?")
_MONTH_DAY = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b", re.I)
_CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b(?:\s*([ap])\.?m\.?)?", re.I)
_CLOCK_AMPM = re.compile(r"\b(1[0-2]|0?[1-9])\s*([ap])\.?m\.?(?!\w)", re.I)
_UNITS = {alias: family for family, aliases in UNIT_FAMILIES.items() for alias in aliases}
_QUANTITY = re.compile(
    r"\b(\d+(?:\.\d+)?|"
    + "|".join(_NUMBER_WORDS)
    + r")[\s-]+("
    + "|".join(sorted((a for a in _UNITS if len(a) > 1), key=len, reverse=True))
    + r")\b",
    re.I,
)
_MONEY_KEY = re.compile(
    r"(?:^|_)(?:amount|price|total|refund|fee|cost|charge|balance|paid|subtotal|limit|copay|fare"
    r"|deposit|difference|surcharge|rate|instal+ment|payment|overdue|owed|arrears|bill|estimate)"
    r"|_(?:eur|usd|gbp|chf|dollars|euros|pounds)$"  # `difference_eur`: the currency says it
)
_ID_TOKEN = re.compile(
    r"(?<![\w@.-])(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w@-])"
)


def text_values(text: str) -> set[Value]:
    """Return the money, dates, times and quantities a text states."""
    return set(_text_values_cached(text))


# Several detectors, the validity checks and the offline user read the same replies and tool
# results; parsing each text once per process made computing a run's metrics about twice as fast
# (benchmarks/README.md, "Results commands"). Pure functions of a string, so a bounded cache
# is safe; callers get a fresh set to change.
_PARSED_TEXTS = 32_768


@lru_cache(maxsize=_PARSED_TEXTS)
def _text_values_cached(text: str) -> frozenset[Value]:
    found: set[Value] = set()
    for match in _MONEY_TEXT.finditer(text):
        found.add(("money", _money(match.group(1) or match.group(2))))
    for match in _ISO_DATE.finditer(text):
        found.add(("date", f"{int(match.group(1)):02d}-{int(match.group(2)):02d}"))
        if match.group(3):
            found.add(("time", f"{int(match.group(3)):02d}:{match.group(4)}"))
    for match in NUMERIC_DATE.finditer(text):
        found |= {("date", day) for day in numeric_days(match)}
    for match in _MONTH_DAY.finditer(text):
        if "." in match.group(0) and len(match.group(1)) > 4:
            continue  # "ends on 23 December. 4 later cleans cancelled": a full stop, not "Dec."
        found.add(("date", f"{_MONTHS[match.group(1).lower()]:02d}-{int(match.group(2)):02d}"))
    for match in _DAY_MONTH.finditer(text):
        found.add(("date", f"{_MONTHS[match.group(2).lower()]:02d}-{int(match.group(1)):02d}"))
    stripped = _ISO_DATE.sub(" ", text)
    for match in _CLOCK.finditer(stripped):
        found.add(("time", _clock(int(match.group(1)), int(match.group(2)), match.group(3))))
    for match in _CLOCK_AMPM.finditer(_CLOCK.sub(" ", stripped)):
        found.add(("time", _clock(int(match.group(1)), 0, match.group(2))))
    for match in _SPOKEN_TIME.finditer(text):
        found.add(("time", _spoken_time(match)))
    for match in _WEEKDAY_TEXT.finditer(text):
        found.add(("weekday", match.group(1).lower()))
    for match in _ISO_YEAR_DATE.finditer(text):
        found.add(("weekday", _weekday(match)))
    found |= _quantities(text)
    return frozenset(found)


def _quantities(text: str) -> set[Value]:
    found: set[Value] = set()
    for match in _QUANTITY.finditer(_MONEY_TEXT.sub(" £MONEY ", text)):
        amount = match.group(1).lower()
        before = match.string[: match.start()]
        if amount in ("a", "an") and _RATE_BEFORE.search(before):
            continue  # "£42.00 a month", "twice a week": a rate, not a length
        if re.match(r"['’]s?\s", match.string[match.end() :]):
            continue  # "one month's notice", "two weeks' grace": what qualifies a rule
        number = _NUMBER_WORDS.get(amount) or float(amount)
        if amount in ("a", "an") and re.search(r"\bhalf\s+$", before):
            number = 0.5  # "half an hour"
        found.add((f"quantity:{_UNITS[match.group(2).lower()]}", _number(number)))
    for match in _DECIMAL_METRES.finditer(text):  # "5.5 m", "4.4m": a length, as on a vehicle
        found.add(("quantity:metre", _number(float(match.group(1)))))
    return found


_DECIMAL_METRES = re.compile(r"(?<![\d.£$€])(\d+\.\d+)\s?m\b(?!\s*(?:£|\$|€))")
"""A length in metres with its decimals ("5.5 m"): a bare "5 m" may be minutes or millions."""


def json_values(value: JsonValue, key: str = "") -> set[Value]:
    """Return the money, dates, times and quantities anywhere in tool arguments or a result."""
    found: set[Value] = set()
    if isinstance(value, dict):
        for name, item in value.items():
            found |= json_values(item, str(name))
        unit = value.get("unit")
        amount = value.get("amount") or value.get("value") or value.get("duration")
        if (
            isinstance(unit, str)
            and isinstance(amount, int | float)
            and not isinstance(amount, bool)
        ):
            family = _UNITS.get(unit.lower().rstrip("s")) or _UNITS.get(unit.lower())
            if family:
                found.add((f"quantity:{family}", _number(amount)))
        return found
    if isinstance(value, list):
        for item in value:
            found |= json_values(item, key)
        return found
    if isinstance(value, bool) or value is None:
        return found
    if isinstance(value, int | float):
        return found | _keyed_number(key.lower(), value)
    if isinstance(value, str):
        found |= _string_values(value)
    return found


@lru_cache(maxsize=_PARSED_TEXTS)
def _string_values(value: str) -> frozenset[Value]:
    """`json_values` of one string, whatever its key.

    Tool results repeat their strings (statuses, names, dates) call after call, and several
    detectors ask again, so each string is parsed once (a pure function, as `text_values`).
    """
    found = {v for v in text_values(value) if v[0] in ("date", "time")}
    # A field that is an amount and nothing else ("remaining": "£1.75") is money; amounts
    # inside free text (a description, a note) are not what the call carried.
    amount = money_amount(value)
    if amount is not None:
        found.add(("money", f"{amount:.2f}"))
    found |= {("weekday", _weekday(m)) for m in _ISO_YEAR_DATE.finditer(value)}
    return frozenset(found)


def money_amount(text: str) -> float | None:
    """The amount of a text that is an amount and nothing else, or a rate.

    "£1.75", "12.50 EUR", "£1.60 per 100 g" are amounts; "£1.75 owed" is a sentence.

    >>> money_amount("£1,250.50"), money_amount("£1.60 per 100 g"), money_amount("£1.75 owed")
    (1250.5, 1.6, None)
    >>> money_amount("-£12.00")
    -12.0
    """
    text = _RATE_AFTER.sub("", text.strip())
    sign = -1.0 if text[:1] in ("-", "\u2212") else 1.0  # "-£12.00": a sum paid back
    whole = _MONEY_TEXT.fullmatch(text[1:].lstrip() if sign < 0 else text)
    return sign * float(_money(whole.group(1) or whole.group(2))) if whole else None


_RATE_AFTER = re.compile(r"\s*(?:(?:per|each|a|an)\b|/)\s*[\w .]*$", re.IGNORECASE)
"""What follows a price to make it a rate ("£1.60 per 100 g", "£42.00 a month", "€3/kg")."""


def numeric_days(match: re.Match[str]) -> set[str]:
    """The days (`MM-DD`) a numeric date may mean: "02/11/1969" is 2 November or 11 February.

    >>> sorted(numeric_days(NUMERIC_DATE.search("born 02/11/1969"))), numeric_days(
    ...     NUMERIC_DATE.search("on 22/11/1971"))
    (['02-11', '11-02'], {'11-22'})
    """
    first, second = int(match.group(1)), int(match.group(2))
    readings = {(second, first), (first, second)}  # day/month, month/day
    return {f"{m:02d}-{d:02d}" for m, d in readings if 1 <= m <= 12 and 1 <= d <= 31}


def text_ids(text: str) -> set[str]:
    """Return the id-like tokens (letters and digits: W1003, BIO101-B, R204) of a text."""
    return set(_text_ids_cached(text))


@lru_cache(maxsize=_PARSED_TEXTS)
def _text_ids_cached(text: str) -> frozenset[str]:
    return frozenset(m.group(0) for m in _ID_TOKEN.finditer(text))


def id_shape(token: str) -> str:
    """Return the shape of an id (`W1003` -> `A9999`), so ids of one kind compare."""
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "A", token.upper()))


_RATE_BEFORE = re.compile(
    r"(?:£MONEY(?:\s+(?:a|an|per)\s+[a-z-]+)?|\bper|\btimes|\btwice|\bonce"
    r"|\b\d+(?:\.\d+)?(?:\s+[a-z-]+){1,2})\s*$",
    re.IGNORECASE,
)
"""Before "a week": a rate ("£42.00 a month", "twice a week", "30 funded hours a week", "£3.00
a metre a week")."""


def _keyed_number(key: str, number: float) -> set[Value]:
    parts = key.split("_")
    if "of" in parts or parts[-1] in ("day", "date"):
        return set()  # `day_of_month: 20`, `bill_due_day: 28`: a day of the month, no amount
    if parts[-1] in ("cents", "pence", "minor", "p"):  # `refund_pence: 4140` is £41.40
        return {("money", f"{number / 100:.2f}")}
    if _MONEY_KEY.search(key):
        return {("money", f"{number:.2f}")}
    for part in reversed(parts):
        family = _UNITS.get(part)
        if family is not None and len(part) > 1:
            return {(f"quantity:{family}", _number(number))}
    return set()


def _money(text: str) -> str:
    return f"{float(text.replace(',', '')):.2f}"


def _number(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def _spoken_time(match: re.Match[str]) -> str:
    """Read a spoken time ("half past eleven" is 11:30).

    A bare hour under 8 is taken as the afternoon, as office hours go, unless the phrase says
    the morning.
    """
    part, direction, hour_a, hour_b, named, hour_c, minutes_word, period = match.groups()
    if named:
        return "00:00" if named.lower() == "midnight" else "12:00"
    hour_text = hour_a or hour_b or hour_c
    hour = _HOUR_WORDS.get(hour_text.lower()) or int(hour_text)
    minute = 0
    if part:
        # "half seven" is half past seven, as people say it in Britain.
        towards = (direction or "past").lower() == "to"
        step = 30 if part.lower() == "half" else 15
        minute = 60 - step if towards else step
        hour = hour - 1 if towards else hour
        hour = 12 if hour == 0 else hour
    elif minutes_word:
        minute = {"fifteen": 15, "thirty": 30}.get(minutes_word.lower(), 45)
    return _clock(hour, minute, _half_of_day(hour, period))


def _half_of_day(hour: int, period: str | None) -> str:
    word = (period or "").lower().replace(".", "")
    if word in ("morning", "am"):
        return "a"
    if word in ("afternoon", "evening", "tonight", "pm") or hour < 8:
        return "p"
    return "a" if hour != 12 else "p"


def _weekday(match: re.Match[str]) -> str:
    from datetime import date

    year, month, day = (int(g) for g in match.groups()[:3])
    try:
        return _WEEKDAYS[date(year, month, day).weekday()]
    except ValueError:
        return ""


def _clock(hour: int, minute: int, half: str | None) -> str:
    if half:
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    return f"{hour:02d}:{minute:02d}"


def iter_strings(value: JsonValue) -> Iterator[str]:
    """Yield every string and number (as text) inside a JSON value."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            yield item
        elif isinstance(item, int | float) and not isinstance(item, bool):
            yield str(item)
