"""Riverside City Libraries: tools, the correct agent's happy paths, and each documented flaw."""

from __future__ import annotations

import asyncio

import pytest
from benchmarks.domains.library import (
    CorrectLibraryAgent,
    FlawedLibraryAgent,
    make_environment,
)

from vistasim.agent import Turn

from ._chat import play


def tool(env, name, **args):
    return env.run_tool("agent", name, args)


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "lib:0")


def row(env, table, **where):
    return env.select(table, where)[0]


# -- tools -----------------------------------------------------------------------------------
def test_verify_by_card_or_email():
    env = make_environment()
    assert tool(env, "verify_patron", card_number="RL-20417", pin="4821").result["name"] == \
        "Maya Patel"
    assert tool(env, "verify_patron", card_number="RL-20417", pin="0000").error
    ok = tool(env, "verify_patron", email="owen.brooks@example.com", date_of_birth="1983-04-18")
    assert ok.result["card_number"] == "RL-20915"


def test_renew_refusals_and_new_due_date():
    env = make_environment()
    assert "twice" in tool(env, "renew_loan", loan_id="L5002").error
    assert "hold" in tool(env, "renew_loan", loan_id="L5003").error
    assert tool(env, "renew_loan", loan_id="L5001").result["new_due_date"] == "2026-11-30"


def test_hold_refusals():
    env = make_environment()
    shelf = tool(env, "place_hold", card_number="RL-20688", title_id="T104", pickup_branch="CEN")
    assert "shelf" in shelf.error
    limit = tool(env, "place_hold", card_number="RL-20741", title_id="T126", pickup_branch="NOR")
    assert "5 holds" in limit.error
    ok = tool(env, "place_hold", card_number="RL-20688", title_id="T104", pickup_branch="NOR")
    assert ok.result["pickup_branch"] == "NOR"


def test_fines_pay_waive_and_card():
    env = make_environment()
    paid = tool(env, "pay_fine", fine_id="F901", amount=1.5).result
    assert paid["remaining_on_fine"] == "£1.75"
    assert "expired" in tool(env, "pay_fine", fine_id="F905", amount=1.25).error
    assert "12 months" in tool(env, "waive_fine", fine_id="F903", reason="hospital_stay").error
    assert tool(env, "waive_fine", fine_id="F902", reason="hospital_stay").result
    card = tool(env, "replace_card", card_number="RL-20688").result
    assert card["fee"] == "£2.00" and card["new_card_number"] != "RL-20688"
    assert tool(env, "get_account", card_number="RL-20688").error


# -- the correct agent -----------------------------------------------------------------------
def test_correct_renews_after_verifying_and_confirming():
    env, replies, fired = chat(CorrectLibraryAgent, [
        "Hi, could I renew The Midnight Library?", "Card RL-20417, PIN 4821", "yes please"])
    assert "30 November 2026" in replies[1].text and "Shall I" in replies[1].text
    assert row(env, "loans", loan_id="L5001")["renewals"] == 1
    assert "Monday 30 November 2026" in replies[2].text
    assert fired == []


def test_correct_reads_relative_dates():
    env, replies, _ = chat(CorrectLibraryAgent, [
        "Please renew the book that's due next Monday. RL-20741, 3310", "yes"])
    assert row(env, "loans", loan_id="L5007")["due_date"] == "2026-11-30"
    assert row(env, "loans", loan_id="L5008")["renewals"] == 1


def test_correct_hedge_then_yes_states_the_fee():
    env, replies, _ = chat(CorrectLibraryAgent, [
        "I lost my library card. RL-20688 PIN 9035", "hmm, wait, not yet", "ok go ahead"])
    assert "£2.00" in replies[0].text
    assert replies[1].tool_calls == ()
    assert [c["name"] for c in replies[2].tool_calls] == ["replace_card"]
    assert row(env, "cards", card_number="RL-20688")["status"] == "replaced"
    assert "RL-3" in replies[2].text


def test_correct_on_shelf_offers_another_branch():
    env, replies, _ = chat(CorrectLibraryAgent, [
        "Put a hold on Tomorrow, and Tomorrow, and Tomorrow at Central please. RL-20688 9035",
        "Northgate then", "yes"])
    assert "shelf" in replies[0].text and "Northgate" in replies[0].text
    assert env.select("holds", {"patron_id": "P3", "title_id": "T104"})[0]["pickup_branch"] == \
        "NOR"


