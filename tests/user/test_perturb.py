"""`--perturb P`: behaviour operations drawn per rollout, the baseline branching must beat."""

from __future__ import annotations

from vistasim.cli.run import overrides
from vistasim.scenario import AgendaItem, Persona, Scenario
from vistasim.user import AgendaPolicy, perturbed, redrawn, undrawn


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
    names = ("rollouts", "concurrency", "max_turns", "mode", "seed", "policy", "executor")
    flags = {k: None for k in names}
    layer = overrides((), {**flags, "select": (), "tags": (), "perturb": 0.3})
    assert layer["user"]["perturb"] == 0.3


def test_a_branch_redraws_the_subgoals_still_to_come_with_its_own_seed():
    root, drawn = perturbed(_state(), 1.0, seed=1)
    later = [d for d in drawn if d["subgoal"] == 1]
    assert later, "the draw gave the second sub-goal an operation"
    draws = set()
    for seed in range(12):
        after, redraw = redrawn(root, 1.0, seed=seed, earlier=drawn)
        assert after["seed"] == seed  # the user's wording is seeded per branch from here on
        assert after["stack"][0] == root["stack"][0]  # the current sub-goal keeps its prefix
        assert [d["subgoal"] for d in redraw] == [1]
        # Only the new draw is on the sub-goal still to come: the parent's is gone.
        assert len(after["stack"][1]["behaviours"]) == 1
        assert after["stack"][1]["behaviours"][0]["op"] == redraw[0]["behaviour"]["op"]
        draws.add(str(redraw))
    assert len(draws) > 1, "branches must be able to vary differently"
    assert redrawn(root, 1.0, seed=4, earlier=drawn) == redrawn(root, 1.0, seed=4, earlier=drawn)


def test_a_redraw_at_zero_only_takes_the_parents_draw_away():
    root, drawn = perturbed(_state(), 1.0, seed=1)
    after, redraw = redrawn(root, 0.0, seed=9, earlier=drawn)
    assert redraw == []
    assert after["stack"][1]["behaviours"] == []
    assert after["stack"][0] == root["stack"][0]


def test_a_redraw_after_the_last_subgoal_only_reseeds():
    done = {**_state(), "stack": []}
    after, redraw = redrawn(done, 1.0, seed=7)
    assert redraw == [] and after["stack"] == [] and after["seed"] == 7


def test_undrawn_takes_every_draw_off_the_current_subgoal_too_and_gives_patience_back():
    state = _state()
    root, drawn = perturbed(state, 1.0, seed=1)
    assert [d["subgoal"] for d in drawn] == [0, 1]
    plain = undrawn(root, drawn)
    # Before the first action nothing of the draw is played: the user is the scenario's own.
    assert plain["stack"] == state["stack"]
    assert plain["patience"] == state["patience"]
    impatient = {**root, "patience": root["patience"] - 1,
                 "stack": [{**state["stack"][0], "behaviours": [{"op": "impatient"}]},
                           state["stack"][1]]}  # fmt: skip
    drew = [{"subgoal": 0, "intent": "cancel_booking", "operation": "impatient",
             "behaviour": {"op": "impatient"}}]  # fmt: skip
    assert undrawn(impatient, drew)["patience"] == state["patience"]
    assert undrawn(root, []) == root  # nothing drawn, nothing taken off
