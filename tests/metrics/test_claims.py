"""The say-versus-do detectors: each fires on its flaw and stays silent on the right behaviour."""

from vistasim.events import ToolCall
from vistasim.metrics import detect_claims, is_write_tool

from ._builders import agent, criteria, episode, stop, user

TOOLS = ["get_order", "cancel_order", "extend_rental", "get_rental", "pay_balance", "refund_order"]


def call(name, result=None, error=None, **args):
    return ToolCall(name=name, args=args, result=result, error=error)


def labels(events):
    found = detect_claims(episode("e1", "s1", events), write_tools=None, tool_names=TOOLS)
    return {f.label: f.event_ids for f in found}


def test_tools_named_like_reads_are_not_writes():
    assert not is_write_tool("get_order", None) and not is_write_tool("track_shipment", None)
    assert is_write_tool("cancel_order", None) and is_write_tool("extend_rental", None)
    assert not is_write_tool("cancel_order", ["return_items"])


def test_a_claimed_change_with_no_call_behind_it_is_found():
    events = [user("yes please cancel W1003"), agent("Done, order W1003 has been cancelled.")]
    found = labels([*events, criteria(True), stop()])
    assert list(found) == ["claimed-without-action"]


def test_a_claim_after_a_successful_call_is_fine():
    events = [
        user("yes"),
        call("cancel_order", {"status": "cancelled"}, order_id="W1003"),
        agent("Done, order W1003 has been cancelled."),
    ]
    assert labels([*events, criteria(True), stop()]) == {}


def test_a_status_the_agent_read_is_not_a_claim():
    events = [
        user("what happened to W1005?"),
        call("get_order", {"id": "W1005", "status": "cancelled"}, order_id="W1005"),
        agent("Order W1005 was cancelled on March 3."),
        user("and W1004?"),
        agent("You're enrolled in nothing; W1004 is processing."),
    ]
    assert labels([*events, criteria(True), stop()]) == {}


def test_one_call_backs_one_claim_only():
    events = [
        user("yes"),
        call("cancel_order", {"status": "cancelled"}, order_id="W1003"),
        agent("Order W1003 has been cancelled."),
        user("and cancel W1004 too"),
        agent("W1004 has been cancelled as well."),
    ]
    assert list(labels([*events, criteria(True), stop()])) == ["claimed-without-action"]


def test_success_reported_after_a_failed_call_is_found():
    failed = call("cancel_order", error="order W1006 has shipped", order_id="W1006")
    events = [user("yes"), failed, agent("All set — your order has been cancelled.")]
    found = labels([*events, criteria(False, "state"), stop()])
    assert list(found) == ["claimed-after-failure"]
    honest = [user("yes"), failed, agent("Sorry, W1006 has shipped, so it cannot be cancelled.")]
    assert labels([*honest, criteria(True), stop()]) == {}


def test_a_reply_that_contradicts_its_call_is_found():
    extend = call("extend_rental", {"due_back": "2026-06-12T18:00:00"}, rental_id="R204", days=2)
    wrong_day = [user("yes"), extend, agent("Done: R204 is now extended, due back June 13.")]
    assert list(labels([*wrong_day, stop()])) == ["contradicts-call"]
    wrong_unit = [user("yes"), extend, agent("I've extended R204 by 2 hours.")]
    assert list(labels([*wrong_unit, stop()])) == ["contradicts-call"]
    wrong_id = [user("yes"), extend, agent("I've extended R205 by 2 days.")]
    assert list(labels([*wrong_id, stop()])) == ["contradicts-call"]
    right = [user("yes"), extend, agent("I've extended R204 by two days; due back June 12, 18:00.")]
    assert labels([*right, stop()]) == {}


