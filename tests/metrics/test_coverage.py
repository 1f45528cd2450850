import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.metrics._builders import episode, make_run, stop, tool, tools_episode
from vistasim.metrics import coverage, levenshtein, tool_distr_entropy, traj_dist

TOOLS = ["get_order", "cancel_order", "return_items", "refund"]


def test_uniform_use_of_all_tools_gives_tool_distr_entropy_one():
    run = make_run([tools_episode("e1", "s1", ["a", "b", "a", "b"])], agent_tools=["a", "b"])
    assert coverage(run).tool_distr_entropy == 1.0


def test_tool_distr_entropy_is_normalized_by_offered_tools_not_observed_ones():
    run = make_run([tools_episode("e1", "s1", ["a", "b"])], agent_tools=["a", "b", "c", "d"])
    assert coverage(run).tool_distr_entropy == 0.5


def test_skewed_tool_use_gives_hand_computed_entropy():
    run = make_run([tools_episode("e1", "s1", ["a", "a", "a", "b"])], agent_tools=["a", "b"])
    expected = -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25))
    assert math.isclose(coverage(run).tool_distr_entropy, expected)


def test_single_tool_gives_zero_for_both_entropies():
    run = make_run([tools_episode("e1", "s1", ["a", "a", "a"])], agent_tools=["a"])
    report = coverage(run)
    assert (report.tool_distr_entropy, report.transition_entropy) == (0.0, 0.0)


def test_no_tool_calls_gives_zero_entropies_and_zero_distance():
    run = make_run(
        [tools_episode("e1", "s1", []), tools_episode("e2", "s1", [])], agent_tools=TOOLS
    )
    report = coverage(run)
    assert (report.tool_distr_entropy, report.transition_entropy, report.traj_dist) == (0, 0, 0)
    assert report.tool_counts == dict.fromkeys(sorted(TOOLS), 0)


def test_unknown_tool_count_falls_back_to_distinct_tools_observed():
    run = make_run([tools_episode("e1", "s1", ["a", "b", "c", "d"])])
    report = coverage(run)
    assert (report.n_tools, report.n_tools_known, report.tool_distr_entropy) == (4, False, 1.0)


def test_transition_entropy_averages_over_tools_with_outgoing_transitions():
    # a->b, b->a, a->a: row a is {a: 1, b: 1} (entropy 1), row b is {a: 1} (entropy 0).
    run = make_run([tools_episode("e1", "s1", ["a", "b", "a", "a"])], agent_tools=["a", "b"])
    report = coverage(run)
    assert report.transition_entropy == 0.5
    assert report.transitions == {"a": {"a": 1, "b": 1}, "b": {"a": 1}}


def test_transitions_do_not_cross_episode_boundaries():
    run = make_run(
        [tools_episode("e1", "s1", ["a"]), tools_episode("e2", "s1", ["b"])],
        agent_tools=["a", "b"],
    )
    assert coverage(run).transitions == {}


def test_branch_prefix_calls_are_counted_once():
    parent = tools_episode("e1", "s1", ["a", "b"])
    prefix = parent.events[:3]  # user message, a, b
    branch = episode("e2", "s1", [tool("c"), stop()], prefix=prefix, branch_of="e1")
    report = coverage(make_run([parent, branch], agent_tools=["a", "b", "c"]))
    assert report.tool_counts == {"a": 1, "b": 1, "c": 1}
    assert report.transitions == {"a": {"b": 1}, "b": {"c": 1}}


def test_traj_dist_matches_hand_computed_mean_over_goals():
    # Goal s1: [a, b] vs [a, c] -> 1/2. Goal s2: [a], [a], [b] -> (0 + 1 + 1) / 3.
    run = make_run(
        [
            tools_episode("e1", "s1", ["a", "b"]),
            tools_episode("e2", "s1", ["a", "c"]),
            tools_episode("e3", "s2", ["a"]),
            tools_episode("e4", "s2", ["a"]),
            tools_episode("e5", "s2", ["b"]),
        ]
    )
    assert math.isclose(coverage(run).traj_dist, (0.5 + 2 / 3) / 2)


