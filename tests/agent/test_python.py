from __future__ import annotations

import time

import anyio
import pytest

from tests.agent.targets import Counter, Greeter, NeedsEnv, echo
from vistasim.agent import PythonAgent, Reply, Turn, Utterance
from vistasim.errors import AgentError, ConfigError
from vistasim.events import ToolCall
from vistasim.testing._agents import FakeAgent


def turn(message: str = "hi", **kwargs) -> Turn:
    return Turn(episode_id="ep-1", message=message, **kwargs)


async def test_sync_function_reply_text_comes_from_returned_str():
    agent = PythonAgent(echo)
    reply = await agent.respond(turn("where is my order?"))
    assert reply == Reply(text="echo: where is my order?")
    assert agent.restore_strategy == "stateless"


async def test_async_function_is_awaited():
    async def answer(t: Turn) -> str:
        await anyio.sleep(0)
        return f"{len(t.history)} earlier"

    history = (Utterance(role="user", text="a"), Utterance(role="agent", text="b"))
    reply = await PythonAgent(answer).respond(turn(history=history))
    assert reply.text == "2 earlier"


async def test_class_is_instantiated_with_options_and_keeps_state_across_turns():
    agent = PythonAgent(Greeter, options={"greeting": "hey"})
    await agent.respond(turn("one"))
    reply = await agent.respond(turn("two"))
    assert reply.text == "hey #2: two"
    assert agent.restore_strategy == "replay"


async def test_each_adapter_gets_a_fresh_instance():
    await PythonAgent(Greeter).respond(turn())
    reply = await PythonAgent(Greeter).respond(turn())
    assert reply.text == "hello #1: hi"


async def test_async_respond_method_is_awaited():
    reply = await PythonAgent(Counter).respond(turn())
    assert reply.text == "count=1"


async def test_env_is_passed_to_a_class_that_takes_env():
    class FakeEnv:
        pass

    reply = await PythonAgent(NeedsEnv, env=FakeEnv()).respond(turn())
    assert reply.text == "env is FakeEnv"


def test_class_needing_env_without_an_environment_is_a_config_error():
    with pytest.raises(ConfigError, match="has no environment") as info:
        PythonAgent(NeedsEnv)
    assert info.value.key == "environment"


def test_unknown_option_is_a_config_error_naming_it():
    with pytest.raises(ConfigError, match="colour") as info:
        PythonAgent(Greeter, options={"colour": "red"})
    assert info.value.key == "agent.options"


def test_options_for_a_function_are_a_config_error():
    with pytest.raises(ConfigError, match="is a function"):
        PythonAgent(echo, options={"greeting": "hey"})


def test_class_without_respond_is_a_config_error():
    class Mute:
        pass

    with pytest.raises(ConfigError, match="has no respond"):
        PythonAgent(Mute)


async def test_dict_reply_with_tool_calls_becomes_tool_call_events():
    def agent(t: Turn) -> dict:
        return {
            "text": "refund started",
            "tool_calls": [
                {"name": "find_order", "args": {"order_id": "W1"}, "result": {"ok": True}},
                {"name": "refund", "args": '{"amount": 5}', "error": "card expired"},
                {"name": "note", "args": "not json"},
            ],
        }

    reply = await PythonAgent(agent).respond(turn())
    assert reply.text == "refund started"
    assert reply.tool_calls == (
        ToolCall(name="find_order", args={"order_id": "W1"}, result={"ok": True}),
        ToolCall(name="refund", args={"amount": 5}, error="card expired"),
        ToolCall(name="note", args={"_raw": "not json"}),
    )


async def test_a_reply_with_tool_calls_as_dicts_gets_tool_call_events():
    def agent(t: Turn) -> Reply:
        calls = ({"name": "find_order", "args": {"order_id": "W1"}, "result": {"ok": True}},)
        return Reply(text="found it", tool_calls=calls)  # type: ignore[arg-type]

    reply = await PythonAgent(agent).respond(turn())
    assert reply.tool_calls == (
        ToolCall(name="find_order", args={"order_id": "W1"}, result={"ok": True}),
    )


async def test_tuples_in_a_tool_calls_result_are_json_arrays():
    # Found on a florist desk written blind: a catalogue tool returned its delivery slots as
    # tuples ({"morning": ("09:00", "13:00")}), which `json.dumps` writes as arrays, and every
    # episode that looked at the catalogue ended as the agent's error.
    def agent(t: Turn) -> Reply:
        result = {"slots": {"morning": ("09:00", "13:00")}, "ids": (1, (2, 3))}
        calls = ({"name": "get_catalogue", "args": {"zone": ("A",)}, "result": result},)
        return Reply(text="here", tool_calls=calls)  # type: ignore[arg-type]

    reply = await PythonAgent(agent).respond(turn())
    assert reply.tool_calls == (
        ToolCall(name="get_catalogue", args={"zone": ["A"]},
                 result={"slots": {"morning": ["09:00", "13:00"]}, "ids": [1, [2, 3]]}),
    )


async def test_a_set_in_a_tool_calls_result_is_still_the_agents_error():
    def agent(t: Turn) -> Reply:
        calls = ({"name": "tags", "result": {"tags": {"a", "b"}}},)
        return Reply(text="x", tool_calls=calls)  # type: ignore[arg-type]

    with pytest.raises(AgentError, match="'tags' is not valid JSON data"):
        await PythonAgent(agent).respond(turn())


async def test_a_reply_with_a_malformed_tool_call_is_the_agents_error():
    def agent(t: Turn) -> Reply:
        return Reply(text="x", tool_calls=({"args": {}},))  # type: ignore[arg-type]

    with pytest.raises(AgentError, match="string 'name'"):
        await PythonAgent(agent).respond(turn())


