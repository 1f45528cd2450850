"""Exam scheduling rules, shared by the support agent's tool and the student portal.

Both channels must apply the same policy (notice period, one move per exam, medical notes,
verified conflicts, the personal-reason fee), so it lives here once.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Any

from pydantic import JsonValue

from vistasim.domains.school import _records as rec
from vistasim.domains.school._args import RescheduleArgs
from vistasim.domains.school._rules import (
    MAX_RESCHEDULES,
    MEDICAL_NOTE_VALID_DAYS,
    RESCHEDULE_FEE_CENTS,
    RESCHEDULE_NOTICE_DAYS,
    TODAY,
    money,
)
from vistasim.env import ToolFailure


def exam_schedule(db: sqlite3.Connection, student_id: str) -> JsonValue:
    """Return the student's exams, each with whether and where it can be moved."""
    rec.student(db, student_id)
    exams: list[JsonValue] = []
    for booking in rec.bookings(db, student_id):
        movable, why = _movable(booking)
        others = [
            s
            for s in rec.sessions(db, booking["exam_id"])
            if s["session_id"] != booking["session_id"] and s["date"] > TODAY.isoformat()
        ]
        last_day = date.fromisoformat(booking["date"]) - timedelta(days=RESCHEDULE_NOTICE_DAYS)
        exams.append(
            booking
            | {
                "can_reschedule": movable,
                "why_not": why,
                "reschedule_deadline": last_day.isoformat(),
                "other_sessions": others,
            }
        )
    return {"student_id": student_id, "today": TODAY.isoformat(), "exams": exams}


def move_exam(db: sqlite3.Connection, args: RescheduleArgs) -> JsonValue:
    """Move a booking to another session after every policy check; charge the fee if due."""
    found = rec.student(db, args.student_id)
    if found["status"] != "active":
        raise ToolFailure(f"{args.student_id} is {found['status'].replace('_', ' ')}.")
    booking = _booking(db, args.student_id, args.exam_id)
    target = _target_session(db, booking, args.session_id)
    _check_timing(booking, args)
    _check_reason(db, booking, args)
    db.execute(
        "UPDATE exam_bookings SET session_id = ?, reschedule_count = reschedule_count + 1,"
        " reschedule_reason = ? WHERE booking_id = ?",
        (args.session_id, args.reason, booking["booking_id"]),
    )
    fee = _charge_fee(db, booking, args) if args.reason == "personal" else None
    return {
        "exam_id": args.exam_id,
        "from": f"{booking['date']} {booking['start_time']}",
        "to": f"{target['date']} {target['start_time']}",
        "session_id": args.session_id,
        "room": target["room"],
        "fee_charged": fee,
    }


def _movable(booking: dict[str, Any]) -> tuple[bool, str | None]:
    if booking["reschedule_count"] >= MAX_RESCHEDULES:
        return False, "already rescheduled once"
    if rec.days_until(booking["date"]) < RESCHEDULE_NOTICE_DAYS:
        return False, f"less than {RESCHEDULE_NOTICE_DAYS} days away (medical exception only)"
    return True, None


def _booking(db: sqlite3.Connection, student_id: str, exam_id: str) -> dict[str, Any]:
    booking = next((b for b in rec.bookings(db, student_id) if b["exam_id"] == exam_id), None)
    if booking is None:
        raise ToolFailure(
            f"{student_id} has no scheduled booking for exam {exam_id!r}; "
            "check the exam schedule for the exam IDs."
        )
    return booking


def _target_session(
    db: sqlite3.Connection, booking: dict[str, Any], session_id: str
) -> dict[str, Any]:
    options = {s["session_id"]: s for s in rec.sessions(db, booking["exam_id"])}
    target = options.get(session_id)
    if target is None:
        raise ToolFailure(
            f"{session_id!r} is not a session of {booking['exam_id']}; "
            f"sessions: {', '.join(sorted(options))}."
        )
    if session_id == booking["session_id"]:
        raise ToolFailure(f"The exam is already booked in {session_id}.")
    if target["date"] <= TODAY.isoformat():
        raise ToolFailure(f"Session {session_id} on {target['date']} is not in the future.")
    if target["seats_left"] <= 0:
        raise ToolFailure(f"Session {session_id} on {target['date']} is full.")
    return target


def _check_timing(booking: dict[str, Any], args: RescheduleArgs) -> None:
    if booking["reschedule_count"] >= MAX_RESCHEDULES:
        raise ToolFailure(
            f"Exam {args.exam_id} was already rescheduled once; a further change needs the "
            "Exams Office (escalate)."
        )
    days = rec.days_until(booking["date"])
    if days < RESCHEDULE_NOTICE_DAYS and args.reason != "medical":
        raise ToolFailure(
            f"Exam {args.exam_id} is on {booking['date']}, {days} day(s) away; exams can be moved "
            f"only {RESCHEDULE_NOTICE_DAYS} or more days ahead unless for a medical reason."
        )


def _check_reason(db: sqlite3.Connection, booking: dict[str, Any], args: RescheduleArgs) -> None:
    if args.reason == "medical":
        _check_note(db, args)
    elif args.reason == "conflict":
        clash = [
            b
            for b in rec.bookings(db, args.student_id)
            if b["exam_id"] != args.exam_id
            and (b["date"], b["start_time"]) == (booking["date"], booking["start_time"])
        ]
        if not clash:
            raise ToolFailure(
                f"No other exam of {args.student_id} is at {booking['date']} "
                f"{booking['start_time']}, so this is not an exam conflict."
            )


def _check_note(db: sqlite3.Connection, args: RescheduleArgs) -> None:
    if not args.note_id:
        raise ToolFailure("A medical reschedule needs the Health Centre note number (MN-1234).")
    row = db.execute(
        "SELECT issued_on FROM medical_notes WHERE note_id = ? AND student_id = ?",
        (args.note_id, args.student_id),
    ).fetchone()
    if row is None:
        raise ToolFailure(f"No medical note {args.note_id!r} on file for {args.student_id}.")
    if rec.days_until(row[0]) < -MEDICAL_NOTE_VALID_DAYS:
        raise ToolFailure(
            f"Medical note {args.note_id} was issued {row[0]}, more than "
            f"{MEDICAL_NOTE_VALID_DAYS} days ago; a new note is needed."
        )


def _charge_fee(db: sqlite3.Connection, booking: dict[str, Any], args: RescheduleArgs) -> str:
    fee_id = rec.next_fee_id(db)
    db.execute(
        "INSERT INTO fees VALUES (?, ?, 'reschedule', ?, ?, ?, 'unpaid', ?)",
        (
            fee_id,
            args.student_id,
            f"Exam reschedule ({args.exam_id})",
            RESCHEDULE_FEE_CENTS,
            (TODAY + timedelta(days=14)).isoformat(),
            booking["course_code"],
        ),
    )
    return f"{money(RESCHEDULE_FEE_CENTS)} ({fee_id})"
