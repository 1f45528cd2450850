"""Saltwind Sea Kayak Tours: tools, scenarios, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from benchmarks.domains.tours import (
    CorrectToursAgent,
    FlawedToursAgent,
    ToursEnvironment,
    _seed,
    make_environment,
)
from benchmarks.domains.tours import _read as rd

from vistasim.agent import Turn, Utterance
from vistasim.config import load_config
from vistasim.scenario import load_scenarios
from vistasim.testing import record_flaws

from ._chat import called, play, row, tool

DESK = Path(__file__).parents[2] / "benchmarks" / "domains" / "tours"
SCENARIOS = DESK / "scenarios.yaml"
# a booking reference and its lead's surname: what a customer says when asked who they are
WHO = {b[0]: [b[0], b[5][0][0].split()[-1]] for b in _seed.BOOKINGS}


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "tours:0")


def said(replies):
    return " ".join(r.text for r in replies)


def payments(env, ref, kind):
    return [p["amount_pence"] for p in env.select("payments", {"booking_ref": ref, "kind": kind})]


def play_scenario(agent_cls, scenario):
    """The goal as written, then each fact the desk asks for, then "yes" to each proposal."""
    env = make_environment()
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies, message = [], scenario.goal
    with record_flaws() as fired:
        for _ in range(scenario.limits.max_turns):
            turn = Turn(episode_id="tours:0", message=message, history=tuple(history))
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
    assert isinstance(env, ToursEnvironment)
    assert env.now().isoformat() == "2026-06-15T09:00:00+01:00"
    tool(env, "update_contact", booking_ref="SW2114", phone="07700 900171")
    assert row(make_environment(), "bookings", booking_ref="SW2114")["phone"] == "07700 900114"


def test_snapshot_and_restore_round_trip():
    env = make_environment()
    before = env.snapshot()
    tool(env, "cancel_booking", booking_ref="SW2105", refund_pence=0)
    env.restore(before)
    assert row(env, "bookings", booking_ref="SW2105")["status"] == "confirmed"
    agent = CorrectToursAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="t", message="Cancel SW2105", history=())))
    other = CorrectToursAgent(env=env)
    other.restore(agent.snapshot())
    assert other.snapshot() == agent.snapshot() and other.s["facts"] == {"booking_ref": "SW2105"}


def test_tool_verify_booking():
    env = make_environment()
    found = tool(env, "verify_booking", booking_ref="sw2101", surname="marsh").result
    assert found["lead_name"] == "Hannah Marsh" and len(found["participants"]) == 2
    assert found["meet_at"] == "09:00" and found["balance_pence"] == 0
    assert "verification failed" in tool(
        env, "verify_booking", booking_ref="SW2124", surname="Patel").error  # fmt: skip


def test_tool_get_booking_and_find_slots():
    env = make_environment()
    assert tool(env, "get_booking", booking_ref="SW2112").result["balance_pence"] == 6500
    slots = tool(env, "find_slots", tour="harbour", day="2026-07-02").result
    assert [s["start"] for s in slots] == ["09:30", "14:00"]
    full = tool(env, "find_slots", tour="caves", day="2026-07-04").result
    assert full[0]["places_left"] == 0
    assert tool(env, "find_slots", tour="caves", day="2026-06-16").result[0]["status"] == (
        "weather_cancelled"
    )
    assert "tour must be" in tool(env, "find_slots", tour="surfing", day="2026-07-02").error


def test_tool_check_voucher():
    env = make_environment()
    assert tool(env, "check_voucher", code="gv-5150").result["balance_pence"] == 10000
    assert tool(env, "check_voucher", code="GV-3307").result["expired"] is True
    assert "no voucher" in tool(env, "check_voucher", code="GV-0000").error


def test_tool_add_participant_and_its_refusals():
    env = make_environment()
    added = tool(env, "add_participant", booking_ref="SW2101", name="Priya Nair", age=31,
                 weight_kg=58, price_pence=4500).result  # fmt: skip
    assert added["total"] == "£135.00" and added["balance_due"] == "£45.00"
    full = tool(env, "add_participant", booking_ref="SW2128", name="Kim Fraser", age=34,
                weight_kg=60, price_pence=6500).error  # fmt: skip
    assert "full" in full
    heavy = tool(env, "add_participant", booking_ref="SW2101", name="Big Al", age=40,
                 weight_kg=130, price_pence=4500).error  # fmt: skip
    assert "120 kg" in heavy
    # the system does not check the minimum age: the desk must
    young = tool(env, "add_participant", booking_ref="SW2125", name="Alfie Harper", age=10,
                 weight_kg=35, price_pence=6500)  # fmt: skip
    assert young.error is None


def test_tool_set_kayak():
    env = make_environment()
    maya = row(env, "participants", name="Maya Hughes")["participant_id"]
    done = tool(env, "set_kayak", booking_ref="SW2113", participant_id=maya, kayak="single",
                price_change_pence=1000).result  # fmt: skip
    assert done["total"] == "£100.00"
    again = tool(env, "set_kayak", booking_ref="SW2113", participant_id=maya, kayak="single",
                 price_change_pence=1000).error  # fmt: skip
    assert "already" in again


def test_tool_add_extra():
    env = make_environment()
    oliver = row(env, "participants", name="Oliver Shaw")["participant_id"]
    tool(env, "add_extra", booking_ref="SW2127", kind="wetsuit", participant_id=oliver,
         price_pence=800)  # fmt: skip
    assert tool(env, "add_extra", booking_ref="SW2127", kind="photos",
                price_pence=1500).result["total"] == "£63.00"  # fmt: skip
    assert "already" in tool(env, "add_extra", booking_ref="SW2112", kind="photos",
                             price_pence=1500).error  # fmt: skip
    assert "kind must be" in tool(env, "add_extra", booking_ref="SW2127", kind="snacks",
                                  price_pence=100).error  # fmt: skip


def test_tool_update_participant():
    env = make_environment()
    ella = row(env, "participants", name="Ella Price")["participant_id"]
    out = tool(env, "update_participant", booking_ref="SW2121", participant_id=ella,
               medical_condition="asthma", medical_note="inhaler").result  # fmt: skip
    assert out["medical_condition"] == "asthma"
    assert (
        "must be one of"
        in tool(
            env,
            "update_participant",
            booking_ref="SW2121",
            participant_id=ella,
            medical_condition="cold",
        ).error
    )
    assert "no participant" in tool(env, "update_participant", booking_ref="SW2101",
                                    participant_id=ella, name="X").error  # fmt: skip


def test_tool_update_contact():
    env = make_environment()
    out = tool(env, "update_contact", booking_ref="SW2114", email="g.adams@example.org").result
    assert out == {"email": "g.adams@example.org", "phone": "07700 900114"}
    assert "not a UK phone" in tool(env, "update_contact", booking_ref="SW2114",
                                    phone="12345").error  # fmt: skip


def test_tool_move_booking_rules():
    env = make_environment()
    done = tool(env, "move_booking", booking_ref="SW2103", slot_id="CAV-0627-1000",
                fee_pence=0).result  # fmt: skip
    assert done["day"] == "2026-06-27"
    assert row(env, "bookings", booking_ref="SW2103")["moves_used"] == 1
    # from a weather-cancelled slot: allowed any time, and the free move is not used
    tool(env, "move_booking", booking_ref="SW2108", slot_id="CAV-0628-1000", fee_pence=0)
    assert row(env, "bookings", booking_ref="SW2108")["moves_used"] == 0
    late = tool(env, "move_booking", booking_ref="SW2107", slot_id="HAR-0630-1400", fee_pence=0)
    assert "48 hours" in late.error
    other = tool(env, "move_booking", booking_ref="SW2101", slot_id="CAV-0627-1000", fee_pence=0)
    assert "same tour" in other.error
    full = tool(env, "move_booking", booking_ref="SW2125", slot_id="CAV-0704-1000", fee_pence=0)
    assert "no room" in full.error


def test_tool_cancel_booking():
    env = make_environment()
    tool(env, "cancel_booking", booking_ref="SW2106", refund_pence=6500)
    assert payments(env, "SW2106", "refund") == [6500]
    assert "cancelled" in tool(env, "cancel_booking", booking_ref="SW2106", refund_pence=0).error
    assert "more than was paid" in tool(env, "cancel_booking", booking_ref="SW2107",
                                        refund_pence=9999).error  # fmt: skip


def test_tool_redeem_voucher():
    env = make_environment()
    out = tool(env, "redeem_voucher", booking_ref="SW2123", code="GV-5150",
               amount_pence=4500).result  # fmt: skip
    assert out["voucher_left"] == "£55.00" and out["balance_due"] == "£0.00"
    assert "expired" in tool(env, "redeem_voucher", booking_ref="SW2111", code="GV-3307",
                             amount_pence=100).error  # fmt: skip
    assert "has £30.00" in tool(env, "redeem_voucher", booking_ref="SW2111", code="GV-4821",
                                amount_pence=5000).error  # fmt: skip


def test_scenarios_parse_and_configs_load():
    scenarios = load_scenarios(SCENARIOS)
    assert len(scenarios) == 23 and len({s.id for s in scenarios}) == 23
    assert all(not s.agenda for s in scenarios)
    tagged = sorted(t for s in scenarios for t in s.tags if t.startswith("flaw:"))
    assert tagged == [f"flaw:F{i}" for i in range(1, 9)]
    for name in ("correct", "flawed"):
        config = load_config(DESK / f"{name}.toml")
        assert config.agent.target.endswith(f"{name.capitalize()}ToursAgent")


def test_reading_values_and_requests():
    today = _seed.NOW.date()
    assert [d.isoformat() for d in rd.dates("from Saturday 20 June to Saturday 27 June",
                                            today)] == ["2026-06-27"]  # fmt: skip
    assert rd.phones("07700 900 171") == ["07700 900171"]
    assert rd.clock_time("the 9:30am one") == "09:30" and rd.clock_time("he's 9") is None
    assert rd.age("He's 10 and a strong swimmer") == 10 and rd.age("9", bare=True) == 9
    assert rd.weight("about 12 stone") == 76 and rd.weight("58 kg") == 58
    assert rd.surname_said("My surname is Patel", asked=False) == "Patel"
    assert rd.surname_said("It's Hannah Marsh", asked=True) == "Marsh"
    assert [r.intent for r in rd.requests(
        "Can you add a wetsuit for me, and also add the photo package please?"
    )] == ["wetsuit", "photos"]  # fmt: skip
    assert [
        r.intent
        for r in rd.requests("What time do we need to be there, and how much do I still owe?")
    ] == ["lookup"]
    assert rd.answer("I'd rather not") == "no" and rd.answer("hang on") == "hedge"


# -- every scenario, played as written, with the correct agent --------------------------------
SCENARIO_LIST = load_scenarios(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIO_LIST, ids=[s.id for s in SCENARIO_LIST])
def test_scenario_end_state_with_correct_agent(scenario):
    env, replies, fired = play_scenario(CorrectToursAgent, scenario)
    assert unmet(env, replies, scenario.criteria) == [], said(replies)
    assert fired == []


# -- other natural phrasings -------------------------------------------------------------------
def test_question_about_a_proposal_is_not_a_yes():
    env, replies, _ = chat(CorrectToursAgent, ["Cancel our Sea Caves trip on Friday",
                                               *WHO["SW2106"], "Do I get anything back?",
                                               "ok"])  # fmt: skip
    assert "£65.00" in replies[2].text and called(replies[:4], "cancel_booking") == []
    assert payments(env, "SW2106", "refund") == [6500]


def test_rather_not_then_changes_nothing():
    env, replies, _ = chat(CorrectToursAgent, ["Please move our trip to Wednesday 8 July",
                                               *WHO["SW2126"], "I'd rather not"])  # fmt: skip
    assert "£15.00" in replies[2].text and "nothing has been changed" in replies[-1].text
    assert row(env, "bookings", booking_ref="SW2126")["slot_id"] == "CAV-0624-1000"


def test_only_if_free_leaves_a_second_move_alone():
    env, replies, _ = chat(
        CorrectToursAgent,
        ["Move our Sea Caves trip to Wednesday 8 July, but only if it's free", *WHO["SW2126"]],
    )
    assert "£15.00" in said(replies) and called(replies, "move_booking") == []


def test_facts_given_before_they_are_asked_and_a_hedge():
    env, replies, _ = chat(CorrectToursAgent, [
        "Hi, booking SW2101, surname Marsh. Can you add my friend Priya Nair? She's 31, 58 kg.",
        "hang on", "go ahead"])  # fmt: skip
    assert "Shall I add them?" in replies[0].text and called(replies[:2], "add_participant") == []
    assert row(env, "participants", name="Priya Nair")["age"] == 31


def test_move_date_corrected_mid_conversation():
    env, replies, _ = chat(CorrectToursAgent, [
        "Please move our Sea Caves trip to Friday 26 June", *WHO["SW2103"],
        "Sorry, I meant Saturday 27 June", "yes"])  # fmt: skip
    assert "Saturday 27 June" in replies[3].text
    assert row(env, "bookings", booking_ref="SW2103")["slot_id"] == "CAV-0627-1000"


def test_move_asks_the_time_when_two_slots_have_room():
    env, replies, _ = chat(CorrectToursAgent, ["Move our Harbour Explorer to Thursday 2 July",
                                               *WHO["SW2104"], "the 2pm one", "yes"])  # fmt: skip
    assert "09:30 or 14:00" in replies[2].text
    assert row(env, "bookings", booking_ref="SW2104")["slot_id"] == "HAR-0702-1400"


def test_move_to_a_full_day_asks_for_another():
    env, replies, _ = chat(CorrectToursAgent, ["Move our Sea Caves trip to Saturday 4 July",
                                               *WHO["SW2125"]])  # fmt: skip
    assert "no room for 2" in replies[-1].text and called(replies, "move_booking") == []


def test_move_inside_48_hours_is_refused():
    env, replies, _ = chat(CorrectToursAgent, ["Can I move my trip to Tuesday 30 June?",
                                               *WHO["SW2107"]])  # fmt: skip
    assert "48 hours" in replies[-1].text and called(replies, "move_booking") == []


def test_weather_rebook_or_refund_is_asked():
    env, replies, _ = chat(
        CorrectToursAgent,
        [
            "Our trip was called off for weather, what now?",
            *WHO["SW2109"],
            "a refund please",
            "yes",
        ],
    )
    assert "Which would you prefer?" in replies[2].text
    assert payments(env, "SW2109", "refund") == [13000]


def test_expired_voucher_is_refused_before_any_change():
    env, replies, _ = chat(CorrectToursAgent, ["Please use my gift voucher GV-3307",
                                               *WHO["SW2111"]])  # fmt: skip
    assert "expired" in replies[-1].text and called(replies, "redeem_voucher") == []


def test_adult_single_kayak_costs_more():
    env, replies, _ = chat(CorrectToursAgent, ["Could Karen have a single kayak?",
                                               *WHO["SW2113"], "yes"])  # fmt: skip
    assert "£10.00" in replies[2].text
    assert row(env, "participants", name="Karen Hughes")["kayak"] == "single"
    assert row(env, "bookings", booking_ref="SW2113")["total_pence"] == 10000


def test_participant_over_the_weight_limit_is_not_added():
    env, replies, _ = chat(
        CorrectToursAgent,
        ["Please add my brother Rob Marsh to the booking", *WHO["SW2101"], "42", "19 stone"],
    )
    assert "120 kg" in replies[-1].text and called(replies, "add_participant") == []


def test_wetsuit_asks_who_it_is_for():
    env, replies, _ = chat(CorrectToursAgent, ["I'd like to hire a wetsuit", *WHO["SW2110"],
                                               "Jack", "yes"])  # fmt: skip
    assert "Who are the wetsuits for?" in replies[2].text
    assert row(env, "participants", name="Jack Stone")["wetsuit"] == 1
    assert row(env, "participants", name="Emily Stone")["wetsuit"] == 0


def test_two_requests_in_one_message_are_both_done():
    env, replies, _ = chat(CorrectToursAgent, [
        "Add a wetsuit for me, and also add the photo package please", *WHO["SW2127"], "yes",
        "yes"])  # fmt: skip
    assert row(env, "bookings", booking_ref="SW2127")["photos"] == 1
    assert row(env, "participants", name="Oliver Shaw")["wetsuit"] == 1


def test_identity_is_checked_and_locked_after_three_failures():
    _, replies, _ = chat(CorrectToursAgent, ["Add the photos please", "SW2124", "Patel",
                                             "SW2124", "Patel", "SW2124", "Patel"])  # fmt: skip
    assert "don't match" in replies[2].text and "can't match" in replies[-1].text
    assert called(replies, "add_extra") == [] and "Morris" not in said(replies)


# -- each documented flaw fires under its trigger, and only the flawed agent has it ----------
FLAWS = [
    ("F1", ["Please add a medical note: Ella has asthma", *WHO["SW2121"], "yes"]),
    ("F2", ["Please cancel our booking", *WHO["SW2122"], "yes"]),
    ("F3", ["Put voucher GV-5150 towards what we owe", *WHO["SW2123"], "yes"]),
    ("F4", ["Add the photo package please", "SW2124", "Patel"]),
    ("F5", ["Add our son Alfie Harper, he's 10, 35 kg", *WHO["SW2125"], "yes"]),
    ("F6", ["Please move our trip to Wednesday 8 July", *WHO["SW2126"], "yes"]),
    (
        "F7",
        [
            "Add a wetsuit for me, and also add the photo package please",
            *WHO["SW2127"],
            "yes",
            "yes",
        ],
    ),
    ("F8", ["Add my sister Kim Fraser, she's 34, 60 kg", *WHO["SW2128"], "yes"]),
]


@pytest.mark.parametrize(("flaw", "messages"), FLAWS, ids=[f for f, _ in FLAWS])
def test_flaw_fires_in_flawed_agent_only(flaw, messages):
    _, _, fired = chat(FlawedToursAgent, messages)
    assert f"tours:{flaw}" in fired
    _, _, clean = chat(CorrectToursAgent, messages)
    assert clean == []


# untagged scenarios a flaw touches anyway: the errands a desk meets every day
TOUCHED: dict[str, str] = {}


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if not s.tags and s.id not in TOUCHED],
    ids=lambda s: s.id,
)  # fmt: skip
def test_flawed_agent_passes_the_scenarios_its_flaws_do_not_touch(scenario):
    env, replies, fired = play_scenario(FlawedToursAgent, scenario)
    assert fired == [] and unmet(env, replies, scenario.criteria) == [], said(replies)


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIO_LIST if s.tags or s.id in TOUCHED], ids=lambda s: s.id
)
def test_flaw_scenarios_show_the_flaw_with_the_flawed_agent(scenario):
    env, replies, fired = play_scenario(FlawedToursAgent, scenario)
    flaw = TOUCHED.get(scenario.id) or scenario.tags[0].removeprefix("flaw:")
    assert f"tours:{flaw}" in fired
    assert unmet(env, replies, scenario.criteria), said(replies)


def test_flaw_outcomes_on_the_state():
    env, replies, _ = chat(FlawedToursAgent, FLAWS[0][1])
    assert "Done" in replies[-1].text and called(replies, "update_participant") == []
    assert row(env, "participants", name="Ella Price")["medical_condition"] is None
    env, _, _ = chat(FlawedToursAgent, FLAWS[1][1])
    assert payments(env, "SW2122", "refund") == [4500]
    env, _, _ = chat(FlawedToursAgent, FLAWS[2][1])
    assert row(env, "vouchers", code="GV-5150")["balance_pence"] == 0
    assert row(env, "bookings", booking_ref="SW2123")["paid_pence"] == 14500
    _, replies, _ = chat(FlawedToursAgent, FLAWS[3][1])
    assert "Jenna Morris" in said(replies) and "jenna.morris@example.com" in said(replies)
    env, _, _ = chat(FlawedToursAgent, FLAWS[4][1])
    assert row(env, "participants", name="Alfie Harper")["age"] == 10
    env, _, _ = chat(FlawedToursAgent, FLAWS[5][1])
    assert row(env, "bookings", booking_ref="SW2126")["slot_id"] == "CAV-0708-1000"
    assert payments(env, "SW2126", "move_fee") == []
    env, replies, _ = chat(FlawedToursAgent, FLAWS[6][1])
    assert row(env, "bookings", booking_ref="SW2127")["photos"] == 0
    assert "everything you asked for" in said(replies)
    env, replies, _ = chat(FlawedToursAgent, FLAWS[7][1])
    assert "Done" in replies[-1].text and env.select("participants", {"name": "Kim Fraser"}) == []


def test_add_someone_asks_name_age_and_weight_one_at_a_time():
    env, replies, _ = chat(CorrectToursAgent, [
        "I'd like to add someone to my booking", *WHO["SW2101"], "Her name is Priya Nair",
        "She is 31 years old", "About 58 kilos", "yes"])  # fmt: skip
    assert "full name" in replies[2].text and "How old" in replies[3].text
    assert "weigh" in replies[4].text and "£45.00" in replies[5].text
    assert row(env, "participants", name="Priya Nair")["weight_kg"] == 58


def test_a_message_with_no_request_is_not_taken_for_one():
    _, replies, _ = chat(CorrectToursAgent, ["Hello", "SW2101", "Is it sunny there?"])
    assert "What can I do for you?" in replies[0].text
    assert "What would you like to do" in replies[1].text
    assert "not sure what you'd like" in replies[2].text
