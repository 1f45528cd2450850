"""BikeDeskAgent's conduct, driven by hand-written customer messages in varied wording."""

from __future__ import annotations

import pytest
from benchmarks.bikes import BikeDeskAgent

from tests.bikes.helpers import AIKO, INES, JONAS, LENA, NOAH, PRIYA, TOMAS, Chat
from vistasim.agent import AgentAdapter


def test_is_an_agent_adapter():
    from benchmarks.bikes import make_environment

    agent = BikeDeskAgent(env=make_environment())
    assert isinstance(agent, AgentAdapter)
    assert agent.restore_strategy == "state"


async def test_identity_comes_before_any_rental_detail():
    chat = Chat()
    first = await chat.say("When is R204 due back?")
    assert "email address or phone number" in first.text
    assert first.tool_calls == ()
    second = await chat.say(LENA)
    assert [c.name for c in second.tool_calls] == ["find_customer", "get_rental"]
    assert "18:00 today" in second.text


async def test_unknown_email_then_phone():
    chat = Chat()
    await chat.say("Hi, can I extend my rental by 2 hours?")
    miss = await chat.say("it's lena@example.org")
    assert "couldn't find an account" in miss.text and "phone number" in miss.text
    assert miss.text.count("email address or phone number") == 0
    found = await chat.say("try 0621847730 then")
    assert "Thanks, Lena" in found.text and "R204 by 2 hours" in found.text
    assert "Shall I go ahead?" in found.text
    assert chat.called("extend_rental") == []


@pytest.mark.parametrize(
    ("said", "amount", "unit"),
    [
        ("two hours", 2, "hours"),
        ("48 hours", 48, "hours"),
        ("2 days", 2, "days"),
        ("an extra day", 1, "days"),
        ("a couple of hours", 2, "hours"),
        ("24h", 24, "hours"),
    ],
)
async def test_asks_for_the_duration_then_confirms(said, amount, unit):
    chat = Chat()
    ask = await chat.say(f"{LENA}: I'd like to keep my bike longer")
    assert "How much longer" in ask.text
    proposal = await chat.say(said)
    assert "Shall I go ahead?" in proposal.text and chat.called("extend_rental") == []
    await chat.say("yes")
    call = chat.called("extend_rental")[0]
    assert call.args == {"rental_id": "R204", "amount": amount, "unit": unit}
    assert call.error is None


async def test_whole_hours_only():
    chat = Chat()
    reply = await chat.say(f"{LENA} could I have half an hour more on R204?")
    assert "whole hours or days" in reply.text


@pytest.mark.parametrize(
    "answer", ["no", "No thanks, leave it", "wait, let me think", "hold on", "not now"]
)
async def test_no_change_without_a_clear_yes(answer):
    chat = Chat()
    await chat.run(f"Extend R204 by 2 days please, {LENA}", answer)
    assert chat.called("extend_rental") == []
    assert chat.env.select("rentals", {"id": "R204"})[0]["due_at"] == "2026-06-10T18:00"


async def test_unclear_answer_is_asked_again():
    chat = Chat()
    await chat.say(f"Extend R204 by 2 days please, {LENA}")
    again = await chat.say("hmm")
    assert again.text.startswith("Just to be sure") and "Shall I go ahead?" in again.text


async def test_correction_while_confirming():
    chat = Chat()
    await chat.say(f"{LENA} extend R204 by 2 days")
    redo = await chat.say("actually make it 3 hours instead")
    assert "by 3 hours" in redo.text and "21:00 today" in redo.text
    await chat.say("yes")
    assert chat.called("extend_rental")[0].args["unit"] == "hours"


async def test_question_while_confirming_is_answered_then_the_change_asked_again():
    chat = Chat()
    await chat.say(f"{LENA} extend R204 by 2 days")
    detour = await chat.say("Before that — what did R180 cost me?")
    assert "R180 cost €9.00" in detour.text
    assert "Now, the extension:" in detour.text and "Shall I go ahead?" in detour.text
    assert chat.called("extend_rental") == []


async def test_rental_not_on_the_account_is_never_looked_up():
    chat = Chat()
    reply = await chat.say(f"{NOAH} — what did R204 cost?")
    assert "isn't a rental on your account" in reply.text
    assert chat.called("get_rental") == []


async def test_refund_asks_which_charge_then_why():
    chat = Chat()
    which = await chat.say(f"{NOAH} can I get a refund on R198?")
    assert "Which charge" in which.text and "CH7005" in which.text and "CH7006" in which.text
    why = await chat.say("CH7006")
    assert "What went wrong" in why.text
    offer = await chat.say("it's the same extension, charged twice")
    assert "refund CH7006" in offer.text
    await chat.say("yes")
    assert chat.env.select("charges", {"id": "CH7006"})[0]["status"] == "refunded"


async def test_unused_time_is_not_refunded():
    chat = Chat()
    reply = await chat.say(f"{PRIYA} please refund the extension on R200, I didn't use it")
    assert "isn't refunded" in reply.text
    assert chat.called("refund_charge") == []


async def test_reservation_too_soon_asks_for_another_time():
    chat = Chat()
    reply = await chat.say(f"{JONAS} reserve a city bike at Harbour Gate at 10:15 today")
    assert "30 minutes to 7 days" in reply.text
    offer = await chat.say("ok, 11:00 today then")
    assert "11:00 today" in offer.text and "Shall I book it?" in offer.text


async def test_reservation_where_none_is_free():
    chat = Chat()
    reply = await chat.say(f"{INES}: book an e-bike at University Hill tomorrow at 8")
    assert "no e-bike free at University Hill" in reply.text
    assert chat.called("reserve_bike") == []


async def test_only_one_question_per_reply_for_a_reservation():
    chat = Chat()
    replies = await chat.run(
        AIKO,
        "I want to reserve a bike",
        "Central Station",
        "a cargo one",
        "on Friday",
        "8:30",
        "yes",
    )
    questions = [r.text for r in replies[1:5]]
    assert all(q.count("?") == 1 for q in questions), questions
    assert chat.called("reserve_bike")[0].args["pickup_at"] == "2026-06-12T08:30"


async def test_where_to_find_a_bike_type():
    chat = Chat()
    reply = await chat.say("Where can I find a cargo bike right now?")
    assert (
        "Cargo bikes are free right now at: Old Town Depot (1), Central Station (1)" in reply.text
    )


async def test_overdue_question_by_phone_without_rental_number():
    chat = Chat()
    reply = await chat.say("I'm late with my bike, when was it due? +31 6 4471 0925")
    assert "R209 was due back at 08:00 today" in reply.text and "overdue" in reply.text


async def test_small_talk():
    chat = Chat()
    hello = await chat.say("Hello!")
    assert "Spoke & Pedal help desk" in hello.text
    lost = await chat.say("What's the weather like?")
    assert "I can help with" in lost.text
    bye = await chat.say("ok thanks, bye")
    assert "enjoy your ride" in bye.text
    assert chat.calls == []


async def test_rental_number_first_then_the_request():
    chat = Chat()
    await chat.say(TOMAS)
    hint = await chat.say("It's about R209")
    assert "about R209" in hint.text
    refused = await chat.say("can I extend it by 2 hours?")
    assert "overdue" in refused.text


async def test_aclose_is_harmless():
    chat = Chat()
    await chat.agent.aclose()
    assert "help desk" in (await chat.say("hi")).text
