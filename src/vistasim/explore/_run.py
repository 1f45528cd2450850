"""Run a scenario set: plan episodes, play them concurrently, resume an interrupted run."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import anyio

from vistasim.agent._types import AgentAdapter, Turn, Utterance
from vistasim.config import RunConfig
from vistasim.env._types import ToolOutcome
from vistasim.errors import ConfigError, StoreError
from vistasim.events import AgentReply, ApiCall, Note, Snapshot, ToolCall, UserMessage
from vistasim.explore._episode import Cursor, Episode, play, take_snapshot
from vistasim.explore._setup import Parts, build_parts, default_store_path
from vistasim.llm._types import ChatModel
from vistasim.scenario import Scenario, load_scenarios
from vistasim.store._store import EpisodePlan, Store, open_store
from vistasim.store._view import StoredEvent

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
        else:
            if config is None:
                raise ConfigError("run() needs a config (or resume=RUN_ID)")
            run_id, plans = _create(db, config, scenarios)
        parts = build_parts(config, store_path=Path(db.path), models=models)
        try:
            await _play_all(db, run_id, config, parts, plans, on_episode)
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


def _create(
    db: Store, config: RunConfig, scenarios: Sequence[Scenario] | None
) -> tuple[str, list[EpisodePlan]]:
    if scenarios is None:
        if not config.run.scenarios:
            raise ConfigError(
                "no scenarios: set run.scenarios to a YAML/JSON file", key="run.scenarios"
            )
        scenarios = load_scenarios(config.resolve(config.run.scenarios))
    if config.run.mode in ("ui", "hybrid"):
        raise ConfigError(
            f"mode {config.run.mode!r} needs the browser channel, which this version does not have "
            "yet; use mode = 'chat' or 'api'",
            key="run.mode",
        )
    run_id = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    plans = db.create_run(
        run_id,
        config=config.model_dump(mode="json"),
        scenarios=scenarios,
        rollouts=config.run.rollouts,
        mode=config.run.mode,
        name=config.run.name,
        metadata=_metadata(config),
    )
    return run_id, plans


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
) -> None:
    roots = db.scenario_roots(run_id)
    todo = [p for p in plans if p.status in ("pending", "running")]
    limiter = anyio.CapacityLimiter(config.run.concurrency)
    done = len(plans) - len(todo)

    async def one(plan: EpisodePlan) -> None:
        nonlocal done
        async with limiter:
            root_id, scenario = roots[plan.scenario_id]
            reason = await _play_one(db, run_id, config, parts, plan, scenario, root_id)
        done += 1
        if on_episode is not None:
            on_episode(done, len(plans), plan, reason)

    async with anyio.create_task_group() as tg:
        for plan in todo:
            tg.start_soon(one, plan)


async def _play_one(
    db: Store,
    run_id: str,
    config: RunConfig,
    parts: Parts,
    plan: EpisodePlan,
    scenario: Scenario,
    root_id: int,
) -> str:
    env = parts.make_env() if parts.make_env is not None else None
    agent = await parts.open_agent(env)
    try:
        ep = Episode(
            run_id=run_id,
            plan=plan,
            scenario=scenario,
            store=db,
            policy=parts.policy,
            agent=agent,
            env=env,
            max_turns=min(scenario.limits.max_turns, config.run.max_turns or 10**6),
            api_tools=tuple(env.user_tools())
            if env is not None and config.run.mode in ("api", "hybrid")
            else (),
            seed=episode_seed(config.run.seed, scenario.id, plan.rollout),
        )
        if plan.leaf_event_id is None:
            cursor = _start(ep, root_id)
        else:
            cursor = await _resume(ep, plan.leaf_event_id)
        stop = await play(ep, cursor, timeout_s=config.run.episode_timeout_s)
        return stop.reason.value
    finally:
        await agent.aclose()


def episode_seed(run_seed: int, scenario_id: str, rollout: int) -> int:
    """A stable per-episode seed: same run seed, scenario and rollout give the same episode."""
    digest = hashlib.sha256(f"{run_seed}:{scenario_id}:{rollout}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _start(ep: Episode, root_id: int) -> Cursor:
    cursor = Cursor(
        leaf=root_id, turn=0, user_state=ep.policy.initial_state(ep.scenario, seed=ep.seed)
    )
    snapshot, blobs = take_snapshot(ep, cursor)
    cursor.leaf = ep.store.append_events(
        ep.run_id, ep.plan.episode_id, root_id, [(0, snapshot)], blobs=blobs
    )
    return cursor


async def _resume(ep: Episode, leaf_id: int) -> Cursor:
    """Rebuild the cursor from the stored path and bring agent and environment back."""
    path = ep.store.read_path(leaf_id)
    snapshots = [s for s in path if isinstance(s.event, Snapshot)]
    after = path[path.index(snapshots[-1]) + 1 :] if snapshots else path
    if not snapshots or any(not isinstance(s.event, Note) for s in after):
        raise StoreError(f"episode {ep.plan.episode_id} does not end in a snapshot; cannot resume")
    last = snapshots[-1].event
    assert isinstance(last, Snapshot)
    cursor = Cursor(leaf=leaf_id, turn=last.turn, user_state=last.user_state)
    _replay_transcript(cursor, path)
    await _restore_agent(ep, cursor, last)
    if ep.env is not None and last.env_state_ref is not None:
        ep.env.restore(ep.store.get_blob(last.env_state_ref))
    return cursor


def _replay_transcript(cursor: Cursor, path: list[StoredEvent]) -> None:
    pending_user: str | None = None
    for stored in path:
        event = stored.event
        if isinstance(event, UserMessage):
            pending_user = event.text
        elif isinstance(event, AgentReply) and pending_user is not None:
            cursor.transcript += [
                Utterance(role="user", text=pending_user),
                Utterance(role="agent", text=event.text),
            ]
            pending_user = None
        elif isinstance(event, ToolCall):
            cursor.tool_calls.append(event)
        elif isinstance(event, ApiCall):
            cursor.last_api_result = ToolOutcome(result=event.result, error=event.error)
        elif isinstance(event, Snapshot):
            cursor.last_api_result = cursor.last_api_result if _follows_api(path, stored) else None


def _follows_api(path: list[StoredEvent], snapshot: StoredEvent) -> bool:
    index = path.index(snapshot)
    return index > 0 and isinstance(path[index - 1].event, ApiCall)


async def _restore_agent(ep: Episode, cursor: Cursor, snapshot: Snapshot) -> None:
    agent: AgentAdapter = ep.agent
    if agent.restore_strategy == "state" and snapshot.agent_state_ref is not None:
        state = json.loads(ep.store.get_blob(snapshot.agent_state_ref))
        agent.restore(state)  # type: ignore[attr-defined]
    elif agent.restore_strategy == "replay" and cursor.transcript:
        diverged = await _replay_agent(ep, cursor)
        text = f"resumed by replaying {len(cursor.transcript) // 2} user turn(s) to the agent"
        if diverged is not None:
            text += f"; its reply diverged from the stored one at turn {diverged}"
        note = [(cursor.turn, Note(text=text))]
        cursor.leaf = ep.store.append_events(ep.run_id, ep.plan.episode_id, cursor.leaf, note)


async def _replay_agent(ep: Episode, cursor: Cursor) -> int | None:
    diverged = None
    history = cursor.transcript
    for index in range(0, len(history), 2):
        turn = Turn(
            episode_id=f"{ep.plan.episode_id}~replay",
            message=history[index].text,
            history=tuple(history[:index]),
        )
        reply = await ep.agent.respond(turn)
        if diverged is None and reply.text != history[index + 1].text:
            diverged = index // 2
    return diverged


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
