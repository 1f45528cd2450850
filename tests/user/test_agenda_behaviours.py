"""The agenda user plays scenario behaviours: hesitate, correct, change_mind, withhold,
out_of_order, second_request, impatient; and it never reads instructions aloud."""

from vistasim.scenario import Behaviour
from vistasim.user import AgendaPolicy, Finish, Say
from vistasim.user._agenda_ops import Operation, apply_operation

from ._driver import converse, make_scenario, scripted

CONFIRM = "I'll cancel order W1003. Shall I proceed (yes/no)?"
DONE = "Done — order W1003 has been cancelled. Anything else?"


def cancel(behaviours, **overrides):
    fields = {
        "goal": "Cancel order W1003.",
        "knowledge": {"order_id": "W1003", "email": "ann@example.com"},
        "hidden": {},
        "agenda": [
            {
                "intent": "cancel_order",
                "slots": {"order_id": "W1003", "email": "ann@example.com"},
                "behaviours": behaviours,
            }
        ],
    }
    return make_scenario(**{**fields, **overrides})


async def test_hesitate_hedges_at_the_confirmation_then_leaves_it():
    ep = await converse(
        AgendaPolicy(), cancel([{"op": "hesitate"}]), scripted(CONFIRM, "Okay, I'll hold off.")
    )
    hedge = ep.said[1].lower()
    assert any(w in hedge for w in ("wait", "hold on", "not yet")), hedge
    assert "yes" not in hedge.split(",")[0]
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_hesitate_then_confirm_says_yes_the_second_time():
    ep = await converse(
        AgendaPolicy(), cancel([{"op": "hesitate", "then": "confirm"}]),
        scripted(CONFIRM, "No problem. Shall I cancel W1003 now (yes/no)?", DONE),
    )  # fmt: skip
    assert "wait" in ep.said[1].lower() or "not yet" in ep.said[1].lower()
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that"))


async def test_hesitate_that_stops_declines_a_second_confirmation():
    ep = await converse(AgendaPolicy(), cancel([{"op": "hesitate"}]), scripted(CONFIRM))
    assert ep.said[2].lower().startswith("no")


async def test_correct_says_the_wrong_value_then_takes_it_back():
    scenario = cancel([{"op": "correct", "slot": "order_id", "wrong": "W1030"}])
    ep = await converse(AgendaPolicy(), scenario, scripted(DONE))
    first = ep.said[0]
    assert first.index("W1030") < first.index("W1003")
    assert any(cue in first for cue in ("sorry", "I mean", "make that", "no wait"))


async def test_correct_plays_once():
    scenario = cancel([{"op": "correct", "slot": "order_id", "wrong": "W1030"}])
    ep = await converse(AgendaPolicy(), scenario, scripted("Which order number?", DONE))
    assert sum("W1030" in said for said in ep.said) == 1


async def test_change_mind_asks_for_the_first_value_then_switches():
    scenario = cancel([{"op": "change_mind", "slot": "order_id", "first": "W1004"}])
    scenario = scenario.model_copy(update={"goal": "Cancel order W1003."})
    confirm_first = "I'll cancel order W1004. Shall I proceed (yes/no)?"
    ep = await converse(AgendaPolicy(), scenario, scripted(confirm_first, CONFIRM, DONE))
    assert "W1004" in ep.said[0] and "W1003" not in ep.said[0]
    assert "W1003" in ep.said[1] and "W1004" in ep.said[1]
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that"))


async def test_withhold_keeps_a_fact_back_until_asked_twice():
    scenario = cancel([{"op": "withhold", "slot": "email"}])
    ask = "What's the email on the account?"
    ep = await converse(AgendaPolicy(), scenario, scripted(ask, ask, DONE))
    assert "ann@example.com" not in ep.said[0] + ep.said[1]
    assert "email" in ep.said[1].lower()
    assert "ann@example.com" in ep.said[2]


async def test_out_of_order_gives_every_fact_up_front():
    scenario = cancel(
        [{"op": "out_of_order"}], persona={"name": "Ann", "style": {"verbosity": "low"}}
    )
    ep = await converse(AgendaPolicy(), scenario, scripted(DONE))
    assert "W1003" in ep.said[0] and "ann@example.com" in ep.said[0]


