"""A proposal's length or rate is no wrong value for a goal's span of time, nor the reverse.

Found on a marina desk written blind: "To lift Skua (9.4 m) out ... with 6 weeks' storage
ashore ... (£3.00 a metre a week)" was answered "No — it should be 6 weeks, not 9.4 m", and "a
12 m berth ... the 10 months left" with "12 metres, not 10 months"; the user objected until
the turns ran out.
"""

from datetime import UTC, datetime

import pytest

from vistasim.user import AgendaPolicy

from ._driver import converse, goal_only, scripted

MAY = datetime(2027, 5, 10, 10, tzinfo=UTC)
LIFT = ("To lift Skua (9.4 m) out on Thursday 20 May with 6 weeks' storage ashore: the lift is "
        "£214.00 (£120.00 plus £10.00 a metre) and storage £169.20 (£3.00 a metre a week), "
        "£383.20 in all, paid on the lift day. Shall I book it?")  # fmt: skip
BERTH = ("To move you from your 10 m berth A04 to a 12 m berth from 1 June 2027 (£3,600.00 a "
         "year). You paid for the year, so the difference for the 10 months left of the "
         "contract year is £500.00, charged to your card ending 7706. Shall I make the change?")


@pytest.mark.parametrize(
    ("goal", "proposal"),
    [
        ("I'd like Skua lifted out on Thursday 20 May and kept ashore for 6 weeks.", LIFT),
        ("I'd like to move Osprey up to a 12 metre berth. I paid for the year up front.", BERTH),
    ],
)
async def test_a_proposal_with_other_measures_is_accepted(goal, proposal):
    scenario = goal_only(goal, {"holder_id": "SM2011"})
    for seed in range(3):
        episode = await converse(AgendaPolicy(), scenario,
                                 scripted("What's your berth-holder number?", proposal, "Done."),
                                 seed=seed, max_turns=3, now=MAY)  # fmt: skip
        assert " not " not in episode.said[2] and "No" not in episode.said[2], episode.said


async def test_a_wrong_span_is_still_objected_to():
    scenario = goal_only("I'd like Skua kept ashore for 6 weeks from Thursday 20 May.",
                         {"holder_id": "SM2011"})  # fmt: skip
    wrong = "To keep Skua ashore for 4 weeks from Thursday 20 May, £120.00. Shall I book it?"
    episode = await converse(AgendaPolicy(), scenario,
                             scripted("What's your berth-holder number?", wrong, "Done."),
                             max_turns=3, now=MAY)  # fmt: skip
    assert "6 weeks" in episode.said[2] and "4 weeks" in episode.said[2], episode.said
