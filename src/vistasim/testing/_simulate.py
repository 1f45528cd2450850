"""Simulate users against an agent from a test: what the pytest plugin's `vistasim` fixture is.

`Simulator.simulate(scenario, agent=...)` builds a run config from Python objects, plays it into
the session's store and returns a `Simulation`: each episode's outcome, criteria checks and
transcript, the run's unique failures and metrics, and `explain()` for assertion messages. The
engine is the same as `vistasim run`: a Python agent or environment given as an object is named
by its import path when it has one, else registered under a generated one (`_targets.py`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import JsonValue

from vistasim.config import RunConfig, load_config, merge
from vistasim.events import Judgment, describe_event
from vistasim.llm import ChatModel
from vistasim.metrics import MetricsReport, UniqueFailure, metrics_for_run
from vistasim.scenario import Scenario, load_scenarios
from vistasim.store import EpisodeView, open_store, read_run_view
from vistasim.testing._targets import target_of
from vistasim.user import Action, Say, script_json

__all__ = ["Check", "EpisodeResult", "Simulation", "Simulator"]

ScenarioLike = Scenario | Mapping[str, Any]
UserLike = str | Sequence[Action | str] | Mapping[str, Sequence[Action | str]]


@dataclass(frozen=True, kw_only=True)
class Check:
    """One criteria check of an episode."""

    check: str
    """What was checked, e.g. `required action return_item(order_id=W1010, sku=PAN-9)`."""
    passed: bool
    detail: str = ""
    """Why not, when it failed."""


@dataclass(frozen=True, kw_only=True)
class EpisodeResult:
    """One episode: its outcome, why, its criteria checks and failures, its transcript."""

    episode_id: str
    scenario_id: str
    outcome: str
    """`passed`, `failed`, `errored`, `invalid`, `not_applicable` or `unjudged`."""
    reason: str
    stop_reason: str | None
    criteria: list[Check]
    failures: list[UniqueFailure]
    """The run's unique failures this episode shows."""
    transcript: list[str]
    """`user: ...`, `agent: ...`, `tool: ...` lines, oldest first."""


@dataclass(frozen=True, kw_only=True)
class Simulation:
    """What a simulated run gave: per-episode results, unique failures, every metric."""

    run_id: str
    store_path: Path
    episodes: list[EpisodeResult]
    metrics: MetricsReport
    failures: list[UniqueFailure] = field(default_factory=list)
    """The run's unique failures (named causes first)."""

    @property
    def outcomes(self) -> list[str]:
        """Each episode's outcome, in run order."""
        return [e.outcome for e in self.episodes]

    @property
    def passed(self) -> bool:
        """Whether every episode passed."""
        return bool(self.episodes) and all(e.outcome == "passed" for e in self.episodes)

    def explain(self, *, last_lines: int = 12) -> str:
        """Why the episodes that did not pass did not: for an assertion's message."""
        parts = [f"run {self.run_id} in {self.store_path}: {', '.join(self.outcomes) or 'none'}"]
        for episode in self.episodes:
            if episode.outcome == "passed":
                continue
            parts.append(f"episode {episode.episode_id}: {episode.outcome} ({episode.reason})")
            parts.extend(f"  failure {u.id}: {u.description}" for u in episode.failures)
            parts.extend(f"  check FAILED: {c.check}: {c.detail}" for c in episode.criteria
                         if not c.passed)  # fmt: skip
            parts.extend(f"  | {line}" for line in episode.transcript[-last_lines:])
        return "\n".join(parts)


