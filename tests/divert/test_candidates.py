import json
from datetime import date

import pytest

from vistasim.divert import CandidateContext, LLMCandidates, screen_candidates, unknown_facts
from vistasim.divert._candidates_llm import known_text
from vistasim.llm import ChatResponse, InvalidOutputError, TokenUsage
from vistasim.testing import ScriptedLLM

CTX = CandidateContext(
    persona="Dana, a busy nurse who keeps messages short",
    goal="Move the hotel booking HX-204 to check in on 2026-05-14.",
    facts={"booking_code": "HX-204", "email": "dana.k@example.org", "nights": "3"},
    transcript=(
        ("user", "Hi, I need to move my stay."),
        ("agent", "Sure. The new rate would be $189.50 per night, check-in from 3pm."),
    ),
    original="Fine, please move it to May 14.",
    rationale="the agent proposed something: 'The new rate would be $189.50 per night'",
)


def candidates(*texts: str) -> str:
    return json.dumps({"candidates": list(texts)})


async def test_valid_candidates_are_kept_in_order_with_their_token_cost():
    model = ScriptedLLM(
        [
            ChatResponse(
                text=candidates(
                    "Hmm, $189.50 is steep. Is there anything cheaper for the 14th of May?",
                    "Wait, before that: can you send the new details to dana.k@example.org?",
                    "Yes, but only if I can still check in around 3 pm.",
                ),
                usage=TokenUsage(input_tokens=300, output_tokens=40),
            )
        ]
    )
    kept, tokens = await LLMCandidates(model).generate(CTX, 3)
    assert [c.text[:10] for c in kept] == ["Hmm, $189.", "Wait, befo", "Yes, but o"]
    assert {c.source for c in kept} == {"llm"}
    assert tokens == 340
    prompt = model.requests[0].messages[-1].content
    assert "- booking_code: HX-204" in prompt and "agent: Sure. The new rate" in prompt
    assert "Write 3 alternative messages" in prompt


async def test_invalid_candidates_are_dropped_and_at_most_k_returned():
    model = ScriptedLLM(
        [
            candidates(
                "  fine,  PLEASE move it to may 14.  ",  # the original, up to case and spacing
                "Actually, can you make it May 15 instead?",  # a new date
                "It's under booking HX-999.",  # a new id
                "Please write to me at dana@other.net.",  # a new email
                "Could you make it 4 nights?",  # a new number
                "Never mind. goal_met",  # a stop marker
                "How can I help you today?",  # the assistant's line
                "Is 189.50 the final price for May 14?",
                "is 189.50 the FINAL price for may 14?",  # repeats the previous candidate
                "",
                "Okay, and send the confirmation to DANA.K@example.org, ref hx-204.",
                "Sure, move it.",
            )
        ]
    )
    kept, _ = await LLMCandidates(model).generate(CTX, 2)
    assert [c.text for c in kept] == [
        "Is 189.50 the final price for May 14?",
        "Okay, and send the confirmation to DANA.K@example.org, ref hx-204.",
    ]


def test_each_rejection_says_why():
    kept, problems = screen_candidates(
        [
            "Fine, please move it to May 14.",
            "Make it May 15.",
            "Booking HX-999 please",
            "Mail me at x@y.io",
            "Make it 4 nights",
            '{"action": "finish", "finish_reason": "user_stop"}',
            "As an AI I cannot",
            "x" * 1001,
            "",
        ],
        original=CTX.original,
        known=known_text(CTX),
    )
    assert kept == []
    reasons = [p.split(": ", 1)[1] for p in problems]
    assert reasons[0] == "repeats the original message or another candidate"
    assert "date 05-15" in reasons[1]
    assert "id HX-999" in reasons[2]
    assert "email x@y.io" in reasons[3]
    assert "number 4" in reasons[4]
    assert "stop marker" in reasons[5]
    assert "assistant" in reasons[6]
    assert "at most 1000" in reasons[7]
    assert reasons[8] == "is empty"


@pytest.mark.parametrize(
    ("text", "known", "expected"),
    [
        ("See you at 6pm on the 14th of May", "arrive 18:00 on 2026-05-14", []),
        ("My employee id is emp-42", "Employee EMP-42", []),
        ("It's 1200 a month", "rent: 1,200.00", []),
        ("the 2nd option please", "options: a, b", []),
        ("Call me at 10am", "arrive 18:00", ["time 10:00"]),
        ("I have 10GB left", "plan with 5GB", ["number 10"]),
        ("Order W1008 not W1007", "order W1007", ["id W1008"]),
        ("card ending 4242", "no numbers here", ["number 4242"]),
    ],
)
def test_unknown_facts(text, known, expected):
    assert unknown_facts(text, known) == expected


async def test_no_valid_candidate_is_repaired_with_the_reasons():
    model = ScriptedLLM([candidates("Change it to HX-777."), candidates("Hmm, is May 14 free?")])
    kept, _ = await LLMCandidates(model).generate(CTX, 3)
    assert [c.text for c in kept] == ["Hmm, is May 14 free?"]
    feedback = model.requests[1].messages[-1].content
    assert "id HX-777" in feedback and "invented" in feedback


async def test_no_valid_candidate_after_the_repairs_raises():
    model = ScriptedLLM([candidates("Fine, please move it to May 14."), "{}", candidates()])
    with pytest.raises(InvalidOutputError, match="CandidatesReply"):
        await LLMCandidates(model, max_repairs=2).generate(CTX, 3)
    assert len(model.requests) == 3


async def test_k_below_one_is_refused():
    with pytest.raises(ValueError, match="k must be"):
        await LLMCandidates(ScriptedLLM([])).generate(CTX, 0)


def test_implausible_values_are_refused():
    kept, problems = screen_candidates(
        ["Actually, the 09:31 one, please.", "Could it be March 2 instead?",
         "Could it be 10:15 instead?", "Or March 25?"],
        original="Book the 09:30 train for March 20.",
        known="trains at 09:30, 09:31 and 10:15 on March 2, March 20 and March 25",
        today=date(2026, 3, 16),
    )  # fmt: skip
    assert kept == ["Could it be 10:15 instead?", "Or March 25?"]
    assert "near-duplicate of 09:30" in problems[0]
    assert "a date in the past" in problems[1]
