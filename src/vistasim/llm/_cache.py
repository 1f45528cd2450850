"""The record/replay cache of model calls: reruns cost nothing and replay runs are deterministic.

A response is stored under the sha256 of the canonical JSON of the model name and the request,
so any change to the prompt, tools or sampling parameters misses. Credentials are never part of
a request, so they are never part of a key or a row. SQLite in WAL mode lets several processes
share one file; a busy timeout absorbs their write contention.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from vistasim._secrets import redact_json
from vistasim.errors import ConfigError
from vistasim.llm._types import ChatRequest, ChatResponse, ModelCallFailed

CacheMode = Literal["off", "read_write", "replay"]
_MODES = ("off", "read_write", "replay")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,      -- sha256 of canonical JSON {"model", "request"}
    model TEXT NOT NULL,       -- model name the request was sent to
    request TEXT NOT NULL,     -- canonical request JSON, for inspection
    response TEXT NOT NULL,    -- ChatResponse JSON
    created_at REAL NOT NULL   -- unix time of the recording
)
"""


def request_key(model_name: str, request: ChatRequest) -> str:
    """Return the cache key of a request: sha256 of its canonical JSON with the model name."""
    return hashlib.sha256(_canonical(model_name, request).encode()).hexdigest()


def _canonical(model_name: str, request: ChatRequest) -> str:
    payload = {"model": model_name, "request": request.model_dump(mode="json")}
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class RequestCache:
    """Responses by request, in a SQLite file.

    Modes: `off` stores and finds nothing (and opens no file); `read_write` returns hits and
    records misses; `replay` returns hits and fails every miss instead of calling the model.
    Methods are synchronous and short, so tasks of one event loop never interleave inside them.
    """

    def __init__(
        self, path: Path, *, mode: CacheMode = "read_write", secrets: Sequence[str] = ()
    ) -> None:
        if mode not in _MODES:
            raise ConfigError(f"unknown cache mode {mode!r}; use one of {_MODES}", key="cache.mode")
        self.path = Path(path)
        self.mode: CacheMode = mode
        self.secrets = tuple(secrets)
        """Values masked in the stored rows (the key is computed before masking)."""
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if mode != "off":
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.commit()
        except sqlite3.DatabaseError as exc:
            raise ConfigError(
                f"cannot open the model cache {str(self.path)!r} ({exc}); delete the file or "
                "set cache.path to another file",
                key="cache.path",
            ) from None
        return db

    def get(self, model_name: str, request: ChatRequest) -> ChatResponse | None:
        """Return the recorded response, or None on a miss (replay mode: raise on a miss).

        Raises:
            ModelCallFailed: in replay mode, when the request was never recorded (not retryable).
        """
        if self._db is None:
            return None
        key = request_key(model_name, request)
        with self._lock:
            query = self._db.execute("SELECT response FROM responses WHERE key = ?", (key,))
            row = query.fetchone()
        if row is not None:
            return ChatResponse.model_validate_json(row[0])
        if self.mode == "replay":
            raise ModelCallFailed(
                f"request {key[:12]} for model {model_name!r} is not in the cache (replay mode) "
                f"at {str(self.path)!r}; rerun with cache mode 'read_write' to record it",
                retryable=False,
            )
        return None

    def put(self, model_name: str, request: ChatRequest, response: ChatResponse) -> None:
        """Record a response (no-op when the cache is off or in replay mode)."""
        if self._db is None or self.mode != "read_write":
            return
        row = (
            request_key(model_name, request),
            model_name,
            redact_json(_canonical(model_name, request), self.secrets),
            redact_json(response.model_dump_json(), self.secrets),
            time.time(),
        )
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)", row)
            self._db.commit()

    def close(self) -> None:
        """Close the file; the cache answers nothing afterwards."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> RequestCache:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