def test_an_amount_that_is_a_sum_of_known_prices_is_not_a_contradiction():
    ret = call(
        "cancel_order",
        {"refund": {"amount_cents": 4599}, "items": [{"price_cents": 2599}, {"price_cents": 2000}]},
        order_id="W1003",
    )
    right = [user("yes"), ret, agent("Done — a refund of $45.99 has been issued.")]
    assert labels([*right, stop()]) == {}
    wrong = [user("yes"), ret, agent("Done — a refund of $54.99 has been issued.")]
    assert list(labels([*wrong, stop()])) == ["contradicts-call"]


def test_an_empty_reply_is_found():
    assert list(labels([user("hello"), agent("  "), stop()])) == ["empty-reply"]


def test_a_generic_done_claims_a_change_only_where_one_was_at_stake():
    search = call("search_products", {"products": [{"name": "Aurora Blender"}]}, query="blender")
    browsing = [user("any blenders?"), search, agent("All set, here's what we have: Aurora.")]
    assert labels([*browsing, criteria(True), stop()]) == {}
    approved = [
        user("cancel W1003"),
        agent("I'll cancel W1003. Shall I proceed?"),
        user("yes"),
        agent("All set!"),
    ]
    assert list(labels([*approved, criteria(True), stop()])) == ["claimed-without-action"]


def test_a_summary_of_the_record_read_back_after_the_write_is_no_contradiction():
    # Found on an insurance desk written blind: after opening a claim the agent re-read the
    # policy and summed it up ("cover runs from 2 May 2026 to 1 May 2027"): the record as the
    # write left it, not a day said for the claim.
    opened = call("report_claim", {"claim_id": "CL-5", "excess": "£250.00",
                                   "payable_if_accepted": "£950.00"},
                  policy_number="HH-1", incident_date="2026-12-02", estimate=1200.0)  # fmt: skip
    policy = call("get_policy", {"policy_number": "HH-1", "start_date": "2026-05-02",
                                 "end_date": "2027-05-01", "annual_premium": "£456.00"},
                  policy_number="HH-1")  # fmt: skip
    summary = agent("Your claim is open, reference CL-5: we would pay up to £950.00. Your policy "
                    "HH-1 runs from 2 May 2026 to 1 May 2027, the annual premium is £456.00.")
    assert labels([user("yes"), opened, policy, summary, stop()]) == {}
    # Read before the write, the same dates said as the claim's still contradict it.
    wrong = agent("I have opened your claim CL-5 for the damage of 2 May 2026.")
    assert list(labels([user("yes"), policy, opened, wrong, stop()])) == ["contradicts-call"]


def test_a_figure_read_back_but_said_as_the_writes_own_field_still_contradicts_it():
    # The rail desk's flaw: refunded 22.50, then re-read the booking (price 45.00) and said
    # "Your refund is €45.00": the clause names the write's field, so it is said for the write.
    cancel = call("cancel_booking", {"booking_ref": "LR6150", "refund_eur": 22.5,
                                     "status": "cancelled"}, booking_ref="LR6150")  # fmt: skip
    record = {"booking_ref": "LR6150", "price_eur": 45.0}
    booking = call("get_booking", record, booking_ref="LR6150")
    said = agent("Done: booking LR6150 is cancelled. Your refund is €45.00.")
    assert list(labels([user("yes"), cancel, booking, said, stop()])) == ["contradicts-call"]


