"""Reading customers' English: values (dates, money, readings, ids) and yes / no / not yet."""

from __future__ import annotations

import re

from benchmarks.domains.energy._dates import (
    _MONTH_RE,
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
    _absolute_dates,
    _count,
    nice_date,
    parse_date,
    without_birthdates,
)
from benchmarks.domains.energy._seed import TODAY

__all__ = ["MONTHS", "NUMBER_WORDS", "WEEKDAYS", "nice_date", "parse_date", "without_birthdates"]

ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "fifteenth": 15,
    "twentieth": 20, "twenty-first": 21, "twenty-fifth": 25, "twenty-eighth": 28,
    "thirtieth": 30, "last": 28,
}
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
ACCOUNT_RE = re.compile(r"\bGE[\s-]*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"(?:\+44\s?|\b0)(?:\d[\s-]?){9,10}\b")
METER_RE = re.compile(r"\b([EG]M\d{4})\b", re.I)
ADDRESS_RE = re.compile(
    r"\b\d+[A-Za-z]?(?:/\d+)?,?\s+[A-Za-z][\w' .-]*?(?:,\s*[\w' .-]+?)*,?\s+"
    r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b",
    re.I,
)


def norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2014", " - ").replace("\u2013", "-")
    return re.sub(r"\s+", " ", text).strip()


def money(value: float) -> str:
    return f"£{value:,.2f}"


def phone_text(digits: str) -> str:
    return f"{digits[:5]} {digits[5:]}" if len(digits) == 11 else digits


def ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


# -- identity ------------------------------------------------------------------------------


def account_numbers(text: str) -> list[str]:
    return [f"GE-{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def postcode(text: str) -> str | None:
    match = POSTCODE_RE.search(text)
    return f"{match.group(1).upper()} {match.group(2).upper()}" if match else None


def email(text: str) -> str | None:
    match = EMAIL_RE.search(text)
    return match.group().rstrip(".").lower() if match else None


def phone(text: str) -> str | None:
    match = PHONE_RE.search(text)
    if not match:
        return None
    digits = re.sub(r"\D", "", match.group())
    digits = "0" + digits[2:] if digits.startswith("44") else digits
    return digits if len(digits) == 11 else None


def is_new_email(text: str, mail: str) -> bool:
    """Whether the message gives `mail` as a new address ("change it to x", "my new email is x")."""
    pattern = rf"\b(?:new|to|now|is changing to)\b[\w\s:]{{0,25}}?{re.escape(mail)}"
    return bool(re.search(pattern, text.lower()))


def address(text: str) -> str | None:
    match = ADDRESS_RE.search(text)
    return match.group().strip(" ,.") if match else None


def date_of_birth(text: str) -> str | None:
    found = _absolute_dates(text, default_year=None)
    births = [d for d in found if d.year < TODAY.year - 15]
    return births[0].isoformat() if births else None


# -- numbers -----------------------------------------------------------------------------------


def amount(text: str) -> float | None:
    low = text.lower().replace(",", "")
    m = re.search(r"£\s*(\d+(?:\.\d{1,2})?)", low) or re.search(
        r"\b(\d+(?:\.\d{1,2})?)\s*(?:pounds|quid|gbp)\b", low
    )
    return float(m.group(1)) if m else None


def day_of_month(text: str) -> int | None:
    low = text.lower()
    m = (
        re.search(r"\b(\d{1,2})(?:st|nd|rd|th)\b", low)
        or re.search(r"\bday\s+(\d{1,2})\b", low)
        or re.search(r"\bon the (\d{1,2})\b", low)
    )
    if m:
        return int(m.group(1))
    for word, value in sorted(ORDINAL_WORDS.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"\b(?:the\s+){word}\b", low) and not re.search(rf"{word} (?:one|time)", low):
            return value
    return None


def months(text: str) -> int | None:
    low = text.lower()
    if re.search(r"\b(?:a|one|1) year\b|\btwelve months\b|\b12 months\b", low):
        return 12
    if re.search(r"\b(?:two|2) years\b", low):
        return 24
    if re.search(r"\b(?:a year and a half|18 months|eighteen months)\b", low):
        return 18
    if re.search(r"\bsix months\b|\bhalf a year\b", low):
        return 6
    m = re.search(r"\b(\d{1,2}|[a-z]+(?:[- ][a-z]+)?)[- ]?months?\b", low)
    if m:
        return _count(m.group(1)) or NUMBER_WORDS.get(m.group(1).split()[-1])
    return None


def reading(text: str) -> str | None:
    """A meter reading as the customer wrote it (digits, leading zeros kept), or None."""
    cleaned = strip_non_readings(text)
    cleaned = re.sub(r"(?<=\d),(?=\d{3}\b)", "", cleaned)
    m = re.search(r"(?<![\d£])(?<!\d\.)(\d{4,6})(?!\d|\.\d)", cleaned)
    return m.group(1) if m else None


def strip_non_readings(text: str) -> str:
    """The message without what looks like an id, a date, money, a phone or a postcode."""
    out = ACCOUNT_RE.sub(" ", text)
    out = METER_RE.sub(" ", out)
    out = EMAIL_RE.sub(" ", out)
    out = PHONE_RE.sub(" ", out)
    out = POSTCODE_RE.sub(" ", out)
    out = re.sub(r"£\s*[\d,]+(?:\.\d+)?", " ", out)
    out = re.sub(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b", " ", out)
    out = re.sub(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH_RE})\b,?\s*(?:\d{{4}})?",
                 " ", out, flags=re.I)
    out = re.sub(rf"\b(?:{_MONTH_RE})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s*(?:\d{{4}})?", " ", out,
                 flags=re.I)
    return re.sub(r"\b(?:19|20)\d\d\b(?=\s*(?:$|[.,;!?]))", " ", out)


def fuel(text: str) -> str | None:
    low = text.lower()
    elec = re.search(r"\belec(?:tric(?:ity)?)?\b|\bpower\b", low)
    gas = re.search(r"\bgas\b", low)
    if elec and gas:
        return "both"
    return "electricity" if elec else "gas" if gas else None


_TARIFF_PATTERNS = [
    ("GREEN12", r"\bgreen\b|\brenewable\b"),
    ("FIX24", r"fix(?:ed)?[\s-]*24\b|\b24[\s-]*months?\b|\btwo[\s-]*years?\b|\b2[\s-]*years?\b"),
    ("FIX12", r"fix(?:ed)?[\s-]*12\b|\b12[\s-]*months?\b|\b(?:one|1)[\s-]*year\b"
              r"|\btwelve[\s-]*months?\b"),
    ("VARIABLE", r"\bvariable\b|\bstandard\b|\bflexible\b|\bno fixed\b"),
]


def tariff(text: str) -> str | None:
    """The tariff the customer wants: in "from Fix 24 to Fix 12", the one after "to"."""
    low = text.lower()
    found = sorted(
        (m.start(), tariff_id)
        for tariff_id, pattern in _TARIFF_PATTERNS
        for m in re.finditer(pattern, low)
    )
    if not found:
        return None
    for start, tariff_id in found:
        if re.search(r"\b(?:to|onto|into|for|on to)\s+(?:the\s+|a\s+|your\s+)?$", low[:start]):
            return tariff_id
    current = [t for s, t in found if re.search(r"\b(?:from|off|leave|leaving|on|my)\s+"
                                                r"(?:the\s+|my\s+)?$", low[:s])]
    rest = [t for _, t in found if t not in current]
    return rest[0] if rest else found[-1][1]


# -- answers ---------------------------------------------------------------------------------

_HOLD = (
    r"\bnot yet\b|\bwait\b|\bhold on\b|\bhang on\b|\bhmm+\b|\blet me think\b|\bnot sure\b"
    r"|\bone moment\b|\bone sec|\bgive me a (?:minute|moment|sec)|\bthink about it\b"
    r"|\bunsure\b|\bbefore you do\b|\bhold off\b"
)
_NO = (
    r"\bno\b|\bnope\b|\bnah\b|\bdon't\b|\bdo not\b|\bleave it\b|\bcancel\b|\bnever ?mind\b"
    r"|\brather not\b|\bnot interested\b|\bkeep (?:it|my|things)\b|\bstay\b|\bdecline\b"
    r"|\bwon't\b|\bnot worth\b|\bforget it\b|\bskip\b"
)
_YES = (
    r"\byes\b|\byeah\b|\byep\b|\byup\b|\bsure\b|\bgo ahead\b|\bplease do\b|\bok(?:ay)?\b"
    r"|\bthat's (?:right|correct|fine|great|perfect|good)\b|\bcorrect\b|\bconfirm|\bdo it\b"
    r"|\bsounds (?:good|fine|great)\b|\bfine\b|\bproceed\b|\bplease\b|\bright\b|\bperfect\b"
    r"|\bagreed?\b|\bhappy (?:with|to)\b|\bgo for it\b|\bthat works\b|\bbook it\b|\bdone\b"
    r"|\bi accept\b|\bthat's it\b|\babsolutely\b|\bdefinitely\b|\bof course\b"
)


def answer(text: str) -> str | None:
    """'yes', 'no', 'hold' (not yet) or None for a reply to a confirmation question."""
    low = re.sub(r"\bno (?:problem|worries|rush)\b|\bnot a problem\b", " ", text.lower())
    low = re.sub(r"\bdon't mind\b|\bno objection", " yes ", low)
    if re.search(_HOLD, low):
        return "hold"
    if re.search(_NO, low):
        return "no"
    if re.search(_YES, low):
        return "yes"
    return None


def wants_nothing_more(text: str) -> bool:
    low = text.lower()
    return bool(
        re.search(r"\b(?:that's all|that is all|nothing else|no,? thanks|no thank you|all good"
                  r"|that's everything|bye|goodbye|that'll be all|i'm done|all set)\b", low)
    )
