"""Reading owners' English: ids, postcodes, phones, dates, times, amounts, quantities, yes/no."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "hundred": 100, "a hundred": 100, "one hundred": 100,
}
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "twenty-first": 21, "twenty-second": 22,
    "twenty-third": 23, "twenty-fourth": 24, "twenty-fifth": 25, "twenty-sixth": 26,
    "twenty-seventh": 27, "twenty-eighth": 28, "twenty-ninth": 29, "thirtieth": 30,
}
HOUR_WORDS = {w: n for w, n in NUMBER_WORDS.items() if n <= 12}

CLIENT_RE = re.compile(r"\bC[\s-]?(\d{4})\b", re.I)
CLIENT_BARE_RE = re.compile(r"\bclient (?:number|no\.?|#)?\s*(?:is\s*)?(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
PHONE_RE = re.compile(r"(?:\+44\s?\(?0?\)?\s?|\b0)(\d[\d\s-]{8,12}\d)\b")
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
INVOICE_RE = re.compile(r"\bINV[\s-]?(\d{4})\b", re.I)
APPT_RE = re.compile(r"\bA[\s-]?(7\d{3})\b", re.I)


def client_number(text: str) -> str | None:
    m = CLIENT_RE.search(text) or CLIENT_BARE_RE.search(text)
    return f"C{m.group(1)}" if m else None


def postcodes(text: str) -> list[tuple[int, str]]:
    return [(m.start(), f"{m.group(1)} {m.group(2)}".upper()) for m in POSTCODE_RE.finditer(text)]


def phones(text: str) -> list[tuple[int, str]]:
    found = []
    for m in PHONE_RE.finditer(text):
        digits = "0" + re.sub(r"\D", "", m.group(1))
        if len(digits) == 11:
            found.append((m.start(), f"{digits[:5]} {digits[5:]}"))
    return found


def emails(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0).rstrip(".").lower()) for m in EMAIL_RE.finditer(text)]


def invoice_ids(text: str) -> list[str]:
    return [f"INV-{m.group(1)}" for m in INVOICE_RE.finditer(text)]


# -- dates -----------------------------------------------------------------------------------
_WD = "|".join(WEEKDAYS)
_MON = "|".join(m[:3] + r"[a-z]*" for m in MONTHS)
_ORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
DATE_PATTERNS = [
    ("iso", re.compile(r"\b(20\d\d)-(\d{1,2})-(\d{1,2})\b")),
    ("dmy", re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b")),
    ("day_month", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({_MON})\b", re.I)),
    ("month_day", re.compile(rf"\b({_MON}) (\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)),
    ("ordinal", re.compile(r"\b(?:the )?(\d{1,2})(st|nd|rd|th)\b", re.I)),
    ("ordinal_word", re.compile(rf"\bthe ({_ORD})\b", re.I)),
    ("day_after", re.compile(r"\bday after tomorrow\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("today", re.compile(r"\b(today|this (?:afternoon|evening))\b", re.I)),
    ("weekday", re.compile(rf"\b(?:(this|next|on|coming|this coming) )?({_WD})( week)?\b",
                           re.I)),
]


@dataclass(frozen=True)
class DateHit:
    start: int
    end: int
    day: date


def _month_index(word: str) -> int:
    return next(i for i, m in enumerate(MONTHS, 1) if word.lower().startswith(m[:3]))


def _day_of_month(number: int, today: date) -> date | None:
    year, month = today.year, today.month
    if number < today.day:
        month += 1
        if month == 13:
            year, month = year + 1, 1
    try:
        return date(year, month, number)
    except ValueError:
        return None


def _weekday(m: re.Match[str], today: date) -> date:
    target = WEEKDAYS.index(m.group(2).lower())
    ahead = (target - today.weekday()) % 7
    if ahead == 0:
        ahead = 7  # today's diary is not bookable online: "Wednesday" is next Wednesday
    day = today + timedelta(days=ahead)
    if m.group(3):  # "Friday week"
        day += timedelta(days=7)
    return day


def _one_date(kind: str, m: re.Match[str], today: date) -> date | None:
    try:
        if kind == "iso":
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if kind == "dmy":
            year = int(m.group(3)) if m.group(3) else today.year
            return date(year + 2000 if year < 100 else year, int(m.group(2)), int(m.group(1)))
        if kind == "day_month":
            return _with_year(int(m.group(1)), _month_index(m.group(2)), today)
        if kind == "month_day":
            return _with_year(int(m.group(2)), _month_index(m.group(1)), today)
    except ValueError:
        return None
    if kind == "ordinal":
        return _day_of_month(int(m.group(1)), today)
    if kind == "ordinal_word":
        return _day_of_month(ORDINAL_WORDS[m.group(1).lower()], today)
    if kind == "day_after":
        return today + timedelta(days=2)
    if kind == "tomorrow":
        return today + timedelta(days=1)
    if kind == "today":
        return today
    return _weekday(m, today)


def _with_year(day: int, month: int, today: date) -> date:
    found = date(today.year, month, day)
    return found if found >= today - timedelta(days=180) else date(today.year + 1, month, day)


def find_dates(text: str, today: date, *, past: bool = False) -> list[DateHit]:
    """Dates mentioned in `text`, in order; relative ones read against `today`.

    `past=True` reads day-month dates as past dates (dates of birth).
    """
    hits: list[DateHit] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            if kind == "ordinal" and re.match(r"\s*(?:birthday|century)", text[m.end():]):
                continue
            day = _one_date(kind, m, today)
            if day is None:
                continue
            if past and day > today and kind in {"day_month", "month_day", "dmy"}:
                day = day.replace(year=day.year - 1)
            taken.append((m.start(), m.end()))
            hits.append(DateHit(m.start(), m.end(), day))
    weekday_check(text, hits)
    return sorted(hits, key=lambda h: h.start)


def weekday_check(text: str, hits: list[DateHit]) -> None:
    """'Monday the 16th': keep the explicit date, drop the weekday (same day or not)."""
    for hit in list(hits):
        word = text[hit.start:hit.end].lower().split()[-1]
        if word in WEEKDAYS or word == "week":
            tail = text[hit.end:hit.end + 12]
            if any(other.start > hit.end and other.start - hit.end <= len(tail) and
                   re.match(r"[\s,]*(?:the )?\d", tail) for other in hits):
                hits.remove(hit)


# -- times -----------------------------------------------------------------------------------
_HW = "|".join(sorted(HOUR_WORDS, key=len, reverse=True))
TIME_PATTERNS = [
    ("hm", re.compile(r"(?<![£\d.])\b(\d{1,2})[:.](\d{2})\s*(a\.?m\.?|p\.?m\.?)?(?![\d%])",
                      re.I)),
    ("h_ampm", re.compile(r"\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)(?=\W|$)", re.I)),
    ("half_past", re.compile(rf"\bhalf past ({_HW}|\d{{1,2}})\b", re.I)),
    ("quarter_past", re.compile(rf"\bquarter past ({_HW}|\d{{1,2}})\b", re.I)),
    ("quarter_to", re.compile(rf"\bquarter to ({_HW}|\d{{1,2}})\b", re.I)),
    ("half_h", re.compile(rf"\bhalf ({_HW})\b", re.I)),
    ("oclock", re.compile(rf"\b({_HW}|\d{{1,2}})\s*o'?\s?clock\b", re.I)),
    ("noon", re.compile(r"\b(noon|midday|12 noon)\b", re.I)),
    ("h_thirty", re.compile(rf"\b({_HW}) (thirty|fifteen|forty-five)\b", re.I)),
    ("at_h", re.compile(rf"\b(?:at|after|before|from|around|about|by) ({_HW}|\d{{1,2}})\b"
                        r"(?!\s*(?:tablets?|ml|pounds|quid|%|st|nd|rd|th|/))", re.I)),
]


@dataclass(frozen=True)
class TimeHit:
    start: int
    end: int
    time: str            # HH:MM
    relation: str        # at / after / before


def _hour(word: str) -> int:
    return int(word) if word.isdigit() else HOUR_WORDS[word.lower()]


def _clock(hour: int, minute: int, ampm: str | None) -> str | None:
    ampm = (ampm or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    elif not ampm and 1 <= hour <= 7:
        hour += 12  # the practice is open 9 to 6: "at 4" is the afternoon
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return f"{hour:02d}:{minute:02d}"


def _one_time(kind: str, m: re.Match[str]) -> str | None:
    if kind == "hm":
        return _clock(int(m.group(1)), int(m.group(2)), m.group(3))
    if kind == "h_ampm":
        return _clock(int(m.group(1)), 0, m.group(2))
    if kind in {"half_past", "half_h"}:
        return _clock(_hour(m.group(1)), 30, None)
    if kind == "quarter_past":
        return _clock(_hour(m.group(1)), 15, None)
    if kind == "quarter_to":
        return _clock(_hour(m.group(1)) - 1, 45, None)
    if kind == "noon":
        return "12:00"
    if kind == "h_thirty":
        minutes = {"thirty": 30, "fifteen": 15, "forty-five": 45}[m.group(2).lower()]
        return _clock(_hour(m.group(1)), minutes, None)
    return _clock(_hour(m.group(1)), 0, None)


def find_times(text: str) -> list[TimeHit]:
    """Clock times in `text`, each with how it was said: at, after or before it."""
    hits: list[TimeHit] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in TIME_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            if kind == "hm" and re.match(r"\s*(?:kg|ml|tablets)", text[m.end():], re.I):
                continue
            time = _one_time(kind, m)
            if time is None:
                continue
            before = text[max(0, m.start() - 14):m.start()].lower() + m.group(0).lower()
            relation = "at"
            if re.search(r"\b(after|from|later than|no earlier than)\b", before):
                relation = "after"
            elif re.search(r"\b(before|by|no later than|earlier than)\b", before):
                relation = "before"
            taken.append((m.start(), m.end()))
            hits.append(TimeHit(m.start(), m.end(), time, relation))
    return sorted(hits, key=lambda h: h.start)


def bare_hour(text: str) -> list[TimeHit]:
    """'11 please', 'no, 3 then': a short answer that is just an hour."""
    if len(re.findall(r"\w+", text)) > 5:
        return []
    m = re.search(r"(?<![£\d/.:-])\b(\d{1,2})\b(?!\s*(?:st|nd|rd|th|tablets?|ml|pounds|/|:|\.|%))",
                  text, re.I)
    if not m or not (1 <= int(m.group(1)) <= 12):
        return []
    time = _clock(int(m.group(1)), 0, None)
    return [TimeHit(m.start(), m.end(), time, "at")] if time else []


def day_part(text: str) -> str | None:
    t = re.sub(r"\bgood (?:morning|afternoon|evening)\b", " ", text.lower())
    if re.search(r"\b(first thing|earliest|as early as)\b", t):
        return "earliest"
    if re.search(r"\b(late afternoon|end of the day|after work|after school)\b", t):
        return "late"
    if re.search(r"\bmorning\b", t):
        return "morning"
    if re.search(r"\bafternoon\b", t):
        return "afternoon"
    return None


# -- money and quantities --------------------------------------------------------------------
MONEY_RE = re.compile(r"£\s?(\d+(?:,\d{3})*(?:\.\d{1,2})?)|"
                      r"\b(\d+(?:\.\d{2})?)\s*(?:pounds|quid|gbp)\b|\b(\d+)p\b", re.I)


def amounts(text: str) -> list[float]:
    found = []
    for m in MONEY_RE.finditer(text):
        if m.group(3):
            found.append(int(m.group(3)) / 100)
        else:
            found.append(float((m.group(1) or m.group(2)).replace(",", "")))
    return found


def wants_full_amount(text: str) -> bool:
    return bool(re.search(r"\b(in full|full amount|all of it|the lot|whole (amount|thing|bill)|"
                          r"everything|the full|pay (it )?off|clear (it|the))\b", text, re.I))


QTY_RE = re.compile(r"\b(\d{1,3}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) +
                    r")\s*(tablets?|tabs|pills|chews|ml|mls|millilitres?|milliliters?)\b", re.I)


def quantities(text: str) -> list[int]:
    out = []
    for m in QTY_RE.finditer(text):
        word = m.group(1).lower()
        out.append(int(word) if word.isdigit() else NUMBER_WORDS[word])
    return out


def bare_number(text: str) -> int | None:
    m = re.search(r"\b(\d{1,3})\b", text)
    if m:
        return int(m.group(1))
    for word, n in sorted(NUMBER_WORDS.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"\b{word}\b", text, re.I):
            return n
    return None


def wants_maximum(text: str) -> bool:
    return bool(re.search(r"\b(the )?(max(imum)?|most (you|i) can|most (you'?re|you are|i'?m|i am) "
                          r"allowed|most allowed|as many as|as much as|the limit|full (repeat|"
                          r"amount|quantity)|usual|normal|same as (last time|before|usual)|"
                          r"whatever)\b", text, re.I))


# -- yes / no --------------------------------------------------------------------------------
HEDGE_RE = re.compile(r"\b(not yet|hold on|hang on|wait|let me think|not sure|unsure|"
                      r"give me a (?:sec|second|minute|moment)|one moment|just a moment|"
                      r"need to check|i'?ll (?:think|check)|thinking about it)\b", re.I)
NO_RE = re.compile(r"^\W*(no|nope|nah)\b|\b(don'?t|do not)\b(?! worry)|\b(leave it|never ?mind|"
                   r"forget it|changed my mind|rather not|no thanks|no thank you|not that)\b",
                   re.I)
YES_RE = re.compile(r"\b(yes|yeah|yep|yup|aye|please do|go ahead|go for it|do it|do that|"
                    r"that'?s (?:fine|great|perfect|right|correct|good|lovely|ok|okay)|"
                    r"sounds (?:good|great|fine|perfect|right)|ok|okay|sure|confirm(?:ed)?|correct|"
                    r"perfect|lovely|great|brilliant|fine|book it|book that|that works|"
                    r"works for me|that one|happy with that|absolutely|definitely|of course|"
                    r"please)\b", re.I)


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' or None for a reply to a yes/no question."""
    if HEDGE_RE.search(text):
        return "hedge"
    if NO_RE.search(text):
        return "no"
    if YES_RE.search(text):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(re.search(r"\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that'?s everything"
                          r"|nothing else|all good|that'?s it)\b", text, re.I))


