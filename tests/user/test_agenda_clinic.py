"""The agenda user on a clinic desk nobody wrote it for: it compares a proposal only with the
fact it restates (never the date of birth with the appointment date), reads relative dates
against the desk's clock, takes refusals and unavailability as answers, recognises an answered
question, never asks again for a finished sub-goal, and never says machine names aloud."""

from vistasim.user import AgendaPolicy, Finish, environment_now

from ._clinic import TOOLS, ClinicDesk, patient
from ._driver import converse, scripted

NOW = environment_now(ClinicDesk())
ASK_DOB = "Hello! To find your record, could you give me your date of birth?"
BOOK = "Book a check-up with Dr Lee on Thursday 19 March at 10:00."
YES = ("yes", "yep", "sure", "yeah", "that's right", "that is correct")


async def play(scenario, *replies, now=NOW, policy=None, **kw):
    return await converse(
        policy or AgendaPolicy(), scenario, scripted(*replies), agent_tools=TOOLS, now=now, **kw
    )


async def test_the_date_of_birth_is_given_and_never_held_against_the_proposed_date():
    ep = await play(
        patient(BOOK),
        ASK_DOB,
        "Thanks, Ana. I have Thursday 19 March at 10:00 with Dr Lee. Shall I book it?",
        "Booked — your check-up is on Thursday 19 March at 10:00.",
    )
    assert "1969-11-02" in ep.said[1]
    assert ep.said[2].lower().startswith(YES), ep.said[2]
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_a_wrong_appointment_date_is_objected_to_with_the_goal_date():
    ep = await play(
        patient(BOOK), ASK_DOB, "I can offer Friday 20 March at 10:00. Shall I book it?"
    )
    objection = ep.said[2]
    assert "19 March" in objection and "20 March" in objection
    assert "1969" not in objection


async def test_a_wrongly_restated_date_of_birth_is_corrected_with_the_date_of_birth():
    ep = await play(patient(BOOK), "I have your date of birth as 3 November 1969, is that right?")
    assert "1969-11-02" in ep.said[1] and not ep.said[1].lower().startswith(YES)


async def test_next_thursday_is_read_against_the_desk_clock():
    goal = patient("Book a check-up with Dr Lee next Thursday at 10:00.")
    wrong = await play(goal, "I have Friday 20 March at 10:00. Shall I book it?")
    right = await play(goal, "I have Thursday 19 March at 10:00. Shall I book it?", "Booked.")
    assert "next Thursday" in wrong.said[1] and "20 March" in wrong.said[1]
    assert right.said[1].lower().startswith(YES)


async def test_a_relative_proposal_is_checked_against_an_explicit_goal_date():
    goal = patient("Book a check-up with Dr Lee on Friday 20 March at 10:00.")
    ep = await play(goal, "How about next Thursday at 10:00? Shall I book it?")
    assert "20 March" in ep.said[1] and not ep.said[1].lower().startswith(YES)


async def test_without_a_clock_relative_dates_are_not_compared():
    # "next Friday" is 13 or 20 March on the desk's clock, never 27 March; without a clock the
    # user cannot tell, and does not guess (only the weekday is compared, and it agrees).
    goal = patient("Book a check-up with Dr Lee on Friday 27 March at 10:00.")
    offer = "How about next Friday at 10:00? Shall I book it?"
    unknown = await play(goal, offer, "Booked.", now=None)
    known = await play(goal, offer)
    assert unknown.said[1].lower().startswith(YES)
    assert "27 March" in known.said[1] and not known.said[1].lower().startswith(YES)


async def test_a_scenario_today_fact_is_a_clock_and_is_never_said():
    goal = patient("Book a check-up next Thursday.", knowledge={"today": "2026-03-12"})
    ep = await play(goal, "Friday 20 March at 10:00 is free. Shall I book it?", now=None)
    assert "20 March" in ep.said[1] and "2026-03-12" not in " ".join(ep.said)


async def test_a_reasoned_refusal_of_a_change_stops_with_the_reason_and_no_repeat():
    refusal = "I'm sorry, A1001 can't be cancelled because it starts in less than 24 hours."
    ep = await play(patient("Cancel my appointment A1001."), refusal, refusal)
    assert len(ep.said) == 1
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert ep.last.text.startswith("the agent refused: ") and "24 hours" in ep.last.text