class Simulator:
    """Plays scenarios into one store and keeps the runs it made (the plugin's report lists them).

    Args:
        store_path: The SQLite store every run goes to.
        work_dir: Where generated scenario and script files are written.
        name: A label for the runs (the test's id).
    """

    def __init__(self, store_path: Path, work_dir: Path, *, name: str = "") -> None:
        self.store_path = store_path
        self.work_dir = work_dir
        self.name = name
        self.runs: list[str] = []
        """Ids of the runs made, in order."""
        self._files = itertools.count(1)

    async def simulate(
        self,
        scenarios: ScenarioLike | Sequence[ScenarioLike] | str | Path,
        *,
        agent: object,
        environment: object = None,
        user: UserLike = "agenda",
        user_model: ChatModel | None = None,
        models: Mapping[str, ChatModel] | None = None,
        mode: str = "chat",
        rollouts: int = 1,
        config: Mapping[str, Any] | None = None,
    ) -> Simulation:
        """Simulate users of `scenarios` against `agent` and return what happened.

        Args:
            scenarios: A `Scenario`, its fields as a mapping, a list of either, or a file.
            agent: A Python agent (a function of a `Turn`, or a class instantiated per episode),
                a `module:attr` target, or an `[agent]` section as a mapping
                (`{"kind": "openai_chat", "base_url": ..., "model": ...}`).
            environment: A factory of the environment, a `module:factory` target or a built-in
                domain (`"shop"`); `None` for an agent without one.
            user: `"agenda"` (offline), `"llm"` (with `user_model`), or a script: a list of
                turns (texts or actions) for every scenario, or lists by scenario id.
            user_model: The LLM user's model (e.g. `vistasim.testing.ScriptedLLM`).
            models: Models by role besides the user's.
            mode: `chat`, `api`, `ui` or `hybrid`.
            rollouts: Episodes per scenario.
            config: More run config, as the TOML file's sections (`{"web": {...}}`).
        """
        loaded = _scenarios(scenarios)
        layer: dict[str, Any] = {
            "run": {"mode": mode, "rollouts": rollouts, "name": self.name or None},
            "agent": _agent_section(agent),
            "environment": None if environment is None else {"target": target_of(environment)},
            "user": self._user_section(user, loaded),
            "cache": {"mode": "off"},
        }
        run_config = RunConfig.model_validate(merge(layer, config or {}))
        all_models = {**(models or {}), **({"user": user_model} if user_model else {})}
        return await self._play(run_config, loaded, all_models)

    async def run_config(self, path: str | Path, **overrides: Any) -> Simulation:
        """Run a `vistasim.toml` (its own scenarios and settings) into the session's store.

        `overrides` are config sections laid over the file (`run={"rollouts": 2}`).
        """
        return await self._play(load_config(path, overrides=overrides), None, {})

    async def _play(
        self, config: RunConfig, scenarios: list[Scenario] | None, models: Mapping[str, ChatModel]
    ) -> Simulation:
        from vistasim.explore import run

        result = await run(config, scenarios=scenarios, store=self.store_path, models=models)
        self.runs.append(result.run_id)
        return await simulation_of(self.store_path, result.run_id)

    def _user_section(self, user: UserLike, scenarios: list[Scenario]) -> dict[str, Any]:
        if isinstance(user, str):
            return {"policy": user}
        scripts: dict[str, list[JsonValue]]
        if isinstance(user, Mapping):
            scripts = {k: _script(v) for k, v in user.items()}
        else:
            scripts = {s.id: _script(user) for s in scenarios}
        path = self.work_dir / f"script-{next(self._files)}.yaml"
        path.write_text(yaml.safe_dump(scripts, sort_keys=False), encoding="utf-8")
        return {"policy": "scripted", "script": str(path)}


async def simulation_of(store_path: Path, run_id: str) -> Simulation:
    """A stored run as a `Simulation` (its metrics computed and stored if needed)."""
    with open_store(store_path) as store:
        metrics = await metrics_for_run(store, run_id)
        view = read_run_view(store, run_id)
    return Simulation(
        run_id=run_id,
        store_path=store_path,
        episodes=[_episode(e, metrics) for e in view.episodes],
        metrics=metrics,
        failures=list(metrics.failures.unique),
    )


def _episode(episode: EpisodeView, metrics: MetricsReport) -> EpisodeResult:
    judgments = [s.event for s in episode.events if isinstance(s.event, Judgment)]
    checks = next((j.checks for j in reversed(judgments) if j.judge == "criteria"), [])
    outcome = metrics.success.episodes.get(episode.episode_id, "unjudged")
    return EpisodeResult(
        episode_id=episode.episode_id,
        scenario_id=episode.scenario_id,
        outcome=outcome,
        reason=metrics.success.reasons.get(episode.episode_id, outcome),
        stop_reason=episode.stop_reason.value if episode.stop_reason else None,
        criteria=[
            Check(
                check=str(c.get("check")),
                passed=bool(c.get("passed")),
                detail=str(c.get("detail") or ""),
            )  # fmt: skip
            for c in checks
        ],
        failures=[u for u in metrics.failures.unique if episode.episode_id in u.episodes],
        transcript=[
            f"{line.who}: {line.text}"
            for stored in episode.events
            for line in describe_event(stored.event)
            if line.who != "verdict"
        ],
    )


def _scenarios(given: ScenarioLike | Sequence[ScenarioLike] | str | Path) -> list[Scenario]:
    if isinstance(given, str | Path):
        return load_scenarios(given)
    items = [given] if isinstance(given, Scenario | Mapping) else list(given)
    return [s if isinstance(s, Scenario) else Scenario.model_validate(s) for s in items]


def _agent_section(agent: object) -> dict[str, Any]:
    if isinstance(agent, Mapping):
        return dict(agent)
    return {"kind": "python", "target": target_of(agent)}


def _script(turns: Sequence[Action | str]) -> list[JsonValue]:
    return script_json(Say(text=t) if isinstance(t, str) else t for t in turns)
