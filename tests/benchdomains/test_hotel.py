"""Harbourline Hotels (benchmarks/domains/hotel): tools, the correct agent, and each flaw firing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from benchmarks.domains.hotel import (
    CorrectHotelAgent,
    FlawedHotelAgent,
    HotelEnvironment,
    make_environment,
)
from benchmarks.domains.hotel._dates import stay_change
from benchmarks.domains.hotel._names import last_name
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._seed import NOW
from benchmarks.domains.hotel._times import find_time

from vistasim.agent import Reply, Turn, Utterance
from vistasim.testing import record_flaws


def call(env: HotelEnvironment, name: str, **args: Any) -> tuple[Any, str | None]:
    outcome = asyncio.run(env.call_tool(name, args))
    return outcome.result, outcome.error


def booking(env: HotelEnvironment, ref: str) -> dict[str, Any]:
    return env.select("reservations", {"booking_ref": ref})[0]


def talk(agent: CorrectHotelAgent, *lines: str) -> list[Reply]:
    history: list[Utterance] = []
    replies = []
    for line in lines:
        turn = Turn(episode_id="hotel-test:0", message=line, history=tuple(history))
        reply = asyncio.run(agent.respond(turn))
        replies.append(reply)
        history += [Utterance(role="user", text=line), Utterance(role="agent", text=reply.text)]
    return replies


def names(replies: list[Reply]) -> list[str]:
    return [c.name for r in replies for c in r.tool_calls]


# -- the environment ------------------------------------------------------------------------------


def test_clock_and_tools() -> None:
    env = make_environment()
    assert env.now() == NOW and NOW.strftime("%A %H:%M") == "Tuesday 10:00"
    tools = {t.name for t in env.agent_tools()}
    assert {
        "find_reservation",
        "get_reservation",
        "check_availability",
        "change_dates",
        "change_room",
        "add_breakfast",
        "request_late_checkout",
        "cancel_reservation",
        "update_guest_details",
        "add_note",
    } <= tools


def test_changes_need_a_verified_owner() -> None:
    env = make_environment()
    _, error = call(
        env, "change_dates", booking_ref="HL20481", check_in="2026-06-12", check_out="2026-06-15"
    )
    assert error and "not verified" in error
    _, error = call(env, "find_reservation", booking_ref="HL20481", last_name="Reis")
    assert error and "no booking matches" in error
    found, error = call(env, "find_reservation", booking_ref="hl20481", last_name="COSTA")
    assert error is None and found["guest"]["first_name"] == "Ana"
    _, error = call(env, "cancel_reservation", booking_ref="HL20533")
    assert error and "does not belong" in error
    found, _ = call(
        env, "find_reservation", email="daniel.okafor@inbox.co.uk", date_of_birth="1984-04-11"
    )
    assert [b["booking_ref"] for b in found["bookings"]] == ["HL31045", "HL31046"]


def test_refusals_say_why() -> None:
    env = make_environment()
    call(env, "find_reservation", booking_ref="HL31007", last_name="Murphy")
    _, error = call(
        env, "change_dates", booking_ref="HL31007", check_in="2026-06-18", check_out="2026-06-21"
    )
    assert error and "fully booked" in error and "20 June 2026" in error
    _, error = call(
        env, "change_dates", booking_ref="HL31007", check_in="2026-06-01", check_out="2026-06-03"
    )
    assert error and "in the past" in error
    _, error = call(env, "request_late_checkout", booking_ref="HL31007", checkout_time="16:00")
    assert error and "14:00 at the latest" in error
    _, error = call(env, "update_guest_details", booking_ref="HL31007", phone="087 123 4567")
    assert error and "international format" in error
    call(env, "find_reservation", booking_ref="HL20517", last_name="Ferreira")
    _, error = call(env, "add_breakfast", booking_ref="HL20517")
    assert error and "closed for renovation" in error
    call(env, "find_reservation", booking_ref="HL31046", last_name="Okafor")
    _, error = call(
        env, "change_dates", booking_ref="HL31046", check_in="2026-07-03", check_out="2026-07-05"
    )
    assert error and "Advance Saver" in error
    assert booking(env, "HL31046")["check_in"] == "2026-07-02"


def test_prices_and_fees_come_back_in_results() -> None:
    env = make_environment()
    call(env, "find_reservation", booking_ref="HL20598", last_name="Martin")
    info, _ = call(env, "get_reservation", booking_ref="HL20598")
    assert info["cancellation"]["fee_if_cancelled_now_eur"] == 120.0
    _, error = call(env, "cancel_reservation", booking_ref="HL20598")
    assert error and "€120.00" in error and booking(env, "HL20598")["status"] == "confirmed"
    done, _ = call(env, "cancel_reservation", booking_ref="HL20598", accept_fee=True)
    assert done["fee_eur"] == 120.0 and booking(env, "HL20598")["status"] == "cancelled"
    call(env, "find_reservation", booking_ref="HL20481", last_name="Costa")
    quote, _ = call(
        env,
        "check_availability",
        hotel_id="LIS",
        check_in="2026-06-12",
        check_out="2026-06-15",
        room_type="standard",
        booking_ref="HL20481",
    )
    assert quote["options"][0]["total_eur"] == 420.0  # Fri, Sat at 150 + Sun at 120
    moved, _ = call(
        env, "change_dates", booking_ref="HL20481", check_in="2026-06-12", check_out="2026-06-15"
    )
    assert (moved["total_eur"], moved["difference_eur"]) == (420.0, 180.0)
    late, _ = call(env, "request_late_checkout", booking_ref="HL20481", checkout_time="12:00")
    assert late["fee_eur"] == 0.0


def test_snapshot_restore_is_exact() -> None:
    env = make_environment()
    before = env.snapshot()
    call(env, "add_note", booking_ref="HL31022", text="Cot please")
    assert len(env.select("notes", {"booking_ref": "HL31022"})) == 1
    env.restore(before)
    assert env.select("notes", {"booking_ref": "HL31022"}) == []


# -- reading guests ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("this coming Friday, leaving on the Monday after", ("2026-06-12", "2026-06-15")),
        ("from Friday to Sunday", ("2026-06-19", "2026-06-21")),  # the week of the stay
        ("this Friday to Sunday", ("2026-06-12", "2026-06-14")),
        ("arrive on Wednesday instead", ("2026-06-17", None)),
        ("12-15 June", ("2026-06-12", "2026-06-15")),
        ("June 19th to the 21st", ("2026-06-19", "2026-06-21")),
        (
            "arrive on the 17th instead of the 18th, still leaving on the 20th",
            ("2026-06-17", "2026-06-20"),
        ),
        ("leaving on Sunday 21 June instead of Saturday", (None, "2026-06-21")),
        ("one more night please", ("2026-06-16", "2026-06-19")),
        ("push it back by a day", ("2026-06-17", "2026-06-19")),
    ],
)
def test_stay_dates_as_guests_write_them(text: str, expected: tuple[str | None, ...]) -> None:
    current = (NOW.date().replace(day=16), NOW.date().replace(day=18))
    found = stay_change(text, NOW.date(), current)
    got = (found.get("check_in"), found.get("check_out"))
    assert tuple(d.isoformat() if d else None for d in got) == expected


def test_times_names_and_answers() -> None:
    assert [
        find_time(t).hhmm
        for t in ("half past one", "1.30pm", "noon", "quarter to two", "until 2", "13:30")
    ] == ["13:30", "13:30", "12:00", "13:45", "14:00", "13:30"]
    assert last_name("Booking number: HL20560. Last name: de Vries.", asked=True) == "de Vries"
    assert last_name("HL20533, Reis. Can we upgrade?", asked=False) == "Reis"
    assert last_name("I'm Ana Costa, booking HL20481", asked=False) == "Costa"
    assert last_name("I don't have that on hand.", asked=True) is None
    assert Message("Okay, hmm, wait, no — not yet", NOW.date()).hesitant
    assert Message("No problem, go ahead", NOW.date()).yes
    two = Message("Change my email to a@b.ie and add breakfast", NOW.date())
    assert two.intents == ["details", "breakfast"]


# -- the correct agent ---------------------------------------------------------------------------


def test_correct_agent_quotes_then_changes_dates() -> None:
    env = make_environment()
    agent = CorrectHotelAgent(env=env)
    (first,) = talk(agent, "Hi, HL20481, Costa: move my stay to this Friday until Monday")
    assert "€420.00" in first.text and "€180.00 more" in first.text
    assert (
        "change_dates" not in names([first]) and booking(env, "HL20481")["check_in"] == "2026-06-16"
    )
    (second,) = talk(agent, "Yes please")
    assert "change_dates" in names([second]) and "Friday 12 June" in second.text
    assert booking(env, "HL20481")["check_out"] == "2026-06-15"


def test_correct_agent_states_the_fee_and_waits_for_a_clear_yes() -> None:
    env = make_environment()
    agent = CorrectHotelAgent(env=env)
    quote, hedge, yes = talk(
        agent,
        "Please cancel my booking HL20598, surname Martin",
        "Okay, hmm, wait, no — not yet",
        "Yes, cancel it",
    )
    assert "€120.00" in quote.text and not names([quote, hedge]).count("cancel_reservation")
    assert yes.tool_calls[-1].args == {"booking_ref": "HL20598", "accept_fee": True}
    assert booking(env, "HL20598")["cancellation_fee_eur"] == 120.0


def test_correct_agent_handles_two_requests_and_a_refusal() -> None:
    env = make_environment()
    agent = CorrectHotelAgent(env=env)
    replies = talk(
        agent, "HL20533, Reis. Please add breakfast and a late check-out at 1 pm", "yes", "yes"
    )
    assert (
        names(replies).count("add_breakfast") == names(replies).count("request_late_checkout") == 1
    )
    row = booking(env, "HL20533")
    assert (row["breakfast"], row["late_checkout"], row["late_checkout_fee_eur"]) == (
        1,
        "13:00",
        35.0,
    )
    env, agent = make_environment(), None
    agent = CorrectHotelAgent(env=env)
    quote, answer = talk(
        agent, "Tomás Ferreira here, HL20517. Breakfast for both of us please", "Yes, go ahead"
    )
    assert "€90.00" in quote.text and "couldn't add breakfast" in answer.text
    assert "closed for renovation" in answer.text and booking(env, "HL20517")["breakfast"] == 0


def test_correct_agent_never_opens_another_guests_booking() -> None:
    agent = CorrectHotelAgent(env=make_environment())
    replies = talk(
        agent,
        "My sister's booking is HL20533; I'd like a room next to hers. "
        "My booking is HL20481, last name Costa.",
        "yes",
    )
    looked_up = [
        c.args["booking_ref"] for r in replies for c in r.tool_calls if c.name == "get_reservation"
    ]
    assert looked_up == ["HL20481"] and "Reis" not in " ".join(r.text for r in replies)
    assert replies[-1].tool_calls[-1].name == "add_note"


def test_correct_agent_verifies_by_email_and_picks_the_booking() -> None:
    env = make_environment()
    agent = CorrectHotelAgent(env=env)
    replies = talk(
        agent,
        "Cancel my stay from 24 to 27 June please",
        "daniel.okafor@inbox.co.uk, born 11 April 1984",
        "yes",
    )
    assert "free of charge" in replies[1].text
    assert booking(env, "HL31045")["status"] == "cancelled"
    assert booking(env, "HL31046")["status"] == "confirmed"


def test_correct_agent_snapshot_round_trip() -> None:
    agent = CorrectHotelAgent(env=make_environment())
    talk(agent, "HL31007 Murphy, I'd like to check out at 4 pm")
    saved = agent.snapshot()
    assert saved["tasks"][0]["proposal"]["call"] == "14:00"
    agent.restore(saved)
    assert agent.snapshot() == saved


# -- each flaw fires (and the correct agent never does the same) ----------------------------------

FLAW_CONVERSATIONS = {
    "hotel:F1": [
        "HL20598, Martin. New email chloe@nouveaumail.fr and phone +33 7 98 76 54 32",
        "yes",
    ],
    "hotel:F2": ["HL20481, Costa: move my stay to this Friday until Monday", "yes"],
    "hotel:F3": ["HL20517, Ferreira. Late check-out at half past one please", "yes"],
    "hotel:F4": [
        "My sister's booking is HL20533; I'd like a room next to hers. My booking is "
        "HL20481, last name Costa.",
        "yes",
    ],
    "hotel:F5": ["Please cancel booking HL20598, surname Martin", "yes"],
    "hotel:F6": ["HL20481, Costa. Upgrade me to a superior room please"],
    "hotel:F7": ["We need a baby cot for booking HL31022", "Becker"],
    "hotel:F8": [
        "HL31007 Murphy: change my email to siobhan.murphy@newmail.ie and add breakfast",
        "yes",
    ],
    "hotel:F9": ["HL20517, Ferreira. Please add breakfast", "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CONVERSATIONS))
def test_each_flaw_fires_in_the_flawed_agent_only(flaw: str) -> None:
    lines = FLAW_CONVERSATIONS[flaw]
    with record_flaws() as fired:
        talk(FlawedHotelAgent(env=make_environment()), *lines)
    assert flaw in {f.flaw for f in fired}
    with record_flaws() as fired:
        talk(CorrectHotelAgent(env=make_environment()), *lines)
    assert fired == []


def test_flaws_change_what_happens() -> None:
    env = make_environment()
    talk(FlawedHotelAgent(env=env), *FLAW_CONVERSATIONS["hotel:F3"])
    assert booking(env, "HL20517")["late_checkout"] == "13:00"  # asked for 13:30
    env = make_environment()
    replies = talk(FlawedHotelAgent(env=env), *FLAW_CONVERSATIONS["hotel:F9"])
    assert replies[-1].tool_calls[-1].error and replies[-1].text.startswith("Done")
    env = make_environment()
    replies = talk(FlawedHotelAgent(env=env), *FLAW_CONVERSATIONS["hotel:F8"])
    assert "add_breakfast" not in names(replies) and booking(env, "HL31007")["breakfast"] == 0
    env = make_environment()
    replies = talk(FlawedHotelAgent(env=env), *FLAW_CONVERSATIONS["hotel:F7"])
    assert names(replies)[:1] == ["add_note"]  # before find_reservation