async def test_returned_reply_is_kept_as_is():
    expected = Reply(text="done", metadata={"k": 1})
    assert await PythonAgent(lambda t: expected).respond(turn()) is expected


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (None, "returned NoneType"),
        (42, "returned int"),
        ("", "returned an empty str"),
        ("   ", "returned an empty str"),
        ({"reply": "hi"}, "returned dict"),
        ({"text": "hi", "mood": "glad"}, "unknown keys"),
        ({"text": "", "tool_calls": []}, "empty text"),
        ({"text": "hi", "tool_calls": [{"args": {}}]}, "string 'name'"),
        ({"text": "hi", "tool_calls": "find_order"}, "tool_calls as str"),
    ],
)
async def test_garbage_return_is_an_agent_error(returned, message):
    with pytest.raises(AgentError, match=message):
        await PythonAgent(lambda t: returned).respond(turn())


async def test_raising_agent_is_an_agent_error_with_type_message_and_traceback():
    def broken(t: Turn) -> str:
        raise KeyError("customer_id")

    with pytest.raises(AgentError, match=r"broken raised KeyError: 'customer_id'") as info:
        await PythonAgent(broken).respond(turn())
    assert "Traceback" in info.value.body
    assert len(info.value.body) <= 2000


async def test_raising_async_method_names_respond():
    class Broken:
        async def respond(self, t: Turn) -> str:
            raise ValueError("no such order")

    with pytest.raises(AgentError, match=r"Broken\.respond\(\) raised ValueError: no such order"):
        await PythonAgent(Broken).respond(turn())


async def test_slow_sync_agent_times_out():
    def slow(t: Turn) -> str:
        time.sleep(0.3)
        return "too late"

    start = time.monotonic()
    with pytest.raises(AgentError, match="did not answer within 0.05 s"):
        await PythonAgent(slow, timeout_s=0.05).respond(turn())
    assert time.monotonic() - start < 0.25


async def test_slow_async_agent_times_out():
    async def slow(t: Turn) -> str:
        await anyio.sleep(5)
        return "too late"

    with pytest.raises(AgentError, match="did not answer within"):
        await PythonAgent(slow, timeout_s=0.05).respond(turn())


async def test_agent_own_timeout_error_is_reported_as_raised_not_as_our_timeout():
    def agent(t: Turn) -> str:
        raise TimeoutError("database")

    with pytest.raises(AgentError, match="raised TimeoutError: database"):
        await PythonAgent(agent, timeout_s=5).respond(turn())


async def test_snapshot_and_restore_delegate_to_the_agent():
    agent = PythonAgent(Counter)
    assert agent.restore_strategy == "state"
    await agent.respond(turn("a"))
    saved = agent.snapshot()
    await agent.respond(turn("b"))
    agent.restore(saved)
    reply = await agent.respond(turn("c"))
    assert reply.text == "count=2"
    assert agent.snapshot() == {"count": 2, "said": ["a", "c"]}


async def test_snapshot_is_not_changed_by_later_turns_or_restores():
    agent = PythonAgent(Counter)
    saved = agent.snapshot()
    agent.restore(saved)
    await agent.respond(turn("a"))
    assert saved == {"count": 0, "said": []}


def test_snapshot_of_an_agent_without_state_support_is_an_agent_error():
    with pytest.raises(AgentError, match="restore strategy is 'replay'"):
        PythonAgent(Greeter).snapshot()


def test_snapshot_that_is_not_json_is_an_agent_error():
    class Odd(Counter):
        def snapshot(self):
            return {"when": object()}

    with pytest.raises(AgentError, match="not JSON"):
        PythonAgent(Odd).snapshot()


async def test_aclose_closes_the_agent():
    class Closable(Greeter):
        closed = False

        async def aclose(self) -> None:
            Closable.closed = True

    await PythonAgent(Closable).aclose()
    assert Closable.closed


def test_target_that_is_not_callable_is_a_config_error():
    with pytest.raises(ConfigError, match="not a class or function"):
        PythonAgent(42)


async def test_fake_agent_answers_with_its_function_and_records_turns():
    async def fn(t: Turn) -> str:
        return t.message.upper()

    agent = FakeAgent(fn)
    reply = await agent.respond(turn("hello"))
    assert reply.text == "HELLO"
    assert agent.turns == [turn("hello")]
    assert agent.restore_strategy == "stateless"


async def test_fake_agent_reports_garbage_like_a_python_agent():
    with pytest.raises(AgentError, match="returned NoneType"):
        await FakeAgent(lambda t: None).respond(turn())


def test_env_in_options_is_a_config_error():
    with pytest.raises(ConfigError, match="remove 'env'"):
        PythonAgent(NeedsEnv, options={"env": 1}, env=object())


async def test_class_raising_in_init_is_an_agent_error():
    class Fragile:
        def __init__(self) -> None:
            raise ConnectionError("crm down")

        def respond(self, t: Turn) -> str:
            return "never"

    with pytest.raises(AgentError, match=r"Fragile\.__init__\(\) raised ConnectionError: crm down"):
        PythonAgent(Fragile)


class _NeedsModel:
    def __init__(self, model):
        self.model = model

    def respond(self, turn):
        return f"model {self.model.name}"


async def test_a_class_taking_model_gets_the_runs_agent_model():
    from vistasim.testing import ScriptedLLM

    agent = PythonAgent(_NeedsModel, model=ScriptedLLM([], name="m1"))
    reply = await agent.respond(Turn(episode_id="e", message="hi"))
    assert reply.text == "model m1"


def test_a_class_taking_model_without_one_names_models_agent():
    with pytest.raises(ConfigError, match=r"\[models.agent\]"):
        PythonAgent(_NeedsModel)
