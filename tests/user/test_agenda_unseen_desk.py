"""The agenda user on a phone desk's phrasing it was not written for: "mobile number" for its
`phone_number`, "a date of birth isn't enough" ruling a fact out, a list of services after a
misunderstanding, and a goal that allows its request only if it is free."""

from datetime import UTC, datetime

from vistasim.llm import ToolSpec
from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, scripted

VERIFY = (
    "First I need to verify you: what's the mobile number on the account, and your 4-digit "
    "account PIN?"
)

VERIFY_TOOL = ToolSpec(
    name="verify_account",
    description="Verify the account holder.",
    parameters={"type": "object", "properties": {"phone_number": {"type": "string"},
                                                 "account_pin": {"type": "string"}}},
)


def phone_desk(goal: str, **knowledge: str) -> Scenario:
    return Scenario.model_validate(
        {
            "id": "phone-desk",
            "persona": {
                "name": "Hannah Lewis",
                "profile": "27, doctor, short messages",
                "style": {"verbosity": "low", "patience": 3, "formality": "casual"},
            },
            "goal": goal,
            "knowledge": knowledge,
        }
    )


async def test_a_phone_number_is_given_when_the_mobile_number_is_asked_for():
    scenario = phone_desk(
        "Add a roaming pass for my trip.", phone_number="07700 900246", account_pin="7715"
    )
    ep = await converse(AgendaPolicy(), scenario, scripted(VERIFY), max_turns=2)
    assert "07700 900246" in ep.said[1] and "7715" in ep.said[1]


async def test_a_fact_the_agent_rules_out_is_not_offered_and_the_missing_one_is_owned_up_to():
    scenario = phone_desk(
        "Get a replacement SIM sent to me.", phone_number="07700 900789",
        date_of_birth="1992-07-21",
    )
    ask = ("For a replacement SIM I need your 4-digit account PIN (a date of birth isn't enough "
           "for SIM changes). What's your PIN?")
    ep = await converse(
        AgendaPolicy(), scenario, scripted(ask), agent_tools=(VERIFY_TOOL,), max_turns=2
    )
    assert "1992" not in ep.said[1] and "21/07" not in ep.said[1]
    assert "don't have" in ep.said[1]


async def test_after_a_misunderstanding_the_user_names_the_listed_service_that_is_its_request():
    scenario = phone_desk(
        "I'm moving to another network and keeping my number. Get me the code I need.",
        phone_number="07700 900888",
    )
    menu = ("Sorry, I'm not sure what you need. I can help with your bill, changing plan, "
            "PAC codes for switching network, and replacement SIMs. What would you like to do?")
    ep = await converse(AgendaPolicy(), scenario, scripted(menu), max_turns=2)
    assert ep.said[1].startswith("I'd like help with PAC codes for switching network.")


