"""DIVERT against linear rollouts at equal agent tokens, offline, on every desk with known flaws.

Run: .venv/bin/python benchmarks/divert.py [--domains shop,school|all|bikes,bank,...]
     [--scenarios unwritten|all] [--linear 1,2,4,8] [--perturb 0.5] [--mode chat] [--quick]
     [--ablation] [--no-fixed-user] [--seed N | --seeds 0,1,2] [--keep DIR] [--out DIR]
     [--reuse FILE] | --pool OUT

Agenda user, cache off, chat mode by default. Desks (`_divert_desks.py`): shop and school with
their rule agents, bikes and every `benchmarks/domains` desk with its *flawed* agent. Per desk:
- linear rows: R rollouts per scenario, R in --linear; `perturbed-R` rows: the same with
  `user.perturb` (the baseline branching must beat);
- branch rows: R = 1 plus branches per scenario until the agent tokens of the perturbed row with
  the same R (the baseline they are compared with; the linear row's without `--perturb`) are
  spent (`explore.budget_tokens`, never overshot), so each branch row is compared at equal tokens.
  They play the baseline's varying user (`user.perturb`: roots as its first rollout, each
  branch's continuation drawn again with a seed of its own); `branch-fixed-user` keeps the
  earlier setting, branches at perturb 0;
- the ablation at the R = 4 budget (without --quick, or with --ablation): junction only (the
  same action again), + operations (one drawn uniformly), + diversity (argmin cosine: the
  paper's method), + novelty (the default), + the fresh-rollout arm (opt-in), the opening
  drawn again (`explore.opening_draws = 3`, opt-in), and the random junction chooser.

Agent tokens of the rule agents are the labelled proxy (docs/metrics.md). Ground truth is the
`note_flaw` channel (no detector reads it): a documented flaw counts as found when it fired in
an episode the detectors report `failed`; for a branch, it fired in the branch's own turns.
`flaw×scen` counts distinct (flaw, scenario) pairs so found; `no flaw` counts `failed` episodes
on whose path no documented flaw fired (a simulated-user fault or an undocumented agent gap).
`matched tok`, `uniq@matched`, `failed@matched`: a branch row and its perturbed baseline each
counted within the smaller of their agent tokens, episodes in the order they ended
(`_divert_matched.py`); the per-100K figures, each over its own tokens, stay beside them.

`--reuse FILE` takes the linear and perturbed rows from an earlier run's figures (same desks,
`--seed`, `--linear`, `--perturb`, `--scenarios` and `--mode`: they depend on nothing else, and
replay exactly) and plays only the branch rows: a change of the branching policy is measured in
a third of the time.

`--seeds 0,1,2` plays every row once per seed (figures in OUT/s0, OUT/s1...) and then prints
each branch row against its baseline pooled over the seeds (`_divert_pooled.py`): failures and
agent tokens summed before they are divided, and the seeds on which branching was at least the
baseline. One seed's ratio rests on a handful of distinct failures and moves by a third from
seed to seed, so each pooled ratio comes with its 95 % interval, pooled and per seed, from a
paired bootstrap over the scenarios (`_divert_interval.py`; each row keeps `by_scenario`: per
scenario, agent tokens, distinct failures, failed episodes): a seed is *shown below* the
baseline only when its whole interval is. `--pool OUT` plays nothing and pools the runs already
in OUT/s*/ (one seed each, e.g. three processes side by side with `--seed N --out OUT/sN`; rows
written before `by_scenario` get it from their stores in OUT/sN/db when kept there).

`--scenarios unwritten` (the default) leaves out the scenarios written to trigger a flaw (tags
`flaw:*`): what branching finds there, linear rollouts of the same scenarios do not reach.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._divert_desks import desk as desk_named  # noqa: E402
from benchmarks._divert_desks import desk_names, scenarios_of  # noqa: E402
from benchmarks._divert_interval import by_scenario  # noqa: E402
from benchmarks._divert_matched import (  # noqa: E402
    branch_budget,
    curve_of,
    episode_tokens,
    matched,
    scenarios_of_store,
)
from benchmarks._divert_matched import curve as _curve  # noqa: E402
from benchmarks._divert_pooled import pooled, print_pooled  # noqa: E402
from benchmarks.validity import Subject  # noqa: E402
from vistasim.config import RunConfig  # noqa: E402
from vistasim.domains import get_domain  # noqa: E402
from vistasim.explore import run  # noqa: E402
from vistasim.metrics import compute_metrics  # noqa: E402
from vistasim.scenario import Scenario  # noqa: E402
from vistasim.store import RunView, open_store, read_run_view  # noqa: E402
from vistasim.testing import record_flaws  # noqa: E402

HEDGED = "F4"
"""The "hedged confirmation read as yes" flaw of both rule agents."""
BUILTIN = ("shop", "school")
ABLATIONS: dict[str, dict[str, Any]] = {
    "ablate-junction-only": {"generator": "same", "novelty": False},
    "ablate-directed": {"selection": "random", "novelty": False},
    "ablate-diverse": {"novelty": False},
    "ablate-novelty": {},
    "ablate-rollout-arm": {"rollout_arm": True},
    "ablate-opening-draws": {"opening_draws": 3},
    "ablate-random-junction": {"chooser": "random"},
}
"""At the R = 4 budget: junction only (the same action again), + directed operations (one at
random), + diversity selection (argmin cosine: the paper's method), + novelty (the default),
+ the fresh-rollout arm (`explore.rollout_arm`, opt-in), the opening drawn again up to three
times (`explore.opening_draws = 3`, opt-in), and the random junction chooser (with everything
else as the default)."""


@dataclass(frozen=True, kw_only=True)
class Variant:
    """One way of exploring: linear R, or R = 1 plus branches to a token budget."""

    name: str
    rollouts: int
    explore: dict[str, Any]
    perturb: float = 0.0
    """`user.perturb`: the linear baseline whose user varies (README, DIVERT)."""
    seed: int = 0
    """`run.seed`: every episode's seed, and so every draw of the user, derives from it."""


def _short(desk: Subject) -> str:
    """The desk's name (`shop`, `bank`) without the agent's (`/rule`, `/flawed`)."""
    return desk.name.split("/", 1)[0]


def _config(desk: Subject, variant: Variant, mode: str, base_url: str | None) -> RunConfig:
    agent: dict[str, Any] = {"kind": "python", "target": desk.agent}
    if base_url is not None:  # the rule agent played as a tool-calling model: metered tokens
        agent = {"kind": "openai_chat", "base_url": base_url, "model": f"{_short(desk)}-rules",
                 "tools": "environment", "temperature": 0}
    return RunConfig.model_validate(
        {
            "run": {"name": variant.name, "rollouts": variant.rollouts, "mode": mode,
                    "concurrency": 8, "seed": variant.seed},
            "user": {"policy": "agenda", "perturb": variant.perturb},
            "agent": agent,
            "environment": {"target": desk.environment},
            "cache": {"mode": "off"},
            "explore": variant.explore,
        }
    )  # fmt: skip


async def measure(
    desk: Subject,
    variant: Variant,
    scenarios: list[Scenario],
    mode: str,
    store_dir: Path,
    agent: str = "rule",
) -> dict[str, Any]:
    """Play one variant and compare what it reports with the ground truth."""
    domain = _short(desk)
    path = store_dir / f"{domain}-{agent}-{variant.name}.db"
    for old in store_dir.glob(f"{path.name}*"):
        old.unlink()
    store = open_store(path)
    started = time.perf_counter()
    try:
        with record_flaws() as fired:
            async with _agent_server(domain, agent) as base_url:
                config = _config(desk, variant, mode, base_url)
                result = await run(config, scenarios=scenarios, store=store)
        wall = time.perf_counter() - started
        view = read_run_view(store, result.run_id)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        store.close()
    report = await compute_metrics(view)
    # Behind the fake server each request replays the conversation to a fresh agent: its flaw
    # notes name no episode, so flaws are counted for the in-process rule agent only.
    row = _figures(domain, variant, view, report, fired if agent == "rule" else [])
    if agent != "rule":
        row["flaws_found"] = row["flaws_unwritten"] = row["branch_failed_unexplained"] = None
        row["failed_unexplained"] = row["flaw_scenarios"] = row["flaw_scenarios_per_100k"] = None
    row["agent"] = agent
    row["agent_tokens_source"] = report.efficiency.agent_tokens_source
    row["wall_s"] = round(wall, 1)
    row["store_mb"] = round(path.stat().st_size / 1e6, 2)
    return row


@asynccontextmanager
async def _agent_server(domain: str, agent: str) -> AsyncIterator[str | None]:
    if agent == "rule":
        yield None
        return
    from vistasim.testing import FakeOpenAIServer, tool_calling_responder

    rule_agent = get_domain(domain).rule_agent
    responder = tool_calling_responder(lambda tools: rule_agent(env=tools))
    async with FakeOpenAIServer(responder=responder) as server:
        yield server.base_url


def _figures(domain: str, variant: Variant, view: RunView, report: Any, fired: list) -> dict:  # type: ignore[type-arg]
    outcomes = report.success.episodes
    eff = report.efficiency
    failed = {e for e, o in outcomes.items() if o == "failed"}
    written = {
        sid: {t.removeprefix("flaw:") for t in s.tags if t.startswith("flaw:")}
        for sid, s in view.scenarios.items()
    }
    found: set[str] = set()
    unwritten: set[str] = set()
    explained: set[str] = set()
    fired_at = {(f.episode_id, f.message_index): f.flaw.split(":", 1)[1] for f in fired}
    for episode in view.episodes:
        if episode.episode_id not in failed:
            continue
        for owner, index in _messages(episode):
            flaw = fired_at.get((owner, index))
            if flaw is None:
                continue
            # The flaw fired on this episode's path: it explains the failure. It counts as
            # found by this episode only in its own turns (for a branch: after its fork).
            explained.add(episode.episode_id)
            if owner == episode.episode_id:
                found.add(flaw)
                if flaw not in written[episode.scenario_id]:
                    unwritten.add(flaw)
    branches = [e for e in view.episodes if e.branch_of is not None]
    branch_failed = [e.episode_id for e in branches if e.episode_id in failed]
    # Ground truth at scenario grain: a documented flaw shown in a scenario is one finding.
    flaw_scenarios = {
        (fired_at[(owner, index)], e.scenario_id)
        for e in view.episodes if e.episode_id in failed
        for owner, index in _messages(e) if owner == e.episode_id and (owner, index) in fired_at
    }  # fmt: skip
    tokens = eff.agent_tokens
    curve = _curve(view, report, failed)
    status = Counter(b.status for b in view.branches)
    played = sum(v for k, v in status.items() if k != "abandoned")
    return {
        "domain": domain,
        "variant": variant.name,
        "episodes": len(view.episodes),
        "branches": len(branches),
        "agent_tokens": eff.agent_tokens,
        "failed": len(failed),
        "unique_failures": eff.unique_failures,
        "new_causes": eff.new_causes,
        "causes": sorted(u.label for u in report.failures.unique
                         if u.id in report.failures.causes),  # fmt: skip
        "unique_per_100k": eff.unique_failures_per_100k_agent_tokens,
        "by_operation": {k: v.model_dump() for k, v in eff.by_operation.items()},
        "err_per_100k": eff.err_per_100k_agent_tokens,
        "failing_scenarios": eff.task_failure_count,
        "flaws_found": sorted(found),
        "flaws_unwritten": sorted(unwritten),
        "hedged_found": HEDGED in found if fired and domain in BUILTIN else None,
        "token_savings": eff.token_savings,
        "shared_prefix": eff.shared_prefix_fraction,
        "shared_prefix_no_head": eff.shared_prefix_fraction_without_head,
        "branch_shared_prefix_no_head": _branch_share(view),
        "overhead_share": eff.overhead_share,
        "converged_share": status["converged"] / played if played else None,
        "abandoned": status["abandoned"],
        "branch_failed_unexplained": sorted(set(branch_failed) - explained),
        "failed_unexplained": len(failed - explained) if fired else None,
        "flaw_scenarios": len(flaw_scenarios) if fired else None,
        "flaw_scenarios_per_100k": (
            len(flaw_scenarios) / (tokens / 1e5) if fired and tokens else None
        ),
        "invalid": report.success.outcomes.get("invalid", 0),
        "curve": curve,
        "by_scenario": by_scenario(view, report, failed, episode_tokens(view)),
    }


def _messages(episode: Any) -> list[tuple[str, int]]:
    """(episode that sent it, how many user messages came before) for each user message on the
    path: where a flaw noted while answering it would be recorded."""
    from vistasim.events import UserMessage

    sent = [s.episode_id for s in episode.events if isinstance(s.event, UserMessage)]
    return [(owner, index) for index, owner in enumerate(sent) if owner]


def _branch_share(view: RunView) -> float | None:
    """Shared-prefix fraction (without head) of the branches' own requests only."""
    from vistasim.metrics._efficiency import efficiency

    branches = {e.episode_id for e in view.episodes if e.branch_of is not None}
    if not branches:
        return None
    eff = efficiency(view, {}, only=branches)
    return eff.shared_prefix_fraction_without_head


async def restore_timings(domain: str, store_dir: Path, samples: int = 200) -> dict[str, float]:
    """Snapshot and restore p50/p95 (ms) of the environment and agent, over stored snapshots."""
    from vistasim.events import Snapshot

    agent_cls = getattr(__import__(f"vistasim.domains.{domain}", fromlist=["x"]),
                        f"Rule{domain.title()}Agent")  # fmt: skip
    env = get_domain(domain).make_environment()
    agent = agent_cls(env=env)
    snaps, restores = [], []
    path = next(store_dir.glob(f"{domain}-rule-branch*.db"))
    with open_store(path) as store:
        rows = store.db.execute(
            "SELECT payload FROM events WHERE kind = 'snapshot' LIMIT ?", (samples,)
        ).fetchall()
        for (payload,) in rows:
            snap = Snapshot.model_validate_json(payload)
            started = time.perf_counter()
            if snap.env_state_ref:
                env.restore(store.get_blob(snap.env_state_ref))
            if snap.agent_state_ref:
                agent.restore(json.loads(store.get_blob(snap.agent_state_ref)))
            restores.append((time.perf_counter() - started) * 1e3)
            started = time.perf_counter()
            env.snapshot()
            json.dumps(agent.snapshot())
            snaps.append((time.perf_counter() - started) * 1e3)
    return {
        "snapshot_p50_ms": round(statistics.median(snaps), 3),
        "snapshot_p95_ms": round(_p95(snaps), 3),
        "restore_p50_ms": round(statistics.median(restores), 3),
        "restore_p95_ms": round(_p95(restores), 3),
    }


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


async def bench_domain(
    desk: Subject, args: argparse.Namespace, store_dir: Path
) -> tuple[list[dict], dict]:
    """Every row of one desk, and its snapshot/restore timings."""
    scenarios = scenarios_of(desk, args.scenarios)
    rows = []
    linear = {}

    earlier = await _reused(args, _short(desk))

    async def row_of(variant: Variant, budget_of: int | None = None) -> dict:
        if variant.name in earlier:
            row = earlier[variant.name]
        else:
            row = await measure(desk, variant, scenarios, args.mode, store_dir, args.agent)
            row["seed"] = variant.seed
        if budget_of is not None:
            budget = linear[budget_of]["agent_tokens"]
            row["budget_of"] = f"linear-R{budget_of}"
            row["tokens_vs_linear"] = row["agent_tokens"] / budget if budget else None
        rows.append(row)
        _progress(row)
        return row

    for r in args.linear:
        linear[r] = await row_of(Variant(name=f"linear-R{r}", rollouts=r, explore={},
                                         seed=args.seed))
    perturbed = {}
    for r in args.linear:
        if r == 1 or not args.perturb:
            continue
        perturbed[r] = await row_of(Variant(name=f"perturbed-R{r}", rollouts=r, explore={},
                                            perturb=args.perturb, seed=args.seed), budget_of=r)
    big = len(scenarios) * 400  # enough branches: the token budget stops them
    for r in args.linear:
        if r == 1:
            continue
        budget = branch_budget(linear[r], perturbed.get(r))
        explore = {"branches": big, "budget_tokens": budget, **args.explore}
        # The branches' user varies as the baseline's does (roots and continuations alike):
        # the paper branches the same stochastic user its linear rollouts play.
        await row_of(Variant(name=f"branch-eq-R{r}", rollouts=1, explore=explore,
                             perturb=args.perturb, seed=args.seed), budget_of=r)  # fmt: skip
        if args.perturb and args.fixed_user:  # the earlier protocol, kept for comparison
            await row_of(Variant(name=f"branch-fixed-user-eq-R{r}", rollouts=1,
                                 explore=explore, seed=args.seed), budget_of=r)  # fmt: skip
    if not args.quick or args.ablation:
        ref = 4 if 4 in linear else max(linear)
        budget = branch_budget(linear[ref], perturbed.get(ref))
        for name, extra in ABLATIONS.items():
            explore = {"branches": big, "budget_tokens": budget, **extra}
            variant = Variant(name=name, rollouts=1, explore=explore, perturb=args.perturb,
                              seed=args.seed)
            await row_of(variant, budget_of=ref)
    _beyond_baseline(rows)
    matched(rows)
    timed = args.agent == "rule" and desk.scenarios is None
    timings = await restore_timings(_short(desk), store_dir) if timed else {}
    return rows, timings


async def _reused(args: argparse.Namespace, domain: str) -> dict[str, dict]:
    """The desk's linear and perturbed rows of `--reuse` (empty without it), by variant.

    Raises:
        SystemExit: the file holds no such row, or one played with another seed.
    """
    if args.reuse is None:
        return {}
    rows = json.loads(args.reuse.read_text())["rows"]
    found = {
        r["variant"]: r for r in rows
        if r["domain"] == domain and r["variant"].startswith(("linear-", "perturbed-"))
    }  # fmt: skip
    wanted = {f"linear-R{r}" for r in args.linear}
    wanted |= {f"perturbed-R{r}" for r in args.linear if r != 1 and args.perturb}
    if missing := sorted(wanted - set(found)):
        raise SystemExit(f"divert.py: --reuse {args.reuse}: no {domain} rows {missing}")
    if other := sorted({r.get("seed", args.seed) for r in found.values()} - {args.seed}):
        raise SystemExit(f"divert.py: --reuse {args.reuse}: {domain} rows of seed {other}, "
                         f"not --seed {args.seed}")  # fmt: skip
    kept = args.reuse.parent / "db"
    for name in wanted:
        store = kept / f"{domain}-{args.agent}-{found[name]['variant']}.db"
        if "curve" not in found[name] and store.exists():  # figures written before the curve
            found[name] = {**found[name], "curve": await curve_of(store)}
        if "by_scenario" not in found[name] and store.exists():  # ... or before by_scenario
            found[name] = {**found[name], "by_scenario": await scenarios_of_store(store)}
    return {name: found[name] for name in wanted}


def _beyond_baseline(rows: list[dict]) -> None:
    """Per branch row, the named causes the perturbed row of its budget never showed.

    `new_causes` compares branches with the linear rollouts of their own run, which are the
    baseline's first rollouts; this compares them with the whole baseline at equal tokens.
    """
    perturbed = {r["variant"].removeprefix("perturbed-"): r for r in rows
                 if r["variant"].startswith("perturbed-")}  # fmt: skip
    for row in rows:
        baseline = perturbed.get(row.get("budget_of", "").removeprefix("linear-"))
        if row["branches"] and baseline is not None:
            row["causes_beyond_perturbed"] = sorted(set(row["causes"]) - set(baseline["causes"]))


def _progress(row: dict) -> None:
    print(f"... {row['domain']} {row['variant']}: {row['episodes']} episodes, "
          f"{row['wall_s']} s", file=sys.stderr)  # fmt: skip


def _fmt(value: object, pct: bool = False) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.0%}" if pct else f"{value:.2f}"
    if isinstance(value, list):
        return ",".join(value) or "-"
    return str(value)


