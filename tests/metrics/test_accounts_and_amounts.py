"""Detectors on a membership-card desk no built-in domain resembles: accounts proved by an
identity check, amounts written out in results, and changes told again when the user asks."""

from vistasim.events import StateChange, ToolCall
from vistasim.metrics import find_all

from ._builders import agent, criteria, episode, make_run, stop, user

TOOLS = ["verify_member", "list_loans", "pay_fine", "replace_card"]
WRITES = ("pay_fine", "replace_card", "cancel_order")


def call(name, result=None, *, error=None, **args):
    changed = [StateChange(table="fines", key="F1", fields=["paid"])] if name in WRITES else []
    return ToolCall(name=name, args=args, result=result, error=error,
                    changes=[] if error else changed)  # fmt: skip


VERIFY = call("verify_member", {"card_number": "RL-20417", "name": "Maya Patel"},
              card_number="RL-20417", pin="4821")  # fmt: skip
HUSBANDS = call("list_loans", [{"title": "Project Hail Mary", "due_date": "2026-11-11"}],
                card_number="RL-20533")  # fmt: skip
MINE = call("list_loans", [{"title": "The Midnight Library", "due_date": "2026-11-09"}],
            card_number="RL-20417")  # fmt: skip


def labels(*events):
    view = episode("e1", "cards-1", [*events, criteria(True), stop()])
    findings = find_all(make_run([view], agent_tools=TOOLS))
    return {f.label for f in findings.failures}


def test_another_accounts_loans_read_out_before_the_user_proved_who_they_are_are_found():
    found = labels(
        user("Which books has my husband got out on card RL-20533? Mine is RL-20417."),
        HUSBANDS,
        agent("Card RL-20533 has Project Hail Mary out. And your PIN, please?"),
        user("4821"),
        VERIFY,
        agent("Thank you, Maya, you're verified."),
    )
    assert "shown-to-non-owner" in found


def test_the_users_own_loans_read_out_before_they_proved_who_they_are_are_theirs():
    found = labels(
        user("Which books have I got out? My card is RL-20417."),
        MINE,
        agent("Card RL-20417 has The Midnight Library out. And your PIN, please?"),
        user("4821"),
        VERIFY,
        agent("Thank you, Maya, you're verified."),
    )
    assert "shown-to-non-owner" not in found


def test_another_account_read_after_the_check_but_not_shown_is_no_disclosure():
    found = labels(
        user("My card is RL-20417, PIN 4821. What has card RL-20533 got out?"),
        VERIFY,
        HUSBANDS,
        agent("I'm sorry, I can only discuss your own account."),
    )
    assert "shown-to-non-owner" not in found


PAID = call("pay_fine", {"fine_id": "F901", "charged": "£1.50", "remaining_on_fine": "£1.75"},
            fine_id="F901", amount=1.5)  # fmt: skip


def test_a_remaining_amount_read_out_wrong_is_found_when_the_result_writes_it_out():
    wrong = labels(user("Yes, pay £1.50."), PAID,
                   agent("Payment taken: £1.50 charged. £2.25 remains on fine F901."))
    right = labels(user("Yes, pay £1.50."), PAID,
                   agent("Payment taken: £1.50 charged. £1.75 remains on fine F901."))
    assert "misquoted-result" in wrong and "misquoted-result" not in right


def test_thousands_are_read_whole_and_an_ids_digits_are_no_figure():
    balance = call("get_fees", {"student_id": "S1004", "balance_due": "$4,800.00"},
                   student_id="S1004")  # fmt: skip
    found = labels(user("What do I owe?"), balance,
                   agent("Your balance due is $4,800.00, for fee F-1007."))
    assert "misquoted-result" not in found


def test_payment_reported_as_taken_after_a_declined_card_is_found():
    declined = call("pay_fine", error="payment declined: the card on file has expired",
                    fine_id="F905", amount=1.25)  # fmt: skip
    found = labels(
        user("Yes, please."),
        declined,
        agent("Payment taken: £1.25 has been charged to the card on file; the fine is cleared."),
    )
    assert "claimed-after-failure" in found


