"""The bundled tokenizer, request digests and the proxy requests of rule agents."""

from __future__ import annotations

import json

import pytest

import vistasim.agent._tokens as tokens
from vistasim.agent import (
    ModelAgent,
    PastTurn,
    Turn,
    count_tokens,
    digest_request,
    past_turns,
    proxy_requests,
)
from vistasim.domains.shop import ShopEnvironment
from vistasim.errors import MissingExtraError
from vistasim.events import AgentReply, ToolCall, UserMessage
from vistasim.llm import ChatMessage, ChatResponse, ModelToolCall, TokenUsage, ToolSpec
from vistasim.testing import ScriptedLLM

TOOLS = [
    ToolSpec(
        name="get_order",
        description="Look up an order.",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
    )
]


def test_count_tokens_is_offline_non_zero_and_stable():
    text = "Where is my order W1006? It was due on Monday."
    assert count_tokens("") == 0
    assert 5 < count_tokens(text) < 40
    assert count_tokens(text) == count_tokens(text)
    assert count_tokens(text + " " + text) > count_tokens(text)


def test_a_missing_wordllama_names_the_embed_extra(monkeypatch):
    monkeypatch.setattr(tokens.importlib.util, "find_spec", lambda name: None)
    tokens._tokenizer.cache_clear()
    tokens._count.cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r"vistasim\[embed\]"):
            count_tokens("hello")
    finally:
        monkeypatch.undo()
        tokens._tokenizer.cache_clear()


def _messages(*texts: str) -> list[ChatMessage]:
    system = ChatMessage(role="system", content="You are the shop's agent.")
    roles = ("user", "assistant")
    return [system, *(ChatMessage(role=roles[i % 2], content=t) for i, t in enumerate(texts))]


def test_a_digest_counts_head_messages_and_output():
    digest = digest_request(_messages("where is W1006?"), TOOLS, output_text="It has shipped.")
    assert len(digest.prefix) == 2  # after the head, after the one user message
    assert 0 < digest.head_tokens == digest.prefix[0][1] < digest.input_tokens
    assert digest.prefix[-1][1] == digest.input_tokens
    assert digest.output_tokens == count_tokens("It has shipped.")
    assert all(len(h) == 16 and int(h, 16) >= 0 for h, _ in digest.prefix)


def test_prefix_hashes_agree_until_the_first_differing_message():
    a = digest_request(_messages("hi", "Hello!", "where is W1006?"), TOOLS)
    b = digest_request(_messages("hi", "Hello!", "cancel W1006"), TOOLS)
    assert a.prefix[:3] == b.prefix[:3]
    assert a.prefix[3][0] != b.prefix[3][0]
    other_tools = digest_request(_messages("hi", "Hello!"), [ToolSpec(name="x")])
    assert other_tools.prefix[0][0] != a.prefix[0][0]


def test_dicts_in_the_openai_format_digest_like_chat_messages():
    call = ModelToolCall(id="c1", name="get_order", arguments='{"order_id": "W1"}')
    messages = [
        ChatMessage(role="user", content="hi"),
        ChatMessage(role="assistant", tool_calls=[call]),
        ChatMessage(role="tool", content='{"result": 1}', tool_call_id="c1"),
    ]
    as_dicts = [
        {"role": "user", "content": "hi"},
        {
            "tool_calls": [
                {
                    "type": "function",
                    "id": "c1",
                    "function": {"arguments": '{"order_id": "W1"}', "name": "get_order"},
                }
            ],
            "role": "assistant",
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"result": 1}'},
    ]
    assert digest_request(messages, TOOLS, output_tool_calls=[call]) == digest_request(
        as_dicts, TOOLS, output_tool_calls=[call]
    )


def _calls() -> tuple[ToolCall, ...]:
    return (
        ToolCall(name="get_order", args={"order_id": "W1"}, result={"status": "shipped"}),
        ToolCall(name="cancel_order", args={"order_id": "W1"}, error="already shipped"),
    )


