"""Reading a student's words: requests, ids, courses, sections, days, exams, dates and reasons.

Pure functions over text, so the flows stay short and the parsing can be tested on its own.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.heldout._base import corrected

_STUDENT = re.compile(r"\bS\d{4}\b", re.IGNORECASE)
_COURSE = re.compile(r"\b([A-Z]{2,4})\s?-?(\d{3})\b", re.IGNORECASE)
_SECTION = re.compile(r"\b([A-Z]{2,4})\s?(\d{3})-([A-C])\b", re.IGNORECASE)
_NOTE = re.compile(r"\bMN-?\s?(\d{4})\b", re.IGNORECASE)
_FEE = re.compile(r"\bF-(\d{4})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_MONTH_DAY = re.compile(r"\b([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3})[a-z]*\b")
_DAYS = {"mon": "Mon", "tue": "Tue", "wed": "Wed", "thu": "Thu", "fri": "Fri"}

_INTENTS: list[tuple[str, str]] = [
    ("waive", r"\bwaiv\w*"),
    (
        "reschedule",
        r"\breschedul\w*(?! fee)|\bmove (?:my|the|it)\b|\b(?:another|different) (?:date|session)",
    ),
    ("exam_info", r"\bwhen (?:is|are) my\b|\bexam (?:dates?|schedule)\b|\bwhen do i have\b"),
    (
        "course_info",
        r"\bhow many seats|\bseats (?:left|available|free)|\bopen sections|\bany seats",
    ),
    (
        "schedule",
        r"\b(?:my (?:schedule|timetable|classes)|(?:which|what) (?:courses|classes) am i)\b",
    ),
    ("enroll", r"\benrol+(?:ing|ment)?\b|\bsign (?:me )?up\b|\bregister\b|\bput me in\b"),
    ("drop", r"\bdrop(?:ping)?\b|\bwithdraw from\b"),
    ("fees", r"\b(?:owe|balance|my fees|amount due|outstanding)\b"),
    ("escalate", r"\b(?:advisor|adviser|human|real person|speak to someone|talk to someone)\b"),
]
_REASONS = {
    "medical": r"medical|sick|\bill\b|\bflu\b|doctor|hospital|injur|health|fever",
    "conflict": r"conflict|clash|same time|overlap|two exams|double[- ]booked",
    "personal": r"personal|wedding|trip|interview|family|travel|vacation|holiday|\bjob\b|funeral",
}
# FLAW H9: the deployed table misses "clash"/"same time", and anything unknown counts as personal.
_REASONS_AS_BUILT = {
    "medical": _REASONS["medical"],
    "conflict": r"conflict|overlap|two exams",
    "personal": _REASONS["personal"],
}


def intents(text: str) -> list[tuple[str, int]]:
    """The kinds of request in a message, with where each starts, in the student's order."""
    low = text.lower()
    found: list[tuple[int, int, int, str]] = []
    for rank, (name, pattern) in enumerate(_INTENTS):
        found += [(rank, m.start(), m.end(), name) for m in re.finditer(pattern, low)]
    kept: list[tuple[int, int, int, str]] = []
    for item in sorted(found):
        if all(item[2] <= k[1] or item[1] >= k[2] for k in kept):
            kept.append(item)
    result: list[tuple[str, int]] = []
    for _rank, start, _end, name in sorted(kept, key=lambda k: k[1]):
        if not result or result[-1][0] != name:
            result.append((name, start))
    return result


def student_id(text: str) -> str | None:
    """The last student ID in the text (S1234)."""
    found = _STUDENT.findall(text)
    return found[-1].upper() if found else None


def courses(text: str) -> list[str]:
    """Course codes the student still means, in order ('drop X. No, I mean Y, keep X' -> [Y])."""
    matches = [(f"{m.group(1)}{m.group(2)}".upper(), m.start()) for m in _COURSE.finditer(text)]
    matches = [(c, p) for c, p in matches if not re.fullmatch(r"(?:EX|MN)\d{3}", c)]
    kept = corrected(text, [c for c, _ in matches], [p for _, p in matches])
    low = text.lower()
    keep = {
        c for c, p in matches if re.search(r"\b(?:keep|not|except)\s+$", low[max(0, p - 8) : p])
    }
    result: list[str] = []
    for code in kept:
        if code not in keep and code not in result:
            result.append(code)
    return result


def sections(text: str) -> list[str]:
    """Section ids such as CS201-B."""
    return [f"{a}{b}-{c}".upper() for a, b, c in _SECTION.findall(text)]


def day_preference(text: str) -> list[str]:
    """Meeting days the student asks for ('the Tuesday/Thursday section' -> ['Tue', 'Thu'])."""
    low = text.lower()
    return [short for key, short in _DAYS.items() if re.search(rf"\b{key}(?:s|\w*day)?\b", low)]


def exam_kind(text: str) -> str | None:
    """'final', 'midterm' or 'placement'."""
    match = re.search(r"\b(final|mid-?term|placement)\b", text.lower())
    return match.group(1).replace("-", "") if match else None


def wanted_date(text: str) -> str | None:
    """A date in the text as ISO, e.g. 'December 16' -> '2026-12-16' (the term's year)."""
    iso = _ISO.search(text)
    if iso:
        return iso.group(0)
    for pattern, month_group, day_group in ((_MONTH_DAY, 1, 2), (_DAY_MONTH, 2, 1)):
        for match in pattern.finditer(text):
            month = _MONTHS.get(match.group(month_group).lower())
            day = int(match.group(day_group))
            if month and 1 <= day <= 31:
                return date(2026, month, day).isoformat()
    return None


def note_id(text: str) -> str | None:
    """A Health Centre note number, e.g. MN-4821."""
    match = _NOTE.search(text)
    return f"MN-{match.group(1)}" if match else None


def fee_id(text: str) -> str | None:
    """A fee id, e.g. F-1003."""
    match = _FEE.search(text)
    return f"F-{match.group(1)}" if match else None


def fee_kind(text: str) -> str | None:
    """Which kind of fee the student means."""
    low = text.lower()
    for kind, pattern in (
        ("late_payment", r"\blate\b"),
        ("reschedule", r"reschedul"),
        ("tuition", r"tuition"),
        ("lab", r"\blab\b"),
    ):
        if re.search(pattern, low):
            return kind
    return None


def reason_kind(text: str) -> str | None:
    """Why the exam must move: 'medical', 'conflict', 'personal', or None when unclear."""
    low = text.lower()
    return next((k for k, pattern in _REASONS.items() if re.search(pattern, low)), None)


def reason_kind_as_built(text: str) -> str:
    """The deployed classifier: a narrower conflict list, and 'personal' when nothing matches."""
    low = text.lower()
    found = (k for k, pattern in _REASONS_AS_BUILT.items() if re.search(pattern, low))
    return next(found, "personal")


def part_of_day(text: str) -> str | None:
    """'morning', 'afternoon' or 'evening'."""
    match = re.search(r"\b(morning|afternoon|evening)\b", text.lower())
    return match.group(1) if match else None


def fits_preference(section: dict[str, Any], days: list[str], part: str | None) -> bool:
    """Whether a section meets on the wanted days and at the wanted part of the day."""
    if days and set(section["days"].split("/")) != set(days):
        return False
    hour = int(section["start_time"][:2])
    bounds = {"morning": (0, 12), "afternoon": (12, 17), "evening": (17, 24)}
    low, high = bounds.get(part or "", (0, 24))
    return low <= hour < high