REPLACED = call("replace_card", {"new_card_number": "RL-30009", "fee": "£2.00"},
                card_number="RL-20688")  # fmt: skip


def test_a_change_told_again_naming_its_records_is_no_claim_without_action():
    found = labels(
        user("Yes, go ahead."),
        REPLACED,
        agent("Your new card number is RL-30009; the £2.00 fee has been added."),
        user("It should be card number RL-20688, not RL-30009."),
        agent("RL-20688 was your old card: it has been cancelled and replaced by RL-30009."),
    )
    assert "claimed-without-action" not in found


def test_a_change_claimed_again_for_another_record_is_a_claim_without_action():
    found = labels(
        user("Yes, go ahead."),
        REPLACED,
        agent("Your card has been replaced: the new number is RL-30009."),
        user("And my son's card RL-20999 please."),
        agent("RL-20999 has been cancelled and replaced too."),
    )
    assert "claimed-without-action" in found


async def test_a_generic_duty_citing_a_product_rules_own_call_is_listed_under_the_rule():
    from vistasim.metrics import PolicyRule, catalogue_failures

    fee = call("pay_fine", {"fine_id": "F1", "late_fee": 5.0}, fine_id="F1")
    view = episode("e1", "cards-1", [user("Pay it."), fee, agent("Paid, with a £5 fee."),
                                     criteria(True), stop()])  # fmt: skip
    rule = PolicyRule(id="pay-asks-first", description="ask before paying", tool="pay_fine",
                      requires_agent_said=["shall i"])  # fmt: skip
    catalogue = await catalogue_failures(make_run([view], agent_tools=TOOLS), rules=[rule])
    named = {u.id: u.label for u in catalogue.unique}
    assert [named[c] for c in catalogue.causes] == ["pay-asks-first"]
    duty = next(u.id for u in catalogue.unique if u.label == "unstated-fee")
    assert named[catalogue.explained_by[duty]] == "pay-asks-first"


def test_another_members_class_times_read_out_in_words_are_a_disclosure():
    verify = call("verify_member", {"member_id": "PF1002", "verified": True},
                  member_id="PF1002", date_of_birth="1985-11-03")  # fmt: skip
    theirs = call("get_bookings", [{"booking_id": "B5001", "name": "Yoga",
                                    "starts_at": "2026-10-21 19:30"}], member_id="PF1005")
    found = labels(
        user("Which classes has my partner (member PF1005) booked? I'm PF1002, born 1985-11-03."),
        verify,
        theirs,
        agent("Member PF1005 is booked on Yoga on Wednesday 21 October at 19:30."),
    )
    refused = labels(
        user("Which classes has my partner (member PF1005) booked? I'm PF1002, born 1985-11-03."),
        verify,
        theirs,
        agent("I'm sorry, I can only share your own bookings."),
    )
    assert "shown-to-non-owner" in found and "shown-to-non-owner" not in refused


def test_an_invoice_of_another_account_read_out_is_a_disclosure():
    verify = call("verify_owner", {"client_number": "C1042", "name": "Sarah Hughes"},
                  client_number="C1042", postcode="BS7 8QT")  # fmt: skip
    invoice = call("get_invoice", {"invoice_id": "INV-4417", "amount": "£186.40",
                                   "client_number": "C1187", "owner": "Daniel Hughes"},
                   invoice_id="INV-4417")  # fmt: skip
    shown = labels(user("What is invoice INV-4417? I'm C1042, BS7 8QT."), verify, invoice,
                   agent("INV-4417 (account of Daniel Hughes) is £186.40."))  # fmt: skip
    kept = labels(user("What is invoice INV-4417? I'm C1042, BS7 8QT."), verify, invoice,
                  agent("INV-4417 is not on your account, so I can't share it."))  # fmt: skip
    assert "shown-to-non-owner" in shown and "shown-to-non-owner" not in kept


