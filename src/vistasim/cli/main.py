"""The `vistasim` command group; each command lives in its own module, imported when it runs.

`vistasim --help` lists the commands from the table below without importing them: the commands
pull in pydantic, the store, the models and rich, which is most of a second of CPU for a line of
help. A test keeps the table's short help equal to each command's own.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import click

from vistasim import __version__

COMMANDS: dict[str, str] = {
    "run": "Run the scenarios of CONFIG (a vistasim.toml) against its agent.",
    "explore": "Play R linear rollouts per scenario of CONFIG, then B branches per scenario.",
    "demo": "Run the offline demo (no key, no network) and say where the results are.",
    "runs": "List runs, newest first.",
    "show": "Show a run's episodes, or one episode's transcript.",
    "metrics": "Compute (or show the stored) metrics of a run.",
    "report": "Write the HTML report of a run (metrics are computed and stored if needed).",
    "export": "Export a run's events.",
    "compare": "Compare RUN_B with RUN_A: metric deltas, failures fixed, new and still present.",
    "scenarios": "List or generate scenarios of a built-in domain (shop, school).",
    "serve": "Serve a built-in domain's web site (shop, school) with its rule-based chat agent.",
    "schema": "Print the JSON schema of a scenario file (use it in a yaml-language-server line).",
    "web": "Look at a chat page: the widget vistasim finds and the selectors to paste.",
}
"""Command name -> its short help; each command is `vistasim.cli.<name>:command`."""

_RUNS = frozenset({"run", "explore", "demo"})
"""Commands that load a run: no garbage collection until it starts (`vistasim._collect`)."""


class _LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name in _RUNS:  # before the command's imports; the run (or `invoke`) resumes
            from vistasim._collect import pause_collection

            pause_collection()
        command: click.Command = import_module(f"vistasim.cli.{cmd_name}").command
        return command

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        finally:  # a command that stopped before its run: collection is on again
            collect = sys.modules.get("vistasim._collect")
            if collect is not None:
                collect.resume_collection()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Shortened as click shortens a loaded command's help, so the page looks the same.
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, click.Command(name, help=text).get_short_help_str(limit))
            for name, text in COMMANDS.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vistasim")
def cli() -> None:
    """Evaluate interactive agents by simulating their users."""


def _one_line(exc: click.ClickException) -> str:
    message = " ".join(exc.format_message().split())
    context = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and context is not None:
        return f"{message} (see {context.command_path} --help)"
    return message


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI; a mistake is one line and exit 2, a bug exit 70 and a log."""
    # Like uvicorn: `module:attr` targets next to where the user runs the command import.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        # A command that exits with a code (`run` when nothing was judged) returns it here.
        code = cli.main(args=argv, prog_name="vistasim", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:  # a bad flag or argument: one line too
        click.echo(f"error: {_one_line(exc)}", err=True)
        sys.exit(2)
    except Exception as exc:  # every other error: one line, or a bug report (cli/_errors.py)
        from vistasim.cli._errors import report_error

        sys.exit(report_error(exc))
    if isinstance(code, int) and code:
        sys.exit(code)
