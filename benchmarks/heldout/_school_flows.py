"""The school bot's record flows: enroll, drop, fees and waivers, schedule, seats, escalation.

Each `step_*` returns `(text, done)`; a step that reaches the confirmation sets the request's
stage to `confirm`, and the agent calls `exec_*` after a plain yes. Flaws are marked `FLAW Hn`.
"""

from __future__ import annotations

from typing import Any

from benchmarks.heldout import _school_nlu as nlu
from benchmarks.heldout._base import money
from benchmarks.heldout._school_info import SchoolInfo

MAX_CREDITS = 18
MIN_INTERNATIONAL = 12


def _meets(section: dict[str, Any]) -> str:
    return f"{section['days']} {section['start_time']}-{section['end_time']}"


def _overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    shared = set(a["days"].split("/")) & set(b["days"].split("/"))
    return bool(shared) and a["start_time"] < b["end_time"] and b["start_time"] < a["end_time"]


class SchoolFlows(SchoolInfo):
    """Record flows of the school bot (mixed into `HeldoutSchoolAgent`)."""

    async def _schedule(self, task: dict[str, Any]) -> dict[str, Any]:
        if "current" not in task:
            outcome = await self.call("get_schedule", {"student_id": self.sid})
            task["current"] = outcome.result
        return task["current"]

    # ---- enroll -----------------------------------------------------------------------------
    async def step_enroll(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Enroll in one or more courses, each in a section the student wants or that fits."""
        wanted = task.get("courses") or [s.split("-")[0] for s in task.get("sections") or []]
        if not wanted:
            return self.ask("course", "Which course would you like to enroll in?"), False
        profile = self.state["profile"]
        if profile["status"] != "active":
            status = profile["status"].replace("_", " ")
            return f"Your record shows you're {status}, so you can't enroll this term.", True
        if profile["financial_hold"]:
            return (
                f"You have a financial hold ({profile['financial_hold']}), which blocks"
                " enrollment until it's paid. You can pay in the student portal."
            ), True
        if "plan" not in task:
            notes = await self._plan(task, wanted)
            if not task["plan"]:
                return " ".join(notes), True
            task["notes"] = notes
        return self.confirm(task, self._enroll_text(task))

    async def _plan(self, task: dict[str, Any], wanted: list[str]) -> list[str]:
        current = await self._schedule(task)
        credits = current["credits"]
        taken = list(current["sections"])
        task["plan"], notes = [], []
        for code in wanted:
            if any(s["course_code"] == code for s in current["sections"]):
                notes.append(f"You're already enrolled in {code}.")
                continue
            outcome = await self.call("list_courses", {"query": code})
            course = next((c for c in outcome.result["courses"] if c["code"] == code), None)
            if course is None:
                notes.append(f"I couldn't find a course {code} in the catalog.")
                continue
            section, how = self._choose(task, course, taken)
            if section is None:
                notes.append(f"No open section of {code} fits your schedule or preference.")
                continue
            total = credits + course["credits"]
            # FLAW H8: the bot's own limit check uses >=, so exactly 18 credits is refused.
            if total >= MAX_CREDITS:
                if total == MAX_CREDITS:
                    self.flaw(8)
                notes.append(
                    f"Enrolling in {code} would bring you to {total} credits; the maximum is"
                    f" {MAX_CREDITS} credits per term."
                )
                continue
            credits = total
            taken.append(section)
            task["plan"].append({**section, **_course_facts(course), "how": how})
        return notes

    def _choose(
        self, task: dict[str, Any], course: dict[str, Any], taken: list[dict[str, Any]]
    ) -> tuple[dict[str, Any] | None, str]:
        sections = course["sections"]
        named = [s for s in sections if s["section_id"] in (task.get("sections") or [])]
        if named:
            return named[0], "explicit"
        if task.get("days") or task.get("part"):
            liked = [
                s
                for s in sections
                if nlu.fits_preference(s, task.get("days") or [], task.get("part"))
            ]
            return (liked[0] if liked else None), "preference"
        free = [
            s for s in sections if s["seats_left"] > 0 and not any(_overlaps(s, t) for t in taken)
        ]
        return (free[0] if free else None), "auto"

    def _enroll_text(self, task: dict[str, Any]) -> str:
        parts = []
        for plan in task["plan"]:
            line = (
                f"{plan['section_id']} ({plan['title']}, {_meets(plan)}, {plan['credits']} credits)"
            )
            if plan["lab_fee_cents"]:
                if plan["how"] in ("explicit", "preference"):
                    # FLAW H1: a section the student picked skips the fee line of the template.
                    self.flaw(1)
                else:
                    line += (
                        f", which adds a lab fee of {money(plan['lab_fee_cents'])} due in 14 days"
                    )
            parts.append(line)
        notes = " ".join(task.get("notes") or [])
        lead = f"{notes} " if notes else ""
        return (
            f"{lead}To confirm: I'll enroll you in {' and '.join(parts)}. The course exams are"
            " booked in their main sessions."
        )

    async def exec_enroll(self, task: dict[str, Any]) -> str:
        """Call enroll_student for each planned section."""
        said = []
        for plan in task["plan"]:
            args = {"student_id": self.sid, "section_id": plan["section_id"]}
            outcome = await self.call("enroll_student", args)
            if outcome.error and " is full" in outcome.error:
                said.append(await self._section_full(task, plan))
            elif outcome.error:
                said.append(
                    f"I'm sorry, I couldn't enroll you in {plan['section_id']}: {outcome.error}"
                )
            else:
                said.append(_enrolled_text(plan, outcome.result))
        return " ".join(said)

    async def _section_full(self, task: dict[str, Any], plan: dict[str, Any]) -> str:
        outcome = await self.call("list_courses", {"query": plan["course_code"]})
        course = next(c for c in outcome.result["courses"] if c["code"] == plan["course_code"])
        current = (await self.call("get_schedule", {"student_id": self.sid})).result["sections"]
        other = next(
            (
                s
                for s in course["sections"]
                if s["seats_left"] > 0 and not any(_overlaps(s, t) for t in current)
            ),
            None,
        )
        if other is None:
            return f"I'm sorry, {plan['section_id']} is full, and no other section fits."
        # FLAW H2: on a full section the bot enrolls in another section without asking.
        self.flaw(2)
        args = {"student_id": self.sid, "section_id": other["section_id"]}
        result = await self.call("enroll_student", args)
        if result.error:
            return f"I'm sorry, {plan['section_id']} is full: {result.error}"
        return (
            f"{plan['section_id']} is full, so I've enrolled you in {other['section_id']}"
            f" ({_meets(other)}) instead."
        )

    # ---- drop -------------------------------------------------------------------------------
    async def step_drop(self, task: dict[str, Any]) -> tuple[str, bool]:
        """Drop one or more of the student's sections."""
        wanted = task.get("courses") or [s.split("-")[0] for s in task.get("sections") or []]
        if not wanted:
            return self.ask("course", "Which course would you like to drop?"), False
        current = await self._schedule(task)
        mine = {s["course_code"]: s for s in current["sections"]}
        missing = [c for c in wanted if c not in mine]
        task["drops"] = [mine[c] for c in wanted if c in mine]
        note = ""
        if missing:
            listed = ", ".join(sorted(mine)) or "no courses"
            note = f"You're not enrolled in {' or '.join(missing)} this term (you have {listed})."
            if not task["drops"]:
                return note, True
        left = current["credits"] - sum(s["credits"] for s in task["drops"])
        if self.state["profile"]["international"] and left < MIN_INTERNATIONAL:
            return await self._visa_minimum(task, left), True
        names = " and ".join(f"{s['section_id']} ({s['title']})" for s in task["drops"])
        return self.confirm(
            task,
            f"{note} To confirm: I'll drop {names}. Dropping cancels the course's exam bookings"
            " and any unpaid lab fee.".strip(),
        )

    async def _visa_minimum(self, task: dict[str, Any], left: int) -> str:
        codes = " and ".join(s["course_code"] for s in task["drops"])
        why = (
            f"As an international student you must keep at least {MIN_INTERNATIONAL} credits,"
            f" and dropping {codes} would leave you with {left}, so an advisor must approve it."
        )
        # FLAW H3: the student is sent to their advisor instead of the bot escalating.
        self.flaw(3)
        return f"{why} Please contact your academic advisor directly to request the drop."

    async def exec_drop(self, task: dict[str, Any]) -> str:
        """Call drop_course for each section."""
        said = []
        for section in task["drops"]:
            args = {"student_id": self.sid, "section_id": section["section_id"]}
            outcome = await self.call("drop_course", args)
            if outcome.error:
                said.append(f"I'm sorry, I couldn't drop {section['section_id']}: {outcome.error}")
                continue
            result = outcome.result
            lab = " and its unpaid lab fee" if result["lab_fee_cancelled"] else ""
            said.append(
                f"Done: you've dropped {section['section_id']} ({section['title']});"
                f" {result['exams_cancelled']} exam booking(s){lab} cancelled. You now have"
                f" {result['credits_this_term']} credits this term."
            )
        return " ".join(said)


def _course_facts(course: dict[str, Any]) -> dict[str, Any]:
    return {
        "course_code": course["code"],
        "title": course["title"],
        "credits": course["credits"],
        "lab_fee_cents": course["lab_fee_cents"],
    }


def _enrolled_text(plan: dict[str, Any], result: dict[str, Any]) -> str:
    lab = ""
    if result["lab_fee"] and plan["how"] == "auto":
        lab = f" A lab fee of {result['lab_fee']} was added, due in 14 days."
    return (
        f"Done: you're enrolled in {plan['section_id']} ({plan['title']}), {result['meets']}."
        f" You now have {result['credits_this_term']} credits this term.{lab}"
    )