async def test_second_request_adds_the_next_sub_goal_early():
    scenario = make_scenario(
        goal="Cancel W1003 and check W1004.",
        knowledge={"email": "ann@example.com"},
        agenda=[
            {"intent": "cancel_order", "slots": {"order_id": "W1003"},
             "behaviours": [{"op": "second_request"}]},
            {"intent": "order_status", "slots": {"order_id": "W1004"}},
        ],
    )  # fmt: skip
    ep = await converse(AgendaPolicy(), scenario, scripted("What's your email?", DONE))
    assert "W1004" not in ep.said[0]
    assert "ann@example.com" in ep.said[1] and "W1004" in ep.said[1]


async def test_impatient_gives_up_sooner_and_says_so():
    calm = await converse(AgendaPolicy(), cancel([]), scripted("Hello!"))
    rushed = await converse(AgendaPolicy(), cancel([{"op": "impatient"}]), scripted("Hello!"))
    assert len(rushed.actions) < len(calm.actions)
    assert any(
        p in " ".join(rushed.said)
        for p in ("taking a while", "already explained", "just need this sorted")
    )


async def test_scenario_instructions_are_never_said_aloud():
    scenario = cancel(
        [{"op": "hesitate"}],
        goal="Ask about cancelling order W1003, but hesitate and do not confirm it yet.",
    )
    ep = await converse(AgendaPolicy(), scenario, scripted(CONFIRM, "Okay."))
    spoken = " ".join(ep.said).lower()
    assert "hesitate" not in spoken and "do not confirm" not in spoken
    assert "w1003" in ep.said[0].lower()


async def test_a_scenario_needing_an_llm_user_is_unplayable():
    scenario = cancel([], tags=["needs:llm-user"])
    assert "needs:llm-user" in AgendaPolicy().unplayable(scenario)
    assert AgendaPolicy().unplayable(cancel([])) is None


async def test_every_behaviour_result_is_a_message():
    for op in ("hesitate", "out_of_order", "impatient"):
        ep = await converse(AgendaPolicy(), cancel([{"op": op}]), scripted(CONFIRM, DONE))
        assert all(isinstance(a, Say | Finish) for a in ep.actions)


async def test_after_go_ahead_a_reply_that_lost_the_request_is_not_taken_as_done():
    # The agent held off, the user said go ahead, and the agent lost the proposal ("didn't
    # follow"): nothing is done, so the user asks again instead of thanking it and leaving.
    lost = "Sorry, I didn't quite follow. I can help with orders. What would you like to do?"
    ep = await converse(
        AgendaPolicy(), cancel([{"op": "hesitate", "then": "confirm"}]),
        scripted(CONFIRM, "Okay, I haven't changed anything.", lost, CONFIRM, DONE),
    )  # fmt: skip
    assert "W1003" in ep.said[3] or "cancel" in ep.said[3].lower(), ep.said
    assert ep.said[4].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"



PAY_FIRST = "I'll take £62.50 for invoice INV-4440, leaving £77.50 to pay. Shall I go ahead?"
# A negation earlier in the sentence keeps the contradiction check from reading it as a proposal.
PAY_AGAIN = "Sorry, I didn't catch that — I'll take £62.50 for invoice INV-4440. Go ahead?"
PAY_WANTED = "I'll take £50.00 for invoice INV-4440, leaving £90.00 to pay. Shall I go ahead?"


class _Drawn(AgendaPolicy):
    """The agenda user of a scenario without an agenda, given one operation (as a draw does)."""

    def __init__(self, behaviour: dict[str, str]) -> None:
        super().__init__()
        self.behaviour = Behaviour.model_validate(behaviour)

    def initial_state(self, scenario, seed=0):
        state = super().initial_state(scenario, seed=seed)
        return apply_operation(state, Operation(source="drawn", behaviour=self.behaviour))


PAY = make_scenario(
    goal="Pay £50 towards Teddy's X-ray bill today and find out what is left to pay after that.",
    knowledge={"client_number": "C1609", "pet_name": "Teddy", "amount": "£50"},
    hidden={},
    agenda=[],
)