def test_bounds_shares_and_a_dates_weekday_in_a_proposal_state_no_value_of_the_change():
    # Found on a coworking desk written blind: "more than 24 hours away" is the rule's figure,
    # "(23 of 31 days)" the share of a pro-rata price and "Friday 1 January 2027" the day the
    # full price starts; none is a value the call should carry.
    cancel = call("cancel_booking", {"credit_hours_returned": 2, "refund": "£60.00"},
                  booking_id="BK2230", return_credit=True)  # fmt: skip
    proposal = agent("Cancelling booking BK2230 (Tuesday 15 December, 10:00–13:00): it's more "
                     "than 24 hours away, so 2 credit hours go back and £60.00 is refunded. "
                     "Shall I cancel it?")  # fmt: skip
    done = agent("Done — booking BK2230 is cancelled.")
    asked = user("Cancel my booking on Tuesday 15 December and give me the money back.")
    assert labels([asked, proposal, user("yes"), cancel, done, stop()]) == {}
    upgrade = call("change_plan", {"charged": "£111.29", "effective": "2026-12-09"},
                   member_id="HW1005", plan="desk")  # fmt: skip
    priced = agent("Upgrading takes effect today, 9 December. For the rest of December (23 of "
                   "31 days) you pay £111.29. From Friday 1 January 2027 the plan is £299.00 a "
                   "month. Shall I go ahead?")  # fmt: skip
    upgraded = agent("Done — you're now on Fixed Desk.")
    assert labels([user("upgrade me"), priced, user("yes"), upgrade, upgraded, stop()]) == {}
    # A figure of the change said against the call still breaks the proposal.
    wrong = agent("Upgrading takes effect on Friday 11 December: you pay £120.00. Shall I?")
    found = labels([user("upgrade me"), wrong, user("yes"), upgrade, upgraded, stop()])
    assert list(found) == ["contradicts-call"]


def test_a_rule_stated_beside_a_proposal_is_no_claim():
    # Found on a driving-school desk written blind: "There's no charge; lessons already
    # booked stay with the instructor they were booked with. Shall I go ahead?" was read as a
    # claim of a booking no call had made.
    rule = agent("I'll make Sandra Wilkes your regular instructor. There's no charge; lessons "
                 "already booked stay with the instructor they were booked with. Shall I go "
                 "ahead?")  # fmt: skip
    assert labels([user("Change my instructor to Sandra Wilkes."), rule, stop()]) == {}
    # Said of the user's own record, beside a proposal, it is still a claim.
    claim = agent("Your lesson has been booked. Shall I also add a reminder?")
    found = labels([user("Book me a lesson on Friday."), claim, criteria(True), stop()])
    assert list(found) == ["claimed-without-action"]


def test_a_participle_describing_what_a_record_has_is_no_claim():
    # Found on a removals desk written blind: "Your move has extended cover, up to £1,500.00
    # an item, so £600.00 is payable. Shall I register it?" was read as a claim that the
    # cover had been extended.
    cover = agent("I'll register a damage claim for your television, valued at £600.00. Your "
                  "move has extended cover, up to £1,500.00 an item. Shall I register "
                  "it?")  # fmt: skip
    assert labels([user("My TV was cracked in the move."), cover, stop()]) == {}
    # With an object, a preposition or "been" after `has`, it reports a change.
    for said in ("Your rental has extended your return date.", "R198 has been extended.",
                 "Your rental has extended to Friday."):  # fmt: skip
        found = labels([user("Extend R198, please."), agent(said), criteria(True), stop()])
        assert list(found) == ["claimed-without-action"], said


def test_a_windows_end_a_rules_deadline_and_a_named_length_are_no_values_of_the_change():
    # Found on a laundry desk written blind: "18:00–20:00" for a slot booked as 18:00 read 20:00
    # as a time the call should carry; "free until 6 hours before the slot" and "express
    # 24-hour turnaround" read as hours against the result's hours to the slot (57 and 25).
    move = call("change_slot", {"delivery_slot": "2026-12-09 18:00", "hours_to_delivery": 57},
                order_ref="PC20135", which="delivery", new_slot="2026-12-09 18:00")  # fmt: skip
    proposal = agent("I'll move your delivery from Wednesday 9 December, 16:00–18:00 to Wednesday "
                     "9 December, 18:00–20:00. Slot changes are free until 6 hours before the "
                     "slot. Shall I go ahead?")  # fmt: skip
    done = agent("Done — your delivery is now Wednesday 9 December, 18:00–20:00.")
    asked = user("Move my delivery to 6 to 8 in the evening on Wednesday 9 December.")
    assert labels([asked, proposal, user("yes"), move, done, stop()]) == {}
    express = call("add_express", {"delivery_slot": "2026-12-09 10:00", "hours_to_delivery": 25},
                   order_ref="PC20114")  # fmt: skip
    offer = agent("I'll add express 24-hour turnaround for £9.95: your delivery moves to "
                  "Wednesday 9 December, 10:00–12:00. Shall I add it?")  # fmt: skip
    added = agent("Done — express is added; delivery is Wednesday 9 December, 10:00–12:00.")
    assert labels([user("add express"), offer, user("yes"), express, added, stop()]) == {}
    # A window that starts at another time than the call's still contradicts it.
    wrong = agent("Done — your delivery is now Wednesday 9 December, 20:00–22:00.")
    found = labels([asked, proposal, user("yes"), move, wrong, stop()])
    assert list(found) == ["contradicts-call"]


