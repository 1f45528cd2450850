"""Reading what a resident types: references, postcodes, registrations, dates, yes and no."""

from __future__ import annotations

import re
from datetime import date, timedelta

TODAY = date(2026, 12, 3)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twenty": 20, "thirty": 30}

PERMIT_RE = re.compile(r"\bRP[\s-]?(\d{4})\b", re.I)
ACCOUNT_RE = re.compile(r"\bPA[\s-]?(\d{5})\b", re.I)
PCN_RE = re.compile(r"\bWB\s?(\d{8})\b", re.I)
VRM_RE = re.compile(r"\b([A-Z]{2}\d{2})\s?([A-Z]{3})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s?(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"(?<!\d)(0\d{3,4}\s?\d{3}\s?\d{3,4})(?!\d)")


def money(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


def pence(text: str) -> int:
    pounds, _, p = text.strip("£").partition(".")
    return int(pounds) * 100 + int((p or "0").ljust(2, "0"))


def say_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].title()} {d.day} {MONTHS[d.month - 1].title()} {d.year}"


def permits(text: str) -> list[str]:
    return [f"RP-{m.group(1)}" for m in PERMIT_RE.finditer(text)]


def accounts(text: str) -> list[str]:
    return [f"PA-{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def pcns(text: str) -> list[str]:
    return [f"WB{m.group(1)}" for m in PCN_RE.finditer(text)]


def vrms(text: str) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}".upper() for m in VRM_RE.finditer(text)]


def postcode(text: str) -> str | None:
    m = POSTCODE_RE.search(text)
    return f"{m.group(1)} {m.group(2)}".upper() if m else None


def email(text: str) -> str | None:
    m = EMAIL_RE.search(text)
    return m.group(0).rstrip(".") if m else None


def phone(text: str) -> str | None:
    m = PHONE_RE.search(text)
    return m.group(1) if m else None


def _weekday(name: str, nxt: bool) -> date:
    target = WEEKDAYS.index(name)
    if nxt:
        monday = TODAY + timedelta(days=7 - TODAY.weekday())
        return monday + timedelta(days=target)
    ahead = (target - TODAY.weekday()) % 7 or 7
    return TODAY + timedelta(days=ahead)


def _from_day(day: int, month: int | None) -> date | None:
    year = TODAY.year
    try:
        if month is None:
            d = date(year, TODAY.month, day)
            if d < TODAY:
                d = date(year + (TODAY.month == 12), TODAY.month % 12 + 1, day)
            return d
        d = date(year, month, day)
        return d if d >= TODAY else date(year + 1, month, day)
    except ValueError:
        return None


