"""`vistasim run CONFIG`: simulate users against an agent, or `--resume RUN_ID`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import click

from vistasim.cli._common import executor_option, scenario_options, store_option
from vistasim.cli._gates import GateRequest, check_stored_run, gate_options
from vistasim.cli._progress import progress_bar
from vistasim.cli._summary import finish
from vistasim.config import load_config, merge, parse_model_flag
from vistasim.errors import ConfigError


@click.command("run")
@click.argument("config_path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--resume", "resume", metavar="RUN_ID", help="Finish an interrupted run.")
@store_option
@click.option(
    "--model",
    "model_flags",
    multiple=True,
    metavar="ROLE=MODEL",
    help="Model per role, e.g. user=openai/gpt-4.1-mini (repeatable).",
)
@click.option("--rollouts", type=int, help="Episodes per scenario.")
@click.option("--concurrency", type=int, help="Episodes in flight at once.")
@click.option("--max-turns", type=int, help="Cap on user turns per episode.")
@click.option(
    "--mode", type=click.Choice(["chat", "ui", "api", "hybrid"]), help="Channels allowed."
)
@click.option("--policy", type=click.Choice(["agenda", "llm", "scripted"]),
              help="Simulated user policy.")  # fmt: skip
@click.option(
    "--perturb",
    type=float,
    metavar="P",
    help="Agenda user: chance (0-1) that each sub-goal gets one behaviour operation "
    "(the baseline DIVERT branching must beat).",
)
@scenario_options
@executor_option
@click.option(
    "--no-preflight",
    "skip_preflight",
    is_flag=True,
    help="Skip the checks before the run (endpoints, keys, targets, extras).",
)
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
    """Run the scenarios of CONFIG (a vistasim.toml) against its agent.

    Writes the run's HTML report and prints its path. Exits 1 when no episode could be judged
    (every one errored, invalid or not applicable), else 0. With --check, the gates decide:
    exit 1 when a gate of the config's [gates] (or a --gate) fails. With --resume RUN_ID,
    finish an interrupted run from its store (given by --store, or by CONFIG's `run.store`);
    the run's stored config is used.
    """
    gates = GateRequest.of(check, gate_flags, junit)
    layer = overrides(model_flags, flags)
    execute(config_path, resume, store_path, layer, FLAGS, skip_preflight, gates=gates)


def execute(
    config_path: Path | None,
    resume: str | None,
    store_path: Path | None,
    layer: dict[str, Any],
    flag_names: dict[str, str],
    skip_preflight: bool,
    *,
    verb: str = "running",
    gates: GateRequest | None = None,
) -> None:
    """Load CONFIG with the flags' layer on top, run (or resume) it, print the summary.

    With gate options, check the gates after the summary and exit with their code.
    """
    from vistasim.explore import default_store_path, load_ahead, run

    if config_path is None and resume is None:
        raise ConfigError("give a CONFIG file to run, or --resume RUN_ID", key="CONFIG")
    config = None
    if config_path is not None:
        config = load_config(config_path, overrides=layer, flags=flag_names)
        if gates is not None:
            gates.require_gates(config.gates)
    store = default_store_path(config, store_path)
    if config is not None:
        load_ahead(config)  # before the event loop starts: no episode waits on an import
    with progress_bar(verb, store) as on_episode:
        result = anyio.run(
            lambda: run(
                config if resume is None else None,
                store=store,
                resume=resume,
                on_episode=on_episode,
                preflight=not skip_preflight,
                on_warning=lambda text: click.echo(f"warning: {text}", err=True),
                on_notice=lambda line: click.echo(line, err=True),
            )
        )
    command = "explore" if verb == "exploring" else "run"
    code = finish(result, rerun=f"vistasim {command} {config_path}" if config_path else None)
    if gates is not None and gates.wanted:
        code = check_stored_run(gates, result.store_path, result.run_id)
    if code:
        click.get_current_context().exit(code)


FLAGS = {
    "run.rollouts": "--rollouts",
    "run.concurrency": "--concurrency",
    "run.max_turns": "--max-turns",
    "run.mode": "--mode",
    "user.policy": "--policy",
    "user.perturb": "--perturb",
    "models": "--model",
    "run.select": "--scenario",
    "run.tags": "--tag",
    "run.seed": "--seed",
    "run.executor": "--executor",
}
"""The flag behind each key the flags set, so a bad value is reported as the flag."""


def overrides(model_flags: tuple[str, ...], flags: dict[str, Any]) -> dict[str, Any]:
    """The config layer the run flags set (unset flags set nothing)."""
    models = dict(parse_model_flag(flag) for flag in model_flags)
    return merge(
        {
            "run": {
                "rollouts": flags["rollouts"],
                "concurrency": flags["concurrency"],
                "max_turns": flags["max_turns"],
                "mode": flags["mode"],
                "select": list(flags["select"]) or None,
                "tags": list(flags["tags"]) or None,
                "seed": flags["seed"],
                "executor": flags["executor"],
            },
            "user": {"policy": flags["policy"], "perturb": flags["perturb"]},
            "models": models,
        }
    )
