"""Reading members' free English: ids, dates, times, plans, clubs, yes/no and what they want."""

from __future__ import annotations

import re
from datetime import date, timedelta

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1}
CLUBS = {"camden": "camden", "shoreditch": "shoreditch", "islington": "islington"}
CLASS_NAMES = {"spin": "Spin", "cycling": "Spin", "cycle": "Spin", "pilates": "Pilates",
               "hiit": "HIIT", "circuits": "HIIT", "yoga": "Yoga"}
PLANS = [("off-peak", "offpeak"), ("off peak", "offpeak"), ("offpeak", "offpeak"),
         ("standard", "standard"), ("premium", "premium")]

MEMBER_ID = re.compile(r"\bPF\s?-?\d{4}\b", re.I)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
POSTCODE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
BOOKING_ID = re.compile(r"\bB\d{4}\b", re.I)
CLASS_ID = re.compile(r"\b(CAM|SHO|ISL)-\d{4}-\d{4}\b", re.I)
_D = r"(\d{1,2})(?:st|nd|rd|th)?"
_M = r"([a-z]{3,9})\.?"


def member_ids(text: str) -> list[str]:
    return [re.sub(r"[\s-]", "", m).upper() for m in MEMBER_ID.findall(text)]


def emails(text: str) -> list[str]:
    return [e.rstrip(".").lower() for e in EMAIL.findall(text)]


def postcode(text: str) -> str | None:
    clean = EMAIL.sub(" ", text)
    match = POSTCODE.search(clean)
    return f"{match[1]} {match[2]}".upper() if match else None