def find_date(text: str) -> date | None:
    """The first date in a message, read against the desk's clock."""
    low = text.lower()
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", low)
    if m:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b", low)
    if m:
        y = int(m.group(3))
        return date(y + 2000 if y < 100 else y, int(m.group(2)), int(m.group(1)))
    if re.search(r"\b(today|right away|straight away|immediately|as of now|from now)\b", low):
        return TODAY
    if re.search(r"\btomorrow\b", low):
        return TODAY + timedelta(days=1)
    if re.search(r"\b(end of (the|this) month|1st of next month|start of next month)\b", low):
        return date(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1, 1)
    mon = "|".join(MONTHS) + "|" + "|".join(m[:3] for m in MONTHS)
    m = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({mon})\b", low)
    if m:
        return _from_day(int(m.group(1)), _month(m.group(2)))
    m = re.search(rf"\b({mon}) (\d{{1,2}})(?:st|nd|rd|th)?\b", low)
    if m:
        return _from_day(int(m.group(2)), _month(m.group(1)))
    m = re.search(r"\bnext (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", low)
    if m:
        return _weekday(m.group(1), True)
    m = re.search(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", low)
    if m:
        return _weekday(m.group(1), False)
    m = re.search(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", low)
    if m:
        return _from_day(int(m.group(1)), None)
    return None


def _month(name: str) -> int:
    return next(i + 1 for i, m in enumerate(MONTHS) if m.startswith(name[:3]))


def books(text: str) -> int | None:
    low = text.lower()
    num = r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty)"
    m = re.search(rf"\b{num} (?:more )?(?:books?|booklets?)\b", low)
    if m:
        return _num(m.group(1))
    m = re.search(rf"\b{num} (?:more )?(?:visitor |day |visitors'? )*passes\b", low)
    if m:
        n = _num(m.group(1))
        return max(1, -(-n // 10)) if n else None
    return None


def _num(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word)


HEDGE_RE = re.compile(r"\b(not yet|wait|hold on|hang on|hmm+|let me think|not sure|one moment|"
                      r"give me a (sec|second|minute))\b")
YES_RE = re.compile(r"\b(yes|yeah|yep|yup|sure|ok|okay|please do|go ahead|do it|confirm|"
                    r"confirmed|that's right|correct|that's fine|fine|sounds good|perfect|"
                    r"absolutely|great|please)\b")
NO_RE = re.compile(r"\b(no|nope|don't|do not|never mind|stop|leave it)\b")


def answer(text: str) -> str | None:
    low = text.lower().replace("’", "'")
    if HEDGE_RE.search(low):
        return "hedge"
    if NO_RE.search(low) and not re.search(r"\b(yes|yeah|yep|go ahead|please do)\b", low):
        return "no"
    if YES_RE.search(low):
        return "yes"
    return None


STOP = {"hi", "hello", "yes", "it's", "its", "my", "the", "is", "and", "postcode", "surname",
        "permit", "number", "account", "name", "sure", "here", "ok", "okay", "thanks", "please",
        "i'm", "im", "i", "of", "it", "last", "that", "this", "dear", "mr", "mrs", "ms", "miss",
        "dr", "a", "on", "for", "with", "thank", "you", "hey", "right", "reference", "so",
        "can", "could", "would", "what", "when", "how", "also", "but", "or", "we", "our", "me",
        "postcode's", "permit's", "to", "in", "at", "be", "do", "did", "need", "want", "just",
        "sorry", "don't", "dont", "have", "haven't", "hand", "got", "not", "no", "yeah",
        "yep", "again", "as", "said", "already", "told", "like", "mentioned", "well", "fine"}


def surname(text: str, asked: bool) -> str | None:
    """The surname in a message; with `asked`, also a bare reply to "what's your surname?"."""
    clean = text
    for rx in (PERMIT_RE, ACCOUNT_RE, PCN_RE, VRM_RE, POSTCODE_RE, EMAIL_RE, PHONE_RE):
        clean = rx.sub(" ", clean)
    m = re.search(r"\b(?:surname|last name|family name)(?: is|:|'s)?\s+([A-Za-z'-]+)", clean, re.I)
    if m and m.group(1).lower() not in STOP:
        return m.group(1)
    m = re.search(r"\b(?i:my name is|name's|i am|i'm|this is|it's)\s+([A-Z][a-z'-]+)"
                  r"(?:\s+([A-Z][a-z'-]+))?", clean)
    if m and m.group(1).lower() not in STOP and m.group(1).lower() not in WEEKDAYS:
        return m.group(2) or (m.group(1) if asked else None)
    spans = [m.span() for rx in (PERMIT_RE, ACCOUNT_RE, POSTCODE_RE) for m in rx.finditer(text)]
    if spans and not asked:
        after = re.split(r"[.?!:;]", text[max(e for _, e in spans):][:25])[0]
        before = re.split(r"[.?!:;]", text[:min(s for s, _ in spans)][-20:])[-1]
        for chunk, pick in ((after, 0), (before, -1)):
            words = [w for w in re.findall(r"[A-Za-z'-]+", chunk)
                     if w[0].isupper() and w[1:].islower() and len(w) > 1
                     and w.lower() not in STOP and w.lower() not in WEEKDAYS]
            if words:
                return words[pick]
    if asked:
        words = [w for w in re.findall(r"[A-Za-z'-]+", clean) if w.lower() not in STOP]
        caps = [w for w in words if w[0].isupper()]
        if caps and len(words) <= 6:
            return caps[-1]
        if len(words) == 1:
            return words[0]
    return None
