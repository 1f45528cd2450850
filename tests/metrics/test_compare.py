import anyio

from vistasim.metrics import compare_reports, compare_runs, metrics_for_run
from vistasim.store import open_store, read_run_view

TWO_ITEMS = {"F0d37ca3cff", "F999925e9b5", "Fabe78ff62f", "Ff0ba7a3bab"}


def _compare(path, before, after):
    with open_store(path) as store:
        return anyio.run(lambda: compare_runs(store, before, after))


def test_failures_are_fixed_new_or_still_present_by_identity(desk_runs):
    comparison = _compare(*desk_runs)
    fixed = comparison.failures_by("fixed")
    assert {f.before_id for f in fixed} == TWO_ITEMS and all(f.after_id is None for f in fixed)
    new = comparison.failures_by("new")
    assert {f.kind for f in new} == {"tool_error", "criteria"}
    assert all("W1002" in f.description or "cancel" in f.description for f in new)
    (still,) = comparison.failures_by("still_present")
    assert still.before_id == still.after_id and "2026-12-03" in still.description
    assert len(still.before_episodes) == len(still.after_episodes) == 2


def test_each_scenario_says_how_its_outcomes_changed(desk_runs):
    comparison = _compare(*desk_runs)
    changes = {s.scenario_id: (s.status, s.before, s.after) for s in comparison.scenarios}
    assert changes["desk-return-two-items"] == ("fixed", {"failed": 2}, {"passed": 2})
    assert changes["desk-cancel-shipped"] == ("regressed", {"passed": 2}, {"failed": 2})
    assert changes["desk-status-shipped"][0] == "unchanged"
    assert comparison.regressed


def test_metric_deltas_are_after_minus_before(desk_runs):
    deltas = {d.key: d for d in _compare(*desk_runs).metrics}
    assert (deltas["unique_failures"].before, deltas["unique_failures"].after) == (5, 3)
    assert deltas["unique_failures"].delta == -2
    assert deltas["success_rate"].delta == 0
    assert deltas["realism_coherence"].delta is None  # no judge: no value on either side


def test_a_run_compared_with_itself_changed_nothing(desk_runs):
    path, before, _ = desk_runs
    comparison = _compare(path, before, before)
    assert {f.status for f in comparison.failures} == {"still_present"}
    assert {s.status for s in comparison.scenarios} == {"unchanged"}
    assert not comparison.regressed


def test_a_failure_whose_id_changed_is_matched_by_its_masked_wording(desk_runs):
    path, before, after = desk_runs
    with open_store(path) as store:
        old = anyio.run(lambda: metrics_for_run(store, before))
        view = read_run_view(store, before)
    # The same flaw on another order, folded under another representative: a new id.
    renamed = [
        u.model_copy(update={"id": f"Fother{i}", "description": u.description.replace("1", "2")})
        for i, u in enumerate(old.failures.unique)
    ]
    new = old.model_copy(update={"failures": old.failures.model_copy(update={"unique": renamed})})
    comparison = compare_reports(view, old, view, new)
    assert {f.status for f in comparison.failures} == {"still_present"}
    assert not comparison.regressed
