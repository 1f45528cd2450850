"""Benchmark the results commands on a stored run of 10,000 episodes: report, show, metrics.

Run: .venv/bin/python benchmarks/report.py [--episodes 10000] [--base chat|hybrid] [--keep DIR]

The store is synthetic but its episodes are real ones: the offline demo (nine shop scenarios,
agenda users against the rule-based agent; `--base hybrid` plays them in the browser, with
screenshots) runs with 2 rollouts and 2 branches per scenario, and its 36 episodes are copied,
scenario ids suffixed, until the store holds `--episodes` episodes — transcripts, tool calls,
verdicts, branch records and snapshots as the engine wrote them. Each copied turn gets a user
and an agent model call (tokens, latency, dollars), so the cost tables have something to sum.

Measured, each as the command a user types (a fresh process; wall and CPU seconds):
- `vistasim report RUN` with no stored metrics (they are computed, then stored), then again;
- `vistasim show RUN` and `vistasim metrics RUN` (stored metrics);
- the report's size, and the time Chromium takes to open it (until its script has run), then
  to follow the first failure link and draw that episode's transcript.
Targets: report <= 10 s, show and metrics <= 2 s, file <= 25 MB, open <= 3 s. The machine may be
shared: the load average is printed with the figures, and CPU seconds are the steadier measure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vistasim.cli.demo import demo_config, demo_scenarios  # noqa: E402
from vistasim.config import RunConfig  # noqa: E402
from vistasim.events import Snapshot  # noqa: E402
from vistasim.explore import run  # noqa: E402
from vistasim.llm import ModelCall, TokenUsage  # noqa: E402
from vistasim.store import NewBranch, RunView, Store, open_store, read_run_view  # noqa: E402

RUN_ID = "bench-report"


def base_run(path: Path, mode: str) -> RunView:
    """The demo's scenarios, 2 rollouts and 2 branches each, played for real."""
    config = demo_config(rollouts=2, mode=mode).model_dump()
    config["explore"] = {"branches": 2}
    result = anyio.run(
        lambda: run(RunConfig.model_validate(config), scenarios=demo_scenarios(), store=path)
    )
    with open_store(path) as store:
        return read_run_view(store, result.run_id)


