"""Run a scenario set: plan episodes, play them concurrently, branch them, resume a stopped run."""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from vistasim._secrets import known_secrets
from vistasim.config import RunConfig
from vistasim.errors import ConfigError
from vistasim.explore._gc import fewer_collections
from vistasim.explore._guard import describe_failure, leaf_errors
from vistasim.explore._imports import load_ahead, load_rest_after_first_request
from vistasim.explore._preflight import preflight as check_config
from vistasim.explore._prepare import browser_pool, load_for_resume, prepare, record, web_metadata
from vistasim.explore._runner import Runner, finish_ended_branches, play_one
from vistasim.explore._settings import settings_of
from vistasim.explore._setup import build_parts, default_store_path
from vistasim.explore._watchdog import LoopWatchdog
from vistasim.llm import ChatModel
from vistasim.scenario import Scenario
from vistasim.store import EpisodePlan, Store, open_store

if TYPE_CHECKING:
    from vistasim.explore._explorer import Explorer

__all__ = ["RunResult", "run", "run_sync"]

logger = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int, EpisodePlan, str], None]
"""Called after each episode with (done, total, episode, stop reason)."""
NoticeCallback = Callable[[str], None]
"""Called with a line the person running the run should see (how many pages open at once)."""


@dataclass(frozen=True, kw_only=True)
class RunResult:
    """What a finished (or resumed) run did."""

    run_id: str
    store_path: str
    episodes: int
    """Episodes in the run, including those finished before a resume."""
    stop_reasons: dict[str, int]
    """Count of episodes by stop reason (this invocation's and earlier ones')."""
    passed: int
    failed: int
    """Agent failures (outcome `failed`)."""
    errored: int
    """Episodes ended by an infra error: neither passed nor failed."""
    wall_s: float
    outcomes: dict[str, int] = field(default_factory=dict)
    """Episodes per outcome: passed, failed, errored, invalid, not_applicable, unjudged."""
    branches: dict[str, int] = field(default_factory=dict)
    """DIVERT branches per status (empty for a run without branching)."""
    warnings: tuple[str, ...] = ()
    """What the checks before the run found worth knowing, though no mistake (a server that
    ignores `tools`), and why a scenario got fewer branches than `explore.branches` asked."""
    success_rate: float | None = None
    """Passed / (passed + failed) over linear rollouts; `None` when none was judged."""
    failing_scenarios: tuple[str, ...] = ()
    """Scenarios with at least one failed episode (branches included), sorted."""

    @property
    def judged(self) -> int:
        """Episodes that say something about the agent: passed or failed."""
        return self.passed + self.failed


