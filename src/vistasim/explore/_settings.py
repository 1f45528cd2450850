"""The run's settings, resolved once from the config: what episodes and the explorer read.

The config is the user's file; these are its decisions, made once per run: the mode, the turn
and reply limits, the episode timeout, the seed, how many episodes play at once, and which
built-in domain (if any) the environment names — looked up here only, so set-up, the web channel
and the explorer agree.

Web episodes each drive a browser page, and a page costs CPU (a chat framework's page runs
megabytes of script): more pages than the machine has CPUs make every page slow, and its waits
long. So in `ui` and `hybrid` modes episodes play `web.concurrency` at a time, by default one per
CPU (at least 2), and the run says so when it starts (`concurrency_note`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vistasim.config import ExploreSpec, RunConfig
from vistasim.scenario import Scenario

if TYPE_CHECKING:
    from vistasim.domains import Domain

__all__ = [
    "RunSettings",
    "builtin_domain",
    "episode_seed",
    "is_tau2_target",
    "settings_of",
    "web_concurrency",
    "widget_only",
]


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """What every episode of a run shares."""

    mode: str
    max_turns: int | None
    """The run's cap on every scenario's own turn limit."""
    max_reply_bytes: int
    timeout_s: float
    """Bound on one episode's wall time."""
    seed: int
    concurrency: int
    """Episodes in flight at once."""
    concurrency_note: str | None
    """How many web episodes play at once and why, said when the run starts (None: no web)."""
    perturb: float
    """`user.perturb`: the chance that each sub-goal of a rollout gets one behaviour operation."""
    explore: ExploreSpec
    domain: Domain | None
    """The built-in domain the environment names, else `None`."""

    def turns_for(self, scenario: Scenario) -> int:
        """The turn limit of one scenario's episodes."""
        return min(scenario.limits.max_turns, self.max_turns or 10**6)

    def seed_for(self, scenario_id: str, rollout: int) -> int:
        """The episode seed (stable: same run seed, scenario and rollout, same episode)."""
        return episode_seed(self.seed, scenario_id, rollout)


def settings_of(config: RunConfig, *, cpus: int | None = None) -> RunSettings:
    """Resolve a config's settings.

    Args:
        config: The run's config.
        cpus: The machine's CPU count (default: `os.cpu_count()`).
    """
    run = config.run
    concurrency, note = run.concurrency, None
    if run.mode in ("ui", "hybrid"):
        concurrency, note = web_concurrency(config, cpus=cpus or os.cpu_count() or 1)
    return RunSettings(
        mode=run.mode,
        max_turns=run.max_turns,
        max_reply_bytes=run.max_reply_bytes,
        timeout_s=run.episode_timeout_s,
        seed=run.seed,
        concurrency=concurrency,
        concurrency_note=note,
        perturb=config.user.perturb,
        explore=config.explore,
        domain=builtin_domain(config),
    )


def widget_only(config: RunConfig) -> bool:
    """Tell whether the agent is reached only through the chat widget at `web.start_url`.

    Then an `[agent]` section is never called, so it is neither imported nor checked.
    """
    return config.run.mode in ("ui", "hybrid") and bool(config.web.start_url)


def web_concurrency(config: RunConfig, *, cpus: int) -> tuple[int, str]:
    """How many web episodes play at once, and the line that says why."""
    chosen = config.web.concurrency
    slots, why = (chosen, "web.concurrency") if chosen else (max(2, cpus), f"{cpus} CPUs here")
    if config.run.concurrency < slots:
        slots, why = config.run.concurrency, "run.concurrency"
    change = "" if chosen else "; set web.concurrency to change"
    page = "page" if slots == 1 else "pages"
    return slots, f"browser: {slots} web episode(s) at a time, {slots} {page} open ({why}{change})"


def is_tau2_target(target: str | None) -> bool:
    """Tell whether `environment.target` names a tau2-bench domain (`tau2:airline`, ...)."""
    return target is not None and target.startswith("tau2:")


def builtin_domain(config: RunConfig) -> Domain | None:
    """The built-in domain `environment.target` names (`shop`, `school`), if it names one."""
    target = config.environment.target if config.environment else None
    if not target:  # no environment named: the domains package need not load
        return None
    from vistasim.domains import DOMAINS, get_domain

    return get_domain(target) if target in DOMAINS else None


def episode_seed(run_seed: int, scenario_id: str, rollout: int) -> int:
    """A stable per-episode seed: same run seed, scenario and rollout give the same episode."""
    digest = hashlib.sha256(f"{run_seed}:{scenario_id}:{rollout}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
