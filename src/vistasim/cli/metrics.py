"""`vistasim metrics RUN`: the simulation's and the agent's metrics, from the store only."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import click

from vistasim.cli._common import CallProgress, console, store_option
from vistasim.cli._gates import GateRequest, gate_options
from vistasim.errors import ConfigError

if TYPE_CHECKING:
    from vistasim.llm import RoleModel
from vistasim.explore import default_store_path


@click.command("metrics")
@click.argument("run_id")
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON with stable keys.")
@click.option("--judge", metavar="[PROVIDER/]MODEL",
              help="Judge model for realism, e.g. openai/gpt-4.1-mini (recomputes).")  # fmt: skip
@click.option("--judge-base-url", metavar="URL", help="OpenAI-compatible endpoint of the judge.")
@click.option("--recompute", is_flag=True, help="Ignore stored results and compute again.")
@gate_options
def command(
    run_id: str,
    store_path: Path | None,
    as_json: bool,
    judge: str | None,
    judge_base_url: str | None,
    recompute: bool,
    check: bool,
    gate_flags: tuple[str, ...],
    junit: Path | None,
) -> None:
    """Compute (or show the stored) metrics of a run.

    With --check, exit 1 when a gate of the run's [gates] (or a --gate) fails.
    """
    from vistasim.metrics import format_metrics, metrics_for_run
    from vistasim.store import open_store, read_run_view

    gates = GateRequest.of(check, gate_flags, junit)
    role_model = _judge(judge, judge_base_url) if judge else None
    with open_store(default_store_path(None, store_path)) as store:
        judge_model = None
        if role_model is not None:
            episodes = [e for e in store.list_episodes(run_id) if e.status != "errored"]
            judge_model = CallProgress(role_model, label="judge", total=len(episodes))
        report = anyio.run(
            lambda: metrics_for_run(store, run_id, judge=judge_model, recompute=recompute)
        )
        view = read_run_view(store, run_id) if gates.wanted else None
    if as_json:
        click.echo(json.dumps(report.model_dump(mode="json"), indent=2, sort_keys=True))
    else:
        console().print(format_metrics(report))
    if view is not None:
        sys.exit(gates.apply(view, report, err=as_json))


def _judge(flag: str, base_url: str | None) -> RoleModel:
    from vistasim.config import ModelSpec, bounded, parse_model_flag
    from vistasim.llm import OpenAIChatModel, RoleModel

    _, spec = parse_model_flag(f"judge={flag}")
    if base_url:
        spec["base_url"] = base_url
    model = OpenAIChatModel(bounded(ModelSpec(**spec), "judge"))
    try:
        model.check_key()
    except ConfigError as exc:
        raise ConfigError(
            f"{exc}; or point --judge-base-url at an OpenAI-compatible server", key="--judge"
        ) from None
    return RoleModel(model, role="judge", timeout_s=model.spec.timeout_s)