def _year_dates(text: str) -> list[tuple[int, date]]:
    """Dates with a year, with their positions."""
    found: list[tuple[int, date]] = []
    patterns = [
        (r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", "ymd"),
        (r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b", "dmy"),
        (rf"\b{_D}\s+(?:of\s+)?{_M},?\s+(\d{{4}})\b", "dMy"),
        (rf"\b{_M}\s+{_D},?\s+(\d{{4}})\b", "Mdy"),
    ]
    for pattern, kind in patterns:
        for match in re.finditer(pattern, text, re.I):
            try:
                a, b, c = match.groups()
                if kind == "ymd":
                    day = date(int(a), int(b), int(c))
                elif kind == "dmy":
                    day = date(int(c), int(b), int(a))
                elif kind == "dMy":
                    day = date(int(c), MONTHS[b.lower()], int(a))
                else:
                    day = date(int(c), MONTHS[a.lower()], int(b))
            except (ValueError, KeyError):
                continue
            found.append((match.start(), day))
    return sorted(found)


def birth_date(text: str) -> str | None:
    days = [d for _, d in _year_dates(text) if d.year < 2016]
    return days[0].isoformat() if days else None


def dates(text: str, today: date) -> list[date]:
    """Dates this year or later, absolute or relative, in the order said."""
    low = text.lower()
    found = [(p, d) for p, d in _year_dates(low) if d.year >= 2020]
    taken = "".join("#" if any(p <= i < p + 20 for p, _ in found) else ch
                    for i, ch in enumerate(low))
    for word, delta in (("today", 0), ("tonight", 0), ("this evening", 0), ("tomorrow", 1),
                        ("day after tomorrow", 2)):
        for match in re.finditer(rf"\b{word}\b", taken):
            found.append((match.start(), today + timedelta(days=delta)))
    for match in re.finditer(r"\b(next|this|on|coming)?\s*(" + "|".join(DAYS) + r")\b", taken):
        target = DAYS.index(match[2])
        ahead = (target - today.weekday()) % 7 or 7
        found.append((match.start(), today + timedelta(days=ahead)))
    for pattern, order in ((rf"\b{_D}\s+(?:of\s+)?{_M}\b", "dm"), (rf"\b{_M}\s+{_D}\b", "md")):
        for match in re.finditer(pattern, taken):
            a, b = match.groups()
            month_word, day_text = (b, a) if order == "dm" else (a, b)
            if month_word not in MONTHS:
                continue
            day = _upcoming(today, MONTHS[month_word], int(day_text))
            if day:
                found.append((match.start(), day))
    for match in re.finditer(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?[a-z]{3})",
                             taken):
        day = _upcoming(today, None, int(match[1]))
        if day:
            found.append((match.start(), day))
    for match in re.finditer(r"\b(\d{1,2})/(\d{1,2})\b(?!/)", taken):
        day = _upcoming(today, int(match[2]), int(match[1]))
        if day:
            found.append((match.start(), day))
    seen: list[date] = []
    for _, day in sorted(found, key=lambda pair: pair[0]):
        if day not in seen:
            seen.append(day)
    return seen


def _upcoming(today: date, month: int | None, day: int) -> date | None:
    for months_ahead in range(13):
        m = (today.month - 1 + months_ahead) % 12 + 1
        y = today.year + (today.month - 1 + months_ahead) // 12
        if month is not None and m != month:
            continue
        try:
            candidate = date(y, m, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    return None


def times(text: str) -> list[tuple[int, int, str | None]]:
    """(hour, minute, 'am'/'pm'/None) for each time said."""
    low = text.lower().replace("o'clock", "")
    found: list[tuple[int, tuple[int, int, str | None]]] = []
    words = "|".join(NUMBERS)
    for match in re.finditer(rf"\bhalf\s+(?:past\s+)?(\d{{1,2}}|{words})\b", low):
        found.append((match.start(), (_num(match[1]), 30, _ampm(low, match.end()))))
    for match in re.finditer(rf"\bquarter\s+past\s+(\d{{1,2}}|{words})\b", low):
        found.append((match.start(), (_num(match[1]), 15, _ampm(low, match.end()))))
    for match in re.finditer(r"\b(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?", low):
        if int(match[1]) < 24 and int(match[2]) < 60:
            found.append((match.start(), (int(match[1]), int(match[2]),
                                          (match[3] or "").replace(".", "") or None)))
    for match in re.finditer(r"\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)", low):
        found.append((match.start(), (int(match[1]), 0, match[2].replace(".", ""))))
    for match in re.finditer(rf"\b(?:at|for|around|about)\s+(\d{{1,2}}|{words})\b(?![:./\d])"
                             r"(?!\s*(?:am|pm|a\.m|p\.m|months?|weeks?|days?))", low):
        if match[1] not in ("a", "an"):
            found.append((match.start(), (_num(match[1]), 0, _ampm(low, match.end()))))
    covered: list[tuple[int, int, str | None]] = []
    for _, value in sorted(found):
        if value not in covered and 0 <= value[0] <= 23:
            covered.append(value)
    return covered


def _num(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS.get(word, -1)


def _ampm(text: str, end: int) -> str | None:
    after = text[end:end + 20]
    if re.match(r"\s*(pm|p\.m|in the evening|tonight|this evening)", after):
        return "pm"
    if re.match(r"\s*(am|a\.m|in the morning)", after):
        return "am"
    return None


def months(text: str) -> int | None:
    low = text.lower()
    match = re.search(r"\b(\d+|one|two|three|four|five|six|a)\s+months?\b", low)
    return _num(match[1]) if match else None


def plans(text: str) -> list[str]:
    low = text.lower()
    out = []
    for word, plan_id in PLANS:
        for match in re.finditer(rf"\b{word}\b", low):
            out.append((match.start(), plan_id))
    return [p for _, p in sorted(out)] if out else []


def club(text: str) -> str | None:
    low = text.lower()
    return next((cid for word, cid in CLUBS.items() if word in low), None)


def class_names(text: str) -> list[str]:
    low = text.lower()
    hits = sorted((low.find(w), n) for w, n in CLASS_NAMES.items() if re.search(rf"\b{w}\b", low))
    names: list[str] = []
    for _, name in hits:
        if name not in names:
            names.append(name)
    return names


NEGATIVE = re.compile(r"\b(no|nope|not yet|not now|don'?t|do not|wait|hold on|hang on|stop|"
                      r"never ?mind|cancel that|rather not|not sure|hmm|let me think)\b", re.I)
POSITIVE = re.compile(r"\b(yes|yeah|yep|yup|sure|ok|okay|please do|go ahead|do it|confirm(ed)?|"
                      r"that'?s (fine|right|correct|ok)|sounds good|correct|fine|agreed?|i accept|"
                      r"book it|absolutely|of course|perfect|great|lovely|please)\b", re.I)


def answer(text: str) -> str | None:
    """'yes', 'no' or None for a reply to a yes/no question."""
    low = text.lower()
    if NEGATIVE.search(low):
        return "no"
    if POSITIVE.search(low):
        return "yes"
    return None


INTENTS = [
    ("cancel_membership", r"\b(cancel|end|terminate|quit|leave|close)\b[^.?!]{0,40}\b"
                          r"(membership|contract|gym|account|subscription)\b|"
                          r"\bcancel (?:it )?altogether\b"),
    ("freeze", r"\b(freeze|pause|suspend|put [^.?!]{0,20} on hold)\b"),
    ("guest_pass", r"\bguest\b|\bbring (a|my) (friend|partner|sister|brother|mate)"),
    ("change_plan", r"\b(upgrade|downgrade|switch|change|move|go)\b[^.?!]{0,40}\b(plan|"
                    r"premium|standard|off-?peak|cheaper)\b|\b(upgrade|downgrade)\b"),
    ("cancel_booking", r"\b(cancel|drop|can'?t make|cannot make|remove)\b"),
    ("card", r"\bcard\b"),
    ("contact", r"\b(email|e-mail|phone|mobile number|contact details|number)\b"),
    ("payments", r"\b(payments?|charged|charges|billed|transactions?|paid)\b"),
    ("bookings", r"\b(bookings|booked|what (classes )?(have i|am i) booked|booked on|upcoming)\b"),
    ("book", r"\b(book|reserve|sign me up|sign up|get me (in|on)(to)?|place on|spot (in|on))\b"),
    ("timetable", r"\b(timetable|schedule|what classes|which classes|classes (are )?on)\b"),
    ("membership", r"\b(my (plan|membership)|next billing|when .* billed|what plan)\b"),
]


def intents(text: str) -> list[str]:
    return [name for name, _ in intent_spans(text)]


def intent_spans(text: str) -> list[tuple[str, int]]:
    """Each request with where it starts in the text."""
    low = text.lower()
    found: list[tuple[int, str]] = []
    for name, pattern in INTENTS:
        match = re.search(pattern, low)
        if not match:
            continue
        if name == "cancel_booking" and any(n == "cancel_membership" for _, n in found):
            continue
        if name == "cancel_booking" and not re.search(
                r"\b(class|booking|session|spin|yoga|pilates|hiit|tonight|tomorrow|"
                + "|".join(DAYS) + r"|B\d{4})\b", low):
            continue
        if name == "contact" and (re.search(r"\bcard\b", low) and not re.search(
                r"\b(email|e-mail|phone)\b", low)):
            continue
        if name == "contact" and not re.search(r"\b(update|change|new|correct|wrong|replace)\b",
                                               low):
            continue
        if name == "payments" and any(n in ("change_plan", "freeze", "cancel_membership")
                                      for _, n in found):
            continue
        if name == "book" and any(n == "guest_pass" for _, n in found):
            continue
        if name == "timetable" and re.search(r"\bbooked\b", low):
            continue
        found.append((match.start(), name))
    spans = [(name, start) for start, name in sorted(found)]
    return spans if len(spans) == 1 else [s for s in spans if s[0] != "membership"]


NAME = re.compile(r"\b(?:called|named|name is|name's|guest is|friend|partner|sister|brother|"
                  r"mate|colleague|for)\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)")


def guest_name(text: str, asked: bool) -> str | None:
    match = NAME.search(text)
    bad = set(DAYS) | set(MONTHS) | {"pulse", "premium", "standard", "camden", "saturday"}
    if match and match[1].split()[0].lower() not in bad:
        return match[1]
    if asked:
        for cand in re.finditer(r"\b([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)\b", text):
            if not {w.lower() for w in cand[1].split()} & bad and cand[1].split()[0] not in (
                    "Her", "His", "The", "It", "Yes", "My", "Sure", "Thanks", "Hi", "Hello"):
                return cand[1]
    return None


def phone(text: str) -> str | None:
    match = re.search(r"(?:\+44\s?|\b0)7\d{3}\s?\d{3}\s?\d{3}\b", text)
    return match[0].strip() if match else None


def card(text: str) -> tuple[str | None, str | None]:
    low = text.lower()
    expiry = re.search(r"\b(0?[1-9]|1[0-2])\s*/\s*(\d{2}|20\d{2})\b", low)
    exp = f"{int(expiry[1]):02d}/{expiry[2][-2:]}" if expiry else None
    if exp is None:
        worded = re.search(rf"\b{_M}\s+(20\d{{2}})\b", low)
        if worded and worded[1] in MONTHS:
            exp = f"{MONTHS[worded[1]]:02d}/{worded[2][-2:]}"
    clean = low[:expiry.start()] + low[expiry.end():] if expiry else low
    last4 = re.search(r"(?:ending|ends|last (?:four|4)(?: digits)?|digits)[^\d]{0,12}(\d{4})\b",
                      clean) or re.search(r"\b(\d{4})\b(?!-)", clean)
    return (last4[1] if last4 else None), exp