async def test_a_request_allowed_only_if_free_is_declined_at_a_fee_and_that_meets_the_goal():
    scenario = phone_desk(
        "Tell me whether cancelling my line costs anything. Only cancel it if there is no fee.",
        phone_number="07700 900456", account_pin="5521",
    )
    offer = ("Cancelling now means an early termination fee of £270.00. Do you want me to "
             "cancel the line and accept that fee?")
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=3)
    assert not any(s.lower().startswith("yes") for s in ep.said)
    assert "270.00" in ep.said[1] or "nothing" in ep.said[1]
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_the_same_request_is_accepted_when_it_costs_nothing():
    scenario = phone_desk(
        "Only cancel my line if there is no fee.", phone_number="07700 900456",
        account_pin="5521",
    )
    offer = "Your contract has ended, so there's no fee. Shall I cancel the line?"
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_a_request_only_at_the_price_quoted_is_declined_once_the_price_has_gone_up():
    # Found on a solar installer's desk written blind: "book the installation from my quote —
    # but only at the price I was quoted", told "at today's prices it comes to £3,340.00 (it
    # was £3,090.00) ... so I haven't booked anything", asked again until its turns ran out.
    goal = ("Please book the installation from my quote for Monday 8 March — but only at the "
            "price I was quoted. If it's gone up, leave it.")
    scenario = phone_desk(goal, phone_number="07700 900456", account_pin="5521")
    left = ("Quote Q7015's price was held until Sunday 3 January; at today's prices it comes to "
            "£3,340.00 (it was £3,090.00). You asked me to leave it if the price had gone up, so "
            "I haven't booked anything. Is there anything else I can help with?")
    ep = await converse(AgendaPolicy(), scenario, scripted(left), max_turns=3)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"
    offer = ("At today's prices it comes to £3,340.00 (it was £3,090.00). Shall I book it for "
             "Monday 8 March?")
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=3)
    assert not any(s.lower().startswith("yes") for s in ep.said)
    assert "3340.00" in ep.said[1].replace(",", "") and isinstance(ep.last, Finish)
    same = "Your quote still stands: £3,090.00. Shall I book it for Monday 8 March?"
    ep = await converse(AgendaPolicy(), scenario, scripted(same), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_a_day_the_artist_does_not_work_is_a_refusal_not_a_question_to_answer():
    # Found on a tattoo desk written blind: "Dex doesn't work on Wednesday 16 December ...
    # Which other day would you like?" was answered "No preference, whatever works." (and, in
    # a branch, "The day is 16 December." twice) by a user whose goal named that day.
    goal = "Please move my session with Dex on Friday to 16 December at 2pm — my shifts changed."
    scenario = phone_desk(goal, phone_number="07700 900456", account_pin="5521")
    refused = ("Dex doesn't work on Wednesday 16 December — Dex works Mondays, Tuesdays, "
               "Fridays and Saturdays. Which other day would you like?")
    ep = await converse(AgendaPolicy(), scenario, scripted(refused), max_turns=3)
    assert isinstance(ep.last, Finish) and ep.last.reason == "user_stop"
    assert "16 December" in ep.last.text


async def test_asked_for_another_day_a_goal_that_names_its_day_offers_no_other():
    # The same desk: a user whose goal names the day answered "Which other day would you like?"
    # with "No preference, whatever works", giving up the day its goal insists on.
    goal = "Please move my session with Dex on Friday to 16 December at 2pm — my shifts changed."
    scenario = phone_desk(goal, phone_number="07700 900456", account_pin="5521")
    asked = "That won't suit Dex, I'm afraid. Which other day would you like?"
    ep = await converse(AgendaPolicy(), scenario, scripted(asked), max_turns=2)
    assert "16 December" in ep.said[1] and "whatever works" not in ep.said[1]
    open_goal = phone_desk("Please move my session with Dex.", phone_number="07700 900456",
                           account_pin="5521")  # fmt: skip
    ep = await converse(AgendaPolicy(), open_goal, scripted(asked), max_turns=2)
    assert ep.said[1] in ("I don't mind, any is fine.", "No preference, whatever works.",
                          "Either is fine with me.")  # fmt: skip


PHARMACY = dict(last_name="Tran", date_of_birth="1993-09-05")


async def test_a_ready_time_and_opening_hours_are_not_taken_for_the_pickup_time_offered():
    scenario = phone_desk(
        "Refill RX30589 and pick it up at quarter to three at the Elm Street branch.", **PHARMACY
    )
    offer = ("I can refill RX30589 at Elm Street. It will be ready from 4:00 pm today; we're "
             "open Monday to Friday 9 am to 6 pm. Shall I place the refill?")
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_a_booking_of_the_alternative_the_user_accepted_is_not_objected_to():
    scenario = phone_desk("Book a pick-up next Monday at 10am for RF7105.", **PHARMACY)
    ep = await converse(
        AgendaPolicy(), scenario,
        scripted("Sorry, 10:00 am was just booked by another patient. I can book 10:15 am "
                 "instead. Shall I book it?",
                 "Booked: you can pick up RF7105 on Monday at 10:15 am."),
        max_turns=3,
    )
    assert not any("not right" in s or "I said" in s for s in ep.said)


async def test_no_preference_is_said_once_then_the_request_is_restated():
    scenario = phone_desk("Switch my refill RF7003 from pick-up to home delivery.", **PHARMACY)
    ask = "What day would you like to pick up your refill?"
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=3)
    assert "delivery" in ep.said[2]


async def test_beside_a_refusal_the_proposal_of_the_goals_other_part_is_accepted():
    scenario = phone_desk(
        "I would like to know how many refills are left on my husband's prescription RX30415, "
        "and refill my own lisinopril RX30412.", **PHARMACY,
    )
    reply = ("I can't find RX30415 on your profile, so I can't share anything about it. I can "
             "refill RX30412 (Lisinopril 10 mg). Shall I place the refill?")
    ep = await converse(AgendaPolicy(), scenario, scripted(reply), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


HOTEL = dict(booking_ref="HL31022", last_name="Becker")
FIND = ("I can help. Could you give me your booking reference and the last name on the booking? "
        "If you don't have the reference, the email address you booked with works too.")


async def test_check_out_and_ask_for_are_changes_and_a_request_for_facts_answers_neither():
    for goal in ("I want to check out at noon on our last day instead of 11.",
                 "I want to ask for a baby cot in our room."):
        ep = await converse(AgendaPolicy(), phone_desk(goal, **HOTEL), scripted(FIND),
                            max_turns=2)  # fmt: skip
        assert "HL31022" in ep.said[1] and not isinstance(ep.last, Finish)


async def test_one_day_earlier_is_a_shift_not_a_length_of_stay():
    scenario = phone_desk(
        "I want to arrive one day earlier, on the 17th, and still leave on the 20th.", **HOTEL
    )
    offer = ("The room is free from Wednesday 17 June to Saturday 20 June (3 nights), EUR 140 "
             "more. Shall I change the dates?")
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_keep_what_i_have_declines_the_other_room_offered():
    scenario = phone_desk(
        "Upgrade my room to a suite. If no suite is free, keep the room I have.", **HOTEL
    )
    reply = ("I'm sorry, the suite is fully booked those nights. The Family Room is free: EUR 70 "
             "more. Would you like that instead?")
    ep = await converse(AgendaPolicy(), scenario, scripted(reply), max_turns=2)
    assert not any(s.lower().startswith(("yes", "yep", "sure")) for s in ep.said)
    assert isinstance(ep.last, Finish)


async def test_a_date_of_birth_in_figures_matches_the_users_own_either_way_round():
    scenario = phone_desk("Book a check-up next Thursday.", name="Ann Lee",
                          date_of_birth="1969-11-02")  # fmt: skip
    ask = "I have Ann Lee, born 02/11/1969. Is that right?"
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert not any("not right" in s or "should be" in s for s in ep.said)


def test_a_request_done_to_the_user_is_asked_for_not_spliced_after_i_want_to():
    import random

    from vistasim.scenario import Persona
    from vistasim.user._phrasing import Phrasing, load_templates

    for formality in ("casual", "neutral", "formal"):
        persona = Persona.model_validate({"name": "Dan", "style": {"formality": formality}})
        for seed in range(4):
            ph = Phrasing(templates=load_templates(), persona=persona, rng=random.Random(seed))
            said = ph.request("Sign me up for CS201 Data Structures")
            assert "sign me up for CS201" in said
            assert not any(w in said for w in ("wanna sign", "gotta sign", "like to sign",
                                               "need to sign", "help me sign"))  # fmt: skip


async def test_a_goal_that_will_not_pay_a_fee_declines_a_change_that_costs_one():
    scenario = phone_desk("Switch me to Fix 12, but I won't pay an exit fee.", **HOTEL)
    offer = "Leaving Fix 24 early costs a £150.00 exit fee. Shall I switch you to Fix 12?"
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2)
    assert not ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_an_offer_that_fits_the_goals_fallback_is_taken_one_that_does_not_is_not():
    longest = phone_desk("Spread my balance over 18 months. If that's longer than you allow, "
                         "I'll take the longest plan you offer.", **HOTEL)  # fmt: skip
    offer = ("I'm sorry, a plan can run for at most 12 months, so I can't do 18. Over 12 months "
             "that's £15.71 a month. Shall I set that up?")
    ep = await converse(AgendaPolicy(), longest, scripted(offer), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))
    later = phone_desk("Move my train to Friday at 4 pm. If the 4 pm train is full, the next "
                       "later train on Friday evening is fine.", **HOTEL)  # fmt: skip
    earlier = ("I'm sorry, the 16:00 on Friday is sold out. I can move you from the 18:30 on "
               "Thursday to the 13:45 on Friday. Shall I go ahead?")
    ep = await converse(AgendaPolicy(), later, scripted(earlier), max_turns=2)
    assert "later train on Friday evening" in ep.said[1]


