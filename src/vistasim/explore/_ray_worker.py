"""The Ray side of `run.executor = "ray"`: a worker plays episodes and streams what they write.

See docs/architecture.md, Executors. A worker actor builds the run's live parts (user policy,
models, environment factory, agent opener) once, from the run's config, and plays its share of the
episodes with the same code the local executor runs (`play_one`). Each episode writes to a
`StreamingStore` instead of the store file: every write becomes a record for the driver, which
alone commits it; the worker sends the records waiting as one batch each time the driver takes
one. Event ids are the store's to assign, so the worker hands out provisional ones (negative, per
episode) and the driver maps each to the id it committed. A DIVERT branch (`BranchWork`) is
restored once from the path to its leaf that the driver sent, and played with the same loop.

Nothing here imports Ray: the driver (`_ray`) wraps `EpisodeWorker` as an actor.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue

from vistasim._secrets import known_secrets, mask_state, unmask_state
from vistasim.config import RunConfig
from vistasim.errors import StoreError, VistasimError
from vistasim.events import EVENT_ADAPTER, Event
from vistasim.explore._episode import play
from vistasim.explore._imports import load_ahead
from vistasim.explore._resume import resume
from vistasim.explore._runner import Runner, guarded, open_episode, play_one
from vistasim.explore._settings import settings_of
from vistasim.explore._setup import Parts, build_parts
from vistasim.explore._web import open_pool
from vistasim.llm import ModelCall
from vistasim.scenario import Scenario
from vistasim.store import Append, BranchView, EpisodePlan, EpisodeStatus, Store, StoredEvent
from vistasim.user import action_from_json

if TYPE_CHECKING:
    from vistasim.browser import BrowserPool

__all__ = [
    "Appended",
    "BranchWork",
    "EpisodeWorker",
    "Ended",
    "Failed",
    "Perturbed",
    "ResumePoint",
    "seal",
    "seal_json",
    "unseal",
]


@dataclass(frozen=True, kw_only=True)
class Appended:
    """A write of `Store.append_events` or `append_turn`, as the worker made it.

    `leaf` is its provisional id.
    """

    parent_id: int | None
    events: tuple[tuple[int, bytes], ...]
    """Each `(turn, event)`, the event as sealed JSON (`seal`)."""
    calls: tuple[ModelCall, ...]
    blobs: tuple[bytes, ...]
    status: EpisodeStatus
    stop_reason: str | None
    leaf: int | None


@dataclass(frozen=True)
class Perturbed:
    """`Store.set_perturbations` for the episode."""

    drawn: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Ended:
    """The episode ended with this stop reason; nothing follows."""

    reason: str
    restores: int = 0
    """A branch's restores on the worker (one)."""
    finished: bool = False
    """A branch was played to its end (not stopped by an infrastructure error)."""


@dataclass(frozen=True)
class Failed:
    """The episode raised what stops a run (a config mistake); the driver raises it."""

    error: BaseException


Record = Appended | Perturbed | Ended | Failed


@dataclass(frozen=True, kw_only=True)
class ResumePoint:
    """What a worker needs to continue an episode from its stored leaf (after a resume)."""

    path: tuple[StoredEvent, ...]
    """The stored path to the leaf as every view reads it (secrets cut out)."""
    exact: tuple[bytes, ...]
    """Each event of `path` as played (`read_path(..., exact=True)`), sealed (`seal`)."""
    blobs: Mapping[str, bytes]
    """The state blobs of the path's last snapshot, by hash, as stored (masked)."""


@dataclass(frozen=True, kw_only=True)
class BranchWork:
    """A recorded DIVERT branch for a worker: restore it at its leaf, play it to its end."""

    plan: EpisodePlan
    at: ResumePoint
    """The stored path to the branch's leaf (its parent's fork, unless it was resumed)."""
    injected: bytes | None
    """The recorded action (and user state) it plays first, sealed JSON; `None` once played."""
    branch: BranchView
    """The branch's record as stored (the episode's judgment reads its injected user state)."""


