from typing import get_args

from vistasim.browser import ACTION_DESCRIPTIONS, WEB_STEPS, WebStep
from vistasim.events import (
    AgentReply,
    ApiCall,
    Judgment,
    Note,
    Snapshot,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
    WebAction,
    WebActionKind,
    describe_event,
)


def test_every_web_action_kind_has_one_step_class_with_its_description():
    assert list(WEB_STEPS) == list(get_args(WebActionKind))
    assert set(WEB_STEPS.values()) == set(get_args(WebStep))
    assert all(ACTION_DESCRIPTIONS[kind].startswith(kind) for kind in WEB_STEPS)


def test_every_event_kind_reads_as_lines_and_snapshots_as_none():
    events = [
        UserMessage(text="hi"),
        AgentReply(text="hello"),
        ToolCall(name="get_order", args={"id": "W1"}, result={"ok": True}),
        ApiCall(name="track", error="no such order"),
        WebAction(action="click", target="buy", error="blocked"),
        Judgment(judge="criteria", passed=False, checks=[{"check": "x", "passed": False}]),
        Note(text="resumed"),
        Stop(reason=StopReason.GOAL_MET, detail="thanks"),
    ]
    lines = [describe_event(event) for event in events]
    assert [line[0].who for line in lines] == [
        "user", "agent", "tool", "api", "web", "verdict", "note", "stop"
    ]  # fmt: skip
    assert lines[3][0].ok is False and lines[4][0].text == "click buy -> blocked"
    assert [line.text for line in lines[5]] == ["criteria: FAIL", "FAILED: x"]
    assert describe_event(Snapshot(turn=0)) == ()


def test_agent_reply_request_digests_stay_out_of_the_json_when_empty():
    from vistasim.events import EVENT_ADAPTER, RequestDigest

    assert "requests" not in AgentReply(text="hi").model_dump(mode="json")
    assert "requests_source" not in AgentReply(text="hi").model_dump(mode="json")
    digest = RequestDigest(input_tokens=9, output_tokens=2, head_tokens=4,
                           prefix=[("a" * 16, 4), ("b" * 16, 9)])  # fmt: skip
    reply = AgentReply(text="hi", requests=[digest], requests_source="proxy")
    dumped = reply.model_dump(mode="json")
    assert dumped["requests"][0]["prefix"] == [["a" * 16, 4], ["b" * 16, 9]]
    assert EVENT_ADAPTER.validate_python(dumped) == reply
    assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(reply)) == reply
