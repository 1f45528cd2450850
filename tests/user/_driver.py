"""Drive a user policy against scripted agent functions, the way the episode loop would."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from pydantic import JsonValue

from vistasim.agent import Utterance
from vistasim.env import ToolOutcome
from vistasim.llm import ToolSpec
from vistasim.scenario import Scenario
from vistasim.user import Action, Finish, Say, UserPolicy, UserView

Agent = Callable[[tuple[Utterance, ...]], str]
Api = Callable[[str, dict[str, JsonValue]], ToolOutcome]


def make_scenario(**overrides: object) -> Scenario:
    data: dict[str, object] = {
        "id": "shop-return",
        "persona": {
            "name": "Dana Reyes",
            "profile": "34, nurse, busy, polite but brief",
            "style": {"verbosity": "medium", "patience": 2, "formality": "neutral"},
        },
        "goal": "Return the blender from order W1007 for a refund to the original card.",
        "knowledge": {"order_id": "W1007", "email": "dana.reyes@example.com"},
        "hidden": {"defect": "the glass jar arrived cracked"},
        "agenda": [{"intent": "return_item", "slots": {"order_id": "W1007", "item": "blender"}}],
    }
    data.update(overrides)
    return Scenario.model_validate(data)


def goal_only(goal: str, knowledge: dict[str, str], *, name: str = "Sam Kettering",
              profile: str = "40", patience: int = 4, scenario_id: str = "desk") -> Scenario:
    """A scenario as a product owner writes one: a goal and facts, no agenda."""
    return Scenario.model_validate(
        {
            "id": scenario_id,
            "persona": {"name": name, "profile": profile,
                        "style": {"verbosity": "medium", "patience": patience}},
            "goal": goal,
            "knowledge": knowledge,
        }
    )  # fmt: skip


def scripted(*replies: str) -> Agent:
    """An agent that answers the n-th user message with the n-th reply (the last one repeats)."""

    def agent(transcript: tuple[Utterance, ...]) -> str:
        turn = sum(1 for u in transcript if u.role == "user")
        return replies[min(turn, len(replies)) - 1]

    return agent


@dataclass
class Episode:
    actions: list[Action]
    transcript: tuple[Utterance, ...]
    states: list[JsonValue]

    @property
    def said(self) -> list[str]:
        return [a.text for a in self.actions if isinstance(a, Say)]

    @property
    def last(self) -> Action:
        return self.actions[-1]


async def converse(
    policy: UserPolicy,
    scenario: Scenario,
    agent: Agent,
    *,
    seed: int = 0,
    api: Api | None = None,
    api_tools: tuple[ToolSpec, ...] = (),
    lexicon: dict[str, list[str]] | None = None,
    agent_tools: tuple[ToolSpec, ...] = (),
    max_turns: int = 12,
    now: datetime | None = None,
) -> Episode:
    state = policy.initial_state(scenario, seed=seed)
    transcript: tuple[Utterance, ...] = ()
    actions: list[Action] = []
    states = [state]
    outcome: ToolOutcome | None = None
    for turn in range(max_turns):
        view = UserView(
            scenario=scenario,
            transcript=transcript,
            turn=turn,
            max_turns=max_turns,
            api_tools=api_tools,
            last_api_result=outcome,
            lexicon=lexicon or {},
            agent_tools=agent_tools,
            now=now,
        )
        action, state = await policy.next_action(view, state)
        json.dumps(state)  # the state must stay plain JSON
        actions.append(action)
        states.append(state)
        outcome = None
        if isinstance(action, Finish):
            break
        if isinstance(action, Say):
            transcript += (Utterance(role="user", text=action.text),)
            transcript += (Utterance(role="agent", text=agent(transcript)),)
        else:
            assert api is not None, f"unexpected API call {action!r}"
            outcome = api(action.name, action.args)
    return Episode(actions=actions, transcript=transcript, states=states)
