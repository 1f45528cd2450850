"""The school bot's information and money flows: fees, waivers, schedule, seats, escalation.

Each `step_*` returns `(text, done)`; a waiver reaches a confirmation (stage `confirm`) and the
agent calls `exec_waive` after a plain yes. Flaws are marked `FLAW Hn`.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.heldout._base import money
from benchmarks.heldout._school_exams import SchoolExams

_WAIVABLE = ("late_payment", "reschedule")
_KIND_WORDS = {
    "late_payment": "late payment",
    "reschedule": "exam reschedule",
    "tuition": "tuition",
    "lab": "lab",
}


class SchoolInfo(SchoolExams):
    """Fees, waivers and information flows of the school bot."""

    async def _fees(self) -> dict[str, Any]:
        outcome = await self.call("get_fee_status", {"student_id": self.sid})
        return outcome.result

    async def step_fees(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Tell the student's balance, unpaid fees and any hold."""
        status = await self._fees()
        unpaid = [f for f in status["fees"] if f["status"] == "unpaid"]
        lines = "; ".join(
            f"{f['fee_id']} {f['description']} {f['amount']}, due {f['due_date']}" for f in unpaid
        )
        text = f"All set, here's your account: your balance due is {status['balance_due']}"
        text += f" ({lines})." if lines else "."
        if status["financial_hold"]:
            text += (
                f" You have a financial hold: {status['financial_hold']}. It blocks enrollment"
                " until paid; payments are made in the student portal."
            )
        return text, True

    async def step_waive(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Waive one late-payment or reschedule fee as a goodwill gesture."""
        status = await self._fees()
        unpaid = [f for f in status["fees"] if f["status"] == "unpaid"]
        wanted = task.get("fee")
        fee = next((f for f in unpaid if wanted in (f["fee_id"], f["kind"])), None)
        waivable = [f for f in unpaid if f["kind"] in _WAIVABLE]
        if fee is None and not wanted and len(waivable) == 1:
            fee = waivable[0]
        if fee is None:
            listed = "; ".join(f"{f['fee_id']} {f['description']} {f['amount']}" for f in unpaid)
            if not unpaid:
                return "You have no unpaid fees, so there's nothing to waive.", True
            return self.ask("fee", f"Which fee would you like waived? Unpaid: {listed}."), False
        if fee["kind"] not in _WAIVABLE:
            return (
                f"{_KIND_WORDS[fee['kind']].capitalize()} fees can't be waived by Student"
                " Services. You can request a waiver in the student portal, which Financial Aid"
                " reviews, or ask me to escalate it to Financial Aid."
            ), True
        task["fee_row"] = fee
        task["stage"] = "confirm"
        return self.ask(
            "confirm",
            f"To confirm: I'll waive {fee['fee_id']} ({fee['description']}, {fee['amount']}) as"
            " a one-time goodwill gesture; Student Services can grant one such waiver per term."
            " Shall I proceed? (yes/no)",
        ), False

    async def exec_waive(self, task: dict[str, Any]) -> str:
        """Call waive_fee."""
        fee = task["fee_row"]
        reason = f"Goodwill waiver requested by the student: {task['text'].strip()}"[:1000]
        args = {"student_id": self.sid, "fee_id": fee["fee_id"], "reason": reason}
        outcome = await self.call("waive_fee", args)
        if outcome.error:
            return f"I'm sorry, I couldn't waive it: {outcome.error}"
        return f"Done: {fee['fee_id']} ({outcome.result['amount']}) is waived."

    async def step_schedule(self, task: dict[str, Any]) -> tuple[str, bool]:
        """List the student's sections this term."""
        outcome = await self.call("get_schedule", {"student_id": self.sid})
        sections = outcome.result["sections"]
        if not sections:
            return "You have no courses on your schedule this term.", True
        listed = "; ".join(
            f"{s['section_id']} {s['title']} ({s['days']} {s['start_time']}-{s['end_time']},"
            f" {s['room']})"
            for s in sections
        )
        return (
            f"This term ({outcome.result['term']}) you're enrolled in {len(sections)} courses,"
            f" {outcome.result['credits']} credits: {listed}."
        ), True

    async def step_course_info(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Tell the seats left in each section of a course."""
        codes = task.get("courses") or []
        if not codes:
            return self.ask("course", "Which course would you like to know about?"), False
        outcome = await self.call("list_courses", {"query": codes[0]})
        course = next((c for c in outcome.result["courses"] if c["code"] == codes[0]), None)
        if course is None:
            return f"I couldn't find a course {codes[0]} in the catalog.", True
        # FLAW H5: the seat count read out is the section's capacity, not the seats left.
        if any(s["capacity"] != s["seats_left"] for s in course["sections"]):
            self.flaw(5)
        listed = "; ".join(
            f"{s['section_id']} ({s['days']} {s['start_time']}-{s['end_time']}, {s['instructor']})"
            f" has {s['capacity']} seats left"
            for s in course["sections"]
        )
        fee = (
            f" It has a lab fee of {money(course['lab_fee_cents'])}."
            if course["lab_fee_cents"]
            else ""
        )
        return f"All set: {course['code']} {course['title']}: {listed}.{fee}", True

    async def step_escalate(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Hand the case to a human advisor (one ticket per conversation)."""
        if self.state.get("ticket"):
            return f"You already have an advisor ticket: #{self.state['ticket']}.", True
        text = task["text"].lower()
        topic = next(
            (t for t, words in _TOPICS if re.search(words, text)),
            "other",
        )
        ticket = await self.escalate(topic, task["text"].strip()[:2000] or "Student asks for help")
        return (
            f"I've escalated your request; your advisor ticket is confirmed: {ticket}. An advisor"
            " will contact you within one business day."
        ), True


_TOPICS = (
    ("fees", r"fee|tuition|pay|balance|waiv"),
    ("exams", r"exam|final|midterm"),
    ("enrollment", r"enrol|drop|course|section|credit"),
    ("records", r"record|transcript|major|grade"),
)
