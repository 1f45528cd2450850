"""`vistasim explore CONFIG --rollouts R --branches B`: linear rollouts, then DIVERT branches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from vistasim.cli._common import executor_option, scenario_options, store_option
from vistasim.cli._gates import GateRequest, gate_options
from vistasim.cli.run import FLAGS as RUN_FLAGS
from vistasim.cli.run import execute, overrides
from vistasim.config import merge


@click.command("explore")
@click.argument("config_path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--resume", "resume", metavar="RUN_ID", help="Finish an interrupted explore run.")
@store_option
@click.option("--model", "model_flags", multiple=True, metavar="ROLE=MODEL",
              help="Model per role, e.g. chooser=openai/gpt-4.1-mini (repeatable).")  # fmt: skip
@click.option("--rollouts", type=int, help="Linear rollouts per scenario (R).")
@click.option("--branches", type=int, help="Branches per scenario (B).")
@click.option("--k", "k", type=int, help="Alternative user actions per junction (default 3).")
@click.option("--chooser", type=click.Choice(["heuristic", "random", "llm"]),
              help="Junction chooser (default heuristic).")  # fmt: skip
@click.option("--generator", type=click.Choice(["auto", "agenda", "llm", "same"]),
              help="Candidates: auto (the generator model, else agenda) or one.")  # fmt: skip
@click.option("--selection", type=click.Choice(["diverse", "random"]),
              help="Keep the least similar candidate (default) or one at random.")  # fmt: skip
@click.option("--budget-tokens", type=int, help="Stop branching at this many tokens spent.")
@click.option("--concurrency", type=int, help="Episodes in flight at once.")
@click.option("--max-turns", type=int, help="Cap on user turns per episode.")
@click.option("--mode", type=click.Choice(["chat", "ui", "api", "hybrid"]), help="Channels.")
@click.option("--policy", type=click.Choice(["agenda", "llm", "scripted"]),
              help="Simulated user policy.")  # fmt: skip
@click.option("--perturb", type=float, metavar="P",
              help="Chance each sub-goal of a rollout gets a behaviour operation.")  # fmt: skip
@scenario_options
@executor_option
@click.option("--no-preflight", "skip_preflight", is_flag=True, help="Skip the checks before.")
@gate_options
def command(
    config_path: Path | None,
    resume: str | None,
    store_path: Path | None,
    model_flags: tuple[str, ...],
    skip_preflight: bool,
    check: bool,
    gate_flags: tuple[str, ...],
    junit: Path | None,
    **flags: Any,
) -> None:
    """Play R linear rollouts per scenario of CONFIG, then B branches per scenario.

    Each branch restores a trajectory before a user turn the chooser picks, plays the one of K
    alternative user actions least similar to the original, and continues to a stop. With
    --resume RUN_ID, queued branches resume at their fork and branching goes on to B.
    """
    explore = {
        "branches": flags.pop("branches"),
        "k": flags.pop("k"),
        "chooser": flags.pop("chooser"),
        "generator": flags.pop("generator"),
        "selection": flags.pop("selection"),
        "budget_tokens": flags.pop("budget_tokens"),
    }
    layer = merge(overrides(model_flags, flags), {"explore": explore})
    gates = GateRequest.of(check, gate_flags, junit)
    execute(
        config_path, resume, store_path, layer, FLAGS, skip_preflight, verb="exploring", gates=gates
    )


FLAGS = {
    **RUN_FLAGS,
    "explore.branches": "--branches",
    "explore.k": "--k",
    "explore.chooser": "--chooser",
    "explore.generator": "--generator",
    "explore.selection": "--selection",
    "explore.budget_tokens": "--budget-tokens",
}
"""The flag behind each key the flags set, so a bad value is reported as the flag."""
