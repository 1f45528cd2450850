"""Real chat apps built with Gradio, Streamlit, Chainlit, Shiny, Panel, NiceGUI and Mesop (and a
page with Open WebUI's markup), each served on a free loopback port.

Each framework runs the same rule bot (`apps/rules.py`) in its own process, started once per test
module and killed at teardown (`apps/launch.py`). Tests skip, with the reason, when the framework
or Chromium is missing (`make test` installs the frameworks with the `dev` extra).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chatui.apps.launch import start_app, stop_app
from vistasim.browser import find_chromium
from vistasim.errors import BrowserError

collect_ignore = ["apps"]  # the apps start servers when imported: never import them here


def require(framework: str) -> None:
    """Skip unless `framework` (the Open WebUI page needs only the standard library) and a
    Chromium are installed."""
    if framework != "openwebui" and importlib.util.find_spec(framework) is None:
        pytest.skip(f"{framework} is not installed (pip install -e '.[dev]' installs it)")
    try:
        find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium for the chat-UI tests: {exc}")


def serve_chat_app(framework: str, workdir: Path) -> Iterator[str]:
    """Start `framework`'s app in `workdir`; yield its URL once it answers; kill it after."""
    require(framework)
    try:
        proc, url = start_app(framework, workdir)
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield url
    finally:
        stop_app(proc)