def test_calls_with_different_arguments_differ_in_traj_dist():
    run = make_run(
        [
            episode("e1", "s1", [tool("get_order", order_id="W1")]),
            episode("e2", "s1", [tool("get_order", order_id="W2")]),
        ]
    )
    assert coverage(run).traj_dist == 1.0


def test_argument_key_order_does_not_matter():
    run = make_run(
        [
            episode("e1", "s1", [ToolCallWith({"a": 1, "b": [1, 2]})]),
            episode("e2", "s1", [ToolCallWith({"b": [1, 2], "a": 1})]),
        ]
    )
    assert coverage(run).traj_dist == 0.0


def ToolCallWith(args):  # noqa: N802 - reads like the event it builds
    from vistasim.events import ToolCall

    return ToolCall(name="t", args=args)


def test_single_episode_per_goal_gives_no_traj_dist():
    run = make_run([tools_episode("e1", "s1", ["a"]), tools_episode("e2", "s2", ["b"])])
    report = coverage(run)
    assert (report.traj_dist, report.goals_compared) == (None, 0)


def test_errored_episodes_are_left_out_of_coverage():
    errored = tools_episode("e2", "s1", ["b", "b"], status="errored")
    run = make_run([tools_episode("e1", "s1", ["a"]), errored], agent_tools=["a", "b"])
    report = coverage(run)
    assert report.tool_counts == {"a": 1, "b": 0}
    assert report.traj_dist is None


def test_levenshtein_of_classic_example():
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("", "abc") == 3


def _reference_levenshtein(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=80), st.lists(st.integers(0, 4), max_size=80))
def test_levenshtein_agrees_with_dynamic_programming(a, b):
    assert levenshtein(a, b) == _reference_levenshtein(a, b)


sequences = st.lists(st.sampled_from(TOOLS), max_size=6)
runs = st.lists(st.tuples(st.sampled_from(["s1", "s2", "s3"]), sequences), max_size=8)


def _run_from(spec, order=None):
    eps = [tools_episode(f"e{i}", sid, names) for i, (sid, names) in enumerate(spec)]
    if order is not None:
        eps = [eps[i] for i in order]
    return make_run(eps, agent_tools=TOOLS)


@settings(max_examples=30, deadline=None)
@given(runs)
def test_coverage_values_lie_in_unit_interval(spec):
    report = coverage(_run_from(spec))
    values = [report.tool_distr_entropy, report.transition_entropy, report.traj_dist or 0.0]
    assert all(0.0 <= v <= 1.0 for v in values)


@settings(max_examples=25, deadline=None)
@given(runs, st.randoms())
def test_permuting_episodes_changes_nothing(spec, rnd):
    order = list(range(len(spec)))
    rnd.shuffle(order)
    run = _run_from(spec)
    shuffled = make_run([run.episodes[i] for i in order], agent_tools=TOOLS)
    assert coverage(shuffled) == coverage(run)


@settings(max_examples=40, deadline=None)
@given(sequences, st.integers(2, 5))
def test_identical_trajectories_give_traj_dist_zero(names, copies):
    assert traj_dist([[names] * copies]) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 50), min_size=1, max_size=6), min_size=2, max_size=5))
def test_trajectories_with_no_call_in_common_give_traj_dist_one(raw):
    # Make every episode's calls unique to it.
    disjoint = [[(i, x) for x in seq] for i, seq in enumerate(raw)]
    assert traj_dist([disjoint]) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(1, 5))
def test_equal_use_of_all_tools_gives_tool_distr_entropy_one(n, each):
    assert math.isclose(tool_distr_entropy({f"t{i}": each for i in range(n)}, n), 1.0)


def test_random_large_goal_matches_pairwise_definition():
    rnd = random.Random(7)
    seqs = [[rnd.choice("abc") for _ in range(rnd.randint(1, 5))] for _ in range(30)]
    pairs = [(a, b) for i, a in enumerate(seqs) for b in seqs[i + 1 :]]
    expected = sum(_reference_levenshtein(a, b) / max(len(a), len(b)) for a, b in pairs)
    assert math.isclose(traj_dist([seqs]), expected / len(pairs))
