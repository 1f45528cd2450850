"""Run a scenario set: plan episodes, play them concurrently, resume an interrupted run."""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from vistasim.agent._types import AgentAdapter
from vistasim.config import RunConfig
from vistasim.env._types import Environment
from vistasim.errors import BrowserError, ConfigError, StoreError
from vistasim.events import Stop, StopReason
from vistasim.explore._episode import Cursor, Episode, play, take_snapshot
from vistasim.explore._resume import resume_cursor
from vistasim.explore._setup import Parts, build_parts, default_store_path
from vistasim.explore._web import WebChannel, check_widget, open_pool, web_channel
from vistasim.llm._types import ChatModel, ToolSpec
from vistasim.scenario import Scenario, load_scenarios
from vistasim.store._store import EpisodePlan, Store, open_store

__all__ = ["RunResult", "run", "run_sync"]

ProgressCallback = Callable[[int, int, EpisodePlan, str], None]
"""Called after each episode with (done, total, episode, stop reason)."""


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
    errored: int
    """Episodes ended by an infra error: neither passed nor failed."""
    wall_s: float


async def run(
    config: RunConfig | None = None,
    *,
    scenarios: Sequence[Scenario] | None = None,
    store: Store | str | Path | None = None,
    resume: str | None = None,
    models: Mapping[str, ChatModel] | None = None,
    on_episode: ProgressCallback | None = None,
) -> RunResult:
    """Run (or, with `resume=RUN_ID`, finish) a run and return its summary.

    Args:
        config: The run config; with `resume`, the stored config is used instead.
        scenarios: Scenarios to run; default: the config's `run.scenarios` file.
        store: A `Store`, or a path; default: the config's `run.store`, else `$VISTASIM_HOME`.
        resume: Id of an interrupted run to finish.
        models: Models by role that replace the config's (tests, custom providers).
        on_episode: Progress callback.
    """
    started = anyio.current_time()
    own_store = not isinstance(store, Store)
    db = store if isinstance(store, Store) else open_store(default_store_path(config, store))
    try:
        if resume is not None:
            run_id, config, plans = _load_for_resume(db, resume)
        elif config is None:
            raise ConfigError("run() needs a config (or resume=RUN_ID)")
        else:
            scenarios = _prepare(config, scenarios)
        needed = resume is None or any(p.status in ("pending", "running") for p in plans)
        async with _browser_pool(config, needed) as pool:
            if resume is None:
                metadata = await _web_metadata(config, pool)
                run_id, plans = _record(db, config, scenarios, metadata)
            parts = build_parts(config, store_path=Path(db.path), models=models)
            try:
                await _play_all(db, run_id, config, parts, plans, on_episode, pool)
            finally:
                if parts.cache is not None:
                    parts.cache.close()
        db.finish_run(run_id, "done")
        return _summary(db, run_id, anyio.current_time() - started)
    finally:
        if own_store:
            db.close()


def run_sync(config: RunConfig | None = None, **kwargs: object) -> RunResult:
    """Blocking `run()`, for scripts and notebooks."""
    return anyio.run(lambda: run(config, **kwargs))  # type: ignore[arg-type]


def _prepare(config: RunConfig, scenarios: Sequence[Scenario] | None) -> Sequence[Scenario]:
    """Load the scenarios and check the web mode's page and browser, before anything starts."""
    if scenarios is None:
        if not config.run.scenarios:
            raise ConfigError(
                "no scenarios: set run.scenarios to a YAML/JSON file", key="run.scenarios"
            )
        scenarios = load_scenarios(config.resolve(config.run.scenarios))
    _check_web_mode(config)
    return scenarios


def _record(
    db: Store, config: RunConfig, scenarios: Sequence[Scenario], web: Mapping[str, object]
) -> tuple[str, list[EpisodePlan]]:
    run_id = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    plans = db.create_run(
        run_id,
        config=config.model_dump(mode="json"),
        scenarios=scenarios,
        rollouts=config.run.rollouts,
        mode=config.run.mode,
        name=config.run.name,
        metadata={**_metadata(config), **web},
    )
    return run_id, plans


async def _web_metadata(config: RunConfig, pool: Any) -> dict[str, object]:
    """Find the chat widget on `web.start_url` once, so a page without one fails the run early."""
    if pool is None or not config.web.start_url:
        return {}
    return {"web_widget": await check_widget(config, pool)}


def _check_web_mode(config: RunConfig) -> None:
    """Fail before the run is recorded when a web mode has no page or no browser."""
    from vistasim.domains import DOMAINS

    if config.run.mode not in ("ui", "hybrid"):
        return
    no_domain = config.environment is None or config.environment.target not in DOMAINS
    if not config.web.start_url and no_domain:
        raise ConfigError(
            f"mode {config.run.mode!r} needs a web page: set web.start_url to your product's page, "
            "or use a built-in domain as the environment (target = 'shop' or 'school')",
            key="web.start_url",
        )
    from vistasim.browser import find_chromium

    find_chromium(config.web.chromium)  # a clear BrowserError naming how to install one


def _metadata(config: RunConfig) -> dict[str, object]:
    from vistasim.user import prompt_hash

    metadata: dict[str, object] = {"prompt_hash": prompt_hash(), "user_policy": config.user.policy}
    if config.environment is not None:
        from vistasim.explore._setup import _env_factory

        factory = _env_factory(config)
        if factory is not None:
            env = factory()
            metadata["agent_tools"] = [t.name for t in env.agent_tools()]
            metadata["user_tools"] = [t.name for t in env.user_tools()]
    return metadata


