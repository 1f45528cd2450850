"""`vistasim demo`: the whole pipeline offline, on the bundled order-desk agent."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import anyio
import click

from vistasim.cli._common import progress_bar, store_option
from vistasim.cli._summary import print_result
from vistasim.config import RunConfig


def demo_config(*, rollouts: int = 2) -> RunConfig:
    """The demo's run config: agenda users against the rule-based order desk, no model needed."""
    return RunConfig.model_validate(
        {
            "run": {"name": "demo", "rollouts": rollouts, "mode": "chat", "concurrency": 4},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python", "target": "vistasim.demo:OrderDeskAgent"},
            "environment": {"target": "vistasim.demo:OrderBook"},
            "cache": {"mode": "off"},
        }
    )


@click.command("demo")
@store_option
@click.option("--rollouts", default=2, show_default=True, help="Episodes per scenario.")
def command(store_path: Path | None, rollouts: int) -> None:
    """Run the offline demo (no key, no network) and say where the results are."""
    from vistasim.explore import run
    from vistasim.scenario import load_scenarios

    with resources.as_file(resources.files("vistasim.demo") / "scenarios.yaml") as path:
        scenarios = load_scenarios(path)
    config = demo_config(rollouts=rollouts)
    click.echo(
        f"vistasim demo: {len(scenarios)} scenarios x {rollouts} rollouts, agenda users (offline) "
        "against the bundled order-desk agent"
    )
    with progress_bar("demo") as on_episode:
        result = anyio.run(
            lambda: run(config, scenarios=scenarios, store=store_path, on_episode=on_episode)
        )
    print_result(result)
