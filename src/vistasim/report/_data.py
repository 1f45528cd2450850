"""The typed data a report shows, built from a stored run and its metrics (never a live run).

`ReportData` is the public model of a run's results as a person reads them: summary cards, the
failure catalogue by cause, scenarios with their trees of rollouts and branches, every episode
with its transcript lines, tool use, spending by role and mode, realism. The HTML report renders
it; other readers (a comparison of two runs, CI output) can build on it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from vistasim.metrics import EpisodeRealism, MetricsReport, UniqueFailure
from vistasim.report._cards import Card, summary_cards
from vistasim.report._spend import Spend, spend_by_mode, spend_by_role
from vistasim.report._transcripts import (
    TRANSCRIPT_BUDGET,
    EpisodeRow,
    embed_screenshots,
    episode_rows,
    short_id,
)
from vistasim.report._trees import ScenarioRow, scenario_rows
from vistasim.store import RunView

__all__ = ["CatalogueEntry", "ReportData", "agent_label", "build_report_data"]


@dataclass(frozen=True, kw_only=True)
class CatalogueEntry:
    """One unique failure of the catalogue, with its evidence by episode (short ids)."""

    failure: UniqueFailure
    is_cause: bool
    evidence: tuple[tuple[str, tuple[int, ...]], ...]
    """(episode short id, the events of that episode that show the failure), by episode."""
    symptoms: tuple[CatalogueEntry, ...] = ()
    """For a cause: the symptoms whose episodes all show it."""


@dataclass(frozen=True, kw_only=True)
class ReportData:
    """Everything a report shows about one stored run."""

    run_id: str
    name: str
    generated_at: str
    config: dict[str, object]
    """The few settings a reader needs to place the run (mode, rollouts, user policy, agent)."""
    metrics: MetricsReport
    cards: tuple[Card, ...]
    outcomes: dict[str, int]
    """Every episode per outcome, linear rollouts and branches together."""
    catalogue: tuple[CatalogueEntry, ...]
    """Named causes (each with the symptoms it explains), then the symptoms no cause explains."""
    scenarios: tuple[ScenarioRow, ...]
    """Scenarios with a failed episode first, then by pass rate, then by id."""
    episodes: dict[str, EpisodeRow]
    """Every episode by short id (the id without the run's prefix)."""
    tools: tuple[str, ...]
    """Tools in the order of the transition matrix."""
    max_transition: int
    by_role: tuple[Spend, ...]
    by_mode: tuple[Spend, ...]
    realism_lowest: tuple[EpisodeRealism, ...]
    """The episodes the realism judge rated lowest, with its reasons (at most 30)."""
    screenshots: dict[str, str] = field(default_factory=dict)
    """Screenshot blob hash -> `data:` URI, for the episodes whose transcripts are embedded."""

    @cached_property
    def failure_names(self) -> dict[str, str]:
        """Unique failure id -> its description."""
        return {u.id: u.description for u in self.metrics.failures.unique}

    @property
    def tags(self) -> tuple[str, ...]:
        """Every scenario tag, sorted (the report's tag filter)."""
        return tuple(sorted({t for s in self.scenarios for t in s.tags}))

    @property
    def modes(self) -> tuple[str, ...]:
        """Every mode an episode ran in, sorted."""
        return tuple(sorted({e.mode for e in self.episodes.values()}))

    @property
    def omitted(self) -> int:
        """Episodes whose transcripts are not embedded (the report's size budget)."""
        return sum(not e.transcript for e in self.episodes.values())


def build_report_data(
    view: RunView,
    metrics: MetricsReport,
    *,
    generated_at: str,
    load_blob: Callable[[str], bytes] | None = None,
    transcript_budget: int = TRANSCRIPT_BUDGET,
) -> ReportData:
    """Collect what the report shows from a run view and its metrics.

    Args:
        view: The stored run (snapshots are not needed).
        metrics: The run's metrics (`metrics_for_run`).
        generated_at: The time stamp the report shows.
        load_blob: Reads a stored blob by hash (`Store.get_blob`), to embed screenshots;
            without it none are embedded.
        transcript_budget: Characters of transcript lines to embed, in triage order (one
            episode per unique failure, failed, errored, invalid, passed).
    """
    episodes = episode_rows(view, metrics, budget=transcript_budget)
    matrix = metrics.coverage.transitions
    outcomes: dict[str, int] = {}
    for row in episodes.values():
        outcomes[row.verdict] = outcomes.get(row.verdict, 0) + 1
    realism = metrics.realism
    lowest = (
        tuple(sorted(realism.episodes, key=lambda e: (sum(e.scores.values()), e.episode_id))[:30])
        if realism.computed
        else ()
    )
    return ReportData(
        run_id=view.run_id,
        name=view.name or "",
        generated_at=generated_at,
        config=_config_summary(view.config),
        metrics=metrics,
        cards=summary_cards(metrics, outcomes),
        outcomes=outcomes,
        catalogue=_catalogue(view, metrics),
        scenarios=scenario_rows(view, episodes),
        episodes=episodes,
        tools=tuple(sorted(metrics.coverage.tool_counts)),
        max_transition=max((n for row in matrix.values() for n in row.values()), default=0),
        by_role=spend_by_role(view, metrics.cost),
        by_mode=spend_by_mode(view),
        realism_lowest=lowest,
        screenshots=embed_screenshots(episodes, load_blob) if load_blob else {},
    )


def _catalogue(view: RunView, metrics: MetricsReport) -> tuple[CatalogueEntry, ...]:
    catalogue = metrics.failures
    causes = set(catalogue.causes)
    explained: dict[str, list[UniqueFailure]] = {}
    for item in catalogue.unique:
        if item.id in catalogue.explained_by:
            explained.setdefault(catalogue.explained_by[item.id], []).append(item)

    def entry(item: UniqueFailure, symptoms: tuple[CatalogueEntry, ...] = ()) -> CatalogueEntry:
        evidence = tuple(
            (short_id(view.run_id, e), tuple(item.evidence.get(e, ()))) for e in item.episodes
        )
        return CatalogueEntry(
            failure=item, is_cause=item.id in causes, evidence=evidence, symptoms=symptoms
        )

    named = [
        entry(u, tuple(entry(s) for s in explained.get(u.id, ())))
        for u in catalogue.unique
        if u.id in causes
    ]
    loose = [
        entry(u)
        for u in catalogue.unique
        if u.id not in causes and u.id not in catalogue.explained_by
    ]
    return (*named, *loose)


def _config_summary(config: Mapping[str, object]) -> dict[str, object]:
    run = config.get("run") or {}
    user = config.get("user") or {}
    assert isinstance(run, dict) and isinstance(user, dict)
    return {
        "mode": run.get("mode"),
        "rollouts": run.get("rollouts"),
        "user policy": user.get("policy"),
        "agent": agent_label(config) or "-",
    }


def agent_label(config: Mapping[str, object]) -> str:
    """The agent under test in a few words: its target, URL, model or web page."""
    agent = config.get("agent") or {}
    web = config.get("web") or {}
    assert isinstance(agent, dict) and isinstance(web, dict)
    for key in ("target", "url", "model", "base_url"):
        if agent.get(key):
            return str(agent[key])
    return str(web.get("start_url") or "")
