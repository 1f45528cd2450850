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
