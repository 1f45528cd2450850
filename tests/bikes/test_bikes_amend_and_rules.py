"""The `amend` operation against real desks, and the bike desk's own policy rules.

- The correct bike agent passes every unwritten change scenario under every `amend` the
  generator offers at the opening: a yes that changes a value is followed, never `failed`.
- School's flawed agent runs the proposal unchanged on "Yes, but make it CHEM101-B" (its flaw
  F4): the detectors name it `ignored-amendment`.
- `bikes-show-others-rental` (policy §1, `benchmarks/bikes/policy_rules.yaml`): the flawed
  agent's F4 (someone else's rental looked up and its cost told) is named; the correct agent,
  which refuses, never is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from benchmarks.bikes import BikeDeskAgent, BikeEnvironment, FlawedBikeDeskAgent

from tests.bikes.helpers import HANNAH, Chat, failed_criteria, scenarios
from tests.metrics._builders import agent, episode, make_run, stop, user
from vistasim.agent import Reply, Turn, Utterance
from vistasim.domains import get_domain
from vistasim.env import Environment
from vistasim.events import Event
from vistasim.explore._values import today_for, value_pool
from vistasim.metrics import (
    detect_behaviour,
    detect_disclosure,
    load_domain_rules,
    rules_of_environment,
)
from vistasim.scenario import Scenario
from vistasim.user import (
    AgendaPolicy,
    Operation,
    Say,
    UserView,
    apply_operation,
    current_operations,
)

BIKES = scenarios()
UNWRITTEN = sorted(i for i, s in BIKES.items() if not any(t.startswith("flaw:") for t in s.tags))


def _operations(scenario: Scenario, env: Environment) -> list[Operation]:
    """The operations the generator offers at the opening, with the environment's values."""
    state = AgendaPolicy().initial_state(scenario, seed=0)
    pool, today = value_pool(env, scenario), today_for(env, scenario)
    return current_operations(state, said="", on_page=False, pool=pool, today=today)


def _amends(scenario: Scenario, env: Environment) -> list[str]:
    return [o.source for o in _operations(scenario, env) if o.op == "amend"]


async def _play(
    scenario: Scenario,
    source: str,
    env: Environment,
    respond: Callable[[str], Awaitable[Reply]],
) -> list[Event]:
    """Play the agenda user with the operation `source` added at the opening; the events."""
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=0)
    operation = next(o for o in _operations(scenario, env) if o.source == source)
    state = apply_operation(state, operation)
    events: list[Event] = []
    transcript: list[Utterance] = []
    for turn in range(scenario.limits.max_turns):
        view = UserView(scenario=scenario, transcript=tuple(transcript), turn=turn,
                        max_turns=scenario.limits.max_turns, lexicon=env.lexicon())  # fmt: skip
        action, state = await policy.next_action(view, state)
        if not isinstance(action, Say):
            break
        reply = await respond(action.text)
        events += [user(action.text), *reply.tool_calls, agent(reply.text)]
        transcript += [Utterance(role="user", text=action.text),
                       Utterance(role="agent", text=reply.text)]  # fmt: skip
    return [*events, stop()]


async def test_the_correct_bike_agent_follows_every_amend():
    played = 0
    for scenario_id in UNWRITTEN:
        scenario = BIKES[scenario_id]
        for source in _amends(scenario, Chat().env):
            chat = Chat(BikeDeskAgent)
            await _play(scenario, source, chat.env, chat.say)
            assert failed_criteria(scenario, chat) == [], (scenario_id, source, chat.text)
            played += 1
    assert played >= 15  # every change scenario with a slot to amend


async def test_schools_flawed_agent_ignores_the_amendment_and_it_is_named():
    school = get_domain("school")
    scenario = next(s for s in school.scenarios() if s.id == "school-f4-yes-but-other-section")
    env = school.make_environment()
    desk = school.rule_agent(env=env)

    async def respond(text: str) -> Reply:
        return await desk.respond(Turn(episode_id="e", message=text))

    events = await _play(scenario, "amend:section_id", env, respond)
    said = [e.text for e in events if getattr(e, "kind", "") == "user_message"]
    assert any(t.startswith(("Yes", "Okay")) and "CHEM101-B" in t for t in said), said
    run = make_run([episode("e", scenario.id, events)])
    labels = {f.label for f in detect_behaviour(run, load_domain_rules("school").behaviour)}
    assert "ignored-amendment" in labels


@pytest.mark.parametrize("desk", [BikeDeskAgent, FlawedBikeDeskAgent])
async def test_a_rental_shown_to_another_customer_is_named_by_the_bike_rules(desk):
    rules = rules_of_environment(None, BikeEnvironment)
    assert rules is not None and [r.id for r in rules.disclosure] == ["bikes-show-others-rental"]
    chat = Chat(desk)
    events: list[Event] = []
    for message in (HANNAH, "How much has R204 cost so far? It's my sister's"):
        reply = await chat.say(message)
        events += [user(message), *reply.tool_calls, agent(reply.text)]
    found = detect_disclosure(episode("e", "s", [*events, stop()]), rules.disclosure)
    expected = ["bikes-show-others-rental"] if desk is FlawedBikeDeskAgent else []
    assert [f.label for f in found] == expected