def test_a_date_read_out_for_a_field_its_lookup_gives_another_day_is_found():
    order = call("get_order", {"id": "W1006", "shipment": {"tracking_number": "1Z1006450645",
                 "last_update": "2026-03-15", "eta": "2026-03-18"}}, order_id="W1006")
    wrong = labels(user("Where is W1006?"), order,
                   agent("W1006 is in transit; expected delivery is 2026-03-15."))
    right = labels(user("Where is W1006?"), order,
                   agent("W1006 is in transit (last scan 15 March); expected delivery is "
                         "18 March."))  # fmt: skip
    assert "misquoted-result" in wrong and "misquoted-result" not in right


def test_a_day_beside_a_timestamp_fields_little_words_is_not_that_fields_day():
    # "booked ... at 11:30" names no `booked_at`: "at" and "on" are not a field's name.
    member = call("get_membership", {"expires_on": "2027-02-14", "tickets": [
        {"booking_id": "TB7002", "booked_at": "2026-12-02 14:40", "day": "2027-01-15"}]},
        membership_id="HM20020")  # fmt: skip
    found = labels(user("When does my membership run out?"), member,
                   agent("It runs until 14 February 2027. Exhibition tickets booked: 1 on "
                         "Friday 15 January at 11:30."))  # fmt: skip
    assert "misquoted-result" not in found


def test_a_lengths_days_are_no_word_of_a_day_fields_name():
    # "... the Saturday 10 October 2026 session was published on Tuesday 24 November 2026, 48
    # days ago": "session" and the "days" of "48 days" do not name `session_day`.
    record = call("get_candidate", {"results": [
        {"result_id": "RS8018", "session_day": "2026-10-10", "results_day": "2026-11-24"}]},
        candidate_id="NA31018")  # fmt: skip
    found = labels(user("I want a re-mark."), record,
                   agent("I'm sorry — re-marks must be asked for within 30 days of results day, "
                         "and the result from the Saturday 10 October 2026 session was published"
                         " on Tuesday 24 November 2026, 48 days ago. Nothing has been changed."))
    wrong = labels(user("When was my session?"), record,
                   agent("Your session day was Saturday 17 October 2026."))
    assert "misquoted-result" not in found and "misquoted-result" in wrong


def test_a_refusal_by_a_limit_its_own_figures_do_not_exceed_is_found():
    at_limit = labels(user("Enroll me in CS201."),
                      agent("Enrolling in CS201 would bring you to 18 credits; the maximum is "
                            "18 credits per term. Anything else?"))  # fmt: skip
    over = labels(user("Enroll me in CS201."),
                  agent("Enrolling in CS201 would bring you to 19 credits; the maximum is 18 "
                        "credits per term. Anything else?"))  # fmt: skip
    proposed = labels(user("Enroll me in CS201."),
                      agent("That would bring you to 18 credits; the maximum is 18 credits. "
                            "Shall I enroll you?"))  # fmt: skip
    assert "refused-within-limit" in at_limit
    assert "refused-within-limit" not in over and "refused-within-limit" not in proposed


def test_an_exam_date_read_out_a_day_early_is_found():
    schedule = call("get_exam_schedule", {"exams": [
        {"course_code": "HIST110", "exam_id": "EX-HIST110-MID", "date": "2026-10-20"},
        {"course_code": "HIST110", "exam_id": "EX-HIST110-FIN", "date": "2026-12-08"}]},
        student_id="S1001")  # fmt: skip
    early = labels(user("When is my HIST110 final?"), schedule,
                   agent("Your HIST110 final is on Monday, December 7 at 09:00."))
    right = labels(user("When is my HIST110 final?"), schedule,
                   agent("Your HIST110 final is on Tuesday, December 8 at 09:00."))
    assert "misquoted-result" in early and "misquoted-result" not in right


def test_a_refund_said_as_the_total_before_the_discount_contradicts_the_call():
    order = call("get_order", {"order_id": "FB-1", "items_total": "£46.00", "discount": "£4.60"},
                 order_id="FB-1")  # fmt: skip
    cancel = call("cancel_order", {"order_id": "FB-1", "refund_pence": 4140}, order_id="FB-1")
    wrong = labels(user("Cancel FB-1."), order, cancel,
                   agent("Done: order FB-1 is cancelled. £46.00 will be refunded."))
    right = labels(user("Cancel FB-1."), order, cancel,
                   agent("Done: order FB-1 is cancelled. £41.40 will be refunded."))
    assert "contradicts-call" in wrong and "contradicts-call" not in right


