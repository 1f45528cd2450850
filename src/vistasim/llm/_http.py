"""One HTTP exchange with an endpoint: the transport under every model client and agent adapter.

The roles' models, the embedder and the agent adapters all send a JSON body and read an answer
whose size they cap, within a wall-clock bound an endpoint cannot stretch by trickling bytes.
`exchange` does that once, on the run's pooled clients (`HttpClients`), and raises our own typed
errors rather than the HTTP library's, so each caller decides what a failure means: a retry for
a role's model, a recorded failure for the agent under test.
"""

from __future__ import annotations

import json as jsonlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import httpx2

from vistasim._deadline import fail_after

__all__ = [
    "BodyTooBig",
    "EndpointTimeout",
    "EndpointUnreachable",
    "HttpAnswer",
    "JsonText",
    "TransportError",
    "exchange",
]


class TransportError(Exception):
    """The request got no usable HTTP answer; the message names the cause, never a header."""


class EndpointTimeout(TransportError):
    """No complete answer within the request's time bound."""


class EndpointUnreachable(TransportError):
    """The connection failed (refused, reset, DNS, TLS) before an answer came."""


class BodyTooBig(TransportError):
    """The answer's body is over the cap; it was not read further."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class JsonText:
    """A JSON body already encoded (by `vistasim.llm._wire.json_text`), sent as its value would be.

    `exchange(json=JsonText(text))` sends the same request as `exchange(json=value)`; a caller
    that keeps parts of its body encoded (the chat so far) does not pay for them again.
    """

    text: str


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """An HTTP answer of any status, its body decoded."""

    status: int
    text: str
    headers: httpx2.Headers


async def exchange(
    client: httpx2.AsyncClient,
    method: str,
    url: str | httpx2.URL,
    *,
    json: Any = None,
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    timeout_s: float,
    max_body_bytes: int,
    follow_redirects: bool = True,
) -> HttpAnswer:
    """Send one request and read the answer's body, no further than `max_body_bytes`.

    Raises:
        EndpointTimeout: no complete answer within `timeout_s` (however slowly bytes trickle).
        EndpointUnreachable: the connection failed; the message is `ErrorType: detail`.
        BodyTooBig: the answer declares or sends more than `max_body_bytes`.
    """
    try:
        if json is not None and params is None:
            request = json_request(client, method, url, json, headers, _timeout(timeout_s))
        else:
            request = client.build_request(
                method,
                url,
                json=_value(json),
                params=params,
                headers=headers,
                timeout=_timeout(timeout_s),
            )
        # Inside a role's model call, whose equal bound was entered first, that bound is enough.
        with fail_after(timeout_s, unless_bounded=True):
            return await _read(client, request, max_body_bytes, follow_redirects)
    except (TimeoutError, httpx2.TimeoutException):
        raise EndpointTimeout(f"no answer within {timeout_s:g} s") from None
    except httpx2.HTTPError as exc:
        raise EndpointUnreachable(f"{type(exc).__name__}: {exc}") from None


async def _read(
    client: httpx2.AsyncClient, request: httpx2.Request, cap: int, follow_redirects: bool
) -> HttpAnswer:
    response = await _send(client, request, follow_redirects)
    try:
        status = response.status_code
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise BodyTooBig(_too_big(cap, f"declares {int(declared):,} bytes"), status=status)
        body = bytearray()
        # Read whole, a runaway body (hundreds of MB) would cost gigabytes before any cap
        # could cut it; it is not read past the cap at all.
        pieces = _pieces(response)
        try:
            async for chunk in pieces:
                body += chunk
                if len(body) > cap:
                    raise BodyTooBig(_too_big(cap, "kept sending"), status=status)
        finally:
            if isinstance(pieces, AsyncGenerator):  # as `aiter_bytes` closes the stream's
                await pieces.aclose()
        text = bytes(body).decode(_charset(response) or "utf-8", errors="replace")
        return HttpAnswer(status=status, text=text, headers=response.headers)
    finally:
        await response.aclose()


def _pieces(response: httpx2.Response) -> AsyncIterator[bytes]:
    """The answer's body, as `response.aiter_bytes()` yields it (empty pieces aside).

    An answer with no `Content-Encoding` is its raw stream: `aiter_bytes` would pass each piece
    through an identity decoder and a chunker, inside one more generator and a context manager
    (~10 µs a model call). An encoded answer is decoded by `aiter_bytes`.
    """
    if "content-encoding" in response.headers or not isinstance(
        response.stream, httpx2.AsyncByteStream
    ):
        return response.aiter_bytes()
    response.is_stream_consumed = True
    return response.stream.__aiter__()


async def _send(
    client: httpx2.AsyncClient, request: httpx2.Request, follow_redirects: bool
) -> httpx2.Response:
    """Send as `client.send(request, stream=True, ...)` does, past the client's idle layers.

    Straight to the transport when the client's layers would do nothing but cost (~60 µs of
    CPU a model call, under load): an auth flow, event hooks, the redirect loop, the choice of
    a proxy transport, a timer around the body, the cookie jar and an INFO log line. With no
    auth, no hooks, no proxy for the URL and that log off, what is left is done here: the
    cookies the answer sets go to the client's jar, and a redirect is followed by the client's
    own loop, with this answer as its history (so `max_redirects` counts it). Anything else,
    or an `httpx2` without the internals used, goes through `client.send`.
    """
    transport = _direct_transport(client, request)
    if transport is None:
        return await client.send(request, stream=True, follow_redirects=follow_redirects)
    response = await transport.handle_async_request(request)
    response.request = request
    try:
        # The answer's header names, lower-cased once: `extract_cookies` and
        # `has_redirect_location` would look each name up in the headers again.
        names = {name.lower() for name, _ in response.headers.raw}
        if b"set-cookie" in names or b"set-cookie2" in names:
            client.cookies.extract_cookies(response)
        if not follow_redirects or not (
            response.status_code in _REDIRECTS and b"location" in names
        ):
            return response
        follow = client._build_redirect_request(request, response)  # noqa: SLF001
        await response.aread()
    except BaseException:
        await response.aclose()
        raise
    await response.aclose()
    return await client._send_handling_redirects(  # noqa: SLF001
        follow, follow_redirects=True, history=[response]
    )


_REDIRECTS = frozenset((301, 302, 303, 307, 308))
"""The statuses `httpx2.Response.has_redirect_location` follows (with a `Location`)."""

_LOG = logging.getLogger("httpx2")
"""`httpx2`'s logger: when it logs requests, they go through the client, which logs them."""