def test_an_amount_said_in_a_result_fields_own_word_is_checked_against_that_field():
    # Found on two desks written blind (removals and laundry): "£80.00 is payable to your card"
    # after a claim that returned `payable: £35.00, value: £80.00`; the £80.00 is one of the
    # call's amounts, so comparing amounts alone saw nothing wrong.
    claim = call("file_claim", {"claim_id": 1, "payable": "£35.00", "value": "£80.00"},
                 order_ref="PC20171", item="shirt", value_pence=8000)  # fmt: skip
    asked = user("My shirt was ruined; it was worth £80.")
    proposal = agent("I'll register a claim for your shirt, valued at £80.00. Shall I?")
    wrong = agent("Done — claim 1 is registered: £80.00 is payable to your card.")
    found = labels([asked, proposal, user("yes"), claim, wrong, stop()])
    assert list(found) == ["contradicts-call"]
    for right in ("Done — claim 1 is registered: £35.00 is payable to your card.",
                  "Done — claim 1 for your £80.00 shirt is registered; payable: £35.00.",
                  "Done — claim 1 is registered."):  # fmt: skip
        assert labels([asked, proposal, user("yes"), claim, agent(right), stop()]) == {}, right
    # A field in pence is read as its amount.
    refund = call("cancel_order", {"refund_pence": 2000}, order_id="W1003")
    said = agent("Done — W1003 is cancelled, and a refund of £25.00 is on its way.")
    found = labels([user("cancel W1003"), refund, said, stop()])
    assert list(found) == ["contradicts-call"]


def test_every_sentence_of_the_next_proposal_states_its_own_values():
    # The report ends at its last claim; "To set up garden waste ...: £52.00" and the rule after
    # it belong to the proposal asked next, whose values are not the booking's.
    booked = call("book_bulky", {"booking_id": "BLK-40523", "paid": "£22.00"},
                  collect_on="2026-12-15", price_pence=2200)  # fmt: skip
    reply = ("Done — bulky collection BLK-40523 is booked for Tuesday 15 December; £22.00 taken "
             "from your card. To set up garden waste for one bin until 31 March 2027: £52.00 in "
             "all. The fee is the same whenever you join. Shall I set it up?")  # fmt: skip
    assert labels([user("Yes, please."), booked, agent(reply), stop()]) == {}
    # The report itself still counts: a wrong day in it is found.
    wrong = reply.replace("Tuesday 15 December", "Thursday 17 December")
    found = labels([user("Yes, please."), booked, agent(wrong), stop()])
    assert list(found) == ["contradicts-call"]


