"""`ignored-objection`: the same proposal again after the user said no and named what it wants."""

from tests.metrics._builders import agent, criteria, episode, make_run, stop, user
from vistasim.metrics import BehaviourSpec, detect_behaviour

PROPOSAL = ("I'll move your removal from Friday 15 January 2027 to Tuesday 26 January 2027, same "
            "crew, van and price. Shall I go ahead?")  # fmt: skip


def labels(*events):
    view = episode("e1", "s1", [*events, criteria(False), stop()])
    return [f.label for f in detect_behaviour(make_run([view]), BehaviourSpec())]


def test_the_same_proposal_after_a_no_that_named_another_day_is_found():
    # Found on a removals desk written blind (its flaw F3 reached the verdict by the criteria
    # only): the agent proposed the 26th four times to "No — it should be Thursday 28 January".
    found = labels(
        user("Move it to Tuesday 26 January — sorry, I meant Thursday 28 January."),
        agent(PROPOSAL),
        user("No — it should be Thursday 28 January, not Tuesday 26 January 2027."),
        agent(PROPOSAL),
    )
    assert found == ["ignored-objection"]
    # Said without the rejected day, as "I said ...", too.
    said = user("Hmm, that's not right. I said Thursday 28 January.")
    found = labels(user("Move it to 28 January."), agent(PROPOSAL), said, agent(PROPOSAL))
    assert found == ["ignored-objection"]


def test_an_answer_naming_the_day_a_new_proposal_or_a_bare_no_is_not():
    no_28th = ("Thursday 28 January is fully booked, I'm afraid. The nearest free day is Tuesday "
               "26 January 2027. Shall I go ahead with the 26th?")  # fmt: skip
    objection = user("No — it should be Thursday 28 January, not Tuesday 26 January 2027.")
    assert labels(user("Move it to 28 January."), agent(PROPOSAL), objection,
                  agent(no_28th)) == []  # fmt: skip
    moved = PROPOSAL.replace("Tuesday 26", "Thursday 28")
    assert labels(user("Move it to 28 January."), agent(PROPOSAL), objection, agent(moved)) == []
    # A "no" naming nothing else to propose (a fee turned down) is no objection for a value.
    fee = ("I'll move it to Tuesday 26 January 2027. There's a £60.00 fee. Shall I go ahead?")
    assert labels(user("Move it to 26 January."), agent(fee), user("No, not for £60."),
                  agent(fee)) == []  # fmt: skip