async def test_if_full_ill_leave_it_declines_the_alternative_and_is_cancelled_is_done():
    spin = phone_desk("Book the 7am Spin class tomorrow. If it's full I'll leave it, nothing "
                      "else.", **HOTEL)  # fmt: skip
    offer = ("Sorry, Spin at 07:00 is full. The nearest alternative is Pilates at 12:30. Would "
             "you like me to book that instead?")
    ep = await converse(AgendaPolicy(), spin, scripted(offer), max_turns=2)
    assert not any(s.lower().startswith(("yes", "yep", "sure")) for s in ep.said)
    cancel = phone_desk("Cancel my gym membership.", **HOTEL)
    ep = await converse(AgendaPolicy(), cancel,
                        scripted("Your membership is cancelled and ends on 21 November."),
                        max_turns=2)  # fmt: skip
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_beside_a_refusal_an_offer_of_the_goals_own_time_is_taken():
    scenario = phone_desk(
        "Tell me which classes my partner PF1005 has booked, and book me onto the 12:30 "
        "Pilates tomorrow.", **HOTEL,
    )
    reply = ("I can't share another member's bookings. I can book you on Pilates tomorrow at "
             "12:30. Shall I book it?")
    ep = await converse(AgendaPolicy(), scenario, scripted(reply), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah"))


async def test_a_request_the_agent_left_undone_for_the_fee_the_goal_rules_out_meets_the_goal():
    # The agent says the no for the user: asking again would be repeating a settled request.
    scenario = phone_desk(
        "Could I move my upgrade to Friday instead? Only if it's free — else I'll keep Monday.",
        phone_number="07700 900456", account_pin="5521",
    )
    left = ("Moving it to Friday would cost £15.00, and you asked me to leave it if there was "
            "a charge, so I haven't changed anything. Anything else?")
    ep = await converse(AgendaPolicy(), scenario, scripted(left), max_turns=3)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"
    assert not any("friday" in s.lower() for s in ep.said[1:])
    # Without the price ("I haven't changed anything" alone) it is no answer to the request.
    plain = "I haven't changed anything yet. Anything else?"
    ep = await converse(AgendaPolicy(), scenario, scripted(plain), max_turns=3)
    assert not (isinstance(ep.last, Finish) and ep.last.reason == "goal_met")


async def test_a_repair_the_user_would_rather_not_pay_for_left_unbooked_meets_the_goal():
    # Found on a repairs desk written blind: "If I have to pay for it I'll get my own glazier in
    # instead" set no price on the request, so "rechargeable at £140.00 ... so I haven't booked
    # anything" was no answer, and the user told its story four times over.
    scenario = phone_desk(
        "My son's football has gone through the back bedroom window and cracked it. If I have "
        "to pay for it I'll get my own glazier in instead.", tenancy_ref="OH20111",
    )  # fmt: skip
    left = ("Repairing a window broken by the household would be rechargeable at £140.00, and "
            "you said you'd rather not go ahead if there was a charge, so I haven't booked "
            "anything. Is there anything else I can help with?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(left), max_turns=3)
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_news_then_can_you_asks_for_a_change_and_an_age_and_weight_are_answered():
    # Found on a tours desk written blind: "My sister Kim is visiting — can you add her to our
    # Sea Caves trip?" was read as a question (its verb came after the news), so the user
    # thanked the desk and left before saying yes; "How old is Kim?" and "how much does Kim
    # weigh?" matched no fact it held, and it told its goal again instead.
    scenario = phone_desk(
        "My sister Kim Fraser is visiting — can you add her to our Sea Caves trip on Saturday "
        "4 July?", booking_ref="SW2128", surname="Fraser", age="34", weight="60 kg",
    )  # fmt: skip
    replies = scripted(
        "Thank you. And the lead participant's surname?",
        "Thank you, Zoe — I've found booking SW2128. How old is Kim? (Age on the tour day.)",
        "And roughly how much does Kim weigh? Our kayaks take paddlers up to 120 kg.",
        "To add Kim Fraser (34) to booking SW2128, the Sea Caves Adventure on Saturday 4 July: "
        "£65.00, added to the booking. Shall I add them?",
        "Done.",
    )
    ep = await converse(AgendaPolicy(), scenario, replies, max_turns=5)
    assert "34" in ep.said[2] and "60 kg" in ep.said[3], ep.said
    assert ep.said[4].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said


async def test_days_before_a_goals_deadline_and_an_old_day_are_no_wrong_days():
    # Found on a print-shop desk written blind: "for an event on Saturday" and "so I can collect
    # them by Wednesday 9 December" were read as the days asked for, and the user objected to
    # a rush order dispatched on Tuesday 8 December, until its turns ran out.
    event = phone_desk(
        "I need my flyers (order IW10402) for an event on Saturday — please add rush "
        "production so they arrive sooner, and tell me what it costs.",
        email="ben.carter@example.com",
    )  # fmt: skip
    rush = ("To add rush production to order IW10402: a rush fee of £15.00. It would be "
            "dispatched on Tuesday 8 December and delivered by standard post on Thursday 10 "
            "December instead of Monday 14 December. Shall I add it?")  # fmt: skip
    monday = datetime(2026, 12, 7, 10, tzinfo=UTC)
    collect = phone_desk(
        "Can you rush my flyers on order IW10422 so I can collect them by Wednesday 9 "
        "December? Only add it if they'll be ready by then.", email="victor.webb@example.com",
    )  # fmt: skip
    ready = ("To add rush production to order IW10422: a rush fee of £10.00. It would be ready "
             "to collect on Tuesday 8 December instead of Thursday 10 December. Shall I add it?")
    for scenario, proposal in ((event, rush), (collect, ready)):
        ep = await converse(AgendaPolicy(), scenario, scripted(proposal, "Done."), now=monday,
                            max_turns=2)  # fmt: skip
        reply = ep.said[1].lower()
        assert reply.startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    # A day after the deadline is still objected to.
    late = ready.replace("be ready to collect on Tuesday 8 December", "be dispatched on Friday 11 "
                         "December, to collect")  # fmt: skip
    ep = await converse(AgendaPolicy(), collect, scripted(late, "Done."), now=monday, max_turns=2)
    assert "11 december" in ep.said[1].lower() and "9 december" in ep.said[1].lower(), ep.said


async def test_a_count_said_with_its_noun_is_restated_and_its_parts_are_no_other_count():
    # Found on a museum desk written blind: "To book 3 tickets ...: 1 member ticket (free) and 2
    # guest tickets" for a goal of 3 tickets, 2 of them guests: "3 tickets" was not read as the
    # count restated, and the user objected "I need 3 tickets, not 2" until its turns ran out.
    scenario = phone_desk(
        "Book tickets for the winter exhibition on Wednesday 6 January at 13:00 for me and two "
        "friends.", membership_id="HM20004", slot="Wednesday 6 January at 13:00", tickets="3",
        guests="2",
    )  # fmt: skip
    proposal = ("To book 3 tickets on Wednesday 6 January at 13:00: 1 member ticket (free) and 2 "
                "guest tickets at £9.00 each: £18.00 to pay today. Shall I book them?")
    ep = await converse(AgendaPolicy(), scenario, scripted(proposal, "Done."), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    # A proposal of another count is still objected to.
    fewer = proposal.replace("3 tickets", "2 tickets").replace("2 guest tickets", "1 guest ticket")
    ep = await converse(AgendaPolicy(), scenario, scripted(fewer, "Done."), max_turns=2)
    assert "3 tickets" in ep.said[1] and not ep.said[1].lower().startswith("yes"), ep.said


async def test_an_option_the_user_holds_is_chosen_and_a_second_persons_facts_are_theirs():
    # Found on a museum desk written blind: "Which membership would you like: Individual (£64.00
    # a year), Joint (£98.00, two adults at one address) or Family (...)?" was answered with the
    # address (the user held `kind: Individual`), and "What's the second adult's full name?"
    # with the user's own name, not the `joint_name` it held.
    senior = phone_desk(
        "I'm 72 and I'd like to join, just for myself — is there a concession for people my "
        "age?", kind="Individual", name="Margaret Ellis", address="6 Vicarage Gardens, Halden "
        "HD2 4JJ",
    )  # fmt: skip
    menu = ("Which membership would you like: Individual (£64.00 a year), Joint (£98.00, two "
            "adults at one address) or Family (£112.00, two adults and up to four children "
            "under 18)?")  # fmt: skip
    ep = await converse(AgendaPolicy(), senior, scripted(menu, "Done."), max_turns=2)
    assert "Individual" in ep.said[1] and "Vicarage" not in ep.said[1], ep.said
    family = phone_desk(
        "I'd like a Family membership for me, my partner and our three children.",
        name="James Webb", date_of_birth="2 February 1984", joint_name="Ali Webb",
        joint_date_of_birth="30 June 1986",
    )  # fmt: skip
    replies = scripted("What's the full name of the named member?",
                       "And the named member's date of birth?",
                       "What's the second adult's full name?",
                       "And the second adult's date of birth?", "Done.")  # fmt: skip
    ep = await converse(AgendaPolicy(), family, replies, max_turns=5)
    assert "James Webb" in ep.said[1] and "1984" in ep.said[2], ep.said
    assert "Ali Webb" in ep.said[3] and "1986" in ep.said[4], ep.said


async def test_a_visit_by_a_later_day_keeps_today_and_so_not_the_goals_day_takes_the_fallback():
    # Found on a lettings desk written blind: "I need someone today" was objected to against "a
    # contractor attends within 24 hours, by Thursday 10 December" (a deadline today is within),
    # and "any day from the 1st to the 28th, so not the 30th" was not read as declining the
    # 30th, so the goal's "If that's not possible, the 28th will do" was never said.
    wednesday = datetime(2026, 12, 9, 10, tzinfo=UTC)
    leak = phone_desk("Water is coming through my bathroom ceiling. I need someone today.",
                      tenancy_ref="HRL-1010")  # fmt: skip
    visit = ("I'll log this as an emergency repair (leak): a contractor attends within 24 hours, "
             "by Thursday 10 December 2026, 10:00. Shall I log it?")
    ep = await converse(AgendaPolicy(), leak, scripted(visit, "Done."), now=wednesday,
                        max_turns=2)  # fmt: skip
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    late = visit.replace("within 24 hours, by Thursday 10 December", "on Friday 11 December")
    ep = await converse(AgendaPolicy(), leak, scripted(late, "Done."), now=wednesday, max_turns=2)
    assert "11 december" in ep.said[1].lower(), ep.said
    rent = phone_desk("Can my rent be taken on the 30th instead? If that's not possible, the 28th "
                      "will do.", tenancy_ref="HRL-1014")  # fmt: skip
    rule = ("Rent can be collected on any day from the 1st to the 28th, so not the 30th. Which "
            "day of the month would you like your rent collected on?")
    ep = await converse(AgendaPolicy(), rent, scripted(rule, "Done."), now=wednesday, max_turns=2)
    assert "28th" in ep.said[1], ep.said


async def test_a_slot_named_with_figures_is_said_in_words_not_as_its_machine_name():
    # Found on an EV charging desk written blind: `card_last4` was said "My last4 is 7878",
    # which the desk could not read, so it asked again until the turns ran out.
    scenario = phone_desk("Please top up my balance with £40.", email="umar.dar@example.com",
                          card_last4="7878")  # fmt: skip
    replies = scripted("What's the email address on your account?",
                       "Thank you. And the last 4 digits of the payment card on your account?",
                       "Done.")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, replies, max_turns=3)
    assert "7878" in ep.said[2] and "last4" not in ep.said[2], ep.said
    assert "last 4 digits" in ep.said[2].lower() or ep.said[2].strip(" .") == "7878", ep.said


async def test_an_old_card_and_a_changes_target_are_not_wrong_values_of_the_users_own():
    # Found on an EV charging desk written blind: "I paid for it with my old card; I've changed
    # cards since" and a refund "to the card it was paid with, ending 3311" were objected to as
    # the card on file (7720); "To change your email to vera.lamb@newmail.org" as the email on
    # the account, though the goal asked for that change.
    old = phone_desk("My charge on 8 December failed but I was still charged £15.80 — please "
                     "refund it. I paid for it with my old card; I've changed cards since.",
                     email="chloe.dunn@example.com", card_last4="7720")  # fmt: skip
    refund = ("To refund £15.80 for session VS30311 to the card it was paid with, ending 3311. "
              "Shall I go ahead?")
    ep = await converse(AgendaPolicy(), old, scripted(refund, "Done."), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    email = phone_desk("Please change my email to vera.lamb@newmail.org.",
                       email="vera.lamb@example.com", new_email="vera.lamb@newmail.org")
    change = "To change your email to vera.lamb@newmail.org. Shall I update it?"
    ep = await converse(AgendaPolicy(), email, scripted(change, "Done."), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    wrong = change.replace("vera.lamb@newmail.org", "vera.lamb@newmail.com")
    ep = await converse(AgendaPolicy(), email, scripted(wrong, "Done."), max_turns=2)
    assert "newmail.org" in ep.said[1], ep.said


async def test_the_users_own_name_is_given_from_a_callers_name_or_the_persona():
    # Found on an exam board desk written blind: a mother holding `caller_name: Nisha Patel`
    # was asked "may I have your own full name, please?" and said "I don't have my name on
    # hand"; the desk refused her, and the user could not follow the refusal (invalid).
    ask = ("Thank you, I've found the candidate's record. As you're contacting us for them, may "
           "I have your own full name, please?")
    held = phone_desk("I'd like to enter my daughter Maya for the B2 exam.",
                      candidate_id="NA31020", caller_name="Nisha Patel")  # fmt: skip
    ep = await converse(AgendaPolicy(), held, scripted(ask, "Done."), max_turns=2)
    assert "Nisha Patel" in ep.said[1], ep.said
    persona = phone_desk("I'd like to enter my daughter Maya for the B2 exam.",
                         candidate_id="NA31020")  # fmt: skip
    ep = await converse(AgendaPolicy(), persona, scripted(ask, "Done."), max_turns=2)
    assert "Hannah Lewis" in ep.said[1], ep.said


async def test_a_callers_name_is_said_as_the_users_own_name():
    # Found on a swim school desk written blind: `caller_name: Gary Hill` was said "Caller's
    # name: Gary Hill", read by the desk as the name "Caller's Gary Hill" (not on the account).
    scenario = phone_desk("Please update my email address to gary.hill@newmail.co.uk.",
                          account_id="RS2018", caller_name="Gary Hill")  # fmt: skip
    for lexicon in ({}, {"caller_name": ["your name", "your full name"]}):  # the desk's own
        ask = scripted("And may I take your full name, please?", "Done.")
        ep = await converse(AgendaPolicy(), scenario, ask, lexicon=lexicon, max_turns=2)
        assert "Gary Hill" in ep.said[1] and "caller" not in ep.said[1].lower(), ep.said
        assert "name is gary hill" in ep.said[1].lower(), ep.said  # not "Name: Gary Hill"


async def test_a_date_on_the_weekday_a_class_day_names_is_no_other_day():
    # Seen by the helper writing a swim school desk blind: for `class_day: Saturday` the user
    # objected "it should be Saturday, not Saturday 20 March" to a move "from Saturday 20
    # March"; the desk was changed to say no date, and the user is fixed here.
    tuesday = datetime(2027, 2, 23, 10, tzinfo=UTC)
    scenario = phone_desk("Please move Lily to the Saturday class next term instead.",
                          account_id="RS2005", class_day="Saturday")  # fmt: skip
    move = ("To move Lily from Tuesdays at 16:30 to Saturdays at 09:30, from Saturday 20 March. "
            "There's no charge. Shall I move Lily?")
    ep = await converse(AgendaPolicy(), scenario, scripted(move, "Done."), now=tuesday,
                        max_turns=2)  # fmt: skip
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    sunday = move.replace("to Saturdays", "to Sundays").replace("Saturday 20", "Sunday 21")
    ep = await converse(AgendaPolicy(), scenario, scripted(sunday, "Done."), now=tuesday,
                        max_turns=2)  # fmt: skip
    assert "saturday" in ep.said[1].lower(), ep.said


async def test_a_rule_that_offers_less_than_asked_takes_the_goals_fallback():
    # Found on a council tax desk written blind: "over at most 6 months, so that's 6 months
    # rather than 12 ... Shall I set it up?" for "over 12 months? If not, as long as you can
    # allow" was objected to as "I need 12 months" until the turns ran out; and "Could my direct
    # debit come out on the 28th? If that's not possible, the 22nd." was read as a question the
    # refusal answered, so the user left without saying "the 22nd".
    arrears = phone_desk("I'm behind on my council tax. Can I pay off the arrears over 12 "
                         "months? If not, as long as you can allow.", account_id="61004005",
                         months="12")  # fmt: skip
    offer = ("We can spread arrears over at most 6 months, so that's 6 months rather than 12. To "
             "set up a payment arrangement for your £480.00 arrears: £80.00 a month for 6 months. "
             "Shall I set it up?")  # fmt: skip
    ep = await converse(AgendaPolicy(), arrears, scripted(offer, "Done."), max_turns=2)
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that's right")), ep.said
    debit = phone_desk("Could my direct debit come out on the 28th? If that's not possible, the "
                       "22nd.", account_id="61004022")  # fmt: skip
    rule = ("We can only take direct debits on the 1st, 8th, 15th or 22nd, so not the 28th. Which "
            "date would you like: the 1st, 8th, 15th or 22nd of the month?")
    ep = await converse(AgendaPolicy(), debit, scripted(rule, "Done."), max_turns=2)
    assert "22nd" in ep.said[1], ep.said


async def test_asking_leave_to_do_something_is_a_request_not_a_question():
    # Found on a council tax desk written blind: "Can I spread what's left of this year's
    # council tax over 12 instalments instead of 10?" was read as a question, and the user
    # thanked the desk and left when it asked for the postcode.
    scenario = phone_desk("Can I spread what's left of this year's council tax over 12 "
                          "instalments instead of 10?", account_id="61004009",
                          postcode="HF4 6RS")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario,
                        scripted("Thank you. And the postcode of the property?", "Done."),
                        max_turns=2)  # fmt: skip
    assert "HF4 6RS" in ep.said[1], ep.said


async def test_a_part_of_the_day_offered_with_its_hours_is_chosen_by_the_goals():
    # Pest control: "Morning (8am to 12pm) or afternoon (12pm to 5pm)?" was answered "(8am".
    scenario = phone_desk(
        "Please send someone back on Monday 14 December, in the afternoon.",
        account_id="PC2006", slot="afternoon",
    )
    ask = "Morning (8am to 12pm) or afternoon (12pm to 5pm) on Monday 14 December?"
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "afternoon" in ep.said[1].lower() and "8am" not in ep.said[1]
    assert "(" not in ep.said[1]


async def test_with_no_part_of_the_day_in_the_goal_the_first_offered_is_chosen_by_name():
    # Chimney sweeps, a branch: "Would you like the morning (08:00–12:00) or the afternoon
    # (13:00–17:00) on Saturday 16 January?" was answered "I'll take 08:00–12:00", which the
    # desk read as the afternoon (the last time said).
    scenario = phone_desk("Book a sweep for my open fire on Saturday 16 January.",
                          account_id="SA3005")  # fmt: skip
    ask = ("Would you like the morning (08:00–12:00) or the afternoon (13:00–17:00) on Saturday "
           "16 January?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "morning" in ep.said[1].lower() and "08:00" not in ep.said[1]


async def test_a_fact_of_the_goals_other_request_is_not_checked_against_this_one():
    # Translation: the quote's "3-page" contract made "the diploma, 2 pages" of the upgrade's
    # proposal a wrong page count, objected to until the chat ran out.
    scenario = phone_desk(
        "Please upgrade my Turkish diploma, order TR7023, to rush, and send me a quote for a "
        "3-page Spanish contract into English, standard, not certified.",
        order_id="TR7023", pages="3", source_language="Spanish",
    )
    ask = ("To upgrade order TR7023 (your diploma, 2 pages Turkish to English) to rush: a "
           "surcharge of £34.00, taken from your card ending 1357. Shall I upgrade it?")
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "3" not in ep.said[1] and "not 2" not in ep.said[1]
    wrong = ("To send a quote for 2 pages of a Spanish contract into English, standard: £56.00. "
             "Shall I email it to you?")
    ep = await converse(AgendaPolicy(), scenario, scripted(wrong), max_turns=2)
    assert "3" in ep.said[1]


async def test_a_yes_no_question_that_states_a_held_value_is_answered_yes_not_with_the_value():
    # Translation: "Shall I email this to you at tom.ridley@example.com as a written quote?"
    # was answered "The email on the account is tom.ridley@example.com." until the chat ended.
    scenario = phone_desk(
        "Could you send me a quote for translating 12 pages of Spanish into English?",
        email="tom.ridley@example.com", pages="12",
    )
    ask = ("For a 12-page Spanish to English translation: £336.00. Shall I email this to you at "
           "tom.ridley@example.com as a written quote? It's valid for 30 days.")
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "@" not in ep.said[1]
    ask_other = "Shall I email this to you? Which email address should I use?"
    ep = await converse(AgendaPolicy(), scenario, scripted(ask_other), max_turns=2)
    assert "tom.ridley@example.com" in ep.said[1]


async def test_a_day_asked_for_that_only_the_goals_fallback_names_is_the_fallback():
    # Water supply: "Could my direct debit come out on the last day of the month? If you can't
    # do that, the 28th." met "We can only take direct debits on the 1st to the 28th. Which
    # day of the month would you like it taken?" with "Yes, go ahead." twice.
    scenario = phone_desk(
        "Could my direct debit come out on the last day of the month? If you can't do that, "
        "the 28th.",
        account_id="BW3008",
    )
    ask = ("We can only take direct debits on the 1st to the 28th of the month. Which day of "
           "the month would you like it taken? Any day from the 1st to the 28th.")
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "28th" in ep.said[1]
    named = {"payment_day": ["which day of the month"]}  # the desk names the slot asked for
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2, lexicon=named)
    assert "28th" in ep.said[1]


async def test_dates_told_beside_a_refusal_with_nothing_offered_are_no_alternative_to_accept():
    # Tennis club: "can't be made mid-year ... renewal opens on 1 September 2027 — you can renew
    # as Off-peak then. Nothing has been changed. Anything else?" got "Yes, please." twice.
    scenario = phone_desk(
        "I'd like to switch my membership to off-peak from now on and pay less.",
        member_id="ALT2020", tier="Off-peak",
    )
    refused = (
        "A move to a cheaper membership can't be made mid-year: it takes effect when you renew. "
        "Your Adult membership runs to 31 October 2027, and renewal opens on 1 September 2027 — "
        "you can renew as Off-peak then. Nothing has been changed. Is there anything else I "
        "can help with?"
    )
    ep = await converse(AgendaPolicy(), scenario, scripted(refused), max_turns=2)
    assert isinstance(ep.last, Finish), ep.said
    offered = "Sorry, Friday morning is fully booked. Friday at 15:00 is free."
    booking = phone_desk("Book me a massage on Friday.", account_pin="7715")
    ep = await converse(AgendaPolicy(), booking, scripted(offered), max_turns=2)
    assert not isinstance(ep.last, Finish)


async def test_a_fallback_that_is_a_request_is_no_day_to_give_for_a_date_of_birth():
    # Library: "If I'm at my limit of holds, cancel my hold on The Thursday Murder Club" was
    # said in answer to "your email address and date of birth will do".
    scenario = phone_desk(
        "Put a hold on Babel for me, collecting at Northgate. If I'm at my limit of holds, "
        "cancel my hold on The Thursday Murder Club to make room for it.",
        card_number="RL-20741", pin="3310",
    )
    ask = ("Could you give me your library card number and PIN? If you don't have your card, "
           "your email address and date of birth will do.")
    named = {"date_of_birth": ["date of birth"], "email": ["email address"]}
    now = datetime(2026, 12, 7, 10, tzinfo=UTC)  # with a day, "Thursday" reads as a date
    ep = await converse(
        AgendaPolicy(), scenario, scripted(ask), max_turns=2, lexicon=named, now=now
    )
    assert "RL-20741" in ep.said[1] and "Murder" not in ep.said[1]


async def test_a_question_whose_fallback_leaves_things_as_they_are_ends_at_its_refusal():
    # Coach tours: "Can I be picked up in Bristol instead? If not, leave it as it is." asked
    # again and again after "Bristol isn't a pick-up point on this tour. Nothing has changed."
    scenario = phone_desk(
        "Can I be picked up in Bristol instead of Birmingham for the Bath trip? If not, leave "
        "it as it is.",
        booking_ref="WF30112",
    )
    refused = ("I'm sorry — Bristol isn't a pick-up point on this tour. Its pick-up points are: "
               "Birmingham (08:00); Worcester (08:45). Nothing has been changed. Is there "
               "anything else I can help with?")
    ep = await converse(AgendaPolicy(), scenario, scripted(refused), max_turns=2)
    assert isinstance(ep.last, Finish), ep.said


async def test_a_request_after_a_leading_phrase_and_please_is_a_request_of_its_own():
    # Lounge: "For our Heathrow visit on 27 December, please add fast track for both of us and
    # book a spa treatment at 12:00" held the spa's 12:00 against the visit's "11:00 to 14:00".
    scenario = phone_desk(
        "For our Heathrow visit on 27 December, please add fast track for both of us and book a "
        "spa treatment at 12:00.",
        account_id="SR4015", spa_time="12:00",
    )
    ask = ("To add security fast track for 2 people at £7.50 each to LV7015 (Heathrow Terminal "
           "5, Sunday 27 December, 11:00 to 14:00): £15.00. Shall I add it?")
    ep = await converse(AgendaPolicy(), scenario, scripted(ask), max_turns=2)
    assert "12:00" not in ep.said[1], ep.said


async def test_a_request_after_the_news_with_a_question_after_it_is_a_change():
    # Valeting, written blind: "My car has gone into the garage, so please cancel Thursday's
    # valet. What do I get back?" read as a question only, and the desk's "And the
    # registration of your vehicle?" answered it: the user thanked the desk and left.
    scenario = phone_desk(
        "My car has gone into the garage, so please cancel Thursday's valet. What do I get back?",
        customer_id="SC1015", registration="RJ70 UYT",
    )
    who = ("Before I can help I need to check it's you. What's your customer number? It starts "
           "SC and has four digits — it's on your booking emails.")  # fmt: skip
    ask = "Thank you. And the registration of your vehicle?"
    ep = await converse(AgendaPolicy(), scenario, scripted(who, ask), max_turns=3)
    assert not isinstance(ep.actions[2], Finish), ep.actions[2]
    assert "RJ70 UYT" in ep.said[2]


async def test_asking_for_the_earliest_visit_waits_for_a_day():
    # Boiler service, written blind: "What's the earliest an engineer could come ...? ... please
    # don't book anything" was answered by the verification's "It starts HW and has five
    # digits": the user thanked the desk before it had said any day.
    scenario = phone_desk(
        "What's the earliest an engineer could come and service my boiler? I'm only asking for "
        "now, so please don't book anything.",
        customer_id="HW20122", postcode="KV4 2JS",
    )
    who = ("First I need to check who I'm speaking to. What's your customer number? It starts "
           "HW and has five digits — it's on your last invoice or booking email.")  # fmt: skip
    ask = "Thank you. And the postcode of the property?"
    ep = await converse(AgendaPolicy(), scenario, scripted(who, ask), max_turns=3)
    assert not isinstance(ep.actions[2], Finish), ep.actions[2]
    assert "KV4 2JS" in ep.said[2]


async def test_a_trip_pushed_back_two_weeks_is_no_length_of_two_weeks():
    # Campervan hire, written blind: "push our March trip back two weeks: pick up Tuesday 16
    # March and bring it back Friday 19 March" turned down the 3-day move it asked for ("it
    # should be two weeks, not 3 days") until the chat ran out.
    scenario = phone_desk(
        "We'd like to push our March trip back two weeks: pick up Tuesday 16 March and bring it "
        "back Friday 19 March.",
        customer_id="DW1006", postcode="TA1 4DY",
    )
    offer = ("To move booking VB3006 (2-berth, Tuesday 2 March 2027 to Friday 5 March 2027) to "
             "Tuesday 16 March 2027 to Friday 19 March 2027: 3 days at £85.00 (mid season), so "
             "the hire becomes £255.00. Shall I make the change?")  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted(offer), max_turns=2,
                         now=datetime(2026, 12, 10, 9, 30, tzinfo=UTC))
    assert ep.said[1].startswith(("Yes", "Yep", "Sure", "Please")), ep.said[1]
