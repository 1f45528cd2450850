"""`misquoted-result`: a figure read out for a record that its own lookup contradicts."""

from vistasim.events import ToolCall
from vistasim.metrics import find_all

from ._builders import agent, criteria, episode, make_run, stop, user

SECTIONS = {"sections": [{"section_id": "CS201-A", "capacity": 12, "seats_left": 0},
                         {"section_id": "CS201-B", "capacity": 30, "seats_left": 27}]}  # fmt: skip
LOOKUP = ToolCall(name="list_courses", args={"query": "CS201"}, result=SECTIONS)


def labels(*events):
    view = episode("e1", "course-1", [*events, criteria(True), stop()])
    return {f.label for f in find_all(make_run([view], agent_tools=["list_courses"])).failures}


def test_a_capacity_read_out_as_the_seats_left_is_found():
    found = labels(
        user("How many seats are left in CS201?"),
        LOOKUP,
        agent("CS201-A (Mon/Wed, Dr. Jansen) has 12 seats left; CS201-B has 30 seats left."),
    )
    assert "misquoted-result" in found


def test_the_figures_the_lookup_returned_are_not_misquoted():
    found = labels(
        user("How many seats are left in CS201?"),
        LOOKUP,
        agent("CS201-A (Mon/Wed, Dr. Jansen) is full: 0 seats left. CS201-B has 27 seats left."),
    )
    assert "misquoted-result" not in found


def test_a_figure_of_another_field_or_of_nothing_named_is_left_alone():
    found = labels(
        user("How big is CS201-A, and how many credits will I have?"),
        LOOKUP,
        agent("CS201-A holds 12 students. You will have 14 credits left to take this year."),
    )
    assert "misquoted-result" not in found


def test_a_figure_in_the_fields_words_in_another_order_for_the_latest_result_is_read():
    moved = ToolCall(name="move_home", args={"account_number": "GE-1005"},
                     result={"account_number": "GE-1005", "final_bill_estimate": 67.12,
                             "usage_charge": 57.58})  # fmt: skip
    wrong = labels(user("I'm moving out."), moved,
                   agent("Done. Your estimated final bill is £57.58."))  # fmt: skip
    right = labels(user("I'm moving out."), moved,
                   agent("Done. Your estimated final bill is £67.12."))  # fmt: skip
    assert "misquoted-result" in wrong and "misquoted-result" not in right


def test_what_would_be_and_figures_of_two_calls_in_one_go_are_not_misquotes():
    def drop(section, left):
        return ToolCall(name="drop_course", args={"section_id": section},
                        result={"dropped": section, "credits_this_term": left})  # fmt: skip

    found = labels(
        user("Drop MATH201-A and HIST110-A."), drop("MATH201-A", 6), drop("HIST110-A", 3),
        agent("Done: dropped MATH201-A. You now have 6 credits this term. Done: dropped "
              "HIST110-A. You now have 3 credits this term. The new total would be 9 credits "
              "this term if you re-enroll."),
    )  # fmt: skip
    assert "misquoted-result" not in found


def test_the_year_of_a_date_is_no_figure_of_the_field_named_after_it():
    policy = ToolCall(name="get_policy", args={"policy_number": "HH-1"},
                      result={"policy_number": "HH-1", "annual_premium": 456.0})  # fmt: skip
    found = labels(
        user("What does my policy cost?"),
        policy,
        agent("Policy HH-1 runs to Saturday 1 May 2027, the annual premium is £456.00."),
    )
    assert "misquoted-result" not in found
    misread = agent("Policy HH-1 runs to 1 May 2027, the annual premium is £465.00.")
    wrong = labels(user("What does my policy cost?"), policy, misread)
    assert "misquoted-result" in wrong


