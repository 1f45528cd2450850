"""Scale benchmark: thousands of concurrent episodes, in one process and on local Ray workers.

The same run both ways: E episodes of T user turns, all in flight at once (`run.concurrency` = E),
an LLM user answered by the fake OpenAI-compatible server (its own process, so its CPU is not
counted) after L ms, a Python agent making one tool call a turn (`benchmarks/engine.py`'s), cache
off. First with the local executor, then with `run.executor = "ray"` on a local Ray instance with
W worker actors (started before the clock starts; the run starts its workers on the clock).

Per executor: wall time against the latency-bound ideal (every episode in flight, so T x L),
CPU per user turn (the driver's, plus, on Ray, every Ray process's: workers, raylet, GCS), the
driver's peak RSS during the run (sampled every 0.25 s) and, on Ray, the sum of the Ray
processes' peak RSS. `uptime`'s load average is
printed beside the figures: on a shared machine they are upper bounds.

    .venv/bin/python benchmarks/scale.py [--episodes 2000] [--turns 6] [--latency-ms 50]
        [--workers 2] [--executors local,ray]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import anyio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.engine import _start_server  # noqa: E402


class Sampler:
    """Samples this process's RSS and its descendants' (the Ray processes') CPU time and RSS.

    Worker actors exit when the run ends, so their last sample stands for them.
    """

    def __init__(self, every_s: float = 0.25) -> None:
        import psutil

        self.me, self.every_s = psutil.Process(), every_s
        self.cpu: dict[int, float] = {}
        self.rss: dict[int, int] = {}
        self.own_rss = 0
        self.baseline = self._sample()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            self._sample()

    def _sample(self) -> dict[int, float]:
        import psutil

        seen: dict[int, float] = {}
        self.own_rss = max(self.own_rss, self.me.memory_info().rss)
        for child in self.me.children(recursive=True):
            try:
                times, rss = child.cpu_times(), child.memory_info().rss
            except psutil.Error:
                continue
            seen[child.pid] = times.user + times.system
            self.cpu[child.pid] = seen[child.pid]
            self.rss[child.pid] = max(self.rss.get(child.pid, 0), rss)
        return seen

    def cpu_s(self) -> float:
        """CPU seconds the descendants spent since this sampler was made."""
        return sum(cpu - self.baseline.get(pid, 0.0) for pid, cpu in self.cpu.items())

    def peak_rss_mb(self) -> float:
        """The descendants' peak RSS, summed (an upper bound: their peaks need not coincide)."""
        return sum(self.rss.values()) / 2**20


def _config(args: argparse.Namespace, base_url: str, executor: str):
    from vistasim.config import RunConfig

    return RunConfig.model_validate({
        "base_dir": str(ROOT),  # Ray workers import the agent from here too
        "run": {"rollouts": _rollouts(args), "max_turns": args.turns,
                "concurrency": args.episodes, "executor": executor,
                "ray_workers": args.workers, "episode_timeout_s": 3600},
        "user": {"policy": "llm"},
        "models": {"user": {"model": "bench-user", "base_url": base_url,
                            "concurrency": args.episodes, "max_retries": 0}},
        "agent": {"kind": "python", "target": "benchmarks.engine:agent"},
        "cache": {"mode": "off"},
    })  # fmt: skip


def _rollouts(args: argparse.Namespace) -> int:
    return min(args.episodes, 100)  # rollouts of one scenario are capped: several scenarios


async def _timed_run(config, store_path: Path) -> tuple[object, float, float, int]:
    from vistasim.events import UserMessage
    from vistasim.explore import run
    from vistasim.scenario import Persona, Scenario
    from vistasim.store import open_store, read_run_view

    count = -(-config.run.concurrency // config.run.rollouts)
    scenarios = [
        Scenario(id=f"bench-{i}", persona=Persona(name="Bench"), goal="Check some orders.")
        for i in range(count)
    ]
    with open_store(store_path) as store:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        result = await run(config, scenarios=scenarios, store=store, preflight=False)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        view = read_run_view(store, result.run_id)
    turns = sum(sum(isinstance(e.event, UserMessage) for e in ep.events) for ep in view.episodes)
    return result, cpu, wall, turns


def _measure(args, executor: str, base_url: str, store_path: Path) -> dict[str, object]:
    config = _config(args, base_url, executor)
    with Sampler() as sampled:
        result, cpu, wall, turns = anyio.run(_timed_run, config, store_path)
    if turns == 0:  # nothing to divide by: say what the episodes ended as
        reasons = result.stop_reasons  # type: ignore[attr-defined]
        print(f"scale.py: the {executor} run played no user turn; its episodes ended {reasons}",
              file=sys.stderr)  # fmt: skip
        raise SystemExit(1)
    others = sampled.cpu_s() if executor == "ray" else 0.0
    ray_rss = round(sampled.peak_rss_mb(), 1) if executor == "ray" else None
    ideal = args.turns * args.latency_ms / 1000
    return {
        "executor": executor,
        "episodes": result.episodes,  # type: ignore[attr-defined]
        "stop_reasons": result.stop_reasons,  # type: ignore[attr-defined]
        "user_turns": turns,
        "wall_s": round(wall, 2),
        "latency_bound_ideal_s": round(ideal, 3),
        "wall_over_ideal": round(wall / ideal, 1),
        "driver_cpu_ms_per_turn": round(cpu * 1000 / turns, 3),
        "total_cpu_ms_per_turn": round((cpu + others) * 1000 / turns, 3),
        "driver_peak_rss_mb": round(sampled.own_rss / 2**20, 1),  # sampled: this run's own
        "ray_processes_peak_rss_mb": ray_rss,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    """Run the benchmark and print the figures (and write benchmarks/results/scale.json)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--executors", default="local,ray")
    args = parser.parse_args()
    executors = args.executors.split(",")
    figures: list[dict[str, object]] = []
    if "ray" in executors:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False,
                 object_store_memory=128 * 2**20, log_to_driver=False)  # fmt: skip
        print(f"local Ray instance started in {time.perf_counter() - started:.1f} s")
    server, base_url = _start_server(args.latency_ms)
    try:
        with TemporaryDirectory() as tmp:
            for executor in executors:
                print(f"load average before the {executor} run: {os.getloadavg()}", flush=True)
                figures.append(_measure(args, executor, base_url, Path(tmp) / f"{executor}.db"))
                print(json.dumps(figures[-1]), flush=True)
    finally:
        server.kill()
    out = ROOT / "benchmarks" / "results" / "scale.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
