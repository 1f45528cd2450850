"""The `plain` alternative is not offered once a value draw has said its first value."""

from __future__ import annotations

from vistasim.explore._plain import without_pending_draw
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy


def _amending(op: str, key: str):
    scenario = Scenario(
        id="s",
        persona=Persona(name="Ann"),
        goal="Extend rental R207 by 2 days.",
        agenda=[AgendaItem(intent="extend_rental",
                           slots={"rental_id": "R207", "duration": "2 days"})],
    )  # fmt: skip
    state = AgendaPolicy().initial_state(scenario, seed=3)
    behaviour = {"op": op, "slot": "rental_id", key: "R208"}
    entry = {**state["stack"][0], "behaviours": [behaviour]}
    drawn = [{"intent": "extend_rental", "behaviour": behaviour, "subgoal": 0}]
    return {**state, "stack": [entry]}, drawn


def test_a_switch_not_said_yet_may_be_taken_back():
    state, drawn = _amending("amend", "first")
    undone = without_pending_draw(state, drawn, ["Hi, I'd like to extend a rental."])
    assert undone is not None
    assert undone["stack"][0]["behaviours"] == []


def test_a_switch_whose_first_value_was_said_has_acted():
    # bikes seed 1: "extend rental R208 by 2 more days", refused; the user without the
    # amend stopped on the refusal of a rental number it had got wrong itself.
    for op, key in (("amend", "first"), ("change_mind", "first"), ("correct", "wrong")):
        state, drawn = _amending(op, key)
        said = ["Hi! I wanna extend rental R208 by 2 more days.", "My email is a@example.com."]
        assert without_pending_draw(state, drawn, said) is None, op
