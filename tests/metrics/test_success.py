import math
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.metrics._builders import criteria, episode, make_run, stop, user
from vistasim.events import StopReason
from vistasim.metrics import episode_outcome, pass_hat_k, success


def _ep(eid, sid, passed, **kw):
    return episode(eid, sid, [user("hi"), criteria(passed), stop()], **kw)


def test_outcome_comes_from_the_criteria_judgment():
    assert episode_outcome(_ep("e1", "s1", True)) == "passed"
    assert episode_outcome(_ep("e2", "s1", False)) == "failed"


def test_errored_episode_is_never_passed_nor_failed():
    assert episode_outcome(_ep("e1", "s1", True, status="errored")) == "errored"


def test_episode_without_criteria_judgment_is_unjudged():
    assert episode_outcome(episode("e1", "s1", [user("hi"), stop(StopReason.MAX_TURNS)])) == (
        "unjudged"
    )


def test_pass_hat_k_matches_hand_computed_values():
    # s1: 3 rollouts, 2 passed -> 2/3, 1/3, 0; s2: 3 of 3 -> 1, 1, 1.
    values, counts = pass_hat_k({"s1": (3, 2), "s2": (3, 3)})
    assert values == {1: (2 / 3 + 1) / 2, 2: (1 / 3 + 1) / 2, 3: 0.5}
    assert counts == {1: 2, 2: 2, 3: 2}


def test_pass_hat_k_of_single_rollout_is_its_success():
    assert pass_hat_k({"s1": (1, 1), "s2": (1, 0)})[0] == {1: 0.5}


def test_pass_hat_k_averages_only_scenarios_with_enough_rollouts():
    values, counts = pass_hat_k({"s1": (2, 2), "s2": (1, 0)})
    assert values == {1: 0.5, 2: 1.0}
    assert counts == {1: 2, 2: 1}


def test_branches_never_enter_pass_hat_k_or_success_rate():
    run = make_run(
        [
            _ep("e1", "s1", True),
            _ep("e2", "s1", True, rollout=1),
            _ep("b1", "s1", False, branch_of="e1"),
        ]
    )
    report = success(run)
    assert (report.success_rate, report.pass_hat_k) == (1.0, {1: 1.0, 2: 1.0})
    assert report.branch_outcomes["failed"] == 1


def test_errored_episodes_are_excluded_and_counted():
    run = make_run([_ep("e1", "s1", True), _ep("e2", "s1", False, status="errored")])
    report = success(run)
    assert report.success_rate == 1.0
    assert report.outcomes == {
        "passed": 1,
        "failed": 0,
        "errored": 1,
        "invalid": 0,
        "not_applicable": 0,
        "unjudged": 0,
    }


def test_success_is_reported_by_mode():
    run = make_run(
        [
            _ep("e1", "s1", True, mode="chat"),
            _ep("e2", "s1", False, mode="hybrid"),
            _ep("e3", "s2", True, mode="hybrid"),
        ]
    )
    by_mode = success(run).by_mode
    assert by_mode["chat"].success_rate == 1.0
    assert by_mode["hybrid"].success_rate == 0.5


def test_run_with_nothing_judged_has_no_success_rate():
    report = success(make_run([_ep("e1", "s1", True, status="errored")]))
    assert (report.success_rate, report.pass_hat_k) == (None, {})


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(1, 8), min_size=1))
def test_pass_hat_k_is_in_unit_interval_and_non_increasing(ns):
    trials = {s: (n, n // 2) for s, n in ns.items()}
    values, _ = pass_hat_k(trials)
    assert all(0.0 <= v <= 1.0 for v in values.values())
    same_n = {s: (8, c) for s, (_, c) in trials.items()}
    ks = pass_hat_k(same_n)[0]
    assert all(ks[k + 1] <= ks[k] + 1e-12 for k in range(1, 8))


def test_pass_hat_k_equals_probability_all_k_samples_pass():
    # Enumerate draws without replacement: 5 trials, 3 successes, k = 2.
    import itertools

    outcomes = [1, 1, 1, 0, 0]
    draws = list(itertools.combinations(outcomes, 2))
    exact = sum(all(d) for d in draws) / len(draws)
    assert math.isclose(pass_hat_k({"s": (5, 3)})[0][2], exact)
    assert math.isclose(exact, comb(3, 2) / comb(5, 2))


def test_agent_error_without_judgment_is_a_failure():
    assert episode_outcome(episode("e1", "s1", [user("hi"), stop(StopReason.AGENT_ERROR)])) == (
        "failed"
    )


def test_infra_error_stop_is_errored_even_if_status_says_done():
    assert episode_outcome(episode("e1", "s1", [user("hi"), stop(StopReason.INFRA_ERROR)])) == (
        "errored"
    )
