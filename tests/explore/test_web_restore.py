"""Resuming a ui/hybrid episode from any inner snapshot continues exactly as the original did.

Each resume replays the rest of an episode in a browser, so each mode resumes from every other
inner snapshot: ui from the 1st, 3rd, ..., hybrid from the 2nd, 4th, ... (the two modes play the
same scenarios, so between them every position is resumed from, at half the test time).

The agenda user is deterministic given its state and the rule agents are deterministic, so a
copy of a finished episode resumed from one of its snapshots (environment, browser page, the
built-in site's sessions and the widget adapter all restored) must record the same events after
that snapshot as the original, and the same browser and environment states at each later turn.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from typing import Any

import pytest

from vistasim.browser import find_chromium
from vistasim.config import RunConfig
from vistasim.domains import get_domain
from vistasim.errors import BrowserError
from vistasim.events import Snapshot
from vistasim.explore import run
from vistasim.store import open_store
from vistasim.store._store import Store
from vistasim.store._view import StoredEvent

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Between them: chat, API calls, logins, typed and picked form input, a refused form post whose
# answer page stays on screen, and chat after pages.
_SCENARIOS = {
    "shop": [
        "shop-hybrid-refund-coupon-status",
        "shop-return-late-refused",
        "shop-cancel-shipped-refused",
    ],
    "school": [
        "school-reschedule-conflict-free",
        "school-wrong-email-not-verified",
        "school-waive-first-late-fee",
    ],
}
_AGENTS = {"shop": "RuleShopAgent", "school": "RuleSchoolAgent"}
_TIMING = {"latency_s", "created_at", "screenshot_ref"}
_PORT = re.compile(r"127\.0\.0\.1:\d+")


@pytest.fixture(scope="module", autouse=True)
def chromium() -> str:
    try:
        return find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")


def _config(domain: str, mode: str) -> RunConfig:
    return RunConfig.model_validate({
        "run": {"mode": mode, "rollouts": 1, "concurrency": 2},
        "agent": {"kind": "python", "target": f"vistasim.domains.{domain}:{_AGENTS[domain]}"},
        "environment": {"target": domain},
        "cache": {"mode": "off"},
    })  # fmt: skip


def _copy_from(store: Store, run_id: str, episode_id: str, snapshot: StoredEvent) -> str:
    """A new running episode of the run that continues from `snapshot` (resumed by `run`)."""
    copy_id = f"{episode_id}~from{snapshot.id}"
    store.db.execute(
        "INSERT INTO episodes (id, run_id, scenario_id, rollout, mode, status, leaf_event_id,"
        " turns) SELECT ?, run_id, scenario_id, rollout, mode, 'running', ?, ? FROM episodes"
        " WHERE id = ?",
        (copy_id, snapshot.id, snapshot.turn, episode_id),
    )
    store.db.execute(
        "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?", (run_id,)
    )
    store.db.commit()
    return copy_id


def _comparable(store: Store, stored: StoredEvent) -> tuple[str, int, Any]:
    """An event as kind, turn and payload without timing, ports and blob hashes (blobs inlined)."""
    payload = stored.event.model_dump(mode="json")
    for key in _TIMING:
        payload.pop(key, None)
    if isinstance(stored.event, Snapshot):
        for key in ("env_state_ref", "agent_state_ref", "browser_state_ref"):
            ref = payload.pop(key)
            blob = store.get_blob(ref) if ref else None
            if key == "browser_state_ref" and blob is not None:
                payload[key] = json.loads(_PORT.sub("127.0.0.1:PORT", blob.decode()))
            else:
                payload[key] = _rows(blob)
    text = _PORT.sub("127.0.0.1:PORT", json.dumps(payload, sort_keys=True))
    return stored.event.kind, stored.turn, json.loads(text)


def _rows(blob: bytes | None) -> Any:
    """An environment blob as comparable data: a SQLite file as its SQL dump."""
    if blob is None or not blob.startswith(b"SQLite format 3"):
        return blob and blob.decode("latin-1")
    db = sqlite3.connect(":memory:")
    db.deserialize(blob)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def _after(store: Store, leaf: int, snapshot_id: int) -> list[tuple[str, int, Any]]:
    path = store.read_path(leaf)
    ids = [s.id for s in path]
    return [_comparable(store, s) for s in path[ids.index(snapshot_id) + 1 :]]


def _diff(got: Any, want: Any, where: str = "") -> str:
    """Where two values first differ, and how."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want)):
            if got.get(key) != want.get(key):
                return _diff(got.get(key), want.get(key), f"{where}.{key}")
    if isinstance(got, list | tuple) and isinstance(want, list | tuple) and len(got) == len(want):
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            if g != w:
                return _diff(g, w, f"{where}[{i}]")
    return f"{where}: got {str(got)[:300]} want {str(want)[:300]}"


async def _same_action_restores(
    tmp_path, domain: str, mode: str, first: int
) -> tuple[int, list[str]]:
    """Resume a copy from every other inner snapshot of every episode, from the `first`th one;
    return (count, mismatches)."""
    by_id = {s.id: s for s in get_domain(domain).scenarios()}
    scenarios = [by_id[i] for i in _SCENARIOS[domain]]
    store = open_store(tmp_path / "v.db")
    result = await run(_config(domain, mode), scenarios=scenarios, store=store)
    originals = store.list_episodes(result.run_id)
    assert all(p.status == "done" for p in originals), [p.stop_reason for p in originals]
    copies: dict[str, tuple[str, int]] = {}
    for plan in originals:
        assert plan.leaf_event_id is not None
        path = store.read_path(plan.leaf_event_id)
        snapshots = [s for s in path if isinstance(s.event, Snapshot)]
        for snapshot in snapshots[1:-1][first::2]:
            copies[_copy_from(store, result.run_id, plan.episode_id, snapshot)] = (
                plan.episode_id,
                snapshot.id,
            )
    await run(resume=result.run_id, store=store)
    plans = {p.episode_id: p for p in store.list_episodes(result.run_id)}
    mismatches, kinds = [], Counter[str]()
    for copy_id, (original_id, snapshot_id) in copies.items():
        copy, original = plans[copy_id], plans[original_id]
        assert copy.leaf_event_id is not None and original.leaf_event_id is not None
        got = _after(store, copy.leaf_event_id, snapshot_id)
        want = _after(store, original.leaf_event_id, snapshot_id)
        kinds.update(kind for kind, _, _ in want)
        if got != want:
            first = next(
                (i for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w),
                min(len(got), len(want)),
            )
            detail = _diff(got[first:first + 1], want[first:first + 1])  # fmt: skip
            mismatches.append(f"{copy_id} ({copy.stop_reason}) at event {first}: {detail}")
    store.close()
    print(f"{domain} {mode}: continuations hold {dict(kinds)}")
    return len(copies), mismatches


@pytest.mark.parametrize("domain", ["shop", "school"])
async def test_hybrid_resume_from_even_inner_snapshots_equals_the_original(tmp_path, domain):
    count, mismatches = await _same_action_restores(tmp_path, domain, "hybrid", 1)
    print(f"{domain} hybrid: {count - len(mismatches)}/{count} snapshots")
    assert count > 0
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("domain", ["shop", "school"])
async def test_ui_resume_from_odd_inner_snapshots_equals_the_original(tmp_path, domain):
    count, mismatches = await _same_action_restores(tmp_path, domain, "ui", 0)
    print(f"{domain} ui: {count - len(mismatches)}/{count} snapshots")
    assert count > 0
    assert not mismatches, "\n".join(mismatches)
