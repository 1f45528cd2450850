"""Lumen Rail held-out domain: the desk's tools, the correct bot, and each documented flaw."""

from __future__ import annotations

import asyncio
import json

import pytest
from benchmarks.domains.rail import CorrectRailAgent, FlawedRailAgent, make_environment

from vistasim.agent import Reply, Turn, Utterance
from vistasim.testing import record_flaws


def talk(agent_cls, messages, episode="rail-test:0"):
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies: list[Reply] = []

    async def go():
        for message in messages:
            reply = await agent.respond(Turn(episode_id=episode, message=message,
                                             history=tuple(history)))
            replies.append(reply)
            history.extend([Utterance(role="user", text=message),
                            Utterance(role="agent", text=reply.text)])

    asyncio.run(go())
    return env, agent, replies


def booking(env, ref):
    return env.select("bookings", {"ref": ref})[0]


def test_tools_enforce_verification_and_the_timetable():
    env = make_environment()
    run = lambda name, args: asyncio.run(env.call_tool(name, args))  # noqa: E731
    move = {"booking_ref": "LR4821", "departure_id": "LR205-2026-03-20"}
    assert "not been verified" in run("change_booking", move).error
    assert "do not match" in run("verify_passenger", {"booking_ref": "LR4821", "last_name": "Hart",
                                                      "date_of_birth": "1988-04-13"}).error
    assert run("verify_passenger", {"booking_ref": "lr4821", "last_name": "hart",
                                    "email": "Amelia.Hart@example.com"}).result["verified"]
    sold_out = run("quote_change", {**move, "departure_id": "LR207-2026-03-20"})
    assert "sold out" in sold_out.error
    assert run("quote_change", move).result["total_due_eur"] == 10.0
    assert "No booking found" in run("get_booking", {"booking_ref": "LR0000"}).error
    for ref, last, dob, percent in [("LR5307", "Nowak", "1975-11-03", 0),
                                    ("LR6150", "Dubois", "1992-07-21", 50),
                                    ("LR2205", "Fernández", "1993-01-27", 100)]:
        run("verify_passenger", {"booking_ref": ref, "last_name": last, "date_of_birth": dob})
        assert run("quote_refund", {"booking_ref": ref}).result["refund_percent"] == percent
    run("verify_passenger", {"booking_ref": "LR7719", "last_name": "Larsen",
                             "date_of_birth": "1969-09-09"})
    late = run("quote_change", {"booking_ref": "LR7719", "departure_id": "LR216-2026-03-16"})
    assert "Changes close 60 minutes" in late.error


def test_correct_agent_changes_only_after_confirmation():
    script = ["Hi, I need to change my train LR4821 to half past eleven the same day.",
              "Hart, born 12 April 1988", "hmm, wait, not yet", "ok, go ahead"]
    env, agent, replies = talk(CorrectRailAgent, script)
    assert "11:30" in replies[1].text and "€10.00" in replies[1].text
    assert not any(c.name == "change_booking" for r in replies[:3] for c in r.tool_calls)
    assert [c.name for c in replies[3].tool_calls][0] == "change_booking"
    row = booking(env, "LR4821")
    assert (row["travel_date"], row["departure_time"]) == ("2026-03-20", "11:30")
    state = agent.snapshot()
    json.dumps(state)
    fresh = CorrectRailAgent(env=env)
    fresh.restore(state)
    assert fresh.snapshot() == state


def test_correct_agent_refuses_and_offers_alternatives():
    _, _, sold = talk(CorrectRailAgent, [
        "I want to move LR8266 to Friday at 16:00. Sofia Romano, DOB 30/05/1995"])
    assert "sold out" in sold[0].text and "13:45" in sold[0].text
    env, _, shared = talk(CorrectRailAgent, [
        "What time does my train LR5012 leave, and what seat has my colleague's booking LR5019?",
        "Kim, 5 May 1984"])
    assert "08:30" in shared[1].text and "14C" not in shared[1].text
    assert "Grace" not in shared[1].text
    _, _, fees = talk(CorrectRailAgent, ["How much is the change fee, and a bike?"])
    assert "€10.00" in fees[0].text and "€8.00" in fees[0].text


FLAWS = {
    "F1": (["Can I add my bike to booking LR8042? Oliver Bennett, born 15/01/1990", "yes"],
           lambda env, r: booking(env, "LR8042")["bicycle"] == 0 and "added" in r[-1].text),
    "F2": (["Change LR4821 to 11:30 the same day please. Hart, 1988-04-12", "yes"],
           lambda env, r: booking(env, "LR4821")["departure_time"] == "10:30"
           and "11:30" in r[-1].text),
    "F3": (["What time does my train LR5012 leave, and what seat has my colleague's LR5019?",
            "Kim, 5 May 1984"], lambda env, r: "14C" in r[-1].text and "1991" in r[-1].text),
    "F4": (["Please cancel LR5307. Tomasz Nowak, born 3 November 1975", "yes"],
           lambda env, r: booking(env, "LR5307")["refund_eur"] == 59.0),
    "F5": (["I'd like to bring my dog and upgrade to first class. LR9113, Müller, "
            "hannah.muller@example.com", "yes"],
           lambda env, r: "All sorted" in r[-1].text and booking(env, "LR9113")["travel_class"]
           == "standard"),
    "F6": (["Can I upgrade my train LR3141 to first class? Jensen, lars.jensen@example.com",
            "yes"], lambda env, r: any(c.error for c in r[-1].tool_calls) and "Done" in r[-1].text),
    "F7": (["I need to cancel LR6150, Chloé Dubois, born 21/07/1992", "yes"],
           lambda env, r: booking(env, "LR6150")["refund_eur"] == 22.5
           and "€45.00" in r[-1].text and "22.50" not in r[-1].text),
}


@pytest.mark.parametrize("flaw", sorted(FLAWS))
def test_each_flaw_fires_and_changes_behaviour(flaw):
    script, shows = FLAWS[flaw]
    with record_flaws() as fired:
        env, _, replies = talk(FlawedRailAgent, script, episode=f"rail-{flaw}:0")
    assert f"rail:{flaw}" in {f.flaw for f in fired}
    assert shows(env, replies)
    with record_flaws() as clean:
        env, _, replies = talk(CorrectRailAgent, script)
    assert not clean and not shows(env, replies)
