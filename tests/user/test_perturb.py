"""`--perturb P`: behaviour operations drawn per rollout, the baseline branching must beat."""

from __future__ import annotations

from vistasim.cli.run import overrides
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy, perturbed


def _state():
    scenario = Scenario(
        id="s",
        persona=Persona(name="Ann"),
        goal="Cancel booking BK-2047, then check order O-12.",
        agenda=[
            AgendaItem(intent="cancel_booking",
                       slots={"booking_id": "BK-2047", "email": "ann@example.com"}),
            AgendaItem(intent="order_status", slots={"order_id": "O-12"}),
        ],
    )  # fmt: skip
    return AgendaPolicy().initial_state(scenario, seed=3)


def test_probability_zero_draws_nothing_and_keeps_the_state():
    state = _state()
    after, drawn = perturbed(state, 0.0, seed=1)
    assert drawn == []
    assert after == state


def test_probability_one_gives_every_subgoal_one_recorded_operation():
    after, drawn = perturbed(_state(), 1.0, seed=1)
    assert [d["subgoal"] for d in drawn] == [0, 1]
    assert [d["intent"] for d in drawn] == ["cancel_booking", "order_status"]
    assert after != _state()
    for entry, d in zip(after["stack"], drawn, strict=True):
        assert len(entry["behaviours"]) == 1
        assert entry["behaviours"][0]["op"] == d["behaviour"]["op"]
        assert str(d["operation"]).split(":")[0] == d["behaviour"]["op"]


def test_the_draw_is_seeded_per_rollout():
    draws = {str(perturbed(_state(), 1.0, seed=s)[1]) for s in range(12)}
    assert perturbed(_state(), 1.0, seed=5) == perturbed(_state(), 1.0, seed=5)
    assert len(draws) > 1, "different rollouts must be able to draw different operations"


def test_the_flag_sets_user_perturb():
    flags = {k: None for k in ("rollouts", "concurrency", "max_turns", "mode", "seed", "policy")}
    layer = overrides((), {**flags, "select": (), "tags": (), "perturb": 0.3})
    assert layer["user"]["perturb"] == 0.3
