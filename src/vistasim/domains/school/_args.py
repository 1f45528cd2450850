"""Argument models of the school's tools: the JSON schemas agents and users see.

Ids are normalized (trimmed, upper-cased) and then checked against their exact shape, so a typo,
a SQL-looking string or a huge value is rejected with a clear message before any tool runs.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


StudentId = Annotated[
    str,
    BeforeValidator(_upper),
    Field(pattern=r"^S\d{4}$", max_length=5, description="Student ID, e.g. S1001."),
]
SectionId = Annotated[
    str,
    BeforeValidator(_upper),
    Field(
        pattern=r"^[A-Z]{2,4}\d{3}-[A-C]$", max_length=9, description="Section ID, e.g. CS101-A."
    ),
]
ExamId = Annotated[
    str,
    BeforeValidator(_upper),
    Field(
        pattern=r"^EX-[A-Z]{2,4}\d{3}-(PLA|MID|FIN)$",
        max_length=14,
        description="Exam ID, e.g. EX-CS101-FIN (PLA placement, MID midterm, FIN final).",
    ),
]
SessionId = Annotated[
    str,
    BeforeValidator(_upper),
    Field(
        pattern=r"^EX-[A-Z]{2,4}\d{3}-(PLA|MID|FIN)-\d$",
        max_length=16,
        description="Exam session ID, e.g. EX-CS101-FIN-2.",
    ),
]
FeeId = Annotated[
    str, BeforeValidator(_upper), Field(pattern=r"^F-\d{4}$", description="Fee ID, e.g. F-1001.")
]
NoteId = Annotated[
    str,
    BeforeValidator(_upper),
    Field(pattern=r"^MN-\d{4}$", description="Health Centre medical note number, e.g. MN-1234."),
]
Email = Annotated[str, Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StudentArgs(_Args):
    """Identify one student."""

    student_id: StudentId


class LookUpArgs(_Args):
    """Find a student by ID or by email (give one)."""

    student_id: StudentId | None = None
    email: Email | None = None


class VerifyArgs(_Args):
    """Check that an email matches the student's record."""

    student_id: StudentId
    email: Email


class ListCoursesArgs(_Args):
    """Filter the course catalog."""

    department: str | None = Field(default=None, max_length=60)
    query: str | None = Field(
        default=None, max_length=100, description="Words of the title or the course code."
    )
    only_open: bool = Field(default=False, description="Only sections with free seats.")


class SectionArgs(_Args):
    """A student and one section."""

    student_id: StudentId
    section_id: SectionId


class RescheduleArgs(_Args):
    """Move a booked exam to another session of the same exam."""

    student_id: StudentId
    exam_id: ExamId
    session_id: SessionId = Field(description="The new session, e.g. EX-CS101-FIN-2.")
    reason: Literal["personal", "medical", "conflict"]
    note_id: NoteId | None = Field(default=None, description="Required when reason is medical.")


class FeeArgs(_Args):
    """A student and one of their fees."""

    student_id: StudentId
    fee_id: FeeId


class WaiverArgs(_Args):
    """Waive or request waiving a fee, with the student's reason."""

    student_id: StudentId
    fee_id: FeeId
    reason: str = Field(min_length=10, max_length=1000)


class EscalateArgs(_Args):
    """Hand the case to a human advisor."""

    student_id: StudentId | None = None
    topic: Literal["enrollment", "exams", "fees", "records", "other"]
    summary: str = Field(min_length=5, max_length=2000)
