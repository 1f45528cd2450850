"""The agenda user's behaviour operations as DIVERT candidates."""

from __future__ import annotations

import re

from vistasim.agent import Utterance
from vistasim.browser import Navigate
from vistasim.divert import AgendaCandidates, CandidateContext
from vistasim.scenario import AgendaItem, Behaviour, Persona, Scenario
from vistasim.user import (
    OPERATIONS,
    AgendaPolicy,
    Say,
    UserView,
    ValuePool,
    action_from_json,
    action_json,
    describe_action,
    operations_for,
)
from vistasim.user._agenda_state import AgendaEntry, AgendaState


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


def test_amend_is_offered_on_a_change_subgoal_with_a_plausible_other_value():
    cancel = AgendaEntry(intent="cancel_booking", slots={"booking_id": "BK-2047"})
    pool = ValuePool({"bookings.id": ("BK-2040", "BK-2047", "BK-2052")})
    amend = [o for o in operations_for(cancel, more=False, pool=pool) if o.op == "amend"]
    assert [o.source for o in amend] == ["amend:booking_id"]
    assert amend[0].behaviour == Behaviour(op="amend", slot="booking_id", first="BK-2052")
    # A question is answered, not confirmed: there is no yes to amend.
    status = AgendaEntry(intent="booking_status", slots={"booking_id": "BK-2047"})
    assert not any(o.op == "amend" for o in operations_for(status, more=False, pool=pool))
    assert "amend" in OPERATIONS


async def _amend_answer(agent_says: str):
    """The opening of a user amending BK-2047 from BK-2048, and its answer to `agent_says`."""
    scenario = _scenario(behaviours=[Behaviour(op="amend", slot="booking_id", first="BK-2048")])
    policy = AgendaPolicy()
    state = policy.initial_state(scenario, seed=3)
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    opening, state = await policy.next_action(view, state)
    view = UserView(
        scenario=scenario,
        transcript=(Utterance(role="user", text=opening.text),
                    Utterance(role="agent", text=agent_says)),
        turn=1,
        max_turns=10,
    )  # fmt: skip
    answer, after = await policy.next_action(view, state)
    return opening, answer, after


async def test_amend_asks_for_the_other_value_then_changes_it_in_the_yes():
    proposal = "I'll cancel booking BK-2048. Shall I proceed (yes/no)?"
    opening, answer, after = await _amend_answer(proposal)
    assert "BK-2048" in opening.text and "BK-2047" not in opening.text
    # A yes that changes the value, without a word of holding back (not a hesitation).
    assert isinstance(answer, Say)
    assert re.match(r"(?:Yes|Okay)\b", answer.text) and "BK-2047" in answer.text
    assert not re.search(r"\b(?:no|wait|don't|not yet)\b", answer.text, re.I)
    assert "amend" in AgendaState.model_validate(after).stack[0].played


async def test_amend_owns_up_to_a_refused_first_value_and_asks_again():
    refusal = "Booking BK-2048 isn't on your account, so I can't cancel it."
    _, action, _ = await _amend_answer(refusal)
    assert isinstance(action, Say) and re.search(r"mistake|wrong", action.text, re.I)
    assert "BK-2047" in action.text and "cancel" in action.text.lower()  # the request again


async def test_at_a_perturbed_rollouts_opening_the_plain_user_and_later_operations_are_offered():
    from vistasim.user import perturbed, undrawn

    scenario = _scenario()
    policy = AgendaPolicy()
    view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=10)
    root, drawn = perturbed(policy.initial_state(scenario, seed=3), 1.0, seed=2)
    own = str(drawn[0]["operation"])
    original, _ = await policy.next_action(view, root)

    def ctx(**opening) -> CandidateContext:
        return CandidateContext(persona="", goal="", original="", view=view,
                                original_action=action_json(original), **opening)  # fmt: skip

    # Anywhere else, only an operation that changes this very action is an alternative.
    elsewhere, _ = await AgendaCandidates(policy).generate(ctx(user_state=root), 20)
    assert "hesitate" not in {c.source for c in elsewhere}  # it acts at a confirmation
    plain = undrawn(root, drawn)
    found, _ = await AgendaCandidates(policy).generate(
        ctx(user_state=plain, opening=True, plain=True, played=frozenset({own})), 20
    )
    sources = [c.source for c in found]
    assert sources[0] == "plain" and found[0].user_state["stack"][0]["behaviours"] == []
    assert own not in sources  # the rollout's own draw is not offered again
    later = next(c for c in found if c.source == "hesitate")
    assert later.action == found[0].action  # the plain user's first words: it acts later
    assert later.user_state["stack"][0]["behaviours"][0]["op"] == "hesitate"
    assert len(found) > len(elsewhere)


def test_a_fact_made_from_one_already_said_counts_as_said():
    # "Move my ECON301 final": the exam EX-ECON301-FIN is named, though not by its id; amending
    # to it at the confirmation ("I'll move your ECON301 final") would change nothing.
    move = AgendaEntry(
        intent="reschedule_exam", slots={"course": "ECON301", "exam_id": "EX-ECON301-FIN"}
    )
    pool = ValuePool({"exams.id": ("EX-ECON301-FIN", "EX-ENGL101-FIN")})
    before = {o.source for o in operations_for(move, more=False, pool=pool, said="")}
    assert "amend:exam_id" in before
    said = "I need to reschedule my ECON301 exam."
    after = {o.source for o in operations_for(move, more=False, pool=pool, said=said)}
    assert not any(s.endswith(":exam_id") or s.endswith(":course") for s in after)
    # A short value inside another is no evidence that the longer one was said.
    short = AgendaEntry(intent="cancel_booking", slots={"room": "12", "booking_id": "BK-2012"})
    pool = ValuePool({"bookings.id": ("BK-2012", "BK-2047")})
    assert "amend:booking_id" in {
        o.source for o in operations_for(short, more=False, pool=pool, said="room 12 please")
    }