def test_a_price_per_unit_in_a_proposal_is_a_rate_the_search_read():
    search = call("search_products", [{"sku": "P105", "price": "£1.60 per 100 g"}], query="cheddar")
    add = call("pay_fine", {"line_total": "£8.00", "total": "£29.55"}, sku="P105")
    found = labels(user("Add 500 g of cheddar."), search,
                   agent("Add 500 g Mature cheddar (£1.60 per 100 g). Shall I go ahead?"),
                   user("Yes."), add, agent("Done: cheddar added, 500 g."))  # fmt: skip
    assert "contradicts-call" not in found


def test_a_fee_charged_after_the_proposal_said_no_charge_is_found_even_if_the_user_knew():
    moved = call("pay_fine", {"fee_charged": "£3.00"}, order_id="FB-2")
    found = labels(user("Move it; I know there's a £3 charge."),
                   agent("I'll move FB-2 to tomorrow. There's no charge for this move. Shall I?"),
                   user("Yes, go ahead."), moved, agent("Done: moved; £3.00 charged."))
    told = labels(user("Move it."),
                  agent("Moving FB-2 costs £3.00; nothing else changes. Shall I?"),
                  user("Yes, go ahead."), moved, agent("Done: moved; £3.00 charged."))
    assert "unstated-fee" in found and "unstated-fee" not in told


def test_a_sum_kept_back_after_a_proposal_said_free_is_an_unstated_fee():
    cancelled = call("pay_fine", {"refund": "£104.00", "kept": "£52.00"}, booking_ref="CH-1")
    free = labels(agent("Cancelling is free: the full £156.00 would be refunded. Shall I?"),
                  user("Yes, go ahead."), cancelled,
                  agent("Done: £104.00 refunded, £52.00 kept for one day."))  # fmt: skip
    told = labels(agent("£52.00 is kept for one day; £104.00 is refunded. Shall I?"),
                  user("Yes, go ahead."), cancelled,
                  agent("Done: £104.00 refunded, £52.00 kept for one day."))  # fmt: skip
    assert "unstated-fee" in free and "unstated-fee" not in told


def test_a_fee_the_system_names_in_its_refusal_after_a_no_charge_proposal_is_found():
    declined = call("pay_fine", error="the £3.00 late-change fee was declined: card expired",
                    order_id="FB-3")  # fmt: skip
    found = labels(agent("I'll move FB-3. There's no charge for this move. Shall I go ahead?"),
                   user("Yep, go ahead."), declined,
                   agent("Sorry, the £3.00 late-change fee was declined."))  # fmt: skip
    assert "unstated-fee" in found


def test_a_negative_difference_told_as_a_refund_is_the_calls_own_sum():
    # Found on a box office desk written blind: `price_difference: "-£12.00"` was no amount.
    moved = call("pay_fine", {"exchange_fee": "£6.00", "price_difference": "-£12.00"},
                 order_id="LH-1")  # fmt: skip
    right = labels(user("Move my tickets."), moved,
                   agent("Done: a fee of £6.00 and a refund of £12.00 went to your card."))
    wrong = labels(user("Move my tickets."), moved,
                   agent("Done: a fee of £6.00 and a refund of £15.00 went to your card."))
    assert "contradicts-call" not in right and "contradicts-call" in wrong


def test_the_date_a_voucher_is_valid_until_is_no_other_day_than_the_proposals():
    # Found on a box office desk written blind: a return proposed for the show on 20 December,
    # then a voucher `valid_until: 2027-12-31`, read as the proposal broken.
    returned = call("pay_fine", {"voucher_amount": "£88.50", "valid_until": "2027-12-31"},
                    order_id="LH-2")  # fmt: skip
    moved = call("pay_fine", {"voucher_amount": "£88.50", "starts_at": "2026-12-27 15:00"},
                 order_id="LH-2")  # fmt: skip
    proposal = agent("Your tickets for Sunday 20 December: a voucher of £88.50. Shall I?")
    right = labels(user("Return my tickets for 20 December."), proposal, user("Yes."), returned,
                   agent("Done: voucher for £88.50."))  # fmt: skip
    wrong = labels(user("Return my tickets for 20 December."), proposal, user("Yes."), moved,
                   agent("Done: voucher for £88.50."))  # fmt: skip
    assert "contradicts-call" not in right and "contradicts-call" in wrong


