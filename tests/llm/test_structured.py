import json

import pytest
from pydantic import BaseModel

from vistasim.config import ModelSpec
from vistasim.errors import VistasimError
from vistasim.llm import (
    ChatMessage,
    ChatRequest,
    InvalidOutputError,
    OpenAIChatModel,
    complete_json,
)
from vistasim.testing import ScriptedLLM
from vistasim.testing._fake_server import FakeOpenAIServer


class Pick(BaseModel):
    turn_index: int
    rationale: str


def ask() -> ChatRequest:
    return ChatRequest(messages=[ChatMessage(role="user", content="pick a turn")])


async def test_valid_reply_is_parsed_in_one_call():
    value, calls = await complete_json(
        ScriptedLLM(['{"turn_index": 2, "rationale": "pivot"}']), ask(), Pick
    )
    assert value == Pick(turn_index=2, rationale="pivot")
    assert calls == 1


async def test_code_fences_around_the_json_are_stripped():
    reply = '```json\n{"turn_index": 1, "rationale": "r"}\n```'
    value, _ = await complete_json(ScriptedLLM([reply]), ask(), Pick)
    assert value.turn_index == 1


async def test_json_schema_response_format_is_added_when_missing():
    llm = ScriptedLLM(['{"turn_index": 0, "rationale": "r"}'])
    await complete_json(llm, ask(), Pick)
    fmt = llm.requests[0].response_format
    assert fmt is not None and fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"] == Pick.model_json_schema()


async def test_existing_response_format_is_kept():
    llm = ScriptedLLM(['{"turn_index": 0, "rationale": "r"}'])
    request = ask().model_copy(update={"response_format": {"type": "json_object"}})
    await complete_json(llm, request, Pick)
    assert llm.requests[0].response_format == {"type": "json_object"}


async def test_bad_reply_is_repaired_with_the_error_shown_to_the_model():
    llm = ScriptedLLM(['{"turn_index": "soon"}', '{"turn_index": 3, "rationale": "fixed"}'])
    value, calls = await complete_json(llm, ask(), Pick)
    assert (value.turn_index, calls) == (3, 2)
    repair = llm.requests[1].messages
    assert repair[-2] == ChatMessage(role="assistant", content='{"turn_index": "soon"}')
    assert repair[-1].role == "user"
    assert "turn_index" in (repair[-1].content or "") and "rationale" in (repair[-1].content or "")


async def test_text_that_is_not_json_is_repaired():
    llm = ScriptedLLM(["Sure! Here it is.", '{"turn_index": 4, "rationale": "r"}'])
    value, calls = await complete_json(llm, ask(), Pick)
    assert (value.turn_index, calls) == (4, 2)


async def test_exhausted_repairs_raise_invalid_output_error_with_errors_and_last_text():
    llm = ScriptedLLM(["nope", "still nope", "{}"])
    with pytest.raises(InvalidOutputError) as info:
        await complete_json(llm, ask(), Pick, max_repairs=2)
    assert isinstance(info.value, VistasimError)
    assert info.value.last_text == "{}"
    assert any(e.startswith("turn_index:") for e in info.value.errors)
    assert len(llm.requests) == 3


async def test_fake_server_default_responder_satisfies_the_schema():
    async with FakeOpenAIServer() as srv:
        model = OpenAIChatModel(ModelSpec(model="m", base_url=srv.base_url), environ={})
        async with model:
            value, calls = await complete_json(model, ask(), Pick)
    assert calls == 1 and isinstance(value, Pick)
    assert json.loads(json.dumps(srv.requests[0]["response_format"]))["type"] == "json_schema"
