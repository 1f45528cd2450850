"""The `vistasim` command group; each command lives in its own module."""

from __future__ import annotations

import os
import sys

import click

from vistasim import __version__
from vistasim.cli._errors import report_error


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
    """Entry point: run the CLI; a mistake is one line and exit 2, a bug exit 70 and a log."""
    # Like uvicorn: `module:attr` targets next to where the user runs the command import.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        cli.main(args=argv, prog_name="vistasim", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except Exception as exc:  # every other error: one line, or a bug report (cli/_errors.py)
        sys.exit(report_error(exc))