async def test_after_a_change_of_mind_the_value_called_off_is_not_confirmed():
    # "I changed my mind — £50, not £62.50", then "Sorry, I didn't catch that — I'll take
    # £62.50": confirming it would approve what the user called off (and judge the agent by a
    # payment the user never wanted).
    user = _Drawn({"op": "change_mind", "slot": "amount", "first": "£62.50"})
    ep = await converse(user, PAY, scripted(PAY_FIRST, PAY_AGAIN, PAY_WANTED))
    assert "£62.50" in ep.said[0] and "£50" in ep.said[1]
    objection = ep.said[2]
    assert "£50" in objection and "£62.50" in objection, objection
    assert not objection.lower().startswith(("yes", "yep", "sure")), objection
    assert ep.said[3].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said[3]


async def test_a_value_taken_back_in_the_opening_is_objected_to_when_proposed():
    user = _Drawn({"op": "correct", "slot": "amount", "wrong": "£62.50"})
    ep = await converse(user, PAY, scripted(PAY_AGAIN, PAY_WANTED))
    assert "£62.50" in ep.said[0] and "£50" in ep.said[0]
    assert "£50" in ep.said[1] and "£62.50" in ep.said[1], ep.said[1]
    assert ep.said[2].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said[2]


async def test_an_amend_whose_first_value_has_no_open_section_is_taken_back():
    # "Sorry — there are no open sections of BIO102. Pass this to an advisor (yes/no)?" was
    # read as no refusal, so the user answered "Yes please, but change it to BIO101" and the
    # agent was blamed for escalating without the change.
    enroll = [{"intent": "enroll", "slots": {"course": "BIO101"}}]
    scenario = make_scenario(goal="Enroll me in BIO101 as well.", knowledge={}, agenda=enroll)
    none_open = ("Sorry — there are no open sections of BIO102 right now. Would you like me to "
                 "pass this to an advisor (yes/no)?")  # fmt: skip
    user = _Drawn({"op": "amend", "slot": "course", "first": "BIO102"})
    ep = await converse(user, scenario, scripted(none_open, "Enrolled in BIO101-A. Anything else?"))
    assert "BIO102" in ep.said[0]
    assert "BIO101" in ep.said[1] and not ep.said[1].lower().startswith("yes"), ep.said


async def test_a_refusal_of_the_id_taken_back_gets_the_one_meant():
    # "R207, no wait, I meant R205", then "R207 isn't on your account, so I can't extend it":
    # the agent read the id the user took back; the user says the one it meant, not goodbye.
    scenario = make_scenario(
        goal="Extend my rental R205 by an hour.", knowledge={"rental_id": "R205"}, hidden={},
        agenda=[{"intent": "extend_rental", "slots": {"rental_id": "R205"}}],
    )  # fmt: skip
    user = _Drawn({"op": "correct", "slot": "rental_id", "wrong": "R207"})
    refused = "Sorry, R207 isn't one of your rentals, so I can't extend it. Anything else?"
    ep = await converse(user, scenario, scripted(refused, "R205 is extended by an hour."))
    assert "R207" in ep.said[0] and "R205" in ep.said[0]
    assert "R205" in ep.said[1] and "R207" in ep.said[1], ep.said


RESCHEDULE = make_scenario(
    goal="Move my ECON301 final to the December 18 session.",
    knowledge={"student_id": "S1002", "email": "omar.haddad@uni.example.edu"}, hidden={},
    agenda=[{"intent": "reschedule_exam", "slots": {"student_id": "S1002"}}],
)  # fmt: skip
MISMATCH = "That email doesn't match our records for S1003. Could you check it?"


async def test_a_doubt_about_the_value_it_meant_to_amend_puts_it_right():
    # The user said S1003 meaning to amend it at the confirmation; the agent rightly would not
    # verify S1003 against its e-mail. Giving the e-mail again looped until the user gave up
    # and the agent was blamed.
    user = _Drawn({"op": "amend", "slot": "student_id", "first": "S1003"})
    asked = "Sure. What's your student ID and the email on your record?"
    ep = await converse(user, RESCHEDULE, scripted(asked, MISMATCH, "Moved. Anything else?"))
    assert "S1003" in ep.said[1]
    assert "S1002" in ep.said[2] and "omar.haddad" not in ep.said[2], ep.said


