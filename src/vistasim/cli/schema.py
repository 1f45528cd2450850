"""`vistasim schema`: JSON schemas for editors (scenario files, or the run config)."""

from __future__ import annotations

import json

import click


@click.command("schema")
@click.option("--config", "for_config", is_flag=True, help="Schema of vistasim.toml instead.")
def command(for_config: bool) -> None:
    """Print the JSON schema of a scenario file (use it in a yaml-language-server line)."""
    from vistasim.config import config_schema
    from vistasim.scenario import scenario_schema

    schema = config_schema() if for_config else scenario_schema()
    click.echo(json.dumps(schema, indent=2, sort_keys=True))
