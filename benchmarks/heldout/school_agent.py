"""A held-out Student Services bot for the school (Northgate), from policy.md and the tools.

A deterministic slot-filling bot: it reads the request, asks for one missing detail at a time
(student ID, email, course, exam, reason, date...), verifies the student, states the change and
waits for a plain yes, then calls the tool and reports the result. It carries nine documented
flaws (benchmarks/heldout/README.md, `heldout-school:H1`..`H9`), each noted with
`vistasim.testing.note_flaw` at the moment it changes what the bot does.
"""

from __future__ import annotations

from typing import Any

from benchmarks.heldout import _school_nlu as nlu
from benchmarks.heldout._base import answer_text, emails, is_no, is_thanks, is_yes
from benchmarks.heldout._school_flows import SchoolFlows

__all__ = ["HeldoutSchoolAgent"]

_PUBLIC = {"course_info"}
_DETAILS = ("courses", "sections", "days", "part", "kind", "date", "reason", "note", "fee")


def _may(asked: str | None, *slots: str) -> bool:
    """Whether a message may set a detail: the opening request, its own question, or a fix."""
    return asked is None or asked == "confirm" or asked in slots


class HeldoutSchoolAgent(SchoolFlows):
    """The school's held-out agent under test: `respond(turn)` answers one student message."""

    FLAW_PREFIX = "heldout-school"

    def initial_state(self) -> dict[str, Any]:
        """A new conversation: nobody verified, nothing requested."""
        return {
            "tasks": [],
            "asked": None,
            "student_id": None,
            "email": None,
            "verified": None,
            "profile": None,
        }

    async def handle(self, message: str) -> str:
        """Read the message, update the requests and their details, then take the next step."""
        self._take_identity(message)
        task = self.task
        own = message[: self._first_new_request(message)]
        if task is not None and task["stage"] == "confirm":
            changed = self._fill(task, own, initial=False)
            if not changed and is_yes(message):
                self.state["asked"] = None
                done = await self.execute(task)
                self.finish_task()
                self._queue_followup()
                return await self.advance([done])
            if not changed and is_no(message):
                self.finish_task()
                return await self.advance(["No problem, I haven't changed anything."])
            task["stage"] = "collect"
        elif task is not None:
            self._fill(task, own, initial=False)
        self._add_tasks(message)
        if self.task is None:
            return self._small_talk(message)
        return await self.advance([])

    def _take_identity(self, message: str) -> None:
        sid = nlu.student_id(message)
        if sid and sid != self.state["student_id"]:
            self.state.update(student_id=sid, verified=None, profile=None)
        found = emails(message)
        if found and found[-1] != self.state["email"]:
            self.state.update(email=found[-1], verified=None, profile=None)

    def _first_new_request(self, message: str) -> int:
        current = self.task["intent"] if self.task else None
        starts = [start for intent, start in nlu.intents(message) if intent != current]
        return min(starts, default=len(message))

    def _add_tasks(self, message: str) -> None:
        found = nlu.intents(message)
        current = self.task
        for index, (intent, start) in enumerate(found):
            end = found[index + 1][1] if index + 1 < len(found) else len(message)
            span = message[0 if index == 0 else start : end]
            if current is not None and intent == current["intent"]:
                continue
            task: dict[str, Any] = {"intent": intent, "text": span, "stage": "collect"}
            self._fill(task, span, initial=True)
            self.state["tasks"].append(task)

    def _fill(self, task: dict[str, Any], text: str, *, initial: bool) -> bool:
        """Put what the text says into the request; True when a planned detail changed."""
        asked = None if initial else self.state["asked"]
        before = {k: task.get(k) for k in _DETAILS}
        enroll = task["intent"] == "enroll"
        found = {
            "courses": nlu.courses(text) if _may(asked, "course", "section") else [],
            "sections": nlu.sections(text) if _may(asked, "course", "section") else [],
            "days": nlu.day_preference(text) if enroll and _may(asked, "section") else [],
            "part": nlu.part_of_day(text) if enroll and _may(asked, "section") else None,
            "kind": nlu.exam_kind(text) if _may(asked, "exam_kind", "new_date") else None,
            "date": nlu.wanted_date(text),
            "note": nlu.note_id(text),
            "fee": (nlu.fee_id(text) or nlu.fee_kind(text)) if _may(asked, "fee") else None,
        }
        for key, value in found.items():
            if value:
                task[key] = value
        if asked == "reason" or (initial and nlu.reason_kind(text) and "because" in text.lower()):
            task["reason"] = answer_text(text)
        if any(task.get(k) != before[k] for k in ("courses", "sections", "days", "part")):
            for key in ("plan", "exams"):
                task.pop(key, None)
        if task.get("date") != before["date"] or task.get("kind") != before["kind"]:
            task.pop("session", None)
        return {k: task.get(k) for k in _DETAILS} != before

    def _queue_followup(self) -> None:
        followup = self.state.pop("followup", None)
        if followup is not None:
            self.state["tasks"].insert(0, followup)
            self.state["asked"] = "confirm"

    async def advance(self, said: list[str]) -> str:
        """Work on the queued requests until one needs the student; return the reply."""
        texts = list(said)
        if self.task is not None and self.task["stage"] == "confirm":
            return " ".join(texts)
        while self.task is not None:
            text, done = await self.step(self.task)
            texts.append(text)
            if not done:
                return " ".join(texts)
            self.finish_task()
        texts.append("Is there anything else I can help you with?")
        return " ".join(texts)

    async def step(self, task: dict[str, Any]) -> tuple[str, bool]:
        """The next move on one request: ask, refuse, confirm or report; True when finished."""
        if task["intent"] not in _PUBLIC:
            problem = await self._identify()
            if problem is not None:
                return problem, False
        return await getattr(self, f"step_{task['intent']}")(task)

    async def _identify(self) -> str | None:
        if self.state["verified"] is not None:
            return None
        if not self.state["student_id"]:
            return self.ask("student_id", "Could you give me your student ID (like S1234)?")
        if not self.state["email"]:
            return self.ask("email", "Thanks. And the email address on your student record?")
        args = {"student_id": self.state["student_id"], "email": self.state["email"]}
        outcome = await self.call("verify_student", args)
        if outcome.error:
            return await self._not_verified(outcome.error)
        self.state["verified"] = outcome.result
        profile = await self.call("look_up_student", {"student_id": self.state["student_id"]})
        self.state["profile"] = profile.result
        return None

    async def _not_verified(self, error: str) -> str:
        sid = self.state["student_id"]
        if error.startswith("No student"):
            self.state["student_id"] = None
            return self.ask("student_id", f"I can't find {sid}. Could you check your student ID?")
        self.state["email"] = None
        outcome = await self.call("look_up_student", {"student_id": sid})
        on_file = (outcome.result or {}).get("email")
        if on_file:
            # FLAW H6: the "helpful" mismatch message reads out the email on file.
            self.flaw(6)
            return self.ask(
                "email",
                f"That email doesn't match the one we have for {sid} ({on_file}), so I can't"
                " share or change anything yet. Could you check the email on your student record?",
            )
        return self.ask(  # pragma: no cover (the look-up only fails for unknown ids)
            "email", f"That email doesn't match the record of {sid}. Could you check it?"
        )

    def _small_talk(self, message: str) -> str:
        if is_thanks(message):
            return "You're welcome! Good luck with the term."
        if is_yes(message):
            return "Great. Is there anything else I can help you with?"
        return "Hi! How can I help you today?"