def test_proxy_requests_are_one_per_tool_call_plus_the_reply_and_grow():
    past = [PastTurn(user="hi", reply="Hello! How can I help?")]
    digests = proxy_requests(
        policy="Be kind.", tools=TOOLS, past=past, message="cancel W1", tool_calls=_calls(),
        reply="W1 has shipped already.",
    )  # fmt: skip
    assert len(digests) == 3
    sizes = [d.input_tokens for d in digests]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3
    # Each request extends the previous one by one call and its result: same hashes before.
    assert [len(d.prefix) for d in digests] == [4, 6, 8]
    assert digests[1].prefix[:4] == digests[0].prefix
    assert digests[2].prefix[:6] == digests[1].prefix
    assert digests[-1].output_tokens == count_tokens("W1 has shipped already.")
    first_call = count_tokens("get_order") + count_tokens(json.dumps({"order_id": "W1"}))
    assert digests[0].output_tokens == first_call
    assert {d.head_tokens for d in digests} == {digests[0].prefix[0][1]}


def test_proxy_requests_without_tool_calls_are_one_request():
    digests = proxy_requests(policy="p", tools=(), past=(), message="hi", tool_calls=(), reply="yo")
    assert len(digests) == 1 and len(digests[0].prefix) == 2


def test_the_same_conversation_gives_the_same_proxy_digests():
    """Call ids are positional: the agent's own ids never change the bytes."""
    other_ids = tuple(c.model_copy(update={"call_id": f"x{i}"}) for i, c in enumerate(_calls()))
    kw = {"policy": "p", "tools": TOOLS, "message": "cancel W1", "reply": "no"}
    a = proxy_requests(past=[PastTurn("hi", _calls(), "ok")], tool_calls=_calls(), **kw)
    b = proxy_requests(past=[PastTurn("hi", other_ids, "ok")], tool_calls=other_ids, **kw)
    assert a == b


def test_a_later_turn_shares_the_earlier_turns_prefix():
    first = proxy_requests(
        policy="p", tools=TOOLS, past=(), message="hi", tool_calls=_calls()[:1], reply="ok"
    )
    second = proxy_requests(
        policy="p", tools=TOOLS, past=[PastTurn("hi", _calls()[:1], "ok")], message="more",
        tool_calls=(), reply="done",
    )  # fmt: skip
    assert second[0].prefix[: len(first[-1].prefix)] == first[-1].prefix


def test_past_turns_read_user_calls_and_reply_from_events():
    events = [
        UserMessage(text="hi"),
        *_calls(),
        AgentReply(text="done"),
        UserMessage(text="unanswered"),
    ]
    assert past_turns(events) == (PastTurn(user="hi", tool_calls=_calls(), reply="done"),)


async def test_model_agent_attaches_a_digest_of_every_request_it_sends():
    wants = ChatResponse(
        tool_calls=[ModelToolCall(id="c0", name="get_order", arguments='{"order_id": "W1006"}')],
        usage=TokenUsage(input_tokens=50, output_tokens=5),
    )
    model = ScriptedLLM([wants, "W1006 has shipped.", "You are welcome."])
    agent = ModelAgent(model, env=ShopEnvironment(), system_prompt="You are the shop's agent.")
    reply = await agent.respond(Turn(episode_id="e1", message="where is W1006?"))
    assert len(reply.requests) == 2
    expected = [
        digest_request(model.requests[0].messages, model.requests[0].tools,
                       output_tool_calls=wants.tool_calls),
        digest_request(model.requests[1].messages, model.requests[1].tools,
                       output_text="W1006 has shipped."),
    ]  # fmt: skip
    assert list(reply.requests) == expected
    assert reply.requests[1].prefix[:2] == reply.requests[0].prefix
    again = await agent.respond(Turn(episode_id="e1", message="thanks"))
    assert len(again.requests) == 1  # only this turn's requests
