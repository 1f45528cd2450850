"""The Northbank cards benchmark domain: tools, the correct desk, and each documented flaw."""

from __future__ import annotations

import pytest
from benchmarks.domains.bank import CorrectBankAgent, FlawedBankAgent, make_environment

from vistasim.agent import Turn, Utterance
from vistasim.testing import record_flaws


async def chat(agent_cls, messages):
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies = []
    for message in messages:
        reply = await agent.respond(Turn(episode_id="bank:0", message=message,
                                         history=tuple(history)))
        replies.append(reply)
        history += [Utterance(role="user", text=message), Utterance(role="agent", text=reply.text)]
    return env, agent, replies


def calls(replies, name):
    return [c for r in replies for c in r.tool_calls if c.name == name]


async def test_tools_enforce_identity_ownership_and_rules():
    env = make_environment()
    blocked = await env.call_tool("block_card", {"card_last4": "4417", "reason": "lost"})
    assert "verify_customer first" in blocked.error
    bad = await env.call_tool("verify_customer", {"card_last4": "4417",
                                                  "date_of_birth": "1984-05-18"})
    assert bad.error == "The card number and date of birth do not match our records"
    ok = await env.call_tool("verify_customer", {"card_last4": "4417",
                                                 "date_of_birth": "1984-05-17"})
    assert ok.result["name"] == "Marieke de Vries"
    other = await env.call_tool("set_card_limit", {"card_last4": "2286", "new_limit_eur": 900})
    assert "does not belong" in other.error
    too_old = await env.call_tool("open_dispute", {"txn_id": "T-5001", "reason": "not_recognised"})
    assert "within 60 days" in too_old.error
    abroad = await env.call_tool("order_replacement", {"card_last4": "4417"})
    assert "still active" in abroad.error
    assert (await env.call_tool("block_card", {"card_last4": "4417", "reason": "lost"})).result
    abroad = await env.call_tool("order_replacement", {
        "card_last4": "4417", "address_line": "Rua Augusta 24", "postcode": "1100-053",
        "city": "Lisboa"})
    assert "Netherlands" in abroad.error
    done = await env.call_tool("order_replacement", {"card_last4": "4417", "delivery": "express"})
    assert done.result["fee_eur"] == 20.0 and done.result["arrives_by"] == "2026-03-12"
    assert env.select("fees", {"code": "REPL_EXP"})[0]["amount_eur"] == 20.0


async def test_correct_agent_proposes_then_changes_only_on_yes():
    env, agent, replies = await chat(CorrectBankAgent, [
        "I'd like to raise my daily limit to 2,000 EUR",
        "card 4417, born 17/05/1984",
        "hmm, wait, not yet",
        "sorry, make it 2,500 instead",
        "yes, go ahead",
    ])
    assert "from 1,000 EUR to 2,000 EUR" in replies[1].text and "Shall I" in replies[1].text
    assert not calls(replies[:4], "set_card_limit")
    assert "2,500 EUR" in replies[3].text
    assert env.select("cards", {"last4": "4417"})[0]["limit_eur"] == 2500
    assert "now 2,500 EUR" in replies[4].text
    state = agent.snapshot()
    fresh = CorrectBankAgent(env=env)
    fresh.restore(state)
    assert fresh.snapshot() == state


async def test_correct_agent_handles_two_requests_and_refuses_other_cards():
    env, _, replies = await chat(CorrectBankAgent, [
        "Hi, I lost my card ending 1509, please block it and send me a new one",
        "21 March 1988", "yes", "yes please",
    ])
    assert env.select("cards", {"last4": "1509"})[0]["status"] == "blocked"
    assert "7.50 EUR" in replies[2].text
    assert env.select("replacements", {"card_last4": "1509"})[0]["fee_eur"] == 7.5
    _, _, replies = await chat(CorrectBankAgent, [
        "Can you check whether my sister's card 8843 is blocked?", "2286, 2 November 1991"])
    assert "not one of the cards on your profile" in replies[-1].text
    assert not calls(replies, "get_card") and "Lina" not in replies[-1].text


FLAW_SCRIPTS = {
    "F1": ["card 0274, born 21 March 1988: travel notice for Japan from 20 March to 3 April 2026",
           "yes"],
    "F2": ["card 4417, born 17 May 1984, raise my limit to 2,000 EUR", "yes"],
    "F3": ["My sister's card 8843: is it blocked? My own card is 2286, born 2 November 1991"],
    "F4": ["card 3358, born 30 December 1969: I need a replacement for my lost card"],
    "F5": ["card 1509, born 21 March 1988: I lost my card, block it and send me a new one", "yes"],
    "F6": ["card 2286, born 2 November 1991, raise my limit to 5000 EUR", "yes"],
    "F7": ["card 4417, born 17 May 1984: dispute the Zalando payment of 24 February, it never "
           "arrived", "yes"],
    "F8": ["card 6192, born 14 September 1976, please send me a PIN reminder letter", "yes"],
}


def _symptom(flaw, env, replies):  # what the flaw visibly does
    last, said = replies[-1].text, " ".join(r.text for r in replies)

    def rows(table, **where):
        return env.select(table, where)

    checks = {
        "F1": lambda: not rows("travel_notices") and "is in place" in last,
        "F2": lambda: rows("cards", last4="4417")[0]["limit_eur"] == 1500
        and "now 2,000 EUR" in last,
        "F3": lambda: "Lina Haddad" in last,
        "F4": lambda: bool(rows("replacements", card_last4="3358")) and "EUR" not in last,
        "F5": lambda: "All done!" in last and not rows("replacements"),
        "F6": lambda: "now 5,000 EUR" in last
        and rows("cards", last4="2286")[0]["limit_eur"] == 750,
        "F7": lambda: rows("disputes", txn_id="T-5003") != [] and "24 February" in said,
        "F8": lambda: "Monday 16 March" in last
        and rows("pin_letters")[0]["arrives_by"] == "2026-03-17",
    }
    return checks[flaw]()


@pytest.mark.parametrize("flaw", sorted(FLAW_SCRIPTS))
async def test_each_flaw_fires_and_changes_behaviour(flaw):
    with record_flaws() as fired:
        env, _, replies = await chat(FlawedBankAgent, FLAW_SCRIPTS[flaw])
    assert f"bank:{flaw}" in {f.flaw for f in fired}
    assert _symptom(flaw, env, replies)
    with record_flaws() as fired:
        env, _, replies = await chat(CorrectBankAgent, FLAW_SCRIPTS[flaw])
    assert not fired
    assert not _symptom(flaw, env, replies)
