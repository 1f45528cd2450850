"""Clearword Translations: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.translation import (
    CorrectTranslationAgent,
    FlawedTranslationAgent,
    TranslationEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.translation import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "translation" / "scenarios.yaml"
# an account and its email: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "translation:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, account, kind):
    return [c["amount_pence"] for c in env.select("charges", {"account_id": account, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="translation:0", message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
            asked = agent.s["asked"]
            if agent.s["pending"]:
                message = "yes"
            elif asked in scenario.knowledge:
                message = str(scenario.knowledge[asked])
            else:
                break
    return env, replies, [f.flaw for f in fired]


def unmet(env, replies, criteria):
    """The criteria the end state and the desk's words do not meet."""
    missed = []
    for c in criteria.state:
        rows = env.select(c.table, c.where)
        if c.count is not None and len(rows) != c.count:
            missed.append(f"{c.table} {c.where}: {len(rows)} rows, not {c.count}")
        for r in rows:
            wrong = {k: r[k] for k, v in c.expect.items() if r[k] != v}
            if wrong:
                missed.append(f"{c.table} {c.where}: {wrong}, not {c.expect}")
    text = said(replies).lower()
    for s in criteria.statements:
        if s.contains_any and not any(w.lower() in text for w in s.contains_any):
            missed.append(f"none of {s.contains_any} said")
        missed += [f"said {w!r}" for w in s.contains_none if w.lower() in text]
    return missed


# -- the environment and its tools -------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, TranslationEnvironment)
    assert env.now().isoformat() == "2026-12-09T10:00:00+00:00"
    tool(env, "cancel_order", account_id="CW1008", order_id="TR7008", refund_pence=14000)
    assert row(make_environment(), "orders", order_id="TR7008")["status"] == "queued"


def test_working_days_skip_weekends_and_bank_holidays():
    today = _seed.NOW.date()
    assert _seed.add_working_days(today, 5).isoformat() == "2026-12-16"
    assert _seed.add_working_days(today, 2).isoformat() == "2026-12-11"
    assert _seed.add_working_days(_seed.NOW.date().replace(day=23), 2).isoformat() == "2026-12-29"
    assert row(make_environment(), "orders", order_id="TR7009")["due_date"] == "2026-12-11"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_order", account_id="CW1008", order_id="TR7008", refund_pence=0)
    env.restore(before)
    assert row(env, "orders", order_id="TR7008")["status"] == "queued"
    agent = CorrectTranslationAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Cancel TR7008, CW1008", history=())))
    other = CorrectTranslationAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "CW1008"}


def test_tool_verify_customer():
    env = make_environment()
    found = tool(env, "verify_customer", account_id="cw1002", email="Marek.Nowak@example.com")
    assert found.result["name"] == "Marek Nowak" and found.result["orders"] == []
    wrong = tool(env, "verify_customer", account_id="CW1002", email="alice.brennan@example.com")
    assert "verification failed" in wrong.error


def test_tool_get_account_and_get_order():
    env = make_environment()
    view = tool(env, "get_account", account_id="CW1010").result
    assert [o["order_id"] for o in view["orders"]] == ["TR7025", "TR7010"]
    other = tool(env, "get_order", order_id="TR7014").result
    assert other["customer_name"] == "Ruth Adler" and other["document"] == "tenancy agreement"
    assert "no order" in tool(env, "get_order", order_id="TR9999").error


def test_tool_send_quote():
    env = make_environment()
    out = tool(env, "send_quote", account_id="CW1004", source_language="Spanish",
               target_language="English", pages=12, certified=True, turnaround="standard",
               price_pence=36100).result  # fmt: skip
    assert out["sent_to"] == "tom.ridley@example.com" and out["valid_until"] == "2027-01-08"
    assert row(env, "quotes", quote_id=out["quote_id"])["price_pence"] == 36100
    bad = tool(env, "send_quote", account_id="CW1004", source_language="German",
               target_language="French", pages=2, certified=False, turnaround="standard",
               price_pence=5600).error  # fmt: skip
    assert "into or out of English" in bad


