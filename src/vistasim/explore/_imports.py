"""Load what a run will use before its episodes need it, so no episode stalls the others.

Episodes share one event loop. An import or a file load on first use (Playwright, uvicorn and the
web framework of a built-in site, the token counter's tokenizer, numpy and
wordllama for branching) blocks every episode for as long as it takes, which on a busy machine is
long enough for another episode's model call or page wait to time out. So a run loads them
before its first episode; the CLI does it before the event loop even starts. What is not
installed is skipped here: the checks before the run, or its first use, say which extra to add.

What no episode needs before its first model answer — the detectors that judge an ended
episode and the token counter's tokenizer, about a third of the start-up of a chat run — is
loaded by a background thread instead, started once the run's first model request is written
(or `_AT_THE_LATEST` after the episodes start, for a run whose first request is late or never
comes), while the first model calls are on the wire: the run reaches its first model call that
much sooner, and its first request goes out without sharing the interpreter with the thread.
A web run (`ui`, `hybrid`) loads everything before it starts, since its page waits are short
enough for a late import to break them.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import Callable
from contextlib import suppress

from vistasim.config import RunConfig
from vistasim.errors import MissingExtraError
from vistasim.llm import after_next_request

__all__ = ["load_ahead", "load_rest", "load_rest_after_first_request", "modules_for"]

_ALWAYS = ("vistasim.agent", "vistasim.store", "vistasim.user")
_AFTER_FIRST_CALL = ("vistasim.metrics",)
"""Needed when the first episode ends, not before its first model call."""

_AT_THE_LATEST = 0.5
"""Seconds after the episodes start when the background load starts if no request was written."""

_starting = threading.Lock()
_warm_up: threading.Thread | None = None
"""The background load of this process, started by its first chat or api run."""


def modules_for(config: RunConfig) -> list[str]:
    """The modules a run of `config` imports on first use, in the order to load them."""
    modules = [*_ALWAYS, *_AFTER_FIRST_CALL]
    if config.run.mode in ("ui", "hybrid"):
        modules += ["playwright.async_api", "vistasim.browser"]
        if not config.web.start_url:  # a built-in domain's site is served per episode
            modules += ["uvicorn", "fastapi", "vistasim.domains"]
    if config.explore.branches:
        modules += ["numpy", "vistasim.divert"]
        if config.explore.embedder == "wordllama":
            modules.append("wordllama")
    return modules


def load_ahead(config: RunConfig) -> None:
    """Import the modules a run of `config` needs, and load the token counter's tokenizer.

    For a chat or api run, what is only needed once an episode has had its first model answer
    is left to `load_rest`, called when the episodes start.
    """
    later = _later(config)
    for name in modules_for(config):
        if name not in later:
            _load(name)
    if not later:
        _warm(())


def load_rest(config: RunConfig) -> None:
    """Start loading, in a background thread, what `load_ahead` left for later (once a process).

    Called as the episodes start: the thread mostly runs while they wait for their first model
    answers (it shares the interpreter lock with them, so started earlier it would only slow the
    run's set-up down). An episode that needs a module first waits on its import lock, as it
    would have waited on the import.
    """
    global _warm_up
    later = _later(config)
    if not later:
        return
    with _starting:
        if _warm_up is None:
            _warm_up = threading.Thread(target=_warm, args=(later,), name="vistasim-load-rest")
            _warm_up.start()


def load_rest_after_first_request(config: RunConfig) -> Callable[[], None]:
    """Call `load_rest` once a model request is written or `_AT_THE_LATEST` s have passed.

    Whichever comes first, on the running event loop. Returns a function to call when the run
    ends: it forgets what has not happened yet.
    """
    if not _later(config) or _warm_up is not None:
        return lambda: None

    def start() -> None:
        timer.cancel()
        forget()
        load_rest(config)

    timer = asyncio.get_running_loop().call_later(_AT_THE_LATEST, start)
    forget = after_next_request(start)

    def cancel() -> None:
        timer.cancel()
        forget()

    return cancel


def _later(config: RunConfig) -> tuple[str, ...]:
    return _AFTER_FIRST_CALL if config.run.mode in ("chat", "api") else ()


def _warm(names: tuple[str, ...]) -> None:
    from vistasim.agent import count_tokens

    for name in names:
        _load(name)
    with suppress(MissingExtraError):
        count_tokens("load the tokenizer now")


def _load(name: str) -> None:
    with suppress(ImportError):
        importlib.import_module(name)
