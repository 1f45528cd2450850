"""The bundled scenarios: valid, graded correctly, and played end to end by the offline user.

Common and policy scenarios pass against the rule agent; the flaw scenarios (tags flaw:F1-F3)
fail, because the offline user's opening message carries the trigger behaviour. F4 needs a
"yes, but ..." reply, which only a perturbed or LLM user produces (tested in the flaw tests).
"""

from __future__ import annotations

import pytest

from vistasim.agent import Turn, Utterance
from vistasim.domains import get_domain
from vistasim.domains.school import SchoolEnvironment
from vistasim.explore import evaluate_criteria
from vistasim.scenario import Scenario
from vistasim.user import AgendaPolicy, CallApi, Finish, UserView

DOMAIN = get_domain("school")
SCENARIOS = {s.id: s for s in DOMAIN.scenarios()}
OFFLINE_FAILS = ("flaw:F1", "flaw:F2", "flaw:F3")


def test_at_least_thirty_scenarios_with_criteria():
    assert len(SCENARIOS) >= 30
    for scenario in SCENARIOS.values():
        criteria = scenario.criteria
        assert criteria.state or criteria.actions or criteria.statements, scenario.id
        assert scenario.agenda and scenario.knowledge["student_id"], scenario.id


def test_every_documented_flaw_has_scenarios():
    tags = {t for s in SCENARIOS.values() for t in s.tags if t.startswith("flaw:")}
    assert tags == {"flaw:F1", "flaw:F2", "flaw:F3", "flaw:F4"}


def test_readme_lists_every_flaw_scenario():
    from importlib import resources

    readme = (resources.files(DOMAIN.package) / "README.md").read_text(encoding="utf-8")
    for scenario in SCENARIOS.values():
        if any(t.startswith("flaw:") for t in scenario.tags):
            assert scenario.id in readme


def test_state_criteria_name_real_tables_and_columns():
    env = SchoolEnvironment()
    for scenario in SCENARIOS.values():
        for criterion in scenario.criteria.state:
            env.select(criterion.table, dict(criterion.where))


async def play(scenario: Scenario):
    env = DOMAIN.make_environment()
    agent = DOMAIN.rule_agent(env=env)
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=0)
    api_mode = "api" in scenario.tags
    transcript: list[Utterance] = []
    calls, texts, last_api = [], [], None
    for turn in range(scenario.limits.max_turns):
        view = UserView(
            scenario=scenario,
            transcript=tuple(transcript),
            turn=turn,
            max_turns=scenario.limits.max_turns,
            lexicon=env.lexicon(),
            last_api_result=last_api,
            api_tools=tuple(env.user_tools()) if api_mode else (),
        )
        action, state = await policy.next_action(view, state)
        last_api = None
        if isinstance(action, Finish):
            break
        if isinstance(action, CallApi):
            last_api = await env.call_user_api(action.name, action.args)
            continue
        reply = await agent.respond(Turn(episode_id="e", message=action.text))
        transcript += [
            Utterance(role="user", text=action.text),
            Utterance(role="agent", text=reply.text),
        ]
        calls += reply.tool_calls
        texts.append(reply.text)
    return evaluate_criteria(scenario.criteria, tool_calls=calls, agent_texts=texts, env=env)


@pytest.mark.parametrize("scenario_id", sorted(SCENARIOS))
async def test_offline_user_against_rule_agent(scenario_id):
    scenario = SCENARIOS[scenario_id]
    judgment = await play(scenario)
    expected_to_fail = any(tag in OFFLINE_FAILS for tag in scenario.tags)
    assert judgment.passed is not expected_to_fail, judgment.reason


def judge(scenario_id: str, env: SchoolEnvironment, calls=(), texts=()):
    return evaluate_criteria(
        SCENARIOS[scenario_id].criteria, tool_calls=list(calls), agent_texts=list(texts), env=env
    )


def test_criteria_pass_on_hand_made_good_end_state():
    env = SchoolEnvironment()
    outcome = env.run_tool(
        "agent",
        "reschedule_student_exam",
        {
            "student_id": "S1005",
            "exam_id": "EX-PSYC250-FIN",
            "session_id": "EX-PSYC250-FIN-2",
            "reason": "conflict",
        },
    )
    assert outcome.error is None
    assert judge("school-reschedule-conflict-free", env, texts=["Conflict moves are free."]).passed


def test_criteria_fail_on_hand_made_bad_end_state():
    env = SchoolEnvironment()
    env.run_tool(
        "agent",
        "reschedule_student_exam",
        {
            "student_id": "S1005",
            "exam_id": "EX-PSYC250-FIN",
            "session_id": "EX-PSYC250-FIN-2",
            "reason": "personal",
        },
    )
    judgment = judge("school-reschedule-conflict-free", env, texts=["Done, it's free."])
    assert not judgment.passed
    assert "reschedule_reason" in judgment.reason


def test_criteria_fail_on_untouched_state():
    assert not judge("school-f2-drop-two-courses", SchoolEnvironment()).passed


def test_criteria_forbidden_action_fails_even_with_good_state():
    from vistasim.events import ToolCall

    env = SchoolEnvironment()
    env.run_tool("agent", "enroll_student", {"student_id": "S1001", "section_id": "PHIL101-A"})
    wrong = ToolCall(
        name="enroll_student",
        args={"student_id": "S1001", "section_id": "ECON102-A"},
        result={"enrolled": "ECON102-A"},
    )
    good = judge("school-f1-enroll-corrected-course", env)
    bad = judge("school-f1-enroll-corrected-course", env, calls=[wrong])
    assert good.passed and not bad.passed
