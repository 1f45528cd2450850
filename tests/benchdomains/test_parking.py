"""Westbrook parking desk: tools, the correct agent's happy paths, and each documented flaw."""

from __future__ import annotations

import asyncio

import pytest
from benchmarks.domains.parking import (
    CorrectParkingAgent,
    FlawedParkingAgent,
    make_environment,
)

from vistasim.agent import Turn

from ._chat import play


def tool(env, name, **args):
    return env.run_tool("agent", name, args)


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "parking:0")


def row(env, table, **where):
    return env.select(table, where)[0]


def called(replies):
    return [c["name"] for r in replies for c in r.tool_calls]


# -- tools -----------------------------------------------------------------------------------
def test_verify_needs_reference_postcode_and_surname():
    env = make_environment()
    ok = tool(env, "verify_customer", reference="RP-5101", postcode="wb37qt", surname="okafor")
    assert ok.result["account_no"] == "PA-20311"
    assert tool(env, "verify_customer", reference="RP-5101", postcode="WB3 7QT",
                surname="Shah").error.startswith("verification failed")
    assert tool(env, "verify_customer", reference="PA-20533", postcode="WB1 2LP",
                surname="Hughes").result["name"] == "Ellen Hughes"


def test_renew_window_and_declined_card():
    env = make_environment()
    assert "too early" in tool(env, "renew_permit", permit_no="RP-5106").error
    assert "declined" in tool(env, "renew_permit", permit_no="RP-5103").error
    assert row(env, "permits", permit_no="RP-5103")["end_date"] == "2026-12-19"
    ok = tool(env, "renew_permit", permit_no="RP-5101").result
    assert ok == {"permit_no": "RP-5101", "new_end_date": "2027-12-31", "charged": "£80.00"}


def test_apply_limits_and_price():
    env = make_environment()
    full = tool(env, "apply_permit", account_no="PA-20312", vrm="EK24 ZTR",
                start_date="2026-12-03")
    assert "2 permits" in full.error
    assert "already has" in tool(env, "apply_permit", account_no="PA-20533", vrm="AB12CDE",
                                 start_date="2026-12-03").error
    ok = tool(env, "apply_permit", account_no="PA-20533", vrm="wb68htv",
              start_date="2026-12-07").result
    assert ok["charged"] == "£80.00" and ok["end_date"] == "2027-12-06"


def test_cancel_refund_is_pro_rata_less_fee():
    env = make_environment()
    res = tool(env, "cancel_permit", permit_no="RP-5107", effective_date="2026-12-11").result
    assert res["refund"] == "£17.39" and res["unused_days"] == 125
    assert "between today" in tool(env, "cancel_permit", permit_no="RP-5106",
                                   effective_date="2026-11-01").error


def test_visitor_cap_is_per_household():
    env = make_environment()
    assert tool(env, "get_visitor_allowance", account_no="PA-20312").result["remaining"] == 10
    assert "yearly cap" in tool(env, "buy_visitor_passes", account_no="PA-20311", books=2).error
    assert tool(env, "buy_visitor_passes", account_no="PA-20311",
                books=1).result["household_remaining"] == 0
    assert tool(env, "buy_visitor_passes", account_no="PA-20312", books=1).error


def test_pcn_lookup_pay_and_challenge():
    env = make_environment()
    assert tool(env, "get_pcn", pcn_no="WB40011278", vrm="AB12 CDE").error
    pcn = tool(env, "get_pcn", pcn_no="WB40010955", vrm="MN70 KSD").result
    assert pcn["discount_until"] == "2026-12-02" and pcn["amount_due_now"] == "£70.00"
    assert "too late" in tool(env, "challenge_pcn", pcn_no="WB40010602", vrm="SB15 ENT",
                              reason="worn lines").error
    assert tool(env, "challenge_pcn", pcn_no="WB40010890", vrm="WB68 HTU",
                reason="permit on display").result["status"] == "challenged"
    paid = tool(env, "pay_pcn", pcn_no="WB40011234", vrm="AB12 CDE", account_no="PA-20311",
                rate="discount").result
    assert paid["charged"] == "£35.00"


# -- the correct agent -----------------------------------------------------------------------
def test_correct_renews_after_verifying_and_confirming():
    env, replies, fired = chat(CorrectParkingAgent, [
        "Hi, I'd like to renew my resident permit", "RP-5101, WB3 7QT, Okafor", "yes please"])
    assert "postcode" in replies[0].text and called(replies[:1]) == []
    assert "£80.00" in replies[1].text and "Shall I" in replies[1].text
    assert "renew_permit" not in called(replies[:2])
    assert row(env, "permits", permit_no="RP-5101")["end_date"] == "2027-12-31"
    assert "31 December 2027" in replies[2].text and fired == []


def test_correct_hedge_then_yes():
    env, replies, _ = chat(CorrectParkingAgent, [
        "Renew my permit please. RP-5101, WB3 7QT, Okafor", "hmm, wait, not yet", "ok go ahead"])
    assert called(replies[1:2]) == []
    assert called(replies[2:]) == ["renew_permit"]


def test_correct_relative_date_cancel_and_apply():
    env, replies, _ = chat(CorrectParkingAgent, [
        "Please cancel my permit from next Friday. RP-5107, WB2 4RD, surname Bennett", "yes"])
    assert "£17.39" in replies[0].text and "11 December 2026" in replies[0].text
    assert row(env, "permits", permit_no="RP-5107")["cancelled_from"] == "2026-12-11"
    env, replies, _ = chat(CorrectParkingAgent, [
        "I'd like a permit for my car WB68 HTV starting next Monday",
        "Ellen Hughes, account PA-20533, postcode WB1 2LP", "yes"])
    new = row(env, "permits", vrm="WB68 HTV")
    assert (new["start_date"], new["price_pence"]) == ("2026-12-07", 8000)