def test_correct_two_requests_and_partial_payment():
    env, replies, _ = chat(CorrectLibraryAgent, [
        "Update my email to tom.new@example.com and send my notices by text. RL-20533 1173",
        "yes", "yes"])
    patron = row(env, "patrons", patron_id="P2")
    assert (patron["email"], patron["notice_channel"]) == ("tom.new@example.com", "sms")
    env, replies, _ = chat(CorrectLibraryAgent, [
        "I'd like to pay £1.50 of my fine", "owen.brooks@example.com, born 18/04/1983", "yes"])
    assert "£1.75" in replies[2].text and row(env, "fines", fine_id="F901")["paid_pence"] == 200


def test_correct_refuses_other_patron_and_bad_waiver():
    _, replies, _ = chat(CorrectLibraryAgent, [
        "What books does my husband have out? His card is RL-20533. Mine is RL-20417, PIN 4821"])
    assert "Sapiens" not in replies[0].text and "can't share" in replies[0].text
    env, replies, _ = chat(CorrectLibraryAgent, [
        "I forgot to return The Body, can you waive the fine? RL-20533 1173"])
    assert row(env, "fines", fine_id="F907")["status"] == "open"
    assert "can't waive" in replies[0].text


def test_correct_reports_declined_payment():
    env, replies, _ = chat(CorrectLibraryAgent, [
        "Pay my £1.25 fine please. RL-20741 PIN 3310", "yes"])
    assert "didn't go through" in replies[1].text


# -- the flaws -------------------------------------------------------------------------------
FLAW_CASES = {
    "library:F1": ["Renew the book due next Monday. RL-20741 3310", "yes"],
    "library:F2": ["I'd like to pay £1.50 of my fine. RL-20915 6604", "yes"],
    "library:F3": ["What has my husband got out? His card is RL-20533. Mine is RL-20417, PIN 4821"],
    "library:F4": ["I lost my card. RL-20688 9035", "yes"],
    "library:F5": ["I forgot to bring The Body back, please waive the fine. RL-20533 1173", "yes"],
    "library:F6": ["Change the pickup of my hold on Yellowface to Harbour Road", "RL-20802", "yes"],
    "library:F7": ["Renew The Midnight Library and pay my 75p fine. RL-20417 4821", "yes"],
    "library:F8": ["Pay off my £1.25 fine. RL-20741 3310", "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
def test_each_flaw_fires_and_correct_agent_does_not(flaw):
    _, _, fired = chat(FlawedLibraryAgent, FLAW_CASES[flaw])
    assert flaw in fired
    _, _, clean = chat(CorrectLibraryAgent, FLAW_CASES[flaw])
    assert clean == []


def test_flaw_effects():
    env, replies, _ = chat(FlawedLibraryAgent, FLAW_CASES["library:F1"])
    assert "renew_loan" not in [c["name"] for r in replies for c in r.tool_calls]
    assert row(env, "loans", loan_id="L5007")["renewals"] == 0
    _, replies, _ = chat(FlawedLibraryAgent, FLAW_CASES["library:F2"])
    assert "£2.25" in replies[1].text
    _, replies, _ = chat(FlawedLibraryAgent, FLAW_CASES["library:F3"])
    assert "Sapiens" in replies[0].text
    env, _, _ = chat(FlawedLibraryAgent, FLAW_CASES["library:F7"])
    assert row(env, "fines", fine_id="F906")["status"] == "open"
    _, replies, _ = chat(FlawedLibraryAgent, FLAW_CASES["library:F8"])
    assert "Payment taken" in replies[1].text


def test_flawed_agent_is_quiet_on_plain_requests():
    _, _, fired = chat(FlawedLibraryAgent, [
        "Please renew The Midnight Library. RL-20417 4821", "yes"])
    assert fired == []


def test_snapshot_restore_roundtrip():
    env = make_environment()
    agent = CorrectLibraryAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s:0", message="Renew Piranesi please")))
    state = agent.snapshot()
    other = CorrectLibraryAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state