def test_a_figure_of_what_changed_and_one_after_anothers_words_are_not_misquotes():
    # Found on a coworking desk written blind: "2 credit hours returned and £60.00 refunded"
    # read £60.00 as the hours returned (the words stand between the two figures, and are
    # the 2's), and "4 room-credit hours added" as the member's balance of credit hours.
    member = ToolCall(name="get_member", args={"member_id": "HW1013"},
                      result={"member_id": "HW1013", "credit_hours": 3})  # fmt: skip
    cancel = ToolCall(name="cancel_booking", args={"booking_id": "BK2230"},
                      result={"booking_id": "BK2230", "credit_hours_returned": 2})  # fmt: skip
    assert "misquoted-result" not in labels(
        user("Cancel BK2230, please."), member, cancel,
        agent("Done — booking BK2230 is cancelled: 2 credit hours returned and £60.00 refunded."),
    )  # fmt: skip
    assert "misquoted-result" not in labels(
        user("Upgrade me."), member, agent("Done — 4 room-credit hours added to HW1013."),
    )  # fmt: skip
    # The balance read out wrong is still a misquote.
    assert "misquoted-result" in labels(
        user("How many hours do I have?"), member, agent("HW1013 has 5 credit hours left."),
    )  # fmt: skip


def test_one_hour_and_two_hours_are_one_words_figures():
    # Found on a driving-school desk written blind: "1 hour returned to your package, 0 hours
    # lost" read 0 as the hours returned: "hour" and "hours" were two words, so the words
    # after the 1 were not taken as the 1's.
    cancel = ToolCall(name="cancel_lesson", args={"lesson_id": "LS108"},
                      result={"lesson_id": "LS108", "hours_returned": 1, "hours_lost": 0,
                              "hours_left": 8})  # fmt: skip
    assert "misquoted-result" not in labels(
        user("Cancel my lesson, please."), cancel,
        agent("Done — your lesson is cancelled: 1 hour returned to your package, 0 hours lost. "
              "You have 8 hours of package time left."),
    )  # fmt: skip
    assert "misquoted-result" in labels(
        user("Cancel my lesson, please."), cancel,
        agent("Done — LS108 is cancelled. You have 9 hours left."),
    )  # fmt: skip


def test_a_rate_and_a_rules_bound_are_no_figures_of_the_record():
    # Found on a removals desk written blind: "Stairs without a lift are £25.00 a floor" read
    # 25 as the move's `stairs_floors`, "Storage is for 2 weeks at least" 2 as its
    # `storage_weeks`, both 0 in the lookup.
    move = ToolCall(name="get_move", args={"move_ref": "PK40226"},
                    result={"move_ref": "PK40226", "stairs_floors": 0, "storage_weeks": 0,
                            "price_pence": 52000})  # fmt: skip
    for said in (
        "Stairs without a lift are £25.00 a floor: £75.00 added to your price. Shall I add it?",
        "Storage is for 2 weeks at least, so 1 week isn't possible. Shall I add 2 weeks?",
        "Storage is for a minimum of 2 weeks. Shall I add 2 weeks?",
    ):
        assert "misquoted-result" not in labels(user("Add it, please."), move, agent(said))
    # The record's own figure read out wrong is still a misquote.
    assert "misquoted-result" in labels(
        user("What's on my move?"), move, agent("PK40226 has 2 stairs floors and no storage."),
    )  # fmt: skip


def test_the_ends_of_a_rules_range_are_no_figures_of_the_record():
    # Found on a campsite desk written blind: "as it's 7 to 27 days before arrival, the deposit
    # is kept" read 27 as the booking's `days_to_arrival` (10): the band of the refund rule.
    booking = ToolCall(name="get_guest", args={"guest_id": "G106"},
                       result={"booking_ref": "HF2106", "days_to_arrival": 10,
                               "paid_pence": 6200})  # fmt: skip
    for said in (
        "As it's 7 to 27 days before arrival, the deposit is kept. Shall I cancel it?",
        "As it's 7-27 days before arrival, the deposit is kept. Shall I cancel it?",
        "As it's between 7 and 27 days before arrival, the deposit is kept. Shall I cancel it?",
    ):
        assert "misquoted-result" not in labels(user("Cancel it."), booking, agent(said))
    # A figure that changed from one value to another is read at its new value, as before.
    assert "misquoted-result" in labels(
        user("How long now?"), booking,
        agent("HF2106 went from 10 to 12 days to arrival."),
    )  # fmt: skip


