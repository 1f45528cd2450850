"""Checks of the simulated user go by evidence: what changed the state, what was planned."""

from dataclasses import replace

from vistasim.events import StateChange, ToolCall, WebAction
from vistasim.metrics import find_all
from vistasim.scenario import Persona, Scenario
from vistasim.store._view import BranchView

from ._builders import agent, criteria, episode, make_run, stop, user

ORDER = StateChange(table="orders", key="W1010", fields=["status"])


def _verdict(view, **run):
    findings = find_all(replace(make_run([view]), **run))
    return findings.verdicts[view.episode_id], {f.check for f in findings.user}


def test_a_login_click_that_changed_nothing_is_not_the_user_changing_the_state():
    events = [
        WebAction(action="click", target="login-submit", changes=[]),
        user("Please cancel W1011."),
        agent("I cannot find that order."),
        criteria(False, "orders W1011 cancelled"),
        stop(),
    ]
    verdict, checks = _verdict(episode("e1", "s1", events))
    assert "acted-against-goal" not in checks and verdict.outcome == "failed"


def test_a_web_action_that_changed_a_record_while_the_agent_changed_nothing_is_invalid():
    events = [
        user("Hi"),
        agent("Hello! How can I help?"),
        WebAction(action="click", target="row-3", changes=[ORDER]),
        criteria(False, "orders W1011 cancelled"),
        stop(),
    ]
    verdict, checks = _verdict(episode("e1", "s1", events))
    assert "acted-against-goal" in checks and verdict.outcome == "invalid"


def test_a_web_action_on_a_page_whose_state_is_unknown_never_decides():
    events = [
        user("Hi"),
        agent("Hello!"),
        WebAction(action="click", target="cancel-order-submit"),  # no evidence: external page
        criteria(False, "orders W1011 cancelled"),
        stop(),
    ]
    verdict, checks = _verdict(episode("e1", "s1", events))
    assert "acted-against-goal" not in checks and verdict.outcome == "failed"


def _scenario():
    return Scenario(
        id="s1", persona=Persona(name="Aisha"), goal="Cancel my order.",
        knowledge={"order_id": "W1011", "email": "aisha@example.com"},
    )  # fmt: skip


def test_an_injected_correction_acted_on_with_the_old_value_is_the_agents_failure():
    """DIVERT injected "W1010, sorry, W1011"; the agent cancelled W1010: failed, not invalid."""
    prefix = episode("e0", "s1", [user("I want to cancel an order."), agent("Which order?")])
    injected = "W1010 — sorry, I mean W1011."
    events = [
        user(injected),
        ToolCall(name="cancel_order", args={"order_id": "W1010"}, changes=[ORDER]),
        agent("Order W1010 has been cancelled."),
        criteria(False, "orders W1011 cancelled"),
        stop(),
    ]
    branch = episode("e0.b1", "s1", events, branch_of="e0", prefix=prefix.events)
    branch = replace(branch, fork_event_id=prefix.events[-1].id)
    record = BranchView(
        episode_id="e0.b1", parent_episode_id="e0", scenario_id="s1",
        fork_event_id=prefix.events[-1].id, turn=1, chooser="heuristic", rationale="",
        original={}, candidates=(), chosen=0,
        injected={"action": {"kind": "say", "text": injected}, "user_state": None},
        embedder=None, overhead_tokens=0, status="done",
    )  # fmt: skip
    run = make_run([prefix, branch])
    findings = find_all(replace(run, branches=(record,), scenarios={"s1": _scenario()}))
    assert findings.verdicts["e0.b1"].outcome == "failed"
    assert not [f for f in findings.user if f.decisive]


def test_an_unplanned_wrong_value_the_agent_acted_on_is_still_invalid():
    events = [
        user("Please cancel W1010."),
        ToolCall(name="cancel_order", args={"order_id": "W1010"}, changes=[ORDER]),
        agent("Order W1010 has been cancelled."),
        criteria(False, "orders W1011 cancelled"),
        stop(),
    ]
    view = episode("e1", "s1", events)
    findings = find_all(replace(make_run([view]), scenarios={"s1": _scenario()}))
    assert findings.verdicts["e1"].outcome == "invalid"


def test_running_out_of_turns_after_the_users_own_actions_failed_is_the_simulators_doing():
    from vistasim.events import ApiCall, StopReason, WebAction
    from vistasim.metrics import find_all

    from ._builders import agent, criteria, episode, make_run, stop, user

    events = [
        ApiCall(name="reschedule_exam", args={}, error="invalid arguments for reschedule_exam"),
        WebAction(action="click", target="login-submit",
                  error="the click action failed: Locator.click: Timeout 2000ms exceeded."),
        user("I need to move my exam."),
        agent("Shall I proceed (yes/no)?"),
        criteria(False, "exam moved"),
        stop(StopReason.MAX_TURNS),
    ]  # fmt: skip
    lost = find_all(make_run([episode("e1", "s1", events)]))
    refused = [*events[:1], *events[2:]]  # one failed action: the agent had its turns
    kept = find_all(make_run([episode("e2", "s1", refused)]))
    assert lost.verdicts["e1"].outcome == "invalid"
    assert "ran out of turns" in lost.verdicts["e1"].reason
    assert kept.verdicts["e2"].outcome == "failed"