def _fmt_pair(row: dict, key: str) -> str:
    """`branch (perturbed)` of a count at matched tokens; `n/a` for a row without it."""
    return f"{row[key]} ({row[key + '_perturbed']})" if key in row else "n/a"


def _print(rows: list[dict], timings: dict[str, dict]) -> None:
    head = ("domain", "variant", "eps", "agent tok", "source", "tok/lin", "unique", "new causes",
            "Uniq/100K", "beyond pert", "matched tok", "uniq@matched (pert)",
            "failed@matched (pert)", "failed", "Err/100K", "flaw×scen", "FS/100K", "no flaw",
            "fail scen", "flaws", "unwritten", "savings", "prefix", "prefix-head",
            "br prefix-head", "overhead", "converged", "sim-fault?")  # fmt: skip
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [
            r["domain"], r["variant"], str(r["episodes"]), f"{r['agent_tokens']:,}",
            r.get("agent_tokens_source", "proxy"), _fmt(r.get("tokens_vs_linear")),
            str(r["unique_failures"]), str(r["new_causes"]), _fmt(r["unique_per_100k"]),
            _fmt(r.get("causes_beyond_perturbed")), _fmt(r.get("matched_tokens")),
            _fmt_pair(r, "matched_unique"), _fmt_pair(r, "matched_failed"),
            str(r["failed"]), _fmt(r["err_per_100k"]), _fmt(r["flaw_scenarios"]),
            _fmt(r["flaw_scenarios_per_100k"]), _fmt(r["failed_unexplained"]),
            str(r["failing_scenarios"]), _fmt(r["flaws_found"]), _fmt(r["flaws_unwritten"]),
            _fmt(r["token_savings"], pct=True), _fmt(r["shared_prefix"], pct=True),
            _fmt(r["shared_prefix_no_head"], pct=True),
            _fmt(r["branch_shared_prefix_no_head"], pct=True),
            _fmt(r["overhead_share"], pct=True), _fmt(r["converged_share"], pct=True),
            _fmt(None if r["branch_failed_unexplained"] is None
                 else len(r["branch_failed_unexplained"])),
        ]  # fmt: skip
        print("| " + " | ".join(cells) + " |")
    for domain, t in timings.items():
        if not t:
            continue
        per_100 = [r for r in rows if r["domain"] == domain and r["branches"]]
        lin1 = next(
            (r for r in rows if r["domain"] == domain and r["variant"] == "linear-R1"), None
        )
        mb = ""
        if per_100 and lin1:
            r = per_100[-1]
            per = (r["store_mb"] - lin1["store_mb"]) / r["branches"] * 100
            mb = f", store {per:.2f} MB/100 branches"
        print(f"\n{domain}: snapshot p50 {t['snapshot_p50_ms']} ms p95 {t['snapshot_p95_ms']} ms, "
              f"restore p50 {t['restore_p50_ms']} ms p95 {t['restore_p95_ms']} ms{mb}")  # fmt: skip
    for r in rows:
        if r.get("branch_failed_unexplained"):
            print(f"\n{r['domain']} {r['variant']}: failed branches with no documented flaw: "
                  f"{r['branch_failed_unexplained'][:6]}")  # fmt: skip