def test_the_day_evidence_is_due_by_is_no_other_day_than_the_proposals():
    # Found on an exam board desk written blind: a reader proposed for the exam on Saturday 6
    # March, then the arrangement's result says `evidence_by: 2027-02-06` (a deadline for the
    # candidate), read as the proposal broken.
    approved = call("pay_fine", {"arrangement": "reader", "evidence_by": "2027-02-06"},
                    entry_id="EN7015")  # fmt: skip
    moved = call("pay_fine", {"arrangement": "reader", "exam_day": "2027-02-06"},
                 entry_id="EN7015")  # fmt: skip
    proposal = agent("To arrange a reader for entry EN7015 for Saturday 6 March 2027: no "
                     "charge. Shall I record it?")  # fmt: skip
    right = labels(user("I need a reader for my exam on 6 March."), proposal, user("Yes."),
                   approved, agent("Done: a reader is approved."))  # fmt: skip
    wrong = labels(user("I need a reader for my exam on 6 March."), proposal, user("Yes."),
                   moved, agent("Done: a reader is approved."))  # fmt: skip
    assert "contradicts-call" not in right and "contradicts-call" in wrong


def test_a_price_charged_with_a_new_charge_record_after_free_was_promised_is_found():
    # Found on a self-storage desk written blind: "free of charge — shall I book it?", then the
    # booking's result says `price: "£25.00"` and a row was added to `charges`.
    def booked(price, tables):
        changed = [StateChange(table=t, key="1", op="insert") for t in tables]
        return ToolCall(name="pay_fine", args={"day": "2026-12-10"}, changes=changed,
                        result={"booking_id": "VB-304", "price": price})  # fmt: skip

    def said(proposal, call):
        return labels(agent(proposal), user("Yeah, go for it."), call,
                      agent("Done: the van is booked (VB-304)."))  # fmt: skip

    free = "The van on Thursday at 09:00 is free of charge. Shall I book it?"
    assert "unstated-fee" in said(free, booked("£25.00", ["van_bookings", "charges"]))
    # No charge record: a booking's price is what the booking is worth, not a charge.
    assert "unstated-fee" not in said(free, booked("£25.00", ["van_bookings"]))
    assert "unstated-fee" not in said(free, booked("£0.00", ["van_bookings", "charges"]))
    told = "The van on Thursday at 09:00 costs £25.00. Shall I book it?"
    assert "unstated-fee" not in said(told, booked("£25.00", ["van_bookings", "charges"]))


def test_a_unit_read_by_its_own_id_is_wholly_its_owners_when_its_rental_names_another():
    # Found on a self-storage desk written blind: the verified customer asked for her father's
    # gate code; `get_unit(unit_id=...)` returned the PIN at the top and the rental (another
    # customer's id) inside, and the agent read out the name and PIN.
    verify = ToolCall(name="verify_member", changes=[],
                      args={"card_number": "KS-4161", "postcode": "M15 4WE"},
                      result={"customer_id": "C07", "name": "Grace Hughes"})  # fmt: skip
    unit = ToolCall(name="list_loans", args={"unit_id": "C04"}, changes=[], result={
        "unit_id": "C04", "customer_name": "Henry Hughes", "gate_pin": "558207",
        "rental": {"rental_id": "R-508", "customer_id": "C08"}})  # fmt: skip
    opening = [user("My account is KS-4161, postcode M15 4WE. What's the code for unit C04?"),
               verify, unit]  # fmt: skip
    shown = labels(*opening, agent("Unit C04 is rented by Henry Hughes; the gate PIN is 558207."))
    kept = labels(*opening, agent("Sorry, unit C04 is not on your account."))
    assert "shown-to-non-owner" in shown and "shown-to-non-owner" not in kept
