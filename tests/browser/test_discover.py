"""Finding a Chromium: config path, VISTASIM_CHROMIUM, Playwright's cache, the system."""

from __future__ import annotations

import sys

import pytest

from vistasim.browser import find_chromium
from vistasim.errors import BrowserError, MissingExtraError

pytestmark = pytest.mark.browser


def make_executable(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_explicit_path_wins_over_the_environment(tmp_path):
    explicit = make_executable(tmp_path / "mine" / "chrome")
    other = make_executable(tmp_path / "env" / "chrome")
    assert find_chromium(explicit, environ={"VISTASIM_CHROMIUM": other}) == explicit


def test_vistasim_chromium_variable_is_used(tmp_path):
    chosen = make_executable(tmp_path / "chrome")
    assert find_chromium(environ={"VISTASIM_CHROMIUM": chosen, "PATH": ""}) == chosen


def test_missing_explicit_path_is_an_error_naming_it(tmp_path):
    with pytest.raises(BrowserError, match="nowhere/chrome"):
        find_chromium(str(tmp_path / "nowhere" / "chrome"), environ={})


def test_playwright_cache_newest_build_is_found(tmp_path):
    root = tmp_path / "browsers"
    make_executable(root / "chromium-1100" / "chrome-linux" / "chrome")
    newest = make_executable(root / "chromium-1200" / "chrome-linux64" / "chrome")
    environ = {"PLAYWRIGHT_BROWSERS_PATH": str(root), "PATH": ""}
    assert find_chromium(environ=environ) == newest


def test_system_chromium_on_path_is_found(tmp_path):
    found = make_executable(tmp_path / "bin" / "chromium-browser")
    environ = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "none"), "PATH": str(tmp_path / "bin")}
    assert find_chromium(environ=environ) == found


def test_no_chromium_says_how_to_install_one(tmp_path, monkeypatch):
    monkeypatch.setattr("vistasim.browser._discover.SYSTEM_PATHS", ())
    environ = {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path), "PATH": str(tmp_path)}
    with pytest.raises(BrowserError) as caught:
        find_chromium(environ=environ)
    message = str(caught.value)
    assert "apt-get install chromium" in message
    assert "python -m playwright install chromium" in message
    assert "VISTASIM_CHROMIUM" in message


async def test_missing_playwright_names_the_browser_extra(monkeypatch):
    from vistasim.browser import BrowserPool

    monkeypatch.setitem(sys.modules, "playwright", None)
    with pytest.raises(MissingExtraError, match=r"vistasim\[browser\]"):
        async with BrowserPool() as pool:
            await pool.new_session(allowed_origins=["http://127.0.0.1:1"])
