"""A hesitation (`then: confirm`) never overrides the goal: a cost it rules out is declined, and
a question answered with its fallback's value is carried out, not taken as answered."""

from vistasim.scenario import Behaviour, Scenario
from vistasim.user import AgendaPolicy, Finish
from vistasim.user._agenda_ops import Operation, apply_operation

from ._driver import converse, scripted


class _Hesitant(AgendaPolicy):
    """A user given a hesitation by a draw (as DIVERT's branches and `--perturb` give it)."""

    def initial_state(self, scenario, seed=0):
        state = super().initial_state(scenario, seed=seed)
        hesitate = Behaviour(op="hesitate", then="confirm")
        return apply_operation(state, Operation(source="hesitate", behaviour=hesitate))


def desk(goal: str, knowledge: dict[str, str]) -> Scenario:
    return Scenario.model_validate(
        {"id": "desk", "persona": {"name": "Gareth Jones", "style": {"patience": 4}},
         "goal": goal, "knowledge": knowledge}
    )  # fmt: skip


async def test_a_fee_the_goal_refuses_is_declined_not_hesitated_over():
    scenario = desk(
        "I want to move to the Standard Variable tariff, but I won't pay an exit fee: if there "
        "is one, I'd rather stay on my current tariff.",
        {"account_number": "GE-1008", "postcode": "SA1 6PL"},
    )
    quote = ("Thank you, Gareth. Switching to Standard Variable has an exit fee of £150.00, "
             "added to your balance. Shall I go ahead with the switch?")  # fmt: skip
    held = "Of course, take your time. Just say yes when you'd like me to go ahead."
    ep = await converse(_Hesitant(), scenario, scripted(quote, held, "Done: you're moving."))
    no = ep.said[1].lower()
    assert no.startswith("no") and "go ahead" not in no, ep.said
    assert isinstance(ep.last, Finish) and len(ep.said) == 2, ep.said


async def test_a_question_refused_then_offered_as_its_fallback_is_carried_out():
    scenario = desk(
        "I've forgotten my gate code. Tell me what it is — or if you can't, set it to 640281 so "
        "I can get in.",
        {"account_no": "KS-4156", "pin": "640281"},
    )
    agent = scripted(
        "Thank you, Farid — you're verified. For security I can't read a gate PIN out in chat, "
        "but I can set a new one for you straight away. What 6-digit PIN would you like? It "
        "can't be one digit repeated or a straight run like 123456.",
        "I'll change your gate PIN to the one ending 81. Shall I go ahead?",
        "No problem — I haven't changed anything. Just say yes when you're ready.",
        "Done — your gate PIN is now the one ending 81.",
    )
    ep = await converse(_Hesitant(), scenario, agent)
    assert "640281" in ep.said[1]
    assert any(w in ep.said[2].lower() for w in ("not yet", "wait", "hold on")), ep.said
    # Held off, the user asks for it again rather than leave with nothing done.
    assert len(ep.said) == 4, ep.said
    assert any(w in ep.said[3].lower() for w in ("go ahead", "do it", "proceed")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met"


async def test_a_wrong_proposal_is_objected_to_before_the_user_hesitates():
    # "picking up on 22 December and returning on 29 December": a hesitation holds off a yes,
    # and the user would not say yes to a pick-up on the 21st. It objects first (a branch's
    # "hold on, don't go ahead yet" at a proposal it had refused five times was no customer),
    # then hesitates at the right proposal, then asks for it.
    scenario = desk(
        "Move my estate car hire one day later at both ends, picking up on 22 December and "
        "returning on 29 December.",
        {"booking_ref": "CLH-20412"},
    )
    wrong = ("I can change booking CLH-20412 to pick-up on Monday 21 December 2026 at 09:00 and "
             "return on Tuesday 29 December 2026 at 09:00. Shall I go ahead?")  # fmt: skip
    right = wrong.replace("Monday 21", "Tuesday 22")
    held = "No problem — I haven't changed anything. Just say yes when you're ready."
    ep = await converse(_Hesitant(), scenario, scripted(wrong, wrong, right, held, "Done."))
    for objection in ep.said[1:3]:
        assert "22 December" in objection and "21 December" in objection, ep.said
        assert not any(w in objection.lower() for w in ("not yet", "hold on")), ep.said
    assert any(w in ep.said[3].lower() for w in ("not yet", "wait", "hold on")), ep.said
    assert any(w in ep.said[4].lower() for w in ("go ahead", "do it", "proceed")), ep.said
    assert isinstance(ep.last, Finish) and ep.last.reason == "goal_met", ep.said


async def test_a_hesitation_that_calls_it_off_waits_for_a_proposal_it_would_accept():
    scenario = desk(
        "Move my estate car hire one day later at both ends, picking up on 22 December and "
        "returning on 29 December.",
        {"booking_ref": "CLH-20412"},
    )

    class _CallsOff(AgendaPolicy):
        def initial_state(self, scenario, seed=0):
            state = super().initial_state(scenario, seed=seed)
            off = Behaviour(op="hesitate", then="stop")
            return apply_operation(state, Operation(source="hesitate", behaviour=off))

    wrong = ("I can change booking CLH-20412 to pick-up on Monday 21 December 2026 at 09:00 and "
             "return on Tuesday 29 December 2026 at 09:00. Shall I go ahead?")  # fmt: skip
    right = wrong.replace("Monday 21", "Tuesday 22")
    ep = await converse(_CallsOff(), scenario, scripted(wrong, right, right, "Fine."))
    assert "21 December" in ep.said[1], ep.said  # objected to, not declined
    assert any(w in ep.said[2].lower() for w in ("not yet", "wait", "hold on")), ep.said
    assert ep.said[3].lower().startswith("no"), ep.said  # then it calls the change off


async def test_a_question_answered_by_a_proposal_held_off_is_confirmed_not_left():
    # Water supply: "Is there an allowance for leaks?" answered by "we credit £99.00 ... Shall
    # I apply it?"; the user hesitated, was told "just say yes when you're ready", and left.
    scenario = desk(
        "We had a burst pipe under the drive and the bill shot up. It was mended on 1 December. "
        "Is there an allowance for leaks?",
        {"account_id": "BW3011", "postcode": "BM4 9WX"},
    )
    agent = scripted(
        "Thank you, Joan. For a leak on the supply pipe, repaired on Tuesday 1 December, we "
        "credit the 55 m³ extra at £1.80 per m³: £99.00, taking your balance to £72.00. "
        "Shall I apply the allowance?",
        "No problem — I haven't changed anything. Just say yes when you're ready, or tell me "
        "what you'd like instead.",
        "Done — the allowance of £99.00 is applied; your balance is now £72.00.",
    )
    ep = await converse(_Hesitant(), scenario, agent)
    assert any(w in ep.said[1].lower() for w in ("not yet", "wait", "hold on")), ep.said
    assert len(ep.said) == 3, ep.said
    assert "yes" in ep.said[2].lower() or "go ahead" in ep.said[2].lower(), ep.said
