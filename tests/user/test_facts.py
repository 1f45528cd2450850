"""The user's facts against what an agent says: a named weekday is checked like a date."""

from __future__ import annotations

from datetime import date

from vistasim.user._facts import build_facts, contradiction

TODAY = date(2026, 12, 3)  # a Thursday
GOAL = "Cancel my home insurance from today - I've sold the flat."


def test_a_wrong_weekday_for_today_is_a_contradiction_said_back_as_the_date() -> None:
    # Found by a held-out desk: the goal's "today" gave a weekday fact with no words to say it
    # back, and the check raised KeyError('weekday') mid-episode.
    facts = build_facts({"policy_number": "HH-104502"}, GOAL, TODAY)
    text = "That's done: it is cancelled from today, Friday."
    found = contradiction(text, facts, {}, TODAY)
    assert found is not None
    assert (found.kind, found.wrong, found.right) == ("weekday", "Friday", "today (3 December)")


def test_the_right_weekday_for_today_is_no_contradiction() -> None:
    facts = build_facts({}, GOAL, TODAY)
    assert contradiction("Cancelled from today, Thursday 3 December.", facts, {}, TODAY) is None


def test_the_weekday_of_another_full_date_is_not_said_for_today() -> None:
    # Found on an insurance desk written blind: "started on Tuesday 10 November" beside a
    # cancellation "from today" was objected to as "I need today, not Tuesday".
    facts = build_facts({}, GOAL, TODAY)
    text = ("Your policy started on Tuesday 10 November 2026, so cooling-off has ended. Your home "
            "would not be insured from today. Shall I cancel the policy?")  # fmt: skip
    assert contradiction(text, facts, {}, TODAY) is None


def test_a_day_gone_by_is_the_records_history_beside_a_day_to_come() -> None:
    # Found on a solar installer's desk written blind (today 12 January 2027): "a quote from
    # your survey SV3024 on Thursday 7 January" for a goal's installation "for Monday 1 March"
    # was objected to as "I said Monday 1 March, not Thursday 7 January".
    today = date(2027, 1, 12)
    goal = ("Please quote me for 10 panels with a string inverter, and book the installation "
            "for Monday 1 March.")  # fmt: skip
    facts = build_facts({}, goal, today)
    text = ("A quote from your survey SV3024 on Thursday 7 January: 10 panels, £3,230.00 in all, "
            "held for 30 days. Shall I issue it?")  # fmt: skip
    assert contradiction(text, facts, {}, today) is None
    held = "£3,230.00 in all, held for 30 days, until Thursday 11 February. Shall I issue it?"
    assert contradiction(held, facts, {}, today) is None  # how long the quote's price holds
    wrong = "To book the installation on Thursday 4 March, £3,230.00. Shall I book it?"
    found = contradiction(wrong, facts, {}, today)
    assert found is not None and found.wrong == "Thursday 4 March"
    # A goal about a day gone by ("missed on Friday 8 January") still hears other past days.
    missed = build_facts({}, "My bin was missed on Friday 8 January. Please log it.", today)
    found = contradiction("I've logged your bin as missed on Thursday 7 January.", missed, {},
                          today)  # fmt: skip
    assert found is not None and found.wrong == "Thursday 7 January"


def test_a_sum_of_another_kind_is_not_the_goals_sum() -> None:
    goal = "The storm blew my fence down; the fencer thinks about £1,200 to replace it."
    facts = build_facts({}, goal, TODAY)
    assert contradiction("Your excess is £250.00.", facts, {}, TODAY) is None
    found = contradiction("I've logged the damage at £1,000.", facts, {}, TODAY)
    assert found is not None and found.wrong == "£1,000"


def test_an_objection_to_a_move_names_the_new_value_not_the_old_one() -> None:
    # Found on the dental desk: "I said half past two, not 09:00" for a move from 09:00 to 14:00.
    facts = build_facts({}, "Move my check-up to Monday at half past two.", TODAY)
    text = "I can move it from Friday at 09:00 to Monday at 14:00. Shall I?"
    found = contradiction(text, facts, {}, TODAY)
    assert found is not None and found.wrong == "14:00", found


def test_a_date_a_record_is_valid_until_is_not_the_goals_day() -> None:
    # Found on a box office desk written blind: "your credit voucher ... valid until 31 December
    # 2027" after a return of tickets for 20 December was objected to as the wrong day.
    goal = "I can't go to the Messiah on Sunday 20 December any more. Return my three tickets."
    facts = build_facts({}, goal, TODAY)
    done = "Done. Your credit voucher V-48455 is for £88.50, valid until 31 December 2027."
    assert contradiction(done, facts, {}, TODAY) is None
    moved = "Done. Your tickets are now for 31 December 2027."
    assert contradiction(moved, facts, {}, TODAY) is not None