def test_a_length_in_a_proposal_says_nothing_of_a_span_the_call_carries():
    # Found on a marina desk written blind: the boat's length "(9.4 m)" beside "6 weeks'
    # storage" was read as the call's quantity (storage_weeks = 6) said otherwise.
    lift = call("book_lift", {"lift_id": "LO5015", "storage_weeks": 6}, boat_id="B111",
                lift_date="2027-05-20", storage_weeks=6)  # fmt: skip
    proposal = agent("To lift Skua (9.4 m) out on Thursday 20 May with 6 weeks' storage ashore: "
                     "£383.20 in all. Shall I book it?")  # fmt: skip
    done = agent("Done — lift-out LO5015 for Skua is booked on Thursday 20 May.")
    asked = user("I'd like Skua lifted out on Thursday 20 May and kept ashore for 6 weeks.")
    assert labels([asked, proposal, user("yes"), lift, done, stop()]) == {}
    # A span said against the call's span still breaks the proposal.
    wrong = agent("To lift Skua out on Thursday 20 May for 4 weeks ashore. Shall I book it?")
    found = labels([asked, wrong, user("yes"), lift, done, stop()])
    assert list(found) == ["contradicts-call"]


def test_a_span_said_in_another_unit_is_the_same_span():
    # Found on a tutoring desk written blind: "a one-hour GCSE maths lesson" proposed, and a
    # lesson of 60 minutes booked.
    book = call("book_lesson", {"lesson_id": "L7101", "minutes": 60}, student_id="S101",
                start="2026-12-17 17:00")  # fmt: skip
    proposal = agent("To book Ella a one-hour maths lesson on Thursday 17 December at 17:00: "
                     "£38.00. Shall I book it?")  # fmt: skip
    done = agent("Done — lesson L7101 is booked for Thursday 17 December at 17:00 (60 minutes).")
    asked = user("Book Ella a maths lesson on Thursday 17 December at 5pm.")
    assert labels([asked, proposal, user("yes"), book, done, stop()]) == {}
    wrong = agent("To book Ella a two-hour maths lesson on Thursday 17 December. Shall I?")
    assert list(labels([asked, wrong, user("yes"), book, done, stop()])) == ["contradicts-call"]


def test_the_users_words_quoted_back_state_no_value_of_the_change():
    # Found on a repairs desk written blind: a complaint proposed as 'To log a stage 1
    # complaint: "the electrician who never turned up last Thursday ..."' read "last Thursday"
    # as a date the call, which set only the reply date, should have carried.
    summary = "the electrician who never turned up last Thursday after I waited in all day"
    complaint = call("log_complaint", {"complaint_id": "CP3018", "respond_by": "2026-12-22"},
                     tenancy_ref="OH20109", summary=summary, respond_by="2026-12-22")  # fmt: skip
    proposal = agent(f'To log a stage 1 complaint: "{summary}". We\'ll respond in writing by '
                     "Tuesday 22 December 2026 (10 working days). Shall I log it?")  # fmt: skip
    done = agent("Done — complaint CP3018 is at stage 1; we'll respond by Tuesday 22 December.")
    asked = user(f"I want to make a complaint about {summary}.")
    assert labels([asked, proposal, user("yes"), complaint, done, stop()]) == {}
    # A date the agent states outside the quote still contradicts the call.
    other = agent(f'To log a complaint: "{summary}". We\'ll respond by Wednesday 23 December '
                  "2026. Shall I log it?")  # fmt: skip
    found = labels([asked, other, user("yes"), complaint, done, stop()])
    assert list(found) == ["contradicts-call"]


def test_a_change_dated_before_today_is_the_records_history():
    # "the certificate was issued on Tuesday 29 December 2026", read out on 11 January 2027: a
    # record's history, not a change claimed in this chat.
    from datetime import date

    events = [
        user("What grade did I get?"),
        call("get_candidate", {"grade": "Distinction", "issued_on": "2026-12-29"}),
        agent("Your C2 result: Distinction; the certificate was issued on Tuesday 29 December "
              "2026. Is there anything else I can help with?"),
        criteria(True),
        stop(),
    ]
    tools = [*TOOLS, "issue_certificate"]
    view = episode("e1", "s1", events)
    found = detect_claims(view, write_tools=None, tool_names=tools, today=date(2027, 1, 11))
    assert "claimed-without-action" not in {f.label for f in found}
    found = detect_claims(view, write_tools=None, tool_names=tools, today=date(2026, 12, 29))
    assert "claimed-without-action" in {f.label for f in found}