def test_tool_place_order_and_its_refusals():
    env = make_environment()
    base = {"account_id": "CW1001", "source_language": "French", "target_language": "English",
            "pages": 3, "certified": False, "turnaround": "standard", "price_pence": 8400,
            "due_date": "2026-12-16"}  # fmt: skip
    out = tool(env, "place_order", **base).result
    assert out["order_id"] == "TR7026" and charges(env, "CW1001", "payment") == [8400]
    assert row(env, "orders", order_id="TR7026")["rate_pence"] == 2800
    rush = {**base, "turnaround": "rush"}
    assert "up to 10 pages" in tool(env, "place_order", **{**rush, "pages": 11}).error
    assert (
        "until January" in tool(env, "place_order", **{**rush, "source_language": "Korean"}).error
    )
    assert (
        "don't translate" in tool(env, "place_order", **{**base, "source_language": "Welsh"}).error
    )
    assert "future day" in tool(env, "place_order", **{**base, "due_date": "2026-12-09"}).error


def test_tool_upgrade_turnaround_and_its_refusals():
    env = make_environment()
    out = tool(env, "upgrade_turnaround", account_id="CW1006", order_id="TR7006",
               fee_pence=6750, due_date="2026-12-11").result  # fmt: skip
    assert out["turnaround"] == "rush" and charges(env, "CW1006", "upgrade") == [6750]
    assert row(env, "orders", order_id="TR7006")["paid_pence"] == 20250
    again = tool(env, "upgrade_turnaround", account_id="CW1006", order_id="TR7006",
                 fee_pence=0, due_date="2026-12-11").error  # fmt: skip
    assert "already rush" in again
    assert "until January" in tool(env, "upgrade_turnaround", account_id="CW1005",
                                   order_id="TR7005", fee_pence=9000,
                                   due_date="2026-12-11").error  # fmt: skip
    assert "delivered" in tool(env, "upgrade_turnaround", account_id="CW1010", order_id="TR7010",
                               fee_pence=0, due_date="2026-12-11").error  # fmt: skip
    assert "no order" in tool(env, "upgrade_turnaround", account_id="CW1013", order_id="TR7014",
                              fee_pence=0, due_date="2026-12-11").error  # fmt: skip


def test_tool_request_revision_and_its_refusals():
    env = make_environment()
    out = tool(env, "request_revision", account_id="CW1010", order_id="TR7010", kind="error",
               pages=2, fee_pence=0, due_date="2026-12-11").result  # fmt: skip
    assert out["fee"] == "£0.00" and charges(env, "CW1010", "revision") == []
    late = tool(env, "request_revision", account_id="CW1011", order_id="TR7011", kind="error",
                pages=2, fee_pence=0, due_date="2026-12-11")  # fmt: skip
    assert late.error is None  # the system does not check the 30-day window: the desk must
    assert "not been delivered" in tool(env, "request_revision", account_id="CW1010",
                                        order_id="TR7025", kind="error", pages=1, fee_pence=0,
                                        due_date="2026-12-11").error  # fmt: skip
    assert "has 4 pages" in tool(env, "request_revision", account_id="CW1012", order_id="TR7012",
                                 kind="source_change", pages=9, fee_pence=0,
                                 due_date="2026-12-16").error  # fmt: skip


def test_tool_cancel_order_and_its_refusals():
    env = make_environment()
    out = tool(env, "cancel_order", account_id="CW1008", order_id="TR7008",
               refund_pence=14000).result  # fmt: skip
    assert out["status"] == "cancelled" and charges(env, "CW1008", "refund") == [14000]
    assert "delivered" in tool(env, "cancel_order", account_id="CW1024", order_id="TR7024",
                               refund_pence=0).error  # fmt: skip
    # the system does not check whether work has started: the desk must
    assert tool(env, "cancel_order", account_id="CW1009", order_id="TR7009",
                refund_pence=0).error is None  # fmt: skip


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]
    names = {c[1] for c in _seed.CUSTOMERS}
    assert all(s.persona.name in names for s in scenarios)


# -- reading ---------------------------------------------------------------------------------
def test_reading_pairs_pages_and_options():
    assert rd.pair("my 3-page French letter into English") == ("French", "English")
    assert rd.pair("my CV from English into Arabic") == ("English", "Arabic")
    assert rd.pair("I need my 2-page English leaflet translated into French") == (
        "English", "French")  # fmt: skip
    assert rd.pair("a Polish birth certificate") == ("Polish", None)
    assert rd.pages("It's 4 pages — sorry, 5 pages") == 5 and rd.pages("two pages") == 2
    assert rd.bare_number("fourteen") == 14 and rd.pages("£28 a page") is None
    assert rd.certified("no certification needed") is False
    assert rd.certified("it doesn't need to be certified") is False
    assert rd.certified("my birth certificate") is None and rd.certified("certified") is True
    assert rd.turnaround("rush if you can, otherwise standard is fine") == ("rush", True)
    assert rd.turnaround("there's no rush") == ("standard", False)
    assert rd.cap("Only if the extra is under £50") == 5000
    assert rd.revision_kind("I've updated the original") == "source_change"
    assert rd.revision_kind("there are mistakes on two pages") == "error"