class StreamingStore(Store):
    """The store as one episode on a worker sees it: writes are queued for the driver.

    Only what playing an episode uses is served: appending events, recording drawn
    perturbations, the episode's own row (and branch record), and the path and state blobs it
    resumes from. Anything else is a `StoreError` (the in-memory database has no tables).
    """

    def __init__(
        self,
        plan: EpisodePlan,
        secrets: Iterable[str],
        resume_at: ResumePoint | None,
        emit: Callable[[str, Record], None],
        branch: BranchView | None = None,
    ) -> None:
        super().__init__(sqlite3.connect(":memory:"), path="ray-worker")
        self.add_secrets(secrets)
        self.plan = plan
        self._branch = branch
        self.emit = emit
        """Takes each write, with the episode's id, for the driver."""
        self._resume_at = resume_at
        self._next_id = -1

    def _write_all(self, writes: Sequence[Append], now: float) -> list[int | None]:
        # Nothing is written here: each write goes to the driver, which commits it.
        return [self._append(write, now) for write in writes]

    def _append(self, write: Append, now: float) -> int | None:
        parent_id, events, status, stop_reason = (
            write.parent_id, write.events, write.status, write.stop_reason
        )  # fmt: skip
        leaf = parent_id
        if events:
            leaf, self._next_id = self._next_id, self._next_id - 1
        self.emit(
            self.plan.episode_id,
            Appended(
                parent_id=parent_id, calls=tuple(write.calls),
                events=tuple((turn, seal(event, self.secrets)) for turn, event in events),
                blobs=tuple(write.blobs), status=status, stop_reason=stop_reason, leaf=leaf,
            ),
        )  # fmt: skip
        turns = events[-1][0] if events else self.plan.turns
        self.plan = replace(
            self.plan, leaf_event_id=leaf, turns=turns, status=status, stop_reason=stop_reason
        )
        return leaf

    def set_perturbations(self, episode_id: str, drawn: Sequence[Mapping[str, Any]]) -> None:
        self.emit(self.plan.episode_id, Perturbed(tuple(dict(d) for d in drawn)))

    def episode(self, episode_id: str) -> EpisodePlan:
        if episode_id != self.plan.episode_id:
            raise StoreError(f"episode {episode_id!r} is not played on this worker")
        return self.plan

    def branch(self, episode_id: str) -> BranchView:
        if self._branch is None or self._branch.episode_id != episode_id:
            raise StoreError(f"branch {episode_id!r} is not played on this worker")
        return self._branch

    def read_path(self, leaf_event_id: int, *, exact: bool = False) -> list[StoredEvent]:
        point = self._resume_at
        if point is None or not point.path or point.path[-1].id != leaf_event_id:
            raise StoreError(f"event {leaf_event_id} was not sent to this worker")
        if not exact:
            return list(point.path)
        return [
            replace(stored, event=unseal(sealed, self.secrets))
            for stored, sealed in zip(point.path, point.exact, strict=True)
        ]

    def get_blob(self, digest: str) -> bytes:
        blobs = self._resume_at.blobs if self._resume_at is not None else {}
        if digest not in blobs:
            raise StoreError(f"blob {digest[:12]}… was not sent to this worker")
        return blobs[digest]