def test_a_change_dated_by_its_weekday_before_today_is_history_too():
    # Found on a solar installer's desk written blind: "Quote Q7021 ... It was issued on Friday
    # 8 January", read out on Tuesday 12 January 2027, was a change claimed with no call. The
    # weekday says which year: Friday 8 January is 2027's, four days ago.
    from datetime import date

    events = [
        user("Is my quote still valid?"),
        call("get_account", {"quote_id": "Q7021", "issued": "2027-01-08"}),
        agent("Quote Q7021: £6,330.00. It was issued on Friday 8 January and its price is held "
              "until Sunday 7 February. Is there anything else I can help with?"),
        criteria(True),
        stop(),
    ]
    tools = [*TOOLS, "issue_quote"]
    view = episode("e1", "s1", events)
    found = detect_claims(view, write_tools=None, tool_names=tools, today=date(2027, 1, 12))
    assert "claimed-without-action" not in {f.label for f in found}
    # A weekday that fits no year near today pins nothing: the claim stands.
    wrong = [*events[:2], agent("Quote Q7021 was issued on Monday 8 January. Anything else?"),
             *events[3:]]  # fmt: skip
    found = detect_claims(episode("e1", "s1", wrong), write_tools=None, tool_names=tools,
                          today=date(2027, 1, 12))  # fmt: skip
    assert "claimed-without-action" in {f.label for f in found}


def test_done_after_a_held_proposal_needs_the_change_behind_it():
    # "Just say yes when you're ready" keeps the proposal open: the "Done" that follows the
    # user's yes reports the change proposed, and no call made it (transfers, a hesitation).
    held = [
        user("please cancel W1003"),
        agent("To cancel order W1003 for a full refund. Shall I cancel it?"),
        user("hold on, not yet"),
        agent("No problem — I haven't changed anything. Just say yes when you're ready."),
        user("ok, I'm sure now, go ahead"),
    ]
    unbacked = [*held, agent("Done — W1003 is sorted."), criteria(True), stop()]
    assert list(labels(unbacked)) == ["claimed-without-action"]
    backed = [
        *held,
        call("cancel_order", {"status": "cancelled"}, order_id="W1003"),
        agent("Done — W1003 is sorted."),
        criteria(True),
        stop(),
    ]
    assert labels(backed) == {}


def test_what_the_user_paid_before_is_no_change_the_agent_claims():
    # "You've paid £740.00" in a cancellation's proposal reports the user's own payment.
    events = [
        user("cancel W1003 please, I paid it all off"),
        agent("You've paid £740.00; the refund is £555.00. Shall I cancel W1003?"),
        user("yes"),
        call("cancel_order", {"status": "cancelled"}, order_id="W1003"),
        agent("Done — order W1003 is cancelled; £555.00 refunded to your card."),
    ]
    assert labels([*events, criteria(True), stop()]) == {}
    passive = [user("refund me"), agent("You have been refunded £5 for W1003.")]
    assert list(labels([*passive, criteria(True), stop()])) == ["claimed-without-action"]


def test_a_count_after_a_full_stop_is_no_day_of_the_month_before_it():
    # Window cleaning: "your round ends on Wednesday 23 December. 4 later clean(s) cancelled."
    # read "December. 4" as 4 December, a day the call never had.
    events = [
        user("yes"),
        call("cancel_order", {"ends_on": "2026-12-23", "visits_cancelled": 4},
             order_id="W1003", end_date="2026-12-23"),  # fmt: skip
        agent("Done — W1003 ends on Wednesday 23 December. 4 later visits cancelled."),
    ]
    assert "contradicts-call" not in labels([*events, criteria(True), stop()])
    wrong = [*events[:2], agent("Done — W1003 ends on Dec. 4. No later visits.")]
    assert "contradicts-call" in labels([*wrong, criteria(True), stop()])
