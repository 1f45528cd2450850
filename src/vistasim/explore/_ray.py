"""`run.executor = "ray"`: play a run's episodes on Ray workers; this process commits them.

See docs/architecture.md, Executors. The driver (this process) joins a Ray cluster (the config's
`run.ray_address`, else `$RAY_ADDRESS`, else a Ray instance it starts on this machine), starts
`run.ray_workers` worker actors (`_ray_worker.EpisodeWorker`) and hands each its share of the
run's pending episodes (round robin), `run.concurrency` at a time over all of them. Each worker
streams its episodes' writes back as they happen, in batches (one Ray object per batch, however
many writes it holds); the driver commits them to the store in order, so the store stays the one
source of truth: a killed driver leaves what a killed local run leaves, and `--resume` continues
from the last committed user turn (on Ray again, the stored config saying so).

DIVERT branches: the explorer decides and records each branch here (`Runner.branch_player` is
the run's `RayWorkers`), then a worker restores it from the path to its fork, sent with the
snapshot's blobs, and plays it; queued branches of a resumed run go to the workers the same way.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
from pydantic import JsonValue

from vistasim.config import RunConfig
from vistasim.errors import ConfigError, MissingExtraError, VistasimError
from vistasim.events import Snapshot
from vistasim.explore._ray_worker import (
    Appended,
    BranchWork,
    Ended,
    EpisodeWorker,
    Failed,
    Perturbed,
    ResumePoint,
    seal,
    seal_json,
    unseal,
)
from vistasim.explore._runner import Runner, finish_branch
from vistasim.llm import ChatModel
from vistasim.store import EpisodePlan, Store

__all__ = ["RayWorkers", "check_executor", "executor_session", "ray_workers"]

_OBJECT_STORE_BYTES = 128 * 1024 * 1024
"""A local Ray instance's object store: records are small and consumed as they arrive."""


def check_executor(config: RunConfig, models: Mapping[str, ChatModel] | None) -> None:
    """Refuse a Ray run that cannot play, before anything is recorded.

    Raises:
        MissingExtraError: Ray is not installed.
        ConfigError: the run's models cannot go to Ray workers.
    """
    if config.run.executor != "ray":
        return
    if importlib.util.find_spec("ray") is None:
        raise MissingExtraError("ray", "ray")
    if models:
        raise ConfigError(
            "models passed to run() in code live in this process and cannot play on Ray "
            "workers: name them in the config's [models] sections, or set run.executor = 'local'",
            key="run.executor",
        )


@asynccontextmanager
async def ray_workers(run: Runner) -> AsyncIterator[RayWorkers]:
    """The run's worker actors, started when first needed and stopped on exit."""
    workers = RayWorkers(run)
    try:
        yield workers
    finally:
        await _stop_workers(workers.started)


class RayWorkers:
    """Plays a run's episodes and branches on its worker actors; commits what they write."""

    def __init__(self, run: Runner) -> None:
        self.run = run
        self.started: list[Any] = []
        self._turn = 0

    async def play(
        self, plans: list[EpisodePlan], progress: Callable[[EpisodePlan, str], None]
    ) -> None:
        """Play the run's pending episodes (queued branches included), `concurrency` at once."""
        todo = [p for p in plans if p.status in ("pending", "running")]
        queued = [p for p in todo if p.branch_of is not None]
        roots = [p for p in todo if p.branch_of is None]
        if not todo:
            return
        limiter = anyio.CapacityLimiter(self.run.settings.concurrency)

        async def play_queued(plan: EpisodePlan) -> None:
            async with limiter:
                reason = await self._play_branch(plan, None)
            progress(plan, reason)

        workers = self._workers()
        async with anyio.create_task_group() as episodes:
            for plan in queued:
                episodes.start_soon(play_queued, plan)
            for index, worker in enumerate(workers if roots else []):
                share = roots[index :: len(workers)]
                episodes.start_soon(_drive, self.run, worker, share, len(workers), progress)

    async def play_branch(self, plan: EpisodePlan, injected: dict[str, JsonValue]) -> str:
        """Play a branch the explorer just recorded on a worker (`BranchPlayer`)."""
        return await self._play_branch(plan, injected)

    async def _play_branch(self, plan: EpisodePlan, injected: dict[str, JsonValue] | None) -> str:
        """Play a branch from its leaf; `injected` is None for a queued one (read it here)."""
        db = self.run.db
        queued = injected is None
        assert plan.leaf_event_id is not None  # a branch starts at its parent's fork
        if queued and plan.leaf_event_id == plan.fork_event_id:  # recorded, never played
            injected = db.branch(plan.episode_id).injected
            db.set_branch_status(plan.episode_id, "playing")
        workers = self._workers()
        worker = workers[self._turn % len(workers)]
        self._turn += 1
        work = BranchWork(
            plan=plan,
            at=_resume_point(db, plan.leaf_event_id),
            injected=None if injected is None else seal_json(injected, db.secrets),
            branch=db.branch(plan.episode_id),
        )
        ended = await _consume(
            self.run, worker.play_branch.remote(work), {plan.episode_id: _Commits(self.run, plan)}
        )
        if queued and ended.restores:
            db.count_restores(plan.episode_id, ended.restores)
        if ended.finished:
            finish_branch(db, plan.episode_id)
        return ended.reason

    def _workers(self) -> list[Any]:
        if not self.started:
            self.started = _start_workers(self.run)
        return self.started


