"""Clearview Opticians: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.optician import (
    CorrectOpticianAgent,
    FlawedOpticianAgent,
    OpticianEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.optician import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "optician" / "scenarios.yaml"
# a customer number and the date of birth, as a customer says them when asked who they are
WHO = {c[0]: [c[0], f"{int(c[2][8:])} {rd.MONTH.strip('()').split('|')[int(c[2][5:7]) - 1]} "
              f"{c[2][:4]}"] for c in _seed.CUSTOMERS}  # fmt: skip


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "optician:0")


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
            turn = Turn(episode_id="optician:0", message=message, history=tuple(history))
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


# -- the environment, its tools and the scenarios --------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, OpticianEnvironment)
    assert env.now().isoformat() == "2026-12-07T10:00:00+00:00"
    tool(env, "update_contact", customer_id="CV2018", phone="07700 900456")
    assert row(make_environment(), "customers", customer_id="CV2018")["phone"] == "07700 900618"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_appointment", customer_id="CV2009", appt_id="AP3009", fee_pence=0)
    env.restore(before)
    assert row(env, "appointments", appt_id="AP3009")["status"] == "booked"
    agent = CorrectOpticianAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="o", message="Cancel my eye test, CV2009",
                                   history=())))  # fmt: skip
    other = CorrectOpticianAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"customer_id": "CV2009"}


def test_verify_and_system_rules():
    env = make_environment()
    ok = tool(env, "verify_customer", customer_id="cv2002", date_of_birth="1958-06-03")
    assert ok.result["name"] == "Raj Patel"
    assert (
        "verification failed"
        in tool(env, "verify_customer", customer_id="CV2002", date_of_birth="1958-06-04").error
    )
    assert tool(env, "list_slots", day="2026-12-09").result["free"] == []
    assert tool(env, "list_slots", day="2026-12-12").result["free"] == []  # a Saturday
    assert tool(env, "list_slots", day="2026-12-10").result["free"][0] == "10:00"
    taken = tool(env, "book_eye_test", customer_id="CV2001", day="2026-12-08", time="09:00",
                 nhs=False, fee_pence=2500).error  # fmt: skip
    assert "not a free slot" in taken
    lab = tool(env, "add_coating", customer_id="CV2013", order_id="GO4013", coating="anti-glare",
               price_pence=2500).error  # fmt: skip
    assert "gone to the lab" in lab
    cover = tool(env, "claim_cover", customer_id="CV2017", order_id="GO4017", kind="replacement",
                 excess_pence=2500).error  # fmt: skip
    assert "no Clearview Cover" in cover
    other = tool(env, "cancel_order", customer_id="CV2001", order_id="GO4014",
                 refund_pence=19900).error  # fmt: skip
    assert "for this customer" in other
    pause = tool(env, "pause_subscription", customer_id="CV2019", sub_id="CL5019", months=4)
    assert "1 to 3 months" in pause.error
    phone = tool(env, "update_contact", customer_id="CV2023", phone="0770 09")
    assert "not a UK phone number" in phone.error


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    assert all(not s.tags for s in scenarios)  # none written for a flaw


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from 8 December to Thursday 10 December", today)] == [
        "2026-12-10"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("born 12 April 1989, test on 4 January", today)] == [
        "2027-01-04"]  # fmt: skip
    assert rd.birth_date("It's 12 April 1989", today) == "1989-04-12"
    assert rd.birth_date("12/04/1989", today) == "1989-04-12"
    assert rd.birth_date("1989-04-12", today) == "1989-04-12"
    assert rd.birth_date("Thursday 10 December", today) is None
    assert rd.phones("07700 900 777") == ["07700 900777"]
    assert rd.clock_time("at 2pm on Friday") == "14:00" and rd.clock_time("by 12") is None
    assert rd.months("for two months") == 2 and rd.months("a month") == 1
    assert [r.intent for r in rd.requests(
        "Book me an eye test on Friday 18 December, and change my mobile number to 07700 900777"
    )] == ["book", "contact"]  # fmt: skip
    assert [r.intent for r in rd.requests(
        "Please add anti-glare to my new glasses order, and email me a copy of my prescription"
    )] == ["coating", "prescription"]  # fmt: skip
    assert [r.intent for r in rd.requests("Cancel my contact lens plan")] == ["cancel_sub"]
    assert [r.intent for r in rd.requests("Cancel my glasses order")] == ["cancel_order"]
    assert [r.intent for r in rd.requests("Cancel my eye test")] == ["cancel"]
    assert [r.intent for r in rd.requests("I've lost my glasses")] == ["claim"]
    assert [r.intent for r in rd.requests("When is my eye test?")] == ["lookup"]
    assert rd.FREE_ONLY.search("if there's a charge for cancelling, leave it booked")
    assert rd.answer("I'd rather not then") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectOpticianAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings and bad input -----------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectOpticianAgent, ["Cancel my glasses order", *WHO["CV2014"],
                                                  "Do I get all my money back?", "ok"])  # fmt: skip
    assert "£199.00" in replies[2].text and called(replies[:4], "cancel_order") == []
    assert charges(env, "CV2014", "refund") == [19900]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectOpticianAgent, [
        "Move my eye test to Thursday 10 December at 2pm", *WHO["CV2006"],
        "I'd rather not"])  # fmt: skip
    assert "£15.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "appointments", appt_id="AP3006")["day"] == "2026-12-08"


def test_facts_before_they_are_asked_bare_answers_and_a_hedge():
    env, replies, _ = chat(CorrectOpticianAgent, [
        "Hi, customer number CV2001. I need an eye test", "12/04/1989",
        "Monday 14 December", "11:30", "hang on", "go ahead"])  # fmt: skip
    assert "Which day" in replies[1].text and "free times" in replies[2].text
    assert "Shall I book it?" in replies[3].text and called(replies[:5], "book_eye_test") == []
    assert row(env, "appointments", customer_id="CV2001")["time"] == "11:30"


def test_value_corrected_mid_conversation():
    env, replies, _ = chat(CorrectOpticianAgent, [
        "Please move my eye test to Thursday 10 December at 2pm", *WHO["CV2005"],
        "Sorry, I meant Friday 11 December at 10am", "yes"])  # fmt: skip
    assert "Friday 11 December at 10:00" in replies[3].text
    assert row(env, "appointments", appt_id="AP3005")["day"] == "2026-12-11"


def test_a_taken_time_is_not_booked_and_no_to_a_question_leaves_it():
    env, replies, _ = chat(CorrectOpticianAgent, [
        "Book an eye test on Thursday 10 December at 9am", *WHO["CV2001"],
        "no thanks, leave it"])  # fmt: skip
    assert "09:00 isn't free" in replies[2].text and "nothing has been changed" in replies[3].text
    assert env.select("appointments", {"customer_id": "CV2001"}) == []


def test_order_asks_for_missing_frame_and_lens():
    env, replies, _ = chat(CorrectOpticianAgent, [
        "I'd like to order a new pair of glasses", *WHO["CV2010"], "CF-305",
        "varifocals with a blue light filter please", "yes"])  # fmt: skip
    assert "Which frame" in replies[2].text and "Which lenses" in replies[3].text
    assert row(env, "orders", customer_id="CV2010")["price_pence"] == 12900 + 12000 + 3000


def test_pause_months_asked_and_cancel_test_late_with_fee():
    env, replies, _ = chat(CorrectOpticianAgent, ["Can I pause my lenses?", *WHO["CV2019"],
                                                  "3 months", "yes"])  # fmt: skip
    assert "How many months" in replies[2].text
    assert row(env, "subscriptions", sub_id="CL5019")["next_payment"] == "2027-03-15"
    env, replies, _ = chat(CorrectOpticianAgent, ["Cancel my eye test this afternoon",
                                                  *WHO["CV2008"], "yes"])  # fmt: skip
    assert charges(env, "CV2008", "late_fee") == [1500]


def test_new_email_and_lost_glasses_with_cover():
    env, _, _ = chat(CorrectOpticianAgent, ["Please update my email to e.clarke@example.net",
                                            *WHO["CV2018"], "yes"])  # fmt: skip
    assert row(env, "customers", customer_id="CV2018")["email"] == "e.clarke@example.net"
    env, _, _ = chat(CorrectOpticianAgent, ["I've lost my varifocals, please claim on my cover",
                                            *WHO["CV2018"], "yes"])  # fmt: skip
    assert row(env, "claims", order_id="GO4018")["excess_pence"] == 2500


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectOpticianAgent, ["Cancel my eye test", "CV2009", "1 May 1977",
                                                "CV2009", "1 May 1977", "CV2009",
                                                "1 May 1977"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_appointment") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please pause my contact lenses for two months", *WHO["CV2019"], "yes"]),
    ("F2", ["I'd like a second pair: CF-118 with varifocal lenses", *WHO["CV2011"], "yes"]),
    ("F3", ["My glasses are broken, please repair them under my cover", *WHO["CV2016"], "yes"]),
    ("F4", ["Send my prescription to hello@brightspecs.example.org", *WHO["CV2022"], "yes"]),
    ("F5", ["Move my eye test to Thursday 10 December at 2pm", *WHO["CV2006"], "yes"]),
    ("F6", ["Cancel my glasses order", *WHO["CV2015"], "yes"]),
    ("F7", ["Book me an eye test on Friday 18 December in the morning, and change my mobile "
            "number to 07700 900777", *WHO["CV2023"], "yes", "yes"]),
    ("F8", ["Add anti-glare to my glasses order", *WHO["CV2013"], "yes"]),
]  # fmt: skip


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedOpticianAgent, messages)
    assert f"optician:{flaw}" in fired
    _, _, clean = chat(CorrectOpticianAgent, messages)
    assert clean == []


# scenarios a flaw touches: none was written for a flaw; these are errands a desk meets anyway
TOUCHED = {
    "optician-pause-lenses": "F1",
    "optician-second-pair": "F2",
    "optician-repair-under-cover": "F3",
    "optician-prescription-to-another-optician": "F4",
    "optician-move-test-late": "F5",
    "optician-cancel-only-if-free": "F5",
    "optician-cancel-order-at-lab": "F6",
    "optician-test-and-new-mobile": "F7",
    "optician-coating-and-prescription": "F7",
    "optician-add-coating-too-late": "F8",
}


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.id not in TOUCHED],
                         ids=lambda s: s.id)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedOpticianAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.id in TOUCHED],
                         ids=lambda s: s.id)  # fmt: skip
def test_touched_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedOpticianAgent, scenario)
    assert f"optician:{TOUCHED[scenario.id]}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedOpticianAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "pause_subscription") == []
    assert row(env, "subscriptions", sub_id="CL5019")["status"] == "active"
    env, _, _ = chat(FlawedOpticianAgent, FLAWS[1][1])
    assert row(env, "orders", customer_id="CV2011", frame="CF-118")["price_pence"] == 16550
    env, _, _ = chat(FlawedOpticianAgent, FLAWS[2][1])
    assert row(env, "claims", order_id="GO4016")["excess_pence"] == 2500
    env, _, _ = chat(FlawedOpticianAgent, FLAWS[3][1])
    assert row(env, "prescription_copies", customer_id="CV2022")["email"] == (
        "hello@brightspecs.example.org"
    )
    env, _, _ = chat(FlawedOpticianAgent, FLAWS[4][1])
    assert env.select("charges", {"customer_id": "CV2006"}) == []
    env, _, _ = chat(FlawedOpticianAgent, FLAWS[5][1])
    assert charges(env, "CV2015", "refund") == [20900]
    env, replies, _ = chat(FlawedOpticianAgent, FLAWS[6][1])
    assert row(env, "customers", customer_id="CV2023")["phone"] == "07700 900623"
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedOpticianAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "orders", order_id="GO4013")["coatings"] == ""