async def test_a_refusal_answers_a_question_and_a_fallback_the_goal_allows_is_taken():
    refusal = "Sorry, that's not possible because it starts in less than 24 hours."
    question = await play(
        patient("Find out whether I can still cancel appointment A1001."), refusal
    )
    assert isinstance(question.last, Finish) and question.last.reason == "refused"
    accepts = patient("Cancel my appointment A1001; if that's not possible, that's fine.")
    accepted = await play(accepts, refusal)
    assert isinstance(accepted.last, Finish) and accepted.last.reason == "refused"
    moves = patient(
        "Cancel my appointment A1001; if that's not possible, move it to Friday 20 March."
    )
    moved = await play(
        moves, refusal, "I can move it to Friday 20 March at 10:00. Shall I?", "Done."
    )
    assert "move it to Friday 20 March" in moved.said[1]
    assert moved.said[2].lower().startswith(YES)
    assert isinstance(moved.last, Finish) and moved.last.reason == "goal_met"


async def test_just_booked_with_a_fitting_alternative_is_accepted():
    goal = patient("Book a check-up with Dr Lee on Thursday 19 March.")
    ep = await play(
        goal,
        "I have 10:00 on Thursday 19 March. Shall I book it?",
        "Sorry, that slot was just booked. I can offer 11:30 on Thursday 19 March instead. "
        "Shall I book it?",
        "Booked — Thursday 19 March at 11:30.",
    )
    assert ep.said[2].lower().startswith(YES)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_unavailable_asks_once_for_another_option_then_stops_with_the_reason():
    goal = patient("Book a check-up with Dr Lee on Thursday 19 March.")
    ep = await play(
        goal,
        "I have 10:00 on Thursday 19 March. Shall I book it?",
        "Sorry, that slot was just booked.",
        "I'm afraid Thursday 19 March is fully booked now.",
    )
    assert "another option" in ep.said[2] or "anything else" in ep.said[2] or "else" in ep.said[2]
    assert "19 March" in ep.said[2]
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert "fully booked" in ep.last.text


async def test_an_answered_question_ends_it_and_a_non_answer_is_not_thanked_for():
    goal = patient("Find out what time my appointment A1001 is.")
    answered = await play(goal, "Your appointment A1001 is at 10:00 on Friday 20 March.")
    assert isinstance(answered.last, Finish) and answered.last.reason == "goal_met"
    assert len(answered.said) == 1
    unanswered = await play(goal, "Your appointment A1001 is confirmed.", max_turns=2)
    assert not isinstance(unanswered.last, Finish) or unanswered.last.reason != "goal_met"


def booking_and_reminder(*behaviours):
    return patient(
        "Book a check-up with Dr Lee on Thursday 19 March and have the reminder sent by sms.",
        agenda=[
            {"intent": "book_appointment", "slots": {"date": "2026-03-19"},
             "behaviours": list(behaviours)},
            {"intent": "send_reminder", "slots": {"channel": "sms"}},
        ],
    )  # fmt: skip


async def test_a_sub_goal_reported_done_with_the_previous_one_is_not_asked_again():
    offered = await play(
        booking_and_reminder(),
        "Booked — Thursday 19 March at 10:00. Shall I also send you a reminder by sms?",
        "Done — the sms reminder has been sent.",
        policy=AgendaPolicy(combine_probability=0),
    )
    assert offered.said[1].lower().startswith(YES)
    assert isinstance(offered.last, Finish) and offered.last.reason == "goal_met"
    assert len(offered.said) == 2  # the reminder is never asked for again
    combined = await play(
        booking_and_reminder({"op": "combine"}),
        "Booked — Thursday 19 March at 10:00, and the sms reminder has been sent.",
    )
    assert len(combined.said) == 1
    assert isinstance(combined.last, Finish) and combined.last.reason == "goal_met"


async def test_options_are_picked_by_the_goal_and_a_day_question_is_answered_from_it():
    goal = patient("Book a check-up with Dr Lee next Thursday at 10:00.")
    picked = await play(goal, "I have 11:30 or 10:00 on Thursday 19 March. Which works?", "Booked.")
    assert picked.said[1].startswith("10:00") or "10:00" in picked.said[1]
    asked = await play(goal, "What day would suit you?", "Booked for Thursday 19 March, 10:00.")
    assert "next thursday" in asked.said[1].lower() and "19 March" in asked.said[1]
    assert isinstance(asked.last, Finish) and asked.last.reason == "goal_met"


