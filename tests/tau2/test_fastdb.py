"""The agreement test's shared databases give tau2's own states and hashes (fastdb.py)."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

pytest.importorskip("tau2", reason="the tau2 extra is not installed (see README)")

from tests.tau2.agreement import Call, extra_write, gold_calls, wrong_argument  # noqa: E402
from tests.tau2.fastdb import (  # noqa: E402
    SHARED_DOMAINS,
    CowDict,
    fast_tau2,
    pristine_db,
    untouched,
)
from vistasim.tau2 import Tau2Environment, tasks  # noqa: E402

PER_DOMAIN = 3


@pytest.fixture(scope="module")
def tau2_builds() -> Iterator[dict[str, Any]]:
    """tau2's own constructors, taken before `fast_tau2` replaces them, used inside it."""
    from tau2.registry import registry

    builds = {domain: registry.get_env_constructor(domain) for domain in SHARED_DOMAINS}
    with fast_tau2():
        yield builds


def _sample() -> list[tuple[str, str]]:
    cases = []
    for domain in SHARED_DOMAINS:
        ids = sorted(tasks(domain))
        cases += [(domain, t) for t in ids[:: len(ids) // PER_DOMAIN][:PER_DOMAIN]]
    return cases


def _replayed(env: Any, calls: list[Call]) -> Any:
    for requestor, name, args in calls:
        try:
            env.make_tool_call(name, requestor=requestor, **args)
        except Exception:  # noqa: BLE001, S112 - a failing call changes nothing, on both sides
            continue
    return env


@cache
def _pristine_hash(domain: str) -> str:
    from tau2.utils import get_pydantic_hash

    hashed: str = get_pydantic_hash(pristine_db(domain))
    return hashed


@pytest.mark.parametrize(("domain", "task_id"), _sample())
def test_shared_database_ends_in_tau2s_state_with_tau2s_hash(
    tau2_builds: dict[str, Any], domain: str, task_id: str
) -> None:
    from tau2.registry import registry
    from tau2.utils import get_pydantic_hash

    gold = gold_calls(domain, task_id)
    for calls in (gold, wrong_argument(gold), extra_write(domain, gold)):
        if calls is None:
            continue
        fresh = _replayed(tau2_builds[domain](), calls)
        shared = _replayed(registry.get_env_constructor(domain)(), calls)
        assert shared.tools.db.model_dump() == fresh.tools.db.model_dump()
        assert shared.get_db_hash() == get_pydantic_hash(fresh.tools.db)
    writes = [name for _, name, _ in gold if Tau2Environment(domain).is_write(name)]
    gold_state = registry.get_env_constructor(domain)()
    changed = _replayed(gold_state, gold).get_db_hash() != _pristine_hash(domain)
    assert changed == bool(writes)  # the states compared above are not all the pristine one


def test_ours_is_built_on_a_shared_database_too(tau2_builds: dict[str, Any]) -> None:
    env = Tau2Environment("airline", sorted(tasks("airline"))[0])
    assert isinstance(env._env.tools.db.users, CowDict)


def test_a_record_got_is_a_copy_and_the_pristine_stays() -> None:
    pristine = {"a": {"n": 1}, "b": {"n": 2}}
    records = CowDict(pristine, lambda: {})
    records["a"]["n"] = 10
    records.pop("b")["n"] = 20
    records.setdefault("c", {"n": 3})
    assert pristine == {"a": {"n": 1}, "b": {"n": 2}}
    assert records == {"a": {"n": 10}, "c": {"n": 3}}
    assert records.owned == {"a", "b", "c"}
    assert records.get("missing") is None and records.pop("missing", 0) == 0


def test_a_pickled_or_copied_collection_is_a_plain_dict_of_copies() -> None:
    pristine = {"a": {"n": 1}}
    for copied in (
        pickle.loads(pickle.dumps(CowDict(pristine, dict))),
        CowDict(pristine, dict).copy(),
    ):
        assert type(copied) is dict and copied == pristine
        assert copied["a"] is not pristine["a"]


def test_a_write_to_a_pristine_record_is_caught(tau2_builds: dict[str, Any]) -> None:
    flight = next(iter(pristine_db("airline").flights.values()))  # type: ignore[attr-defined]
    origin = flight.origin
    flight.origin = "XXX"
    try:
        assert not untouched("airline")
    finally:
        flight.origin = origin
    assert untouched("airline")
