"""The school bot's exam flows: when an exam is, and moving it to another session.

Each `step_*` returns `(text, done)`; a step that reaches the confirmation sets the request's
stage to `confirm`, and the agent calls `exec_*` after a plain yes. Flaws are marked `FLAW Hn`.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.heldout import _school_nlu as nlu
from benchmarks.heldout._base import SlotAgent

TODAY = date(2026, 9, 14)
NOTICE_DAYS = 3
_KIND_ORDER = ("placement", "midterm", "final")
_KINDS = {"PLA": "placement", "MID": "midterm", "FIN": "final"}


def kind_of(booking: dict[str, Any]) -> str:
    """'final' for EX-CS101-FIN."""
    return _KINDS[booking["exam_id"].rsplit("-", 1)[-1]]


def exam_name(booking: dict[str, Any]) -> str:
    """'MATH201 final'."""
    return f"{booking['course_code']} {kind_of(booking)}"


def _open_sessions(booking: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in booking["other_sessions"] if s["seats_left"] > 0]


def _session_list(booking: dict[str, Any]) -> str:
    return ", ".join(f"{s['date']} at {s['start_time']}" for s in _open_sessions(booking))


class SchoolExams(SlotAgent):
    """Exam flows of the school bot (mixed into `HeldoutSchoolAgent`)."""

    @property
    def sid(self) -> str:
        """The verified student's ID."""
        return self.state["student_id"]

    def confirm(self, task: dict[str, Any], text: str) -> tuple[str, bool]:
        """Ask for the explicit yes before a change."""
        task["stage"] = "confirm"
        return self.ask("confirm", f"{text} Shall I proceed? (yes/no)"), False

    async def execute(self, task: dict[str, Any]) -> str:
        """Make the confirmed change."""
        return await getattr(self, f"exec_{task['intent']}")(task)

    async def escalate(self, topic: str, summary: str) -> str:
        """Open an advisor ticket for the verified student and return its number."""
        args = {"student_id": self.sid, "topic": topic, "summary": summary}
        outcome = await self.call("escalate_to_human", args)
        if outcome.error:  # pragma: no cover (the student is verified, so the id exists)
            return "unavailable"
        self.state["ticket"] = outcome.result["ticket_id"]
        return f"#{outcome.result['ticket_id']}"

    async def _bookings(self, task: dict[str, Any]) -> list[dict[str, Any]] | None:
        if "exams" not in task:
            outcome = await self.call("get_exam_schedule", {"student_id": self.sid})
            task["exams"] = outcome.result["exams"]
        codes = task.get("courses") or []
        return [b for b in task["exams"] if not codes or b["course_code"] in codes]

    # ---- when is my exam --------------------------------------------------------------------
    async def step_exam_info(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Tell the dates of the student's exams (of one course, if named)."""
        bookings = await self._bookings(task) or []
        if task.get("kind"):
            bookings = [b for b in bookings if kind_of(b) == task["kind"]] or bookings
        if not bookings:
            return "I don't see a booked exam for that course on your schedule.", True
        # FLAW H7: dates are rendered through a UTC-midnight timestamp in campus time (UTC-5),
        # so every exam is announced one day early, and only in words.
        self.flaw(7)
        parts = [
            f"your {exam_name(b)} is on {_shifted_words(b['date'])} at {b['start_time']} in"
            f" {b['room']}"
            for b in bookings
        ]
        return "All set: " + "; ".join(parts) + ".", True

    # ---- move an exam -----------------------------------------------------------------------
    async def step_reschedule(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Move one exam to another session of the same exam."""
        if not task.get("courses"):
            return self.ask("course", "Which course's exam would you like to move?"), False
        bookings = await self._bookings(task)
        if not bookings:
            text = f"I don't see a booked exam for {task['courses'][0]} on your schedule."
            return text, True
        booking = self._pick_exam(task, bookings)
        if booking is None:
            kinds = sorted({kind_of(b) for b in bookings}, key=_KIND_ORDER.index)
            question = "Which exam: the " + " or the ".join(kinds) + "?"
            return self.ask("exam_kind", question), False
        if booking["reschedule_count"] >= 1:
            ticket = await self.escalate(
                "exams", f"Student asks to move the {exam_name(booking)} a second time."
            )
            return (
                f"Your {exam_name(booking)} was already rescheduled once, and an exam can be"
                f" moved only once by Student Services, so a further change needs the Exams"
                f" Office. I've escalated it for you: ticket {ticket}."
            ), True
        return await self._reschedule_details(task, booking)

    def _pick_exam(self, task: dict[str, Any], bookings: list[dict[str, Any]]) -> dict | None:
        if task.get("kind"):
            return next((b for b in bookings if kind_of(b) == task["kind"]), None)
        if len(bookings) == 1:
            return bookings[0]
        finals = [b for b in bookings if kind_of(b) == "final"]
        if finals:
            # FLAW H4: "my exam" is taken to mean the final when a course has several exams.
            self.flaw(4)
            task["kind"] = "final"
            return finals[0]
        return None

    async def _reschedule_details(
        self, task: dict[str, Any], booking: dict[str, Any]
    ) -> tuple[str, bool]:
        if not task.get("reason"):
            question = "What's the reason for the move: personal, medical, or an exam conflict?"
            return self.ask("reason", question), False
        if "why" not in task:
            task["why"] = nlu.reason_kind_as_built(task["reason"])
            if task["why"] != nlu.reason_kind(task["reason"]):
                self.flaw(9)
        if task["why"] == "medical" and not task.get("note"):
            text = "What's your Health Centre medical note number (it looks like MN-1234)?"
            return self.ask("note_id", text), False
        days = (date.fromisoformat(booking["date"]) - TODAY).days
        if days < NOTICE_DAYS and task["why"] != "medical":
            return (
                f"I'm sorry, your {exam_name(booking)} is on {booking['date']}, only {days} day(s)"
                f" away. Exams can be moved only at least {NOTICE_DAYS} days before the booked"
                " session, unless for a medical reason with a Health Centre note."
            ), True
        return self._reschedule_session(task, booking)

    def _reschedule_session(
        self, task: dict[str, Any], booking: dict[str, Any]
    ) -> tuple[str, bool]:
        if not _open_sessions(booking):
            return f"I'm sorry, there's no other open session of your {exam_name(booking)}.", True
        if not task.get("date"):
            question = (
                f"Which date would you like to move it to? Open sessions: {_session_list(booking)}."
            )
            return self.ask("new_date", question), False
        match = [s for s in _open_sessions(booking) if s["date"] == task["date"]]
        if not match:
            wanted = task.pop("date")
            text = f"There's no open session of your {exam_name(booking)} on {wanted}."
            return self.ask(
                "new_date",
                f"{text} Which date would you like? Open sessions: {_session_list(booking)}.",
            ), False
        task["session"] = match[0]
        task["booking"] = booking
        return self.confirm(task, self._move_plan(task, booking, match[0]))

    def _move_plan(self, task: dict[str, Any], booking: dict[str, Any], new: dict[str, Any]) -> str:
        cost = {
            "personal": "As a personal move, it carries a $25.00 reschedule fee.",
            "conflict": "As an exam conflict (checked by the system), it's free.",
            "medical": f"As a medical move with note {task.get('note')}, it's free.",
        }[task["why"]]
        return (
            f"To confirm: I'll move your {exam_name(booking)} from {booking['date']} at"
            f" {booking['start_time']} to {new['date']} at {new['start_time']}"
            f" ({new['session_id']}). {cost}"
        )

    async def exec_reschedule(self, task: dict[str, Any]) -> str:
        """Call reschedule_student_exam."""
        booking, new = task["booking"], task["session"]
        args: dict[str, Any] = {
            "student_id": self.sid,
            "exam_id": booking["exam_id"],
            "session_id": new["session_id"],
            "reason": task["why"],
        }
        if task["why"] == "medical":
            args["note_id"] = task.get("note")
        outcome = await self.call("reschedule_student_exam", args)
        if outcome.error:
            return f"I'm sorry, I couldn't move it: {outcome.error}"
        result = outcome.result
        fee = (
            f" A reschedule fee of {result['fee_charged']} was added."
            if result["fee_charged"]
            else ""
        )
        return (
            f"Done: your {exam_name(booking)} is moved to {new['date']} at {new['start_time']}"
            f" in {result['room']}.{fee}"
        )


def _shifted_words(iso_day: str) -> str:
    shown = date.fromisoformat(iso_day) - timedelta(days=1)
    return f"{shown.strftime('%A')}, {shown.strftime('%B')} {shown.day}"