@contextmanager
def executor_session(config: RunConfig) -> Iterator[None]:
    """Ray connected for a Ray run; nothing for a local one.

    The caller's own Ray session, else the cluster `run.ray_address` or `$RAY_ADDRESS` names,
    else a Ray instance started here for the run.

    Raises:
        ConfigError: the named cluster cannot be reached.
        VistasimError: a local Ray instance cannot start.
    """
    if config.run.executor != "ray":
        yield
        return
    import ray

    if ray.is_initialized():  # the caller's own session (a notebook, a test module)
        yield
        return
    _connect(config)
    try:
        yield
    finally:
        ray.shutdown()


def _connect(config: RunConfig) -> None:
    import ray

    address = config.run.ray_address or os.environ.get("RAY_ADDRESS")
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(
                num_cpus=config.run.ray_workers or os.cpu_count() or 1,
                include_dashboard=False,
                object_store_memory=_OBJECT_STORE_BYTES,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
    except Exception as exc:
        why = " ".join(str(exc).split())[:300] or type(exc).__name__
        if not address:
            raise VistasimError(f"a local Ray instance could not start: {why}") from None
        key = "run.ray_address" if config.run.ray_address else "RAY_ADDRESS"
        raise ConfigError(
            f"cannot reach the Ray cluster at {address!r} ({why}): check the address "
            "(ray://HEAD:10001 for Ray Client, auto on a cluster node) and that the cluster runs",
            key=key,
        ) from None


def _start_workers(run: Runner) -> list[Any]:
    import ray

    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]  # untyped in Ray
    count = run.config.run.ray_workers or max(1, int(cpus))
    # No CPU reserved: the workers wait on models and agents; SPREAD puts them on every node.
    actor = ray.remote(num_cpus=0, scheduling_strategy="SPREAD")(EpisodeWorker)
    return [actor.remote(run.config, run.run_id, run.roots, run.db.path) for _ in range(count)]


async def _stop_workers(workers: list[Any]) -> None:
    import ray

    with anyio.CancelScope(shield=True), anyio.move_on_after(10):
        for worker in workers:
            try:
                await worker.aclose.remote()
            except ray.exceptions.RayError:
                pass  # a dead worker has nothing left to close
    for worker in workers:
        ray.kill(worker)


async def _drive(
    run: Runner,
    worker: Any,
    plans: list[EpisodePlan],
    workers: int,
    progress: Callable[[EpisodePlan, str], None],
) -> None:
    """Have `worker` play `plans`; commit each episode's writes in order as they arrive."""
    if not plans:
        return
    commits = {p.episode_id: _Commits(run, p) for p in plans}
    resume_at = {
        p.episode_id: _resume_point(run.db, p.leaf_event_id)
        for p in plans
        if p.leaf_event_id is not None
    }
    concurrency = -(-run.settings.concurrency // workers)  # the run's, shared over the workers
    await _consume(run, worker.play_all.remote(plans, resume_at, concurrency), commits, progress)


async def _consume(
    run: Runner,
    stream: Any,
    commits: dict[str, _Commits],
    progress: Callable[[EpisodePlan, str], None] | None = None,
) -> Ended:
    """Commit the writes a worker streams, in order; the last episode's end."""
    import ray

    ended = Ended("")
    try:
        async for ref in stream:
            for episode_id, record in await ref:
                if isinstance(record, Failed):
                    raise record.error
                if isinstance(record, Ended):
                    ended = record
                    if progress is not None:
                        progress(commits[episode_id].plan, record.reason)
                else:
                    commits[episode_id].commit(record)
    except ray.exceptions.RayError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise VistasimError(
            f"a Ray worker failed ({first}); what its episodes played is stored: finish the run "
            f"with vistasim run --resume {run.run_id}"
        ) from None
    return ended


class _Commits:
    """Commits one episode's writes, mapping the worker's provisional event ids to the store's."""

    def __init__(self, run: Runner, plan: EpisodePlan) -> None:
        self.run, self.plan = run, plan
        self.ids: dict[int, int | None] = {}

    def commit(self, record: Appended | Perturbed) -> None:
        db, episode_id = self.run.db, self.plan.episode_id
        if isinstance(record, Perturbed):
            db.set_perturbations(episode_id, record.drawn)
            return
        parent = record.parent_id
        events = [(turn, unseal(sealed, db.secrets)) for turn, sealed in record.events]
        leaf = db.append_events(
            self.run.run_id, episode_id, self.ids[parent] if parent and parent < 0 else parent,
            events, calls=record.calls, blobs=record.blobs, status=record.status,
            stop_reason=record.stop_reason,
        )  # fmt: skip
        if record.leaf is not None and record.leaf < 0:
            self.ids[record.leaf] = leaf


def _resume_point(db: Store, leaf_event_id: int) -> ResumePoint:
    """The stored path an episode continues from, with its last snapshot's states."""
    path = db.read_path(leaf_event_id)
    exact = [seal(s.event, db.secrets) for s in db.read_path(leaf_event_id, exact=True)]
    snapshot = next((s.event for s in reversed(path) if isinstance(s.event, Snapshot)), None)
    refs = (
        []
        if snapshot is None
        else [snapshot.env_state_ref, snapshot.agent_state_ref, snapshot.browser_state_ref]
    )
    blobs = {r: db.get_blob(r) for r in refs if r}
    return ResumePoint(path=tuple(path), exact=tuple(exact), blobs=blobs)
