"""Meadowbank Veterinary Practice: tools, the correct agent, and each documented flaw."""

from __future__ import annotations

import asyncio

import pytest
from benchmarks.domains.vet import (
    CorrectVetAgent,
    FlawedVetAgent,
    VetEnvironment,
    make_environment,
)

from vistasim.agent import Turn

from ._chat import play


def tool(env, tool_name, /, **args):
    return env.run_tool("agent", tool_name, args)


def chat(agent_cls, messages, env=None):
    """Play `messages` to a fresh agent; return (env, replies, flaws fired)."""
    return play(agent_cls, messages, env or make_environment(), "vet:0")


def row(env, table, **where):
    return env.select(table, where)[0]


def called(replies, name):
    return [c for r in replies for c in r.tool_calls if c["name"] == name]


# -- the environment and its tools -----------------------------------------------------------
def test_fixed_clock_and_fresh_environments():
    env = make_environment()
    assert isinstance(env, VetEnvironment)
    assert env.now().isoformat() == "2026-11-11T14:00:00+00:00"
    tool(env, "cancel_appointment", appointment_id="A-7003")
    assert row(make_environment(), "appointments", appointment_id="A-7003")["status"] == "booked"


def test_verify_by_client_number_or_phone_and_pet():
    env = make_environment()
    ok = tool(env, "verify_owner", client_number="c1042", postcode="bs78qt").result
    assert ok["name"] == "Sarah Hughes"
    # Same surname and postcode, another client: the client number decides.
    assert tool(env, "verify_owner", client_number="C1187", postcode="BS7 8QT").result["name"] \
        == "Daniel Hughes"
    assert tool(env, "verify_owner", client_number="C1477", postcode="BS6 5UD").error
    # Three pets are called Bella: the phone number decides.
    assert tool(env, "verify_owner", phone="07700 900926", pet_name="bella").result[
        "client_number"] == "C1502"
    assert tool(env, "verify_owner", phone="07700 900926", pet_name="Max").error
    assert "needs" in tool(env, "verify_owner", client_number="C1042").error


def test_diary_refusals_and_booking_rules():
    env = make_environment()
    assert "starts tomorrow" in tool(env, "find_slots", kind="vet", date="2026-11-11").error
    assert "Sundays" in tool(env, "find_slots", kind="vet", date="2026-11-15").error
    assert "28 November" in tool(env, "find_slots", kind="vet", date="2026-12-01").error
    assert tool(env, "find_slots", kind="nurse", date="2026-11-14").result["free"] == []
    wrong = tool(env, "book_appointment", client_number="C1502", pet_id="P112",
                 slot_id="N-20261113-1600", reason="vaccination")
    assert "needs a vet" in wrong.error
    other = tool(env, "book_appointment", client_number="C1502", pet_id="P101",
                 slot_id="V-20261113-1030", reason="vaccination")
    assert "not registered" in other.error
    ok = tool(env, "book_appointment", client_number="C1502", pet_id="P112",
              slot_id="V-20261113-1030", reason="vaccination").result
    assert (ok["date"], ok["time"], ok["with"]) == ("2026-11-13", "10:30", "Dr Priya Shah")
    again = tool(env, "book_appointment", client_number="C1187", pet_id="P103",
                 slot_id="V-20261113-1030", reason="check_up")
    assert "no longer free" in again.error


def test_late_fee_inside_24_hours_only():
    env = make_environment()
    late = tool(env, "cancel_appointment", appointment_id="A-7001").result
    assert late["late_fee"] == "£15.00"
    assert row(env, "invoices", invoice_id=late["fee_invoice_id"])["amount_pence"] == 1500
    free = tool(env, "cancel_appointment", appointment_id="A-7006").result
    assert free["late_fee"] == "£0.00" and free["fee_invoice_id"] is None
    moved = tool(env, "move_appointment", appointment_id="A-7002", slot_id="N-20261113-1600")
    assert moved.result["late_fee"] == "£0.00"
    assert "another vet slot" in tool(env, "move_appointment", appointment_id="A-7003",
                                      slot_id="N-20261113-1000").error


