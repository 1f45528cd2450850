"""Real chat apps built with Gradio, Streamlit and Chainlit, each served on a free loopback port.

Each framework runs the same rule bot (`apps/rules.py`) in its own process, started once per test
module and killed at teardown. Tests skip, with the reason, when the framework or Chromium is
missing (`make test` installs the frameworks with the `dev` extra).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from vistasim.browser import find_chromium
from vistasim.errors import BrowserError

collect_ignore = ["apps"]  # the apps start servers when imported: never import them here

APPS = Path(__file__).parent / "apps"
STARTUP_TIMEOUT_S = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _command(framework: str, port: int) -> tuple[list[str], str]:
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
    assert framework == "chainlit"
    flags = ["--host", "127.0.0.1", "--port", str(port), "--headless"]
    return [sys.executable, "-m", "chainlit", "run", app, *flags], base + "/"


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # loopback only
            return response.status == 200
    except OSError:
        return False


def require(framework: str) -> None:
    """Skip unless `framework` and a Chromium are installed."""
    if importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed (pip install -e '.[dev]' installs it)")
    try:
        find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium for the chat-UI tests: {exc}")


def serve_chat_app(framework: str, workdir: Path) -> Iterator[str]:
    """Start `framework`'s app in `workdir`; yield its URL once it answers; kill it after."""
    require(framework)
    port = free_port()
    command, health = _command(framework, port)
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "CHAINLIT_APP_ROOT": str(workdir)}
    log = workdir / "app.log"
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            command, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _answers(health):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{framework} app did not start:\n{log.read_text(encoding='utf-8')}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    # The app's own process group (start_new_session): its workers go with it.
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
