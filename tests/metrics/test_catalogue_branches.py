"""The failure catalogue on explored runs: a branch inherits the causes in its prefix."""

from dataclasses import replace

from tests.metrics._builders import agent, criteria, episode, make_run, stop, user
from vistasim.events import StateChange, ToolCall
from vistasim.metrics import catalogue_failures

UNMET = "bookings SW31515 flight_no BA2496"
CHANGE = StateChange(table="bookings", key="SW31515", op="update", fields=["meet_greet"])
EXTRAS = ToolCall(name="add_extras", args={"booking_ref": "SW31515"}, changes=[CHANGE])


def _explored_run(*, fork_before_claim: bool):
    """A parent that claims a flight change it never made, and one branch of it."""
    head = [
        user("Please change my flight to BA2496 and add meet and greet."),
        agent("To change the flight on SW31515 to BA2496. Shall I go ahead?"),
        user("Yes, please."),
    ]
    claim = agent("Done — SW31515 now tracks flight BA2496. Shall I add meet-and-greet?")
    tail = [
        user("Yes, please."),
        EXTRAS,
        agent("Done — SW31515 now has meet-and-greet."),
        criteria(False, UNMET),
        stop(),
    ]
    parent = episode("e0", "s1", [*head, claim, *tail])
    cut = 2 if fork_before_claim else 4
    prefix = parent.events[:cut]
    own = [*head, claim][cut:]
    hold = [user("Hold on — not yet."), agent("No problem. Just say yes when you're ready.")]
    branch_events = [*hold, *own, *tail]
    branch = episode("e0.b1", "s1", branch_events, branch_of="e0", prefix=prefix)
    branch = replace(branch, fork_event_id=prefix[-1].id)
    return make_run([parent, branch], agent_tools=["add_extras", "update_flight"])


async def test_unmet_criteria_of_a_branch_forked_after_a_false_claim_are_that_claims_symptom():
    catalogue = await catalogue_failures(_explored_run(fork_before_claim=False))
    [cause] = [u for u in catalogue.unique if u.id in catalogue.causes]
    assert (cause.label, cause.episodes) == ("claimed-without-action", ["e0"])
    [symptom] = [u for u in catalogue.unique if u.id not in catalogue.causes]
    assert symptom.episodes == ["e0", "e0.b1"]
    assert catalogue.explained_by == {symptom.id: cause.id}
    assert catalogue.distinct == 1


async def test_a_branch_that_makes_the_false_claim_itself_shows_it_as_its_own():
    catalogue = await catalogue_failures(_explored_run(fork_before_claim=True))
    [cause] = [u for u in catalogue.unique if u.id in catalogue.causes]
    assert cause.episodes == ["e0", "e0.b1"]
    assert catalogue.distinct == 1
