"""`vistasim demo`: the whole pipeline offline, on the built-in shop and its rule-based agent."""

from __future__ import annotations

from pathlib import Path

import anyio
import click

from vistasim.cli._common import store_option
from vistasim.cli._progress import progress_bar
from vistasim.cli._summary import finish
from vistasim.config import RunConfig
from vistasim.explore import default_store_path
from vistasim.scenario import Scenario

DEMO_SCENARIOS = (
    "shop-hybrid-refund-coupon-status",
    "shop-cancel-pending-order",
    "shop-return-cracked-toaster",
    "shop-status-shipped",
    "shop-cancel-shipped-refused",
    "shop-exchange-shirt-size",
    "shop-flaw-correction-cancel",
    "shop-flaw-two-items-return",
    "shop-flaw-order-before-email",
)
"""A three-channel errand, common paths, a policy refusal, and scenarios that trigger the agent's
documented flaws."""


def demo_config(*, rollouts: int = 1, mode: str = "hybrid") -> RunConfig:
    """The demo's run config: agenda users against the shop's rule-based agent, no model needed."""
    return RunConfig.model_validate(
        {
            "run": {"name": f"demo ({mode})", "rollouts": rollouts, "mode": mode, "concurrency": 4},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python", "target": "vistasim.domains.shop:RuleShopAgent"},
            "environment": {"target": "shop"},
            "cache": {"mode": "off"},
        }
    )


def demo_scenarios() -> list[Scenario]:
    """The demo's handful of shop scenarios."""
    from vistasim.domains import get_domain

    by_id = {s.id: s for s in get_domain("shop").scenarios()}
    return [by_id[scenario_id] for scenario_id in DEMO_SCENARIOS]


@click.command("demo")
@store_option
@click.option("--rollouts", default=1, show_default=True, help="Episodes per scenario.")
@click.option("--mode", type=click.Choice(["hybrid", "ui", "api", "chat"]), default="hybrid",
              show_default=True, help="Channels the simulated users may use.")  # fmt: skip
def command(store_path: Path | None, rollouts: int, mode: str) -> None:
    """Run the offline demo (no key, no network) and say where the results are."""
    from vistasim.explore import load_ahead, run

    mode = _usable_mode(mode)
    scenarios = demo_scenarios()
    config = demo_config(rollouts=rollouts, mode=mode)
    click.echo(
        f"vistasim demo: {len(scenarios)} shop scenarios x {rollouts} rollout(s), offline agenda "
        f"users against the shop's rule-based support agent, {mode} mode"
        + (" (web UI in Chromium + user-side APIs + chat widget)" if mode == "hybrid" else "")
    )
    store = default_store_path(config, store_path)
    load_ahead(config)  # before the event loop starts: no episode waits on an import
    with progress_bar("demo", store) as on_episode:
        result = anyio.run(
            lambda: run(
                config, scenarios=scenarios, store=store, on_episode=on_episode,
                on_notice=lambda line: click.echo(line, err=True),
            )
        )  # fmt: skip
    code = finish(result)
    if code:
        click.get_current_context().exit(code)


def _usable_mode(mode: str) -> str:
    if mode not in ("ui", "hybrid"):
        return mode
    from vistasim.browser import find_chromium
    from vistasim.errors import BrowserError, MissingExtraError

    try:
        import playwright  # noqa: F401

        find_chromium()
    except (BrowserError, ImportError, MissingExtraError) as exc:
        click.echo(f"no browser for {mode} mode ({exc}); running the demo in chat mode", err=True)
        return "chat"
    return mode
