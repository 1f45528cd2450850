"""`vistasim scenarios`: list a built-in domain's scenarios, or generate new ones with an LLM."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import click

from vistasim.cli._common import CallProgress
from vistasim.errors import ConfigError

if TYPE_CHECKING:
    from vistasim.config import RunConfig
    from vistasim.domains import Domain, Generation
    from vistasim.scenario import Scenario

_NO_GENERATOR = (
    "no generator model: give one with --model generator=openai/gpt-4.1-mini "
    "(add --base-url URL for any OpenAI-compatible server), or set [models.generator] in a "
    "vistasim.toml passed with --config, or VISTASIM_MODELS__GENERATOR__MODEL=..."
)


@click.group("scenarios")
def command() -> None:
    """List or generate scenarios of a built-in domain (shop, school)."""


@command.command("list")
@click.argument("domain_name", metavar="DOMAIN")
def list_command(domain_name: str) -> None:
    """Print the ids and goals of DOMAIN's bundled scenarios."""
    from vistasim.domains import get_domain

    scenarios = get_domain(domain_name).scenarios()
    width = max((len(s.id) for s in scenarios), default=0)
    for scenario in scenarios:
        click.echo(f"{scenario.id:<{width}}  {scenario.goal}")
    click.echo(f"{len(scenarios)} scenarios in {domain_name}")


@command.command("generate")
@click.argument("domain_name", metavar="DOMAIN")
@click.option(
    "--model",
    "model_flags",
    multiple=True,
    metavar="ROLE=MODEL",
    help="The generator model, e.g. generator=openai/gpt-4.1-mini.",
)
@click.option("--base-url", help="OpenAI-compatible endpoint of the generator model.")
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A vistasim.toml with [models.generator] (and prices).",
)
@click.option("--count", default=20, show_default=True, help="Scenarios to write.")
@click.option("--batch-size", default=5, show_default=True, help="Scenarios per model call.")
@click.option("--seed", default=0, show_default=True, help="Picks people, profiles and goals.")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="YAML file to write (default: DOMAIN-generated.yaml); new scenarios are appended.",
)
def generate_command(
    domain_name: str,
    model_flags: tuple[str, ...],
    base_url: str | None,
    config_path: Path | None,
    out_path: Path | None,
    **numbers: int,
) -> None:
    """Write new scenarios for DOMAIN with an LLM, from its data and policy."""
    from vistasim.config import load_config
    from vistasim.domains import get_domain
    from vistasim.scenario import load_scenarios

    domain = get_domain(domain_name)
    config = load_config(config_path, overrides=_model_overrides(model_flags, base_url))
    if "generator" not in config.models:
        raise ConfigError(_NO_GENERATOR, key="--model")
    out_path = out_path or Path(f"{domain_name}-generated.yaml")
    kept = load_scenarios(out_path) if out_path.exists() else []
    generation = anyio.run(lambda: _generate(config, domain, [*domain.scenarios(), *kept], numbers))
    _print_counts(generation, asked=numbers["count"])
    if not generation.scenarios:
        raise click.ClickException("no scenario survived the checks; nothing written")
    header = _header(domain_name, config.models["generator"].model, numbers, generation)
    _write(out_path, header, [*kept, *generation.scenarios])
    click.echo(f"wrote {len(generation.scenarios)} new scenarios to {out_path}")


def _model_overrides(model_flags: tuple[str, ...], base_url: str | None) -> dict[str, Any]:
    from vistasim.config import merge, parse_model_flag

    models = dict(parse_model_flag(flag) for flag in model_flags)
    if base_url is not None:
        if "generator" not in models:
            raise ConfigError(
                "--base-url needs a generator model; add --model generator=MODEL", key="--base-url"
            )
        models["generator"]["base_url"] = base_url
    return merge({"models": models})


async def _generate(
    config: RunConfig, domain: Domain, existing: list[Scenario], numbers: Mapping[str, int]
) -> Generation:
    from vistasim.domains import generate_scenario_set
    from vistasim.llm import build_models

    model = build_models(config, cache=None)["generator"]
    batches = -(-numbers["count"] // max(numbers["batch_size"], 1))
    try:
        return await generate_scenario_set(
            domain,
            CallProgress(model, label="generator", total=batches),
            count=numbers["count"],
            seed=numbers["seed"],
            existing=existing,
            batch_size=numbers["batch_size"],
        )
    finally:
        await model.aclose()


def _print_counts(generation: Generation, *, asked: int) -> None:
    reasons = ", ".join(f"{reason}: {n}" for reason, n in sorted(generation.invalid.items()))
    click.echo(
        f"generated {len(generation.scenarios)} of {asked} scenarios "
        f"in {generation.calls} model call{'' if generation.calls == 1 else 's'}"
    )
    click.echo(
        f"invalid: {sum(generation.invalid.values())}" + (f" ({reasons})" if reasons else "")
    )
    click.echo(f"duplicates: {generation.duplicates}")
    if generation.failed_batches:
        click.echo(f"failed batches (no valid JSON after repairs): {generation.failed_batches}")
    if len(generation.scenarios) < asked:
        click.echo("fewer than asked: run again with another --seed to add more")


def _header(domain: str, model: str, numbers: Mapping[str, int], generation: Generation) -> str:
    return (
        "# yaml-language-server: $schema=scenarios.schema.json\n"
        "# (write that schema with: vistasim schema > scenarios.schema.json)\n"
        f"# {domain} scenarios written by `vistasim scenarios generate` from the domain's\n"
        "# data and policy, checked against its environment; review the success criteria\n"
        "# before relying on them. Reruns append new scenarios here.\n"
        f"# Last run: model {model!r}, seed {numbers['seed']}, prompt {generation.prompt_hash}.\n"
    )


def _write(path: Path, header: str, scenarios: list[Scenario]) -> None:
    import yaml

    items = [s.model_dump(mode="json", exclude_defaults=True) for s in scenarios]
    body = yaml.safe_dump(items, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(header + body, encoding="utf-8")
