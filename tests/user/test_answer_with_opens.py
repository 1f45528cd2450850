"""An answer is no opening hours because it says "opens": "the code ... opens every gate".

Found on a marina desk written blind: "This month's gate code is 4817 — it opens every pontoon
gate." was dropped as a sentence of opening hours, and the user asked again five times.
"""

from datetime import UTC, datetime

from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MAY = datetime(2027, 5, 10, 10, tzinfo=UTC)


async def test_a_code_said_beside_opens_answers_the_question():
    scenario = goal_only("What's the gate code this month? My crew are coming down on Saturday "
                         "and I've forgotten it.", {"holder_id": "SM2016"})  # fmt: skip
    replies = ("What's your berth-holder number?",
               "This month's gate code is 4817 — it opens every pontoon gate. Is there anything "
               "else I can help with?", "Sorry?")  # fmt: skip
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario, scripted(*replies), seed=seed,
                                 max_turns=4, now=MAY)  # fmt: skip
        assert isinstance(episode.last, Finish) and len(episode.said) == 2, episode.said
