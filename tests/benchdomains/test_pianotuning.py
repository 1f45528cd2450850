"""Keynote Piano Services: tools, reader, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.pianotuning import (
    CorrectPianoTuningAgent,
    FlawedPianoTuningAgent,
    PianoTuningEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.pianotuning import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "pianotuning" / "scenarios.yaml"
# a customer number and the postcode on record: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "pianotuning:0")


def said(replies):
    return " ".join(r.text for r in replies)


def charges(env, customer, kind):
    return [c["amount_pence"] for c in env.select("charges", {"customer_id": customer,
                                                              "kind": kind})]  # fmt: skip


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="pianotuning:0", message=message, history=tuple(history))
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


# -- the environment and its tools ------------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, PianoTuningEnvironment)
    assert env.now().isoformat() == "2026-12-15T09:00:00+00:00"
    assert len(_seed.CUSTOMERS) == 24
    tool(env, "cancel_visit", customer_id="KP1011", visit_id="KV3011", fee_pence=0)
    assert row(make_environment(), "visits", visit_id="KV3011")["status"] == "booked"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visit", customer_id="KP1011", visit_id="KV3011", fee_pence=0)
    env.restore(before)
    assert row(env, "visits", visit_id="KV3011")["status"] == "booked"
    agent = CorrectPianoTuningAgent(env=env)
    turn = Turn(episode_id="p", message="Cancel my visit, KP1011", history=())
    asyncio.run(agent.respond(turn))
    other = CorrectPianoTuningAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "KP1011"}


def test_verify_customer_needs_number_and_postcode():
    env = make_environment()
    ok = tool(env, "verify_customer", customer_id="kp1002", postcode="rg13eh").result
    assert ok["name"] == "Ben Carter" and ok["area"] == "RG"
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="KP1002", postcode="OX2 6NN").error  # fmt: skip
    assert "verification failed" in tool(
        env, "verify_customer", customer_id="KP9999", postcode="RG1 3EH").error  # fmt: skip


def test_find_windows_and_its_refusals():
    env = make_environment()
    free = tool(env, "find_windows", customer_id="KP1013", day="2027-01-07").result["free"]
    assert free == ["10:30", "13:00", "14:30"]
    assert "no tuner covers" in tool(env, "find_windows", customer_id="KP1006",
                                     day="2026-12-21").error  # fmt: skip
    assert tool(env, "find_windows", customer_id="KP1001", day="2026-12-31").error is None
    assert "closed" in tool(env, "find_windows", customer_id="KP1004", day="2027-01-01").error
    assert "from tomorrow" in tool(env, "find_windows", customer_id="KP1001",
                                   day="2026-12-15").error  # fmt: skip


def test_book_visit_refusals():
    env = make_environment()
    digital = tool(env, "book_visit", customer_id="KP1005", piano_ids=["PN207"],
                   day="2027-01-07", slot="10:30", price_pence=8500).error  # fmt: skip
    assert "digital" in digital
    taken = tool(env, "book_visit", customer_id="KP1013", piano_ids=["PN215"],
                 day="2027-01-07", slot="09:00", price_pence=8500).error  # fmt: skip
    assert "already taken" in taken
    other = tool(env, "book_visit", customer_id="KP1013", piano_ids=["PN201"],
                 day="2027-01-07", slot="10:30", price_pence=8500).error  # fmt: skip
    assert "no piano" in other
    odd = tool(env, "book_visit", customer_id="KP1013", piano_ids=["PN215"],
               day="2027-01-07", slot="11:00", price_pence=8500).error  # fmt: skip
    assert "not a window" in odd
    assert env.select("visits", {"customer_id": "KP1013"}) == []


def test_book_visit_does_not_check_the_price():
    env = make_environment()
    r = tool(env, "book_visit", customer_id="KP1001", piano_ids=["PN201"], day="2027-01-07",
             slot="10:30", price_pence=1).result  # fmt: skip
    assert r["visit_id"] == "KV3025" and row(env, "visits", visit_id="KV3025")["price_pence"] == 1


def test_move_and_cancel_refusals():
    env = make_environment()
    assert "no visit" in tool(env, "move_visit", customer_id="KP1001", visit_id="KV3007",
                              day="2027-01-13", slot="09:00", fee_pence=0).error  # fmt: skip
    assert "no tuner covers" in tool(env, "move_visit", customer_id="KP1007", visit_id="KV3007",
                                     day="2027-01-12", slot="09:00", fee_pence=0).error  # fmt: skip
    tool(env, "cancel_visit", customer_id="KP1011", visit_id="KV3011", fee_pence=0)
    assert "cancelled" in tool(env, "cancel_visit", customer_id="KP1011", visit_id="KV3011",
                               fee_pence=0).error  # fmt: skip


def test_move_keeps_its_own_window_free():
    env = make_environment()
    r = tool(env, "move_visit", customer_id="KP1007", visit_id="KV3007", day="2027-01-11",
             slot="09:00", fee_pence=0)  # fmt: skip
    assert r.error is None and row(env, "visits", visit_id="KV3007")["slot"] == "09:00"


def test_accept_quote_refusals():
    env = make_environment()
    expired = tool(env, "accept_quote", customer_id="KP1015", quote_id="Q-4002",
                   deposit_pence=13500).error  # fmt: skip
    assert "expired on 2026-11-19" in expired
    assert "no quote" in tool(env, "accept_quote", customer_id="KP1015", quote_id="Q-4001",
                              deposit_pence=9000).error  # fmt: skip
    tool(env, "accept_quote", customer_id="KP1014", quote_id="Q-4001", deposit_pence=9000)
    assert "already accepted" in tool(env, "accept_quote", customer_id="KP1014",
                                      quote_id="Q-4001", deposit_pence=9000).error  # fmt: skip


def test_start_plan_refusals():
    env = make_environment()
    assert "digital" in tool(env, "start_plan", customer_id="KP1005", piano_id="PN207",
                             price_pence=15000).error  # fmt: skip
    tool(env, "start_plan", customer_id="KP1016", piano_id="PN218", price_pence=15000)
    assert "already on a plan" in tool(env, "start_plan", customer_id="KP1016",
                                       piano_id="PN218", price_pence=15000).error  # fmt: skip


def test_invoice_and_visit_lookups_are_not_guarded_by_the_system():
    env = make_environment()
    assert "no invoice" in tool(env, "send_invoice_copy", customer_id="KP1017",
                                invoice_id="INV-6018", email="x@example.com").error  # fmt: skip
    sent = tool(env, "send_invoice_copy", customer_id="KP1018", invoice_id="INV-6018",
                email="anyone@example.org").result  # fmt: skip
    assert sent["sent_to"] == "anyone@example.org"
    assert tool(env, "get_visit", visit_id="KV3020").result["name"] == "Uma Vance"
    assert "no visit" in tool(env, "get_visit", visit_id="KV9999").error


# -- the reader -------------------------------------------------------------------------------
def test_reading_references_and_postcodes():
    assert rd.customers("my number is kp 1002") == ["KP1002"]
    assert rd.visits("visit KV3020?") == ["KV3020"] and rd.quotes("quote q4002") == ["Q-4002"]
    assert rd.invoices("INV 6018") == ["INV-6018"]
    assert rd.postcodes("it's rg30 1xx") == ["RG30 1XX"] and rd.postcodes("OX26NN") == ["OX2 6NN"]
    assert rd.postcodes("visit KV3020 and Q-4001") == []


def test_reading_days_and_times():
    assert [d.isoformat() for d in rd.dates("Thursday 7 January", TODAY)] == ["2027-01-07"]
    assert [d.isoformat() for d in rd.dates(
        "my visit on 5 January to Tuesday 12 January — sorry, I mean Thursday 14 January", TODAY
    )] == ["2027-01-05", "2027-01-12", "2027-01-14"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("from 16 December to 21 December", TODAY)] == [
        "2026-12-21"]  # fmt: skip
    assert rd.clock_time("at 9am") == "09:00" and rd.clock_time("1pm") == "13:00"
    assert rd.clock_time("the 10:30 window") == "10:30" and rd.clock_time("for the 8th") is None


def test_reading_answers():
    assert rd.answer("yes please") == "yes" and rd.answer("hang on") == "hedge"
    assert rd.answer("I'd rather not") == "no" and rd.answer("no problem, go ahead") == "yes"
    assert rd.answer("what?") is None


def test_reading_requests():
    assert [r.intent for r in rd.requests(
        "Please move my visit on Monday 11 January to Wednesday 13 January, and email me a copy "
        "of my last invoice.")] == ["move", "invoice"]  # fmt: skip
    assert [r.intent for r in rd.requests("I'd like to put my upright on your annual tuning "
                                          "plan")] == ["plan"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel tomorrow's tuning visit")] == ["cancel"]
    assert {r.intent for r in rd.requests(
        "When is the tuner coming, and what will I pay on the day?")} == {"lookup"}  # fmt: skip
    assert [r.intent for r in rd.requests("Book a tuning for my grand")] == ["book"]
    assert rd.FREE_ONLY.search("Only if there's no charge for it.")


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)
TAGGED = {s.id: s.tags[0].removeprefix("flaw:") for s in SCENARIO_LIST if s.tags}


def test_scenarios_parse():
    assert len(SCENARIO_LIST) == 23 and len({s.id for s in SCENARIO_LIST}) == 23
    assert all(not s.agenda for s in SCENARIO_LIST)
    assert sorted(TAGGED.values()) == [f"F{i}" for i in range(1, 9)]


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectPianoTuningAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_nothing_is_shared_before_verification():
    _, replies, _ = chat(CorrectPianoTuningAgent, ["When is my tuner coming?"])
    assert "customer number" in replies[0].text and "KV" not in replies[0].text
    assert called(replies, "get_customer") == []


def test_identity_is_locked_after_three_failures():
    _, replies, _ = chat(CorrectPianoTuningAgent, ["Cancel my visit", "KP1011", "OX1 1AA",
                                                   "KP1011", "OX1 1AA", "KP1011",
                                                   "OX1 1AA"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_visit") == []


def test_facts_given_up_front_and_a_hedge_is_not_a_yes():
    env, replies, _ = chat(CorrectPianoTuningAgent, [
        "Hi, KP1001, OX2 6NN. Please book a tuning on Thursday 7 January at 2.30pm",
        "hang on", "go ahead"])  # fmt: skip
    assert "Shall I book it?" in replies[0].text and called(replies[:2], "book_visit") == []
    assert row(env, "visits", customer_id="KP1001")["slot"] == "14:30"


def test_a_window_is_asked_for_when_none_is_said():
    env, replies, _ = chat(CorrectPianoTuningAgent, ["Book a tuning on Thursday 7 January",
                                                     *WHO["KP1013"], "13:00", "yes"])  # fmt: skip
    assert "10:30–12:00" in replies[2].text and "09:00–10:30" not in replies[2].text
    assert row(env, "visits", customer_id="KP1013")["slot"] == "13:00"


def test_a_value_corrected_at_the_proposal_reworks_it():
    env, replies, _ = chat(CorrectPianoTuningAgent, [
        "Please move my visit to Wednesday 13 January", *WHO["KP1007"],
        "Sorry, make it Monday 18 January", "yes"])  # fmt: skip
    assert "Monday 18 January" in replies[3].text
    assert row(env, "visits", visit_id="KV3007")["day"] == "2027-01-18"


def test_declining_a_fee_changes_nothing():
    env, replies, _ = chat(CorrectPianoTuningAgent, ["Move my visit to Monday 21 December",
                                                     *WHO["KP1008"], "no thanks"])  # fmt: skip
    assert "£20.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "visits", visit_id="KV3008")["day"] == "2026-12-16"


def test_a_closed_day_is_refused_before_any_proposal():
    message = "Book my upright in on Friday 1 January at 9am"
    env, replies, _ = chat(CorrectPianoTuningAgent, [message, *WHO["KP1004"]])
    assert "closed" in replies[-1].text and called(replies, "book_visit") == []


def test_exactly_48_hours_out_is_free():
    env = make_environment()
    tool(env, "move_visit", customer_id="KP1009", visit_id="KV3009", day="2026-12-17",
         slot="09:00", fee_pence=0)  # fmt: skip
    _, replies, _ = chat(CorrectPianoTuningAgent, ["Cancel my visit", *WHO["KP1009"], "yes"], env)
    assert "no charge" in replies[2].text and charges(env, "KP1009", "callout_fee") == []


def test_a_refusal_is_reported_as_one():
    _, replies, _ = chat(CorrectPianoTuningAgent, ["Please accept quote Q-4002",
                                                   *WHO["KP1015"], "yes"])  # fmt: skip
    assert "£135.00" in replies[2].text and "refused" in replies[-1].text
    assert "expired" in replies[-1].text and "Nothing has been changed" in replies[-1].text


def test_an_own_visit_asked_by_number_is_described():
    _, replies, _ = chat(CorrectPianoTuningAgent, ["What time is visit KV3022?",
                                                   *WHO["KP1022"]])  # fmt: skip
    assert "10:30–12:00" in replies[-1].text and called(replies, "get_visit") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Put my upright on the annual plan", *WHO["KP1016"], "yes"]),
    ("F2", ["Tune both pianos on Tuesday 12 January at 1pm", *WHO["KP1003"], "yes"]),
    ("F3", ["Move my visit to Tuesday 22 December", *WHO["KP1009"], "yes"]),
    ("F4", ["What time is visit KV3020?", *WHO["KP1019"]]),
    ("F5", ["Cancel my visit tomorrow", *WHO["KP1012"], "yes"]),
    ("F6", ["Book my grand in on Friday 15 January at 10:30", *WHO["KP1004"], "yes"]),
    (
        "F7",
        ["Cancel my visit, and email me a copy of my last invoice", *WHO["KP1024"], "yes", "yes"],
    ),  # fmt: skip
    ("F8", ["Please accept quote Q-4002", *WHO["KP1015"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedPianoTuningAgent, messages)
    assert f"pianotuning:{flaw}" in fired
    _, _, clean = chat(CorrectPianoTuningAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if not s.tags],
                         ids=lambda s: s.id)  # fmt: skip
def test_flawed_agent_passes_the_untagged_scenarios_untouched(scenario):
    env, replies, fired = play_scenario(FlawedPianoTuningAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.tags], ids=lambda s: s.id)
def test_tagged_scenario_shows_its_flaw_and_only_it(scenario):
    env, replies, fired = play_scenario(FlawedPianoTuningAgent, scenario)
    assert set(fired) == {f"pianotuning:{TAGGED[scenario.id]}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedPianoTuningAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "start_plan") == []
    assert env.select("plans", {"customer_id": "KP1016"}) == []
    env, _, _ = chat(FlawedPianoTuningAgent, FLAWS[1][1])
    assert row(env, "visits", customer_id="KP1003")["price_pence"] == 17500
    env, _, _ = chat(FlawedPianoTuningAgent, FLAWS[2][1])
    assert charges(env, "KP1009", "callout_fee") == [2000]
    env, replies, _ = chat(FlawedPianoTuningAgent, FLAWS[3][1])
    assert "Uma Vance" in replies[-1].text and "09:00" in replies[-1].text
    env, _, _ = chat(FlawedPianoTuningAgent, FLAWS[4][1])
    assert charges(env, "KP1012", "callout_fee") == []
    env, _, _ = chat(FlawedPianoTuningAgent, FLAWS[5][1])
    assert row(env, "visits", piano_ids="PN206")["price_pence"] == 9000
    env, replies, _ = chat(FlawedPianoTuningAgent, FLAWS[6][1])
    assert env.select("invoice_copies", {"invoice_id": "INV-6024"}) == []
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedPianoTuningAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "quotes", quote_id="Q-4002")["status"] == "open"