async def run(
    config: RunConfig | None = None,
    *,
    scenarios: Sequence[Scenario] | None = None,
    store: Store | str | Path | None = None,
    resume: str | None = None,
    models: Mapping[str, ChatModel] | None = None,
    on_episode: ProgressCallback | None = None,
    preflight: bool = True,
    on_warning: Callable[[str], None] | None = None,
    on_notice: NoticeCallback | None = None,
) -> RunResult:
    """Run (or, with `resume=RUN_ID`, finish) a run and return its summary.

    Args:
        config: The run config; with `resume`, the stored config is used instead.
        scenarios: Scenarios to run; default: the config's `run.scenarios` file.
        store: A `Store`, or a path; default: the config's `run.store`, else `$VISTASIM_HOME`.
        resume: Id of an interrupted run to finish.
        models: Models by role that replace the config's (tests, custom providers).
        on_episode: Progress callback.
        preflight: Check endpoints, keys, targets and extras before the first episode.
        on_warning: Called with each warning of the checks, before the first episode (default:
            logged); the result holds them too.
        on_notice: Told, before the first episode, how many web episodes play at once.

    Raises:
        PreflightError: the checks before the run found mistakes (nothing was recorded).
        ConfigError: the config or scenarios are wrong.
    """
    started = anyio.current_time()
    own_store = not isinstance(store, Store)
    db = store if isinstance(store, Store) else open_store(default_store_path(config, store))
    session = ExitStack()
    try:
        session.enter_context(fewer_collections())
        if resume is not None:
            run_id, config, plans = load_for_resume(db, resume)
        elif config is None:
            raise ConfigError("run() needs a config (or resume=RUN_ID)")
        db.add_secrets(known_secrets(config, os.environ))
        load_ahead(config)  # no episode waits on an import while the others play
        _check_user_and_explore(config, models)
        on_ray = config.run.executor == "ray"
        if on_ray:  # Ray's side is imported by Ray runs only: a local run starts sooner
            from vistasim.explore._ray import check_executor, executor_session

            check_executor(config, models)
        # Everything that can be checked is checked before the run is recorded: the config's
        # endpoints, keys and targets first, then the scenarios against the environment.
        warnings: list[str] = []
        if preflight:
            warnings = await check_config(config, given_roles=set(models or {}))
        for warning in warnings:
            (on_warning or logger.warning)(warning)
        if resume is None:  # before Ray is joined: a mistake here costs no cluster start-up
            scenarios, metadata = prepare(config, scenarios)
        if on_ray:
            session.enter_context(executor_session(config))  # joined before the run is recorded
        needed = resume is None or any(p.status in ("pending", "running") for p in plans)
        needed = needed or bool(config.explore.branches)
        settings = settings_of(config)  # the config's decisions, made once for the run
        async with browser_pool(config, needed) as pool:
            parts = build_parts(
                config, store_path=Path(db.path), models=models, domain=settings.domain
            )
            try:
                if resume is None:
                    web = await web_metadata(config, pool)
                    assert scenarios is not None  # prepare loaded them
                    run_id, plans = record(db, config, scenarios, {**metadata, **web})
                if on_notice is not None and needed and settings.concurrency_note:
                    on_notice(settings.concurrency_note)  # checks passed: the episodes start
                runner = Runner(
                    db=db, run_id=run_id, config=config, settings=settings, parts=parts,
                    pool=pool, roots=db.scenario_roots(run_id),
                )  # fmt: skip
                forget = load_rest_after_first_request(config)  # while they are on the wire
                try:
                    shortfalls = await _play_recorded(runner, plans, on_episode)
                finally:
                    forget()
            finally:
                if parts.cache is not None:
                    parts.cache.close()
                if parts.clients is not None:
                    await parts.clients.aclose()
        for line in shortfalls:
            (on_warning or logger.warning)(line)
        summary = _summary(db, run_id, anyio.current_time() - started)
        return replace(summary, warnings=(*warnings, *shortfalls))
    finally:
        session.close()
        if own_store:
            db.close()


def _check_user_and_explore(config: RunConfig, models: Mapping[str, ChatModel] | None) -> None:
    """Refuse settings the run cannot play, before anything is recorded."""
    if config.user.perturb and config.user.policy != "agenda":
        raise ConfigError(
            f"user.perturb = {config.user.perturb:g} draws the agenda user's behaviour "
            f"operations, but user.policy = {config.user.policy!r}: set user.policy = 'agenda' "
            "or user.perturb = 0",
            key="user.perturb",
        )
    if config.explore.branches:  # DIVERT is imported only by runs that branch
        from vistasim.divert import check_explore

        check_explore(
            config.explore, user_policy=config.user.policy, roles={*config.models, *(models or {})}
        )


async def _play_recorded(
    run: Runner, plans: list[EpisodePlan], on_episode: ProgressCallback | None
) -> list[str]:
    """Play a recorded run; however it stops, it is marked `done` or `failed`, never `running`.

    Returns why scenarios got fewer branches than asked (empty when they got them all).
    """
    try:
        progress = _Progress(run, on_episode)
        if run.config.run.executor == "ray":
            from vistasim.explore._ray import ray_workers

            async with ray_workers(run) as workers:
                await workers.play(plans, progress)
                # The driver decides each branch; the workers restore and play them.
                shortfalls = await _explore(replace(run, branch_player=workers), progress)
        else:
            await _play_all(run, plans, progress)
            shortfalls = await _explore(run, progress)
    except BaseException as exc:  # Ctrl-C and cancellation too: the run is resumable
        run.db.finish_run(run.run_id, "failed", failure=describe_failure(exc))
        errors = [e for e in leaf_errors(exc) if isinstance(e, Exception)]
        if isinstance(exc, BaseExceptionGroup) and _one_cause(errors):
            raise errors[0] from None  # the error that stopped the run, not a group of it
        raise
    run.db.finish_run(run.run_id, "done")
    return shortfalls


