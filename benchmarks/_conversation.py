"""A 5-turn airline-style conversation: what the LLM user sends per turn, in tokens.

The user model is the fake OpenAI-compatible server (in process; it counts 4 characters a token
and simulates prompt caching by remembering message prefixes, as a provider's cache does); the
agent is a Python function answering like an airline's support agent. Figures are per user turn:
prompt, cached and completion tokens, as the server reports them in `usage`.
"""

from __future__ import annotations

import json

from vistasim.agent import Turn

USER_TURNS = [
    ("I need to move my flight to Denver from May 14 to May 15. Can you help me with that?",
     "Ask to move the flight; give details when asked."),
    ("Sure, the booking reference is QX7R2P and the last name is Lopez.",
     "Give the booking reference and last name; then ask for May 15."),
    ("May 15, same route please. Anything around midday would be great for me.",
     "Ask for a midday flight on May 15; keep the fee under $50."),
    ("A family wedding got moved by a day. The 11:30 works, but $75 feels steep. I'm a gold "
     "member, does that help at all?",
     "Explain the reason since asked; push back on the fee, mention gold status."),
    ("Yes, please go ahead with the 11:30 flight for $35. Thank you!",
     "Accept the $35 change; then finish once confirmed."),
]  # fmt: skip

AGENT_REPLIES = [
    "Hello Maria, thanks for reaching out to SkyWays support. I can help you change your flight. "
    "To pull up the reservation, could you confirm the booking reference and the last name on "
    "the booking?",
    "Thank you. I found booking QX7R2P for Maria Lopez: SW 412 from Chicago O'Hare (ORD) to "
    "Denver (DEN) on May 14, departing 9:40 AM and arriving 11:05 AM, economy (fare class M), "
    "one checked bag. Which date would you like to move to, and do you have a preferred time?",
    "On May 15 there are three flights from ORD to DEN: SW 408 at 7:05 AM (arrives 8:30 AM), "
    "SW 412 at 11:30 AM (arrives 12:55 PM) and SW 420 at 6:15 PM (arrives 7:40 PM). The change "
    "fee for fare class M is $75, plus any fare difference; SW 412 at 11:30 AM has no fare "
    "difference. May I ask the reason for the change?",
    "Thanks for sharing, and congratulations to your sister. As a Gold member you qualify for a "
    "reduced change fee of $35, with no fare difference on SW 412. Shall I move you to the "
    "11:30 AM flight on May 15 for $35, charged to the card on file?",
    "Done. Your new flight is SW 412 on May 15, departing ORD at 11:30 AM and arriving DEN at "
    "12:55 PM, seat 14C, with your checked bag carried over. $35 was charged to the Visa ending "
    "4421, and a confirmation email is on its way to maria.lopez@example.com. Is there anything "
    "else I can help with?",
]


def airline_scenario():
    from vistasim.scenario import Limits, Persona, Scenario, Style

    return Scenario(
        id="airline-change-flight",
        persona=Persona(
            name="Maria Lopez",
            profile="52, teacher, flying to her sister's wedding; polite, a bit anxious about fees",
            style=Style(verbosity="medium", patience=3),
        ),
        goal="Move my flight on booking QX7R2P (Chicago to Denver, May 14) to the same route on "
        "May 15, paying at most $50 in fees.",
        knowledge={
            "booking_ref": "QX7R2P",
            "last_name": "Lopez",
            "email": "maria.lopez@example.com",
        },
        hidden={"reason": "the wedding was moved by a day", "status": "gold frequent flyer"},
        limits=Limits(max_turns=len(USER_TURNS)),
    )


def user_responder(request: dict) -> str:
    """The simulated user's model: the next scripted message, in the short action format."""
    said = sum(1 for m in request["messages"] if m["role"] == "assistant")
    text, plan = USER_TURNS[min(said, len(USER_TURNS) - 1)]
    return json.dumps({"plan": plan, "action": "say", "text": text})


def airline_agent(turn: Turn) -> str:
    """The airline's support agent: one scripted reply per user turn."""
    return AGENT_REPLIES[min(len(turn.history) // 2, len(AGENT_REPLIES) - 1)]


async def user_tokens_per_turn() -> dict[str, object]:
    """Play the conversation once and return the LLM user's tokens per turn."""
    from tempfile import TemporaryDirectory

    from vistasim.config import RunConfig
    from vistasim.explore import run
    from vistasim.store import open_store, read_run_view
    from vistasim.testing import FakeOpenAIServer

    async with FakeOpenAIServer(responder=user_responder) as server:
        config = RunConfig.model_validate({
            "user": {"policy": "llm"},
            "models": {"user": {"model": "bench-user", "base_url": server.base_url,
                                "api_key_env": ""}},
            "agent": {"kind": "python", "target": "benchmarks._conversation:airline_agent"},
            "cache": {"mode": "off"},
        })  # fmt: skip
        with TemporaryDirectory() as tmp, open_store(f"{tmp}/conv.db") as store:
            result = await run(config, scenarios=[airline_scenario()], store=store)
            calls = read_run_view(store, result.run_id).episodes[0].model_calls
    turns = len(calls)
    prompt = [c.usage.input_tokens for c in calls]
    return {
        "user_turns": turns,
        "stop": result.stop_reasons,
        "prompt_tokens_per_user_turn": round(sum(prompt) / turns, 1),
        "cached_tokens_per_user_turn": round(sum(c.usage.cached_tokens for c in calls) / turns, 1),
        "completion_tokens_per_user_turn": round(
            sum(c.usage.output_tokens for c in calls) / turns, 1
        ),
        "prompt_tokens_by_turn": prompt,
    }
