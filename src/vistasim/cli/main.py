"""The `vistasim` command group; each command lives in its own module."""

from __future__ import annotations

import os
import sys

import click

from vistasim import __version__
from vistasim.errors import VistasimError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vistasim")
def cli() -> None:
    """Evaluate interactive agents by simulating their users."""


def _register() -> None:
    from vistasim.cli import (
        demo,
        export,
        metrics,
        report,
        run,
        runs,
        scenarios,
        schema,
        serve,
        show,
    )

    for module in (run, demo, runs, show, metrics, report, export, scenarios, serve, schema):
        cli.add_command(module.command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; print vistasim errors as one line, exit code 2."""
    # Like uvicorn: `module:attr` targets next to where the user runs the command import.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        cli.main(args=argv, prog_name="vistasim", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except VistasimError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            click.echo(f"error: {line}", err=True)
        sys.exit(2)