async def test_a_refusal_naming_a_fact_the_user_holds_is_answered_with_it_once():
    goal = patient(
        "Book a check-up with Dr Lee on Thursday 19 March.", hidden={"referral_code": "RF-2231"}
    )
    refusal = "Sorry, I can't book Dr Lee unless you have a referral code."
    ep = await play(goal, refusal, refusal)
    assert "RF-2231" in ep.said[1] and "book a check-up" in ep.said[1]
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert ep.last.text.startswith("the agent refused: ")


async def test_a_phone_number_is_never_compared_with_an_order_number_of_its_shape():
    scenario = patient(
        "Cancel order 1234567.",
        knowledge={"phone": "5550142"},
        agenda=[{"intent": "cancel_order", "slots": {"order_id": "1234567"}}],
    )
    both = "I'll cancel order 1234567 and text the confirmation to your phone, 5550142. Shall I?"
    right = await play(scenario, both, "Order 1234567 has been cancelled.")
    assert right.said[1].lower().startswith(YES)
    wrong = await play(scenario, "I'll cancel order 7654321 for you. Shall I proceed?")
    assert "1234567" in wrong.said[1] and "5550142" not in wrong.said[1]
    phone = await play(scenario, "Is your phone number 5550199? Shall I text you there?")
    assert "5550142" in phone.said[1] and "1234567" not in phone.said[1]


async def test_a_rule_against_the_goals_way_is_taken_with_the_offer_it_comes_with():
    # The rule rules out the new card, not the refund: the customer takes the refund offered.
    goal = patient("Get my double payment refunded to my new card ending 9921.",
                   knowledge={"name": "Ana Ruiz", "date_of_birth": "1969-11-02",
                              "new_card_last4": "9921"})  # fmt: skip
    ep = await play(
        goal,
        ASK_DOB,
        "Refunds can only go back to the card the payment was made with, not to another card. "
        "I can refund £75.00 to the card ending 4410. Shall I go ahead?",
        "Done: £75.00 is on its way back to the card ending 4410.",
    )
    assert ep.said[2].lower().startswith(YES), ep.said[2]
    assert "9921" not in ep.said[2]




async def test_a_rule_against_the_goals_own_figures_is_not_taken_with_the_offer():
    # The rule names the goal's own day: the time it wanted there is its choice, not a means.
    ep = await play(
        patient(BOOK),
        ASK_DOB,
        "On Thursday 19 March Dr Lee can only see patients after lunch, not in the morning. "
        "I can book 14:00 on Thursday 19 March. Shall I book it?",
    )
    assert not ep.said[2].lower().startswith(YES), ep.said[2]


async def test_a_sum_the_user_just_said_yes_to_is_not_objected_to_when_restated():
    # Found on an insurance desk written blind: "No - it should be £1,200, not £950.00" about
    # the payout of the claim the user had just agreed to open.
    goal = patient("Report a claim: the storm blew my fence down. The fencer thinks about £1,200 "
                   "to replace it.")  # fmt: skip
    ep = await play(
        goal,
        "I'll open a claim estimated at £1,200.00. We would pay up to £950.00 after the excess. "
        "Shall I open the claim?",
        "Your claim is open, reference CL-55101. If it is accepted we would pay up to £950.00.",
    )
    assert ep.said[1].lower().startswith(YES), ep.said[1]
    assert not any("950" in said for said in ep.said[2:]), ep.said  # no "...not £950.00"
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"  # "open, reference..."


async def test_an_identity_check_confirmed_is_not_the_request_done():
    # Found on an insurance desk written blind: "that's policy HH-105044 confirmed. Anything
    # else?" after the request was made ended the episode as met; it asks again instead.
    goal = patient("Move my monthly payment to the 28th.")
    ep = await play(goal, "Thank you, Ana, that's policy HH-105044 confirmed. Anything else?")
    assert not isinstance(ep.last, Finish) or ep.last.reason != "goal_met"
    assert "28" in ep.said[1], ep.said[1]
