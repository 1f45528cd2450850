"""Run a scenario set: plan episodes, play them concurrently, resume an interrupted run."""

from __future__ import annotations

import logging
import os
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import anyio

from vistasim._secrets import known_secrets
from vistasim.config import RunConfig
from vistasim.env._types import Environment
from vistasim.errors import BrowserError, ConfigError, EnvError, StoreError
from vistasim.events import Stop, StopReason
from vistasim.explore._checks import check_criteria
from vistasim.explore._episode import Episode, play, start
from vistasim.explore._guard import GuardedAgent, describe_failure, leaf_errors
from vistasim.explore._imports import load_ahead
from vistasim.explore._metadata import run_metadata
from vistasim.explore._parents import SoundParents, next_parent
from vistasim.explore._preflight import preflight as check_config
from vistasim.explore._resume import resume
from vistasim.explore._select import select_scenarios
from vistasim.explore._settings import RunSettings, builtin_domain, is_tau2_target, settings_of
from vistasim.explore._setup import Parts, build_parts, default_store_path
from vistasim.explore._watch import WatchedEnvironment
from vistasim.explore._watchdog import LoopWatchdog
from vistasim.explore._web import EpisodeAgent, WebChannel, check_widget, open_pool, web_channel
from vistasim.llm._types import ChatModel, ToolSpec
from vistasim.scenario import Scenario, load_scenarios
from vistasim.store._store import EpisodePlan, Store, open_store
from vistasim.user import action_from_json

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
    ignores `tools`)."""
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
    try:
        if resume is not None:
            run_id, config, plans = _load_for_resume(db, resume)
        elif config is None:
            raise ConfigError("run() needs a config (or resume=RUN_ID)")
        db.add_secrets(known_secrets(config, os.environ))
        load_ahead(config)  # no episode waits on an import while the others play
        from vistasim.explore._branch import check_explore

        check_explore(
            config.explore, user_policy=config.user.policy, roles={*config.models, *(models or {})}
        )
        # Everything that can be checked is checked before the run is recorded: the config's
        # endpoints, keys and targets first, then the scenarios against the environment.
        warnings: list[str] = []
        if preflight:
            warnings = await check_config(config, given_roles=set(models or {}))
        for warning in warnings:
            (on_warning or logger.warning)(warning)
        if resume is None:
            scenarios, metadata = _prepare(config, scenarios)
        needed = resume is None or any(p.status in ("pending", "running") for p in plans)
        settings = settings_of(config)  # the config's decisions, made once for the run
        async with _browser_pool(config, needed) as pool:
            parts = build_parts(
                config, store_path=Path(db.path), models=models, domain=settings.domain
            )
            try:
                if resume is None:
                    web = await _web_metadata(config, pool)
                    assert scenarios is not None  # _prepare loaded them
                    run_id, plans = _record(db, config, scenarios, {**metadata, **web})
                if on_notice is not None and needed and settings.concurrency_note:
                    on_notice(settings.concurrency_note)  # checks passed: the episodes start
                await _play_recorded(db, run_id, config, settings, parts, plans, on_episode, pool)
            finally:
                if parts.cache is not None:
                    parts.cache.close()
                if parts.clients is not None:
                    await parts.clients.aclose()
        summary = _summary(db, run_id, anyio.current_time() - started)
        return replace(summary, warnings=tuple(warnings))
    finally:
        if own_store:
            db.close()


async def _play_recorded(
    db: Store,
    run_id: str,
    config: RunConfig,
    settings: RunSettings,
    parts: Parts,
    plans: list[EpisodePlan],
    on_episode: ProgressCallback | None,
    pool: Any,
) -> None:
    """Play a recorded run; however it stops, it is marked `done` or `failed`, never `running`."""
    try:
        run = _Runner(
            db=db, run_id=run_id, config=config, settings=settings, parts=parts, pool=pool
        )
        await _play_all(run, plans, on_episode)
        if settings.explore.branches:
            await _branch_all(run, on_episode)
    except BaseException as exc:  # Ctrl-C and cancellation too: the run is resumable
        db.finish_run(run_id, "failed", failure=describe_failure(exc))
        errors = [e for e in leaf_errors(exc) if isinstance(e, Exception)]
        if isinstance(exc, BaseExceptionGroup) and _one_cause(errors):
            raise errors[0] from None  # the error that stopped the run, not a group of it
        raise
    db.finish_run(run_id, "done")


def run_sync(config: RunConfig | None = None, **kwargs: object) -> RunResult:
    """Blocking `run()`, for scripts and notebooks."""
    if config is not None:
        load_ahead(config)  # before the event loop starts
    return anyio.run(lambda: run(config, **kwargs))  # type: ignore[arg-type]


def _prepare(
    config: RunConfig, scenarios: Sequence[Scenario] | None
) -> tuple[Sequence[Scenario], dict[str, object]]:
    """Load and check the scenarios and the web mode's page and browser, before anything starts.

    Returns the scenarios and the run's metadata (the environment's tools, the prompt hash).
    """
    target = config.environment.target if config.environment else None
    if scenarios is None and not config.run.scenarios and is_tau2_target(target):
        from vistasim.tau2 import tau2_scenarios

        scenarios = tau2_scenarios(str(target))  # the domain's tasks, as tau2 runs them
    if scenarios is None:
        if not config.run.scenarios:
            raise ConfigError(
                "no scenarios: set run.scenarios to a YAML/JSON file", key="run.scenarios"
            )
        scenarios = load_scenarios(config.resolve(config.run.scenarios))
    scenarios = select_scenarios(
        scenarios, patterns=config.run.select, tags=config.run.tags, source=config.run.scenarios
    )
    _check_web_mode(config)
    metadata = run_metadata(config)
    tools = metadata.get("agent_tools")
    check_criteria(
        scenarios,
        tools=list(tools) if isinstance(tools, list) else None,
        source=str(config.resolve(config.run.scenarios)) if config.run.scenarios else None,
    )
    return scenarios, metadata


def _record(
    db: Store, config: RunConfig, scenarios: Sequence[Scenario], metadata: Mapping[str, object]
) -> tuple[str, list[EpisodePlan]]:
    run_id = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    plans = db.create_run(
        run_id,
        config=config.model_dump(mode="json"),
        scenarios=scenarios,
        rollouts=config.run.rollouts,
        mode=config.run.mode,
        name=config.run.name,
        metadata=dict(metadata),
    )
    return run_id, plans


async def _web_metadata(config: RunConfig, pool: Any) -> dict[str, object]:
    """Find the chat widget on `web.start_url` once, so a page without one fails the run early."""
    if pool is None or not config.web.start_url:
        return {}
    return {"web_widget": await check_widget(config, pool)}


def _check_web_mode(config: RunConfig) -> None:
    """Fail before the run is recorded when a web mode has no page or no browser."""
    if config.run.mode not in ("ui", "hybrid"):
        return
    _check_web_urls(config)
    if not config.web.start_url and builtin_domain(config) is None:
        raise ConfigError(
            f"mode {config.run.mode!r} needs a web page: set web.start_url to your product's page, "
            "or use a built-in domain as the environment (target = 'shop' or 'school')",
            key="web.start_url",
        )
    from vistasim.browser import find_chromium

    find_chromium(config.web.chromium)  # a clear BrowserError naming how to install one


def _check_web_urls(config: RunConfig) -> None:
    from vistasim.browser import normalize_origins, origin_of

    normalize_origins(config.web.allowed_origins, key="web.allowed_origins")
    start = config.web.start_url
    if start and origin_of(start) is None:
        raise ConfigError(
            f"start page {start[:200]!r} is not an http(s) URL with a host; write it like "
            "'http://127.0.0.1:8000/'",
            key="web.start_url",
        )


def _load_for_resume(db: Store, run_id: str) -> tuple[str, RunConfig, list[EpisodePlan]]:
    row = db.read_run(run_id)
    if row.status == "done":
        raise StoreError(f"run {run_id!r} already finished; nothing to resume")
    config = RunConfig.model_validate(row.config)
    return run_id, config, db.list_episodes(run_id)


@dataclass(frozen=True, kw_only=True)
class _Runner:
    """What playing any episode of a run needs, built once per run."""

    db: Store
    run_id: str
    config: RunConfig
    """The agent and web specs the agent and page openers read."""
    settings: RunSettings
    parts: Parts
    pool: Any
    """The browser pool of `ui`/`hybrid` runs, else `None`."""


async def _play_all(
    run: _Runner, plans: list[EpisodePlan], on_episode: ProgressCallback | None
) -> None:
    roots = run.db.scenario_roots(run.run_id)
    todo = [p for p in plans if p.status in ("pending", "running")]
    limiter = anyio.CapacityLimiter(run.settings.concurrency)
    done = len(plans) - len(todo)

    async def one(plan: EpisodePlan) -> None:
        nonlocal done
        async with limiter:
            root_id, scenario = roots[plan.scenario_id]
            reason = await _play_one(run, plan, scenario, root_id)
        done += 1
        if on_episode is not None:
            on_episode(done, len(plans), plan, reason)

    watchdog = LoopWatchdog(threshold_s=_agent_timeout(run.config))
    async with anyio.create_task_group() as tg:
        tg.start_soon(watchdog.run)
        async with anyio.create_task_group() as episodes:
            for plan in todo:
                episodes.start_soon(one, plan)
        tg.cancel_scope.cancel()


async def _branch_all(run: _Runner, on_episode: ProgressCallback | None) -> None:
    """Add `explore.branches` branches per scenario, round-robin over its trajectories."""
    from vistasim.explore._branch import BranchMaker

    db, run_id, spec = run.db, run.run_id, run.settings.explore
    maker = BranchMaker(
        spec, store=db, run_id=run_id, policy=run.parts.policy, models=run.parts.models,
        model_specs=run.config.models, seed=run.settings.seed,
    )  # fmt: skip
    roots = db.scenario_roots(run_id)
    limiter = anyio.CapacityLimiter(run.settings.concurrency)
    total = len(db.list_episodes(run_id)) + spec.branches * len(roots)

    def opener(plan: EpisodePlan) -> Any:
        return open_episode(run, plan, roots[plan.scenario_id][1])

    budget = _Budget(db, run_id, spec.budget_tokens)
    sound = SoundParents(db, run_id)

    async def scenario_branches(scenario_id: str) -> None:
        exhausted: set[str] = set()
        root_id, scenario = roots[scenario_id]
        while True:
            async with limiter:
                # Checked once a slot is free: the branches in flight are counted by then.
                made = sum(1 for b in db.list_branches(run_id) if b.scenario_id == scenario_id)
                parent = next_parent(db, run_id, scenario_id, made, exhausted | sound.unsound())
                if made >= spec.branches or budget.spent():
                    return
                if parent is None:
                    # Every trajectory is branched out. Under a token budget the budget is
                    # still the measure: a fresh rollout joins the pool; without one, stop here.
                    if spec.budget_tokens is None:
                        return
                    async with budget.reserve():
                        plan = db.add_rollout(run_id, scenario_id)
                        reason = await _play_one(run, plan, scenario, root_id)
                else:
                    async with budget.reserve():
                        made_plan, recorded = await maker.make(parent, made + 1, opener)
                        if made_plan is None:
                            if not recorded:
                                exhausted.add(parent.episode_id)  # no junction left on it
                            continue
                        plan = made_plan
                        reason = await _play_one(run, plan, scenario, root_id)
            if on_episode is not None:
                on_episode(len(db.list_episodes(run_id)), total, plan, reason)

    async with anyio.create_task_group() as tg:
        for scenario_id in roots:
            tg.start_soon(scenario_branches, scenario_id)


class _Budget:
    """`explore.budget_tokens`: stop starting branches once the next ones would cross it.

    Branches of several scenarios play at once; counting only what finished would overshoot by
    every branch in flight, so each one in flight is reserved at the mean cost of a branch so far
    (before the first ends: half a linear episode's).
    """

    def __init__(self, db: Store, run_id: str, limit: int | None) -> None:
        self.db, self.run_id, self.limit = db, run_id, limit
        self.start = db.spent_tokens(run_id) if limit is not None else 0
        episodes = max(1, len(db.list_episodes(run_id)))
        self.first_guess = self.start / episodes / 2
        self.in_flight = 0
        self.ended = 0

    def spent(self) -> bool:
        if self.limit is None:
            return False
        now = self.db.spent_tokens(self.run_id)
        each = (now - self.start) / self.ended if self.ended else self.first_guess
        return now + self.in_flight * each + each / 2 >= self.limit

    @asynccontextmanager
    async def reserve(self) -> AsyncIterator[None]:
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1
            self.ended += 1


def _one_cause(errors: list[Exception]) -> bool:
    # Episodes started together hit the same config mistake before the first one stops the run.
    return len(errors) == 1 or bool(errors) and all(type(e) is type(errors[0]) for e in errors)


def _agent_timeout(config: RunConfig) -> float:
    return getattr(config.agent, "timeout_s", None) or 60.0


@asynccontextmanager
async def _browser_pool(config: RunConfig, needed: bool) -> AsyncIterator[Any]:
    """One browser for the run's web episodes; none in `chat` and `api` modes."""
    if not needed or config.run.mode not in ("ui", "hybrid"):
        yield None
        return
    async with open_pool(config) as pool:
        yield pool


async def _play_one(run: _Runner, plan: EpisodePlan, scenario: Scenario, root_id: int) -> str:
    db, run_id = run.db, run.run_id
    unplayable = _unplayable(run.parts.policy, scenario)
    if unplayable is not None and plan.leaf_event_id is None:
        return _record_stop(db, run_id, plan, root_id, StopReason.NOT_APPLICABLE, unplayable)
    try:
        async with open_episode(run, plan, scenario) as ep:
            if plan.leaf_event_id is None:
                state, stop = await start(ep, root_id)
            else:
                if plan.branch_of is not None and plan.leaf_event_id == plan.fork_event_id:
                    _inject(db, ep, plan)
                state, stop = await resume(ep, plan.leaf_event_id)
            stop = await play(ep, state, timeout_s=run.settings.timeout_s, stop=stop)
            if plan.branch_of is not None:
                _finish_branch(db, ep)
            return stop.reason.value
    except (BrowserError, EnvError, StoreError) as exc:
        # The page could not be opened, or the stored episode cannot be resumed: errored.
        return _record_errored(db, run_id, plan, root_id, str(exc))
    except ExceptionGroup as group:
        # The built-in site is served in a task group, which wraps what the episode raised.
        browser, others = group.split(BrowserError)
        if browser is None or others is not None:
            raise
        return _record_errored(db, run_id, plan, root_id, str(leaf_errors(browser)[0]))


@asynccontextmanager
async def open_episode(
    run: _Runner, plan: EpisodePlan, scenario: Scenario
) -> AsyncIterator[Episode]:
    """The live parts of one episode (environment, agent, page), closed on exit.

    Raises:
        EnvError: the environment could not be built.
    """
    parts, settings = run.parts, run.settings
    made = parts.make_env() if parts.make_env is not None else None
    start_scenario = getattr(made, "start_scenario", None)
    if callable(start_scenario):
        start_scenario(
            scenario
        )  # an environment whose initial state depends on the scenario (tau2)
    env = WatchedEnvironment(made) if made is not None else None
    async with _agent_and_page(run.config, parts, env, run.pool, plan.episode_id) as (agent, web):
        yield Episode(
            run_id=run.run_id,
            plan=plan,
            scenario=scenario,
            store=run.db,
            policy=parts.policy,
            agent=agent,
            env=env,
            max_turns=settings.turns_for(scenario),
            max_reply_bytes=settings.max_reply_bytes,
            api_tools=_api_tools(settings, env),
            seed=settings.seed_for(scenario.id, plan.rollout),
            web=web,
            agent_policy=parts.agent_policy,
        )


def _inject(db: Store, ep: Episode, plan: EpisodePlan) -> None:
    """A queued branch plays its recorded action first (also when resumed after a crash)."""
    branch = db.branch(plan.episode_id)
    injected = branch.injected
    ep.first_action = (action_from_json(injected["action"]), injected.get("user_state"))
    db.set_branch_status(plan.episode_id, "playing")


def _finish_branch(db: Store, ep: Episode) -> None:
    from vistasim.explore._branch import converged

    branch = db.branch(ep.plan.episode_id)
    if ep.replay_diverged is not None:
        detail = f"the replayed agent answered turn {ep.replay_diverged} differently"
        db.set_branch_status(branch.episode_id, "diverged", detail=detail)
        return
    mine = db.episode(branch.episode_id)
    parent = db.episode(branch.parent_episode_id)
    if mine.leaf_event_id is None or parent.leaf_event_id is None:
        return
    same = converged(
        db.read_path(parent.leaf_event_id), db.read_path(mine.leaf_event_id), branch.fork_event_id
    )
    if same:
        detail = "the agent made the same tool calls and the episode ended the same way"
        db.set_branch_status(branch.episode_id, "converged", detail=detail)
    else:
        db.set_branch_status(branch.episode_id, "done")


@asynccontextmanager
async def _agent_and_page(
    config: RunConfig, parts: Parts, env: WatchedEnvironment | None, pool: Any, episode_id: str
) -> AsyncIterator[tuple[GuardedAgent, WebChannel | None]]:
    if pool is None:
        assert parts.make_agent is not None  # build_parts requires an agent outside web modes
        agent = parts.make_agent(env)
        try:
            yield agent, None
        finally:
            await _close_quietly(agent)
        return

    # The built-in site names its own sessions; the agent behind it still serves this episode.
    make = parts.make_agent

    def site_agent() -> EpisodeAgent:
        assert make is not None
        return EpisodeAgent(make(env), episode_id=episode_id)

    backend = None if make is None else site_agent
    # The site's own routes act on the unwatched environment: what a web action changes is the
    # user's doing (measured around the action), never a call of the agent's.
    site_env = env.inner if env is not None else None
    async with web_channel(config, pool, site_env, backend) as (web, widget):
        agent = GuardedAgent(widget, name="the chat widget")
        try:
            yield agent, web
        finally:
            await _close_quietly(agent)


async def _close_quietly(agent: GuardedAgent) -> None:
    # The episode closes its agent and records a failure; this only covers an early exit.
    with anyio.CancelScope(shield=True):
        try:
            await agent.aclose()
        except Exception:
            logger.warning("closing the agent failed after its episode ended", exc_info=True)


def _api_tools(settings: RunSettings, env: Environment | None) -> tuple[ToolSpec, ...]:
    if env is None or settings.mode not in ("api", "hybrid"):
        return ()
    return tuple(env.user_tools())


def _record_errored(db: Store, run_id: str, plan: EpisodePlan, root_id: int, detail: str) -> str:
    return _record_stop(db, run_id, plan, root_id, StopReason.INFRA_ERROR, detail)


def _record_stop(
    db: Store, run_id: str, plan: EpisodePlan, root_id: int, reason: StopReason, detail: str
) -> str:
    current = db.list_episodes(run_id)
    leaf = next((p.leaf_event_id for p in current if p.episode_id == plan.episode_id), None)
    stop = Stop(reason=reason, detail=detail)
    status: Literal["errored", "done"] = "errored" if reason is StopReason.INFRA_ERROR else "done"
    db.append_events(
        run_id, plan.episode_id, leaf or root_id, [(plan.turns, stop)],
        status=status, stop_reason=stop.reason.value,
    )  # fmt: skip
    return stop.reason.value


def _unplayable(policy: object, scenario: Scenario) -> str | None:
    """Why the run's user policy cannot play a scenario, decided before play (or `None`)."""
    check = getattr(policy, "unplayable", None)
    return check(scenario) if callable(check) else None


def _summary(db: Store, run_id: str, wall_s: float) -> RunResult:
    from vistasim.metrics import success
    from vistasim.store import read_run_view

    rows = db.db.execute(
        "SELECT stop_reason, status FROM episodes WHERE run_id = ?", (run_id,)
    ).fetchall()
    reasons = Counter(row["stop_reason"] or "unfinished" for row in rows)
    # The same verdicts as `vistasim metrics`: criteria, agent-failure detectors, user checks.
    view = read_run_view(db, run_id, snapshots=False)
    report = success(view)
    outcome_of = report.episodes
    outcomes = Counter(outcome_of.values())
    return RunResult(
        run_id=run_id,
        store_path=db.path,
        episodes=len(rows),
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