def test_repeat_limits_and_collection_dates():
    env = make_environment()
    assert "limited to 30 tablets" in tool(env, "order_repeat", prescription_id="RX-5105",
                                           quantity=90).error
    assert "no repeats left" in tool(env, "order_repeat", prescription_id="RX-5106",
                                     quantity=50).error
    in_stock = tool(env, "order_repeat", prescription_id="RX-5102", quantity=60).result
    assert in_stock["ready_on"] == "2026-11-12" and in_stock["price"] == "£19.20"
    ordered_in = tool(env, "order_repeat", prescription_id="RX-5104", quantity=100).result
    assert ordered_in["ready_on"] == "2026-11-16"
    assert row(env, "prescriptions", prescription_id="RX-5104")["repeats_left"] == 4


def test_payments_contact_and_new_pets():
    env = make_environment()
    assert "expired 09/2026" in tool(env, "pay_invoice", invoice_id="INV-4432",
                                     amount=94.2).error
    part = tool(env, "pay_invoice", invoice_id="INV-4440", amount=50).result
    assert part["outstanding"] == "£90.00" and part["status"] == "open"
    assert "only £90.00" in tool(env, "pay_invoice", invoice_id="INV-4440", amount=100).error
    assert tool(env, "get_invoice", invoice_id="INV-4417").result["owner"] == "Daniel Hughes"
    assert "not a UK phone" in tool(env, "update_contact", client_number="C1187",
                                    phone="+33 6 12 34 56 78").error
    saved = tool(env, "update_contact", client_number="C1477",
                 address="3 Kingsdown Parade, Bristol", postcode="bs65ud").result
    assert saved["postcode"] == "BS6 5UD"
    assert "does not treat" in tool(env, "register_pet", client_number="C1255", name="Spike",
                                    species="bearded dragon", date_of_birth="2024-05-01").error
    assert "already registered" in tool(env, "register_pet", client_number="C1042",
                                        name="bella", species="dog",
                                        date_of_birth="2020-01-01").error


# -- the correct agent -----------------------------------------------------------------------
def test_correct_books_with_phone_and_pet_name():
    env, replies, fired = chat(CorrectVetAgent, [
        "Hi, I'd like to book Bella in for her booster this Friday at half past ten. I don't "
        "have my client number to hand.",
        "My phone is 07700 900926 and she's called Bella", "yes please"])
    assert "phone number" in replies[0].text
    assert "Friday 13 November at 10:30am" in replies[1].text and "Shall I" in replies[1].text
    booked = env.select("appointments", {"pet_id": "P112", "date": "2026-11-13"})
    assert [(b["time"], b["reason"]) for b in booked] == [("10:30", "vaccination")]
    assert "A-7101" in replies[2].text and fired == []


def test_correct_waits_for_a_clear_yes():
    env, replies, _ = chat(CorrectVetAgent, [
        "Please cancel Max's appointment tomorrow morning. C1310 BS3 1HJ",
        "hmm, hang on, not yet", "ok yes, go ahead"])
    assert "£15.00" in replies[0].text and "less than 24 hours" in replies[0].text
    assert called(replies[1:2], "cancel_appointment") == []
    assert row(env, "appointments", appointment_id="A-7001")["status"] == "cancelled"
    assert "£15.00 late-cancellation fee" in replies[2].text


def test_correct_relative_dates_and_fallback():
    env, replies, _ = chat(CorrectVetAgent, [
        "I need to move Pepper's check-up to next Monday afternoon, or if there's nothing then, "
        "Wednesday the 18th after 2pm.", "C1560 BS4 2AB", "yes"])
    assert "other choice" in replies[1].text and "3:30pm" in replies[1].text
    appt = row(env, "appointments", appointment_id="A-7004")
    assert (appt["date"], appt["time"]) == ("2026-11-18", "15:30")


def test_correct_same_day_move_calls_the_diary():
    env, replies, _ = chat(CorrectVetAgent, [
        "Can I move Biscuit's nail clip on Friday to later that afternoon, around 4pm? "
        "C1398 BS5 0QZ", "yes"])
    assert called(replies, "move_appointment")
    assert row(env, "appointments", appointment_id="A-7002")["time"] == "16:00"


