"""Defect 8: retries wait as long as the provider asks (capped), with jitter no seed can align."""

from vistasim.config import ModelSpec, RunConfig
from vistasim.llm import ChatMessage, ChatRequest, OpenAIChatModel, RoleModel, build_models
from vistasim.testing import FakeOpenAIServer

REQUEST = ChatRequest(messages=[ChatMessage(role="user", content="hi")])


async def test_retry_after_is_honoured_and_capped():
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async with FakeOpenAIServer() as server:
        model = OpenAIChatModel(ModelSpec(model="m", base_url=server.base_url))
        role = RoleModel(model, role="user", max_retries=3, sleep=sleep)
        server.fail_next(1, status=429, headers={"retry-after": "7"})
        server.fail_next(1, status=503, headers={"retry-after": "86400"})
        server.fail_next(1, status=429, headers={"retry-after-ms": "1500"})
        assert (await role.complete(REQUEST)).text == "ok"
        await model.aclose()
    assert 7 <= waits[0] < 8
    assert 30 <= waits[1] <= 61  # a day is capped
    assert 1.5 <= waits[2] < 2.5


def test_jitter_does_not_follow_the_run_seed():
    config = RunConfig.model_validate({"run": {"seed": 7}, "models": {"user": {"model": "m"}}})
    first = build_models(config, cache=None, environ={})["user"]
    second = build_models(config, cache=None, environ={})["user"]
    delays = [[m.retry_delay(attempt) for attempt in range(1, 9)] for m in (first, second)]
    assert delays[0] != delays[1]  # parallel runs with one seed do not retry in lockstep
