"""The one client stack: transport errors, error bodies, Retry-After, TLS contexts, no SDK."""

import json
import socket
import subprocess
import sys

import anyio
import httpx2
import pytest

import vistasim.llm._clients as clients_module
from vistasim.config import ModelSpec
from vistasim.llm import ChatMessage, ChatRequest, HttpClients, ModelCallFailed, OpenAIChatModel
from vistasim.llm._http import BodyTooBig, EndpointTimeout, EndpointUnreachable, exchange
from vistasim.testing import FakeOpenAIServer

HELLO = ChatRequest(messages=[ChatMessage(role="user", content="hello")])


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Trickle(httpx2.AsyncByteStream):
    """A body that sends one byte, then waits longer than any test's bound."""

    async def __aiter__(self):
        yield b"{"
        await anyio.sleep(30)
        yield b"}"


async def test_exchange_turns_transport_failures_into_our_typed_errors():
    big = httpx2.MockTransport(lambda request: httpx2.Response(200, content=b"x" * 5000))
    slow = httpx2.MockTransport(lambda request: httpx2.Response(200, stream=Trickle()))
    async with httpx2.AsyncClient(transport=big) as client:
        with pytest.raises(BodyTooBig, match="over 1,000 bytes") as info:
            await exchange(client, "GET", "http://a.invalid/", timeout_s=5, max_body_bytes=1000)
    assert info.value.status == 200
    async with httpx2.AsyncClient(transport=slow) as client:
        with pytest.raises(EndpointTimeout, match="0.2 s"):  # the wall bound, not a read timeout
            await exchange(client, "GET", "http://a.invalid/", timeout_s=0.2, max_body_bytes=1000)
    async with httpx2.AsyncClient() as client:
        with pytest.raises(EndpointUnreachable, match="ConnectError"):
            url = f"http://127.0.0.1:{closed_port()}/"
            await exchange(client, "GET", url, timeout_s=5, max_body_bytes=1000)


@pytest.mark.parametrize(
    ("content_type", "body", "text"),
    [
        ("application/json", '{"a": "caf\u00e9"}'.encode(), '{"a": "caf\u00e9"}'),
        ("text/plain; charset=latin-1", "caf\u00e9".encode("latin-1"), "caf\u00e9"),
        ('text/plain; Charset="ISO-8859-1"', "caf\u00e9".encode("latin-1"), "caf\u00e9"),
    ],
)
async def test_an_answer_is_decoded_in_its_declared_charset_else_utf8(content_type, body, text):
    answer = httpx2.Response(200, content=body, headers={"content-type": content_type})
    transport = httpx2.MockTransport(lambda request: answer)
    async with httpx2.AsyncClient(transport=transport) as client:
        got = await exchange(client, "GET", "http://a.invalid/", timeout_s=5, max_body_bytes=1000)
    assert got.text == text


async def test_a_rate_limit_carries_the_providers_words_and_wait():
    async with FakeOpenAIServer() as srv:
        srv.fail_next(
            1, status=429, body="Rate limit reached for gpt-x", headers={"retry-after": "3"}
        )
        async with OpenAIChatModel(
            ModelSpec(model="m", base_url=srv.base_url), environ={}
        ) as model:
            with pytest.raises(ModelCallFailed) as info:
                await model.complete(HELLO)
    failure = info.value
    assert (failure.status, failure.retryable, failure.retry_after) == (429, True, 3.0)
    assert str(failure).endswith("answered HTTP 429: Rate limit reached for gpt-x")


async def test_an_answer_without_choices_is_a_retryable_failure_that_says_so():
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, json={"id": "x"}))
    spec = ModelSpec(model="m", base_url="http://127.0.0.1:9/v1")
    async with OpenAIChatModel(spec, environ={}, transport=transport) as model:
        with pytest.raises(ModelCallFailed, match="no choices") as info:
            await model.complete(HELLO)
    assert info.value.retryable is True


async def test_api_openai_com_is_asked_for_max_completion_tokens(monkeypatch):
    import vistasim.llm

    monkeypatch.setattr(vistasim.llm, "ALLOW_REQUESTS", True)
    bodies: list[dict] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        message = {"role": "assistant", "content": "hi"}
        return httpx2.Response(200, json={"choices": [{"message": message}], "model": "m"})

    transport = httpx2.MockTransport(answer)
    # The host name only selects the request body: MockTransport answers in process.
    spec = ModelSpec(model="m", base_url=vistasim.llm.DEFAULT_BASE_URL, max_tokens=20)
    async with OpenAIChatModel(spec, environ={"OPENAI_API_KEY": "sk-x"}, transport=transport) as m:
        assert (await m.complete(HELLO)).text == "hi"
    assert bodies[0]["max_completion_tokens"] == 20 and "max_tokens" not in bodies[0]


