"""Reads of the school database shared by the tools: students, schedules, exams and fees.

Tools enforce the policy; these helpers only fetch and shape rows, and raise `ToolFailure` with a
realistic message when an id does not exist, so every tool reports unknown ids the same way.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from vistasim.domains.school._rules import TERM, TODAY, money
from vistasim.env import ToolFailure


def student(db: sqlite3.Connection, student_id: str) -> dict[str, Any]:
    """Return a student's row, or fail naming the id and how to find the right one."""
    row = db.execute("SELECT * FROM students WHERE student_id = ?", (student_id,)).fetchone()
    if row is None:
        raise ToolFailure(
            f"No student with ID {student_id!r}. Student IDs look like S1234; "
            "look the student up by email if unsure."
        )
    return dict(row)


def student_by_email(db: sqlite3.Connection, email: str) -> dict[str, Any]:
    """Return the student with this email (case-insensitive), or fail."""
    row = db.execute(
        "SELECT * FROM students WHERE lower(email) = lower(?)", (email.strip(),)
    ).fetchone()
    if row is None:
        raise ToolFailure(f"No student with email {email!r}.")
    return dict(row)


def current_sections(db: sqlite3.Connection, student_id: str) -> list[dict[str, Any]]:
    """Sections the student is enrolled in this term, with course title and credits."""
    rows = db.execute(
        "SELECT s.section_id, s.course_code, c.title, c.credits, s.days, s.start_time,"
        " s.end_time, s.room, s.instructor FROM enrollments e"
        " JOIN sections s ON s.section_id = e.section_id"
        " JOIN courses c ON c.code = s.course_code"
        " WHERE e.student_id = ? AND e.term = ? AND e.status = 'enrolled'"
        " ORDER BY s.course_code",
        (student_id, TERM),
    )
    return [dict(r) for r in rows]


def passed_courses(db: sqlite3.Connection, student_id: str) -> set[str]:
    """Course codes the student completed with a passing grade."""
    rows = db.execute(
        "SELECT s.course_code FROM enrollments e JOIN sections s ON s.section_id = e.section_id"
        " WHERE e.student_id = ? AND e.status = 'completed' AND e.grade != 'F'",
        (student_id,),
    )
    return {r[0] for r in rows}


def section(db: sqlite3.Connection, section_id: str) -> dict[str, Any]:
    """Return a section with its course and seats taken, or fail."""
    row = db.execute(
        "SELECT s.*, c.title, c.credits, c.prerequisite, c.lab_fee_cents,"
        " (SELECT COUNT(*) FROM enrollments e WHERE e.section_id = s.section_id"
        "  AND e.status = 'enrolled') AS seats_taken"
        " FROM sections s JOIN courses c ON c.code = s.course_code WHERE s.section_id = ?",
        (section_id,),
    ).fetchone()
    if row is None:
        raise ToolFailure(
            f"No section {section_id!r}. Section IDs look like CS101-A; "
            "use list_courses to see the sections of a course."
        )
    return dict(row)


def financial_hold(db: sqlite3.Connection, student_id: str) -> str | None:
    """Why the student has a financial hold (overdue unpaid tuition), or None."""
    row = db.execute(
        "SELECT fee_id, amount_cents, due_date FROM fees WHERE student_id = ? AND kind = 'tuition'"
        " AND status = 'unpaid' AND due_date < ? ORDER BY due_date LIMIT 1",
        (student_id, TODAY.isoformat()),
    ).fetchone()
    if row is None:
        return None
    return f"tuition fee {row[0]} of {money(row[1])} was due {row[2]} and is unpaid"


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two sections meet on a shared day at overlapping times."""
    shared = set(a["days"].split("/")) & set(b["days"].split("/"))
    return bool(shared) and a["start_time"] < b["end_time"] and b["start_time"] < a["end_time"]


def bookings(db: sqlite3.Connection, student_id: str) -> list[dict[str, Any]]:
    """The student's scheduled exams with date, time, and whether they can still be moved."""
    rows = db.execute(
        "SELECT b.booking_id, b.exam_id, x.course_code, x.kind, b.session_id, t.date,"
        " t.start_time, t.room, b.reschedule_count FROM exam_bookings b"
        " JOIN exams x ON x.exam_id = b.exam_id JOIN exam_sessions t ON t.session_id = b.session_id"
        " WHERE b.student_id = ? AND b.status = 'scheduled' ORDER BY t.date, t.start_time",
        (student_id,),
    )
    return [dict(r) for r in rows]


def sessions(db: sqlite3.Connection, exam_id: str) -> list[dict[str, Any]]:
    """Every session of an exam with seats left."""
    rows = db.execute(
        "SELECT t.session_id, t.date, t.start_time, t.room, t.capacity - (SELECT COUNT(*)"
        " FROM exam_bookings b WHERE b.session_id = t.session_id AND b.status = 'scheduled')"
        " AS seats_left FROM exam_sessions t WHERE t.exam_id = ? ORDER BY t.date, t.start_time",
        (exam_id,),
    )
    return [dict(r) for r in rows]


def days_until(iso_day: str) -> int:
    """Days from the school's today to an ISO date."""
    return (date.fromisoformat(iso_day) - TODAY).days


def fee(db: sqlite3.Connection, student_id: str, fee_id: str) -> dict[str, Any]:
    """Return one of the student's fees, or fail (a fee of another student is not found)."""
    row = db.execute(
        "SELECT * FROM fees WHERE fee_id = ? AND student_id = ?", (fee_id, student_id)
    ).fetchone()
    if row is None:
        raise ToolFailure(
            f"No fee {fee_id!r} on the account of {student_id}. "
            "Use the fee status to see the student's fees."
        )
    return dict(row)


def fees(db: sqlite3.Connection, student_id: str) -> list[dict[str, Any]]:
    """All of the student's fees, oldest due first."""
    rows = db.execute(
        "SELECT fee_id, kind, description, amount_cents, due_date, status, course_code FROM fees"
        " WHERE student_id = ? ORDER BY due_date, fee_id",
        (student_id,),
    )
    return [dict(r) | {"amount": money(r["amount_cents"])} for r in rows]


def next_fee_id(db: sqlite3.Connection) -> str:
    """The next free fee id (F-1001, F-1002...)."""
    row = db.execute("SELECT MAX(CAST(substr(fee_id, 3) AS INTEGER)) FROM fees").fetchone()
    return f"F-{(row[0] or 1000) + 1}"
