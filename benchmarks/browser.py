"""Browser benchmark: action latency, observation size and memory per concurrent session.

The shop site runs under uvicorn in its own process on 127.0.0.1 (as a product under test would),
so its CPU is not counted against the browser layer. Reports:

- action latency p50/p95 (click, type+enter, select, navigate, back, scroll) on shop pages,
  each including the bounded settle wait (target p50 <= 150 ms);
- observation tokens vs raw HTML tokens per page (target <= 15 %);
- 8 concurrent sessions, and memory per extra session: proportional set size (PSS, shared pages
  split fairly) of all Chromium processes, from 1 to 8 open sessions (target <= 80 MB);
- time per `ui` episode on the real chat framework apps (the `chatui` test apps, each in its own
  process): a config of `[web] start_url` + one scenario, offline agenda user, no selectors; the
  bot asks for the order number, then streams its answer with two 1 s pauses. Each episode is
  split into the agent's reply time (send to complete reply, which includes the 1.5 s settle) and
  the rest (opening the page, finding the widget, observing, snapshots);
- under load (`--part load`): time per `ui` episode (its start to its end, as stored) p50/p95 on
  Gradio, Streamlit and Chainlit at browser concurrency 1 and 8 (`web.concurrency`), with the
  machine as it is and with one CPU-burner process per core, and the verdicts of every episode.

    .venv/bin/python benchmarks/browser.py [--rounds 20] [--sessions 8] [--ui-episodes 5]
        [--load-episodes 8] [--part all|shop|ui|load]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import anyio
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.chatui.apps.launch import FRAMEWORKS, cpu_burners, start_app, stop_app  # noqa: E402

from vistasim import load_config, open_store, read_run_view, run  # noqa: E402
from vistasim.browser import (  # noqa: E402
    Back,
    BrowserPool,
    Click,
    Navigate,
    PageSession,
    Scroll,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.metrics import success  # noqa: E402

SERVER = """
import socket, sys, uvicorn
from vistasim.domains import get_domain
domain = get_domain("shop")
app = domain.make_web_app(domain.make_environment(), None)
sock = socket.socket(); sock.bind(("127.0.0.1", 0)); sock.listen(64)
print(sock.getsockname()[1], flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off")).run(sockets=[sock])
"""

PAGES = ["/", "/product/P035", "/cart", "/checkout", "/orders", "/orders/W1007", "/account"]
EMAIL = "priya.shah@example.com"


def start_server() -> tuple[subprocess.Popen[str], str]:
    """Start the shop site in a child process; return it and its base URL."""
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    return proc, f"http://127.0.0.1:{port}"


async def log_in(session: PageSession, base: str) -> None:
    """Log the session in as the benchmark customer."""
    await session.goto(f"{base}/login")
    await session.observe()
    result = await session.act(TypeText(target="login-email", text=EMAIL, enter=True))
    assert result.ok, result


def one_round(base: str) -> list[tuple[str, WebStep]]:
    """A realistic sequence of actions on the shop, ending where it started."""
    return [
        ("click", Click(target="order-link-W1007")),
        ("select", SelectOption(target="return-refund-to", value="gift_card")),
        ("click", Click(target="return-item-P035-RED")),
        ("type", TypeText(target="return-reason", text="arrived damaged")),
        ("navigate", Navigate(url=f"{base}/product/P035")),
        ("back", Back()),
        ("scroll", Scroll(direction="down")),
        ("navigate", Navigate(url="/")),
        ("type+enter", TypeText(target="search-input", text="daypack", enter=True)),
        ("navigate", Navigate(url="/orders")),
    ]


async def measure_latency(session: PageSession, base: str, rounds: int) -> dict[str, list[float]]:
    """Time each action (with its settle wait), observing between actions as a user would."""
    times: dict[str, list[float]] = {}
    await session.goto(f"{base}/orders")
    for _ in range(rounds):
        await session.observe()
        for name, step in one_round(base):
            start = time.perf_counter()
            result = await session.act(step)
            times.setdefault(name, []).append((time.perf_counter() - start) * 1000)
            assert result.ok, result
            await session.observe()
    return times


async def measure_observation(session: PageSession, base: str) -> list[tuple[str, int, int, float]]:
    """Observe each shop page: (path, view tokens, raw HTML tokens, observe ms)."""
    rows = []
    for path in PAGES:
        await session.goto(f"{base}{path}")
        start = time.perf_counter()
        view = await session.observe()
        took = (time.perf_counter() - start) * 1000
        rows.append((path, view.tokens, view.raw_html_tokens, took))
    return rows


def chromium_memory_mb() -> float:
    """PSS (or RSS where PSS is unknown) of this process's Chromium descendants, in MB."""
    total = 0
    for proc in psutil.Process().children(recursive=True):
        try:
            if "chrom" not in proc.name():
                continue
            info = proc.memory_full_info()
            total += getattr(info, "pss", info.rss)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total / 2**20


async def measure_memory(pool: BrowserPool, base: str, count: int) -> tuple[list[float], float]:
    """Open `count` logged-in sessions concurrently; memory after each, and the wall time."""
    sessions: list[PageSession] = []
    memory = []
    start = time.perf_counter()
    for _ in range(count):
        sessions.append(await pool.new_session(allowed_origins=[base]))
    async with anyio.create_task_group() as group:
        for session in sessions:
            group.start_soon(drive, session, base)
    wall = time.perf_counter() - start
    for keep in range(count, 0, -1):
        await anyio.sleep(0.3)  # let Chromium settle after closing a context
        memory.append(chromium_memory_mb())
        await sessions[keep - 1].close()
    return memory[::-1], wall


async def drive(session: PageSession, base: str) -> None:
    """One concurrent episode: log in, open an order, observe."""
    await log_in(session, base)
    await session.act(Click(target="order-link-W1007"))
    await session.observe()


def pct(values: list[float], q: float) -> float:
    """Return the q-quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


SCENARIO = """\
- id: order-status
  persona: {name: Sam Okafor, style: {verbosity: low, patience: 3}}
  goal: Find out the status of my order.
  knowledge: {order_id: W1002}
  agenda: [{intent: order_status}]
  criteria: {statements: [{contains_any: [shipped]}]}
  limits: {max_turns: 4}
"""


async def measure_chat_ui(framework: str, episodes: int, folder: Path) -> dict[str, object]:
    """Run `episodes` ui episodes one after another against `framework`'s app; their timings."""
    proc, url = start_app(framework, folder)
    try:
        (folder / "scenarios.yaml").write_text(SCENARIO, encoding="utf-8")
        (folder / "vistasim.toml").write_text(
            f'[run]\nscenarios = "scenarios.yaml"\nmode = "ui"\nrollouts = {episodes}\n'
            f'concurrency = 1\n\n[web]\nstart_url = "{url}"\n',
            encoding="utf-8",
        )
        marks = [time.perf_counter()]
        result = await run(
            load_config(folder / "vistasim.toml"),
            store=folder / "v.db",
            on_episode=lambda *_: marks.append(time.perf_counter()),
        )
    finally:
        stop_app(proc)
    with open_store(folder / "v.db") as store:
        view = read_run_view(store, result.run_id)
    return episode_timings(framework, view, marks, result.stop_reasons)


def episode_timings(framework: str, view, marks: list[float], reasons: dict) -> dict[str, object]:
    """Time per episode (between completions; the first also launches Chromium and checks the
    page), and how much of a later episode the agent's replies took."""
    walls = [b - a for a, b in zip(marks, marks[1:], strict=False)]
    later = walls[1:] or walls
    replies = [
        sum(e.event.latency_s for e in episode.events if e.event.kind == "agent_reply")
        for episode in view.episodes
    ]
    reply_s = statistics.fmean(replies)
    return {
        "framework": framework,
        "episodes": len(walls),
        "stop_reasons": reasons,
        "first_episode_s": round(walls[0], 2),
        "episode_s_p50": round(statistics.median(later), 2),
        "episode_s_max": round(max(later), 2),
        "reply_s_mean": round(reply_s, 2),
        "other_s_mean": round(statistics.fmean(later) - reply_s, 2),
    }


async def measure_chat_uis(episodes: int) -> list[dict[str, object]]:
    """Time ui episodes on each installed framework."""
    rows = []
    for framework in FRAMEWORKS:
        if importlib.util.find_spec(framework) is None:
            print(f"{framework}: not installed, skipped (pip install -e '.[dev]')")
            continue
        with tempfile.TemporaryDirectory() as folder:
            rows.append(await measure_chat_ui(framework, episodes, Path(folder)))
    return rows


def report_chat_uis(rows: list[dict[str, object]]) -> None:
    """Print the time per ui episode on each framework, and write it to benchmarks/results."""
    print("time per ui episode (start_url only, agenda user, one after another):")
    for row in rows:
        print(
            f"  {row['framework']:<10} {row['episodes']} episodes {row['stop_reasons']}: "
            f"p50 {row['episode_s_p50']:.2f} s (max {row['episode_s_max']:.2f}), of which agent "
            f"replies {row['reply_s_mean']:.2f} s and the rest {row['other_s_mean']:.2f} s; "
            f"first episode {row['first_episode_s']:.2f} s"
        )
    out = ROOT / "benchmarks" / "results" / "browser-chatui.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows, indent=2), encoding="utf-8")


LOAD_FRAMEWORKS = ("gradio", "streamlit", "chainlit")


async def measure_loaded(framework: str, episodes: int, folder: Path) -> list[dict[str, object]]:
    """Time `episodes` ui episodes at browser concurrency 1 and 8, idle and under CPU load."""
    proc, url = start_app(framework, folder)
    rows = []
    try:
        for concurrency in (1, 8):
            for burners in (0, os.cpu_count() or 1):
                with cpu_burners(burners):
                    rows.append(await timed_run(framework, url, folder, concurrency, burners,
                                                episodes))  # fmt: skip
                print(row_line(rows[-1]), flush=True)
    finally:
        stop_app(proc)
    return rows


async def timed_run(
    framework: str, url: str, folder: Path, concurrency: int, burners: int, episodes: int
) -> dict[str, object]:
    """One run of `episodes` ui episodes; each episode's time (stored start to end) and verdict."""
    work = folder / f"c{concurrency}-l{burners}"
    work.mkdir()
    (work / "scenarios.yaml").write_text(SCENARIO, encoding="utf-8")
    (work / "vistasim.toml").write_text(
        f'[run]\nscenarios = "scenarios.yaml"\nmode = "ui"\nrollouts = {episodes}\n'
        f'concurrency = {concurrency}\n\n[web]\nstart_url = "{url}"\n'
        f"concurrency = {concurrency}\n",
        encoding="utf-8",
    )
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    result = await run(load_config(work / "vistasim.toml"), store=work / "v.db")
    wall = time.perf_counter() - started
    with open_store(work / "v.db") as store:
        view = read_run_view(store, result.run_id)
    times = [e.ended_at - e.started_at for e in view.episodes if e.ended_at and e.started_at]
    outcomes = success(view).episodes
    return {
        "framework": framework, "concurrency": concurrency, "burners": burners,
        "episodes": len(times), "wall_s": round(wall, 1), "load_before": round(load_before, 1),
        "episode_s_p50": round(pct(times, 0.5), 2), "episode_s_p95": round(pct(times, 0.95), 2),
        "verdicts": dict(sorted(
            Counter(f"{e.stop_reason}/{outcomes[e.episode_id]}" for e in view.episodes).items()
        )),
        "not_passed": [
            e.events[-1].event.detail[:300] for e in view.episodes
            if outcomes[e.episode_id] != "passed"
        ],
    }  # fmt: skip


def row_line(row: dict[str, object]) -> str:
    """One measured run as a line."""
    load = f"{row['burners']} burners" if row["burners"] else "idle"
    return (
        f"  {row['framework']:<10} concurrency {row['concurrency']}, {load:<9} "
        f"(load avg before {row['load_before']}): p50 {row['episode_s_p50']:.1f} s, "
        f"p95 {row['episode_s_p95']:.1f} s per episode, {row['wall_s']:.0f} s wall, "
        f"{row['verdicts']}"
        + "".join(f"\n    not passed: {detail}" for detail in list(row["not_passed"]))
    )


async def measure_under_load(episodes: int) -> None:
    """Time per ui episode at browser concurrency 1 and 8, idle and loaded; write the JSON."""
    print(f"time per ui episode under load ({episodes} episodes per run, {os.cpu_count()} CPUs):")
    rows = []
    for framework in LOAD_FRAMEWORKS:
        with tempfile.TemporaryDirectory() as folder:
            rows += await measure_loaded(framework, episodes, Path(folder))
    out = ROOT / "benchmarks" / "results" / "browser-load.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows, indent=2), encoding="utf-8")


async def main(
    rounds: int, sessions: int, ui_episodes: int = 5, part: str = "all", load_episodes: int = 8
) -> None:
    """Run the measurements and print the figures."""
    if part in ("all", "shop"):
        await measure_shop(rounds, sessions)
    if part in ("all", "ui"):
        report_chat_uis(await measure_chat_uis(ui_episodes))
    if part in ("all", "load"):
        await measure_under_load(load_episodes)


async def measure_shop(rounds: int, sessions: int) -> None:
    """Action latency, observation size and memory per session on the shop site."""
    server, base = start_server()
    try:
        async with BrowserPool() as pool:
            session = await pool.new_session(allowed_origins=[base])
            await log_in(session, base)
            for _ in range(2):  # warm up caches and the server
                await measure_latency(session, base, 1)
            times = await measure_latency(session, base, rounds)
            rows = await measure_observation(session, base)
            await session.close()
            memory, wall = await measure_memory(pool, base, sessions)
    finally:
        server.terminate()
        server.wait()
    report(times, rows, memory, wall)


def report(
    times: dict[str, list[float]],
    rows: list[tuple[str, int, int, float]],
    memory: list[float],
    wall: float,
) -> None:
    """Print the figures against their targets."""
    every = [t for values in times.values() for t in values]
    print(f"action latency (ms, incl. settle), {len(every)} actions:")
    for name, values in times.items():
        print(f"  {name:<10} p50 {pct(values, 0.5):6.1f}  p95 {pct(values, 0.95):6.1f}")
    p50, p95 = pct(every, 0.5), pct(every, 0.95)
    print(f"  {'all':<10} p50 {p50:6.1f}  p95 {p95:6.1f}  (target p50 <= 150)")
    print("observation tokens vs raw HTML tokens (target <= 15 %):")
    for path, tokens, raw, took in rows:
        share = 100 * tokens / raw
        print(f"  {path:<16} {tokens:5d} / {raw:5d} = {share:5.1f} %  observe {took:5.1f} ms")
    total = sum(r[1] for r in rows) / sum(r[2] for r in rows)
    print(f"  {'all pages':<16} {100 * total:5.1f} %")
    extra = [b - a for a, b in zip(memory, memory[1:], strict=False)]
    print(f"{len(memory)} concurrent sessions: log in + open an order each, {wall:.2f} s wall")
    print("  chromium PSS by open sessions (MB): " + ", ".join(f"{m:.0f}" for m in memory))
    print(f"  per extra session: mean {statistics.fmean(extra):.1f} MB (target <= 80)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--ui-episodes", type=int, default=5)
    parser.add_argument("--load-episodes", type=int, default=8)
    parser.add_argument("--part", choices=["all", "shop", "ui", "load"], default="all")
    args = parser.parse_args()
    anyio.run(main, args.rounds, args.sessions, args.ui_episodes, args.part, args.load_episodes)
