import anyio
import pytest

from vistasim.browser import Click, Navigate, Scroll, TypeText
from vistasim.errors import ConfigError
from vistasim.events import AgentReply, ApiCall, Stop, StopReason, ToolCall, UserMessage, WebAction
from vistasim.scenario import Persona, Scenario
from vistasim.user import (
    SCRIPT_OVER,
    CallApi,
    Finish,
    Say,
    ScriptedUser,
    UserPolicy,
    UserView,
    actions_of_events,
    load_script,
    script_json,
)

SCENARIO = Scenario(id="s1", persona=Persona(name="Ann"), goal="Track W1002.")


def _play(user, steps):
    state = user.initial_state(SCENARIO, seed=1)
    view = UserView(scenario=SCENARIO, transcript=(), turn=0, max_turns=9)
    actions = []
    for _ in range(steps):
        action, state = anyio.run(user.next_action, view, state)
        actions.append(action)
    return actions


def test_the_scripted_user_plays_its_turns_then_stops():
    user = ScriptedUser(["hi", CallApi(name="track", args={"id": "W1002"})])
    assert isinstance(user, UserPolicy)
    assert _play(user, 3) == [
        Say(text="hi"),
        CallApi(name="track", args={"id": "W1002"}),
        Finish(reason="user_stop", text=SCRIPT_OVER),
    ]


def test_a_scenario_without_a_script_is_not_played():
    user = ScriptedUser({"other": ["hi"]})
    assert "no script for scenario 's1'" in (user.unplayable(SCENARIO) or "")
    assert ScriptedUser({"s1": ["hi"]}).unplayable(SCENARIO) is None


def test_stored_events_give_back_the_users_actions_web_steps_included():
    events = [
        UserMessage(text="hello"),
        ToolCall(name="get_order", args={"order_id": "W1"}),
        AgentReply(text="Which one?"),
        ApiCall(name="track", args={"id": "W1"}),
        WebAction(action="type", target="email", value="a@b.c", enter=True),
        WebAction(action="click", target="submit", observation="saved"),
        WebAction(action="scroll", value="up"),
        WebAction(action="navigate", value="/orders", url="http://x/orders"),
        WebAction(action="click", error="there is no web page in this mode"),
        Stop(reason=StopReason.GOAL_MET, detail="thanks"),
    ]
    assert actions_of_events(events) == [
        Say(text="hello"),
        CallApi(name="track", args={"id": "W1"}),
        TypeText(target="email", text="a@b.c", enter=True),
        Click(target="submit"),
        Scroll(direction="up"),
        Navigate(url="/orders"),
        Finish(reason="goal_met", text="thanks"),
    ]
    assert actions_of_events([Stop(reason=StopReason.MAX_TURNS)]) == []


def test_a_script_file_round_trips_through_script_json(tmp_path):
    actions = [Say(text="hi"), Click(target="buy"), Finish(reason="goal_met", text="ok")]
    import yaml

    path = tmp_path / "script.yaml"
    path.write_text(yaml.safe_dump({"s1": script_json(actions)}), encoding="utf-8")
    assert load_script(path) == {"s1": actions}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("s1:\n  - {kind: fly, to: moon}\n", "s1[0]: unknown user action kind 'fly'"),
        ("s1:\n  - hi\n  - {kind: click}\n", "s1[1]: "),
        ("s1:\n  - 3\n", "s1[0]: a turn is a text or a mapping"),
        ("- hi\n", "maps each scenario id to a list of user turns"),
    ],
)
def test_a_bad_script_names_the_file_and_the_turn(tmp_path, text, where):
    path = tmp_path / "script.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_script(path)
    assert str(path) in str(err.value) and where in str(err.value)


def test_the_scripted_policy_needs_a_script_file(tmp_path):
    from tests.helpers import desk_config, desk_scenarios
    from vistasim.explore import run_sync

    config = desk_config(user={"policy": "scripted"})
    with pytest.raises(ConfigError, match="user.script: user.policy = 'scripted' needs"):
        run_sync(config, scenarios=desk_scenarios(), store=tmp_path / "v.db", preflight=False)
