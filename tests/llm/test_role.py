import random

import anyio
import pytest

from vistasim.config import ModelSpec, Price, RunConfig
from vistasim.errors import ModelError
from vistasim.llm import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ChatResponse,
    ModelCallFailed,
    OpenAIChatModel,
    RequestCache,
    RoleModel,
    TokenUsage,
    build_models,
    collect_calls,
    cost_usd,
)
from vistasim.testing import FunctionLLM, ScriptedLLM
from vistasim.testing._fake_server import FakeOpenAIServer


def hello(text: str = "hello") -> ChatRequest:
    return ChatRequest(messages=[ChatMessage(role="user", content=text)])


def overloaded() -> ModelCallFailed:
    return ModelCallFailed("overloaded", retryable=True, status=429)


class Sleeps:
    """An injected sleep that records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def role_model(model, **options) -> RoleModel:
    options.setdefault("sleep", Sleeps())
    return RoleModel(model, role="user", **options)


async def test_role_model_is_a_chat_model_named_after_the_inner_model():
    model = role_model(ScriptedLLM(["hi"], name="inner"))
    assert isinstance(model, ChatModel)
    assert model.name == "inner"


async def test_retryable_failure_then_success_returns_the_answer_and_counts_attempts():
    model = role_model(ScriptedLLM([overloaded(), "fine"]))
    with collect_calls() as calls:
        response = await model.complete(hello())
    assert response.text == "fine"
    assert [(c.attempts, c.error, c.role) for c in calls] == [(2, None, "user")]


async def test_backoff_delays_grow_exponentially_with_full_jitter_and_a_cap():
    sleeps = Sleeps()
    script = [overloaded()] * 8 + ["fine"]
    model = role_model(ScriptedLLM(script), sleep=sleeps, max_retries=8, rng=random.Random(3))
    await model.complete(hello())
    caps = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 20.0, 20.0]
    assert len(sleeps.delays) == 8
    assert all(0.0 <= delay <= cap for delay, cap in zip(sleeps.delays, caps, strict=True))
    assert max(sleeps.delays[5:]) > 2.0  # later delays are drawn from the larger range


def test_jitter_is_reproducible_with_a_seeded_rng():
    def delays(seed: int) -> list[float]:
        sleeps = Sleeps()
        model = role_model(
            ScriptedLLM([overloaded()] * 3 + ["ok"]), sleep=sleeps, rng=random.Random(seed)
        )
        anyio.run(model.complete, hello())
        return sleeps.delays

    assert delays(5) == delays(5)
    assert delays(5) != delays(6)


async def test_server_errors_forever_raise_model_error_after_max_retries_plus_one_attempts():
    async with FakeOpenAIServer() as srv:
        srv.fail_next(100, status=500, body="down")
        inner = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with inner:
            model = role_model(inner, max_retries=3)
            with collect_calls() as calls, pytest.raises(ModelError) as info:
                await model.complete(hello())
    assert srv.count == 4
    assert (info.value.role, info.value.model) == ("user", "m")
    assert calls[0].attempts == 4 and "500" in (calls[0].error or "")


async def test_client_error_is_not_retried():
    async with FakeOpenAIServer() as srv:
        srv.fail_next(5, status=400, body="bad field")
        inner = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with inner:
            with pytest.raises(ModelError, match="bad field"):
                await role_model(inner).complete(hello())
    assert srv.count == 1


async def test_garbage_body_counts_as_a_failed_attempt_and_is_retried():
    async with FakeOpenAIServer(responder=lambda req: "recovered") as srv:
        srv.garbage_next(1)
        inner = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with inner:
            with collect_calls() as calls:
                response = await role_model(inner).complete(hello())
    assert response.text == "recovered"
    assert calls[0].attempts == 2 and srv.count == 2


async def test_failed_call_is_recorded_with_its_error_and_no_cost():
    model = role_model(ScriptedLLM([ModelCallFailed("no", retryable=False)]), price=Price(input=1))
    with collect_calls() as calls, pytest.raises(ModelError):
        await model.complete(hello())
    assert calls[0].error is not None and "no" in calls[0].error
    assert calls[0].cost_usd == 0.0 and calls[0].attempts == 1


async def test_success_is_priced_per_million_tokens_with_cached_input_discounted():
    usage = TokenUsage(input_tokens=2_000, cached_tokens=1_000, output_tokens=500)
    model = role_model(
        ScriptedLLM([ChatResponse(text="x", usage=usage)]),
        price=Price(input=3.0, output=15.0, cached=0.3),
    )
    with collect_calls() as calls:
        await model.complete(hello())
    assert calls[0].cost_usd == pytest.approx((1_000 * 3.0 + 1_000 * 0.3 + 500 * 15.0) / 1e6)
    assert calls[0].usage == usage


def test_cached_tokens_cost_the_input_price_when_no_cached_price_is_set():
    usage = TokenUsage(input_tokens=1_000_000, cached_tokens=400_000, output_tokens=0)
    assert cost_usd(usage, Price(input=2.0)) == pytest.approx(2.0)
    assert cost_usd(usage, None) == 0.0


async def test_identical_second_call_is_a_cache_hit_with_zero_cost_and_no_request(tmp_path):
    cache = RequestCache(tmp_path / "cache.db")
    async with FakeOpenAIServer() as srv:
        inner = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with inner:
            model = role_model(inner, cache=cache, price=Price(input=1.0, output=1.0))
            with collect_calls() as calls:
                first = await model.complete(hello())
                second = await model.complete(hello())
    assert second == first
    assert srv.count == 1
    assert [c.cache_hit for c in calls] == [False, True]
    assert calls[0].cost_usd > 0 and calls[1].cost_usd == 0.0


async def test_replay_mode_miss_fails_without_calling_the_model(tmp_path):
    inner = ScriptedLLM(["never"])
    model = role_model(inner, cache=RequestCache(tmp_path / "c.db", mode="replay"))
    with collect_calls() as calls, pytest.raises(ModelError, match="replay mode"):
        await model.complete(hello())
    assert inner.requests == []
    assert calls[0].error is not None


async def test_limiter_caps_calls_in_flight():
    in_flight = peak = 0

    async def slow(request: ChatRequest) -> str:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await anyio.sleep(0.01)
        in_flight -= 1
        return "ok"

    model = role_model(FunctionLLM(slow), limiter=anyio.CapacityLimiter(3))
    async with anyio.create_task_group() as tg:
        for i in range(12):
            tg.start_soon(model.complete, hello(str(i)))
    assert peak == 3


async def test_api_key_never_appears_in_call_records_or_cache_rows(tmp_path):
    secret = "sk-very-secret-value-42"
    environ = {"OPENAI_API_KEY": secret}
    cache_path = tmp_path / "cache.db"
    async with FakeOpenAIServer() as srv:
        inner = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ=environ)
        async with inner:
            model = role_model(inner, cache=RequestCache(cache_path), max_retries=0)
            with collect_calls() as calls:
                await model.complete(hello())
                await model.complete(hello())
                srv.fail_next(1, status=401, body=f"Incorrect API key provided: {secret}")
                with pytest.raises(ModelError) as info:
                    await model.complete(hello("other"))
    assert srv.headers[0]["authorization"] == f"Bearer {secret}"
    assert secret not in repr(calls) and secret not in str(info.value)
    model.cache.close()
    for path in tmp_path.iterdir():
        assert secret.encode() not in path.read_bytes()


def test_build_models_makes_one_limited_priced_model_per_role():
    config = RunConfig(
        run={"seed": 1},
        models={
            "user": ModelSpec(model="small", concurrency=5, max_retries=2),
            "judge": ModelSpec(model="big"),
        },
        prices={"small": Price(input=1.0, output=2.0)},
    )
    models = build_models(config, cache=None, environ={})
    assert sorted(models) == ["judge", "user"]
    user = models["user"]
    assert (user.role, user.name, user.max_retries) == ("user", "small", 2)
    assert user.price == Price(input=1.0, output=2.0)
    assert user.limiter is not None and user.limiter.total_tokens == 5
    assert models["judge"].price is None
    assert models["judge"].limiter is not user.limiter


def test_roles_on_one_endpoint_get_one_shared_limiter():
    config = RunConfig.model_validate({
        "models": {"user": {"model": "u", "base_url": "http://127.0.0.1:9/v1"},
                   "judge": {"model": "j", "base_url": "http://127.0.0.1:9/v1"},
                   "agent": {"model": "a", "base_url": "http://127.0.0.1:8/v1"}},
        "endpoints": {"http://127.0.0.1:9/v1": {"concurrency": 3}},
    })  # fmt: skip
    models = build_models(config, cache=None)
    assert models["user"].endpoint_limiter is models["judge"].endpoint_limiter
    assert models["user"].endpoint_limiter.total_tokens == 3
    assert models["agent"].endpoint_limiter is None


async def test_the_endpoint_limit_caps_calls_over_all_roles():
    in_flight = peak = 0

    async def slow(request):
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await anyio.sleep(0.01)
        in_flight -= 1
        return "ok"

    shared = anyio.CapacityLimiter(3)
    models = [
        RoleModel(FunctionLLM(slow), role=role, limiter=anyio.CapacityLimiter(10),
                  endpoint_limiter=shared)
        for role in ("user", "judge")
    ]  # fmt: skip
    request = ChatRequest(messages=[ChatMessage(role="user", content="hi")])
    async with anyio.create_task_group() as tg:
        for i in range(12):
            tg.start_soon(models[i % 2].complete, request)
    assert peak == 3
