"""A loopback OpenAI-compatible server, so the real client is tested over real HTTP without a key.

Written on raw asyncio streams rather than an ASGI stack: the engine benchmark keeps hundreds of
keep-alive connections busy at once, and a minimal HTTP/1.1 loop serves them with little CPU.
Responses are deterministic (a responder function), usage counts are rough (4 characters a token)
and prompt caching is simulated by remembering message prefixes already seen. `/v1/embeddings`
answers with a hashed bag of words, so texts that share words embed close together.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import inspect
import json
import math
import re
import struct
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from vistasim.testing._schema_example import example_for_schema
from vistasim.testing._tool_choice import forced_tool_call, requires_tool_call

Responder = Callable[[dict[str, Any]], "str | dict[str, Any] | Awaitable[str | dict[str, Any]]"]
"""Request JSON in; assistant text, a message dict, or `{"error_status": N, "body": "..."}` out."""

_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 411: "Length Required"}
_MAX_BODY = 64 * 1024 * 1024
EMBEDDING_DIM = 64
"""Length of the fake embeddings when a request does not ask for `dimensions`."""
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, kw_only=True)
class _Answer:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


class FakeOpenAIServer:
    """Serve `POST /v1/chat/completions`, `POST /v1/embeddings` and `GET /v1/models` on 127.0.0.1.

    Use it in the running event loop (`async with FakeOpenAIServer() as srv:`) or in its own
    thread (`with FakeOpenAIServer().in_thread() as srv:`); either way `srv.base_url` is the
    `http://127.0.0.1:PORT/v1` to give a client.
    """

    def __init__(
        self,
        *,
        latency_s: float = 0.0,
        responder: Responder | None = None,
        port: int = 0,
        ignore_tools: bool = False,
    ) -> None:
        self.latency_s = latency_s
        """Seconds to wait before each chat completion answer (simulated model time)."""
        self.requests: list[dict[str, Any]] = []
        """Parsed JSON bodies of every chat completion request, in arrival order."""
        self.headers: list[dict[str, str]] = []
        """Headers of the same requests (names lower-cased), e.g. to check `authorization`."""
        self.embedding_requests: list[dict[str, Any]] = []
        """Parsed JSON bodies of every embeddings request (not counted in `count`)."""
        self.connections = 0
        """TCP connections accepted so far (a client that reuses its connections opens few)."""
        self.ignore_tools = ignore_tools
        """Act like a server that drops `tools` and `tool_choice` from requests (llama.cpp
        without `--jinja`): the responder never sees them and no tool call is forced. Otherwise
        a request with `tool_choice = "required"` is answered with a tool call, as real servers
        answer it."""
        self._responder = responder or default_responder
        self._port = port
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._injected: deque[_Answer] = deque()
        self._lock = threading.Lock()
        self._seen_prefixes: set[str] = set()

    @property
    def count(self) -> int:
        """Return the number of chat completion requests received (failed ones included)."""
        return len(self.requests)

    @property
    def port(self) -> int:
        """Return the bound TCP port (only while serving)."""
        if self._server is None:
            raise RuntimeError("the fake server is not running; use `async with` or in_thread()")
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def base_url(self) -> str:
        """Return the OpenAI-style base URL, `http://127.0.0.1:PORT/v1`."""
        return f"http://127.0.0.1:{self.port}/v1"

    def fail_next(
        self,
        n: int = 1,
        *,
        status: int = 500,
        body: str = "injected failure",
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next `n` chat completion requests with `status` and an OpenAI error body.

        `headers` are added to those answers, e.g. `{"retry-after": "2"}`.
        """
        error = {"error": {"message": body, "type": "server_error", "code": str(status)}}
        extra = tuple((headers or {}).items())
        item = _Answer(status=status, body=json.dumps(error).encode(), headers=extra)
        with self._lock:
            self._injected.extend([item] * n)

    def garbage_next(self, n: int = 1) -> None:
        """Answer the next `n` chat completion requests with 200 and a body that is not JSON."""
        item = _Answer(status=200, body=b"<html>upstream hiccup{{")
        with self._lock:
            self._injected.extend([item] * n)

    async def start(self) -> None:
        """Start listening in the running asyncio loop."""
        # A large backlog: a burst of hundreds of connects must not hit SYN retransmit delays.
        self._server = await asyncio.start_server(
            self._serve_connection, "127.0.0.1", self._port, backlog=4096
        )

    async def stop(self) -> None:
        """Stop listening and drop open keep-alive connections."""
        if self._server is None:
            return
        # asyncio (3.11) leaks the socket of a connection accepted but not yet wrapped in a
        # transport when the server closes; give pending accepts a few loop turns to finish.
        for _ in range(5):
            await asyncio.sleep(0)
        self._server.close()
        for _ in range(5):
            await asyncio.sleep(0)
        while self._handlers:
            for task in list(self._handlers):
                task.cancel()
            await asyncio.gather(*self._handlers, return_exceptions=True)
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()
        await self._server.wait_closed()
        await asyncio.sleep(0)  # aborted transports close their sockets in a callback
        self._server = None

    async def __aenter__(self) -> FakeOpenAIServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @contextmanager
    def in_thread(self) -> Iterator[FakeOpenAIServer]:
        """Run the server on its own event loop in a daemon thread for the `with` block."""
        ready = threading.Event()
        state: dict[str, Any] = {}

        async def main() -> None:
            state["loop"] = asyncio.get_running_loop()
            state["stop"] = stop = asyncio.Event()
            try:
                await self.start()
            except BaseException as exc:
                state["error"] = exc
                raise
            finally:
                ready.set()
            try:
                await stop.wait()
            finally:
                await self.stop()

        thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
        thread.start()
        ready.wait()
        if "error" in state:
            thread.join()
            raise state["error"]
        try:
            yield self
        finally:
            state["loop"].call_soon_threadsafe(state["stop"].set)
            thread.join(timeout=10)

    async def _serve_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.connections += 1
        self._handlers.add(task)
        self._writers.add(writer)
        try:
            while await self._serve_one(reader, writer):
                pass
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            # Only stop() cancels these top-level tasks; ending quietly keeps asyncio's
            # connection callback from logging the cancellation as an error.
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await writer.wait_closed()
            self._handlers.discard(task)
            self._writers.discard(writer)

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Serve one request; return whether the connection stays open."""
        head = await reader.readuntil(b"\r\n\r\n")
        method, path, version, headers = _parse_head(head)
        keep_alive = _keeps_alive(version, headers)
        if "chunked" in headers.get("transfer-encoding", "").lower():
            await _respond(writer, 411, _error_body("send a Content-Length body"), keep_alive=False)
            return False
        length = int(headers.get("content-length", "0") or 0)
        if length > _MAX_BODY:
            await _respond(writer, 400, _error_body("body too large"), keep_alive=False)
            return False
        body = await reader.readexactly(length) if length else b""
        answer = await self._route(method, path.split("?", 1)[0], body, headers)
        await _respond(
            writer, answer.status, answer.body, keep_alive=keep_alive, headers=answer.headers
        )
        return keep_alive

    async def _route(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> _Answer:
        if method == "GET" and path.rstrip("/") == "/v1/models":
            data = [{"id": "fake", "object": "model", "created": 0, "owned_by": "vistasim"}]
            return _Answer(status=200, body=json.dumps({"object": "list", "data": data}).encode())
        if method == "POST" and path.rstrip("/") == "/v1/chat/completions":
            return await self._chat(body, headers)
        if method == "POST" and path.rstrip("/") == "/v1/embeddings":
            return self._embeddings(body)
        return _Answer(status=404, body=_error_body(f"no route for {method} {path}"))

    async def _chat(self, body: bytes, headers: dict[str, str]) -> _Answer:
        try:
            request = json.loads(body)
        except ValueError:
            return _Answer(status=400, body=_error_body("request body is not JSON"))
        if not isinstance(request, dict):
            return _Answer(status=400, body=_error_body("request body must be a JSON object"))
        self.headers.append(headers)
        self.requests.append(request)
        with self._lock:
            injected = self._injected.popleft() if self._injected else None
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        if injected is not None:
            return injected
        if self.ignore_tools:
            request = {k: v for k, v in request.items() if k not in ("tools", "tool_choice")}
        answer = self._responder(request)
        if inspect.isawaitable(answer):
            answer = await answer
        if requires_tool_call(request) and not _calls_a_tool(answer):
            answer = forced_tool_call(request)
        if isinstance(answer, dict) and "error_status" in answer:
            status = int(answer["error_status"])
            return _Answer(
                status=status, body=_error_body(str(answer.get("body", "error")), status=status)
            )
        return _Answer(status=200, body=json.dumps(self._completion(request, answer)).encode())

    def _embeddings(self, body: bytes) -> _Answer:
        try:
            request = json.loads(body)
        except ValueError:
            return _Answer(status=400, body=_error_body("request body is not JSON"))
        texts = request.get("input") if isinstance(request, dict) else None
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return _Answer(status=400, body=_error_body("input must be a string or strings"))
        dim = request.get("dimensions") or EMBEDDING_DIM
        if not isinstance(dim, int) or dim < 1:
            return _Answer(status=400, body=_error_body("dimensions must be a positive integer"))
        self.embedding_requests.append(request)
        as_base64 = request.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vector = hashed_embedding(text, dim)
            # The OpenAI SDK asks for base64 (packed little-endian float32) unless told otherwise.
            packed = struct.pack(f"<{dim}f", *vector)
            embedding = base64.b64encode(packed).decode() if as_base64 else vector
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(len(text) for text in texts) // 4 + 1
        answer = {
            "object": "list",
            "data": data,
            "model": str(request.get("model", "fake")),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
        return _Answer(status=200, body=json.dumps(answer).encode())

    def _completion(self, request: dict[str, Any], answer: str | dict[str, Any]) -> dict[str, Any]:
        message, finish = _as_message(answer)
        messages = request.get("messages") or []
        # Tool schemas are part of the prompt a real model reads (and is billed for).
        prompt_chars = sum(len(json.dumps(m.get("content") or "")) for m in messages)
        prompt_chars += len(json.dumps(request["tools"])) if request.get("tools") else 0
        out_chars = len(message.get("content") or "") + len(
            json.dumps(message.get("tool_calls", ""))
        )
        prompt_tokens = prompt_chars // 4 + 1
        cached = min(self._cached_chars(messages) // 4, prompt_tokens)
        return {
            "id": f"chatcmpl-fake-{self.count}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": str(request.get("model", "fake")),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": out_chars // 4 + 1,
                "total_tokens": prompt_tokens + out_chars // 4 + 1,
                "prompt_tokens_details": {"cached_tokens": cached},
            },
        }

    def _cached_chars(self, messages: list[dict[str, Any]]) -> int:
        """Count the characters of the longest message prefix seen in an earlier request."""
        digest = hashlib.sha256()
        cached = chars = 0
        for message in messages:
            digest.update(json.dumps(message, sort_keys=True).encode())
            chars += len(json.dumps(message.get("content") or ""))
            key = digest.hexdigest()
            if key in self._seen_prefixes:
                cached = chars
            self._seen_prefixes.add(key)
        return cached


def default_responder(request: dict[str, Any]) -> str:
    """Answer `"ok"`, or a JSON object matching the requested schema when JSON is asked for."""
    response_format = request.get("response_format") or {}
    kind = response_format.get("type")
    if kind == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema") or {}
        return json.dumps(example_for_schema(schema, schema))
    if kind == "json_object":
        return json.dumps({"ok": True})
    return "ok"


def hashed_embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """Embed a text as a unit-length hashed bag of its lower-cased words (zeros when it has none).

    Each word adds +1 or -1 at a position picked by its hash, so shared words raise the cosine and
    the result is the same in every process (no `hash()` randomisation).

    >>> hashed_embedding("Hello hello", 4) == hashed_embedding("HELLO", 4)
    True
    """
    vector = [0.0] * dim
    for word in _WORD.findall(text.lower()):
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        position = int.from_bytes(digest[:4], "little") % dim
        vector[position] += 1.0 if digest[4] % 2 else -1.0
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else vector


def _calls_a_tool(answer: str | dict[str, Any]) -> bool:
    return isinstance(answer, dict) and (
        "error_status" in answer or bool(_as_message(answer)[0].get("tool_calls"))
    )


def _as_message(answer: str | dict[str, Any]) -> tuple[dict[str, Any], str]:
    if isinstance(answer, str):
        return {"role": "assistant", "content": answer}, "stop"
    finish = answer.get("finish_reason")
    message = dict(answer.get("message", answer))
    message.setdefault("role", "assistant")
    message.setdefault("content", None)
    return message, finish or ("tool_calls" if message.get("tool_calls") else "stop")


def _parse_head(head: bytes) -> tuple[str, str, str, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    method, path, version = (lines[0].split(" ", 2) + ["", ""])[:3]
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return method, path, version, headers


def _keeps_alive(version: str, headers: dict[str, str]) -> bool:
    connection = headers.get("connection", "").lower()
    if version == "HTTP/1.0":
        return connection == "keep-alive"
    return connection != "close"


def _error_body(message: str, *, status: int = 400) -> bytes:
    error = {"message": message, "type": "invalid_request_error", "code": str(status)}
    return json.dumps({"error": error}).encode()


async def _respond(
    writer: asyncio.StreamWriter,
    status: int,
    body: bytes,
    *,
    keep_alive: bool,
    headers: tuple[tuple[str, str], ...] = (),
) -> None:
    reason = _REASONS.get(status, "Error" if status >= 400 else "OK")
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{extra}"
        f"connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + body)
    await writer.drain()
