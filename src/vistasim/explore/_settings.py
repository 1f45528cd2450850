"""The run's settings, resolved once from the config: what episodes and the explorer read.

The config is the user's file; these are its decisions, made once per run: the mode, the turn
and reply limits, the episode timeout, the seed, and which built-in domain (if any) the
environment names — looked up here only, so set-up, the web channel and the explorer agree.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vistasim.config import ExploreSpec, RunConfig
from vistasim.scenario import Scenario

if TYPE_CHECKING:
    from vistasim.domains import Domain

__all__ = ["RunSettings", "builtin_domain", "episode_seed", "settings_of", "widget_only"]


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


def settings_of(config: RunConfig) -> RunSettings:
    """Resolve a config's settings."""
    run = config.run
    return RunSettings(
        mode=run.mode,
        max_turns=run.max_turns,
        max_reply_bytes=run.max_reply_bytes,
        timeout_s=run.episode_timeout_s,
        seed=run.seed,
        concurrency=run.concurrency,
        perturb=config.user.perturb,
        explore=config.explore,
        domain=builtin_domain(config),
    )


def widget_only(config: RunConfig) -> bool:
    """Tell whether the agent is reached only through the chat widget at `web.start_url`.

    Then an `[agent]` section is never called, so it is neither imported nor checked.
    """
    return config.run.mode in ("ui", "hybrid") and bool(config.web.start_url)


def builtin_domain(config: RunConfig) -> Domain | None:
    """The built-in domain `environment.target` names (`shop`, `school`), if it names one."""
    from vistasim.domains import DOMAINS, get_domain

    target = config.environment.target if config.environment else None
    return get_domain(target) if target in DOMAINS else None


def episode_seed(run_seed: int, scenario_id: str, rollout: int) -> int:
    """A stable per-episode seed: same run seed, scenario and rollout give the same episode."""
    digest = hashlib.sha256(f"{run_seed}:{scenario_id}:{rollout}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
