"""Harlow Home Insurance: tools, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio

import pytest
from benchmarks.domains.insurance import (
    CorrectInsuranceAgent,
    FlawedInsuranceAgent,
    InsuranceEnvironment,
    make_environment,
)

from vistasim.agent import Turn

from ._chat import play


def tool(env, tool_name, /, **args):
    return env.run_tool("agent", tool_name, args)


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "insurance:0")


def row(env, table, **where):
    return env.select(table, where)[0]


def called(replies, name):
    return [c for r in replies for c in r.tool_calls if c["name"] == name]


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, InsuranceEnvironment)
    assert env.now().isoformat() == "2026-12-03T10:00:00+00:00"
    tool(env, "cancel_policy", policy_number="HH-104211", cooling_off=False)
    assert row(make_environment(), "policies", policy_number="HH-104211")["status"] == "active"


def test_verify_needs_the_insured_homes_postcode():
    env = make_environment()
    assert tool(env, "verify_customer", policy_number="hh104211",
                postcode="ls62ab").result["name"] == "Priya Nair"
    # Neighbours share a postcode and a surname: the policy number decides.
    assert tool(env, "verify_customer", policy_number="HH-104901",
                postcode="BD7 1BN").result["name"] == "Ian Clarke"
    assert "verification failed" in tool(env, "verify_customer", policy_number="HH-104211",
                                         postcode="LS2 9JT").error


def test_addons_are_pro_rata_and_lapsed_policies_do_not_change():
    env = make_environment()
    quote = tool(env, "quote_addon", policy_number="HH-104211", addon="accidental_damage",
                 action="add").result
    assert (quote["days_left"], quote["charge"]) == (100, "£13.15")
    tool(env, "change_addon", policy_number="HH-104211", addon="accidental_damage",
         action="add")
    assert row(env, "adjustments", policy_number="HH-104211")["amount_pence"] == 1315
    again = tool(env, "change_addon", policy_number="HH-104211", addon="accidental_damage",
                 action="add")
    assert "already" in again.error
    removed = tool(env, "change_addon", policy_number="HH-104850", addon="legal_cover",
                   action="remove").result
    assert removed["refunded"] == "£21.25"
    assert "lapsed" in tool(env, "change_addon", policy_number="HH-104617",
                            addon="legal_cover", action="add").error


def test_claims_rules_and_excess():
    env = make_environment()
    ok = tool(env, "report_claim", policy_number="HH-104733", peril="storm",
              incident_date="2026-12-02", description="fence", estimate=1200).result
    assert (ok["excess"], ok["payable_if_accepted"]) == ("£250.00", "£950.00")
    second = tool(env, "report_claim", policy_number="HH-104733", peril="escape_of_water",
                  incident_date="2026-11-30", description="ceiling", estimate=600)
    assert "CL-55012" in second.error
    no_cover = tool(env, "report_claim", policy_number="HH-105377", peril="accidental_damage",
                    incident_date="2026-12-02", description="paint", estimate=400)
    assert "not covered" in no_cover.error
    lapsed = tool(env, "report_claim", policy_number="HH-104617", peril="storm",
                  incident_date="2026-11-20", description="roof", estimate=300)
    assert "not in force" in lapsed.error


def test_cancellation_refunds():
    env = make_environment()
    inside = tool(env, "quote_cancellation", policy_number="HH-104388", cooling_off=True)
    assert inside.result["refund"] == "£25.00"
    after = tool(env, "cancel_policy", policy_number="HH-104502", cooling_off=False).result
    assert after["refund"] == "£368.53"
    assert row(env, "policies", policy_number="HH-104502")["refund_pence"] == 36853


# -- the correct agent -----------------------------------------------------------------------
def test_correct_verifies_before_anything():
    env, replies, _ = chat(CorrectInsuranceAgent, [
        "Add accidental damage cover please", "HH-104211, LS6 2AB", "yes"])
    assert replies[0].tool_calls == ()
    assert "£13.15" in replies[1].text
    assert row(env, "policies", policy_number="HH-104211")["accidental_damage"] == 1


def test_correct_payment_day_stays_within_1_to_28():
    env, replies, _ = chat(CorrectInsuranceAgent, [
        "Move my payment date to the 30th, or the latest day allowed. HH-105044 WF1 3AA",
        "yes"])
    assert "1st and the 28th" in replies[0].text
    assert row(env, "policies", policy_number="HH-105044")["payment_day"] == 28


def test_correct_does_two_requests_and_keeps_the_new_postcode_apart():
    env, _, _ = chat(CorrectInsuranceAgent, [
        "Can you change my payment date to the 20th and send my post to 4 Vale Close, Otley "
        "LS21 3QT? HH-105301 LS8 4DD", "yes", "yes"])
    assert row(env, "policies", policy_number="HH-105301")["payment_day"] == 20
    customer = row(env, "customers", customer_id="HC-2011")
    assert (customer["correspondence_postcode"], customer["postcode"]) == ("LS21 3QT", "LS8 4DD")


def test_correct_claims_and_refusals():
    env, replies, _ = chat(CorrectInsuranceAgent, [
        "The storm last night blew my fence down, about £1,200, I want to claim. "
        "HH-104733 BD7 1BN", "yes"])
    assert "£950.00" in replies[0].text and "CL-55101" in replies[1].text
    _, replies, _ = chat(CorrectInsuranceAgent, [
        "I spilled paint on the carpet yesterday, about £400, can I claim? HH-105377 LS16 7EF"])
    assert "doesn't include accidental damage" in replies[0].text
    assert called(replies, "report_claim") == []


def test_correct_cancels_inside_and_after_cooling_off():
    env, replies, _ = chat(CorrectInsuranceAgent, [
        "Please cancel my policy. HH-104388 YO1 7HT", "yes"])
    assert "full refund of £25.00" in replies[0].text
    assert row(env, "policies", policy_number="HH-104388")["refund_pence"] == 2500
    env, replies, _ = chat(CorrectInsuranceAgent, [
        "Please cancel my policy. HH-104502 LS2 9JT", "yes"])
    assert "£25.00 cancellation fee" in replies[0].text
    assert row(env, "policies", policy_number="HH-104502")["refund_pence"] == 36853


def test_correct_locks_after_three_failed_checks():
    _, replies, _ = chat(CorrectInsuranceAgent, [
        "What's my excess? HH-104211 LS1 1AA", "LS2 2BB", "LS3 3CC"])
    assert "0113 496 0800" in replies[2].text
    assert called(replies, "get_policy") == []


# -- the flaws -------------------------------------------------------------------------------
FLAW_CASES = {
    "insurance:F1": ["I want to take legal cover off my policy, I don't need it. "
                     "HH-104850 HG1 2QP", "yes"],
    "insurance:F2": ["Hi, I'd like to add accidental damage cover", "HH-104211, LS6 2AB", "yes"],
    "insurance:F3": ["What's the status of my claim CL-55012? HH-104901 BD7 1BN"],
    "insurance:F4": ["I want to cancel my policy, I've sold the flat. HH-104502 LS2 9JT", "yes"],
    "insurance:F5": ["Please move my monthly payment date to the 30th. HH-105044 WF1 3AA",
                     "yes"],
    "insurance:F6": ["Can you change my payment date to the 20th and update my correspondence "
                     "address to 4 Vale Close, Otley LS21 3QT? HH-105301 LS8 4DD", "yes",
                     "yes"],
    "insurance:F7": ["The pipe under the bathroom sink leaked on Monday and damaged the "
                     "ceiling, about £600. I want to claim. HH-104733 BD7 1BN", "yes"],
    "insurance:F8": ["I knocked my TV off its stand on Sunday and cracked the screen, a new "
                     "one is about £650. HH-105233", "HU1 2PB", "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
def test_each_flaw_fires_and_correct_agent_does_not(flaw):
    _, _, fired = chat(FlawedInsuranceAgent, FLAW_CASES[flaw])
    assert fired and set(fired) == {flaw}
    _, _, clean = chat(CorrectInsuranceAgent, FLAW_CASES[flaw])
    assert clean == []


def test_flaw_effects():
    env, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F1"])
    assert called(replies, "change_addon") == [] and "removed" in replies[1].text
    assert row(env, "policies", policy_number="HH-104850")["legal_cover"] == 1
    env, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F2"])
    assert "£48.00 for the rest" in replies[2].text
    assert row(env, "adjustments", policy_number="HH-104211")["amount_pence"] == 1315
    _, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F3"])
    assert "Susan Clarke" in replies[0].text
    env, _, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F4"])
    assert row(env, "policies", policy_number="HH-104502")["refund_pence"] == 42000
    env, _, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F5"])
    assert row(env, "policies", policy_number="HH-105044")["payment_day"] == 30
    env, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F6"])
    assert row(env, "customers", customer_id="HC-2011")["correspondence_postcode"] == "LS8 4DD"
    assert "everything you asked for" in replies[1].text
    _, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F7"])
    assert called(replies, "report_claim")[0]["error"] and "registered" in replies[1].text
    env, replies, _ = chat(FlawedInsuranceAgent, FLAW_CASES["insurance:F8"])
    assert "full £650.00" in replies[2].text
    assert row(env, "claims", policy_number="HH-105233")["payable_pence"] == 55000


def test_flawed_agent_is_quiet_on_plain_requests():
    for messages in (
        ["Change my payment date from the 5th to the 19th. HH-105468 HG2 0HA", "yes"],
        ["Please cancel my policy. HH-104388 YO1 7HT", "yes"],
        ["Add legal cover please. HH-105412 HX1 5AB", "yes"],
        ["The storm last night blew my fence down, about £1,200, I want to claim. "
         "HH-104733 BD7 1BN", "yes"],
        ["Where has my theft claim got to? HH-104901 BD7 1BN"],
        ["Please send my letters to 27 Oak Road, Sheffield S10 1SB. HH-105120 LS6 1AH", "yes"],
    ):
        _, _, fired = chat(FlawedInsuranceAgent, messages)
        assert fired == [], messages


def test_snapshot_restore_roundtrip():
    env = make_environment()
    agent = CorrectInsuranceAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s:0", message="Add legal cover please")))
    state = agent.snapshot()
    other = CorrectInsuranceAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state