class EpisodeWorker:
    """Plays the episodes of one run that the driver hands it, many at once (an async actor)."""

    def __init__(
        self, config: RunConfig, run_id: str, roots: dict[str, tuple[int, Scenario]], store: str
    ) -> None:
        from pathlib import Path

        self.config, self.run_id, self.roots = config, run_id, roots
        self.secrets = known_secrets(config, os.environ)  # this machine's keys, never sent
        self.settings = settings_of(config)
        self.parts: Parts | BaseException
        self.pool: BrowserPool | None = None
        """The worker's own browser for `ui`/`hybrid` episodes (launched by the first one)."""
        try:
            load_ahead(config)
            self.parts = build_parts(config, store_path=Path(store), domain=self.settings.domain)
            if config.run.mode in ("ui", "hybrid"):
                # A browser cannot cross processes: each worker drives its own Chromium, and
                # each web episode serves its site on the worker's loopback, as locally.
                self.pool = open_pool(config)
        except Exception as exc:  # reported with the first episode, as the driver would
            self.parts = exc

    async def play_all(
        self,
        plans: list[EpisodePlan],
        resume_at: dict[str, ResumePoint],
        concurrency: int,
    ) -> AsyncIterator[list[tuple[str, Record]]]:
        """Play `plans`, `concurrency` at a time; yield their writes as they happen, in batches.

        A batch is every write made since the last one was taken: one per turn when the driver
        keeps up, more when it does not (each Ray object costs the same, whatever its size).
        Each episode's writes come in order and end with `Ended` (or `Failed`).
        """
        limiter = asyncio.Semaphore(concurrency)
        jobs = [partial(self._play_one, p, resume_at.get(p.episode_id), limiter) for p in plans]
        async for batch in self._stream(jobs):
            yield batch

    async def play_branch(self, work: BranchWork) -> AsyncIterator[list[tuple[str, Record]]]:
        """Restore a branch once, play it as the local executor does; yield its writes."""
        async for batch in self._stream([partial(self._play_branch, work)]):
            yield batch

    async def _stream(
        self, jobs: Sequence[Callable[[_Outbox], Coroutine[Any, Any, None]]]
    ) -> AsyncIterator[list[tuple[str, Record]]]:
        if isinstance(self.parts, BaseException):
            yield [("", Failed(_portable(self.parts)))]
            return
        outbox = _Outbox()
        tasks = [asyncio.create_task(job(outbox)) for job in jobs]
        playing = len(jobs)
        try:
            while playing:
                batch = await outbox.take()
                yield batch
                if any(isinstance(record, Failed) for _, record in batch):
                    return
                playing -= sum(isinstance(record, Ended) for _, record in batch)
        finally:
            for task in tasks:
                task.cancel()

    async def _play_one(
        self,
        plan: EpisodePlan,
        resume_at: ResumePoint | None,
        limiter: asyncio.Semaphore,
        outbox: _Outbox,
    ) -> None:
        async with limiter:
            with StreamingStore(plan, self.secrets, resume_at, outbox.put) as store:
                try:
                    outbox.put(plan.episode_id, Ended(await play_one(self._runner(store), plan)))
                except Exception as exc:
                    outbox.put(plan.episode_id, Failed(_portable(exc)))

    async def _play_branch(self, work: BranchWork, outbox: _Outbox) -> None:
        plan, secrets = work.plan, self.secrets
        injected = (
            None if work.injected is None else json.loads(unmask_state(work.injected, secrets))
        )
        with StreamingStore(plan, secrets, work.at, outbox.put, work.branch) as store:
            runner, ended = self._runner(store), Ended("")

            async def body() -> str:
                nonlocal ended
                assert plan.leaf_event_id is not None  # a branch starts at its fork
                async with open_episode(runner, plan, self.roots[plan.scenario_id][1]) as ep:
                    # The replay's note, if any, is recorded as the branch's own.
                    state, stop = await resume(ep, plan.leaf_event_id)
                    ended = Ended("", restores=ep.restores)
                    if injected is not None:
                        ep.first_action = (
                            action_from_json(injected["action"]),
                            injected.get("user_state"),
                        )
                    stop = await play(ep, state, timeout_s=self.settings.timeout_s, stop=stop)
                    ended = Ended(stop.reason.value, ep.restores, True)
                    return ended.reason

            try:
                reason = await guarded(runner, plan, body)
                outbox.put(plan.episode_id, replace(ended, reason=reason))
            except Exception as exc:
                outbox.put(plan.episode_id, Failed(_portable(exc)))

    def _runner(self, store: Store) -> Runner:
        assert isinstance(self.parts, Parts)
        return Runner(
            db=store, run_id=self.run_id, config=self.config, settings=self.settings,
            parts=self.parts, pool=self.pool, roots=self.roots,
        )  # fmt: skip

    async def aclose(self) -> None:
        """Close the worker's browser, model cache and HTTP clients."""
        if self.pool is not None:
            await self.pool.aclose()
        if isinstance(self.parts, Parts):
            if self.parts.cache is not None:
                self.parts.cache.close()
            if self.parts.clients is not None:
                await self.parts.clients.aclose()


def seal(event: Event, secrets: Iterable[str]) -> bytes:
    """An event as JSON for the trip between worker and driver, each secret in it masked.

    Ray's object store is no place for a key an agent echoed: the masks (`mask_state`) are
    undone by `unseal` on the other side, with the secrets that side holds.
    """
    return mask_state(event.model_dump_json().encode(), secrets)


def seal_json(value: JsonValue, secrets: Iterable[str]) -> bytes:
    """`value` as JSON for the trip between driver and worker, each secret in it masked."""
    return mask_state(json.dumps(value).encode(), secrets)


def unseal(data: bytes, secrets: Iterable[str]) -> Event:
    """The event `seal` sent (a secret this side does not hold stays masked)."""
    return EVENT_ADAPTER.validate_json(unmask_state(data, secrets))


class _Outbox:
    """The writes of a worker's episodes, waiting to be sent to the driver."""

    def __init__(self) -> None:
        self.records: list[tuple[str, Record]] = []
        self._ready = asyncio.Event()

    def put(self, episode_id: str, record: Record) -> None:
        self.records.append((episode_id, record))
        self._ready.set()

    async def take(self) -> list[tuple[str, Record]]:
        """Every write waiting, once there is at least one."""
        await self._ready.wait()
        self._ready.clear()
        batch, self.records = self.records, []
        return batch


def _portable(exc: BaseException) -> BaseException:
    """`exc` if it survives the trip to the driver, else a `VistasimError` saying what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        if isinstance(exc, VistasimError):
            return VistasimError(str(exc))
        return RuntimeError(f"{type(exc).__name__}: {exc}")  # a bug stays a bug
    return exc
