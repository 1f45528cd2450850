"""Hirewell Tool Hire: tools, the reader, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

import pytest
from benchmarks.domains.toolhire import (
    CorrectToolHireAgent,
    FlawedToolHireAgent,
    ToolHireEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.toolhire import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "toolhire" / "scenarios.yaml"
TODAY = _seed.NOW.date()
# an account and its surname: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[2]] for c in _seed.CUSTOMERS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "toolhire:0")


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
            turn = Turn(episode_id="toolhire:0", message=message, history=tuple(history))
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
    assert isinstance(env, ToolHireEnvironment)
    assert env.now().isoformat() == "2026-12-09T10:00:00+00:00"
    assert len(env.select("customers", {})) == 25
    tool(env, "add_waiver", account_id="HW3001", hire_id="HR5001", waiver_pence=840)
    assert row(make_environment(), "hires", hire_id="HR5001")["waiver_pence"] == 0


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_hire", account_id="HW3016", hire_id="HR5016", refund_pence=12340)
    env.restore(before)
    assert row(env, "hires", hire_id="HR5016")["status"] == "booked"
    agent = CorrectToolHireAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Cancel my hire, HW3016", history=())))
    other = CorrectToolHireAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "HW3016"}


def test_day_rules_and_the_seeded_prices():
    days = _seed.charged_days
    assert days(date(2026, 12, 14), date(2026, 12, 14)) == 1
    assert days(date(2026, 12, 12), date(2026, 12, 13)) == 1  # a weekend is one day
    assert days(date(2026, 12, 11), date(2026, 12, 14)) == 3  # Fri, Sat+Sun, Mon
    assert days(date(2026, 12, 13), date(2026, 12, 14)) == 2  # Sunday alone is a day
    assert days(date(2026, 12, 14), date(2026, 12, 20)) == 4  # a week is four days
    assert days(date(2026, 12, 7), date(2026, 12, 18)) == 9  # a week and five weekdays
    rates = {i[0]: i[2] for i in _seed.ITEMS}
    for hire_id, _, first, last, hire, *_, lines in _seed.HIRES:
        span = days(date.fromisoformat(first), date.fromisoformat(last))
        assert hire == span * sum(rates[code] for code, _ in lines), hire_id
    assert [_seed.delivery_fee(m) for m in (3, 5, 8, 15, 18)] == [1500, 1500, 2500, 3500, None]


REFUSALS = {
    "verify_customer": [({"account_id": "HW3003", "surname": "Smith"}, "verification failed"),
                        ({"account_id": "HW9999", "surname": "Dunn"}, "verification failed")],
    "get_account": [({"account_id": "HW9999"}, "no account")],
    "get_hire": [({"hire_id": "HR9999"}, "no hire")],
    "check_availability": [
        ({"item_code": "XYZ", "first_day": "2026-12-14", "last_day": "2026-12-15"}, "no item"),
        ({"item_code": "MIX", "first_day": "2026-12-24", "last_day": "2026-12-25"}, "closed"),
        ({"item_code": "MIX", "first_day": "2026-12-15", "last_day": "2026-12-14"}, "before"),
    ],
    "book_hire": [
        ({"account_id": "HW3024", "item_codes": ["SND"], "first_day": "2026-12-17",
          "last_day": "2026-12-18", "hire_pence": 7200, "deposit_pence": 10000},
         "no floor sander is free"),
        ({"account_id": "HW3009", "item_codes": ["MIX"], "first_day": "2026-12-08",
          "last_day": "2026-12-10", "hire_pence": 7200, "deposit_pence": 5000}, "today or later"),
        ({"account_id": "HW3009", "item_codes": ["MIX"], "first_day": "2027-01-01",
          "last_day": "2027-01-02", "hire_pence": 4800, "deposit_pence": 5000}, "closed"),
        ({"account_id": "HW3013", "item_codes": ["MIX"], "first_day": "2026-12-10",
          "last_day": "2026-12-10", "hire_pence": 2400, "deposit_pence": 5000,
          "delivery_fee_pence": 3500}, "beyond the 15-mile"),
    ],
    "extend_hire": [
        ({"account_id": "HW3008", "hire_id": "HR5009", "last_day": "2026-12-12",
          "extra_pence": 7200}, "booked by another customer from 2026-12-11"),
        ({"account_id": "HW3018", "hire_id": "HR5018", "last_day": "2026-12-11",
          "extra_pence": 0}, "overdue"),
        ({"account_id": "HW3015", "hire_id": "HR5015", "last_day": "2026-12-25",
          "extra_pence": 0}, "closed"),
        ({"account_id": "HW3015", "hire_id": "HR5015", "last_day": "2026-12-15",
          "extra_pence": 0}, "after the current"),
    ],
    "return_early": [
        ({"account_id": "HW3021", "hire_id": "HR5021", "return_day": "2026-12-09",
          "refund_pence": 0}, "hasn't started"),
        ({"account_id": "HW3003", "hire_id": "HR5003", "return_day": "2026-12-11",
          "refund_pence": 0}, "before the last day"),
    ],
    "cancel_hire": [
        ({"account_id": "HW3022", "hire_id": "HR5022", "refund_pence": 0}, "has started"),
        ({"account_id": "HW3004", "hire_id": "HR5017", "refund_pence": 0},
         "no hire HR5017 on this account"),
        ({"account_id": "HW3020", "hire_id": "HR5020", "refund_pence": 0}, "is returned"),
    ],
    "add_waiver": [({"account_id": "HW3016", "hire_id": "HR5016", "waiver_pence": 440},
                    "already has")],
    "arrange_delivery": [
        ({"account_id": "HW3013", "hire_id": "HR5013", "fee_pence": 3500}, "beyond the 15-mile"),
        ({"account_id": "HW3016", "hire_id": "HR5016", "fee_pence": 2500}, "already has"),
        ({"account_id": "HW3019", "hire_id": "HR5019", "fee_pence": 1500}, "has started"),
    ],
    "record_late_return": [
        ({"account_id": "HW3019", "hire_id": "HR5019", "return_day": "2026-12-12",
          "late_fee_pence": 0}, "isn't overdue"),
        ({"account_id": "HW3018", "hire_id": "HR5018", "return_day": "2026-12-08",
          "late_fee_pence": 0}, "today or later"),
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", list(REFUSALS))
def test_each_tool_refuses_what_cannot_be_and_changes_nothing(name):
    env = make_environment()
    before = env.snapshot()
    for args, error in REFUSALS[name]:
        outcome = tool(env, name, **args)
        assert outcome.error and error in outcome.error, (args, outcome)
    assert env.snapshot() == before


def test_what_the_system_leaves_to_the_desk():
    env = make_environment()
    # any hire is read out, whoever asks; a started hire takes the waiver; prices are as told
    assert tool(env, "get_hire", hire_id="HR5017").result["hirer"] == "Grace Holt"
    late = tool(env, "add_waiver", account_id="HW3022", hire_id="HR5022", waiver_pence=1)
    assert late.error is None
    booked = tool(env, "book_hire", account_id="HW3005", item_codes=["TWR"],
                  first_day="2026-12-14", last_day="2026-12-16", hire_pence=1,
                  deposit_pence=1).result  # fmt: skip
    assert booked["hire"] == "£0.01"
    assert [r["unit_id"] for r in env.select("hire_lines", {"hire_id": booked["hire_id"]})] == [
        "TWR-2"
    ]


def test_free_units_and_extensions_follow_each_unit():
    env = make_environment()
    free = tool(env, "check_availability", item_code="MIX", first_day="2026-12-10",
                last_day="2026-12-11").result  # fmt: skip
    assert free["units_free"] == 1 and free["day_pence"] == 2400
    tool(env, "extend_hire", account_id="HW3007", hire_id="HR5007", last_day="2026-12-18",
         extra_pence=3200)  # fmt: skip
    assert row(env, "hires", hire_id="HR5007")["hire_pence"] == 14400
    assert charges(env, "HW3007", "extension") == [3200]


# -- the scenarios and the reader --------------------------------------------------------------
def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = sorted(t for s in scenarios for t in s.tags if t.startswith("flaw:"))
    assert tagged == [f"flaw:F{n}" for n in range(1, 9)]


def test_reading_days_and_spans():
    corrected = rd.dates("to Thursday 17 December — sorry, Wednesday 16 December", TODAY)
    assert [d.isoformat() for d in corrected] == ["2026-12-17", "2026-12-16"]
    assert rd.dates("4 January", TODAY) == [date(2027, 1, 4)]
    assert rd.dates("bringing it back today, or tomorrow", TODAY) == [TODAY, date(2026, 12, 10)]
    assert rd.span("for a week from Monday 14 December", TODAY) == (
        date(2026, 12, 14), date(2026, 12, 20))  # fmt: skip
    assert rd.span("this weekend, Saturday 12 December", TODAY) == (
        date(2026, 12, 12), date(2026, 12, 13))  # fmt: skip
    assert rd.span("from 14 December", TODAY) is None


def test_reading_items_extras_and_names():
    assert rd.items("a tile cutter and a scaffold tower") == ["TWR", "TIL"]
    assert rd.items("the hedge cutter") == ["HDG"] and rd.items("a disc cutter") == ["CUT"]
    assert rd.wants_delivery("delivered and collected please")
    assert not rd.wants_delivery("no delivery, we'll pick it up")
    assert rd.wants_waiver("with the damage waiver") and not rd.wants_waiver("no waiver thanks")
    assert rd.surname_said("Hi, this is Chloe Dunn, account HW3003") == "Dunn"
    assert rd.surname_answer("It's Kemp.") == "Kemp" and rd.surname_answer("kemp") == "kemp"
    assert rd.accounts("hw 3009") == ["HW3009"] and rd.hires("hire HR-5017") == ["HR5017"]


def test_reading_requests():
    def intents(text):
        return [r.intent for r in rd.requests(text)]

    two = ("Extend my dehumidifier hire to Friday 18 December, and arrange delivery for the "
           "carpet cleaner I've booked for Monday.")  # fmt: skip
    assert intents(two) == ["extend", "delivery"]
    assert intents("Book the rotavator for 15 December to 17 December, delivered please") == [
        "book"]  # fmt: skip
    assert intents("Book a stripper for Monday 14 December, with the damage waiver") == ["book"]
    assert intents("I'm still using the hedge trimmer. What will I owe?") == ["extend"]
    assert intents("Is there a carpet cleaner free, and how much would it be?") == ["quote"]
    assert intents("When is my tile cutter due back, and how much deposit?") == ["lookup"]
    assert intents("I've finished with the mixer early — I'm bringing it back today.") == ["early"]
    assert intents("Cancel the pressure washer booked for Monday") == ["cancel"]


def test_reading_answers():
    assert rd.answer("yes please") == "yes" and rd.answer("go ahead") == "yes"
    assert rd.answer("hang on a moment") == "hedge" and rd.answer("I'd rather not") == "no"
    assert rd.answer("no problem, go ahead") == "yes" and rd.answer("what's the deposit?") is None


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectToolHireAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_up_front_and_a_hedge_before_the_yes():
    env, replies, _ = chat(CorrectToolHireAgent, [
        "Hi, this is Chloe Dunn, account HW3003. I've finished with the mixer, bringing it back "
        "today.", "hang on", "go ahead"])  # fmt: skip
    assert "£48.00" in replies[0].text and called(replies[:2], "return_early") == []
    assert charges(env, "HW3003", "refund") == [4800]


def test_dates_asked_for_and_reworked_in_the_proposal():
    env, replies, _ = chat(CorrectToolHireAgent, [
        "I'd like to hire a generator", "HW 3009", "It's Kemp.", "from 14 December to "
        "15 December", "no, make it 15 December to 16 December", "yes"])  # fmt: skip
    assert "Which day" in replies[2].text and "Wednesday 16 December" in replies[4].text
    assert row(env, "hires", account_id="HW3009")["first_day"] == "2026-12-15"


def test_a_question_about_the_proposal_is_not_a_yes_and_no_changes_nothing():
    env, replies, _ = chat(CorrectToolHireAgent, ["Cancel my carpet cleaner hire",
                                                  *WHO["HW3016"], "Do I get the delivery fee "
                                                  "back?", "no thanks"])  # fmt: skip
    assert "£25.00 delivery" in replies[3].text and called(replies, "cancel_hire") == []
    assert row(env, "hires", hire_id="HR5016")["status"] == "booked"


def test_a_quote_then_book_it():
    env, replies, _ = chat(CorrectToolHireAgent, [
        "Is a scaffold tower available from 14 December to 16 December?", *WHO["HW3005"],
        "Yes please book it", "yes"])  # fmt: skip
    assert "I haven't booked anything" in replies[2].text and "harness" in replies[3].text
    codes = [r["item_code"] for r in env.select("hire_lines", {"account_id": "HW3005"})]
    assert codes == ["TWR", "HRN"]


def test_an_overdue_hire_is_not_extended_and_a_closed_day_is_refused():
    _, replies, _ = chat(CorrectToolHireAgent, ["Can I keep the hedge trimmer longer?",
                                                *WHO["HW3018"]])  # fmt: skip
    assert "overdue" in replies[-1].text and "Which day" in replies[-1].text
    env, replies, _ = chat(CorrectToolHireAgent, ["Book a pressure washer from 24 December to "
                                                  "25 December", *WHO["HW3002"]])  # fmt: skip
    assert "closed" in replies[-1].text and env.select("hires", {"account_id": "HW3002"}) == []


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectToolHireAgent, ["When is my tile cutter due back?", "HW3019",
                                                "Smith", "HW3019", "Smith", "HW3019",
                                                "Smith", "HW3019", "Upton"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[6].text
    assert "Friday 11 December" not in said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
WEEKEND = "Book a pressure washer from Saturday 12 December to Sunday 13 December"
TRADE = "Book a breaker from 10 December to 11 December, delivered please"
TWO = "Extend my dehumidifier to 18 December, and arrange delivery for the carpet cleaner"
FLAWS = [
    ("F1", ["Add the damage waiver to my disc cutter hire", *WHO["HW3001"], "yes"]),
    ("F2", [WEEKEND, *WHO["HW3002"], "yes"]),
    ("F3", ["I'm bringing the cement mixer back early, today", *WHO["HW3003"], "yes"]),
    ("F4", ["When is hire HR5017 due back?", *WHO["HW3004"]]),
    ("F5", ["Book a scaffold tower from 14 December to 16 December", *WHO["HW3005"], "yes"]),
    ("F6", [TRADE, *WHO["HW3006"], "yes"]),
    ("F7", [TWO, *WHO["HW3007"], "yes", "yes"]),
    ("F8", ["Please extend my floor sander to Saturday 12 December", *WHO["HW3008"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedToolHireAgent, messages)
    assert f"toolhire:{flaw}" in fired
    _, _, clean = chat(CorrectToolHireAgent, messages)
    assert clean == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if not s.tags], ids=lambda s: s.id)
def test_flawed_agent_passes_the_untagged_scenarios_untouched(scenario):
    env, replies, fired = play_scenario(FlawedToolHireAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize("scenario", [s for s in SCENARIO_LIST if s.tags], ids=lambda s: s.id)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedToolHireAgent, scenario)
    flaw = scenario.tags[0].removeprefix("flaw:")
    assert set(fired) == {f"toolhire:{flaw}"}
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedToolHireAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "add_waiver") == []
    env, _, _ = chat(FlawedToolHireAgent, FLAWS[1][1])
    assert row(env, "hires", account_id="HW3002")["hire_pence"] == 5200
    env, _, _ = chat(FlawedToolHireAgent, FLAWS[2][1])
    assert charges(env, "HW3003", "refund") == [7200]
    _, replies, _ = chat(FlawedToolHireAgent, FLAWS[3][1])
    assert "Grace Holt" in said(replies) and called(replies, "get_hire")
    env, _, _ = chat(FlawedToolHireAgent, FLAWS[4][1])
    assert [r["item_code"] for r in env.select("hire_lines", {"account_id": "HW3005"})] == ["TWR"]
    env, _, _ = chat(FlawedToolHireAgent, FLAWS[5][1])
    assert row(env, "hires", account_id="HW3006")["delivery_fee_pence"] == 2125
    env, replies, _ = chat(FlawedToolHireAgent, FLAWS[6][1])
    assert row(env, "hires", hire_id="HR5008")["delivery_fee_pence"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedToolHireAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "hires", hire_id="HR5009")["last_day"] == (
        "2026-12-10"
    )
