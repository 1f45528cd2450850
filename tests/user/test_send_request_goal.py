"""A goal asking the desk to send something is a request, ended by "it has been sent".

Found on an optician's desk written blind: "Could you email me a copy of my latest
prescription?" was read as a question; after "Done — a copy of your prescription has been sent
to luke.perry@example.com." the user asked again, and a second copy went out.
"""

from datetime import UTC, datetime

from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 7, 10, tzinfo=UTC)


async def test_a_copy_reported_sent_ends_the_goal():
    scenario = goal_only("Could you email me a copy of my latest prescription?",
                         {"customer_id": "CV2021"})  # fmt: skip
    replies = (
        "What's your customer number?",
        "To email a copy of your latest prescription to luke.perry@example.com. Shall I send it?",
        "Done — a copy of your prescription has been sent to luke.perry@example.com. Is there "
        "anything else I can help with?",
        "Sorry?",
    )
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario, scripted(*replies), seed=seed,
                                 max_turns=5, now=MONDAY)  # fmt: skip
        assert isinstance(episode.last, Finish) and len(episode.said) == 3, episode.said
