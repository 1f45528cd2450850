"""tau2 databases shared copy-on-write, hashed from cached pieces: the agreement test's speed-up.

tau2's evaluator builds the domain's database from JSON twice per grading and hashes it whole
(sha256 of `json.dumps(db.model_dump(), sort_keys=True, default=str)`), ~0.25 s and ~0.1 s for
airline's. `fast_tau2()` makes both cheap for airline and retail, on both sides of the agreement:
- every environment (tau2's, built by its registry's constructor, and ours) gets a database whose
  top-level collections are `CowDict`s over one pristine database loaded once per process: a record
  is deep-copied the first time a tool gets it by id;
- the hash is the same sha256 of the same string, joined from per-record JSON pieces: a record
  never got keeps the piece cached from the pristine database; every other one is dumped anew.
The rewards are still computed by tau2's evaluator and by ours, unchanged. test_fastdb.py checks
the equivalence (the same states and the same hashes as tau2's own loading and hashing), and
`fast_tau2` fails on leaving if any pristine record was written.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from pydantic import BaseModel

SHARED_DOMAINS = ("airline", "retail")
"""Domains whose database is big enough to share (mock's and telecom's cost nothing to build)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class CowDict(dict[str, Any]):
    """A collection of records over a pristine one: a record is copied the first time it is got.

    Getting a value (`[]`, `get`, `pop`, `setdefault`, `copy`, pickling) goes through
    `__getitem__`, which hands out this collection's own copy. Iterating (`values`, `items`) hands
    out the records as they are, pristine ones included: tau2's tools only iterate to search
    (airline's flights, retail's users and products), and copying 300 flights per search would
    cost more than the copy-on-write saves. That no tool writes a pristine record is checked, not
    assumed: `fast_tau2` fails when the pristine database no longer dumps to its cached pieces.
    `owned` are the keys whose value is no longer the pristine record (copied, set or deleted).
    """

    def __init__(self, pristine: dict[str, Any], pieces: Callable[[], dict[str, str]]) -> None:
        super().__init__(pristine)
        self.owned: set[str] = set()
        self.pieces = pieces
        """The pristine collection's `pristine_pieces` (cached once per process)."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key not in self.owned:
            value = copy.deepcopy(value)
            super().__setitem__(key, value)
            self.owned.add(key)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self.owned.add(key)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self.owned.add(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def pop(self, key: str, *default: Any) -> Any:
        if key not in self:
            return dict.pop(self, key, *default)
        value = self[key]
        del self[key]
        return value

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def copy(self) -> dict[str, Any]:
        return {key: self[key] for key in self}

    def __reduce_ex__(self, protocol: Any) -> Any:
        # pickle and deepcopy: a plain dict of this collection's own copies
        return (dict, (self.copy(),))

    def popitem(self) -> Any:
        raise NotImplementedError("CowDict.popitem: no tau2 tool uses it")

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def json(self) -> str:
        """`json.dumps(<this dict's model_dump()>, sort_keys=True, default=str)`, from pieces."""
        pristine = self.pieces()
        if not self.owned:
            return pristine[WHOLE]
        entries = [
            _entry(key, dict.__getitem__(self, key)) if key in self.owned else pristine[key]
            for key in sorted(self)
        ]
        return "{" + ", ".join(entries) + "}"


WHOLE = ""
"""The key, in a collection's pieces, of the whole pristine collection's JSON (tau2 ids are
never empty)."""


def _entry(key: str, value: Any) -> str:
    """One `"key": value` entry of a collection's JSON."""
    return f"{json.dumps(key)}: {_dumps(_dump(value))}"


def _dump(value: Any) -> Any:
    return value.model_dump() if isinstance(value, BaseModel) else value


@cache
def pristine_db(domain: str) -> BaseModel:
    """The domain's database as tau2 loads it, once per process; never handed out itself."""
    from tau2.registry import registry

    db: BaseModel = registry.get_env_constructor(domain)().tools.db
    return db


@cache
def pristine_pieces(domain: str, field: str) -> dict[str, str]:
    """Every record's JSON entry in one pristine collection, by key; the whole one at `WHOLE`."""
    records: dict[str, Any] = getattr(pristine_db(domain), field)
    assert WHOLE not in records
    pieces = {key: _entry(key, record) for key, record in records.items()}
    pieces[WHOLE] = "{" + ", ".join(pieces[key] for key in sorted(records)) + "}"
    return pieces


def shared_db(domain: str) -> BaseModel:
    """A database equal to a freshly loaded one, sharing the pristine records until read."""
    pristine = pristine_db(domain)
    fields = {
        name: CowDict(getattr(pristine, name), lambda name=name: pristine_pieces(domain, name))
        for name in type(pristine).model_fields
    }
    return type(pristine).model_construct(**fields)


def db_json(db: BaseModel) -> str | None:
    """tau2's hash string of a `shared_db` database (None: not one, or no longer one)."""
    names = sorted(type(db).model_fields)
    fields = [getattr(db, name) for name in names]
    if not all(isinstance(field, CowDict) for field in fields):
        return None
    parts = [
        f"{json.dumps(name)}: {field.json()}" for name, field in zip(names, fields, strict=True)
    ]
    return "{" + ", ".join(parts) + "}"


def untouched(domain: str) -> bool:
    """Whether the pristine database still dumps to the pieces first cached from it."""
    db = pristine_db(domain)
    for name in type(db).model_fields:
        pieces = dict(pristine_pieces(domain, name))
        del pieces[WHOLE]
        if pieces != {key: _entry(key, value) for key, value in getattr(db, name).items()}:
            return False
    return True


@contextmanager
def fast_tau2() -> Iterator[None]:
    """Inside: airline's and retail's environments share their database and hash from pieces.

    Patched: tau2's registry constructors (what its evaluator builds), vistasim's
    `fresh_environment` (what ours builds), and tau2's `ToolKitBase.get_db_hash` (both sides).
    """
    import pytest
    from tau2.environment.toolkit import ToolKitBase
    from tau2.registry import registry

    original_hash = ToolKitBase.get_db_hash

    def get_db_hash(toolkit: Any) -> str:
        text = db_json(toolkit.db) if toolkit.db is not None else None
        if text is None:
            return original_hash(toolkit)
        return hashlib.sha256(text.encode()).hexdigest()

    with pytest.MonkeyPatch.context() as patch:
        for domain in SHARED_DOMAINS:
            for field in type(pristine_db(domain)).model_fields:  # cached before any episode
                pristine_pieces(domain, field)
            patch.setitem(registry._domains, domain, _shared_constructor(domain))
        patch.setattr(ToolKitBase, "get_db_hash", get_db_hash)
        patch.setattr("vistasim.env._tau2.fresh_environment", _fresh_environment)
        yield
    for domain in SHARED_DOMAINS:
        assert untouched(domain), f"a {domain} tool reached a pristine record: results invalid"


def _shared_constructor(domain: str) -> Callable[..., Any]:
    from tau2.registry import registry

    build = registry.get_env_constructor(domain)

    def construct(solo_mode: bool = False) -> Any:
        return build(db=shared_db(domain), solo_mode=solo_mode)

    return construct


def _fresh_environment(domain: str) -> Any:
    from tau2.registry import registry

    return registry.get_env_constructor(domain)()
