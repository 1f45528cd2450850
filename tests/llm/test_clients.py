"""HttpClients: one set of connections per endpoint for a run."""

import httpx2

from vistasim.llm._clients import HttpClients, origin


def test_origin_keeps_scheme_host_and_port_only():
    assert origin("http://127.0.0.1:8000/v1") == origin("http://127.0.0.1:8000/other")
    assert origin("https://example.invalid/v1") == "https://example.invalid:443"


async def test_one_client_per_origin_until_more_concurrency_is_asked_for():
    clients = HttpClients()
    first = clients.client("http://127.0.0.1:8000/v1")
    assert clients.client("http://127.0.0.1:8000/v1/chat/completions") is first
    assert clients.client("http://127.0.0.1:9000/v1") is not first
    shards = {id(clients.client("http://127.0.0.1:8000/v1", concurrency=40)) for _ in range(6)}
    assert len(shards) == 3  # 40 calls in flight: three pools of 16, taken in turn
    assert clients.origins == ["http://127.0.0.1:8000", "http://127.0.0.1:9000"]
    await clients.aclose()
    assert first.is_closed


async def test_the_transport_is_given_to_every_client():
    seen = []
    transport = httpx2.MockTransport(lambda request: seen.append(request) or httpx2.Response(204))
    clients = HttpClients(transport=transport)
    await clients.client("https://a.invalid").get("https://a.invalid/x")
    await clients.client("https://b.invalid").get("https://b.invalid/y")
    await clients.aclose()
    assert [r.url.host for r in seen] == ["a.invalid", "b.invalid"]