async def test_a_doubt_about_the_value_taken_back_gets_the_one_meant():
    # "S1003 — sorry, I mean S1002", and the agent checked S1003 anyway.
    user = _Drawn({"op": "correct", "slot": "student_id", "wrong": "S1003"})
    ep = await converse(user, RESCHEDULE, scripted(MISMATCH, "Moved. Anything else?"))
    assert "S1003" in ep.said[0] and "S1002" in ep.said[0]
    assert "S1002" in ep.said[1] and "S1003" in ep.said[1], ep.said


async def test_a_drawn_value_replaces_the_slot_not_a_piece_of_an_id():
    # Size "10" is not the "10" of order W1040: the branch meant to ask for size 11 asked for
    # order W1140, and the agent was blamed when the user could not name the sneakers.
    exchange = make_scenario(
        goal="Exchange the trailrunner sneakers from order W1040 for size 10.",
        knowledge={"order_id": "W1040"}, hidden={},
        agenda=[{"intent": "exchange_item", "slots": {"order_id": "W1040", "new_option": "10"}}],
    )  # fmt: skip
    for behaviour in (
        {"op": "amend", "slot": "new_option", "first": "11"},
        {"op": "correct", "slot": "new_option", "wrong": "11"},
    ):
        ep = await converse(_Drawn(behaviour), exchange, scripted("Done. Anything else?"))
        assert "W1040" in ep.said[0] and "W1140" not in ep.said[0], ep.said[0]
        assert "11" in ep.said[0].split("W1040", 1)[1], ep.said[0]


async def test_options_without_the_value_said_first_get_the_one_meant():
    # It asked for size 11 meaning to amend it to 10; "Options: 8, 9, 10." got "11" four times.
    exchange = make_scenario(
        goal="Exchange my sneakers for size 10.", knowledge={}, hidden={},
        agenda=[{"intent": "exchange_item", "slots": {"item": "sneakers", "new_option": "10"}}],
    )  # fmt: skip
    options = "Which new option would you like instead? Options: 8, 9, 10."
    for op in ("amend", "change_mind"):
        user = _Drawn({"op": op, "slot": "new_option", "first": "11"})
        ep = await converse(user, exchange, scripted(options, "Exchanged. Anything else?"))
        assert "11" in ep.said[0], ep.said[0]
        assert "10" in ep.said[1], ep.said


async def test_a_refused_value_is_not_insisted_on_when_the_goal_has_a_fallback():
    # "FRESH16. Actually, make that FRESH15", FRESH15 expired, and the agent offered FRESH16
    # again: "it should be FRESH15" looped until the turns ran out; BASKET3 is the fallback.
    voucher = make_scenario(
        goal="Use the voucher FRESH15 on my order. If that one doesn't work, use BASKET3 instead.",
        knowledge={"code": "FRESH15", "fallback_code": "BASKET3"}, hidden={},
        agenda=[{"intent": "apply_voucher", "slots": {"code": "FRESH15"}}],
    )  # fmt: skip
    offer = "I'll apply voucher {} to order FB-58320. Shall I go ahead?"
    expired = ("Sorry, I couldn't apply FRESH15: voucher FRESH15 expired on Sunday 15 November. "
               "You mentioned FRESH16 as well. " + offer.format("FRESH16"))  # fmt: skip
    user = _Drawn({"op": "correct", "slot": "code", "wrong": "FRESH16"})
    agent = scripted(offer.format("FRESH15"), expired, "BASKET3 is on FB-58320.")
    ep = await converse(user, voucher, agent)
    assert "FRESH16" in ep.said[0] and ep.said[1].lower().startswith(("yes", "yep", "sure"))
    assert "BASKET3" in ep.said[2] and "FRESH15" not in ep.said[2], ep.said


async def test_after_the_goal_is_done_an_offer_that_undoes_it_is_declined():
    # "Done — it's an SUV now. Switching from SUV to economy would refund £72: shall I?" got
    # "Yes, please proceed" (carhire, seed 2 of the fourth session).
    upgrade = make_scenario(
        goal="Upgrade my car hire CLH-20413 to an SUV.",
        knowledge={"booking_ref": "CLH-20413"}, hidden={}, agenda=[],
    )  # fmt: skip
    done = ("Done — booking CLH-20413 is now an SUV (£68.00 a day); £72.00 has been charged. "
            "Switching booking CLH-20413 from SUV (£68.00 a day) to economy (£32.00 a day) "
            "would refund £72.00. Shall I go ahead?")  # fmt: skip
    ep = await converse(AgendaPolicy(), upgrade, scripted(done, "It's economy again."))
    assert ep.said[1].lower().startswith("no"), ep.said
    also = "Done — booking CLH-20413 is now an SUV. Shall I add a second driver too?"
    ep = await converse(AgendaPolicy(), upgrade, scripted(also, "Added."))
    assert not ep.said[1].lower().startswith("no"), ep.said


