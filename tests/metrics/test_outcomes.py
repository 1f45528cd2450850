"""Every episode ends as one of five outcomes; only passed and failed count for the agent."""

from vistasim.events import ApiCall, StopReason, ToolCall
from vistasim.metrics import LOST_USER, find_all, success
from vistasim.scenario import AgendaItem, Behaviour, Persona, Scenario

from ._builders import agent, criteria, episode, make_run, stop, user


def outcome_of(*events, scenario: Scenario | None = None, **kw):
    run = make_run(
        [episode("e1", "s1", list(events), **kw)], agent_tools=["get_order", "cancel_order"]
    )
    if scenario is not None:
        run = run.__class__(**{**run.__dict__, "scenarios": {"s1": scenario}})
    verdict = find_all(run).verdicts["e1"]
    return verdict.outcome, verdict.reason


def test_criteria_met_is_passed_and_not_met_is_failed():
    assert outcome_of(user("hi"), agent("hello"), criteria(True), stop())[0] == "passed"
    assert outcome_of(user("hi"), agent("hello"), criteria(False, "x"), stop())[0] == "failed"


def test_an_agent_error_is_failed_and_an_infra_error_is_errored():
    assert outcome_of(user("hi"), stop(StopReason.AGENT_ERROR, "HTTP 500"))[0] == "failed"
    assert outcome_of(user("hi"), stop(StopReason.INFRA_ERROR, "provider down"))[0] == "errored"


def test_a_simulator_error_is_invalid_even_with_failed_criteria():
    outcome, reason = outcome_of(
        user("hi"), agent("hello"), criteria(False, "x"), stop(StopReason.SIMULATOR_ERROR, "bad")
    )
    assert outcome == "invalid" and "simulated user" in reason


def test_a_not_applicable_scenario_is_listed_with_its_reason():
    outcome, reason = outcome_of(stop(StopReason.NOT_APPLICABLE, "needs an LLM user"))
    assert (outcome, reason) == ("not_applicable", "not playable: needs an LLM user")


def test_an_episode_where_the_agent_got_no_message_is_never_failed():
    events = [ApiCall(name="cancel_my_order", args={"order_id": "W1"}), criteria(False, "x")]
    assert outcome_of(*events, stop())[0] == "invalid"


def test_a_false_claim_fails_an_episode_whose_criteria_passed():
    events = [user("cancel W1003"), agent("Done — W1003 has been cancelled."), criteria(True)]
    outcome, reason = outcome_of(*events, stop())
    assert outcome == "failed" and "no successful call" in reason


def test_an_agent_acting_on_a_value_the_user_got_wrong_is_invalid():
    scenario = Scenario(
        id="s1", persona=Persona(name="Ann"), goal="Cancel my order.",
        knowledge={"order_id": "W1003"},
    )  # fmt: skip
    events = [
        user("Please cancel W1030."),
        ToolCall(name="cancel_order", args={"order_id": "W1030"}),
        agent("Done — W1030 has been cancelled."),
        criteria(False, "state"),
        stop(),
    ]
    outcome, reason = outcome_of(*events, scenario=scenario)
    assert outcome == "invalid" and "contradicts a fact" in reason


def test_a_planned_wrong_value_is_not_the_users_fault():
    item = AgendaItem(
        intent="cancel_order",
        slots={"order_id": "W1003"},
        behaviours=[Behaviour(op="correct", slot="order_id", wrong="W1030")],
    )
    scenario = Scenario(id="s1", persona=Persona(name="Ann"), goal="Cancel.", agenda=[item])
    events = [
        user("Cancel W1030 — sorry, I mean W1003."),
        ToolCall(name="cancel_order", args={"order_id": "W1030"}),
        agent("Done — W1030 has been cancelled."),
        criteria(False, "state"),
        stop(),
    ]
    assert outcome_of(*events, scenario=scenario)[0] == "failed"


def test_success_counts_only_passed_and_failed():
    run = make_run(
        [
            episode("e1", "s1", [user("hi"), agent("ok"), criteria(True), stop()]),
            episode("e2", "s1", [user("hi"), agent("ok"), stop(StopReason.SIMULATOR_ERROR)]),
            episode("e3", "s2", [stop(StopReason.NOT_APPLICABLE, "needs an LLM user")]),
        ]
    )
    report = success(run)
    assert report.success_rate == 1.0
    assert report.outcomes["invalid"] == 1 and report.outcomes["not_applicable"] == 1
    assert report.reasons["e3"] == "not playable: needs an LLM user"



def test_a_user_that_could_not_follow_the_agent_makes_the_episode_invalid():
    detail = f"{LOST_USER}: 3 replies in a row it could not read"
    lost = outcome_of(user("hi"), agent("zzz"), criteria(False, "x"),
                      stop(StopReason.USER_STOP, detail))  # fmt: skip
    gave_up = outcome_of(user("hi"), agent("zzz"), criteria(False, "x"),
                         stop(StopReason.USER_STOP, "This isn't working."))  # fmt: skip
    assert lost == ("invalid", detail)
    assert gave_up[0] == "failed"