def test_reading_requests_and_answers():
    assert [r.intent for r in rd.requests(
        "Please cancel order TR7015, and send me a quote for a 2-page Italian certificate"
    )] == ["cancel", "quote"]  # fmt: skip
    assert [r.intent for r in rd.requests("Translate 3 pages of French into English on rush")] == [
        "order"
    ]
    assert [r.intent for r in rd.requests("Can you switch my order TR7019 to rush?")] == ["upgrade"]
    lead = rd.requests("I have a 5-page German contract. Please translate it into English.")
    assert len(lead) == 1 and "5-page" in lead[0].text
    assert rd.requests("Yes, that's correct") == [] and rd.requests("sorry, my mistake") == []
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("Yes please") == "yes" and rd.answer("hmm") is None


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectTranslationAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_details_asked_one_at_a_time():
    env, replies, _ = chat(CorrectTranslationAgent, [
        "I'd like to order a translation", *WHO["CW1001"], "French", "English", "3",
        "no", "standard", "yes"])  # fmt: skip
    asks = [r.text for r in replies]
    assert "Which language is the document in?" in asks[2]
    assert "translated into" in asks[3] and "How many pages" in asks[4]
    assert "certified" in asks[5] and "Standard turnaround" in asks[6]
    assert "£84.00" in asks[7] and "Wednesday 16 December" in asks[7]
    assert row(env, "orders", account_id="CW1001")["price_pence"] == 8400


def test_answers_said_with_the_slot_names():
    env, replies, _ = chat(CorrectTranslationAgent, [
        "I would like to get a document translated.", "My account_id is CW1001",
        "My email is alice.brennan@example.com", "My source_language is French",
        "My target_language is English", "My pages is 3", "My certified is no",
        "My turnaround is standard", "Yes"])  # fmt: skip
    assert "£84.00 in all" in replies[7].text
    assert row(env, "orders", account_id="CW1001")["certified"] == 0


def test_question_about_a_proposal_is_not_a_yes():
    messages = ["Cancel order TR7008", *WHO["CW1008"], "Do I get all my money back?", "ok"]
    env, replies, _ = chat(CorrectTranslationAgent, messages)
    assert "£140.00" in replies[2].text and called(replies[:4], "cancel_order") == []
    assert charges(env, "CW1008", "refund") == [14000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectTranslationAgent, ["Upgrade TR7006 to rush", *WHO["CW1006"],
                                                     "I'd rather not"])  # fmt: skip
    assert "£67.50" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "orders", order_id="TR7006")["turnaround"] == "standard"


def test_hedge_then_yes():
    env, replies, _ = chat(CorrectTranslationAgent, ["Upgrade TR7006 to rush", *WHO["CW1006"],
                                                     "hang on", "go ahead"])  # fmt: skip
    assert called(replies[:4], "upgrade_turnaround") == [] and "haven't changed" in replies[3].text
    assert row(env, "orders", order_id="TR7006")["turnaround"] == "rush"


def test_value_changed_in_answer_to_the_proposal():
    env, replies, _ = chat(CorrectTranslationAgent, [
        "Please translate my 3-page French letter into English, standard, not certified",
        *WHO["CW1001"], "Actually, make it 4 pages", "yes"])  # fmt: skip
    assert "£112.00" in replies[3].text
    assert row(env, "orders", account_id="CW1001")["pages"] == 4


