"""The CLI's one error path: a mistake is one line and exit 2, a bug is a log file and exit 70.

Whatever a command raises ends here. Errors vistasim raises on purpose (`VistasimError`) and the
OS and decoding errors a user can fix (a missing file, a full disk, bytes that are not UTF-8) are
printed as one line, without a traceback, from inside exception groups too. Anything else is a
bug in vistasim: the user gets a short request for a bug report, and the traceback goes to a log
file under `$VISTASIM_HOME/logs` rather than over their terminal.
"""

from __future__ import annotations

import os
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path

import click

from vistasim.errors import VistasimError

__all__ = ["EXIT_BUG", "EXIT_USAGE", "report_error"]

EXIT_USAGE = 2
"""A mistake the user can fix: a config, a file, a flag, an agent that cannot be reached."""
EXIT_BUG = 70
"""An internal error (EX_SOFTWARE): a bug to report."""

_EXPECTED = (VistasimError, OSError, UnicodeError)
_LONGEST_LINE = 800


def report_error(exc: BaseException) -> int:
    """Print `exc` for the user and return the exit code."""
    leaves = _leaves(exc)
    errors = [e for e in leaves if isinstance(e, Exception)] or leaves
    expected: BaseException | None = next((e for e in errors if isinstance(e, VistasimError)), None)
    expected = expected or next((e for e in errors if isinstance(e, _EXPECTED)), None)
    if expected is not None:
        # A preflight finds several mistakes at once: one line each.
        lines = str(expected).splitlines() if isinstance(expected, VistasimError) else []
        for line in [_bounded(line) for line in lines if line.strip()] or [one_line(expected)]:
            click.echo(f"error: {line}", err=True)
        return EXIT_USAGE
    log = _write_log(exc)
    click.echo(
        f"error: vistasim hit an internal error ({one_line(errors[0])}); this is a bug, please "
        f"report it with the log {log}",
        err=True,
    )
    return EXIT_BUG


def one_line(exc: BaseException) -> str:
    """The error as one line of bounded length."""
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read"
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        text = f"{where}{exc.strerror}"
    else:
        text = str(exc) or type(exc).__name__
    if not isinstance(exc, VistasimError | OSError):
        text = f"{type(exc).__name__}: {text}"
    return _bounded(text)


def _bounded(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LONGEST_LINE else text[: _LONGEST_LINE - 1] + "…"


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _write_log(exc: BaseException) -> Path | str:
    from vistasim.config import default_home  # pydantic: only when there is a bug to log

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    folder = default_home() / "logs"
    path = folder / f"crash-{stamp}-{os.getpid()}.log"
    header = f"vistasim internal error at {stamp} (UTC)\ncommand: {' '.join(sys.argv)}\n\n"
    text = header + "".join(traceback.format_exception(exc))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError:
        sys.stderr.write(text)  # no place for a log: the traceback is the report
        return "printed above"
    return path
