"""The rule-based agent's working state for one turn: tool calls, questions and answers.

Flows mutate a `Step` during one turn only; the agent copies its state in and out around it,
so the agent itself stays state-in, state-out between turns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import JsonValue

from vistasim.env import SqliteEnvironment
from vistasim.events import ToolCall

PROCEED = "Shall I proceed (yes/no)?"
NEEDS_IDENTITY = (
    "enroll",
    "drop",
    "reschedule_exam",
    "waive_fee",
    "fee_status",
    "exam_schedule",
    "schedule",
)
ANYTHING_ELSE = "Is there anything else I can help with?"


@dataclass(kw_only=True)
class Step:
    """The work of one turn: the state being updated, tool calls made, and sentences to say."""

    env: SqliteEnvironment
    state: dict[str, Any]
    calls: list[ToolCall] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def task(self) -> dict[str, Any]:
        """The task in progress (callers check there is one)."""
        task: dict[str, Any] = self.state["task"]
        return task

    def call(self, name: str, **args: JsonValue) -> tuple[Any, str | None]:
        """Run an agent tool, record it, and return `(result, error)`."""
        outcome = self.env.run_tool("agent", name, args)
        self.calls.append(
            ToolCall(
                name=name,
                args=args,
                result=outcome.result,
                error=outcome.error,
                call_id=f"call_{len(self.calls) + 1}",
            )
        )
        return outcome.result, outcome.error

    def say(self, *sentences: str) -> None:
        """Add sentences to the reply."""
        self.parts.extend(s for s in sentences if s)

    def ask(self, slot: str, question: str) -> None:
        """Ask for one missing detail and wait for it."""
        self.task["awaiting"] = slot
        self.say(question)

    def finish(self, *sentences: str) -> None:
        """End the task with a final message."""
        self.say(*sentences, ANYTHING_ELSE)
        self.state["task"] = None

    def offer_escalation(self, topic: str, summary: str, text: str) -> None:
        """End the task and offer to hand the case to an advisor."""
        self.say(text, "Would you like me to pass this to an advisor (yes/no)?")
        self.state["task"] = None
        self.state["offer"] = {"topic": topic, "summary": summary[:1500]}