def _direct_transport(
    client: httpx2.AsyncClient, request: httpx2.Request
) -> httpx2.AsyncBaseTransport | None:
    """The transport to hand `request` to directly, or None to go through `client.send`."""
    url = request.url
    if (
        client.is_closed
        or client.auth is not None
        or url.username
        or url.password
        or any(client.event_hooks.values())
        or _LOG.isEnabledFor(logging.INFO)
        or not hasattr(client, "_send_handling_redirects")
        or not hasattr(client, "_build_redirect_request")
    ):
        return None
    pick = getattr(client, "_transport_for_url", None)
    transport = pick(url) if pick is not None else None
    return transport if isinstance(transport, httpx2.AsyncBaseTransport) else None


def json_request(
    client: httpx2.AsyncClient,
    method: str,
    url: str | httpx2.URL,
    body: object,
    headers: Mapping[str, str] | None,
    timeout: httpx2.Timeout,
) -> httpx2.Request:
    """Build the request `client.build_request(..., json=body, ...)` builds, at half the CPU.

    The same URL, header order, body and extensions as `client.build_request(method, url,
    json=body, headers=headers, timeout=timeout)`.

    `build_request` merges the client's headers through `httpx2.Headers`' generic methods: a
    copy, an `update`, two `setdefault`s and a rebuild, each re-deriving the headers' encoding
    and lower-casing every name again (~35 µs of a model call's ~290 µs). Here the merge is done
    once on byte pairs, with `build_request`'s rules: the caller's headers replace the client's
    of the same name, `Content-Length` and `Content-Type` are added unless set, `Host` goes
    first. A client with cookies or query parameters, a relative URL or an IPv6 host (its zone
    is cut from `Host`) takes `build_request` itself.
    """
    url = httpx2.URL(url)
    if client.params or client.cookies or url.is_relative_url or url.netloc.startswith(b"["):
        return client.build_request(
            method, url, json=_value(body), headers=headers, timeout=timeout
        )
    extra = _header_pairs(headers)
    replaced = {name.lower() for name, _ in extra}
    raw = [(name, value) for name, value in client.headers.raw if name.lower() not in replaced]
    raw += extra
    present = {name.lower() for name, _ in raw}
    # httpx2's own JSON encoding (`encode_json`): compact, UTF-8, no NaN.
    if isinstance(body, JsonText):
        content = body.text
    else:
        content = jsonlib.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    data = content.encode("utf-8")
    if b"content-length" not in present and b"transfer-encoding" not in present:
        raw.append((b"Content-Length", str(len(data)).encode("ascii")))
    if b"content-type" not in present:
        raw.append((b"Content-Type", b"application/json"))
    if b"host" not in present and url.host:
        raw.insert(0, (b"Host", url.netloc))
    request = httpx2.Request(
        method,
        url,
        headers=raw,
        stream=httpx2.ByteStream(data),
        extensions={"timeout": timeout.as_dict()},
    )
    request.read()  # as `build_request` does for a body in memory: `request.content` is set
    return request


def _header_pairs(headers: Mapping[str, str] | None) -> list[tuple[bytes, bytes]]:
    """The caller's headers as byte pairs, encoded as `build_request` does (same errors).

    `httpx2.Headers` takes any header types, lower-cases each name and checks each value's
    type; text headers (a model call's one `Authorization`) are just ASCII. Anything else (no
    headers, bytes, a value that is not ASCII or not text) goes through `httpx2.Headers`.
    """
    if headers is None:
        return []
    try:
        return [(name.encode("ascii"), value.encode("ascii")) for name, value in headers.items()]
    except (AttributeError, UnicodeError):
        return httpx2.Headers(headers).raw


def _value(body: object) -> object:
    """What `build_request(json=...)` is given for `body`.

    An encoded body's value, read back: `build_request` writes it as `json_text` wrote it.
    """
    return jsonlib.loads(body.text) if isinstance(body, JsonText) else body


def _charset(response: httpx2.Response) -> str | None:
    # `charset_encoding` parses the header with `email.message` on every answer; most answers
    # (`application/json`) name no charset, and a header without the word has none to find.
    if "charset" not in response.headers.get("content-type", "").lower():
        return None
    return response.charset_encoding


@lru_cache(maxsize=64)
def _timeout(seconds: float) -> httpx2.Timeout:
    # `httpx2` checks a bare number against the `SupportsFloat` protocol on every request, a
    # slow `isinstance`; a `Timeout` is taken as it is. A run uses a handful of bounds.
    return httpx2.Timeout(seconds)


def _too_big(cap: int, how: str) -> str:
    return f"answered with a body over {cap:,} bytes (it {how}); it was not read further"
