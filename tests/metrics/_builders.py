"""Hand-built RunViews for the metrics tests (no store needed)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    Judgment,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
)
from vistasim.llm import ModelCall, TokenUsage
from vistasim.scenario import Persona, Scenario
from vistasim.store._view import EpisodeView, RunView, StoredEvent

_ids = itertools.count(1)


def tool(name: str, error: str | None = None, **args: object) -> ToolCall:
    return ToolCall(name=name, args=args, error=error)  # type: ignore[arg-type]


def user(text: str) -> UserMessage:
    return UserMessage(text=text)


def agent(text: str) -> AgentReply:
    return AgentReply(text=text)


def api(name: str, error: str | None = None, **args: object) -> ApiCall:
    return ApiCall(name=name, args=args, error=error)  # type: ignore[arg-type]


def criteria(passed: bool, *failed_checks: str) -> Judgment:
    checks = [{"check": c, "passed": False, "detail": "not found"} for c in failed_checks]
    checks.append({"check": "agent replied", "passed": True, "detail": None})
    return Judgment(judge="criteria", passed=passed, checks=checks)


def stop(reason: StopReason = StopReason.GOAL_MET, detail: str = "") -> Stop:
    return Stop(reason=reason, detail=detail)


def stored(events: Sequence[Event], *, episode_id: str) -> tuple[StoredEvent, ...]:
    out: list[StoredEvent] = []
    for turn, event in enumerate(events):
        out.append(
            StoredEvent(
                id=next(_ids),
                parent_id=out[-1].id if out else None,
                episode_id=episode_id,
                turn=turn,
                created_at=1_000.0 + turn,
                event=event,
            )
        )
    return tuple(out)


def episode(
    episode_id: str,
    scenario_id: str,
    events: Sequence[Event],
    *,
    status: str = "done",
    mode: str = "chat",
    rollout: int = 0,
    branch_of: str | None = None,
    prefix: Sequence[StoredEvent] = (),
    model_calls: Sequence[ModelCall] = (),
    started_at: float | None = None,
    ended_at: float | None = None,
) -> EpisodeView:
    return EpisodeView(
        episode_id=episode_id,
        run_id="run-1",
        scenario_id=scenario_id,
        rollout=rollout,
        branch_of=branch_of,
        mode=mode,
        status=status,  # type: ignore[arg-type]
        events=(*prefix, *stored(events, episode_id=episode_id)),
        model_calls=tuple(model_calls),
        started_at=started_at,
        ended_at=ended_at,
    )


def tools_episode(episode_id: str, scenario_id: str, names: Sequence[str], **kw: object):
    """An episode whose agent calls `names` in order, then passes."""
    events: list[Event] = [user("hi")]
    events += [tool(name) for name in names]
    events += [agent("done"), criteria(True), stop()]
    return episode(episode_id, scenario_id, events, **kw)  # type: ignore[arg-type]


def model_call(
    role: str,
    inp: int,
    out: int,
    usd: float,
    *,
    cached: int = 0,
    latency_s: float = 0.1,
    cache_hit: bool = False,
) -> ModelCall:
    usage = TokenUsage(input_tokens=inp, output_tokens=out, cached_tokens=cached)
    return ModelCall(
        role=role, model="m", usage=usage, latency_s=latency_s, cost_usd=usd, cache_hit=cache_hit
    )


def make_run(
    episodes: Sequence[EpisodeView], *, agent_tools: Sequence[str] | None = None
) -> RunView:
    scenarios = {
        e.scenario_id: Scenario(
            id=e.scenario_id, persona=Persona(name="Dana"), goal=f"goal of {e.scenario_id}"
        )
        for e in episodes
    }
    return RunView(
        run_id="run-1",
        name=None,
        status="done",
        created_at=1_000.0,
        config={},
        scenarios=scenarios,
        episodes=tuple(episodes),
        agent_tools=tuple(agent_tools) if agent_tools is not None else None,
    )