def _setting(text: str) -> tuple[str, Any]:
    """`KEY=VALUE` of `--explore`: the value read as JSON (a bare word stays a string)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


async def main() -> None:
    """Run every asked domain and print the table (also written to benchmarks/results)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="shop,school",
                        help=f"comma-separated, or 'all': {','.join(desk_names())}")
    parser.add_argument("--scenarios", choices=["unwritten", "all"], default="unwritten")
    parser.add_argument("--linear", default="1,2,4,8")
    parser.add_argument("--mode", default="chat")
    parser.add_argument("--quick", action="store_true", help="no ablation rows")
    parser.add_argument("--ablation", action="store_true",
                        help="the ablation rows even with --quick")
    parser.add_argument("--no-fixed-user", dest="fixed_user", action="store_false",
                        help="leave out the branch row whose user does not vary (perturb 0)")
    parser.add_argument("--perturb", type=float, default=0.5,
                        help="user.perturb of the perturbed linear baseline (0: no such rows)")
    parser.add_argument("--seed", type=int, default=0, help="run.seed of every row")
    parser.add_argument("--explore", action="append", default=[], type=_setting,
                        metavar="KEY=VALUE",
                        help="an [explore] setting of the branch rows (JSON value), e.g. "
                             "opening_draws=3; repeatable")
    parser.add_argument("--out", type=Path, help="where the JSON goes (default: a temp folder)")
    parser.add_argument("--keep", type=Path, help="keep the stores in this folder")
    parser.add_argument("--reuse", type=Path,
                        help="an earlier run's figures JSON: take its linear and perturbed rows"
                        " (same --seed) and play only the branch rows")  # fmt: skip
    parser.add_argument("--agent", choices=["rule", "model"], default="rule",
                        help="model: the rule agent as a tool-calling model behind the loopback"
                        " fake OpenAI-compatible server (metered agent tokens)")  # fmt: skip
    parser.add_argument("--seeds", help="comma-separated seeds, e.g. 0,1,2: each plays as "
                        "--seed N (figures in OUT/sN), then a table pooled over them; --reuse "
                        "then needs {seed} in its path")  # fmt: skip
    parser.add_argument("--pool", type=Path, metavar="OUT",
                        help="play nothing: pool the figures of runs already in OUT/s*/ (one "
                        "--seed each, e.g. played side by side with --out OUT/sN)")  # fmt: skip
    args = parser.parse_args()
    if args.pool is not None:
        await _pool_only(parser, args)
        return
    args.explore = dict(args.explore)
    args.linear = [int(x) for x in args.linear.split(",")]
    seeds = _seeds(parser, args)
    os.environ.setdefault("VISTASIM_HOME", tempfile.mkdtemp(prefix="vistasim-divert-"))
    names = desk_names() if args.domains == "all" else args.domains.split(",")
    desks = [desk_named(name) for name in names]  # every name checked before any run
    for desk in desks:
        if args.agent == "model" and desk.scenarios is not None:
            parser.error(f"--agent model: {_short(desk)} has no rule agent to serve")
    # Outside the repo by default: a benchmark run must not leave files in the work tree.
    out = args.out or Path(tempfile.mkdtemp(prefix="vistasim-divert-results-"))
    reuse, keep = args.reuse, args.keep
    by_seed: dict[int, list[dict]] = {}
    several = len(seeds) > 1
    for seed in seeds:
        args.seed = seed
        args.reuse = Path(str(reuse).format(seed=seed)) if reuse is not None else None
        args.keep = keep / f"s{seed}" if keep is not None and several else keep
        by_seed[seed] = await _play(desks, args, out / f"s{seed}" if several else out)
    if several:
        table = pooled(by_seed)
        print(f"\n## Pooled over seeds {','.join(map(str, seeds))}\n")
        print_pooled(table)
        figures = out / f"divert-{args.agent}-{args.mode}-{args.scenarios}-pooled.json"
        figures.write_text(json.dumps({"pooled": table}, indent=2))
        print(f"pooled figures: {figures}", file=sys.stderr)


