"""Find a Chromium to drive, and import Playwright only when the browser channel is used.

vistasim never installs a browser itself: it looks where one usually is (an explicit path from
the config, `VISTASIM_CHROMIUM`, Playwright's own download cache, the system) and otherwise says
exactly how to get one.
"""

from __future__ import annotations

import glob
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

from vistasim.errors import BrowserError, MissingExtraError

__all__ = ["LAUNCH_ARGS", "find_chromium", "import_playwright"]

LAUNCH_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    # WebRTC's UDP (STUN, peer traffic) bypasses proxies, so the origin guard's proxy cannot
    # stop it: no UDP at all. The `force-` spelling is the one older Chromium builds read.
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
"""Chromium flags for servers and containers (no sandbox, no GPU, no phoning home, no UDP)."""

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome")
"""Executables looked up on PATH, in this order."""

SYSTEM_PATHS = ("/usr/bin/chromium",)
"""Well-known system locations, tried after PATH."""

# Playwright's cache layout: chromium-<build>/chrome-linux/chrome (older) or chrome-linux64/chrome.
_PLAYWRIGHT_GLOBS = ("chromium-*/chrome-linux*/chrome", "chromium-*/chrome-mac*/Chromium.app")

INSTALL_HINT = (
    "install one of: (Debian/Ubuntu) `apt-get install chromium`; "
    "or run `python -m playwright install chromium` yourself; "
    "or point VISTASIM_CHROMIUM at an existing Chrome/Chromium executable"
)


def find_chromium(explicit: str | None = None, *, environ: Mapping[str, str] | None = None) -> str:
    """Return the path of a Chromium executable to launch.

    Looks, in order, at `explicit` (from the config), `VISTASIM_CHROMIUM`, Playwright's own
    install (honouring `PLAYWRIGHT_BROWSERS_PATH`), then the system (`chromium`,
    `chromium-browser`, `google-chrome` on PATH, `/usr/bin/chromium`).

    Args:
        explicit: A path set in the config; it must exist when given.
        environ: The environment to read (default: `os.environ`).

    Raises:
        BrowserError: An explicit path does not exist, or no Chromium was found anywhere.
    """
    env = os.environ if environ is None else environ
    for source, path in (
        ("the config", explicit),
        ("VISTASIM_CHROMIUM", env.get("VISTASIM_CHROMIUM")),
    ):
        if path:
            if not _is_executable(path):
                raise BrowserError(
                    f"Chromium path {path!r} from {source} is not an executable file; "
                    f"fix the path, or unset it to let vistasim search; {INSTALL_HINT}"
                )
            return path
    found = _playwright_chromium(env) or _system_chromium(env)
    if found is None:
        raise BrowserError(f"no Chromium found for the browser channel; {INSTALL_HINT}")
    return found


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _playwright_chromium(env: Mapping[str, str]) -> str | None:
    root = env.get("PLAYWRIGHT_BROWSERS_PATH")
    if root in (None, "", "0"):
        # "0" means "inside the package", which we do not search: it has no stable layout.
        root = str(Path(env.get("HOME") or Path.home()) / ".cache" / "ms-playwright")
    candidates: list[str] = []
    for pattern in _PLAYWRIGHT_GLOBS:
        candidates += glob.glob(os.path.join(root, pattern))
    # Newest build first: the directory names end in the build number.
    for path in sorted(candidates, key=_build_number, reverse=True):
        if path.endswith(".app"):
            path = os.path.join(path, "Contents", "MacOS", "Chromium")
        if _is_executable(path):
            return path
    return None


def _build_number(path: str) -> int:
    digits = Path(path).parent.parent.name.rpartition("-")[2]
    return int(digits) if digits.isdigit() else -1


def _system_chromium(env: Mapping[str, str]) -> str | None:
    for name in SYSTEM_NAMES:
        found = shutil.which(name, path=env.get("PATH"))
        if found:
            return found
    return next((p for p in SYSTEM_PATHS if _is_executable(p)), None)


def import_playwright() -> ModuleType:
    """Import `playwright.async_api`, or say which extra to install.

    Raises:
        MissingExtraError: Playwright is not installed.
    """
    try:
        from playwright import async_api
    except ImportError:
        raise MissingExtraError("playwright", "browser") from None
    return async_api
