"""The school as an environment: the support agent's tools and the student portal's APIs.

Every tool enforces the written policy (`policy.md`) and fails with the message a real student
information system would give; the base class runs each call in a savepoint, so a refused or
broken call changes nothing.
"""

from __future__ import annotations

import sqlite3
from importlib import resources
from typing import Any, ClassVar

from pydantic import JsonValue

from vistasim.domains.school import _enrollment as enr
from vistasim.domains.school import _records as rec
from vistasim.domains.school._args import (
    EscalateArgs,
    FeeArgs,
    ListCoursesArgs,
    LookUpArgs,
    RescheduleArgs,
    SectionArgs,
    StudentArgs,
    VerifyArgs,
    WaiverArgs,
)
from vistasim.domains.school._exams import exam_schedule, move_exam
from vistasim.domains.school._rules import (
    AGENT_WAIVERS_PER_TERM,
    TERM,
    TERM_START,
    TODAY,
    WAIVABLE_KINDS,
    money,
)
from vistasim.domains.school._seed import seed_school
from vistasim.env import SqliteEnvironment, ToolFailure, tool


class SchoolEnvironment(SqliteEnvironment):
    """A university's student records: courses, enrollment, exams and fees."""

    SCHEMA_SQL: ClassVar[str] = (
        resources.files(__package__).joinpath("_schema.sql").read_text(encoding="utf-8")
    )
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "student_id": ["student id", "student number", "student ID"],
        "email": ["email", "e-mail", "email address"],
        "course": ["which course", "course code", "which class"],
        "section_id": ["which section", "section"],
        "exam_kind": ["midterm or", "or the final", "the placement or"],
        "new_date": ["which date", "what date", "new date", "move it to"],
        "reason": ["reason", "why"],
        "note_id": ["medical note", "note number"],
        "fee": ["which fee", "fee id"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill a fresh database with the deterministic Fall 2026 term."""
        seed_school(db)

    @tool("Find a student by student ID or email; returns the profile, hold and credits.")
    def look_up_student(self, args: LookUpArgs) -> JsonValue:
        """Return a student's profile, financial hold and current credits."""
        if args.student_id:
            found = rec.student(self.db, args.student_id)
        elif args.email:
            found = rec.student_by_email(self.db, args.email)
        else:
            raise ToolFailure("Give a student_id (e.g. S1001) or an email to look a student up.")
        credits = sum(s["credits"] for s in rec.current_sections(self.db, found["student_id"]))
        hold = rec.financial_hold(self.db, found["student_id"])
        return found | {"financial_hold": hold, "credits_this_term": credits}

    @tool("Verify a student's identity: the email must match the one on their record.")
    def verify_student(self, args: VerifyArgs) -> JsonValue:
        """Confirm that the email belongs to the student, as policy requires before any change."""
        found = rec.student(self.db, args.student_id)
        if found["email"].lower() != args.email.strip().lower():
            raise ToolFailure(
                f"The email {args.email!r} does not match the record of {args.student_id}. "
                "Do not share or change this record; ask the student to check the email."
            )
        return {"verified": True, "student_id": found["student_id"], "name": found["name"]}

    @tool("List courses and their sections with schedule and free seats; filter optionally.")
    def list_courses(self, args: ListCoursesArgs) -> JsonValue:
        """Return matching courses, each with its sections and seats left."""
        rows = self.db.execute(
            "SELECT * FROM courses WHERE (? IS NULL OR lower(department) LIKE lower(?))"
            " AND (? IS NULL OR lower(title) LIKE lower(?) OR lower(code) LIKE lower(?))"
            " ORDER BY code",
            (
                args.department,
                f"%{args.department}%",
                args.query,
                f"%{args.query}%",
                f"%{(args.query or '').replace(' ', '')}%",
            ),
        ).fetchall()
        courses: list[JsonValue] = []
        for row in rows:
            ids = self.db.execute(
                "SELECT section_id FROM sections WHERE course_code = ? ORDER BY section_id",
                (row["code"],),
            )
            sections = [_section_view(rec.section(self.db, r[0])) for r in ids]
            if args.only_open:
                sections = [s for s in sections if s["seats_left"] > 0]
            if sections or not args.only_open:
                courses.append(dict(row) | {"sections": sections})
        return {"courses": courses, "count": len(courses)}

    @tool("A student's enrolled sections this term, with meeting times and total credits.")
    def get_schedule(self, args: StudentArgs) -> JsonValue:
        """Return the student's current sections and credits."""
        rec.student(self.db, args.student_id)
        sections = rec.current_sections(self.db, args.student_id)
        credits = sum(s["credits"] for s in sections)
        return {
            "student_id": args.student_id,
            "term": TERM,
            "sections": sections,
            "credits": credits,
        }

    @tool(
        "Enroll a student in a section; checks status, holds, prerequisites, seats, "
        "time conflicts, the credit limit and the add deadline."
    )
    def enroll_student(self, args: SectionArgs) -> JsonValue:
        """Enroll after every policy check; books the course's exams and adds any lab fee."""
        found = rec.student(self.db, args.student_id)
        target = rec.section(self.db, args.section_id)
        current = rec.current_sections(self.db, args.student_id)
        enr.check_can_enroll(self.db, found, target, current)
        self.db.execute(
            "INSERT INTO enrollments (student_id, section_id, term, status, changed_on)"
            " VALUES (?, ?, ?, 'enrolled', ?)",
            (args.student_id, args.section_id, TERM, TODAY.isoformat()),
        )
        enr.book_course_exams(self.db, args.student_id, target["course_code"])
        lab_fee = enr.add_lab_fee(self.db, args.student_id, target)
        return {
            "enrolled": args.section_id,
            "course": f"{target['course_code']} {target['title']}",
            "meets": f"{target['days']} {target['start_time']}-{target['end_time']}",
            "credits_this_term": sum(s["credits"] for s in current) + target["credits"],
            "lab_fee": lab_fee,
        }

    @tool(
        "Drop a student's section before the drop deadline; cancels its exams and any "
        "unpaid lab fee."
    )
    def drop_course(self, args: SectionArgs) -> JsonValue:
        """Drop after the deadline and visa-credit checks."""
        found = rec.student(self.db, args.student_id)
        current = rec.current_sections(self.db, args.student_id)
        match = next((s for s in current if s["section_id"] == args.section_id), None)
        if match is None:
            enrolled = ", ".join(s["section_id"] for s in current) or "none"
            raise ToolFailure(
                f"{args.student_id} is not enrolled in {args.section_id}; "
                f"current sections: {enrolled}."
            )
        enr.check_can_drop(found, current, match)
        self.db.execute(
            "UPDATE enrollments SET status = 'dropped', changed_on = ? WHERE student_id = ?"
            " AND section_id = ? AND status = 'enrolled'",
            (TODAY.isoformat(), args.student_id, args.section_id),
        )
        return enr.cancel_course_extras(self.db, args.student_id, match) | {
            "dropped": args.section_id,
            "credits_this_term": sum(s["credits"] for s in current) - match["credits"],
        }

    @tool("A student's scheduled exams, whether each can still be moved, and open sessions.")
    def get_exam_schedule(self, args: StudentArgs) -> JsonValue:
        """Return the student's exam bookings with their reschedule options."""
        return exam_schedule(self.db, args.student_id)

    @tool(
        "Move a student's exam to another session of the same exam (policy: 3 days' notice "
        "unless medical, once per exam, $25 fee for personal reasons)."
    )
    def reschedule_student_exam(self, args: RescheduleArgs) -> JsonValue:
        """Reschedule on the student's behalf."""
        return move_exam(self.db, args)

    @tool("A student's fees with amounts, due dates and status, and the balance due.")
    def get_fee_status(self, args: StudentArgs) -> JsonValue:
        """Return the student's fees and the unpaid balance."""
        rec.student(self.db, args.student_id)
        fees = rec.fees(self.db, args.student_id)
        due = sum(f["amount_cents"] for f in fees if f["status"] == "unpaid")
        return {
            "student_id": args.student_id,
            "fees": [*fees],
            "balance_due": money(due),
            "financial_hold": rec.financial_hold(self.db, args.student_id),
        }

    @tool(
        "Waive a late-payment or reschedule fee as a one-time goodwill gesture "
        "(one per student per term; tuition and lab fees cannot be waived)."
    )
    def waive_fee(self, args: WaiverArgs) -> JsonValue:
        """Waive a fee after the kind, status and once-per-term checks."""
        rec.student(self.db, args.student_id)
        target = rec.fee(self.db, args.student_id, args.fee_id)
        _check_unpaid(target)
        if target["kind"] not in WAIVABLE_KINDS:
            raise ToolFailure(
                f"{target['kind'].replace('_', ' ').capitalize()} fees cannot be waived by "
                "support. "
                "Escalate to Financial Aid (topic 'fees') or ask the student to request a waiver "
                "in the portal."
            )
        used = _waivers_this_term(self.db, args.student_id)
        if len(used) >= AGENT_WAIVERS_PER_TERM:
            raise ToolFailure(
                f"{args.student_id} already received a goodwill waiver this term "
                f"({used[0]['fee_id']} on {used[0]['created_on']}); only one is allowed per term."
            )
        self.db.execute("UPDATE fees SET status = 'waived' WHERE fee_id = ?", (args.fee_id,))
        _record_waiver(self.db, args, "agent", "approved")
        return {"waived": args.fee_id, "amount": money(target["amount_cents"])}

    @tool("Hand the case to a human advisor; returns a ticket number.")
    def escalate_to_human(self, args: EscalateArgs) -> JsonValue:
        """Open an escalation ticket."""
        if args.student_id:
            rec.student(self.db, args.student_id)
        cursor = self.db.execute(
            "INSERT INTO escalations (student_id, topic, summary, created_on) VALUES (?, ?, ?, ?)",
            (args.student_id, args.topic, args.summary, TODAY.isoformat()),
        )
        return {
            "ticket_id": cursor.lastrowid,
            "message": "An advisor will contact the student within one business day.",
        }

    @tool("See my scheduled exams and the sessions I can move them to.", side="user")
    def view_exam_schedule(self, args: StudentArgs) -> JsonValue:
        """Return the student's exams (portal)."""
        return exam_schedule(self.db, args.student_id)

    @tool("Reschedule one of my exams in the student portal (same rules as support).", side="user")
    def reschedule_exam(self, args: RescheduleArgs) -> JsonValue:
        """Reschedule from the portal."""
        return move_exam(self.db, args)

    @tool(
        "Request a fee waiver in the portal; late and reschedule fees are decided at once, "
        "tuition and lab fees go to Financial Aid.",
        side="user",
    )
    def request_fee_waiver(self, args: WaiverArgs) -> JsonValue:
        """File a waiver request and return its decision."""
        rec.student(self.db, args.student_id)
        target = rec.fee(self.db, args.student_id, args.fee_id)
        _check_unpaid(target)
        if self.db.execute(
            "SELECT 1 FROM fee_waivers WHERE fee_id = ? AND status = 'pending'", (args.fee_id,)
        ).fetchone():
            raise ToolFailure(f"A waiver request for {args.fee_id} is already pending review.")
        status = _portal_decision(self.db, args.student_id, target["kind"])
        if status == "approved":
            self.db.execute("UPDATE fees SET status = 'waived' WHERE fee_id = ?", (args.fee_id,))
        _record_waiver(self.db, args, "portal", status)
        return {"fee_id": args.fee_id, "status": status, "message": _DECISIONS[status]}

    @tool("Pay one of my fees with the card on file.", side="user")
    def pay_fee(self, args: FeeArgs) -> JsonValue:
        """Mark a fee paid."""
        rec.student(self.db, args.student_id)
        target = rec.fee(self.db, args.student_id, args.fee_id)
        _check_unpaid(target)
        self.db.execute("UPDATE fees SET status = 'paid' WHERE fee_id = ?", (args.fee_id,))
        return {"paid": args.fee_id, "amount": money(target["amount_cents"])}


_DECISIONS = {
    "approved": "Waiver approved; the fee no longer appears on your balance.",
    "denied": "Waiver denied: a goodwill waiver was already granted this term.",
    "pending": "Request sent to Financial Aid; expect a decision within 10 business days.",
}


def _section_view(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("section_id", "instructor", "days", "start_time", "end_time", "room", "capacity")
    return {k: row[k] for k in keys} | {"seats_left": row["capacity"] - row["seats_taken"]}


def _check_unpaid(target: dict[str, Any]) -> None:
    if target["status"] == "paid":
        raise ToolFailure(
            f"Fee {target['fee_id']} is already paid; refunds go through the Bursar (escalate)."
        )
    if target["status"] != "unpaid":
        raise ToolFailure(f"Fee {target['fee_id']} is {target['status']}; nothing is owed on it.")


def _waivers_this_term(db: sqlite3.Connection, student_id: str) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT fee_id, created_on FROM fee_waivers WHERE student_id = ? AND status = 'approved'"
        " AND created_on >= ? AND fee_id IN (SELECT fee_id FROM fees WHERE kind IN (?, ?))"
        " ORDER BY created_on",
        (student_id, TERM_START.isoformat(), *WAIVABLE_KINDS),
    )
    return [dict(r) for r in rows]


def _portal_decision(db: sqlite3.Connection, student_id: str, kind: str) -> str:
    if kind not in WAIVABLE_KINDS:
        return "pending"
    return "denied" if _waivers_this_term(db, student_id) else "approved"


def _record_waiver(db: sqlite3.Connection, args: WaiverArgs, channel: str, status: str) -> None:
    db.execute(
        "INSERT INTO fee_waivers (fee_id, student_id, channel, reason, status, created_on)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (args.fee_id, args.student_id, channel, args.reason, status, TODAY.isoformat()),
    )
