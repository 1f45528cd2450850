"""How the desk agent reads a customer message: requests, ids, durations, times, yes or no.

Everything is regular expressions over the message, split into clauses so that "extend R204 by
2 hours and cancel RS411" becomes two requests, each with its own facts. Nothing here calls a tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from benchmarks.bikes._seed import NOW

__all__ = ["Parsed", "answer_of", "parse"]

_I = re.IGNORECASE

# Checked in this order; the first that matches a clause names its request.
_INTENTS: list[tuple[str, re.Pattern[str]]] = [
    (i, re.compile(p, _I))
    for i, p in [
        (
            "refund",
            r"\brefund|money back|charged (me )?(twice|double)|double[- ]charged|"
            r"overcharged|reimburs|duplicate (charge|payment)|\b(twice|two times)\b.*\bcharg|"
            r"\bcharg\w*\b.*\b(twice|two times)\b",
        ),
        (
            "cancel_reservation",
            r"\bcancel\w*\b.*\b(reserv|booking|RS-?\s?\d)|"
            r"\b(reserv|booking)\w*\b.*\bcancel",
        ),
        (
            "report_damage",
            r"\bdamage|\bbroken|\bbroke\b|flat (tyre|tire)|puncture|\bbrakes?\b|"
            r"\bchain\b|\bbent\b|crack|wobbl|squeak|rattl|\bloose\b|faulty|"
            r"not working|(doesn'?t|does not|won'?t) work|snapped|\btorn\b|"
            r"\breport\w*\b.*\b(problem|issue|fault)|something('?s| is)? wrong with (the|my) bike",
        ),
        (
            "reserve_bike",
            r"\breserv|\bbook (a|an|me|one)\b|\bhold (a|an|one)\b|set aside|"
            r"put aside",
        ),
        (
            "rental_cost",
            r"\bdid\b.*\b(cost|pay)\b|\bcost\b.*\bin total\b|\btotal (cost|price|amount)|"
            r"how much (did|have) i\b|\bso far\b|\baltogether\b",
        ),
        (
            "extend_rental",
            r"\bextend|extension|more time|(?<!no )\blonger\b|"
            r"keep (it|(the|my) (e-?|cargo |city )?bike)|"
            r"(additional|another|extra|one more) (hour|day|\d)",
        ),
        (
            "end_rental",
            r"\b(i|i've|i have|we|we've|just|already)\s+(just\s+|already\s+)?returned|"
            r"\breturned (it|the|my)\b|dropped (it |the bike )?off|\bdocked|"
            r"\b(end|close|stop|finish)\w* (my |the |this )?(rental|ride|hire)\b|"
            r"still (shows?|showing|says|running|active|open|going)|"
            r"didn'?t (register|lock|end|close)|\bend it\b|"
            r"\b(locked|parked) it|check(ed)? (it )?in\b",
        ),
        (
            "rental_due_time",
            r"\bdue\b|when\b.*\b(back|return|due|end)|what time\b.*\b(back|return)"
            r"|\buntil when\b|\bby when\b|return (it )?by|how (long|much time)\b"
            r".*\b(left|have|keep)|\btime left\b|status of",
        ),
        ("end_rental", r"\breturn (it|the bike|my bike|the e-?bike)\b|\bend (my|the) rental"),
        (
            "station_availability",
            r"availab|\bdocks?\b|free (spots?|spaces?|places?)|how many "
            r"(bikes|e-?bikes|cargo|city)|\bany (bikes|e-?bikes|cargo|city|"
            r"spaces?|spots?)|(is|are) there\b.*\b(bikes?|e-?bikes?|space|"
            r"room)|room (at|for)|space at|where (can|could) i (find|get|pick up)",
        ),
        (
            "rental_cost",
            r"\bcost|how much|\bcharged\b|\bprice|\bbill\b|\btotal\b|\bpaid\b|"
            r"\bpay\b|\bspend|\bspent\b",
        ),
    ]
]

_SPLIT = re.compile(r"[.;!?]+\s+|,?\s+and\s+(?:also\s+)?|,?\s+also\s+|,?\s+plus\s+|\n+", _I)

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(
    r"(?<![\w:/-])(?:(?:\+|00)\d{1,3}[\s.-]?\d(?:[\s.-]?\d){7,10}|0\d(?:[\s.-]?\d){8})(?![\w:])"
)
_RENTAL = re.compile(r"\bR-?\s?(\d{3})\b", _I)
_RESERVATION = re.compile(r"\bRS-?\s?(\d{3})\b", _I)
_CHARGE = re.compile(r"\bCH-?\s?(\d{4})\b", _I)
_IDS = (
    ("rental_id", _RENTAL, "R"),
    ("reservation_id", _RESERVATION, "RS"),
    ("charge_id", _CHARGE, "CH"),
)

_STATIONS: list[tuple[str, re.Pattern[str]]] = [
    (n, re.compile(p, _I))
    for n, p in [
        ("Harbour Gate", r"\bharbou?r\b|\bST-?\s?1\b"),
        ("Market Square", r"\bmarket\b|marktplein|\bST-?\s?2\b"),
        ("Riverside Park", r"\briverside\b|\bST-?\s?3\b"),
        ("University Hill", r"\buniversity\b|\buni hill\b|\bcampus\b|\bST-?\s?4\b"),
        ("Old Town Depot", r"\bold town\b|\bdepot\b|\bST-?\s?5\b"),
        ("Central Station", r"\bcentral\b|\bmain station\b|\bcentraal\b|\bST-?\s?6\b"),
    ]
]
_BIKE_TYPES = [
    ("e-bike", re.compile(r"\be-?bikes?\b|\belectric\b|pedelec", _I)),
    ("cargo", re.compile(r"\bcargo\b|bakfiets|box bike", _I)),
    ("city", re.compile(r"\bcity ?bikes?\b|\b(regular|normal|standard|ordinary) bike", _I)),
]

_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "another": 1,
    "two": 2,
    "couple of": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "twenty-four": 24,
    "forty-eight": 48,
}
_NUM = r"\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))
_DURATION = re.compile(
    rf"\b(?P<num>{_NUM})[\s-]+(?:more\s+|extra\s+|additional\s+|further\s+)?"
    r"(?P<unit>hours?|hrs?|days?|weeks?)\b|\b(?P<num2>\d+)\s*(?P<unit2>h|d)\b",
    _I,
)
_PART_HOUR = re.compile(r"half an hour|\bminutes?\b|\bmins?\b", _I)

_YES = re.compile(
    r"\b(yes|yeah|yep|yup|sure|ok|okay|alright|all right|please do|go ahead|do it|confirm\w*|"
    r"correct|that'?s right|sounds good|fine|perfect|absolutely|definitely|of course|book it|"
    r"cancel it|file it|extend it|end it|refund it|go for it|deal)\b",
    _I,
)
_NO = re.compile(
    r"^\W*(no|nope|nah|not really)\b|\b(don'?t|do not|not now|not yet|hold on|hang on|wait|"
    r"never ?mind|rather not|changed my mind|let me think|maybe later|not sure)\b",
    _I,
)
_GREETING = re.compile(r"^\W*(hi|hello|hey|hiya|good (morning|afternoon|evening)|hallo|hoi)\b", _I)
_THANKS = re.compile(
    r"\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that is all|"
    r"nothing else|all good)\b",
    _I,
)
_DOCK_WORDS = re.compile(r"\bdocks?\b|\bspaces?\b|\bspots?\b|\bpark (it|the|my)\b|\broom\b", _I)

_NOT_THE_BIKE = re.compile(
    r"\b(dock|app|station|website|card|payment|terminal)\b(?!.*\b(brake|chain|tyre|tire|wheel|"
    r"saddle|pedal|frame|battery|motor|handlebar|gear|light|bell)s?\b)",
    _I,
)
_DAMAGE_DETAIL = re.compile(
    r"brake|chain|tyre|tire|wheel|light|bell|saddle|seat|pedal|basket|\bbox\b|battery|motor|"
    r"handlebar|gear|frame|\block\b|latch|mudguard|fender|kickstand|spoke|crank|display|screen|"
    r"flat|puncture|bent|crack|wobbl|squeak|rattl|loose|snapped|torn|scratch|dent",
    _I,
)
_CHARGE_KINDS = [
    ("extension", re.compile(r"extension|extend", _I)),
    ("cancellation_fee", re.compile(r"cancel\w* fee|cancellation", _I)),
    ("late_fee", re.compile(r"\blate\b", _I)),
    ("damage", re.compile(r"damage (fee|charge)", _I)),
]
_REASONS = [
    (
        "unused",
        re.compile(
            r"\bearly\b|earlier|did(n'?t| not) (use|need)|never used|unused|"
            r"(wasn'?t|not) used|sooner",
            _I,
        ),
    ),
    (
        "duplicate",
        re.compile(r"twice|double|duplicate|two (identical|times)|same (charge|amount)", _I),
    ),
    (
        "error",
        re.compile(
            r"wrong|mistake|error|incorrect|should(n'?t| not) have|by accident|"
            r"never (rode|took|rented)|not (mine|me)",
            _I,
        ),
    ),
]
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = {"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7}


@dataclass
class Parsed:
    """What one customer message says."""

    text: str
    email: str | None = None
    phone: str | None = None
    answer: str | None = None
    """`yes`, `no` or None."""
    requests: list[tuple[str, dict]] = field(default_factory=list)
    """(intent, facts of its clauses), in the order the customer asked."""
    loose: dict = field(default_factory=dict)
    """Facts from clauses that name no request."""
    greeting: bool = False
    thanks: bool = False


def parse(text: str) -> Parsed:
    """Read a customer message into requests, facts and a yes/no answer."""
    parsed = Parsed(text=text, answer=answer_of(text))
    email = _EMAIL.search(text)
    parsed.email = email.group(0).lower() if email else None
    phone = _PHONE.search(_EMAIL.sub(" ", text))
    parsed.phone = phone.group(0).strip() if phone else None
    parsed.greeting = bool(_GREETING.search(text))
    parsed.thanks = bool(_THANKS.search(text))
    for clause in _clauses(text):
        facts = facts_of(clause)
        intent = next((name for name, rx in _INTENTS if rx.search(clause)), None)
        if intent == "report_damage" and _NOT_THE_BIKE.search(clause):
            intent = None
        if intent is None:
            _merge(parsed.requests[-1][1] if parsed.requests else parsed.loose, facts)
        elif parsed.requests and parsed.requests[-1][0] == intent:
            _merge(parsed.requests[-1][1], facts)
        else:
            parsed.requests.append((intent, facts))
    if [intent for intent, _ in parsed.requests] == ["report_damage"] and _DAMAGE_DETAIL.search(
        text
    ):
        parsed.requests[0][1]["description"] = _description(text)
    return parsed


def answer_of(text: str) -> str | None:
    """`no` for a refusal or a hedge, `yes` for a plain agreement, else None."""
    if _NO.search(text):
        return "no"
    return "yes" if _YES.search(text) else None


def facts_of(text: str) -> dict:
    """Ids, station, bike type, duration, pickup time and refund details found in `text`."""
    found: dict = {}
    clean = _EMAIL.sub(" ", text)
    for key, rx, prefix in _IDS:
        match = rx.search(clean)
        if match:
            found[key] = prefix + match.group(1)
    station = next((name for name, rx in _STATIONS if rx.search(clean)), None)
    bike_type = next((name for name, rx in _BIKE_TYPES if rx.search(clean)), None)
    found.update({k: v for k, v in (("station", station), ("bike_type", bike_type)) if v})
    found.update(_duration(clean))
    found.update(_pickup(clean))
    found.update(_refund_facts(clean))
    if _DAMAGE_DETAIL.search(clean):
        found["description"] = _description(text)
    if _DOCK_WORDS.search(clean):
        found["about_docks"] = True
    return found


def _clauses(text: str) -> list[str]:
    return [clause for clause in _SPLIT.split(text) if clause and clause.strip()]


def _merge(into: dict, facts: dict) -> None:
    for key, value in facts.items():
        if key == "description" and key in into:
            into[key] = f"{into[key]}; {value}"
        else:
            into[key] = value


def _duration(text: str) -> dict:
    if _PART_HOUR.search(text) and not _DURATION.search(_PART_HOUR.sub(" ", text)):
        return {"duration": {"partial": True}}
    match = _DURATION.search(_PART_HOUR.sub(" ", text))
    if match is None:
        return {}
    raw = (match.group("num") or match.group("num2")).lower()
    unit = (match.group("unit") or match.group("unit2")).lower()
    amount = int(raw) if raw.isdigit() else _NUMBERS[raw]
    if unit.startswith("w"):
        return {"duration": {"amount": amount * 7, "unit": "days"}}
    return {"duration": {"amount": amount, "unit": "days" if unit.startswith("d") else "hours"}}


def _pickup(text: str) -> dict:
    day, clock = _day(text), _clock(text)
    found = {}
    if day:
        found["pickup_day"] = day.isoformat()
    if clock:
        found["pickup_clock"] = clock
    return found


def _day(text: str) -> date | None:
    today = NOW.date()
    low = text.lower()
    if "day after tomorrow" in low:
        return today + timedelta(days=2)
    if "tomorrow" in low:
        return today + timedelta(days=1)
    if re.search(r"\b(today|tonight|this (morning|afternoon|evening))\b", low):
        return today
    iso = re.search(r"\b(2026)-(\d\d)-(\d\d)(?!\d)", low)
    if iso:
        return date(2026, int(iso.group(2)), int(iso.group(3)))
    months = "|".join(_MONTHS)
    dm = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({months})\b", low)
    md = re.search(rf"\b({months}) (\d{{1,2}})(?:st|nd|rd|th)?\b", low)
    if dm or md:
        day_no, month = (dm.group(1), dm.group(2)) if dm else (md.group(2), md.group(1))
        return date(2026, _MONTHS[month], int(day_no))
    for index, name in enumerate(_WEEKDAYS):
        if re.search(rf"\b{name}\b", low):
            ahead = (index - today.weekday()) % 7 or 7
            return today + timedelta(days=ahead)
    return None


def _clock(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\b(noon|midday)\b", low):
        return "12:00"
    hour, minute = None, 0
    hm = re.search(r"(?<![\d-])([01]?\d|2[0-3])[:.h]([0-5]\d)\b", low)
    ampm = re.search(r"\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*(am|pm|a\.m\.|p\.m\.)", low)
    bare = re.search(
        r"\b(?:at|around|by|from) (1[0-9]|2[0-3]|0?[1-9])\b(?!\s*(?:hours?|days?|h\b|"
        r"st\b|nd\b|rd\b|th\b|june|july|may))",
        low,
    )
    if ampm:
        hour, minute = int(ampm.group(1)) % 12, int(ampm.group(2) or 0)
        hour += 12 if ampm.group(3).startswith("p") else 0
    elif hm:
        hour, minute = int(hm.group(1)), int(hm.group(2))
    elif bare:
        hour = int(bare.group(1))
        hour += 12 if hour < 7 or re.search(r"evening|afternoon|tonight", low) else 0
    if hour is None:
        return None
    return f"{hour:02d}:{minute:02d}"


def _refund_facts(text: str) -> dict:
    found = {}
    kind = next((k for k, rx in _CHARGE_KINDS if rx.search(text)), None)
    if kind:
        found["charge_kind"] = kind
    reason = next((k for k, rx in _REASONS if rx.search(text)), None)
    if reason:
        found["reason_kind"] = reason
        found["reason"] = text.strip()
    return found


def _description(text: str) -> str:
    cleaned = _EMAIL.sub("", text)
    cleaned = re.sub(r"\b(RS?|CH)-?\s?\d{3,4}\b", "", cleaned, flags=_I)
    cleaned = re.sub(r"^\W*(hi|hello|hey)\b[\s,!.]*", "", cleaned, flags=_I)
    cleaned = re.sub(r"\b(on|for) (my )?(rental|bike)\s*(?=[,.]|$)", "", cleaned, flags=_I)
    cleaned = re.sub(r"\(\s*\)", "", cleaned)
    return re.sub(r"\s{2,}", " ", cleaned).strip(" ,.;-")
