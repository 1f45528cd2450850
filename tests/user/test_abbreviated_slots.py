"""A fact held under an abbreviation of the name the desk asks by (`dob`, `date_of_birth`).

Found on an optician's desk written blind: its lexicon and tools say `date_of_birth`, its
scenarios `dob`. Asked "And your date of birth, with the year?", the user said it did not have
one, five times, and 18 of 23 episodes of a correct agent failed.
"""

from datetime import UTC, datetime

import pytest

from vistasim.user import AgendaPolicy

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 7, 10, tzinfo=UTC)
ASK_ID = "Before I can help I need to check it's you. What's your customer number?"
ASK_DOB = "Thank you. And your date of birth, with the year?"


@pytest.mark.parametrize(
    ("held", "desk"),
    [("dob", "date_of_birth"), ("date_of_birth", "dob")],
)
async def test_the_date_of_birth_is_given_whichever_name_holds_it(held, desk):
    scenario = goal_only("Please add anti-glare to the glasses I ordered last week.",
                         {"customer_id": "CV2013", held: "16 June 1987"})  # fmt: skip
    lexicon = {desk: ["date of birth", "birthday"], "customer_id": ["customer number"]}
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario, scripted(ASK_ID, ASK_DOB, ASK_DOB),
                                 seed=seed, max_turns=3, lexicon=lexicon, now=MONDAY)  # fmt: skip
        assert "16 June 1987" in episode.said[2], episode.said
