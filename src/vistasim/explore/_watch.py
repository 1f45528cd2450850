"""The environment as the episode sees it: every call recorded with what it changed.

Agents report their own tool calls, and a report is not evidence: an agent may leave a call
out, or report one it never made. `WatchedEnvironment` stands between the episode's environment
and everyone who calls it (the agent, the model-agent tool loop, the simulated user's APIs): it
takes the state before and after each call and records the call, its outcome and the records it
changed (`vistasim.env.state_changes`). The episode loop then attaches those changes to the
reported `ToolCall` events and adds the calls the agent did not report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import JsonValue

from vistasim.env import Environment, ToolOutcome, state_changes
from vistasim.events import StateChange, ToolCall
from vistasim.llm import ToolSpec
from vistasim.scenario import Scalar

__all__ = ["SeenCall", "WatchedEnvironment", "attach_changes"]


@dataclass(frozen=True, kw_only=True)
class SeenCall:
    """One call the environment ran, with what it changed."""

    side: Literal["agent", "user"]
    name: str
    args: dict[str, JsonValue]
    outcome: ToolOutcome
    changes: list[StateChange]


class WatchedEnvironment:
    """An environment whose calls are recorded with their state changes.

    Attributes beyond the `Environment` protocol pass through to the wrapped environment.
    """

    def __init__(self, inner: Environment) -> None:
        self.inner = inner
        """The wrapped environment."""
        self._seen: list[SeenCall] = []

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    def agent_tools(self) -> list[ToolSpec]:
        """The agent's tools."""
        return self.inner.agent_tools()

    def user_tools(self) -> list[ToolSpec]:
        """The user-side APIs."""
        return self.inner.user_tools()

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run an agent tool and record it with what it changed."""
        before = self.inner.snapshot()
        outcome = await self.inner.call_tool(name, args)
        return self._record("agent", name, args, outcome, before)

    async def call_user_api(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run a user-side API and record it with what it changed."""
        before = self.inner.snapshot()
        outcome = await self.inner.call_user_api(name, args)
        return self._record("user", name, args, outcome, before)

    def run_tool(
        self, side: Literal["agent", "user"], name: str, args: dict[str, JsonValue]
    ) -> ToolOutcome:
        """Run a tool synchronously (a `SqliteEnvironment`'s `run_tool`), recorded the same way."""
        before = self.inner.snapshot()
        outcome: ToolOutcome = getattr(self.inner, "run_tool")(side, name, args)  # noqa: B009
        return self._record(side, name, args, outcome, before)

    def _record(
        self,
        side: Literal["agent", "user"],
        name: str,
        args: dict[str, JsonValue],
        outcome: ToolOutcome,
        before: bytes,
    ) -> ToolOutcome:
        changes = state_changes(self.inner, before, self.inner.snapshot())
        seen = SeenCall(side=side, name=name, args=dict(args), outcome=outcome, changes=changes)
        self._seen.append(seen)
        return outcome

    def select(self, table: str, where: dict[str, Scalar]) -> list[dict[str, JsonValue]]:
        """Rows of `table` matching `where`."""
        return self.inner.select(table, where)

    def snapshot(self) -> bytes:
        """The whole state."""
        return self.inner.snapshot()

    def restore(self, state: bytes) -> None:
        """Bring the state back to a `snapshot()` (calls recorded before it are dropped)."""
        self.inner.restore(state)
        self._seen = []

    def lexicon(self) -> dict[str, list[str]]:
        """Slot names and how agents ask for them."""
        return self.inner.lexicon()

    def changes_since(self, before: bytes) -> list[StateChange]:
        """What changed since the snapshot `before` (for a web action on a built-in site)."""
        return state_changes(self.inner, before, self.inner.snapshot())

    def take_calls(self, side: Literal["agent", "user"]) -> list[SeenCall]:
        """The calls of one side run since its last take, in order."""
        taken = [s for s in self._seen if s.side == side]
        self._seen = [s for s in self._seen if s.side != side]
        return taken


def attach_changes(reported: list[ToolCall], seen: list[SeenCall]) -> list[ToolCall]:
    """The turn's tool-call events: each reported call with the changes the environment saw.

    A reported call is matched to the first unmatched call of the same name and arguments the
    environment ran (then of the same name); a reported call the environment never ran keeps
    `changes=None` (its tool may run elsewhere). Calls the environment ran that the agent did not
    report are added at the end, as the environment saw them.
    """
    left = list(seen)
    events: list[ToolCall] = []
    for call in reported:
        match = _take(left, call.name, call.args)
        if match is None:
            events.append(call)
        else:
            events.append(call.model_copy(update={"changes": match.changes}))
    for extra in left:
        result, error = extra.outcome.result, extra.outcome.error
        events.append(
            ToolCall(name=extra.name, args=extra.args, result=result, error=error,
                     changes=extra.changes)
        )  # fmt: skip
    return events


def _take(left: list[SeenCall], name: str, args: dict[str, JsonValue]) -> SeenCall | None:
    for exact in (True, False):
        for index, seen in enumerate(left):
            if seen.name == name and (not exact or seen.args == args):
                return left.pop(index)
    return None
