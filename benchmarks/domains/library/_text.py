"""Reading patron English: card numbers, PINs, dates, amounts, branches, yes and no."""

from __future__ import annotations

import re
from datetime import date, timedelta

TODAY = date(2026, 11, 5)

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
BRANCH_WORDS = {"CEN": ("central", "cen"), "NOR": ("northgate", "nor"),
                "HAR": ("harbour", "harbor", "har")}
BRANCH_NAMES = {"CEN": "Central Library", "NOR": "Northgate Library",
                "HAR": "Harbour Road Library"}

_CARD = re.compile(r"\bRL[\s-]?(\d{5})\b", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DMY = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+([a-z]{3,9})\.?,?(?:\s+(\d{4}))?")
_MONTH_DAY = re.compile(r"\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?(?:\s+(\d{4}))?\b")
_ORDINAL = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b")
_AMOUNT = re.compile(r"£\s?(\d+(?:\.\d{1,2})?)|\b(\d+\.\d{2})\b|\b(\d+)\s*(?:pounds?|quid)\b"
                     r"|\b(\d+)\s*p\b|\b(\d+)\s*pence\b")


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip()


def card_number(text: str) -> str | None:
    m = _CARD.search(text)
    return f"RL-{m.group(1)}" if m else None


def all_cards(text: str) -> list[str]:
    return [f"RL-{m.group(1)}" for m in _CARD.finditer(text)]


def email(text: str) -> str | None:
    m = _EMAIL.search(text)
    return m.group(0).rstrip(".").lower() if m else None


def _strip_known(text: str) -> str:
    text = _CARD.sub(" ", text)
    text = _EMAIL.sub(" ", text)
    for pattern in (_ISO, _DMY):
        text = pattern.sub(" ", text)
    return re.sub(r"\b\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+\s+\d{4}\b", " ", text)


def pin(text: str) -> str | None:
    low = norm(text)
    m = re.search(r"\bpin(?: number)?(?: is|:)?\s*(\d{4})\b", low)
    if m:
        return m.group(1)
    rest = _strip_known(low)
    rest = re.sub(r"\b(19|20)\d{2}\b", lambda mm: mm.group(0) if "pin" in low else " ", rest)
    found = re.findall(r"(?<![\d.£])\b(\d{4})\b(?![.\d])", rest)
    return found[0] if len(found) == 1 else None


def phone(text: str) -> str | None:
    m = re.search(r"(?:\+44\s?|0)7\d{3}\s?\d{6}|0\d{2,4}\s?\d{3,4}\s?\d{3,4}", text)
    return m.group(0) if m else None


def _mk(y: int, mo: int, d: int) -> date | None:
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def dates(text: str, today: date) -> list[date]:
    """Every date the text names, absolute or relative to `today`, in order of appearance."""
    low = norm(text)
    found: list[tuple[int, date]] = []
    for m in _ISO.finditer(low):
        d = _mk(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if d:
            found.append((m.start(), d))
    for m in _DMY.finditer(low):
        y = int(m.group(3))
        y = y + 1900 if y < 100 and y > 30 else (y + 2000 if y < 100 else y)
        d = _mk(y, int(m.group(2)), int(m.group(1)))
        if d:
            found.append((m.start(), d))
    for m in _DAY_MONTH.finditer(low):
        mo = MONTHS.get(m.group(2))
        if mo:
            d = _mk(int(m.group(3) or today.year), mo, int(m.group(1)))
            if d:
                found.append((m.start(), d))
    for m in _MONTH_DAY.finditer(low):
        mo = MONTHS.get(m.group(1))
        if mo and not any(abs(p - m.start()) < 4 for p, _ in found):
            d = _mk(int(m.group(3) or today.year), mo, int(m.group(2)))
            if d:
                found.append((m.start(), d))
    found += _relative(low, today, found)
    return [d for _, d in sorted(found, key=lambda x: x[0])]


def _relative(low: str, today: date, found: list[tuple[int, date]]) -> list[tuple[int, date]]:
    """'the 12th', 'next Monday', 'tomorrow': dates relative to `today`."""
    out: list[tuple[int, date]] = []
    for m in _ORDINAL.finditer(low):
        if any(p <= m.start() + 4 <= p + 20 for p, _ in found):
            continue
        day = int(m.group(1))
        d = _mk(today.year, today.month, day)
        if d and d < today:
            nxt = today.month % 12 + 1
            d = _mk(today.year + (today.month == 12), nxt, day)
        if d:
            out.append((m.start(), d))
    for m in re.finditer(r"\b(?:(next|this|coming)\s+)?(" + "|".join(WEEKDAYS) + r")\b", low):
        target = WEEKDAYS.index(m.group(2))
        ahead = (target - today.weekday()) % 7 or 7
        out.append((m.start(), today + timedelta(days=ahead)))
    for word, delta in (("today", 0), ("tomorrow", 1)):
        for m in re.finditer(rf"\b{word}\b", low):
            out.append((m.start(), today + timedelta(days=delta)))
    return out


def amount_pence(text: str) -> int | None:
    m = _AMOUNT.search(norm(text))
    if not m:
        return None
    if m.group(1) or m.group(2):
        return round(float(m.group(1) or m.group(2)) * 100)
    if m.group(3):
        return int(m.group(3)) * 100
    return int(m.group(4) or m.group(5))


def branches(text: str) -> list[str]:
    low = norm(text)
    hits = []
    for bid, words in BRANCH_WORDS.items():
        for w in words:
            m = re.search(rf"\b{w}\b", low)
            if m:
                hits.append((m.start(), bid))
                break
    return [b for _, b in sorted(hits)]


def has(low: str, *phrases: str) -> bool:
    return any(re.search(rf"\b{re.escape(p)}\b", low) for p in phrases)


HEDGES = ("not yet", "wait", "hold on", "hang on", "hmm", "let me think", "not sure",
          "give me a moment", "one moment", "just a sec", "i'm not sure")
NOS = ("no", "nope", "don't", "do not", "cancel that", "stop", "never mind", "nah", "no thanks")
YESES = ("yes", "yeah", "yep", "yup", "sure", "go ahead", "please do", "ok", "okay", "confirm",
         "confirmed", "do it", "correct", "sounds good", "that's fine", "fine", "that's right",
         "please", "absolutely", "definitely", "right", "alright", "all right", "great", "perfect")


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' or None for a reply to a confirmation question."""
    low = norm(text)
    if has(low, *HEDGES):
        return "hedge"
    if has(low, *NOS):
        return "no"
    if has(low, *YESES):
        return "yes"
    return None


def long_date(d: date | str) -> str:
    d = date.fromisoformat(d) if isinstance(d, str) else d
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B %Y')}"


def pounds(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


def to_pence(value: str) -> int:
    return round(float(value.replace("£", "")) * 100)