async def test_clients_share_one_tls_context_and_plain_http_loads_no_ca(monkeypatch):
    made: list[object] = []
    real = httpx2.create_ssl_context
    monkeypatch.setattr(httpx2, "create_ssl_context", lambda: made.append(1) or real())
    clients_module._verified_context.cache_clear()
    clients = HttpClients()
    for origin in ("https://a.invalid", "https://b.invalid", "http://127.0.0.1:9"):
        for _ in range(3):
            clients.client(origin, concurrency=48)  # three shards each
    await clients.aclose()
    clients_module._verified_context.cache_clear()
    assert len(made) == 1


def test_a_run_with_model_roles_never_imports_the_openai_sdk():
    code = (
        "import sys, vistasim.llm, vistasim.divert, vistasim.agent, vistasim.explore; "
        "print('openai' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("client_kwargs", "url", "headers"),
    [
        ({}, "http://127.0.0.1:8000/v1/chat/completions", {"Authorization": "Bearer k"}),
        ({}, "https://models.example.test/v1/embeddings", None),
        ({}, "http://127.0.0.1:8000/x", {"user-agent": "mine", "ACCEPT": "a/b"}),
        ({}, "http://127.0.0.1:8000/x", {"Content-Type": "application/x-json", "X-A": "1"}),
        ({}, "http://127.0.0.1:8000/x", {"Content-Length": "2"}),
        (
            {"headers": {"X-Client": "c", "Host": "h.example"}},
            "http://127.0.0.1/x",
            {"x-client": "d"},
        ),
        ({"cookies": {"session": "s"}}, "http://127.0.0.1:8000/x", {"A": "b"}),
        ({"params": {"q": "1"}}, "http://127.0.0.1:8000/x?r=2", None),
        ({"base_url": "http://127.0.0.1:9000/v1/"}, "/chat/completions", {"A": "b"}),
        ({}, "http://[fe80::1%25eth0]:8000/x", None),
    ],
)
def test_json_request_is_the_request_build_request_makes(client_kwargs, url, headers):
    from vistasim.llm._http import json_request

    body = {"model": "m", "messages": [{"role": "user", "content": "héllo ✓"}], "seed": 3}
    timeout = httpx2.Timeout(12.5)
    client = httpx2.AsyncClient(**client_kwargs)
    for target in (url, httpx2.URL(url)) if not url.startswith("/") else (url,):
        ours = json_request(client, "post", target, body, headers, timeout)
        theirs = client.build_request("post", target, json=body, headers=headers, timeout=timeout)
        assert (ours.method, ours.url, ours.headers.raw) == (
            theirs.method,
            theirs.url,
            theirs.headers.raw,
        )
        assert ours.content == theirs.content
        assert ours.extensions == theirs.extensions
        assert isinstance(ours.stream, httpx2.ByteStream)


async def test_fail_after_times_out_as_anyio_does():
    from vistasim._deadline import fail_after

    with pytest.raises(TimeoutError):
        with fail_after(0.01):
            await anyio.sleep(5)
    with fail_after(5) as scope:  # cancelled before its deadline: the block just ends
        scope.cancel()
        await anyio.sleep(5)
    with fail_after(5):
        await anyio.sleep(0)


async def test_a_bound_inside_an_earlier_one_of_the_same_task_is_left_to_it():
    from vistasim._deadline import fail_after

    with fail_after(5):
        with fail_after(6, unless_bounded=True) as inner:
            assert inner is None  # no scope, no timer: the outer bound ends first anyway
        with fail_after(0.01, unless_bounded=True) as sooner:  # ends first: a bound of its own
            assert sooner is not None
        with pytest.raises(TimeoutError):
            with fail_after(0.01, unless_bounded=True):
                await anyio.sleep(5)
    with pytest.raises(TimeoutError):  # the outer bound still ends the block
        with fail_after(0.01):
            with fail_after(0.01, unless_bounded=True):
                await anyio.sleep(5)
    with fail_after(5, unless_bounded=True) as alone:
        assert alone is not None


async def test_a_task_started_inside_a_bound_it_is_not_under_keeps_its_own():
    from vistasim._deadline import fail_after

    scopes: list[object] = []

    async def later() -> None:  # inherits the context of the bounded block, not its scope
        with fail_after(5, unless_bounded=True) as scope:
            scopes.append(scope)

    async with anyio.create_task_group() as group:
        with fail_after(0.01):
            group.start_soon(later)
    assert scopes and scopes[0] is not None