# -- formatting ------------------------------------------------------------------------------
def say_date(day: date | str) -> str:
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B')}"


def say_birthday(day: date | str) -> str:
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return f"{day.day} {day.strftime('%B')} {day.year}"


def say_time(hhmm: str) -> str:
    hour, minute = (int(x) for x in hhmm.split(":"))
    suffix = "am" if hour < 12 else "pm"
    hour12 = hour - 12 if hour > 12 else hour
    return f"{hour12}:{minute:02d}{suffix}"


def say_money(pounds: float) -> str:
    return f"£{pounds:.2f}"


def pounds(text: str) -> float:
    return float(text.replace("£", "").replace(",", ""))


NO_CLIENT_NUMBER_RE = re.compile(
    r"\b(?:don'?t|do not|haven'?t|have not|can'?t|cannot|no)\b[^.?!]{0,25}?\b(?:client number|"
    r"number|that|it|one)\b[^.?!]{0,20}?(?:on|to) hand|\b(?:don'?t|do not|haven'?t|have not|"
    r"can'?t|cannot) (?:have|find|remember|know|got)\b[^.?!]{0,20}?\bclient number|"
    r"\bnot (?:on|to) hand\b|\bno idea (?:what|of) (?:my|the) (?:client )?number", re.I)


def lacks_client_number(text: str) -> bool:
    return bool(NO_CLIENT_NUMBER_RE.search(text))
