"""The live parts of one episode: its plan, user policy, agent, environment and page.

An `Episode` is what the loop (`_episode`), the actions (`_actions`) and the restore path
(`_resume`) share while the episode plays; the store holds its durable copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from vistasim.events import Event
from vistasim.explore._guard import GuardedAgent
from vistasim.explore._watch import WatchedEnvironment
from vistasim.explore._web import WebChannel
from vistasim.llm import ChatModel, ToolSpec
from vistasim.scenario import Scenario
from vistasim.store import EpisodePlan, Store
from vistasim.user import Action, UserPolicy

__all__ = ["Episode"]


@dataclass(kw_only=True)
class Episode:
    """The live parts of one episode."""

    run_id: str
    plan: EpisodePlan
    scenario: Scenario
    store: Store
    policy: UserPolicy
    agent: GuardedAgent
    env: WatchedEnvironment | None
    """The episode's environment, recording every call with what it changed."""
    max_turns: int
    max_reply_bytes: int = 1_000_000
    """Replies and tool results over this are stored cut (`run.max_reply_bytes`)."""
    api_tools: tuple[ToolSpec, ...] = ()
    seed: int = 0
    web: WebChannel | None = None
    """The episode's page in `ui` and `hybrid` modes."""
    pending_blobs: list[bytes] = field(default_factory=list)
    """Blobs (screenshots) to store with the next snapshot."""
    agent_session: str | None = None
    """The conversation id the agent sees; default the episode id. A `replay` agent brought back
    into a fresh session of its own continues in that session."""
    agent_policy: str = ""
    """The written policy an LLM agent would be sent (the built-in domain's), for the token proxy
    of agents that report no requests of their own."""
    first_action: tuple[Action, JsonValue] | None = None
    """A DIVERT branch's injected action and the user state after it, played as its first turn."""
    perturb: float = 0.0
    """`user.perturb`: the chance each sub-goal gets a behaviour operation (agenda user)."""
    judge: ChatModel | None = None
    """The run's `judge` role model: grades an environment's natural-language assertions."""
    restores: int = 0
    """Restores made since the episode was opened (`_resume.restore`)."""
    held: list[tuple[int, Event]] = field(default_factory=list)
    """Events the last restore has to record, held until the episode that owns them is known
    (a branch being grown: `_resume.record_held`)."""

    @property
    def session_id(self) -> str:
        """The id the agent's turns carry."""
        return self.agent_session or self.plan.episode_id
