"""A base for environments whose state is one SQLite database.

Subclasses give the schema and seed data as SQL and declare tools as methods taking a pydantic
arguments model. The base validates arguments, runs each call in a savepoint (a failing call leaves
no partial write), and snapshots the whole database as bytes with SQLite's serialize API, so a
snapshot is a value and restore is exact.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, JsonValue, ValidationError

from vistasim.env._changes import diff_sqlite
from vistasim.env._types import ToolOutcome
from vistasim.events import StateChange
from vistasim.llm._types import ToolSpec
from vistasim.scenario import Scalar

__all__ = ["SqliteEnvironment", "ToolFailure", "tool"]

ArgsT = TypeVar("ArgsT", bound=BaseModel)
Side = Literal["agent", "user"]


class ToolFailure(Exception):
    """Raised by a tool for an expected, realistic failure (policy refusal, unknown id)."""


@dataclass(frozen=True, kw_only=True)
class _ToolDef:
    name: str
    side: Side
    description: str
    args_model: type[BaseModel]
    method: Callable[..., Any]


def tool(
    description: str, *, side: Side = "agent", name: str | None = None
) -> Callable[[Callable[[Any, ArgsT], Any]], Callable[[Any, ArgsT], Any]]:
    """Declare a method `(self, args: ArgsModel) -> JSON` as an agent tool or a user-side API."""

    def mark(method: Callable[[Any, ArgsT], Any]) -> Callable[[Any, ArgsT], Any]:
        method.__vistasim_tool__ = (name or method.__name__, side, description)  # type: ignore[attr-defined]
        return method

    return mark


class SqliteEnvironment:
    """State in an in-memory SQLite database; tools declared with `@tool`.

    Subclasses set `SCHEMA_SQL`, implement `seed(db)` and may set `LEXICON`.
    """

    SCHEMA_SQL: ClassVar[str] = ""
    LEXICON: ClassVar[dict[str, list[str]]] = {}
    _seed_image: ClassVar[bytes | None] = None
    _tools: ClassVar[dict[str, _ToolDef]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._seed_image = None
        cls._tools = {}
        for klass in reversed(cls.__mro__):
            for attr in vars(klass).values():
                marker = getattr(attr, "__vistasim_tool__", None)
                if marker:
                    tool_name, side, description = marker
                    cls._tools[tool_name] = _ToolDef(
                        name=tool_name,
                        side=side,
                        description=description,
                        args_model=_args_model(attr),
                        method=attr,
                    )

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self._lock = threading.Lock()
        self.db.deserialize(self._seeded_image())
        self.db.execute("PRAGMA foreign_keys = ON")

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill a fresh database (schema already applied) with the seed data."""

    @classmethod
    def _seeded_image(cls) -> bytes:
        # Seeding runs once per class; every episode starts from a copy of the image.
        if cls._seed_image is None:
            db = sqlite3.connect(":memory:", isolation_level=None)
            db.executescript(cls.SCHEMA_SQL)
            db.execute("BEGIN")
            cls.seed(cls.__new__(cls), db)
            db.execute("COMMIT")
            cls._seed_image = db.serialize()
            db.close()
        return cls._seed_image

    def agent_tools(self) -> list[ToolSpec]:
        """Tools the agent under test may call."""
        return self._specs("agent")

    def user_tools(self) -> list[ToolSpec]:
        """User-side APIs the simulated user may call."""
        return self._specs("user")

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run an agent tool; bad input gives an error outcome and changes nothing."""
        return self.run_tool("agent", name, args)

    async def call_user_api(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run a user-side API; bad input gives an error outcome and changes nothing."""
        return self.run_tool("user", name, args)

    def run_tool(self, side: Side, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Validate and run one tool call inside a savepoint (synchronously)."""
        spec = self._tools.get(name)
        if spec is None or spec.side != side:
            known = ", ".join(sorted(t.name for t in self._tools.values() if t.side == side))
            return ToolOutcome(error=f"unknown tool {name!r}; available: {known}")
        try:
            # A model may send anything as args: a non-dict is validated as `{}`, so the error
            # names the fields the tool needs.
            raw: object = args
            parsed = spec.args_model.model_validate(raw if isinstance(raw, dict) else {})
        except ValidationError as exc:
            return ToolOutcome(error=f"invalid arguments for {name}: {_brief(exc)}")
        return self._run_in_savepoint(spec, parsed)

    def _run_in_savepoint(self, spec: _ToolDef, parsed: BaseModel) -> ToolOutcome:
        with self._lock:
            self.db.execute("SAVEPOINT tool_call")
            try:
                result = spec.method(self, parsed)
            except ToolFailure as exc:
                self.db.execute("ROLLBACK TO tool_call")
                self.db.execute("RELEASE tool_call")
                return ToolOutcome(error=str(exc))
            except Exception as exc:  # a bug in the domain must not corrupt the state
                self.db.execute("ROLLBACK TO tool_call")
                self.db.execute("RELEASE tool_call")
                return ToolOutcome(error=f"internal error in {spec.name}: {type(exc).__name__}")
            self.db.execute("RELEASE tool_call")
            return ToolOutcome(result=result)

    def select(self, table: str, where: dict[str, Scalar]) -> list[dict[str, JsonValue]]:
        """Rows of `table` whose columns equal `where` (names checked against the schema)."""
        columns = self._columns(table)
        unknown = [key for key in where if key not in columns]
        if unknown:
            raise KeyError(f"table {table!r} has no column {unknown[0]!r}; columns: {columns}")
        clause = " AND ".join(f'"{key}" = ?' for key in where) or "1"
        rows = self.db.execute(f'SELECT * FROM "{table}" WHERE {clause}', list(where.values()))
        return [dict(row) for row in rows]

    def snapshot(self) -> bytes:
        """The whole database as bytes."""
        with self._lock:
            return self.db.serialize()

    def restore(self, state: bytes) -> None:
        """Replace the database with a snapshot, exactly."""
        with self._lock:
            self.db.deserialize(state)
            self.db.execute("PRAGMA foreign_keys = ON")

    def diff_state(self, before: bytes, after: bytes) -> list[StateChange]:
        """The records that differ between two snapshots, table by table."""
        return diff_sqlite(before, after)

    def lexicon(self) -> dict[str, list[str]]:
        """Slot names and the phrases an agent uses to ask for them."""
        return dict(self.LEXICON)

    def _columns(self, table: str) -> list[str]:
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if table not in names:
            raise KeyError(f"no table {table!r}; tables: {sorted(names)}")
        return [row[1] for row in self.db.execute(f'PRAGMA table_info("{table}")')]

    def _specs(self, side: Side) -> list[ToolSpec]:
        return [
            ToolSpec(
                name=t.name,
                description=t.description,
                parameters=t.args_model.model_json_schema(),
            )
            for t in self._tools.values()
            if t.side == side
        ]


def _args_model(method: Callable[..., Any]) -> type[BaseModel]:
    import typing

    hints = typing.get_type_hints(method)
    hints.pop("return", None)
    model = next(iter(hints.values()), None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"tool {method.__name__} must take one pydantic model argument")
    return model


def _brief(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'args'}: {e['msg']}" for e in exc.errors()[:5]
    )
