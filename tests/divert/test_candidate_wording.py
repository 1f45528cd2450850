"""A branch says its candidates with a wording seed of its own; what applies stays the same."""

from __future__ import annotations

from vistasim.agent import Utterance
from vistasim.divert import AgendaCandidates, CandidateContext
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy, UserView, action_json


def _scenario() -> Scenario:
    return Scenario(
        id="s",
        persona=Persona(name="Ann"),
        goal="Ask what rental R205 has cost so far.",
        agenda=[AgendaItem(intent="rental_cost",
                           slots={"rental_id": "R205", "email": "ann@example.com"})],
    )  # fmt: skip


async def _candidates(view, state, original, seed):
    ctx = CandidateContext(persona="", goal="", original="", view=view, user_state=state,
                           original_action=action_json(original), wording_seed=seed)  # fmt: skip
    found, _ = await AgendaCandidates(AgendaPolicy()).generate(ctx, 20)
    return found


async def test_each_branch_says_its_candidates_in_words_of_its_own():
    # bikes `cost-so-far-r205` (issue 16, eleventh pass): every branch of a rollout said its
    # opening correction in the rollout's words ("R207. Actually, make that R205"); the
    # baseline's rollouts also said "R207, no wait, I meant R205", which the agent misreads.
    policy = AgendaPolicy()
    state = policy.initial_state(_scenario(), seed=3)
    view = UserView(scenario=_scenario(), transcript=(), turn=0, max_turns=10)
    original, _ = await policy.next_action(view, state)
    parent = {c.source: c.text for c in await _candidates(view, state, original, None)}
    texts: dict[str, set[str]] = {}
    for seed in range(12):
        found = await _candidates(view, state, original, seed)
        assert {c.source for c in found} == set(parent)  # the same operations apply
        for c in found:
            texts.setdefault(c.source, set()).add(c.text)
            assert c.text != original.text
    correction = next(s for s in parent if s.startswith("correct:"))
    assert len(texts[correction]) > 1  # said in more than one way over the branches


async def test_an_operation_that_does_not_act_here_stays_out_whatever_the_wording():
    policy = AgendaPolicy()
    scenario = _scenario()
    state = policy.initial_state(scenario, seed=3)
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    opening, state = await policy.next_action(view, state)
    transcript = (
        Utterance(role="user", text=opening.text),
        Utterance(role="agent", text="Sure. What's the e-mail on your account?"),
    )
    view = UserView(scenario=scenario, transcript=transcript, turn=1, max_turns=10)
    original, _ = await policy.next_action(view, state)
    plain = {c.source for c in await _candidates(view, state, original, None)}
    for seed in range(8):
        assert {c.source for c in await _candidates(view, state, original, seed)} == plain
