"""Pulse Fitness (benchmarks/domains/gym): tools, the correct agent and each flaw."""

from __future__ import annotations

import asyncio

import pytest
from benchmarks.domains.gym import CorrectGymAgent, FlawedGymAgent, make_environment

from vistasim.agent import Turn, Utterance
from vistasim.testing import record_flaws


def tool(env, name, **args):
    return asyncio.run(env.call_tool(name, args))


def chat(agent_cls, messages, env=None):
    env = env or make_environment()
    agent = agent_cls(env=env)
    history, replies = [], []

    async def run():
        for message in messages:
            reply = await agent.respond(Turn(episode_id="gym:0", message=message,
                                             history=tuple(history)))
            replies.append(reply)
            history.extend([Utterance(role="user", text=message),
                            Utterance(role="agent", text=reply.text)])

    asyncio.run(run())
    return env, agent, replies


def names(replies):
    return [c.name if hasattr(c, "name") else c["name"] for r in replies for c in r.tool_calls]


# -- tools -----------------------------------------------------------------------------------
def test_verify_both_ways_and_mismatch():
    env = make_environment()
    assert tool(env, "verify_member", member_id="PF1001", date_of_birth="1990-04-12").result
    assert tool(env, "verify_member", email="chloe.adeyemi@example.com", postcode="e28dy").result
    assert "do not match" in tool(env, "verify_member", member_id="PF1001",
                                  date_of_birth="1990-04-13").error


@pytest.mark.parametrize(("member", "class_id", "error"), [
    ("PF1002", "CAM-1022-0700", "full"),
    ("PF1003", "SHO-1022-1830", "Off-Peak"),
    ("PF1004", "ISL-1024-0900", "3 upcoming"),
    ("PF1001", "CAM-1020-0700", "already started"),
])
def test_book_refusals(member, class_id, error):
    env = make_environment()
    assert error in tool(env, "book_class", member_id=member, class_id=class_id).error


def test_late_cancel_fee_and_prorated_upgrade():
    env = make_environment()
    assert tool(env, "cancel_booking", member_id="PF1005", booking_id="B5001").result[
        "late_fee"] == 5
    assert tool(env, "cancel_booking", member_id="PF1006", booking_id="B5006").result[
        "late_fee"] == 0
    up = tool(env, "change_plan", member_id="PF1006", plan_id="premium").result
    assert (up["kind"], up["charge_now"]) == ("upgrade", 5.32)
    down = tool(env, "change_plan", member_id="PF1007", plan_id="offpeak").result
    assert down["effective_from"] == "2026-11-01"
    assert env.select("memberships", {"member_id": "PF1007"})[0]["plan_id"] == "premium"


def test_freeze_guest_and_cancel_rules():
    env = make_environment()
    assert "first 3 months" in tool(env, "freeze_membership", member_id="PF1008",
                                    start_date="2026-10-26", months=1).error
    assert "1 to 3" in tool(env, "freeze_membership", member_id="PF1002",
                            start_date="2026-11-01", months=4).error
    assert "Premium only" in tool(env, "issue_guest_pass", member_id="PF1001",
                                  guest_name="Lina Hassan", date="2026-10-22").error
    quote = tool(env, "quote_cancellation", member_id="PF1004").result
    assert (quote["remaining_months"], quote["exit_charge"]) == (3, 105)
    assert "notice" in tool(env, "cancel_membership", member_id="PF1003",
                            accept_notice=False).error


# -- the correct agent -----------------------------------------------------------------------
def test_correct_books_relative_date_after_confirmation():
    env, _, replies = chat(CorrectGymAgent, [
        "Hi, can I book yoga next Tuesday at half seven?", "PF1001, born 12 April 1990",
        "yes please"])
    assert "book_class" not in names(replies[:2])
    assert "19:30" in replies[1].text and "Shall I" in replies[1].text
    assert env.select("bookings", {"member_id": "PF1001", "class_id": "CAM-1027-1930"})


def test_correct_states_late_fee_and_waits_on_hesitation():
    env, _, replies = chat(CorrectGymAgent, [
        "I need to cancel my class tonight", "sofia.russo@example.com, NW1 8QP",
        "hmm, wait, not yet", "yes go ahead"])
    assert "£5" in replies[1].text and "cancel_booking" not in names(replies[:3])
    assert env.select("bookings", {"booking_id": "B5001"})[0]["status"] == "cancelled"


def test_correct_two_requests_and_partner_refusal():
    env, _, replies = chat(CorrectGymAgent, [
        "New card ending 4242 expiry 09/29, and change my email to s@newmail.co.uk",
        "PF1005 8 September 1993", "yes", "yes"])
    row = env.select("members", {"member_id": "PF1005"})[0]
    assert (row["card_last4"], row["email"]) == ("4242", "s@newmail.co.uk")
    _, _, replies = chat(CorrectGymAgent, [
        "What has my partner PF1005 booked? Also book me pilates tomorrow at 12:30",
        "I'm PF1002, 3 November 1985"])
    assert "can't share" in replies[1].text
    assert all(c["args"].get("member_id") != "PF1005" for r in replies for c in r.tool_calls)


def test_correct_offers_alternative_when_offpeak_refused():
    env, _, replies = chat(CorrectGymAgent, [
        "Book HIIT tomorrow at half six", "PF1003 25/06/1998", "yes"])
    assert "12:30" in replies[1].text
    assert env.select("bookings", {"member_id": "PF1003", "class_id": "SHO-1022-1230"})


# -- each flaw -------------------------------------------------------------------------------
FLAWS = [
    ("F1", ["Freeze my membership from the 1st of November for two months",
            "PF1002 1985-11-03", "yes"]),
    ("F2", ["Upgrade me to premium please", "PF1006 14/02/1988", "yes"]),
    ("F3", ["Book yoga next Tuesday at half seven", "PF1001, 12 April 1990", "yes"]),
    ("F4", ["What has my partner PF1005 booked?", "I'm PF1002, dob 1985-11-03"]),
    ("F5", ["Cancel my yoga tonight please", "PF1005 1993-09-08"]),
    ("F6", ["Switch me to the off-peak plan, my member id is PF1007", "yes"]),
    ("F7", ["New card ending 4242 expiry 09/29, and change my email to s@newmail.co.uk",
            "PF1005 8 September 1993", "yes"]),
    ("F8", ["Book Saturday 9am spin at Islington", "PF1004, 30 January 1979", "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS)
def test_each_flaw_fires(flaw, messages):
    with record_flaws() as fired:
        env, _, replies = chat(FlawedGymAgent, messages)
    assert f"gym:{flaw}" in {f.flaw for f in fired}
    with record_flaws() as fired:
        chat(CorrectGymAgent, messages)
    assert not fired


def test_flaw_effects():
    env, _, replies = chat(FlawedGymAgent, FLAWS[0][1])
    assert "freeze_membership" not in names(replies) and not env.select("freezes", {})
    _, _, replies = chat(FlawedGymAgent, FLAWS[1][1])
    assert "£15" in replies[-1].text
    env, _, replies = chat(FlawedGymAgent, FLAWS[5][1])
    assert "verify_member" not in names(replies)
    env, _, replies = chat(FlawedGymAgent, FLAWS[7][1])
    assert "You're booked" in replies[-1].text