def test_correct_two_requests_in_one_message():
    env, replies, _ = chat(CorrectVetAgent, [
        "Can you change my mobile number to 07700 900555 and my email address to "
        "dan.hughes@fastmail.example? C1187, BS7 8QT", "yes"])
    client = row(env, "clients", client_number="C1187")
    assert (client["phone"], client["email"]) == ("07700 900555", "dan.hughes@fastmail.example")
    assert client["address"] == "16 Elm Grove, Bristol"
    env, replies, _ = chat(CorrectVetAgent, [
        "Please order repeats for both my cats, Luna and Milo. C1255 BS6 6HR", "yes", "yes"])
    assert len(env.select("repeat_orders", {})) == 2
    assert "Milo" in replies[1].text and "Shall I" in replies[1].text


def test_correct_refuses_repeat_without_recent_checkup_and_books_one():
    env, replies, _ = chat(CorrectVetAgent, [
        "Can I order Pickle's thyroid tablets? If they say he needs a check-up first, book him "
        "one for next Tuesday morning instead. C1042 BS7 8QT", "yes"])
    assert "12 months" in replies[0].text and "14 February 2025" in replies[0].text
    assert env.select("repeat_orders", {"pet_id": "P102"}) == []
    assert row(env, "appointments", pet_id="P102")["date"] == "2026-11-17"


def test_correct_limits_quantity_and_states_collection_date():
    env, replies, _ = chat(CorrectVetAgent, [
        "Can I get 90 of Teddy's Apoquel tablets? If you can't, the most you're allowed. "
        "C1609 BS7 8AE", "yes"])
    assert "limited to 30 tablets" in replies[0].text
    assert row(env, "repeat_orders", pet_id="P114")["quantity"] == 30
    _, replies, _ = chat(CorrectVetAgent, [
        "Pepper needs more Vetmedin please. C1560 BS4 2AB", "yes"])
    assert "Monday 16 November" in replies[1].text


def test_correct_never_shows_another_clients_invoice():
    env, replies, _ = chat(CorrectVetAgent, [
        "I've had a reminder about invoice INV-4417 that I don't recognise. What do I owe? "
        "C1042 BS7 8QT"])
    assert "can't find invoice INV-4417" in replies[0].text
    assert "186.40" not in replies[0].text and "Daniel" not in replies[0].text
    assert called(replies, "get_invoice") == []
    assert "INV-4410" in replies[0].text


def test_correct_reports_a_declined_payment():
    env, replies, _ = chat(CorrectVetAgent, ["I'd like to pay my bill. C1421 BS16 3SG", "yes"])
    assert "didn't go through" in replies[1].text and "Nothing has been taken" in replies[1].text
    assert row(env, "invoices", invoice_id="INV-4432")["status"] == "open"


def test_correct_moved_owner_verifies_by_phone_and_pet():
    env, replies, _ = chat(CorrectVetAgent, [
        "I've moved house, please update my address to 3 Kingsdown Parade, Bristol BS6 5UD. "
        "Client number C1477", "BS6 5UD", "Helen Price", "07700 900614, Nala", "yes"])
    assert "phone number on your account" in replies[1].text
    assert called(replies[:3], "get_account") == []  # a name is not proof of identity
    assert called(replies[:4], "update_contact") == []
    assert "Shall I save that?" in replies[3].text
    client = row(env, "clients", client_number="C1477")
    assert (client["address"], client["postcode"]) == ("3 Kingsdown Parade, Bristol", "BS6 5UD")


def test_correct_registers_and_refuses_exotics():
    env, replies, _ = chat(CorrectVetAgent, [
        "We've just got a kitten called Mochi, I'd like to register her and book her first "
        "vaccination on the 17th in the morning. 07700 900926, our dog is Bella",
        "She's a British Shorthair, born 30 August", "yes", "yes"])
    pet = row(env, "pets", client_number="C1502", name="Mochi")
    assert (pet["species"], pet["date_of_birth"]) == ("cat", "2026-08-30")
    assert row(env, "appointments", pet_id=pet["pet_id"])["date"] == "2026-11-17"
    env, replies, _ = chat(CorrectVetAgent, [
        "I'd like to register my bearded dragon Spike. C1255 BS6 6HR"])
    assert "Avon Exotic Vets" in replies[0].text and called(replies, "register_pet") == []


def test_correct_locks_after_three_failed_checks():
    _, replies, _ = chat(CorrectVetAgent, [
        "Book Max a check-up. C1310 BS1 1AA", "BS2 2BB", "BS3 3CC"])
    assert "0117 496 0321" in replies[2].text
    assert len(called(replies, "verify_owner")) == 3 and called(replies, "get_account") == []


