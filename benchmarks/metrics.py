"""Benchmark the metrics over a synthetic stored run of 10,000 episodes.

Run: .venv/bin/python benchmarks/metrics.py [--episodes N]
Target: every deterministic metric (coverage, success, cost, failures + dedup) in <= 5 s;
realism in one judge call per episode.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import anyio

from vistasim.events import (
    AgentReply,
    ApiCall,
    Judgment,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
)
from vistasim.llm import ModelCall, TokenUsage
from vistasim.llm._embed import WordLlamaEmbedder
from vistasim.metrics import (
    PolicyRule,
    cluster_failures,
    compute_metrics,
    cost,
    coverage,
    detect_failures,
    realism,
    success,
)
from vistasim.metrics._realism import RUBRICS
from vistasim.scenario import Persona, Scenario
from vistasim.store._view import EpisodeView, RunView, StoredEvent
from vistasim.testing import FunctionLLM

TOOLS = [
    "find_user",
    "get_order",
    "list_orders",
    "cancel_order",
    "return_items",
    "exchange_items",
    "refund",
    "update_address",
    "get_product",
    "search_products",
    "transfer_to_human",
    "think",
]
ERRORS = ["order {} not found", "order {} already shipped", "item {} is not returnable"]
CHECKS = [
    "required action cancel_order(order_id={}) not taken",
    "required statement containing 'refund' not said",
    "end state: order {} status is 'delivered', expected 'cancelled'",
]


def synthetic_run(n_episodes: int, *, scenarios: int = 100, seed: int = 0) -> RunView:
    rnd = random.Random(seed)
    ids = iter(range(1, 10**9))
    episodes = []
    for index in range(n_episodes):
        sid = f"s{index % scenarios}"
        episodes.append(_episode(rnd, ids, f"e{index}", sid, index // scenarios))
    return RunView(
        run_id="bench",
        name=None,
        status="done",
        created_at=0.0,
        config={},
        scenarios={
            f"s{i}": Scenario(id=f"s{i}", persona=Persona(name="P"), goal=f"goal {i}")
            for i in range(scenarios)
        },
        episodes=tuple(episodes),
        agent_tools=tuple(TOOLS),
    )


def _episode(rnd: random.Random, ids, episode_id: str, sid: str, rollout: int) -> EpisodeView:
    stored, parent = [], None
    for turn, event in enumerate(_events(rnd, f"W{rnd.randint(1000, 1099)}")):
        event_id = next(ids)
        stored.append(
            StoredEvent(
                id=event_id,
                parent_id=parent,
                episode_id=episode_id,
                turn=turn,
                created_at=0.0,
                event=event,
            )
        )
        parent = event_id
    calls = tuple(
        ModelCall(
            role=rnd.choice(["user", "agent"]),
            model="m",
            usage=TokenUsage(input_tokens=rnd.randint(200, 2000), output_tokens=80),
            latency_s=0.5,
            cost_usd=0.001,
        )
        for _ in range(rnd.randint(2, 8))
    )
    return EpisodeView(
        episode_id=episode_id,
        run_id="bench",
        scenario_id=sid,
        rollout=rollout,
        status="errored" if rnd.random() < 0.01 else "done",
        events=tuple(stored),
        model_calls=calls,
        started_at=0.0,
        ended_at=rnd.uniform(5, 60),
    )


def _events(rnd: random.Random, order: str) -> list:
    events: list = []
    for _turn in range(rnd.randint(1, 6)):
        events.append(UserMessage(text=f"please help with {order}"))
        for _ in range(rnd.randint(0, 3)):
            name = rnd.choice(TOOLS[:8]) if rnd.random() < 0.8 else rnd.choice(TOOLS)
            error = rnd.choice(ERRORS).format(order) if rnd.random() < 0.03 else None
            events.append(ToolCall(name=name, args={"order_id": order}, error=error))
        if rnd.random() < 0.1:
            events.append(ApiCall(name="track_parcel", args={"order_id": order}))
        events.append(AgentReply(text="Done."))
    crashed = rnd.random() < 0.02
    passed = rnd.random() < 0.7
    failed = [] if passed else [rnd.choice(CHECKS).format(order)]
    checks = [{"check": c, "passed": False, "detail": "mismatch"} for c in failed]
    if not crashed:
        events.append(Judgment(judge="criteria", passed=passed, checks=checks))
    reason = StopReason.AGENT_ERROR if crashed else StopReason.GOAL_MET
    events.append(Stop(reason=reason, detail="HTTP 500 internal server error" if crashed else ""))
    return events


def timed(label: str, fn, results: dict):
    start = time.perf_counter()
    value = fn()
    results[label] = round(time.perf_counter() - start, 3)
    return value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=10_000)
    run = synthetic_run(parser.parse_args().episodes)
    rules = [
        PolicyRule(
            id="lookup-first",
            description="look the order up before cancelling it",
            tool="cancel_order",
            requires_prior_tool="get_order",
        )
    ]
    embedder = WordLlamaEmbedder()
    embedder.embed(["warm up"])  # load once, outside the timings
    seconds: dict[str, float] = {}
    timed("coverage", lambda: coverage(run), seconds)
    timed("success", lambda: success(run), seconds)
    timed("cost", lambda: cost(run), seconds)
    failures = timed("failures.detect", lambda: detect_failures(run, rules), seconds)
    timed("failures.dedup", lambda: cluster_failures(failures, embedder), seconds)
    report = timed(
        "compute_metrics (all, no judge)",
        lambda: anyio.run(lambda: compute_metrics(run, embedder=embedder, rules=rules)),
        seconds,
    )
    print(json.dumps(_figures(run, report, seconds), indent=2))


def _figures(run: RunView, report, seconds: dict[str, float]) -> dict[str, object]:
    judged = RunView(**{**run.__dict__, "episodes": run.episodes[:200]})
    verdict = {"score": 3, "reason": "ok"}
    judge = FunctionLLM(lambda _r: json.dumps(dict.fromkeys(RUBRICS, verdict)))
    realism_report = anyio.run(lambda: realism(judged, judge))
    return {
        "episodes": len(run.episodes),
        "events": sum(len(e.events) for e in run.episodes),
        "seconds": seconds,
        "transition_entropy": round(report.transition_entropy, 4),
        "tool_distr_entropy": round(report.tool_distr_entropy, 4),
        "traj_dist": round(report.traj_dist or 0.0, 4),
        "tool_calls": report.coverage.tool_calls,
        "success_rate": round(report.success_rate or 0.0, 4),
        "pass_hat_k[1..3]": {k: round(v, 4) for k, v in list(report.pass_hat_k.items())[:3]},
        "failures": report.failures.failures,
        "unique_failures": report.unique_failures,
        "realism_judge_calls_per_episode": realism_report.judge_calls / len(judged.episodes),
    }


if __name__ == "__main__":
    main()
