"""A rule-based student-services agent: a plausible slot-filling chatbot that works offline.

It verifies the student, asks for one missing detail at a time, confirms before any change and
calls the school's tools. Like real bots of its kind it has blind spots, documented in the
domain's README (flaws F1-F4); each is deterministic and appears only under a less common user
behaviour, so exploration can be checked against known ground truth.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import JsonValue

from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.domains.school import _rule_flows as flows
from vistasim.domains.school._parse import Facts, read
from vistasim.domains.school._rule_step import Step
from vistasim.env import SqliteEnvironment

STRONG_INTENTS = ("enroll", "drop", "reschedule_exam", "waive_fee", "escalate")
"""Intents that start a new task even in the middle of another one."""
SLOT_KEYS = ("day", "exam_kind", "reason", "note_id", "fee_id", "fee_kind")
HELP = (
    "I can help with enrolling in or dropping courses, exam dates and rescheduling, and "
    "fees. What would you like to do?"
)


class RuleSchoolAgent:
    """The school's offline support agent; one instance per conversation."""

    restore_strategy: RestoreStrategy = "state"

    def __init__(self, *, env: SqliteEnvironment) -> None:
        self.env = env
        self._state: dict[str, Any] = {
            "student_id": None,
            "email": None,
            "verified": False,
            "name": None,
            "task": None,
            "offer": None,
            "messages": [],
        }

    async def respond(self, turn: Turn) -> Reply:
        """Answer one student message, calling tools as needed."""
        # Ground truth for benchmarks: each flaw says when it fires (nothing stored reads this).
        from vistasim.testing import answering

        step = Step(env=self.env, state=copy.deepcopy(self._state))
        with answering(turn):
            handle(step, turn.message)
        self._state = step.state
        return Reply(text=" ".join(step.parts), tool_calls=tuple(step.calls))

    def snapshot(self) -> JsonValue:
        """The conversation state, as plain JSON."""
        return copy.deepcopy(self._state)

    def restore(self, state: JsonValue) -> None:
        """Resume from a `snapshot()`."""
        if not isinstance(state, dict):
            raise TypeError(f"expected the dict from snapshot(), got {type(state).__name__}")
        self._state = copy.deepcopy(state)

    async def aclose(self) -> None:
        """Nothing to release: the environment belongs to the caller."""


def handle(step: Step, message: str) -> None:
    """Process one message: identity, pending questions, then the task in progress."""
    facts = read(message)
    state = step.state
    state["messages"] = (state["messages"] + [message[:500]])[-6:]
    _note_identity(state, facts)
    if state["offer"] is not None and (facts.yes or facts.no):
        flows.answer_offer(step, facts)
        return
    state["offer"] = None
    task = state["task"]
    if task and task["awaiting"] == "confirm" and (facts.yes or facts.no):
        flows.answer_confirmation(step, facts)
        return
    if task and task["awaiting"] == "reason_medical" and (facts.yes or facts.no):
        flows.answer_medical(step, facts)
        return
    if facts.intent in STRONG_INTENTS and (not task or task["intent"] != facts.intent):
        task = None
    if task is None:
        if facts.intent is None:
            step.say(HELP if not facts.courses else flows.course_hint(facts))
            return
        state["task"] = task = new_task(facts)
    else:
        fill_slots(task, facts)
    flows.advance(step)


def new_task(facts: Facts) -> dict[str, Any]:
    """Start a task from the message that asked for it."""
    task: dict[str, Any] = {
        "intent": facts.intent,
        "awaiting": None,
        "course": None,
        "section": None,
        "exam": None,
        "slots": {},
    }
    fill_slots(task, facts)
    # Remember whether the date came with the request itself (see flaw F3).
    task["day_upfront"] = facts.day is not None
    return task


def fill_slots(task: dict[str, Any], facts: Facts) -> None:
    """Fill empty slots from a message.

    Flaw F1: a slot, once filled, is never overwritten, so a later correction ("sorry, I meant
    MATH210") is silently ignored. Flaw F2: only the first course of a message is kept.
    """
    _note_slot_flaws(task, facts)
    if task["course"] is None and facts.courses:
        task["course"] = facts.courses[0]
    if task["section"] is None and facts.sections:
        task["section"] = facts.sections[0]
    for key in SLOT_KEYS:
        value = getattr(facts, key)
        if value is not None and task["slots"].get(key) is None:
            task["slots"][key] = value


_CORRECTION = re.compile(r"\b(sorry|i mean|i meant|no wait|actually|make that|correction)\b", re.I)


def _note_slot_flaws(task: dict[str, Any], facts: Facts) -> None:
    """Record which flaw the slot filling below is about to commit (ground truth only)."""
    from vistasim.testing import note_flaw_now

    corrected = _CORRECTION.search(facts.text) is not None
    for held, said in ((task["course"], facts.courses), (task["section"], facts.sections)):
        if held is not None and corrected and any(value != held for value in said):
            note_flaw_now("school:F1")  # a later correction is ignored
        elif held is None and len(set(said)) > 1:
            note_flaw_now("school:F1" if corrected else "school:F2")


def _note_identity(state: dict[str, Any], facts: Facts) -> None:
    if state["verified"]:
        return
    if facts.student_id:
        state["student_id"] = facts.student_id
    if facts.email:
        state["email"] = facts.email
