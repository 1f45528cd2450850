"""The agenda user's behaviour operations as DIVERT candidates."""

from __future__ import annotations

from vistasim.agent import Utterance
from vistasim.browser import Navigate
from vistasim.divert import AgendaCandidates, CandidateContext
from vistasim.scenario import AgendaItem, Behaviour, Persona, Scenario
from vistasim.user import (
    AgendaPolicy,
    Say,
    UserView,
    action_from_json,
    action_json,
    describe_action,
)


async def agenda_alternatives(policy, view, state, original):
    ctx = CandidateContext(persona="", goal="", original="", original_action=action_json(original),
                           view=view, user_state=state)  # fmt: skip
    found, _ = await AgendaCandidates(policy).generate(ctx, 10)
    return found


def _scenario(**item) -> Scenario:
    return Scenario(
        id="s",
        persona=Persona(name="Ann"),
        goal="Cancel booking BK-2047.",
        agenda=[AgendaItem(intent="cancel_booking",
                           slots={"booking_id": "BK-2047", "email": "ann@example.com"}, **item)],
    )  # fmt: skip


async def _at(scenario: Scenario, transcript: list[tuple[str, str]]):
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=3)
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    # Play the user's side up to the junction so its state is the one it would have there.
    for i in range(0, len(transcript), 2):
        _, state = await policy.next_action(view, state)
        view = UserView(
            scenario=scenario,
            transcript=tuple(Utterance(role=r, text=t) for r, t in transcript[: i + 2]),
            turn=i // 2 + 1,
            max_turns=10,
        )
    original, _ = await policy.next_action(view, state)
    return policy, view, state, original


async def test_at_a_confirmation_hesitation_is_an_alternative_and_each_differs():
    scenario = _scenario()
    policy, view, state, original = await _at(scenario, [
        ("user", "Hi, please cancel booking BK-2047. My email is ann@example.com."),
        ("agent", "I'll cancel booking BK-2047. Shall I proceed (yes/no)?"),
    ])  # fmt: skip
    found = await agenda_alternatives(policy, view, state, original)
    sources = [a.source for a in found]
    assert "hesitate" in sources
    texts = [a.action for a in found]
    assert action_json(original) not in texts
    assert len({str(t) for t in texts}) == len(texts)
    hedge = next(a for a in found if a.source == "hesitate")
    assert hedge.action["kind"] == "say" and hedge.user_state != state


async def test_slot_operations_skip_facts_already_said_and_behaviours_already_given():
    scenario = _scenario(behaviours=[Behaviour(op="hesitate")])
    policy, view, state, original = await _at(scenario, [
        ("user", "Hi, please cancel booking BK-2047."),
        ("agent", "Could you tell me the email address on your booking?"),
    ])  # fmt: skip
    found = await agenda_alternatives(policy, view, state, original)
    sources = {a.source for a in found}
    # BK-2047 was said: taking it back now would be incoherent; the scenario already hesitates.
    assert not any(s.endswith(":booking_id") for s in sources)
    assert "hesitate" not in sources
    assert "withhold:email" in sources


def test_actions_round_trip_through_json():
    action = Say(text="hmm, wait")
    assert action_from_json(action_json(action)) == action


async def test_a_refusal_of_the_value_the_user_meant_to_take_back_makes_it_switch():
    scenario = _scenario(
        behaviours=[Behaviour(op="change_mind", slot="booking_id", first="BK-2048")]
    )
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=3)
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    opening, state = await policy.next_action(view, state)
    assert "BK-2048" in opening.text  # asks for the first value
    view = UserView(
        scenario=scenario,
        transcript=(
            Utterance(role="user", text=opening.text),
            Utterance(role="agent", text="Booking BK-2048 has already started, so it can't be "
                                         "cancelled."),
        ),
        turn=1,
        max_turns=10,
    )  # fmt: skip
    action, _ = await policy.next_action(view, state)
    assert isinstance(action, Say) and "BK-2047" in action.text  # switches, does not accept


def test_a_web_step_reads_the_same_whatever_port_its_episode_site_has():
    here = describe_action(Navigate(url="http://127.0.0.1:36557/login?next=/orders"))
    there = describe_action(Navigate(url="http://127.0.0.1:41011/login?next=/orders"))

    assert here == there and "/login?next=/orders" in here and "127.0.0.1" not in here
    assert describe_action(Navigate(url="http://127.0.0.1:41011/cart")) != here
