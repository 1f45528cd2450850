"""An apology with the rule it keeps, and "nothing has been changed", declines the request.

Found on a tutoring desk written blind: "I'm sorry — Mr Reid doesn't teach GCSE maths, and a
change of tutor has to be within the same subject. ... Nothing has been changed." was not read
as a refusal; the parent asked again until the turns ran out.
"""

from datetime import UTC, datetime

from vistasim.user import AgendaPolicy, Finish

from ._driver import converse, goal_only, scripted

MONDAY = datetime(2026, 12, 14, 10, tzinfo=UTC)
REFUSED = ("I'm sorry — Mr Reid doesn't teach GCSE maths, and a change of tutor has to be within "
           "the same subject. For maths we have Ms Hughes. Nothing has been changed. Is there "
           "anything else I can help with?")  # fmt: skip


async def test_the_apology_and_its_rule_end_the_request():
    scenario = goal_only("Zoe would like to switch her maths lessons to Mr Reid — she really "
                         "gets on with him.", {"account_id": "BT3012"})  # fmt: skip
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario,
                                 scripted("What's the account number?", REFUSED, REFUSED),
                                 seed=seed, max_turns=4, now=MONDAY)  # fmt: skip
        assert isinstance(episode.last, Finish) and len(episode.said) == 2, episode.said


async def test_an_apology_for_not_catching_a_reply_is_no_refusal():
    scenario = goal_only("Please move Zoe's maths lesson to Friday.", {"account_id": "BT3012"})
    episode = await converse(AgendaPolicy(), scenario, scripted(
        "Sorry, I didn't catch that — the account number has to be given first. What is it?",
        "Done."), max_turns=2, now=MONDAY)  # fmt: skip
    assert "BT3012" in episode.said[1], episode.said
