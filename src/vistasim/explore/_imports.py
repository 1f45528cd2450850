"""Load what a run will use before its episodes start, so no episode stalls the others.

Episodes share one event loop. An import or a file load on first use (Playwright, uvicorn and the
web framework of a built-in site, the token counter's tokenizer, numpy and
wordllama for branching) blocks every episode for as long as it takes, which on a busy machine is
long enough for another episode's model call or page wait to time out. So a run loads them once,
before its first episode; the CLI does it before the event loop even starts. What is not
installed is skipped here: the checks before the run, or its first use, say which extra to add.
"""

from __future__ import annotations

import importlib
from contextlib import suppress

from vistasim.config import RunConfig
from vistasim.errors import MissingExtraError

__all__ = ["load_ahead", "modules_for"]

_ALWAYS = ("vistasim.agent", "vistasim.metrics", "vistasim.store", "vistasim.user")


def modules_for(config: RunConfig) -> list[str]:
    """The modules a run of `config` imports on first use, in the order to load them."""
    modules = list(_ALWAYS)
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
    """Import the modules a run of `config` needs, and load the token counter's tokenizer."""
    from vistasim.agent import count_tokens

    for name in modules_for(config):
        with suppress(ImportError):
            importlib.import_module(name)
    with suppress(MissingExtraError):
        count_tokens("load the tokenizer now")
