"""Before a run plays: load and check its scenarios and pages, record it, open its browser.

Everything that can be checked is checked before the run is recorded, so a mistake the user can
fix leaves no half-made run behind.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from vistasim.config import RunConfig
from vistasim.errors import ConfigError, StoreError
from vistasim.explore._checks import check_criteria
from vistasim.explore._metadata import run_metadata
from vistasim.explore._select import select_scenarios
from vistasim.explore._settings import builtin_domain, is_tau2_target
from vistasim.explore._web import check_widget, open_pool
from vistasim.scenario import Scenario, load_scenarios
from vistasim.store import EpisodePlan, Store

if TYPE_CHECKING:
    from vistasim.browser import BrowserPool

__all__ = ["browser_pool", "load_for_resume", "prepare", "record", "web_metadata"]


def prepare(
    config: RunConfig, scenarios: Sequence[Scenario] | None
) -> tuple[Sequence[Scenario], dict[str, object]]:
    """Load and check the scenarios and the web mode's page and browser, before anything starts.

    Returns the scenarios and the run's metadata (the environment's tools, the prompt hash).
    """
    target = config.environment.target if config.environment else None
    if scenarios is None and not config.run.scenarios and is_tau2_target(target):
        from vistasim.tau2 import tau2_scenarios

        scenarios = tau2_scenarios(str(target))  # the domain's tasks, as tau2 runs them
    domain = builtin_domain(config)
    if scenarios is None and not config.run.scenarios and domain is not None:
        scenarios = domain.scenarios()  # a built-in domain brings its own, as tau2's do
    if scenarios is None:
        if not config.run.scenarios:
            raise ConfigError(
                "no scenarios: set run.scenarios to a YAML/JSON file (a built-in or tau2 "
                "environment.target brings its own)",
                key="run.scenarios",
            )
        scenarios = load_scenarios(config.resolve(config.run.scenarios))
    scenarios = select_scenarios(
        scenarios, patterns=config.run.select, tags=config.run.tags, source=config.run.scenarios
    )
    _check_web_mode(config)
    metadata = run_metadata(config)
    tools = metadata.get("agent_tools")
    check_criteria(
        scenarios,
        tools=list(tools) if isinstance(tools, list) else None,
        source=str(config.resolve(config.run.scenarios)) if config.run.scenarios else None,
    )
    return scenarios, metadata


def record(
    db: Store, config: RunConfig, scenarios: Sequence[Scenario], metadata: Mapping[str, object]
) -> tuple[str, list[EpisodePlan]]:
    """Record a new run and its planned episodes; return its id and the plans."""
    run_id = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    plans = db.create_run(
        run_id,
        config=config.model_dump(mode="json"),
        scenarios=scenarios,
        rollouts=config.run.rollouts,
        mode=config.run.mode,
        name=config.run.name,
        metadata=dict(metadata),
    )
    return run_id, plans


def load_for_resume(db: Store, run_id: str) -> tuple[str, RunConfig, list[EpisodePlan]]:
    """An interrupted run's id, stored config and episodes.

    Raises:
        StoreError: the run finished already (or does not exist).
    """
    row = db.read_run(run_id)
    if row.status == "done":
        raise StoreError(f"run {run_id!r} already finished; nothing to resume")
    config = RunConfig.model_validate(row.config)
    return run_id, config, db.list_episodes(run_id)


async def web_metadata(config: RunConfig, pool: BrowserPool | None) -> dict[str, object]:
    """Find the chat widget on `web.start_url` once, so a page without one fails the run early."""
    if pool is None or not config.web.start_url:
        return {}
    return {"web_widget": await check_widget(config, pool)}


@asynccontextmanager
async def browser_pool(config: RunConfig, needed: bool) -> AsyncIterator[BrowserPool | None]:
    """One browser for the run's web episodes; none in `chat` and `api` modes."""
    if not needed or config.run.mode not in ("ui", "hybrid"):
        yield None
        return
    async with open_pool(config) as pool:
        yield pool


def _check_web_mode(config: RunConfig) -> None:
    """Fail before the run is recorded when a web mode has no page or no browser."""
    if config.run.mode not in ("ui", "hybrid"):
        return
    _check_web_urls(config)
    if not config.web.start_url and builtin_domain(config) is None:
        raise ConfigError(
            f"mode {config.run.mode!r} needs a web page: set web.start_url to your product's page, "
            "or use a built-in domain as the environment (target = 'shop' or 'school')",
            key="web.start_url",
        )
    from vistasim.browser import find_chromium

    find_chromium(config.web.chromium)  # a clear BrowserError naming how to install one


def _check_web_urls(config: RunConfig) -> None:
    from vistasim.browser import normalize_origins, origin_of

    normalize_origins(config.web.allowed_origins, key="web.allowed_origins")
    start = config.web.start_url
    if start and origin_of(start) is None:
        raise ConfigError(
            f"start page {start[:200]!r} is not an http(s) URL with a host; write it like "
            "'http://127.0.0.1:8000/'",
            key="web.start_url",
        )