async def test_an_amend_is_not_played_on_a_proposal_that_already_has_the_value():
    # "Yes please, but change it to W1004" to "I'll return the speaker from order W1004":
    # the user had already put the order right.
    user = _Drawn({"op": "amend", "slot": "order_id", "first": "W1030"})
    ep = await converse(user, cancel([]), scripted(CONFIRM, DONE))
    assert "W1030" in ep.said[0], ep.said
    assert ep.said[1].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said
    assert "instead" not in ep.said[1] and "change it" not in ep.said[1], ep.said


async def test_a_drawn_count_replaces_the_count_the_goal_says_in_words():
    # "Freeze my membership for two months ... my months is 3" said both in one breath.
    freeze = make_scenario(
        goal="Freeze my membership for two months starting on the 1st of November.",
        knowledge={"member_id": "PF1002"}, hidden={},
        agenda=[{"intent": "freeze_membership", "slots": {"months": "2"}}],
    )  # fmt: skip
    user = _Drawn({"op": "change_mind", "slot": "months", "first": "3"})
    ep = await converse(user, freeze, scripted("Done. Anything else?"))
    assert "3 months" in ep.said[0] and "two" not in ep.said[0], ep.said[0]


async def test_after_holding_off_a_change_of_mind_still_to_play_is_played():
    # It asked for a reading of 9638 meaning to change its mind to 07710, hesitated at "I'll
    # submit 9638: shall I?", then said "please do it" to 9638 (energy, seed 0).
    reading = make_scenario(
        goal="I want to submit my gas meter reading, 07710.",
        knowledge={"account_number": "GE-1008", "reading": "07710"}, hidden={},
        agenda=[{"intent": "submit_reading", "slots": {"reading": "07710"},
                 "behaviours": [{"op": "hesitate", "then": "confirm"},
                                {"op": "change_mind", "slot": "reading", "first": "9638"}]}],
    )  # fmt: skip
    offer = "I'll submit a reading of 9638 for your gas meter. Shall I go ahead?"
    held = "Of course, take your time. Just say yes when you'd like me to go ahead."
    ep = await converse(AgendaPolicy(), reading, scripted(offer, held, "Recorded 07710."))
    assert "9638" in ep.said[0] and "07710" not in ep.said[1], ep.said
    assert "07710" in ep.said[2] and "9638" in ep.said[2], ep.said


async def test_a_refusal_gets_the_pending_switch_whose_first_value_it_names():
    # Amend R208 -> R207 and a change of mind on the duration both pending: "R208 isn't a
    # rental on your account" tried the duration, could not switch, and the user gave up.
    extend = make_scenario(
        goal="Extend my rental R207 by 2 hours.", knowledge={"rental_id": "R207"}, hidden={},
        agenda=[{"intent": "extend_rental", "slots": {"rental_id": "R207", "hours": "2"},
                 "behaviours": [{"op": "change_mind", "slot": "hours", "first": "3"},
                                {"op": "amend", "slot": "rental_id", "first": "R208"}]}],
    )  # fmt: skip
    refused = "Sorry, R208 isn't a rental on your account, so I can't extend it. Anything else?"
    ep = await converse(AgendaPolicy(), extend, scripted(refused, "R207 is extended."))
    assert "R208" in ep.said[0], ep.said
    assert "R207" in ep.said[1], ep.said