def test_facts_given_up_front():
    env, replies, _ = chat(CorrectTranslationAgent, [
        "Hi, I'm CW1016, claire.dubois@example.com. I need 2 pages of English translated into "
        "French on rush, no certification", "yes"])  # fmt: skip
    assert "Claire" in replies[0].text and "Friday 11 December" in replies[0].text
    assert row(env, "orders", account_id="CW1016")["due_date"] == "2026-12-11"


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectTranslationAgent, [
        "Cancel order TR7008", "CW1008", "wrong@example.com", "CW1008", "wrong@example.com",
        "CW1008", "wrong@example.com"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_order") == []


def test_nothing_shared_before_identity():
    _, replies, _ = chat(CorrectTranslationAgent, ["When will TR7018 be ready?"])
    assert "account number" in replies[0].text and "December" not in replies[0].text
    assert called(replies, "get_account") == []


def test_order_number_asked_when_no_order_fits():
    env, replies, _ = chat(CorrectTranslationAgent, ["Please upgrade my order to rush",
                                                     *WHO["CW1013"], "7013"])  # fmt: skip
    assert "What's the order number?" in replies[2].text
    assert "delivered, so it can't be upgraded" in replies[3].text
    assert charges(env, "CW1013", "upgrade") == []


def test_revision_asks_kind_and_pages():
    env, replies, _ = chat(
        CorrectTranslationAgent,
        ["I need a revision of order TR7010", *WHO["CW1010"], "it's your mistake", "2", "yes"],
    )
    assert "mistake in our translation" in replies[2].text and "How many pages" in replies[3].text
    assert row(env, "revisions", order_id="TR7010")["fee_pence"] == 0


def test_revision_of_an_undelivered_order_is_refused():
    env, replies, _ = chat(CorrectTranslationAgent, ["There are mistakes in order TR7025",
                                                     *WHO["CW1010"]])  # fmt: skip
    assert "hasn't been delivered" in replies[-1].text
    assert env.select("revisions", {"order_id": "TR7025"}) == []


def test_unoffered_language_and_rush_not_worth_it():
    _, replies, _ = chat(CorrectTranslationAgent, ["Translate my Welsh letter into English",
                                                   *WHO["CW1001"]])  # fmt: skip
    assert "don't translate Welsh" in replies[-1].text
    _, replies, _ = chat(CorrectTranslationAgent, ["Upgrade TR7009 to rush", *WHO["CW1009"]])
    assert "already due on Friday 11 December" in replies[-1].text


def test_two_requests_both_handled_in_order():
    env, replies, _ = chat(CorrectTranslationAgent, [
        "Please cancel order TR7015, and send me a quote for 2 pages of Italian into English, "
        "certified, standard", *WHO["CW1015"], "yes", "yes"])  # fmt: skip
    assert "To cancel" in replies[2].text and "written quote" in replies[3].text
    assert charges(env, "CW1015", "refund") == [5600]
    assert row(env, "quotes", account_id="CW1015")["price_pence"] == 8100


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Upgrade my order TR7007 to rush", *WHO["CW1007"], "yes"]),
    ("F2", ["Translate 4 pages of Italian into English, certified, rush", *WHO["CW1003"], "yes"]),
    (
        "F3",
        [
            "Translate 3 pages from English into Arabic, standard, not certified",
            *WHO["CW1017"],
            "yes",
        ],
    ),  # fmt: skip
    ("F4", ["When will order TR7014 be ready?", *WHO["CW1013"]]),
    ("F5", ["Cancel order TR7009", *WHO["CW1009"], "yes"]),
    (
        "F6",
        [
            "Please cancel order TR7015, and send me a quote for 2 pages of Italian into "
            "English, certified, standard",
            *WHO["CW1015"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F7", ["Upgrade order TR7005 to rush", *WHO["CW1005"], "yes"]),
    ("F8", ["There are mistakes on 2 pages of order TR7011", *WHO["CW1011"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedTranslationAgent, messages)
    assert f"translation:{flaw}" in fired
    _, _, clean = chat(CorrectTranslationAgent, messages)
    assert clean == []


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedTranslationAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "upgrade_turnaround") == []
    assert row(env, "orders", order_id="TR7007")["turnaround"] == "standard"
    env, _, _ = chat(FlawedTranslationAgent, FLAWS[1][1])
    assert row(env, "orders", account_id="CW1003")["price_pence"] == 20550
    env, _, _ = chat(FlawedTranslationAgent, FLAWS[2][1])
    assert row(env, "orders", account_id="CW1017")["price_pence"] == 8400
    env, replies, _ = chat(FlawedTranslationAgent, FLAWS[3][1])
    assert "Ruth Adler" in replies[-1].text and "tenancy agreement" in replies[-1].text
    env, _, _ = chat(FlawedTranslationAgent, FLAWS[4][1])
    assert charges(env, "CW1009", "refund") == [29700]
    env, replies, _ = chat(FlawedTranslationAgent, FLAWS[5][1])
    assert env.select("quotes", {"account_id": "CW1015"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedTranslationAgent, FLAWS[6][1])
    assert "Done" in replies[-1].text and charges(env, "CW1005", "upgrade") == []
    env, _, _ = chat(FlawedTranslationAgent, FLAWS[7][1])
    assert row(env, "revisions", order_id="TR7011")["fee_pence"] == 0


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"translation-upgrade-and-quote": "F6"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedTranslationAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedTranslationAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"translation:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)
