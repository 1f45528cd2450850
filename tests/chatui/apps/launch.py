"""Start one of the chat apps on a free loopback port and stop it, and load the CPU meanwhile
(tests and benchmarks)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

APPS = Path(__file__).parent
FRAMEWORKS = (
    "gradio", "streamlit", "chainlit", "shiny", "panel", "nicegui", "mesop", "openwebui"
)  # fmt: skip
STARTUP_TIMEOUT_S = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def command(framework: str, port: int) -> tuple[list[str], str]:
    """The command serving `framework`'s app on `port`, and the URL that answers once it is up."""
    app = str(APPS / f"{framework}_app.py")
    base = f"http://127.0.0.1:{port}"
    if framework == "gradio":
        return [sys.executable, app, str(port)], base + "/"
    if framework == "streamlit":
        flags = ["--server.port", str(port), "--server.address", "127.0.0.1"]
        flags += ["--server.headless", "true", "--browser.gatherUsageStats", "false"]
        flags += ["--server.fileWatcherType", "none", "--global.developmentMode", "false"]
        return [sys.executable, "-m", "streamlit", "run", app, *flags], base + "/_stcore/health"
    if framework == "chainlit":
        flags = ["--host", "127.0.0.1", "--port", str(port), "--headless"]
        return [sys.executable, "-m", "chainlit", "run", app, *flags], base + "/"
    if framework == "shiny":
        flags = ["--host", "127.0.0.1", "--port", str(port)]
        return [sys.executable, "-m", "shiny", "run", *flags, app], base + "/"
    if framework == "panel":
        flags = ["--address", "127.0.0.1", "--port", str(port), "--num-procs", "1"]
        flags += ["--allow-websocket-origin", f"127.0.0.1:{port}"]
        return [sys.executable, "-m", "panel", "serve", app, *flags], base + "/panel_app"
    if framework == "mesop":  # served as deployed (`--prod`): no editor, no file watcher
        mesop = [sys.executable, "-m", "mesop.bin.bin", app, "--prod", "--port", str(port)]
        return mesop, base + "/"
    assert framework in ("nicegui", "openwebui"), framework
    return [sys.executable, app, str(port)], base + "/"


def start_app(framework: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start `framework`'s app with `workdir` as its folder; return it and its URL once it answers.

    Raises:
        RuntimeError: The app exited or did not answer in time (the message holds its log).
    """
    port = free_port()
    argv, health = command(framework, port)
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "CHAINLIT_APP_ROOT": str(workdir)}
    env.pop("PYTEST_CURRENT_TEST", None)  # NiceGUI changes its ways under pytest
    log = workdir / f"{framework}.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            argv, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not _answers(health):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_app(proc)
            raise RuntimeError(f"{framework} app did not start:\n{log.read_text(encoding='utf-8')}")
        time.sleep(0.2)
    return proc, health if framework == "panel" else f"http://127.0.0.1:{port}/"


def stop_app(proc: subprocess.Popen[bytes]) -> None:
    """Stop the app and its workers (its own process group, from `start_new_session`)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # loopback only
            return response.status == 200
    except OSError:
        return False


@contextmanager
def cpu_burners(count: int) -> Iterator[None]:
    """Keep `count` processes spinning on the CPU for the block (as nice as their parent)."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait(10)
