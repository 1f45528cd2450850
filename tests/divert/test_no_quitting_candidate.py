"""A candidate that only ends the conversation is no alternative: the agent gets no turn."""

from __future__ import annotations

from vistasim.agent import Utterance
from vistasim.divert import AgendaCandidates, CandidateContext
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy, Finish, UserView, action_from_json, action_json


def _scenario() -> Scenario:
    return Scenario(
        id="s",
        persona=Persona(name="Sofia"),
        goal="Extend rental R207 by 2 more days.",
        agenda=[AgendaItem(intent="extend_rental",
                           slots={"rental_id": "R207", "duration": "2 days",
                                  "email": "sofia@example.com"})],
    )  # fmt: skip


async def test_an_operation_that_makes_the_user_quit_is_not_offered():
    # bikes `extend-past-limit-r207` (issue 16, eleventh pass): the rollout drew
    # `amend:rental_id` (R208 first); at "R208 isn't a rental on your account" the original
    # action says R207, but `change_mind:duration` made the user stop on the refusal of the
    # id it had got wrong on purpose: a branch of no agent turn, failing the criteria.
    scenario = _scenario()
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=3)
    amend = {"op": "amend", "slot": "rental_id", "first": "R208", "then": "stop"}
    state = {**state, "stack": [{**state["stack"][0], "behaviours": [amend]}]}
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    opening, state = await policy.next_action(view, state)
    transcript = [
        ("user", opening.text),
        ("agent", "Happy to help. What's the email address you signed up with?"),
    ]
    view = UserView(scenario=scenario, transcript=tuple(Utterance(role=r, text=t)
                    for r, t in transcript), turn=1, max_turns=10)  # fmt: skip
    said, state = await policy.next_action(view, state)
    transcript += [
        ("user", said.text),
        ("agent", "Thanks, Sofia. R208 isn't a rental on your account, so I can't share or "
                  "change anything about it. Is there anything else I can help with?"),
    ]  # fmt: skip
    view = UserView(scenario=scenario, transcript=tuple(Utterance(role=r, text=t)
                    for r, t in transcript), turn=2, max_turns=10)  # fmt: skip
    original, _ = await policy.next_action(view, state)
    assert not isinstance(original, Finish) and "R207" in original.text
    ctx = CandidateContext(persona="", goal="", original="", view=view, user_state=state,
                           original_action=action_json(original))  # fmt: skip
    found, _ = await AgendaCandidates(policy).generate(ctx, 20)
    assert not any(isinstance(action_from_json(c.action or {}), Finish) for c in found), [
        (c.source, c.text) for c in found
    ]