def copy_run(base: RunView, source: Store, target: Store, episodes: int) -> None:
    """Copy the base run's episodes, scenario ids suffixed, until `episodes` are stored."""
    target.db.execute("PRAGMA synchronous = OFF")  # a benchmark fixture: speed over durability
    per_copy = len(base.episodes)
    copies = -(-episodes // per_copy)
    scenarios = [
        s.model_copy(update={"id": f"{s.id}-{c:04d}"})
        for c in range(copies)
        for s in base.scenarios.values()
    ]
    rollouts = 1 + max(e.rollout for e in base.episodes if e.branch_of is None)
    target.create_run(
        RUN_ID, config=base.config, scenarios=scenarios, rollouts=rollouts,
        mode=base.episodes[0].mode, name=f"synthetic {episodes}", metadata=base.metadata,
    )  # fmt: skip
    roots = {sid: root for sid, (root, _) in target.scenario_roots(RUN_ID).items()}
    forks = {b.fork_event_id for b in base.branches}
    rnd = random.Random(0)
    made = 0
    for copy in range(copies):
        ids: dict[int, int] = {}
        for episode in base.episodes:
            if made == episodes:
                return
            _copy_episode(base, source, target, episode, copy, roots, ids, forks, rnd)
            made += 1


def _copy_episode(base, source, target, episode, copy, roots, ids, forks, rnd) -> None:
    suffix = f"-{copy:04d}"
    scenario = episode.scenario_id + suffix
    name = f"{RUN_ID}:{scenario}:{episode.episode_id.rsplit(':', 1)[1]}"
    branch = next((b for b in base.branches if b.episode_id == episode.episode_id), None)
    parent = roots[scenario]
    if branch is not None:
        origin = f"{RUN_ID}:{scenario}:{branch.parent_episode_id.rsplit(':', 1)[1]}"
        plan = target.create_branch(
            RUN_ID,
            NewBranch(parent=target.episode(origin), fork_event_id=ids[branch.fork_event_id],
                      turn=branch.turn, chooser=branch.chooser, rationale=branch.rationale,
                      original=branch.original, candidates=branch.candidates,
                      chosen=branch.chosen, injected=branch.injected,
                      embedder=branch.embedder, overhead_tokens=branch.overhead_tokens),
        )  # fmt: skip
        assert plan is not None and plan.episode_id == name, (plan, name)
        parent = ids[branch.fork_event_id]
    chunks = _turns(episode.own_events, forks)
    for index, chunk in enumerate(chunks):
        last = index == len(chunks) - 1
        blobs = [
            source.get_blob(e.event.screenshot_ref)
            for e in chunk
            if getattr(e.event, "screenshot_ref", None)
        ]
        parent = target.append_events(
            RUN_ID, name, parent, [(e.turn, e.event) for e in chunk], calls=_calls(rnd),
            blobs=blobs, status=episode.status if last else "running",
            stop_reason=episode.stop_reason.value if last and episode.stop_reason else None,
        )  # fmt: skip
        ids[chunk[-1].id] = parent
    if branch is not None:
        target.set_branch_status(name, branch.status, detail=branch.detail)


def _turns(events, forks):
    """A turn's events end at its snapshot (as the engine writes them) or at a fork point."""
    chunks, current = [], []
    for stored in events:
        current.append(stored)
        if isinstance(stored.event, Snapshot) or stored.id in forks:
            chunks.append(current)
            current = []
    return [*chunks, current] if current else chunks


def _calls(rnd: random.Random) -> list[ModelCall]:
    return [
        ModelCall(role=role, model=f"{role}-model", latency_s=rnd.uniform(0.2, 2.5),
                  usage=TokenUsage(input_tokens=rnd.randint(400, 3000),
                                   output_tokens=rnd.randint(20, 200)),
                  cost_usd=round(rnd.uniform(0.0002, 0.002), 6))
        for role in ("user", "agent")
    ]  # fmt: skip


def timed(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Run `vistasim ARGS` in a fresh process; its wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vistasim.cli", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}


async def open_in_chromium(report: Path) -> dict[str, object]:
    """Seconds until the page's script has run, then until a failure's transcript is drawn."""
    from playwright.async_api import async_playwright

    from vistasim.browser import find_chromium

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        page = await browser.new_page()
        errors: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: requests.append(r.url))
        start = time.perf_counter()
        await page.goto(report.as_uri(), timeout=60_000)
        await page.wait_for_selector("html[data-ready]", state="attached", timeout=60_000)
        opened = time.perf_counter() - start
        link = page.locator(".cause .evidence a[href^='#ep-']").first
        target = (await link.get_attribute("href") or "#").removeprefix("#")
        start = time.perf_counter()
        await link.click()
        await page.locator(f"[id='{target}'] .transcript .line").first.wait_for(timeout=60_000)
        followed = time.perf_counter() - start
        await browser.close()
    return {
        "open_s": round(opened, 2),
        "failure_link_to_transcript_s": round(followed, 2),
        "console_errors": len(errors),
        "requests": len(requests),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--base", choices=["chat", "hybrid"], default="chat")
    parser.add_argument("--keep", type=Path, help="Keep the store and report in this folder.")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="vistasim-report-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "VISTASIM_HOME": str(folder / "home")}
    base_path, store_path = folder / "base.db", folder / "big.db"
    for path in (base_path, store_path):
        path.unlink(missing_ok=True)
    started = time.perf_counter()
    base = base_run(base_path, args.base)
    with open_store(base_path) as source, open_store(store_path) as target:
        copy_run(base, source, target, args.episodes)
        target.finish_run(RUN_ID, "done")
        events = target.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    built = time.perf_counter() - started
    store = ["--store", str(store_path)]
    report = folder / "report.html"
    figures: dict[str, object] = {
        "episodes": args.episodes,
        "events": events,
        "base": args.base,
        "store_built_s": round(built, 1),
        "report, metrics computed": timed(["report", RUN_ID, *store, "-o", str(report)], env),
        "report, metrics stored": timed(["report", RUN_ID, *store, "-o", str(report)], env),
        "show": timed(["show", RUN_ID, *store], env),
        "metrics": timed(["metrics", RUN_ID, *store], env),
        "report_mb": round(report.stat().st_size / 1e6, 1),
        "chromium": anyio.run(lambda: open_in_chromium(report)),
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }
    print(json.dumps(figures, indent=2))
    out = ROOT / "benchmarks" / "results" / f"report-{args.base}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
