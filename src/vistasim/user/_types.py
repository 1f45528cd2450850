"""The simulated user's actions, what it sees, and the policy protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import JsonValue

from vistasim.agent._types import Utterance
from vistasim.browser._types import PageView, WebStep
from vistasim.env._types import ToolOutcome
from vistasim.llm._types import ToolSpec
from vistasim.scenario import Scenario


@dataclass(frozen=True, kw_only=True)
class Say:
    """Send a chat message to the agent."""

    text: str
    kind: Literal["say"] = "say"


@dataclass(frozen=True, kw_only=True)
class CallApi:
    """Call a user-side API."""

    name: str
    args: dict[str, JsonValue] = field(default_factory=dict)
    kind: Literal["call_api"] = "call_api"


@dataclass(frozen=True, kw_only=True)
class Finish:
    """End the episode: goal met, or the user stops (gives up, leaves, accepts a refusal)."""

    reason: Literal["goal_met", "user_stop", "refused"]
    """`refused`: the agent declined with a reason and the user accepts it (stops `goal_met`
    with a detail saying so)."""
    text: str = ""
    """The user's last words, kept in the stop event (not sent to the agent)."""
    kind: Literal["finish"] = "finish"


Action = Say | CallApi | Finish | WebStep
"""One step of the simulated user: a chat message, an API call, a web action, or stop."""


@dataclass(frozen=True, kw_only=True)
class UserView:
    """What the simulated user observes before acting."""

    scenario: Scenario
    transcript: tuple[Utterance, ...]
    """The chat so far, oldest first."""
    turn: int
    """Number of user actions taken so far."""
    max_turns: int
    api_tools: tuple[ToolSpec, ...] = ()
    """User-side APIs the mode allows (empty in `chat` mode)."""
    last_api_result: ToolOutcome | None = None
    """Result of the user's previous action, if it was an API call."""
    lexicon: dict[str, list[str]] = field(default_factory=dict)
    """Slot names and the phrases an agent uses to ask for them."""
    agent_tools: tuple[ToolSpec, ...] = ()
    """The agent's tools (their argument names say what the agent will ask the user for)."""
    error: str | None = None
    """Why the previous proposed action was rejected (set on a repair re-prompt)."""
    page: PageView | None = None
    """The current web page (`ui` and `hybrid` modes); `None` when there is no browser."""
    last_web_error: str | None = None
    """Why the previous web action failed (unknown element, blocked origin...), if it did."""
    now: datetime | None = None
    """The environment's clock (its optional `now()`: `environment_now(env)`), for reading
    relative dates ("next Thursday"); `None` when it has none."""


@runtime_checkable
class UserPolicy(Protocol):
    """Plays a scenario: picks exactly one action per step. State in, state out.

    A policy may also offer `unplayable(scenario) -> str | None`: why it cannot play a scenario
    (it needs an LLM user, say). The runner then records the episode as not applicable and never
    plays it.
    """

    name: str

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """The state before the first action (plain JSON: it goes into snapshots)."""
        ...

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """Return the next action and the new state. Raise `SimulatorError` if none is valid."""
        ...
