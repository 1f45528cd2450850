"""Enrollment rules: who may add or drop a section, and what else changes when they do.

Adding a course books its exams and bills its lab fee; dropping it cancels both. Keeping these
side effects next to the checks means the agent's tools and the web site change the same rows.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from typing import Any

from pydantic import JsonValue

from vistasim.domains.school import _records as rec
from vistasim.domains.school._rules import (
    ADD_DEADLINE,
    DROP_DEADLINE,
    MAX_CREDITS,
    MIN_INTERNATIONAL_CREDITS,
    TODAY,
    money,
)
from vistasim.env import ToolFailure


def check_can_enroll(
    db: sqlite3.Connection,
    found: dict[str, Any],
    target: dict[str, Any],
    current: list[dict[str, Any]],
) -> None:
    sid, code = found["student_id"], target["course_code"]
    if found["status"] != "active":
        raise ToolFailure(f"{sid} is {found['status'].replace('_', ' ')} and cannot enroll.")
    if TODAY > ADD_DEADLINE:
        raise ToolFailure(f"The add deadline ({ADD_DEADLINE}) has passed.")
    hold = rec.financial_hold(db, sid)
    if hold:
        raise ToolFailure(f"{sid} has a financial hold ({hold}); enrollment is blocked until paid.")
    if any(s["course_code"] == code for s in current):
        raise ToolFailure(f"{sid} is already enrolled in {code}; drop that section first.")
    passed = rec.passed_courses(db, sid)
    if code in passed:
        raise ToolFailure(f"{sid} has already completed {code}.")
    if target["prerequisite"] and target["prerequisite"] not in passed:
        raise ToolFailure(f"{code} requires {target['prerequisite']}, which {sid} has not passed.")
    if target["seats_taken"] >= target["capacity"]:
        raise ToolFailure(f"{target['section_id']} is full ({target['capacity']} seats).")
    clash = next((s for s in current if rec.overlaps(s, target)), None)
    if clash:
        raise ToolFailure(
            f"{target['section_id']} ({target['days']} {target['start_time']}) clashes with "
            f"{clash['section_id']} on {sid}'s schedule."
        )
    credits = sum(s["credits"] for s in current) + target["credits"]
    if credits > MAX_CREDITS:
        raise ToolFailure(f"Enrolling would bring {sid} to {credits} credits; max {MAX_CREDITS}.")


def check_can_drop(
    found: dict[str, Any], current: list[dict[str, Any]], match: dict[str, Any]
) -> None:
    if TODAY > DROP_DEADLINE:
        raise ToolFailure(f"The drop deadline ({DROP_DEADLINE}) has passed; see an advisor.")
    remaining = sum(s["credits"] for s in current) - match["credits"]
    if found["international"] and remaining < MIN_INTERNATIONAL_CREDITS:
        raise ToolFailure(
            f"{found['student_id']} is an international student and would drop to {remaining} "
            f"credits (minimum {MIN_INTERNATIONAL_CREDITS}); an advisor must approve this "
            "(escalate)."
        )


def book_course_exams(db: sqlite3.Connection, student_id: str, course_code: str) -> None:
    db.execute(
        "INSERT INTO exam_bookings (student_id, exam_id, session_id, status)"
        " SELECT ?, exam_id, exam_id || '-1', 'scheduled' FROM exams WHERE course_code = ?",
        (student_id, course_code),
    )


def add_lab_fee(db: sqlite3.Connection, student_id: str, target: dict[str, Any]) -> str | None:
    if not target["lab_fee_cents"]:
        return None
    fee_id = rec.next_fee_id(db)
    db.execute(
        "INSERT INTO fees VALUES (?, ?, 'lab', ?, ?, ?, 'unpaid', ?)",
        (
            fee_id,
            student_id,
            f"{target['course_code']} lab fee",
            target["lab_fee_cents"],
            (TODAY + timedelta(days=14)).isoformat(),
            target["course_code"],
        ),
    )
    return money(target["lab_fee_cents"])


def cancel_course_extras(
    db: sqlite3.Connection, student_id: str, match: dict[str, Any]
) -> dict[str, JsonValue]:
    exams = db.execute(
        "UPDATE exam_bookings SET status = 'cancelled' WHERE student_id = ? AND status = "
        "'scheduled' AND exam_id IN (SELECT exam_id FROM exams WHERE course_code = ?)",
        (student_id, match["course_code"]),
    ).rowcount
    fees = db.execute(
        "UPDATE fees SET status = 'cancelled' WHERE student_id = ? AND kind = 'lab'"
        " AND course_code = ? AND status = 'unpaid'",
        (student_id, match["course_code"]),
    ).rowcount
    return {"exams_cancelled": exams, "lab_fee_cancelled": bool(fees)}
