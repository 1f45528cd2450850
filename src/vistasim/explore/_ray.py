"""`run.executor = "ray"`: play a run's episodes on Ray workers; this process commits them.

See docs/architecture.md, Executors. The driver (this process) joins a Ray cluster (the config's
`run.ray_address`, else `$RAY_ADDRESS`, else a Ray instance it starts on this machine), starts
`run.ray_workers` worker actors (`_ray_worker.EpisodeWorker`) and hands them the run's pending
episodes round-robin, `run.concurrency` at a time across all of them. Each episode streams its
writes back as it plays; the driver commits them to the store in order, so the store stays the one
source of truth: a killed driver leaves what a killed local run leaves, and `--resume` continues
from the last committed user turn (on Ray again, the stored config saying so).

Queued DIVERT branches (a resumed `explore` run) and the branching phase play in this process.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import anyio

from vistasim.config import RunConfig
from vistasim.errors import ConfigError, MissingExtraError, VistasimError
from vistasim.events import Snapshot
from vistasim.explore._ray_worker import (
    Appended,
    Ended,
    EpisodeWorker,
    Failed,
    Perturbed,
    ResumePoint,
)
from vistasim.explore._runner import Runner, play_one
from vistasim.llm import ChatModel
from vistasim.store import EpisodePlan, Store

__all__ = ["check_executor", "play_on_ray"]

_OBJECT_STORE_BYTES = 128 * 1024 * 1024
"""A local Ray instance's object store: records are small and consumed as they arrive."""


def check_executor(config: RunConfig, models: Mapping[str, ChatModel] | None) -> None:
    """Refuse a Ray run that cannot play, before anything is recorded.

    Raises:
        MissingExtraError: Ray is not installed.
        ConfigError: the run's mode or models cannot go to Ray workers.
    """
    if config.run.executor != "ray":
        return
    if importlib.util.find_spec("ray") is None:
        raise MissingExtraError("ray", "ray")
    if config.run.mode in ("ui", "hybrid"):
        raise ConfigError(
            f"run.executor = 'ray' plays chat and api episodes, not {config.run.mode!r} ones "
            "(each web episode needs a browser on its worker): set run.executor = 'local' or "
            "run.mode = 'chat'",
            key="run.executor",
        )
    if models:
        raise ConfigError(
            "models passed to run() in code live in this process and cannot play on Ray "
            "workers: name them in the config's [models] sections, or set run.executor = 'local'",
            key="run.executor",
        )


async def play_on_ray(
    run: Runner, plans: list[EpisodePlan], progress: Callable[[EpisodePlan, str], None]
) -> None:
    """Play the run's pending episodes on Ray workers, committing each write as it arrives."""
    todo = [p for p in plans if p.status in ("pending", "running")]
    if not todo:
        return
    limiter = anyio.CapacityLimiter(run.settings.concurrency)
    with _ray_session(run.config):
        workers = _start_workers(run)

        async def one(plan: EpisodePlan, worker: Any) -> None:
            async with limiter:
                if plan.branch_of is not None:  # a queued branch reads its parent: played here
                    reason = await play_one(run, plan)
                else:
                    reason = await _play_remote(run, worker, plan)
            progress(plan, reason)

        try:
            async with anyio.create_task_group() as episodes:
                for index, plan in enumerate(todo):
                    episodes.start_soon(one, plan, workers[index % len(workers)])
        finally:
            await _stop_workers(workers)


@contextmanager
def _ray_session(config: RunConfig) -> Iterator[None]:
    """Ray connected for the run: the caller's session, a named cluster, or a local instance."""
    import ray

    if ray.is_initialized():  # the caller's own session (a notebook, a test module)
        yield
        return
    address = config.run.ray_address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(
            num_cpus=config.run.ray_workers or os.cpu_count() or 1,
            include_dashboard=False,
            object_store_memory=_OBJECT_STORE_BYTES,
            log_to_driver=False,
        )
    try:
        yield
    finally:
        ray.shutdown()


def _start_workers(run: Runner) -> list[Any]:
    import ray

    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]  # untyped in Ray
    count = run.config.run.ray_workers or max(1, int(cpus))
    # No CPU reserved: the workers wait on models and agents; SPREAD puts them on every node.
    actor = ray.remote(num_cpus=0, scheduling_strategy="SPREAD")(EpisodeWorker)
    options = {"max_concurrency": max(run.settings.concurrency, 1)}
    return [
        actor.options(**options).remote(run.config, run.run_id, run.roots, run.db.path)
        for _ in range(count)
    ]


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


async def _play_remote(run: Runner, worker: Any, plan: EpisodePlan) -> str:
    """Play `plan` on `worker`; commit its writes in order; return its stop reason."""
    import ray

    ids: dict[int, int | None] = {}  # the worker's provisional event ids -> the store's

    def real(event_id: int | None) -> int | None:
        return ids[event_id] if event_id is not None and event_id < 0 else event_id

    try:
        async for ref in worker.play.remote(plan, _resume_point(run.db, plan)):
            record = await ref
            if isinstance(record, Appended):
                leaf = run.db.append_events(
                    run.run_id, plan.episode_id, real(record.parent_id), record.events,
                    calls=record.calls, blobs=record.blobs, status=record.status,
                    stop_reason=record.stop_reason,
                )  # fmt: skip
                if record.leaf is not None and record.leaf < 0:
                    ids[record.leaf] = leaf
            elif isinstance(record, Perturbed):
                run.db.set_perturbations(plan.episode_id, record.drawn)
            elif isinstance(record, Failed):
                raise record.error
            elif isinstance(record, Ended):
                return record.reason
    except ray.exceptions.RayError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise VistasimError(
            f"the Ray worker playing episode {plan.episode_id} failed ({first}); what it played "
            f"is stored: finish the run with vistasim run --resume {run.run_id}"
        ) from None
    raise VistasimError(f"the Ray worker playing episode {plan.episode_id} stopped mid-episode")


def _resume_point(db: Store, plan: EpisodePlan) -> ResumePoint | None:
    """The stored path an interrupted episode continues from, with its snapshot's states."""
    if plan.leaf_event_id is None:
        return None
    path = db.read_path(plan.leaf_event_id, exact=True)
    snapshot = next((s.event for s in reversed(path) if isinstance(s.event, Snapshot)), None)
    refs = (
        []
        if snapshot is None
        else [snapshot.env_state_ref, snapshot.agent_state_ref, snapshot.browser_state_ref]
    )
    return ResumePoint(path=tuple(path), blobs={r: db.get_blob(r) for r in refs if r})
