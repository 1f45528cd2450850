"""DIVERT efficiency on hand-built runs: agent tokens, errors per 100K, savings, shared prefixes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.metrics._builders import criteria, episode, make_run, model_call, stop, user
from vistasim.agent import PastTurn, proxy_requests
from vistasim.events import AgentReply, Event
from vistasim.llm import ToolSpec
from vistasim.metrics import compute_metrics, efficiency
from vistasim.store._view import BranchCandidate, BranchView, EpisodeView, RunView

POLICY = "You are the support agent of a shop. Be polite, look orders up before acting. " * 8
TOOLS = [
    ToolSpec(
        name="get_order",
        description="Look up an order by its id.",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
    )
]


def conversation(turns: list[tuple[str, str]], past: list[PastTurn] = ()) -> list[Event]:
    """User and agent events of `turns`, each reply carrying its proxy requests."""
    past = list(past)
    events: list[Event] = []
    for message, reply in turns:
        requests = proxy_requests(
            policy=POLICY, tools=TOOLS, past=past, message=message, tool_calls=(), reply=reply
        )
        events += [user(message), AgentReply(text=reply, requests=requests,
                                             requests_source="proxy")]  # fmt: skip
        past.append(PastTurn(user=message, reply=reply))
    return events


def linear(episode_id: str, scenario_id: str, turns, *, passed: bool = True) -> EpisodeView:
    return episode(episode_id, scenario_id, [*conversation(turns), criteria(passed), stop()])


def with_branches(run: RunView, branches: list[BranchView]) -> RunView:
    return type(run)(**{**run.__dict__, "branches": tuple(branches)})


def branch_view(child: str, parent: str, *, overhead: int, status: str = "done") -> BranchView:
    return BranchView(
        episode_id=child, parent_episode_id=parent, scenario_id="s1", fork_event_id=0, turn=1,
        chooser="heuristic", rationale="", original={}, candidates=(), chosen=0, injected={},
        embedder=None, overhead_tokens=overhead, status=status,  # type: ignore[arg-type]
    )  # fmt: skip


PARENT_TURNS = [
    ("Hi, I need help with my order W1006, it has not arrived yet.", "Let me look: it shipped."),
    ("Can you tell me when it will arrive at my address?", "It should arrive on Friday."),
]


def parent_and_branch() -> tuple[EpisodeView, EpisodeView]:
    parent = linear("e1", "s1", PARENT_TURNS)
    # The branch restores the parent before its second user turn and says something else.
    prefix = parent.events[:2]
    past = [PastTurn(user=PARENT_TURNS[0][0], reply=PARENT_TURNS[0][1])]
    own = conversation([("Actually, please cancel it instead.", "Cancelled.")], past=past)
    branch = episode("b1", "s1", [*own, criteria(False), stop()], branch_of="e1", prefix=prefix)
    return parent, branch


def test_independent_linear_rollouts_share_only_the_head():
    first = [("Where is my order W1006?", "It has shipped."), ("When?", "On Friday.")]
    second = [("I want to return the lamp I bought.", "Which order?"), ("W2002.", "Started.")]
    run = make_run([linear("e1", "s1", first), linear("e2", "s2", second)])
    result = efficiency(run, {"e1": "passed", "e2": "passed"})
    assert result.agent_tokens_source == "proxy"
    assert result.requests == 4
    assert result.shared_prefix_fraction_without_head == pytest.approx(0.0)
    assert result.shared_prefix_fraction > 0  # e2 reuses the head e1 sent
    assert result.token_savings == pytest.approx(0.0)
    assert result.linear_equivalent_tokens == result.agent_tokens == result.digest_tokens
    assert (result.failed_episodes, result.err_per_100k_agent_tokens) == (0, 0.0)


def test_a_branch_reuses_its_parents_prefix_and_saves_tokens():
    parent, branch = parent_and_branch()
    run = with_branches(make_run([parent, branch]), [branch_view("b1", "e1", overhead=300)])
    result = efficiency(run, {"e1": "passed", "b1": "failed"})
    assert result.requests == 3
    # Over the whole run: the parent's own requests share nothing, the branch's almost all.
    assert result.shared_prefix_fraction_without_head > 0.25
    alone = efficiency(make_run([parent]), {}).shared_prefix_fraction_without_head
    assert alone == 0.0
    assert result.shared_prefix_fraction > result.shared_prefix_fraction_without_head
    first_turn = sum(d.input_tokens + d.output_tokens for d in parent.events[1].event.requests)
    assert result.linear_equivalent_tokens == result.agent_tokens + first_turn
    assert 0 < result.token_savings < 1
    assert result.branches == 1 and result.branch_status == {"done": 1}
    assert result.overhead_tokens_per_branch == 300
    assert result.overhead_share == pytest.approx(300 / (result.agent_tokens + 300))


def test_growth_within_one_conversation_is_not_shared():
    run = make_run([linear("e1", "s1", PARENT_TURNS)])
    result = efficiency(run, {"e1": "passed"})
    assert result.shared_prefix_fraction == 0.0


def test_errors_per_100k_agent_tokens_and_task_failure_count():
    episodes = [
        linear("e1", "s1", [("hi", "hello")], passed=False),
        linear("e2", "s1", [("hey", "hello")], passed=False),
        linear("e3", "s2", [("yo", "hello")], passed=False),
        linear("e4", "s3", [("hello", "hello")]),
    ]
    outcomes = {"e1": "failed", "e2": "failed", "e3": "errored", "e4": "passed"}
    result = efficiency(make_run(episodes), outcomes)
    assert result.failed_episodes == 2  # only `failed` counts, never `errored`
    assert result.task_failure_count == 1
    assert result.err_per_100k_agent_tokens == pytest.approx(2 / (result.agent_tokens / 1e5))


def test_metered_agent_calls_are_the_agent_tokens_when_there_are_any():
    calls = [model_call("agent", 1000, 50, 0.0), model_call("user", 700, 70, 0.0)]
    cached = model_call("agent", 5000, 500, 0.0)
    cached = type(cached)(**{**cached.__dict__, "cache_hit": True})
    run = make_run([episode("e1", "s1", [*conversation([("hi", "yo")]), stop()],
                            model_calls=[*calls, cached])])  # fmt: skip
    result = efficiency(run, {"e1": "failed"})
    assert (result.agent_tokens_source, result.agent_tokens) == ("metered", 1050)
    assert result.err_per_100k_agent_tokens == pytest.approx(1 / 0.0105)
    assert result.requests == 1 and result.token_savings == 0.0


def test_without_tokens_or_digests_the_token_measures_are_none():
    run = make_run([episode("e1", "s1", [user("hi"), AgentReply(text="yo"), stop()])])
    result = efficiency(run, {"e1": "failed"})
    assert (result.agent_tokens_source, result.agent_tokens) == ("none", 0)
    assert result.err_per_100k_agent_tokens is None
    assert result.token_savings is None and result.linear_equivalent_tokens is None
    assert result.shared_prefix_fraction is None and result.overhead_share is None


def test_branch_status_counts_every_status():
    parent, branch = parent_and_branch()
    views = [
        branch_view("b1", "e1", overhead=100),
        branch_view("b2", "e1", overhead=200, status="abandoned"),
        branch_view("b3", "e1", overhead=0, status="converged"),
        branch_view("b4", "e1", overhead=300, status="abandoned"),
    ]
    result = efficiency(with_branches(make_run([parent, branch]), views), {})
    assert result.branch_status == {"abandoned": 2, "converged": 1, "done": 1}
    assert result.overhead_tokens_per_branch == 150


async def test_the_metrics_report_has_an_efficiency_section():
    parent, branch = parent_and_branch()
    run = with_branches(make_run([parent, branch]), [branch_view("b1", "e1", overhead=10)])
    report = await compute_metrics(run)
    assert report.efficiency.failed_episodes == 1  # the branch failed its criteria
    assert report.efficiency.task_failure_count == 1
    assert "efficiency" in report.model_dump(mode="json")


async def test_format_metrics_shows_an_efficiency_line():
    from rich.console import Console

    from vistasim.metrics import format_metrics

    parent, branch = parent_and_branch()
    run = with_branches(make_run([parent, branch]), [branch_view("b1", "e1", overhead=10)])
    console = Console(width=200, record=True, color_system=None)
    console.print(format_metrics(await compute_metrics(run)))
    text = console.export_text()
    assert "errors / 100K agent tokens" in text and "proxy" in text
    assert "token savings" in text and "1 done" in text


def test_unique_failures_new_causes_and_their_split_by_operation():
    parent, branch = parent_and_branch()
    played = replace(
        branch_view("b1", "e1", overhead=0),
        candidates=(BranchCandidate(action={"kind": "say"}, source="hesitate:confirm"),),
    )
    run = with_branches(make_run([parent, branch]), [played])
    # c1: a named cause only the branch shows; c2: a cause the rollout showed already;
    # s1: a symptom only the branch shows (a distinct failure, but not a cause).
    failures = {"c1": ["b1"], "c2": ["e1", "b1"], "s1": ["b1"], "empty": []}
    result = efficiency(
        run, {"e1": "passed", "b1": "failed"}, failures=failures, causes=["c1", "c2", "empty"]
    )
    assert result.unique_failures == 3  # a failure no episode shows is not counted
    assert result.new_causes == 1
    per_token = result.unique_failures_per_100k_agent_tokens
    assert per_token == pytest.approx(3 / (result.agent_tokens / 1e5))
    assert set(result.by_operation) == {"hesitate"}
    hesitate = result.by_operation["hesitate"]
    assert (hesitate.branches, hesitate.failed_episodes) == (1, 1)
    assert (hesitate.unique_failures, hesitate.new_causes) == (3, 1)


def test_a_linear_run_finds_no_new_causes():
    run = make_run([linear("e1", "s1", PARENT_TURNS, passed=False)])
    result = efficiency(run, {"e1": "failed"}, failures={"c1": ["e1"]}, causes=["c1"])
    assert (result.unique_failures, result.new_causes, result.by_operation) == (1, 0, {})