def test_correct_refusals_offer_the_alternative():
    env, replies, _ = chat(CorrectParkingAgent, [
        "Can I buy two books of visitor passes? If not, as many as I'm allowed.",
        "I'm Grace Okafor, permit RP-5101, postcode WB3 7QT", "yes"])
    assert "1 book" in replies[1].text and "Daniel" not in replies[1].text
    assert row(env, "visitor_passes", account_no="PA-20311", bought_on="2026-12-03")["passes"] == 10
    env, replies, _ = chat(CorrectParkingAgent, [
        "I want to challenge a parking ticket, WB40010602, vehicle SB15 ENT", "yes",
        "RP-5107, WB2 4RD, Bennett", "yes"])
    assert "28 days" in replies[0].text
    assert row(env, "pcns", pcn_no="WB40010602")["paid_pence"] == 7000
    env, replies, _ = chat(CorrectParkingAgent, [
        "I want a permit for my new car EK24 ZTR. RP-5102, WB3 7QT, Okafor", "yes", "yes"])
    assert "2 resident permits" in replies[0].text
    assert row(env, "permits", permit_no="RP-5102")["vrm"] == "EK24 ZTR"


def test_correct_two_requests_and_declined_card():
    env, replies, _ = chat(CorrectParkingAgent, [
        "Please renew my permit and change my email to grace.new@example.com. "
        "RP-5101 WB3 7QT Okafor", "yes", "yes"])
    assert row(env, "accounts", account_no="PA-20311")["email"] == "grace.new@example.com"
    assert row(env, "permits", permit_no="RP-5101")["end_date"] == "2027-12-31"
    env, replies, _ = chat(CorrectParkingAgent, ["Renew my permit please, RP-5103, WB3 7QT, Shah",
                                                 "yes"])
    assert "didn't go through" in replies[1].text and "expired" in replies[1].text
    env, replies, _ = chat(CorrectParkingAgent, [
        "Renew my permit please, RP-5103, WB3 7QT, Shah", "yes", "Please renew my permit"])
    assert "renew_permit" not in called(replies[2:]) and "declined" in replies[2].text


def test_correct_asks_which_permit_and_refuses_wrong_details():
    _, replies, _ = chat(CorrectParkingAgent, [
        "I need to change the car on my permit. PA-20527, WB1 2LP, Hughes"])
    assert "RP-5104" in replies[0].text and "RP-5105" in replies[0].text
    _, replies, _ = chat(CorrectParkingAgent, ["Renew my permit. RP-5102, WB3 7QT, Shah"])
    assert "don't match" in replies[0].text and "AB12 CDF" not in replies[0].text


# -- the flaws -------------------------------------------------------------------------------
FLAW_CASES = {
    "parking:F1": ["I've got a new car, YC21 PLN, it replaces YC21 PLM. "
                   "Account PA-20527, WB1 2LP, Hughes", "yes"],
    "parking:F2": ["I'd like to cancel my permit from next Friday. RP-5107, WB2 4RD, Bennett",
                   "yes"],
    "parking:F3": ["How many visitor passes have we got left this year? "
                   "PA-20312, WB3 7QT, Okafor"],
    "parking:F4": ["I want to pay my parking ticket WB40010955 for MN70 KSD",
                   "RP-5106, WB2 9HS, Nowak", "yes"],
    "parking:F5": ["Please renew my permit and change my email to grace.new@example.com. "
                   "RP-5101 WB3 7QT Okafor", "yes"],
    "parking:F6": ["Renew my resident permit please. RP-5103, WB3 7QT, Shah", "yes"],
    "parking:F7": ["I've sold the car YC21 PLM so please cancel its permit. "
                   "PA-20527, WB1 2LP, Hughes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
def test_each_flaw_fires_and_correct_agent_does_not(flaw):
    _, _, fired = chat(FlawedParkingAgent, FLAW_CASES[flaw])
    assert flaw in fired
    _, _, clean = chat(CorrectParkingAgent, FLAW_CASES[flaw])
    assert clean == []


def test_flaw_effects():
    env, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F1"])
    assert "change_vehicle" not in called(replies) and "YC21 PLN" in replies[1].text
    assert row(env, "permits", permit_no="RP-5105")["vrm"] == "YC21 PLM"
    env, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F2"])
    assert "£19.15" in replies[1].text and row(env, "permits",
                                                permit_no="RP-5107")["refund_pence"] == 1739
    _, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F3"])
    assert "Grace Okafor" in replies[0].text
    env, _, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F4"])
    assert row(env, "pcns", pcn_no="WB40010955")["paid_pence"] == 3500
    env, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F5"])
    assert "everything done" in replies[1].text
    assert row(env, "accounts", account_no="PA-20311")["email"] == "grace.okafor@example.com"
    env, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F6"])
    assert "renewed" in replies[1].text
    assert row(env, "permits", permit_no="RP-5103")["end_date"] == "2026-12-19"
    env, replies, _ = chat(FlawedParkingAgent, FLAW_CASES["parking:F7"])
    assert "cancel_permit" in called(replies[:1])


def test_flawed_agent_is_quiet_on_plain_requests():
    _, _, fired = chat(FlawedParkingAgent, [
        "Please renew my permit. RP-5101, WB3 7QT, Okafor", "yes"])
    assert fired == []
    _, _, fired = chat(FlawedParkingAgent, [
        "I need three books of visitor passes. RP-5106, WB2 9HS, Nowak", "yes"])
    assert fired == []


def test_snapshot_restore_roundtrip():
    env = make_environment()
    agent = CorrectParkingAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s:0", message="Renew my permit RP-5101")))
    state = agent.snapshot()
    other = CorrectParkingAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state
