"""The typed data a report shows, built from a stored run and its metrics (never a live run)."""

from __future__ import annotations

from dataclasses import dataclass

from vistasim.events import ApiCall, Event, UserMessage, WebAction, describe_event
from vistasim.metrics import MetricsReport
from vistasim.store import EpisodeView, RunView


@dataclass(frozen=True, kw_only=True)
class Line:
    """One line of a transcript."""

    who: str
    """`user`, `agent`, `tool`, `api`, `web`, `verdict`, `note` or `stop`."""
    text: str
    turn: int
    ok: bool = True
    """False for failed tool calls and failed checks, shown in red."""


@dataclass(frozen=True, kw_only=True)
class EpisodeRow:
    """An episode in the report."""

    id: str
    scenario_id: str
    rollout: int
    status: str
    stop: str
    verdict: str
    """The episode's outcome: `passed`, `failed`, `errored`, `invalid`, `not_applicable`..."""
    reason: str = ""
    """Why it has that outcome."""
    turns: int
    lines: tuple[Line, ...]


@dataclass(frozen=True, kw_only=True)
class ReportData:
    """Everything the template shows."""

    run_id: str
    name: str
    generated_at: str
    config: dict[str, object]
    metrics: MetricsReport
    episodes: tuple[EpisodeRow, ...]
    tools: tuple[str, ...]
    """Tools in the order of the transition matrix."""
    max_transition: int


def build_report_data(view: RunView, metrics: MetricsReport, *, generated_at: str) -> ReportData:
    """Collect what the report shows from a run view and its metrics."""
    tools = tuple(sorted(metrics.coverage.tool_counts))
    matrix = metrics.coverage.transitions
    return ReportData(
        run_id=view.run_id,
        name=view.name or "",
        generated_at=generated_at,
        config=_config_summary(view.config),
        metrics=metrics,
        episodes=tuple(_episode_row(view, e, metrics) for e in view.episodes),
        tools=tools,
        max_transition=max((n for row in matrix.values() for n in row.values()), default=0),
    )


def _config_summary(config: dict[str, object]) -> dict[str, object]:
    run = config.get("run") or {}
    user = config.get("user") or {}
    agent = config.get("agent") or {}
    assert isinstance(run, dict) and isinstance(user, dict) and isinstance(agent, dict)
    return {
        "mode": run.get("mode"),
        "rollouts": run.get("rollouts"),
        "user policy": user.get("policy"),
        "agent": agent.get("target") or agent.get("url") or agent.get("base_url"),
    }


def _episode_row(view: RunView, episode: EpisodeView, metrics: MetricsReport) -> EpisodeRow:
    label = metrics.success.episodes.get(episode.episode_id, "unjudged")
    reason = metrics.success.reasons.get(episode.episode_id, "")
    lines = tuple(line for stored in episode.events for line in _lines(stored.event, stored.turn))
    return EpisodeRow(
        id=episode.episode_id.removeprefix(f"{view.run_id}:"),
        scenario_id=episode.scenario_id,
        rollout=episode.rollout,
        status=episode.status,
        stop=str(episode.stop_reason or "-"),
        verdict=label,
        reason=reason,
        turns=sum(isinstance(e.event, (UserMessage, ApiCall, WebAction)) for e in episode.events),
        lines=lines,
    )


def _lines(event: Event, turn: int) -> list[Line]:
    return [
        Line(who=line.who, text=line.text, turn=turn, ok=line.ok) for line in describe_event(event)
    ]
