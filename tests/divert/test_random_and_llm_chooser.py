import json
import random

import pytest

from vistasim.divert import LLMChooser, RandomChooser, UserTurn
from vistasim.llm import ChatResponse, InvalidOutputError, TokenUsage
from vistasim.testing import ScriptedLLM

PATH = [
    UserTurn(index=0, kind="say", text="I want to move my stay.", before=""),
    UserTurn(index=1, kind="say", text="It's HX-204.", before="What is the booking code?"),
    UserTurn(index=2, kind="api", text="pay(amount=120)", before="The new rate is $120."),
    UserTurn(index=3, kind="say", text="Yes, go ahead.", before="Shall I confirm the change?"),
]


def reply(turn_index: int, rationale: str = "the user approves an irreversible change") -> str:
    return json.dumps({"turn_index": turn_index, "rationale": rationale})


def answer(text: str, tokens_in: int = 100, tokens_out: int = 10) -> ChatResponse:
    usage = TokenUsage(input_tokens=tokens_in, output_tokens=tokens_out)
    return ChatResponse(text=text, usage=usage, finish_reason="stop")


async def test_random_chooser_is_reproducible_per_seed():
    chooser = RandomChooser()
    first = [(await chooser.choose(PATH, rng=random.Random(s))).turn_index for s in range(30)]
    again = [(await chooser.choose(PATH, rng=random.Random(s))).turn_index for s in range(30)]
    assert first == again
    assert set(first) == {0, 1, 2, 3}  # uniform over all turns: every one comes up


async def test_random_chooser_respects_exclude():
    chooser = RandomChooser()
    picks = {
        (await chooser.choose(PATH, rng=random.Random(s), exclude={0, 3})).turn_index
        for s in range(30)
    }
    assert picks == {1, 2}
    junction = await chooser.choose(PATH, rng=random.Random(0), exclude=[0, 1, 2])
    assert junction.turn_index == 3
    assert junction.chooser == "random"
    assert await chooser.choose(PATH, rng=random.Random(0), exclude=range(4)) is None


async def test_llm_chooser_returns_the_models_choice_with_its_token_overhead():
    model = ScriptedLLM([answer(reply(3), tokens_in=200, tokens_out=20)])
    junction = await LLMChooser(model).choose(PATH, rng=random.Random(1))
    assert junction.turn_index == 3
    assert junction.rationale == "the user approves an irreversible change"
    assert junction.chooser == "llm"
    assert junction.overhead_tokens == 220
    prompt = model.requests[0].messages[-1].content
    assert "[turn 2]" in prompt and "user did (api): pay(amount=120)" in prompt
    assert "agent said: Shall I confirm the change?" in prompt
    assert "0, 1, 2, 3" in prompt


async def test_llm_chooser_request_seed_follows_the_rng():
    seeds = []
    for _ in range(2):
        model = ScriptedLLM([reply(1)])
        await LLMChooser(model).choose(PATH, rng=random.Random(7))
        seeds.append(model.requests[0].seed)
    assert seeds[0] == seeds[1] is not None


async def test_out_of_range_index_is_repaired_and_both_calls_are_counted():
    model = ScriptedLLM([answer(reply(9)), answer(reply(1))])
    junction = await LLMChooser(model).choose(PATH, rng=random.Random(0))
    assert junction.turn_index == 1
    assert junction.overhead_tokens == 220
    feedback = model.requests[1].messages[-1].content
    assert "turn_index 9 cannot be chosen" in feedback and "[0, 1, 2, 3]" in feedback


async def test_an_excluded_index_is_invalid_too():
    model = ScriptedLLM([reply(3), reply(2)])
    junction = await LLMChooser(model).choose(PATH, rng=random.Random(0), exclude={3})
    assert junction.turn_index == 2
    assert len(model.requests) == 2
    assert "do not pick" in model.requests[0].messages[-1].content
    assert "[0, 1, 2]" in model.requests[1].messages[-1].content


async def test_repairs_beyond_the_bound_raise():
    model = ScriptedLLM([reply(7), "not json", reply(-1)])
    with pytest.raises(InvalidOutputError, match="JunctionReply"):
        await LLMChooser(model, max_repairs=1).choose(PATH, rng=random.Random(0))
    assert len(model.requests) == 2


async def test_llm_chooser_makes_no_call_when_nothing_can_be_chosen():
    model = ScriptedLLM([])
    assert await LLMChooser(model).choose(PATH, rng=random.Random(0), exclude=range(4)) is None
    assert await LLMChooser(model).choose([], rng=random.Random(0)) is None
    assert model.requests == []