def _load_for_resume(db: Store, run_id: str) -> tuple[str, RunConfig, list[EpisodePlan]]:
    row = db.read_run(run_id)
    if row.status == "done":
        raise StoreError(f"run {run_id!r} already finished; nothing to resume")
    config = RunConfig.model_validate(row.config)
    return run_id, config, db.list_episodes(run_id)


async def _play_all(
    db: Store,
    run_id: str,
    config: RunConfig,
    parts: Parts,
    plans: list[EpisodePlan],
    on_episode: ProgressCallback | None,
    pool: Any,
) -> None:
    roots = db.scenario_roots(run_id)
    todo = [p for p in plans if p.status in ("pending", "running")]
    limiter = anyio.CapacityLimiter(config.run.concurrency)
    done = len(plans) - len(todo)

    async def one(plan: EpisodePlan, pool: Any) -> None:
        nonlocal done
        async with limiter:
            root_id, scenario = roots[plan.scenario_id]
            reason = await _play_one(db, run_id, config, parts, plan, scenario, root_id, pool)
        done += 1
        if on_episode is not None:
            on_episode(done, len(plans), plan, reason)

    async with anyio.create_task_group() as tg:
        for plan in todo:
            tg.start_soon(one, plan, pool)


@asynccontextmanager
async def _browser_pool(config: RunConfig, needed: bool) -> AsyncIterator[Any]:
    """One browser for the run's web episodes; none in `chat` and `api` modes."""
    if not needed or config.run.mode not in ("ui", "hybrid"):
        yield None
        return
    async with open_pool(config) as pool:
        yield pool


async def _play_one(
    db: Store,
    run_id: str,
    config: RunConfig,
    parts: Parts,
    plan: EpisodePlan,
    scenario: Scenario,
    root_id: int,
    pool: Any,
) -> str:
    env = parts.make_env() if parts.make_env is not None else None
    try:
        async with _agent_and_page(config, parts, env, pool) as (agent, web):
            ep = Episode(
                run_id=run_id,
                plan=plan,
                scenario=scenario,
                store=db,
                policy=parts.policy,
                agent=agent,
                env=env,
                max_turns=min(scenario.limits.max_turns, config.run.max_turns or 10**6),
                api_tools=_api_tools(config, env),
                seed=episode_seed(config.run.seed, scenario.id, plan.rollout),
                web=web,
            )
            if plan.leaf_event_id is None:
                cursor = await _start(ep, root_id)
            else:
                cursor = await resume_cursor(ep, plan.leaf_event_id)
            stop = await play(ep, cursor, timeout_s=config.run.episode_timeout_s)
            return stop.reason.value
    except BrowserError as exc:
        # The page could not even be opened (or died while opening): errored, never failed.
        return _record_errored(db, run_id, plan, root_id, str(exc))


@asynccontextmanager
async def _agent_and_page(
    config: RunConfig, parts: Parts, env: Environment | None, pool: Any
) -> AsyncIterator[tuple[AgentAdapter, WebChannel | None]]:
    if pool is None:
        assert parts.make_agent is not None  # build_parts requires an agent outside web modes
        agent = parts.make_agent(env)
        try:
            yield agent, None
        finally:
            await agent.aclose()
        return
    make = parts.make_agent
    backend = None if make is None else lambda: make(env)
    async with web_channel(config, pool, env, backend) as (web, agent):
        try:
            yield agent, web
        finally:
            await agent.aclose()


def _api_tools(config: RunConfig, env: Environment | None) -> tuple[ToolSpec, ...]:
    if env is None or config.run.mode not in ("api", "hybrid"):
        return ()
    return tuple(env.user_tools())


def _record_errored(db: Store, run_id: str, plan: EpisodePlan, root_id: int, detail: str) -> str:
    current = db.list_episodes(run_id)
    leaf = next((p.leaf_event_id for p in current if p.episode_id == plan.episode_id), None)
    stop = Stop(reason=StopReason.INFRA_ERROR, detail=detail)
    db.append_events(
        run_id, plan.episode_id, leaf or root_id, [(plan.turns, stop)],
        status="errored", stop_reason=stop.reason.value,
    )  # fmt: skip
    return stop.reason.value


def episode_seed(run_seed: int, scenario_id: str, rollout: int) -> int:
    """A stable per-episode seed: same run seed, scenario and rollout give the same episode."""
    digest = hashlib.sha256(f"{run_seed}:{scenario_id}:{rollout}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


async def _start(ep: Episode, root_id: int) -> Cursor:
    cursor = Cursor(
        leaf=root_id, turn=0, user_state=ep.policy.initial_state(ep.scenario, seed=ep.seed)
    )
    snapshot, blobs = await take_snapshot(ep, cursor)
    cursor.leaf = ep.store.append_events(
        ep.run_id, ep.plan.episode_id, root_id, [(0, snapshot)], blobs=blobs
    )
    return cursor


def _summary(db: Store, run_id: str, wall_s: float) -> RunResult:
    rows = db.db.execute(
        "SELECT stop_reason, status FROM episodes WHERE run_id = ?", (run_id,)
    ).fetchall()
    reasons = Counter(row["stop_reason"] or "unfinished" for row in rows)
    verdicts = db.db.execute(
        "SELECT json_extract(payload, '$.passed') FROM events WHERE run_id = ?"
        " AND kind = 'judgment' AND json_extract(payload, '$.judge') = 'criteria'",
        (run_id,),
    ).fetchall()
    passed = sum(1 for (v,) in verdicts if v == 1)
    return RunResult(
        run_id=run_id,
        store_path=db.path,
        episodes=len(rows),
        stop_reasons=dict(reasons),
        passed=passed,
        failed=len(verdicts) - passed,
        errored=sum(1 for row in rows if row["status"] == "errored"),
        wall_s=wall_s,
    )
