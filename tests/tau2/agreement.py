"""Play a sequence of tool calls through our tau2 environment and grade it twice: with our
reward and with tau2's own evaluator on the same calls as a tau2 simulation."""

from __future__ import annotations

import json
from typing import Any

from vistasim.tau2 import Tau2Environment, tasks, tau2_reward

Call = tuple[str, str, dict[str, Any]]
"""(requestor, tool name, arguments)."""


def gold_calls(domain: str, task_id: str) -> list[Call]:
    criteria = tasks(domain)[task_id].evaluation_criteria
    actions = (criteria.actions if criteria else None) or []
    return [(a.requestor, a.name, dict(a.arguments)) for a in actions]


def gold_texts(domain: str, task_id: str) -> list[str]:
    criteria = tasks(domain)[task_id].evaluation_criteria
    infos = (criteria.communicate_info if criteria else None) or []
    return [f"Here is what you asked: {info}." for info in infos] or ["All done."]


def graded_twice(
    domain: str, task_id: str, calls: list[Call], texts: list[str], stop: str = "agent_stop"
) -> tuple[float, float | None]:
    """Our reward and tau2's for one episode that made `calls` and said `texts`.

    tau2's is None where its evaluator raised (an env assertion asking for an id the state
    lacks): it grades nothing there, and ours must then be 0.
    """
    env = Tau2Environment(domain, task_id)
    messages = _history(domain, task_id)
    for number, (requestor, name, args) in enumerate(calls):
        outcome = env.run(requestor, name, args)  # type: ignore[arg-type]
        content = outcome.error if outcome.error is not None else json.dumps(outcome.result)
        messages += _tool_exchange(f"call-{number}", requestor, name, args, content)
    ours = tau2_reward(env, texts, stop=stop).reward
    try:
        theirs: float | None = _theirs(domain, task_id, messages, texts, stop)
    except ValueError:
        theirs = None
    return ours, theirs


def _history(domain: str, task_id: str) -> list[Any]:
    state = tasks(domain)[task_id].initial_state
    return list(state.message_history or []) if state is not None else []


def _tool_exchange(
    call_id: str, requestor: str, name: str, args: dict[str, Any], content: str
) -> list[Any]:
    from tau2.data_model.message import AssistantMessage, ToolCall, ToolMessage, UserMessage

    call = ToolCall(id=call_id, name=name, arguments=args, requestor=requestor)
    speaker = AssistantMessage if requestor == "assistant" else UserMessage
    role = "assistant" if requestor == "assistant" else "user"
    return [
        speaker(role=role, content=None, tool_calls=[call]),
        ToolMessage(id=call_id, role="tool", content=content, requestor=requestor),
    ]


def _theirs(domain: str, task_id: str, messages: list[Any], texts: list[str], stop: str) -> float:
    from tau2.data_model.message import AssistantMessage
    from tau2.data_model.simulation import SimulationRun, TerminationReason
    from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation

    messages = messages + [AssistantMessage(role="assistant", content=text) for text in texts]
    reason = {"agent_stop": "agent_stop", "user_stop": "user_stop", "max_turns": "max_steps"}
    run = SimulationRun(
        id="agreement",
        task_id=task_id,
        start_time="",
        end_time="",
        duration=0.0,
        termination_reason=TerminationReason(reason[stop]),
        messages=messages,
    )
    task = tasks(domain)[task_id]
    info = evaluate_simulation(run, task, EvaluationType.ALL, solo_mode=False, domain=domain)
    return float(info.reward)


def check_task(domain: str, task_id: str) -> None:
    """Gold calls, three mutations of them and a turn-limit stop: both rewards agree on each."""
    calls, texts = gold_calls(domain, task_id), gold_texts(domain, task_id)
    ours, theirs = graded_twice(domain, task_id, calls, texts)
    assert theirs is not None
    _agree(ours, theirs, "gold")
    mutations = {
        "wrong argument": wrong_argument(calls),
        "missing call": missing_call(calls),
        "extra write": extra_write(domain, calls),
    }
    for name, mutated in mutations.items():
        if mutated is not None:
            ours, theirs = graded_twice(domain, task_id, mutated, texts)
            _agree(ours, theirs, name)
    ours, theirs = graded_twice(domain, task_id, calls, texts, stop="max_turns")
    assert ours == theirs == 0.0


def _agree(ours: float, theirs: float | None, what: str) -> None:
    # None: tau2's evaluator raised on this state (it grades nothing); ours scores it 0.
    expected = 0.0 if theirs is None else theirs
    assert ours == expected, f"{what}: ours {ours}, tau2 {theirs}"


def wrong_argument(calls: list[Call]) -> list[Call] | None:
    """The calls with one argument of the last call that has one changed."""
    for index in range(len(calls) - 1, -1, -1):
        requestor, name, args = calls[index]
        for key, value in args.items():
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                continue
            changed = value + "_x" if isinstance(value, str) else value + 1
            return [*calls[:index], (requestor, name, {**args, key: changed}), *calls[index + 1 :]]
    return None


def missing_call(calls: list[Call]) -> list[Call] | None:
    """The calls without the last one."""
    return calls[:-1] if calls else None


def extra_write(domain: str, calls: list[Call]) -> list[Call] | None:
    """The calls with the last write among them made once more."""
    env = Tau2Environment(domain)
    writes = [c for c in calls if c[0] == "assistant" and env.is_write(c[1])]
    return [*calls, writes[-1]] if writes else None