def test_a_new_records_id_is_news_when_the_goal_makes_one() -> None:
    # Found on a box office desk written blind: the user gave order LH-48305 to prove who it is,
    # asked to book a wheelchair space, and objected to "Done — order LH-48714" as a wrong order.
    held = {"order_id": "LH-48305", "postcode": "LS7 3HP"}
    book = build_facts(held, "Book a wheelchair space for Thursday 17 December.", TODAY)
    done = "Done — order LH-48714 for Thursday 17 December: Stalls W1 (wheelchair)."
    assert contradiction(done, book, {}, TODAY) is None
    cancel = build_facts(held, "Cancel my tickets for Thursday 17 December.", TODAY)
    assert contradiction("Done — order LH-48714 is cancelled.", cancel, {}, TODAY) is not None


def test_how_late_a_record_was_is_no_length_in_place_of_the_goals():
    # library-waive-hospital: "in hospital for three weeks" against "returned 24 days late"
    # made the user object "it should be three weeks, not 24 days" to a correct waiver.
    goal = "My copy of Hamnet went back late because I was in hospital for three weeks."
    facts = build_facts({"card_number": "RL-21026"}, goal, date(2026, 11, 10))
    waive = "I can waive fine F902 (Hamnet, returned 24 days late, £5.00). Shall I go ahead?"
    assert contradiction(waive, facts, {}, date(2026, 11, 10)) is None
    other = contradiction("I can note a stay of 2 weeks. OK?", facts, {}, date(2026, 11, 10))
    assert other is not None and other.wrong == "2 weeks"


def test_a_day_the_plans_were_put_back_by_is_no_length_asked_for():
    # Found on a kennels desk written blind: "My flight's been put back a day, so move Tiger's
    # stay..." made "a day" a length the goal asked for, and the user objected "I need a day,
    # not 7 days" to "The arrival is less than 7 days away, so there's a change fee".
    goal = ("My flight's been put back a day, so move Tiger's stay to arrive on Thursday 17 "
            "December. I'll pay the change fee if there is one.")  # fmt: skip
    facts = build_facts({"account_id": "HB4006"}, goal, date(2026, 12, 14))
    fee = ("To move Tiger's stay to Thursday 17 December to Saturday 19 December: the arrival is "
           "less than 7 days away, so there's a change fee of £15.00. Shall I move it?")
    assert contradiction(fee, facts, {}, date(2026, 12, 14)) is None


def test_a_week_restated_in_days_is_the_same_length():
    # Found on a tool-hire desk written blind: "a dehumidifier for a week" proposed as "£64.00
    # hire for 7 days charged as 4" was objected to as "I said a week, not 7 days" until the
    # chat ran out.
    goal = "I need a dehumidifier for a week, from Monday 14 December to Sunday 20 December."
    facts = build_facts({"account_id": "HW3011"}, goal, date(2026, 12, 9))
    hire = ("To hire a dehumidifier from Monday 14 December to Sunday 20 December: £64.00 hire "
            "for 7 days charged as 4 (a whole week counts as 4 days). Shall I book it?")
    assert contradiction(hire, facts, {}, date(2026, 12, 9)) is None
    short = contradiction("I can hire it to you for 5 days. OK?", facts, {}, date(2026, 12, 9))
    assert short is not None and short.wrong == "5 days"


def test_a_count_said_in_letters_belongs_to_the_request_that_says_it():
    # Found on an escape-room desk written blind: for "Add the photo pack to our booking and
    # make it five players instead of four", the photo pack's proposal describing the booking
    # as "(The Vault, ..., 4 players)" was objected to as "I need 5 players, not 4".
    goal = "Add the photo pack to our booking and make it five players instead of four."
    facts = build_facts({"reference": "LB2017", "players": 5}, goal, date(2026, 12, 10))
    photos = ("To add the photo pack to LB2017 (The Vault, Sunday 27 December at 12:00, 4 "
              "players): £12.00. Shall I add it?")  # fmt: skip
    assert contradiction(photos, facts, {}, date(2026, 12, 10)) is None
    players = ("To change LB2017 (The Vault, Sunday 27 December at 12:00, 4 players) to 6 "
               "players: £168.00. Shall I change it?")  # fmt: skip
    found = contradiction(players, facts, {}, date(2026, 12, 10))
    assert found is not None and found.slot == "players"
