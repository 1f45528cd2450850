"""The school's calendar and policy numbers, in one place so tools, agents and docs agree.

The calendar is fixed (not the clock), so every episode sees the same "today" and the same
deadlines, and scenario outcomes are reproducible.
"""

from __future__ import annotations

import re
from datetime import date

TODAY = date(2026, 9, 14)
"""The school's "today": the second week of the Fall 2026 term."""
TERM = "2026-FA"
"""The current term."""
TERM_START = date(2026, 8, 31)
"""First day of the current term."""
ADD_DEADLINE = date(2026, 9, 18)
"""Last day to enroll in a course this term."""
DROP_DEADLINE = date(2026, 10, 9)
"""Last day to drop a course this term."""
MAX_CREDITS = 18
"""Most credits a student may carry this term."""
MIN_INTERNATIONAL_CREDITS = 12
"""International students must keep at least this many credits (visa rule)."""
RESCHEDULE_NOTICE_DAYS = 3
"""A booked exam may be moved only this many days or more before it (unless medical)."""
MAX_RESCHEDULES = 1
"""How often one exam booking may be moved."""
RESCHEDULE_FEE_CENTS = 2500
"""Fee for moving an exam for a personal reason."""
MEDICAL_NOTE_VALID_DAYS = 14
"""A medical note supports a reschedule for this many days after it was issued."""
AGENT_WAIVERS_PER_TERM = 1
"""Goodwill waivers support may grant one student per term."""
WAIVABLE_KINDS = ("late_payment", "reschedule")
"""Fee kinds support may waive; tuition and lab fees go to Financial Aid."""
RESCHEDULE_REASONS = ("personal", "medical", "conflict")
"""Accepted reasons for moving an exam."""

STUDENT_ID = re.compile(r"\bS\d{4}\b", re.IGNORECASE)
COURSE_CODE = re.compile(r"\b([A-Z]{2,4})\s?-?(\d{3})\b", re.IGNORECASE)
SECTION_ID = re.compile(r"\b([A-Z]{2,4})\s?(\d{3})-([A-C])\b", re.IGNORECASE)
FEE_ID = re.compile(r"\bF-\d{4}\b", re.IGNORECASE)
NOTE_ID = re.compile(r"\bMN-\d{4}\b", re.IGNORECASE)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def money(cents: int) -> str:
    """Format cents as dollars, e.g. `2500 -> "$25.00"`."""
    return f"${cents / 100:,.2f}"
