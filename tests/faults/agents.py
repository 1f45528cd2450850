"""Misbehaving agents and environments, importable as `tests.faults.agents:<name>`.

Each one breaks in one hook of user code; the line that raises is marked so tests can check the
episode's detail points at it.
"""

from __future__ import annotations

import base64
import os
import sqlite3
import threading
import time
from typing import Any

from vistasim.agent import Reply, Turn
from vistasim.demo import OrderBook, OrderDeskAgent
from vistasim.events import ToolCall


class SnapshotRaises(OrderDeskAgent):
    """Breaks in `snapshot()` on the second snapshot (the first is taken before turn 1)."""

    def __init__(self, env: OrderBook) -> None:
        super().__init__(env)
        self.snapshots = 0

    def snapshot(self) -> dict[str, Any]:
        self.snapshots += 1
        if self.snapshots >= 2:
            raise RuntimeError("snapshot store offline")  # SNAPSHOT-RAISES
        return super().snapshot()


class SnapshotNotJson(OrderDeskAgent):
    """Returns state that is not JSON (a set) from `snapshot()`."""

    def snapshot(self) -> dict[str, Any]:
        return {"skus": {"BLEND-1"}}


class SnapshotRaisesAtStart(OrderDeskAgent):
    """Breaks in the very first `snapshot()`, before the first user turn."""

    def snapshot(self) -> dict[str, Any]:
        raise ValueError("no state yet")  # START-RAISES


class RestoreRaises(OrderDeskAgent):
    """Breaks in `restore()`, so a resumed episode cannot bring it back (slow, to be stopped)."""

    def respond(self, turn: Turn) -> Reply:
        time.sleep(0.05)
        return super().respond(turn)

    def restore(self, state: dict[str, Any]) -> None:
        raise KeyError("intent")  # RESTORE-RAISES


class CloseRaises(OrderDeskAgent):
    """Breaks in `close()`, after its episode has played."""

    def close(self) -> None:
        raise OSError("socket already closed")  # CLOSE-RAISES


class BrokenBook(OrderBook):
    """An environment whose `lexicon()` hook raises (it is asked before every user turn)."""

    def lexicon(self) -> dict[str, list[str]]:
        raise ZeroDivisionError("tracking service divided by zero")  # LEXICON-RAISES


BOOKS_MADE = [0]


def book_factory_that_breaks() -> OrderBook:
    """An environment factory that works once (the run's set-up), then raises for each episode."""
    BOOKS_MADE[0] += 1
    if BOOKS_MADE[0] > 1:
        raise ConnectionError("seed database unreachable")  # FACTORY-RAISES
    return OrderBook()


def hangs_forever(turn: Turn) -> str:
    """A sync agent that never answers (a deadlocked client library)."""
    threading.Event().wait()
    return "never"


async def blocks_the_loop(turn: Turn) -> str:
    """An async agent that blocks the event loop with sync sleep, then answers late."""
    time.sleep(0.6)
    return "a late reply that must not be stored as normal"


def echoes_secret(turn: Turn) -> Reply:
    """Leaks the key it was configured with in its reply and in a tool result."""
    key = os.environ["FAULTS_SECRET_KEY"]
    tool = {"name": "lookup", "args": {"q": turn.message}, "result": {"token": key}}
    return Reply(text=f"Your API key is {key}.", tool_calls=(_tool(tool),))


def huge_reply(turn: Turn) -> Reply:
    """Answers with a 3 MB reply and a 3 MB tool result."""
    tool = {"name": "dump", "args": {}, "result": {"rows": "x" * 3_000_000}}
    return Reply(text="y" * 3_000_000, tool_calls=(_tool(tool),))


class NeedsOption:
    """A class whose __init__ needs an option the config does not give."""

    def __init__(self, greeting: str) -> None:
        self.greeting = greeting

    def respond(self, turn: Turn) -> str:
        return self.greeting


STATE_KEY = "sk-state-secret-0123456789abcdef"
"""The key `KeyedDesk` and `KeyedBook` keep in their state (the test exports it as a variable)."""
RESTORED: list[tuple[str, object]] = []
"""What each restore brought back: ("agent", its state) and ("env", the notes row)."""


def spellings(key: str) -> str:
    """The key as is, shouted, and inside a Basic credential (base64 of `user:key`)."""
    return f"{key} {key.upper()} {base64.b64encode(f'user:{key}'.encode()).decode()}"


class KeyedDesk(OrderDeskAgent):
    """The order desk, keeping the key it was configured with (three spellings) in its state."""

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "key": spellings(os.environ["FAULTS_STATE_KEY"])}

    def restore(self, state: dict[str, Any]) -> None:
        RESTORED.append(("agent", state["key"]))
        super().restore({k: v for k, v in state.items() if k != "key"})


class KeyedBook(OrderBook):
    """The order book with a table holding the key (three spellings) in its records."""

    SCHEMA_SQL = OrderBook.SCHEMA_SQL + "\nCREATE TABLE notes (text TEXT NOT NULL);\n"

    def seed(self, db: sqlite3.Connection) -> None:
        super().seed(db)
        db.execute("INSERT INTO notes VALUES (?)", (spellings(STATE_KEY),))

    def restore(self, state: bytes) -> None:
        super().restore(state)
        RESTORED.append(("env", self.db.execute("SELECT text FROM notes").fetchone()[0]))


def _tool(item: dict[str, Any]) -> ToolCall:
    return ToolCall(**item)