def test_a_price_is_no_count_of_the_record_and_what_is_added_is_no_figure_of_it():
    # Found on a transfers desk written blind: a past booking read (`meet_greet: 0`,
    # `child_seats: 0`), then "meet-and-greet £12.00" for a new booking was read as its
    # meet_greet, and "To add 2 child seats (£8.00 each) to booking SW30909" as its child_seats.
    booking = ToolCall(name="get_account", args={"email": "isla.reid@example.com"},
                       result={"bookings": [{"booking_ref": "SW30909", "meet_greet": 0,
                                             "child_seats": 0, "fare_pence": 9500}]})  # fmt: skip
    for said in (
        "To book a saloon for 1 passenger: fare £45.00, meet-and-greet £12.00 — £57.00 in all. "
        "Shall I book it?",
        "To add 2 child seats (£8.00 each) to booking SW30909: £16.00. Shall I add it?",
        "To add meet-and-greet (£12.00) to booking SW30909: £12.00. Shall I add it?",
    ):
        assert "misquoted-result" not in labels(user("Book it."), booking, agent(said)), said
    # The record's own count said wrong is still a misquote.
    found = labels(user("What's on it?"), booking, agent("SW30909 has 2 child seats."))
    assert "misquoted-result" in found


def test_a_count_of_nights_is_no_figure_of_a_field_named_beside_it():
    # Found on a coach tour desk written blind: "To give Margaret Owens a single room for the 5
    # nights of booking WF30102" read as the passenger's `single_room: 0`.
    passengers = ToolCall(name="get_booking", args={"booking_ref": "WF30102"}, result={
        "passengers": [{"passenger_id": "P402", "name": "Margaret Owens", "single_room": 0}]})
    found = labels(
        user("Please add a single room."),
        passengers,
        agent("To give Margaret Owens a single room for the 5 nights of booking WF30102: £25.00 "
              "a night, £125.00 in all. Shall I add it?"),
    )
    wrong = labels(
        user("Do I have a single room?"),
        passengers,
        agent("Margaret Owens has 1 single room on the booking."),
    )
    assert "misquoted-result" not in found and "misquoted-result" in wrong


def test_the_value_a_proposed_change_sets_is_no_read_out_of_the_record():
    # Catering: "To set the dietary meals on order EV7021 ... to 8 vegetarian and 2
    # gluten-free" proposes the change; the record still says 0 gluten-free.
    order = {"orders": [{"order_id": "EV7021", "gluten_free": 0, "price_pence": 2520}]}
    lookup = ToolCall(name="get_account", args={"account_id": "CT3021"}, result=order)
    proposal = ("To set the dietary meals on order EV7021 (dinner for 60 guests) to 8 vegetarian "
                "and 2 gluten-free (no charge). Shall I update it?")
    assert "misquoted-result" not in labels(user("update the dietary numbers"), lookup,
                                            agent(proposal))
    misread = "To cancel order EV7021: it has 2 gluten-free meals. Shall I cancel it?"
    assert "misquoted-result" in labels(user("cancel it"), lookup, agent(misread))


def test_a_bracket_after_a_date_speaks_of_its_own_date_not_that_one():
    # Tennis club: "runs to 31 July 2027 (renewal opens on 1 June 2027)" read the first date
    # as the renewal's, its field named by the bracket's words.
    member = {"member_id": "ALT2005", "expires": "2027-07-31", "renewal_opens": "2027-06-01"}
    lookup = ToolCall(name="get_member", args={"member_id": "ALT2005"}, result=member)
    said = "Your Adult membership runs to 31 July 2027 (renewal opens on 1 June 2027)."
    assert "misquoted-result" not in labels(user("when does it run out?"), lookup, agent(said))
    clause = "Your membership runs to 31 July 2027, and renewal opens on 1 June 2027."
    assert "misquoted-result" not in labels(user("when does it run out?"), lookup, agent(clause))
    wrong = "Your renewal opens on 31 July 2027."
    assert "misquoted-result" in labels(user("when can I renew?"), lookup, agent(wrong))