async def test_a_report_of_the_value_amended_away_is_objected_to():
    # "Okay, but make that W1042 instead", then "Done — order W1043 has been cancelled" got
    # "Great, thank you": the "Okay" was read as a yes to W1043 (shop, fifth session, seed 0).
    boots = make_scenario(
        goal="Cancel order W1042; I no longer need the hiking boots and the sweater.",
        knowledge={"email": "mei.chen@example.com"}, hidden={},
        agenda=[{"intent": "cancel_order", "slots": {"order_id": "W1042"}}],
    )  # fmt: skip
    user = _Drawn({"op": "amend", "slot": "order_id", "first": "W1043"})
    proposal = "I'll cancel order W1043 and refund it to Mastercard ending 7047. Shall I proceed?"
    done = "Done — order W1043 has been cancelled. Is there anything else I can help with?"
    ep = await converse(user, boots, scripted(proposal, done, "Order W1042 is cancelled."))
    assert "W1042" in ep.said[1] and "W1043" in ep.said[0], ep.said
    assert "W1042" in ep.said[2] and not isinstance(ep.actions[2], Finish), ep.said


async def test_options_of_the_wrong_record_make_the_user_put_its_id_right():
    # "Which item would you like to exchange? The order has: Orbit Fitness Watch (Blue),
    # Electric Kettle (White)" after "the sneakers from order W1041" (meant to amend to W1040)
    # got "It's the sneakers" five times (shop, fifth session, seed 0).
    sneakers = make_scenario(
        goal="Exchange the trailrunner sneakers from order W1040 for size 10.",
        knowledge={"email": "diego.santos@example.com"}, hidden={},
        agenda=[{"intent": "exchange_item",
                 "slots": {"order_id": "W1040", "item": "sneakers", "new_option": "10"}}],
    )  # fmt: skip
    user = _Drawn({"op": "amend", "slot": "order_id", "first": "W1041"})
    which = ("Which item would you like to exchange? The order has: Orbit Fitness Watch (Blue), "
             "Electric Kettle (White)")  # fmt: skip
    ep = await converse(user, sneakers, scripted(which, "Which size would you like instead?"))
    assert "W1041" in ep.said[0], ep.said
    assert "W1040" in ep.said[1] and "sneakers" in ep.said[1], ep.said
    listed = "Which item would you like to exchange? The order has: Trailrunner Sneakers, Socks"
    ep = await converse(user, sneakers, scripted(listed, "Which size would you like instead?"))
    assert "W1040" not in ep.said[1] and "sneakers" in ep.said[1].lower(), ep.said


async def test_an_amend_is_not_played_on_a_proposal_naming_the_value_inside_a_longer_id():
    # "I'll drop STAT200-B (Introduction to Statistics). Shall I proceed?" got "Okay, but make
    # that STAT200 instead" after the user had put STAT201 right (school, fifth session): the
    # agent then looked as if it ignored the change (a behaviour "failure").
    drop = make_scenario(
        goal="Please drop STAT200 from my courses.",
        knowledge={"student_id": "S1012", "email": "kenji.sato@uni.example.edu"}, hidden={},
        agenda=[{"intent": "drop_course", "slots": {"course": "STAT200"}}],
    )  # fmt: skip
    user = _Drawn({"op": "amend", "slot": "course", "first": "STAT201"})
    missing = ("You're not enrolled in STAT201 this term (your courses: CS201, MATH210, STAT200). "
               "Is there anything else I can help with?")  # fmt: skip
    proposal = "I'll drop STAT200-B (Introduction to Statistics). Shall I proceed (yes/no)?"
    verify = "Thanks. What's the email address on your student record?"
    ep = await converse(user, drop, scripted(verify, missing, proposal, "Done."))
    assert "STAT200" in ep.said[2], ep.said
    assert ep.said[3].lower().startswith(("yes", "yep", "sure", "yeah", "that")), ep.said
    assert "STAT200" not in ep.said[3] and " but " not in ep.said[3], ep.said


async def test_options_naming_another_value_the_user_holds_get_that_value():
    # "What's the reason for the change: personal, medical, or an exam conflict?" about the exam
    # got the fee waiver's reason four times ("First late payment; my bank transfer was
    # delayed"), then the user gave up on the waiver (school, fifth and sixth sessions).
    waiver = make_scenario(
        goal="Get my late payment fee F-1003 waived, move my ECON301 final to the December 18 "
        "session.",
        knowledge={"student_id": "S1002"}, hidden={"reason": "personal"},
        agenda=[
            {"intent": "waive_fee",
             "slots": {"fee_id": "F-1003", "reason": "First late payment; my transfer was late."}},
            {"intent": "reschedule_exam", "slots": {"course": "ECON301"}},
        ],
    )  # fmt: skip
    ask = "What's the reason for the change: personal, medical, or an exam conflict?"
    ep = await converse(AgendaPolicy(), waiver, scripted(ask, "Thanks."))
    assert "personal" in ep.said[1] and "transfer" not in ep.said[1], ep.said
    why = "Why should the fee be waived?"
    ep = await converse(AgendaPolicy(), waiver, scripted(why, "Thanks."))
    assert "transfer" in ep.said[1], ep.said


