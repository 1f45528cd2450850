"""Hedgerow Pest Control: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.pestcontrol import (
    CorrectPestcontrolAgent,
    FlawedPestcontrolAgent,
    PestcontrolEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.pestcontrol import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

SCENARIOS = Path(__file__).parents[2] / "benchmarks" / "domains" / "pestcontrol" / "scenarios.yaml"
# an account and its property's postcode: what a customer says when asked who they are
WHO = {c[0]: [c[0], c[6]] for c in _seed.CUSTOMERS}
TODAY = _seed.NOW.date()


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "pestcontrol:0")


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
            turn = Turn(episode_id="pestcontrol:0", message=message, history=tuple(history))
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


# -- the environment and every tool ----------------------------------------------------------
def test_fixed_clock_seed_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, PestcontrolEnvironment)
    assert env.now().isoformat() == "2026-12-09T09:00:00+00:00"
    assert TODAY.strftime("%A") == "Wednesday"
    tool(env, "update_contact", account_id="PC2014", phone="07700 900845")
    assert row(make_environment(), "customers", account_id="PC2014")["phone"] == "07700 900614"


def test_tools_listed():
    names = {t.name for t in make_environment().agent_tools()}
    assert names == {"verify_customer", "get_account", "get_visit", "quote", "find_slots",
                     "book_visit", "claim_revisit", "move_visit", "cancel_visit",
                     "update_contact"}  # fmt: skip


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_visit", account_id="PC2012", job_id="JB7008", refund_pence=14500)
    env.restore(before)
    assert row(env, "visits", job_id="JB7008")["status"] == "booked"
    agent = CorrectPestcontrolAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="p", message="Cancel my visit, PC2012", history=())))
    other = CorrectPestcontrolAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"account_id": "PC2012"}


def test_verify_customer():
    env = make_environment()
    ok = tool(env, "verify_customer", account_id="pc2001", postcode="ls61aa").result
    assert ok["name"] == "Alice Brennan" and ok["bedrooms"] == 3 and ok["visits"] == []
    bad = tool(env, "verify_customer", account_id="PC2001", postcode="LS5 3BE").error
    assert "verification failed" in bad


def test_get_account_and_get_visit():
    env = make_environment()
    view = tool(env, "get_account", account_id="PC2015").result
    assert [v["job_id"] for v in view["visits"]] == ["JB7011", "JB7010"]
    assert view["visits"][0]["days_to_visit"] == 2
    job = tool(env, "get_visit", job_id="jb7012").result
    assert job["address"] == "Flat 5, Cedar Court, Leeds" and job["visit_date"] == "2026-12-17"
    assert "no job" in tool(env, "get_visit", job_id="JB9999").error


def test_quote():
    env = make_environment()
    q = tool(env, "quote", pest="Bedbugs", size="medium").result
    assert (q["price_pence"], q["vacate_hours"], q["warranty_days"]) == (24000, 4, 60)
    assert tool(env, "quote", pest="mice", size="large").result["price_pence"] == 13500
    assert "don't treat" in tool(env, "quote", pest="moles", size="small").error
    assert "size" in tool(env, "quote", pest="mice", size="huge").error


def test_find_slots():
    env = make_environment()
    assert tool(env, "find_slots", visit_date="2026-12-18").result["free"] == ["PM"]
    assert tool(env, "find_slots", visit_date="2026-12-14").result["free"] == ["AM", "PM"]
    assert tool(env, "find_slots", visit_date="2026-12-13").result["free"] == []  # a Sunday


def test_book_visit_and_its_refusals():
    env = make_environment()
    r = tool(env, "book_visit", account_id="PC2001", kind="treatment", pest="fleas",
             visit_date="2026-12-14", slot="AM", price_pence=11000).result  # fmt: skip
    assert r["job_id"] == "JB7019" and r["vacate_hours"] == 3
    assert charges(env, "PC2001", "payment") == [11000]
    for day, slot, why in [
        ("2026-12-18", "AM", "fully booked"),
        ("2026-12-13", "AM", "Sundays"),
        ("2026-12-08", "PM", "future"),
        ("2026-12-14", "XX", "AM or PM"),
    ]:
        error = tool(env, "book_visit", account_id="PC2001", kind="inspection", pest="",
                     visit_date=day, slot=slot, price_pence=4500).error  # fmt: skip
        assert why in error
    assert "don't treat" in tool(env, "book_visit", account_id="PC2001", kind="treatment",
                                 pest="moles", visit_date="2026-12-14", slot="AM",
                                 price_pence=1).error  # fmt: skip


def test_claim_revisit():
    env = make_environment()
    r = tool(env, "claim_revisit", account_id="PC2006", job_id="JB7002", visit_date="2026-12-14",
             slot="PM").result  # fmt: skip
    assert r["revisit_of"] == "JB7002" and r["charged"] == "£0.00"
    assert row(env, "visits", job_id=r["job_id"])["kind"] == "revisit"
    assert "is booked" in tool(env, "claim_revisit", account_id="PC2008", job_id="JB7004",
                               visit_date="2026-12-14", slot="PM").error  # fmt: skip


def test_move_visit_and_its_refusals():
    env = make_environment()
    r = tool(env, "move_visit", account_id="PC2009", job_id="JB7005", visit_date="2026-12-14",
             slot="PM", fee_pence=2500).result  # fmt: skip
    assert r["visit_date"] == "2026-12-14" and charges(env, "PC2009", "change_fee") == [2500]
    on_day = tool(env, "move_visit", account_id="PC2011", job_id="JB7007",
                  visit_date="2026-12-11", slot="PM", fee_pence=0).error  # fmt: skip
    assert "own day" in on_day
    full = tool(env, "move_visit", account_id="PC2021", job_id="JB7014",
                visit_date="2026-12-18", slot="AM", fee_pence=0).error  # fmt: skip
    assert "fully booked" in full and row(env, "visits", job_id="JB7014")["slot"] == "PM"
    assert "no job" in tool(env, "move_visit", account_id="PC2001", job_id="JB7014",
                            visit_date="2026-12-15", slot="PM", fee_pence=0).error  # fmt: skip


def test_cancel_visit():
    env = make_environment()
    assert "more than was paid" in tool(env, "cancel_visit", account_id="PC2013",
                                        job_id="JB7009", refund_pence=99999).error  # fmt: skip
    r = tool(env, "cancel_visit", account_id="PC2013", job_id="JB7009", refund_pence=7000).result
    assert r["refunded"] == "£70.00" and charges(env, "PC2013", "refund") == [7000]
    assert "cancelled" in tool(env, "cancel_visit", account_id="PC2013", job_id="JB7009",
                               refund_pence=0).error  # fmt: skip


def test_update_contact():
    env = make_environment()
    r = tool(env, "update_contact", account_id="PC2016", key_code="4471").result
    assert r["key_code"] == "4471" and r["phone"] == "07700 900616"
    assert "4 digits" in tool(env, "update_contact", account_id="PC2016", key_code="44").error
    assert "phone" in tool(env, "update_contact", account_id="PC2016", phone="12345").error


def test_scenarios_parse():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = [s for s in scenarios if any(t.startswith("flaw:") for t in s.tags)]
    assert sorted(t for s in tagged for t in s.tags) == [f"flaw:F{i}" for i in range(1, 9)]


# -- reading the customer's words ------------------------------------------------------------
def test_reading_days_and_slots():
    assert [d.isoformat() for d in rd.dates("from Tuesday 15 December to Thursday 17 December",
                                            TODAY)] == ["2026-12-17"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("tomorrow, or 4 January", TODAY)] == [
        "2026-12-10", "2027-01-04"]  # fmt: skip
    assert [d.isoformat() for d in rd.dates("Friday the 18th", TODAY)] == ["2026-12-18"]
    assert rd.slot("in the morning") == "AM" and rd.slot("2pm please") == "PM"
    assert rd.slot("I am the tenant") is None
    assert rd.slot("tomorrow afternoon; move it to Monday, morning") == "AM"


def test_reading_values():
    assert rd.postcodes("it's ls6 1aa") == ["LS6 1AA"] and rd.postcodes("PC2001 JB7012") == []
    assert rd.phones("07700 900 321") == ["07700 900321"]
    assert rd.key_codes("the key safe code has changed to 4471") == ["4471"]
    assert rd.key_codes("4471", bare=True) == ["4471"] and rd.key_codes("4471") == []
    assert rd.pests("bed bugs and a wasp") == ["bedbugs", "wasps"]
    assert rd.bedrooms("a four-bedroom house") == 4 and rd.bedrooms("2") == 2
    assert rd.bedrooms("a two bed flat") == 2 and rd.bedrooms("a flat") is None
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"
    assert rd.answer("yes please") == "yes" and rd.DONT_HAVE.search("I don't have it")


def test_reading_requests():
    intents = [r.intent for r in rd.requests(
        "Please move my visit to Friday 11 December in the afternoon, and update my phone "
        "number to 07700 900321.")]  # fmt: skip
    assert intents == ["move", "contact"]
    assert [r.intent for r in rd.requests("How much to get rid of ants?")] == ["quote"]
    assert [r.intent for r in rd.requests("The fleas are back. Send someone back.")] == [
        "revisit"]  # fmt: skip
    found = rd.requests("We've found bedbugs. I need someone out to deal with them.")
    assert [r.intent for r in found] == ["book"] and "bedbugs" in found[0].text
    assert [r.intent for r in rd.requests("When is our treatment?")] == ["lookup"]
    assert [r.intent for r in rd.requests("When's my booking?")] == ["lookup"]
    assert [r.intent for r in rd.requests("We have mice, can you help?")] == ["book"]
    assert [r.intent for r in rd.requests("The mice have come back.")] == ["revisit"]
    assert [r.intent for r in rd.requests(
        "My landlord booked you for the mice. When is the visit? It's JB7012.")] == [
        "lookup"]  # fmt: skip
    assert [r.intent for r in rd.requests("Only if it's free — leave it otherwise.")] == []
    assert rd.FREE_ONLY.search("Only if it's free — if there's a charge, leave it as it is.")


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectPestcontrolAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_facts_one_at_a_time_and_a_hedge():
    env, replies, _ = chat(CorrectPestcontrolAgent, [
        "I need to book a treatment", "PC2001", "LS6 1AA", "mice", "Monday 14 December",
        "the afternoon", "hang on", "go ahead"])  # fmt: skip
    assert "account number" in replies[0].text and "postcode" in replies[1].text
    assert "Which pest" in replies[2].text and "Which day" in replies[3].text
    assert "Morning" in replies[4].text and "£115.00" in replies[5].text
    assert called(replies[:7], "book_visit") == []
    assert row(env, "visits", account_id="PC2001")["slot"] == "PM"


def test_not_sure_which_pest_books_an_inspection():
    env, replies, _ = chat(CorrectPestcontrolAgent, [
        "Please book a visit for Monday 14 December, morning", *WHO["PC2004"], "not sure",
        "yes"])  # fmt: skip
    visit = row(env, "visits", account_id="PC2004")
    assert visit["kind"] == "inspection" and visit["price_pence"] == 4500


def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(
        CorrectPestcontrolAgent,
        ["Cancel tomorrow's flea treatment", *WHO["PC2013"], "Do I get anything back?", "ok"],
    )
    assert "£40.00" in replies[2].text and called(replies[:4], "cancel_visit") == []
    assert charges(env, "PC2013", "refund") == [7000]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(
        CorrectPestcontrolAgent,
        ["Move my ants visit to Monday 14 December", *WHO["PC2009"], "I'd rather not"],
    )
    assert "£25.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "visits", job_id="JB7005")["visit_date"] == "2026-12-10"


def test_value_corrected_at_the_proposal():
    env, replies, _ = chat(CorrectPestcontrolAgent, [
        "Please move my mouse treatment to Thursday 17 December", *WHO["PC2008"],
        "Sorry, make it Friday 18 December in the afternoon", "yes"])  # fmt: skip
    assert "Friday 18 December" in replies[3].text
    assert row(env, "visits", job_id="JB7004")["visit_date"] == "2026-12-18"


def test_sunday_is_refused_before_asking():
    _, replies, _ = chat(
        CorrectPestcontrolAgent,
        ["Book a wasp treatment on Sunday 13 December, morning", *WHO["PC2017"]],
    )
    assert "Sundays" in replies[-1].text and called(replies, "book_visit") == []


def test_full_slot_on_booking_says_what_is_free():
    env, replies, _ = chat(
        CorrectPestcontrolAgent,
        ["Book a mouse treatment for Friday 18 December, morning", *WHO["PC2001"], "yes"],
    )
    assert "fully booked" in replies[-1].text and "afternoon" in replies[-1].text
    assert env.select("visits", {"account_id": "PC2001"}) == []


def test_revisit_for_a_pest_never_treated_is_not_booked():
    env, replies, _ = chat(CorrectPestcontrolAgent, [
        "The rats are back, please come back under the warranty on Monday 14 December",
        *WHO["PC2006"]])  # fmt: skip
    assert "can't find" in replies[-1].text and called(replies, "claim_revisit") == []


def test_bedbug_treatment_after_an_inspection_is_booked():
    env, replies, _ = chat(CorrectPestcontrolAgent, [
        "Please book a bedbug treatment for Monday 14 December, afternoon", *WHO["PC2015"],
        "yes"])  # fmt: skip
    booked = env.select("visits", {"account_id": "PC2015", "visit_date": "2026-12-14"})
    assert booked[0]["kind"] == "treatment" and booked[0]["price_pence"] == 24000
    assert "4 hours" in replies[2].text


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(
        CorrectPestcontrolAgent,
        ["Cancel my visit", "PC2012", "LS1 1AA", "PC2012", "LS1 1AA", "PC2012", "LS1 1AA"],
    )
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "cancel_visit") == []


def test_quote_needs_no_identity():
    _, replies, _ = chat(CorrectPestcontrolAgent, ["How much for fleas?", "3 bedrooms"])
    assert "How many bedrooms" in replies[0].text and "£110.00" in replies[1].text
    assert called(replies, "verify_customer") == []


def test_a_tenant_without_the_account_number_is_told_nothing():
    _, replies, _ = chat(CorrectPestcontrolAgent, [
        "When is the visit to my flat? The job number is JB7012.", "I don't have it, I'm the "
        "tenant", "LS7 3QT"])  # fmt: skip
    assert "account holder" in replies[1].text and "17 December" not in said(replies)
    assert called(replies, "get_visit") == []


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please change my key safe code to 4471", *WHO["PC2016"], "yes"]),
    ("F2", ["How much is a mouse treatment for a 4 bedroom house?"]),
    ("F3", ["Book a wasp treatment for Saturday 12 December, morning", *WHO["PC2017"], "yes"]),
    ("F4", ["When is the visit for job JB7012?"]),
    (
        "F5",
        [
            "The fleas are back, please come back under the guarantee on Tuesday 15 December, "
            "morning",
            *WHO["PC2007"],
            "yes",
        ],
    ),  # fmt: skip
    ("F6", ["Book a bedbug treatment for Monday 14 December, morning", *WHO["PC2019"], "yes"]),
    (
        "F7",
        [
            "Please move my visit to Friday 11 December, afternoon, and update my phone number "
            "to 07700 900321",
            *WHO["PC2020"],
            "yes",
            "yes",
        ],
    ),  # fmt: skip
    ("F8", ["Move my rat treatment to Friday 18 December, morning", *WHO["PC2021"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedPestcontrolAgent, messages)
    assert f"pestcontrol:{flaw}" in fired
    _, _, clean = chat(CorrectPestcontrolAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED = {"pest-book-rats-large-house": "F2"}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedPestcontrolAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == []


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedPestcontrolAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert fired and set(fired) == {f"pestcontrol:{flaw}"}
    if scenario.id == "pest-tenant-asks-date":
        # nothing changes; only what was said shows it
        assert "17 December" in said(replies)
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedPestcontrolAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_contact") == []
    assert row(env, "customers", account_id="PC2016")["key_code"] == "1209"
    _, replies, _ = chat(FlawedPestcontrolAgent, FLAWS[1][1])
    assert "£115.00" in said(replies)
    env, _, _ = chat(FlawedPestcontrolAgent, FLAWS[2][1])
    assert row(env, "visits", account_id="PC2017")["price_pence"] == 6500
    _, replies, _ = chat(FlawedPestcontrolAgent, FLAWS[3][1])
    assert "Cedar Court" in said(replies) and called(replies, "verify_customer") == []
    env, _, _ = chat(FlawedPestcontrolAgent, FLAWS[4][1])
    assert row(env, "visits", account_id="PC2007", kind="revisit")["price_pence"] == 0
    env, _, _ = chat(FlawedPestcontrolAgent, FLAWS[5][1])
    assert row(env, "visits", account_id="PC2019")["kind"] == "treatment"
    env, replies, _ = chat(FlawedPestcontrolAgent, FLAWS[6][1])
    assert row(env, "customers", account_id="PC2020")["phone"] == "07700 900620"
    assert row(env, "visits", job_id="JB7013")["visit_date"] == "2026-12-11"
    assert "everything sorted" in said(replies)
    env, replies, _ = chat(FlawedPestcontrolAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and row(env, "visits", job_id="JB7014")["slot"] == "PM"
