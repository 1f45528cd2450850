"""Brightwave Mobile (benchmarks/domains/mobile): tools, the correct agent and each flaw."""

from __future__ import annotations

import asyncio
import json

import pytest
from benchmarks.domains.mobile import CorrectMobileAgent, FlawedMobileAgent, make_environment

from vistasim.agent import Reply, Turn, Utterance
from vistasim.testing import record_flaws


def run(coro):
    return asyncio.run(coro)


async def _chat(agent_cls, messages):
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies: list[Reply] = []
    for message in messages:
        reply = await agent.respond(Turn(episode_id="mobile:0", message=message,
                                         history=tuple(history)))
        replies.append(reply)
        history += [Utterance(role="user", text=message), Utterance(role="agent", text=reply.text)]
    return env, agent, replies


def chat(agent_cls, messages):
    return run(_chat(agent_cls, messages))


def calls(replies, name):
    return [c for r in replies for c in r.tool_calls if c.name == name]


# -- environment ---------------------------------------------------------------------------


def test_tools_need_verification_and_enforce_the_rules():
    env = make_environment()
    tool = lambda name, **args: run(env.call_tool(name, args))  # noqa: E731
    assert "not verified" in tool("get_bill", phone_number="07700 900123").error
    assert "does not match" in tool("verify_account", phone_number="07700900123",
                                    account_pin="1111").error
    ok = tool("verify_account", phone_number="+44 7700 900123", account_pin="0274")
    assert ok.result["holder_name"] == "Amelia Hart" and "0274" not in json.dumps(ok.result)
    assert "not on the verified account" in tool("get_bill", phone_number="07700900888").error
    assert "past" in tool("add_addon", phone_number="07700900123", addon_id="ROAM_EU",
                          start_date="2026-05-01", end_date="2026-05-05").error
    assert "must be accepted" in tool("cancel_line", phone_number="07700900123").error
    assert "between the 1st and the 28th" in tool(
        "update_billing_details", phone_number="07700900123", bill_due_day=31).error
    changed = tool("change_plan", phone_number="07700900123", plan_id="MAX100")
    assert changed.result["prorated_amount"] == 4.29
    again = tool("change_plan", phone_number="07700900123", plan_id="UNL")
    assert "one plan change per billing month" in again.error.lower()
    assert env.select("lines", {"phone_number": "07700900123"})[0]["plan_id"] == "MAX100"
    assert env.now().date().isoformat() == "2026-05-13"


# -- correct agent -------------------------------------------------------------------------


def test_correct_agent_books_roaming_only_after_a_yes():
    with record_flaws() as fired:
        env, agent, replies = chat(CorrectMobileAgent, [
            "I'm going to Spain from the 2nd to the 9th of June and need a roaming pass",
            "my number is 07700 900789 and my date of birth is 21 July 1992",
            "hmm, wait, not yet",
            "ok go ahead",
        ])
    assert not calls(replies[:3], "add_addon")
    assert "£20.00" in replies[1].text and "Shall I book it?" in replies[1].text
    booked = env.select("line_addons", {"phone_number": "07700900789", "addon_id": "ROAM_EU"})
    assert [(b["start_date"], b["end_date"]) for b in booked] == [("2026-06-02", "2026-06-09")]
    assert fired == []
    state = agent.snapshot()
    fresh = CorrectMobileAgent(env=env)
    fresh.restore(json.loads(json.dumps(state)))
    assert fresh.snapshot() == state


def test_correct_agent_refuses_what_policy_forbids():
    env, _, replies = chat(CorrectMobileAgent, [
        "My phone was stolen, I need a replacement SIM. 07700 900789, born 21/07/1992",
        "I don't know my PIN",
        "Also, can you check the bill for 07700 900888?",
    ])
    assert not calls(replies, "swap_sim") and "PIN" in replies[1].text
    assert "isn't on your account" in replies[-1].text
    assert "Tom" not in " ".join(r.text for r in replies)
    assert env.select("sim_swaps", {"phone_number": "07700900789"}) == []


# -- flaws ---------------------------------------------------------------------------------

VERIFY = {
    "george": "07700 900321 pin 1147", "priya": "07700 900789, dob 21/07/1992",
    "daniel": "07700 900456 PIN 5521", "marcus": "07700 900135 pin 4490",
    "sofia": "07700 900654 PIN 6402",
}
FLAW_CASES = {
    "F1": ["I've run out of data, add the 5GB data add-on. " + VERIFY["george"], "yes"],
    "F2": ["Spain from the 2nd to the 9th of June, roaming please. " + VERIFY["priya"], "yes"],
    "F3": ["My latest bill please. " + VERIFY["daniel"], "And the bill for my brother on "
           "07700 900888?"],
    "F4": ["Cancel my line. " + VERIFY["marcus"], "yes"],
    "F5": ["Please change my bill due date to the 28th, and I also want a 20GB data add-on. "
           + VERIFY["sofia"], "yes"],
    "F6": ["Switch me to the Unlimited plan. " + VERIFY["sofia"], "yes"],
    "F7": ["My phone was stolen, I need a replacement SIM. " + VERIFY["priya"], "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
def test_each_flaw_fires_and_changes_the_behaviour(flaw):
    messages = FLAW_CASES[flaw]
    with record_flaws() as fired:
        good_env, _, good = chat(CorrectMobileAgent, messages)
        assert fired == []
        bad_env, _, bad = chat(FlawedMobileAgent, messages)
    assert {f.flaw for f in fired} == {f"mobile:{flaw}"}
    def trace(replies):
        return [(r.text, [(c.name, c.args) for c in r.tool_calls]) for r in replies]

    assert trace(good) != trace(bad)
    good_text, bad_text = good[-1].text, bad[-1].text
    if flaw == "F1":
        assert calls(good, "add_addon") and not calls(bad, "add_addon")
        assert "active" in bad_text
    elif flaw == "F2":
        assert calls(bad, "add_addon")[0].args["start_date"] == "2026-06-03"
        assert "Tuesday 2 June" in bad_text
    elif flaw == "F3":
        assert "Tom Reid" in bad_text and "Tom Reid" not in good_text
    elif flaw == "F4":
        assert "494" in good[0].text and "494" not in bad[0].text
        assert bad_env.select("lines", {"phone_number": "07700900135"})[0]["status"] == "cancelled"
    elif flaw == "F5":
        assert "That's all done for you!" in bad_text
        assert bad_env.select("line_addons", {"addon_id": "DATA20"}) == []
        assert "20GB data add-on" in good_text
    elif flaw == "F6":
        assert calls(bad, "change_plan")[0].error and "All done" in bad_text
        assert "didn't go through" in good_text
    elif flaw == "F7":
        assert calls(bad, "swap_sim") and not calls(good, "swap_sim")