async def test_a_report_of_the_later_sub_goal_asked_for_pops_it_and_keeps_the_current():
    # With the exam asked for beside the fee waiver, "Done — your exam EX-ECON301-FIN is now on
    # 2026-12-18" got "No — it's fee number F-1003", and after the waiver the user asked for
    # the exam again (school, sixth session, seed 1).
    waiver = make_scenario(
        goal="Get my late payment fee F-1003 waived, move my ECON301 final to the December 18 "
        "session.",
        knowledge={"student_id": "S1002"}, hidden={},
        agenda=[
            {"intent": "waive_fee", "slots": {"fee_id": "F-1003"}},
            {"intent": "reschedule_exam", "slots": {"course": "ECON301"}},
        ],
    )  # fmt: skip
    user = _Drawn({"op": "second_request"})
    exam = ("Done — your exam EX-ECON301-FIN is now on 2026-12-18 14:00 in Exam Hall A. Is "
            "there anything else I can help with?")  # fmt: skip
    fee = "Done — fee F-1003 has been waived. Is there anything else I can help with?"
    ep = await converse(user, waiver, scripted("What's your student ID?", exam, fee))
    assert "exam" in ep.said[1].lower(), ep.said
    assert "F-1003" in ep.said[2] and not ep.said[2].lower().startswith("no"), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_the_value_called_off_is_the_one_objected_to_beside_other_dates():
    # Florist, a branch: after "make it Friday 11 December instead of 12 December" the same
    # proposal came back, and the user objected "Friday 11 December, not Tuesday 8 December"
    # (the wilted order's own delivery day); the desk looked for an order on the 8th.
    wilted = make_scenario(
        goal="The flowers you delivered have wilted. Send a replacement on Friday 11 December.",
        knowledge={"customer_id": "BB3019", "replacement_date": "Friday 11 December"},
        hidden={}, agenda=[],
    )  # fmt: skip
    user = _Drawn({"op": "change_mind", "slot": "replacement_date", "first": "12 December"})
    proposal = ("To log a complaint about order OR6119 (Seasonal Hand-tied, Tuesday 8 December) "
                "and send a free replacement on Saturday 12 December. Shall I go ahead?")
    ep = await converse(user, wilted, scripted(proposal, proposal, proposal), max_turns=3)
    assert "12 December" in ep.said[0] and "11 December" in ep.said[1], ep.said
    assert "12 December" in ep.said[2] and "8 December" not in ep.said[2], ep.said[2]


async def test_a_refusal_that_restates_the_value_called_off_is_objected_to():
    # Tool hire, a branch: after "make it Friday 11 December instead of 12 December" the desk
    # said the same again ("...it's overdue and can't be extended ... Bringing it back on
    # Saturday 12 December is 5 days late: £90.00. Shall I record that?"), and the user took
    # "can't be extended" as a refusal of its question and left.
    late = make_scenario(
        goal="I'm still using the hedge trimmer — I'll bring it back on Friday 11 December. "
             "What will I owe for that?",
        knowledge={"account_id": "HW3018", "return_day": "Friday 11 December"},
        hidden={}, agenda=[],
    )  # fmt: skip
    user = _Drawn({"op": "change_mind", "slot": "return_day", "first": "12 December"})
    again = ("Hire HR5018 was due back on Monday 7 December, so it's overdue and can't be "
             "extended: late returns are charged per day. Bringing it back on Saturday 12 "
             "December is 5 days late at £18.00 a day: £90.00. Shall I record that?")
    ep = await converse(user, late, scripted(again, again, again), max_turns=3)
    assert "11 December" in ep.said[1], ep.said
    assert not isinstance(ep.actions[2], Finish), ep.actions[2]
    assert "11 December" in ep.said[2] and "12 December" in ep.said[2], ep.said[2]