# -- the flaws -------------------------------------------------------------------------------
FLAW_CASES = {
    "vet:F1": ["Can I move Biscuit's nail clip on Friday to later that afternoon, around 4pm? "
               "Client C1398, postcode BS5 0QZ", "yes"],
    "vet:F2": ["Pepper's running low on her Vetmedin, can I order some more?",
               "07700 900489, Pepper", "yes please"],
    "vet:F3": ["I've had a reminder letter about invoice INV-4417 and I don't recognise it. "
               "What do I owe? C1042, BS7 8QT"],
    "vet:F4": ["I need to cancel Max's appointment tomorrow morning, he's fine now",
               "client number C1310, postcode BS3 1HJ", "yes"],
    "vet:F5": ["I'd like Pickle's repeat prescription please. C1042, BS7 8QT", "yes"],
    "vet:F6": ["Could I order repeat prescriptions for both my cats, Luna and Milo? "
               "Client C1255, postcode BS6 6HR", "yes"],
    "vet:F7": ["I'd like to pay Rolo's invoice please", "C1421, BS16 3SG", "yes"],
    "vet:F8": ["I've moved house and need to update my address to 3 Kingsdown Parade, Bristol "
               "BS6 5UD. My client number is C1477.", "BS6 5UD", "Helen Price", "yes"],
}


@pytest.mark.parametrize("flaw", sorted(FLAW_CASES))
def test_each_flaw_fires_and_correct_agent_does_not(flaw):
    _, _, fired = chat(FlawedVetAgent, FLAW_CASES[flaw])
    assert fired and set(fired) == {flaw}
    _, _, clean = chat(CorrectVetAgent, FLAW_CASES[flaw])
    assert clean == []


def test_flaw_effects():
    env, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F1"])
    assert called(replies, "move_appointment") == [] and "4:00pm" in replies[1].text
    assert row(env, "appointments", appointment_id="A-7002")["time"] == "09:30"
    _, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F2"])
    assert called(replies, "order_repeat")[0]["result"]["ready_on"] == "2026-11-16"
    assert "tomorrow, Thursday 12 November" in replies[2].text
    _, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F3"])
    assert "Daniel Hughes" in replies[0].text and "£186.40" in replies[0].text
    env, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F4"])
    assert "no charge" in replies[1].text and "£15" not in replies[1].text
    assert row(env, "appointments", appointment_id="A-7001")["late_fee_pence"] == 1500
    env, _, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F5"])
    assert row(env, "repeat_orders", pet_id="P102")["quantity"] == 60
    env, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F6"])
    assert env.select("repeat_orders", {"pet_id": "P106"}) == []
    assert "all of them" in replies[1].text
    _, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F7"])
    assert called(replies, "pay_invoice")[0]["error"] and "paid in full" in replies[2].text
    env, replies, _ = chat(FlawedVetAgent, FLAW_CASES["vet:F8"])
    assert row(env, "clients", client_number="C1477")["postcode"] == "BS6 5UD"
    assert [c["args"] for c in called(replies, "verify_owner")] == [
        {"client_number": "C1477", "postcode": "BS6 5UD"}]


def test_flawed_agent_is_quiet_on_plain_requests():
    for messages in (
        ["Please move Pepper's check-up to Wednesday the 18th after 2pm. C1560 BS4 2AB", "yes"],
        ["Please order Teddy's Apoquel. C1609 BS7 8AE", "yes"],
        ["Cancel Max's vaccination on Friday the 20th. 07700 900377, Max", "yes"],
        ["I want to pay £50 towards Teddy's x-ray invoice. C1609 BS7 8AE", "yes"],
        ["Book Rolo a nail clip on Monday after 4pm. C1421 BS16 3SG", "yes"],
    ):
        _, _, fired = chat(FlawedVetAgent, messages)
        assert fired == [], messages


def test_snapshot_restore_roundtrip():
    env = make_environment()
    agent = CorrectVetAgent(env=env)
    asyncio.run(agent.respond(Turn(episode_id="s:0", message="Book Bella a check-up please")))
    state = agent.snapshot()
    other = CorrectVetAgent(env=env)
    other.restore(state)
    assert other.snapshot() == state