async def _pool_only(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Print (and write to OUT) the pooled table of the per-seed figures found in OUT/s*/.

    A row written before rows kept their `by_scenario` counts gets them from its kept store
    (OUT/sN/db, as `--keep OUT/sN/db` leaves it) when there is one, for the intervals.
    """
    name = f"divert-{args.agent}-{args.mode}-{args.scenarios}.json"
    found = sorted(args.pool.glob(f"s*/{name}"))
    by_seed: dict[int, list[dict]] = {}
    for path in found:
        rows = json.loads(path.read_text())["rows"]
        seeds = {r.get("seed") for r in rows}
        if len(seeds) != 1 or None in seeds:
            parser.error(f"--pool: {path} holds the rows of seeds {sorted(map(str, seeds))}")
        for row in rows:
            store = path.parent / "db" / f"{row['domain']}-{args.agent}-{row['variant']}.db"
            if "by_scenario" not in row and store.exists():
                row["by_scenario"] = await scenarios_of_store(store)
        by_seed[seeds.pop()] = rows
    if len(by_seed) < 2:
        parser.error(f"--pool {args.pool}: fewer than two seeds' {name} in its s*/ folders")
    table = pooled(by_seed)
    print_pooled(table)
    figures = args.pool / name.replace(".json", "-pooled.json")
    figures.write_text(json.dumps({"pooled": table}, indent=2))
    print(f"pooled figures: {figures}", file=sys.stderr)


def _seeds(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[int]:
    """The seeds to play (`--seeds`, else `--seed`); a bad list is a one-line error."""
    if args.seeds is None:
        return [args.seed]
    try:
        seeds = [int(x) for x in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds: expected comma-separated integers, got {args.seeds!r}")
    if len(set(seeds)) != len(seeds):
        parser.error(f"--seeds: {args.seeds!r} names a seed twice")
    if len(seeds) > 1 and args.reuse is not None and "{seed}" not in str(args.reuse):
        parser.error("--reuse with several --seeds: put {seed} in its path, e.g. OUT/s{seed}/...")
    return seeds


async def _play(desks: list[Subject], args: argparse.Namespace, out: Path) -> list[dict]:
    """Every desk at `args.seed`: the rows, printed and written to OUT as each desk ends."""
    rows: list[dict] = []
    timings: dict[str, dict] = {}
    out.mkdir(parents=True, exist_ok=True)
    figures = out / f"divert-{args.agent}-{args.mode}-{args.scenarios}.json"
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for desk in desks:
            domain_rows, timings[_short(desk)] = await bench_domain(desk, args, folder)
            rows += domain_rows
            # Written after every desk: a desk that stops the run loses only its own rows.
            figures.write_text(json.dumps({"rows": rows, "timings": timings}, indent=2))
    _print(rows, timings)
    print(f"figures: {figures}", file=sys.stderr)
    return rows


if __name__ == "__main__":
    anyio.run(main)
