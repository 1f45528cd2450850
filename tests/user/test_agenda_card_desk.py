"""The agenda user on a library card desk: a payment reported as "taken", and the new number a
replacement card gets, which is news and no contradiction of the card number it came with."""

from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted


def card_desk(goal: str, **knowledge: str) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "card-desk",
            "persona": {"name": "Grace Lindqvist", "profile": "33, teacher",
                        "style": {"verbosity": "medium", "patience": 3}},
            "goal": goal,
            "knowledge": knowledge,
        }
    )  # fmt: skip


async def test_a_payment_reported_as_taken_ends_the_request():
    scenario = card_desk("I want to pay £1.50 towards my overdue fine.", card_number="RL-20915")
    ep = await converse(
        AgendaPolicy(),
        scenario,
        scripted("Payment taken: £1.50 charged to the card ending 7734. £1.75 remains on fine "
                 "F901."),
        max_turns=2,
    )  # fmt: skip
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_the_new_number_of_a_replaced_card_is_not_objected_to():
    scenario = card_desk("I've lost my library card and need a replacement.",
                         card_number="RL-20688", pin="9035")  # fmt: skip
    done = ("Your new card number is RL-30009; the old card no longer works. The £2.00 "
            "replacement fee has been added to your account.")
    ep = await converse(AgendaPolicy(), scenario, scripted(done), max_turns=2)
    assert not any("RL-20688" in said for said in ep.said)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_a_wrong_new_value_the_goal_asks_for_is_still_objected_to():
    scenario = card_desk("Change my email to grace.l@example.org.",
                         email="grace.l@example.org")  # fmt: skip
    wrong = "Done: your new email is grace.k@example.org."
    ep = await converse(AgendaPolicy(), scenario, scripted(wrong), max_turns=2)
    assert len(ep.said) == 2 and ep.said[1].startswith("No")
    assert "grace.l@example.org" in ep.said[1]


async def test_each_request_of_a_two_part_goal_is_checked_against_its_own_values():
    from datetime import UTC, datetime

    scenario = card_desk(
        "Cancel my Spin class tomorrow morning and book me onto the Yoga at half seven on "
        "Friday at Islington instead.", member_id="PF1008")  # fmt: skip
    agent = scripted(
        "Shall I cancel your Spin on Thursday 22 October 2026 at 07:00 (booking B5007)?",
        "Your Spin is cancelled. I can book you on Yoga on Friday 23 October 2026 at 19:30. "
        "Shall I book it?",
        "You're booked on Yoga on Friday 23 October 2026 at 19:30. Anything else?",
    )
    now = datetime(2026, 10, 21, 18, tzinfo=UTC)  # a Wednesday
    ep = await converse(AgendaPolicy(), scenario, agent, max_turns=5, now=now)
    assert not any(said.startswith(("No", "Hmm")) for said in ep.said), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_the_wrong_time_for_the_part_that_names_one_is_objected_to():
    from datetime import UTC, datetime

    scenario = card_desk(
        "Cancel my Spin class tomorrow morning and book me onto the Yoga at half seven on "
        "Friday at Islington instead.", member_id="PF1008")  # fmt: skip
    agent = scripted("I can book you on Yoga on Friday 23 October 2026 at 18:00. Shall I?")
    now = datetime(2026, 10, 21, 18, tzinfo=UTC)
    ep = await converse(AgendaPolicy(), scenario, agent, max_turns=2, now=now)
    assert "half seven" in ep.said[1] and "18:00" in ep.said[1]


async def test_no_need_at_the_first_place_takes_the_fallback_and_names_the_offered_option():
    scenario = card_desk(
        "I want to reserve Klara and the Sun to collect at Central Library. If that isn't "
        "possible at Central, put the hold on for Northgate instead.", card_number="RL-20688")
    agent = scripted(
        "There's a copy on the shelf at Central right now, so a hold isn't needed there. I can "
        "place a hold for pickup at Northgate Library or Harbour Road Library.",
        "Which branch would you like to collect it from: Central, Northgate or Harbour Road?",
    )
    ep = await converse(AgendaPolicy(), scenario, agent, max_turns=3)
    assert "Northgate" in ep.said[1] and "Central" not in ep.said[1]
    assert "Northgate" in ep.said[2]


async def test_a_goal_that_asks_and_asks_for_a_change_answers_the_offer_after_a_refusal():
    scenario = card_desk(
        "I've had a letter about invoice INV-4417 that I don't recognise. Find out what I owe "
        "and pay off whatever is genuinely mine.", client_number="C1042")  # fmt: skip
    agent = scripted(
        "INV-4417 isn't on your account, so I can't share it. Your account has INV-4410, "
        "£62.50 outstanding. I'll take £62.50 from your Visa for INV-4410. Shall I go ahead?",
    )
    ep = await converse(AgendaPolicy(), scenario, agent, max_turns=2)
    assert not isinstance(ep.last, Finish) and ep.said[1].lower().startswith(("yes", "sure"))


async def test_a_code_the_goal_asks_to_be_given_ends_the_request_and_a_menu_does_not():
    # Found on the mobile desk's DIVERT runs: "Your PAC code ... is BRW132072" has no done word,
    # and the user asked again for the code it had just been given until it gave up.
    scenario = card_desk("I'm moving network. Please get me the code I need to take my number "
                         "with me.", phone_number="07700 900888", pin="3019")  # fmt: skip
    given = ("Thank you, you're verified. Your PAC code for 07700 900888 is BRW132072, valid "
             "until Friday 12 June 2026. Give it to your new provider.")
    ep = await converse(AgendaPolicy(), scenario, scripted(given), max_turns=2)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"
    menu = ("I can help with your bill, PAC codes for switching network or replacement SIMs. "
            "Your account number is 07700900888.")
    ep = await converse(AgendaPolicy(), scenario, scripted(menu), max_turns=2)
    assert not (isinstance(ep.last, Finish) and ep.last.reason == "goal_met")