async def _explore(run: Runner, progress: _Progress) -> list[str]:
    """Branch the run's scenarios (`explore.branches`); why some got fewer branches."""
    if not run.settings.explore.branches:
        return []
    from vistasim.explore._explorer import Explorer  # only runs that branch need it

    finish_ended_branches(run.db, run.run_id)  # a run killed as a branch ended: its status
    explorer = Explorer(run=run, on_episode=progress)
    progress.explorer = explorer
    return await explorer.explore()


def run_sync(config: RunConfig | None = None, **kwargs: object) -> RunResult:
    """Blocking `run()`, for scripts and notebooks."""
    if config is not None:
        load_ahead(config)  # before the event loop starts
    return anyio.run(lambda: run(config, **kwargs))  # type: ignore[arg-type]


class _Progress:
    """Reports each played episode with exact figures: episodes ended of episodes to play.

    The total is what the run will play as far as is known now: every episode recorded, plus
    the branches still to make (`explore.branches` per scenario, bounded by what the token
    budget still allows once branching runs). A scenario that cannot get its branches, and a
    budget that ends them, lower it at once, so the last line reads N/N.
    """

    def __init__(self, run: Runner, callback: ProgressCallback | None) -> None:
        self.run, self.callback = run, callback
        self.explorer: Explorer | None = None
        # Counted here, not in the store: episodes ending in the same tick are committed
        # together, so the store's count can move by two between two reports.
        self.done = sum(1 for p in run.db.list_episodes(run.run_id) if p.status in _ENDED)

    def __call__(self, plan: EpisodePlan, reason: str) -> None:
        self.done += 1
        if self.callback is None:
            return
        episodes = self.run.db.list_episodes(self.run.run_id)
        self.callback(self.done, len(episodes) + self._to_branch(), plan, reason)

    def _to_branch(self) -> int:
        if self.explorer is not None:
            return self.explorer.remaining()
        spec = self.run.settings.explore
        return 0 if spec.budget_tokens is not None else spec.branches * len(self.run.roots)


_ENDED = ("done", "errored")


async def _play_all(run: Runner, plans: list[EpisodePlan], progress: _Progress) -> None:
    todo = [p for p in plans if p.status in ("pending", "running")]
    limiter = anyio.CapacityLimiter(run.settings.concurrency)

    async def one(plan: EpisodePlan) -> None:
        async with limiter:
            reason = await play_one(run, plan)
        progress(plan, reason)

    watchdog = LoopWatchdog(threshold_s=_agent_timeout(run.config))
    async with anyio.create_task_group() as tg:
        tg.start_soon(watchdog.run)
        async with anyio.create_task_group() as episodes:
            for plan in todo:
                episodes.start_soon(one, plan)
        tg.cancel_scope.cancel()


def _one_cause(errors: list[Exception]) -> bool:
    # Episodes started together hit the same config mistake before the first one stops the run.
    return len(errors) == 1 or bool(errors) and all(type(e) is type(errors[0]) for e in errors)


def _agent_timeout(config: RunConfig) -> float:
    timeout = getattr(config.agent, "timeout_s", None)
    return float(timeout) if isinstance(timeout, int | float) and timeout else 60.0


def _summary(db: Store, run_id: str, wall_s: float) -> RunResult:
    from vistasim.metrics import success
    from vistasim.store import read_run_view

    plans = db.list_episodes(run_id)
    reasons = Counter(p.stop_reason or "unfinished" for p in plans)
    # The same verdicts as `vistasim metrics`: criteria, agent-failure detectors, user checks.
    view = read_run_view(db, run_id, snapshots=False, calls=False)  # verdicts read neither
    report = success(view)
    outcome_of = report.episodes
    outcomes = Counter(outcome_of.values())
    return RunResult(
        run_id=run_id,
        store_path=db.path,
        episodes=len(plans),
        stop_reasons=dict(reasons),
        passed=outcomes["passed"],
        failed=outcomes["failed"],
        errored=outcomes["errored"],
        wall_s=wall_s,
        outcomes={k: v for k, v in sorted(outcomes.items())},
        branches=dict(sorted(Counter(b.status for b in db.list_branches(run_id)).items())),
        success_rate=report.success_rate,
        failing_scenarios=tuple(
            sorted({e.scenario_id for e in view.episodes if outcome_of[e.episode_id] == "failed"})
        ),
    )