async def test_exchange_straight_to_the_transport_keeps_cookies_redirects_and_auth():
    seen: list[httpx2.Request] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        if request.url.path == "/a":
            return httpx2.Response(
                307, headers={"Location": "/b", "Set-Cookie": "lb=one; Path=/"}, content=b"moved"
            )
        if request.url.path == "/loop":
            return httpx2.Response(302, headers={"Location": "/loop"})
        return httpx2.Response(200, json={"ok": True})

    async with httpx2.AsyncClient(transport=httpx2.MockTransport(answer)) as client:
        got = await exchange(
            client, "POST", "http://127.0.0.1/a", json={"q": 1}, timeout_s=5, max_body_bytes=99
        )
        assert (got.status, json.loads(got.text)) == (200, {"ok": True})
        assert [r.url.path for r in seen] == ["/a", "/b"]
        assert seen[1].method == "POST" and seen[1].content == b'{"q":1}'
        assert client.cookies.get("lb") == "one" and seen[1].headers["cookie"] == "lb=one"
        not_followed = await exchange(
            client, "POST", "http://127.0.0.1/a", json={}, timeout_s=5, max_body_bytes=99,
            follow_redirects=False,
        )  # fmt: skip
        assert (not_followed.status, not_followed.text) == (307, "moved")
        client.max_redirects = 3
        with pytest.raises(EndpointUnreachable, match="TooManyRedirects"):
            await exchange(
                client, "GET", "http://127.0.0.1/loop", json={}, timeout_s=5, max_body_bytes=99
            )
        assert len([r for r in seen if r.url.path == "/loop"]) == 4  # as client.send: 1 + 3
        seen.clear()
        await exchange(
            client, "POST", "http://user:pw@127.0.0.1/b", json={}, timeout_s=5, max_body_bytes=99
        )
        assert seen[0].headers["authorization"].startswith("Basic ")
    with pytest.raises(RuntimeError, match="closed"):
        await exchange(client, "POST", "http://127.0.0.1/b", json={}, timeout_s=5, max_body_bytes=9)


async def test_exchange_decodes_an_encoded_answer_and_reads_a_plain_one_raw():
    import gzip

    def answer(request: httpx2.Request) -> httpx2.Response:
        if request.url.path == "/gz":
            return httpx2.Response(
                200, headers={"Content-Encoding": "gzip"}, content=gzip.compress(b'{"a": 1}')
            )
        return httpx2.Response(200, content=b'{"b": 2}')

    async with httpx2.AsyncClient(transport=httpx2.MockTransport(answer)) as client:
        for path, text in (("/gz", '{"a": 1}'), ("/plain", '{"b": 2}')):
            got = await exchange(
                client, "POST", f"http://127.0.0.1{path}", json={}, timeout_s=5, max_body_bytes=99
            )
            assert got.text == text


async def test_an_encoded_json_body_is_sent_as_its_value_would_be():
    from vistasim.llm._http import JsonText

    seen: list[httpx2.Request] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, content=b"{}")

    body = {"model": "m", "messages": [{"role": "user", "content": "héllo ✓"}], "t": 0.5}
    text = JsonText('{"model":"m","messages":[{"role":"user","content":"héllo ✓"}],"t":0.5}')
    transport = httpx2.MockTransport(answer)
    # Plain clients build the request here; clients with cookies or params, and requests with
    # params, through `build_request`: every way sends the same bytes and headers.
    for client_kwargs, params in (({}, None), ({"cookies": {"s": "1"}}, None), ({}, {"q": "1"})):
        async with httpx2.AsyncClient(transport=transport, **client_kwargs) as client:
            for sent in (body, text):
                await exchange(
                    client, "POST", "http://127.0.0.1/x", json=sent, params=params,
                    headers={"A": "b"}, timeout_s=5, max_body_bytes=99,
                )  # fmt: skip
        value, encoded = seen[-2:]
        assert (encoded.url, encoded.headers.raw, encoded.content) == (
            value.url,
            value.headers.raw,
            value.content,
        )


def test_json_request_refuses_the_headers_build_request_refuses():
    from vistasim.llm._http import json_request

    client = httpx2.AsyncClient()
    for headers in ({"X-A": "ünï"}, {"X-A": 3}):
        with pytest.raises(Exception) as theirs:
            client.build_request("POST", "http://127.0.0.1/x", json={}, headers=headers)
        with pytest.raises(type(theirs.value)) as ours:
            json_request(client, "POST", "http://127.0.0.1/x", {}, headers, httpx2.Timeout(5))
        assert str(ours.value) == str(theirs.value)
