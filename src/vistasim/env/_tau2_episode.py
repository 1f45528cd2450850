"""tau2's reward for a stored episode: its calls replayed on the task's initial state.

As tau2's own evaluator does, the episode's tool calls (the agent's `ToolCall` events and the
user's `ApiCall` events, in order) are replayed on a fresh environment of the task, and the
agent's replies are what it communicated. The stored episode is all it needs, so a run is graded
after the fact, and the same way whether it was played live or resumed.
"""

from __future__ import annotations

from collections.abc import Iterable

from vistasim.env._tau2 import Tau2Environment
from vistasim.env._tau2_grade import NLJudge, Tau2Reward, tau2_reward
from vistasim.env._tau2_tasks import task_id_of
from vistasim.events import AgentReply, ApiCall, Event, ToolCall, UserMessage


def episode_reward(
    domain: str,
    scenario_id: str,
    events: Iterable[Event],
    *,
    stop: str,
    judge: NLJudge | None = None,
) -> Tau2Reward:
    """tau2's reward for one episode of a `tau2_scenarios(domain)` scenario.

    Raises:
        ValueError: the scenario is not one of the domain's tasks.
    """
    task_id = task_id_of(domain, scenario_id)
    if task_id is None:
        raise ValueError(f"scenario {scenario_id!r} is no task of tau2:{domain}")
    env = Tau2Environment(domain, task_id)
    replies: list[str] = []
    transcript: list[str] = []
    for event in events:
        if isinstance(event, ToolCall):
            env.run("assistant", event.name, dict(event.args))
        elif isinstance(event, ApiCall):
            env.run("user", event.name, dict(event.args))
        elif isinstance(event, AgentReply):
            replies.append(event.text)
            transcript.append(f"assistant: {event.text}")
        elif isinstance(event, UserMessage):
            transcript.append(f"user: {event.text}")
    return tau2_reward(env, replies, stop=stop, transcript=transcript, judge=judge)
