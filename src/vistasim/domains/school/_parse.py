"""Reading student messages for the rule-based agent: ids, courses, dates, reasons, yes/no.

A real support bot of this kind is a slot filler: it spots known patterns and keywords and never
"understands" the sentence. The patterns are generous (case, spacing, common date forms) so the
common paths work for ordinary phrasing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from vistasim.domains.school._catalog import COURSES
from vistasim.domains.school._rules import EMAIL, FEE_ID, NOTE_ID, STUDENT_ID

_PREFIXES = "|".join(sorted({re.sub(r"[^A-Z].*", "", c[0]) for c in COURSES}, key=len)[::-1])
_COURSE = re.compile(rf"\b({_PREFIXES})\s?-?(\d{{3}})(?:-([A-C]))?\b", re.IGNORECASE)
_TITLES = sorted(((c[1].lower(), c[0]) for c in COURSES), key=lambda t: -len(t[0]))
_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for m in names
}
_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DATE_MD = re.compile(rf"\b{_MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.IGNORECASE)
_DATE_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b", re.IGNORECASE)
_DATE_ISO = re.compile(r"\b(2026|2027)-(\d{2})-(\d{2})\b")
_YES = re.compile(
    r"^\W*(yes|yeah|yep|yup|sure|ok|okay|please do|go ahead|do it|correct|confirm|y"
    r"|that(?:'s| is) (?:correct|right)|please (?:go ahead|proceed))\b",
    re.IGNORECASE,
)
_NO = re.compile(
    r"^\W*(no|nope|nah|don'?t|do not|cancel|wait|stop|hold on)\b|\b(not right|that's wrong|"
    r"incorrect|should be|not what i)\b",
    re.IGNORECASE,
)

INTENTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("escalate", r"\b(human|real person|advisor|adviser|someone else|supervisor|manager)\b"),
        ("waive_fee", r"\b(waive\w*|waiver|remove the fee|forgive|drop the fee)\b"),
        (
            "reschedule_exam",
            r"\b(reschedul\w*|move|change|shift|postpone)\b.*\b(exam|final|midterm|placement|"
            r"test)\b|\b(exam|final|midterm|placement)\b.*\b(reschedul\w*|move|another date"
            r"|different date|later date)\b",
        ),
        ("drop", r"\b(drop|withdraw|unenrol\w*|unregister|leave the course|get out of)\b"),
        (
            "enroll",
            r"\b(enrol|enroll|enrolling|enrollment|register|sign me up|sign up|add (me|a course|"
            r"a class)|put me in|get me into|join|take)\b",
        ),
        ("exam_schedule", r"\b(exams?|finals?|midterms?|placement)\b"),
        ("fee_status", r"\b(fees?|balance|owe|tuition|bill|payment|pay)\b"),
        ("schedule", r"\b(schedule|timetable|my (classes|courses)|enrolled in|am i enrolled)\b"),
        ("course_info", r"\b(seats?|sections?|courses?|classes|open|available)\b"),
    )
)
"""Intent keywords, most specific first: the first pattern that matches wins."""


@dataclass(frozen=True, kw_only=True)
class Facts:
    """What one message says, as far as patterns can tell."""

    student_id: str | None = None
    email: str | None = None
    courses: tuple[str, ...] = ()
    """Course codes in the order mentioned (titles mapped to codes)."""
    sections: tuple[str, ...] = ()
    """Explicit section ids (CS101-A) in the order mentioned."""
    day: str | None = None
    """A date mentioned, as ISO text."""
    exam_kind: str | None = None
    reason: str | None = None
    note_id: str | None = None
    fee_id: str | None = None
    fee_kind: str | None = None
    yes: bool = False
    no: bool = False
    intent: str | None = None
    text: str = ""
    """The message itself (cut to 4,000 characters)."""


def read(message: str) -> Facts:
    """Extract every fact the patterns recognize in a message."""
    text = message[:4000]
    courses, sections = _courses(text)
    return Facts(
        text=text,
        student_id=_first(STUDENT_ID, text),
        email=_first(EMAIL, text, upper=False),
        courses=courses,
        sections=sections,
        day=_day(text),
        exam_kind=_keyword(
            text,
            {
                "final": "final",
                "midterm": "midterm",
                "mid-term": "midterm",
                "placement": "placement",
            },
        ),
        reason=_reason(text),
        note_id=_first(NOTE_ID, text),
        fee_id=_first(FEE_ID, text),
        fee_kind=_keyword(
            text,
            {
                "late": "late_payment",
                "reschedul": "reschedule",
                "lab fee": "lab",
                "tuition": "tuition",
            },
        ),
        yes=bool(_YES.search(text)),
        no=bool(_NO.search(text)),
        intent=next((name for name, pattern in INTENTS if pattern.search(text)), None),
    )


def _first(pattern: re.Pattern[str], text: str, *, upper: bool = True) -> str | None:
    found = pattern.search(text)
    if not found:
        return None
    return found.group(0).upper() if upper else found.group(0)


def _courses(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    hits: list[tuple[int, str]] = []
    sections: list[str] = []
    for match in _COURSE.finditer(text):
        code = f"{match.group(1).upper()}{match.group(2)}"
        hits.append((match.start(), code))
        if match.group(3):
            sections.append(f"{code}-{match.group(3).upper()}")
    lowered = text.lower()
    for title, code in _TITLES:
        at = lowered.find(title)
        if at >= 0 and not lowered[at + len(title) : at + len(title) + 1].isalnum():
            hits.append((at, code))
            lowered = lowered.replace(title, " " * len(title))
    codes = list(dict.fromkeys(code for _, code in sorted(hits)))
    return tuple(codes), tuple(sections)


def _day(text: str) -> str | None:
    if found := _DATE_ISO.search(text):
        return _iso(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    if found := _DATE_MD.search(text):
        return _iso(2026, _MONTHS[found.group(1).lower().rstrip(".")], int(found.group(2)))
    if found := _DATE_DM.search(text):
        return _iso(2026, _MONTHS[found.group(2).lower()], int(found.group(1)))
    return None


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _keyword(text: str, table: dict[str, str]) -> str | None:
    lowered = text.lower()
    return next((value for key, value in table.items() if key in lowered), None)


def _reason(text: str) -> str | None:
    lowered = text.lower()
    if re.search(r"\b(sick|ill|doctor|medical|hospital|surgery|health|flu|injur\w*)\b", lowered):
        return "medical"
    if re.search(r"\b(conflict|clash\w*|same time|overlap\w*|two exams)\b", lowered):
        return "conflict"
    if re.search(
        r"\b(personal|wedding|travel\w*|family|trip|work|job|vacation|holiday)\b", lowered
    ):
        return "personal"
    return None
