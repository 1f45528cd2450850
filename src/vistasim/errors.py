"""Typed errors that say what went wrong and how to fix it.

The hierarchy::

    VistasimError                 anything vistasim raises on purpose
    ├── ConfigError(path, key)    a user mistake in a config, scenario or flag; CLI exit code 2
    │   └── PreflightError        every mistake the checks before a run found, one line each
    ├── MissingExtraError         an optional dependency is not installed; names the pip command
    ├── AgentError(status, body)  the agent under test failed; recorded as an agent failure
    ├── EnvError                  the environment (user code) failed; the episode is errored
    ├── SimulatorError            the simulated user produced no valid action after repairs
    ├── ModelError(role, model)   a model provider failed after retries; the episode is errored
    ├── BrowserError(url, selector)
    └── StoreError                the store is missing, corrupt or has no such run/episode
"""

from __future__ import annotations

import os
import sysconfig
import traceback
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "AgentError",
    "BrowserError",
    "ConfigError",
    "EnvError",
    "MissingExtraError",
    "ModelError",
    "PreflightError",
    "SimulatorError",
    "StoreError",
    "VistasimError",
    "user_frame",
    "user_line",
]


class VistasimError(Exception):
    """Base class of every error vistasim raises on purpose."""


class ConfigError(VistasimError):
    """A config file, scenario file or command-line value is wrong.

    The message names the file, the key and the fix, so the CLI can print it without a traceback.
    """

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None) -> None:
        self.path = path
        """The file that holds the mistake, if any."""
        self.key = key
        """The dotted key (or `scenario-id.field`) that is wrong, if known."""
        self.message = message
        """What is wrong and the fix, without the file and the key."""
        where = ": ".join(part for part in (path, key) if part)
        super().__init__(f"{where}: {message}" if where else message)


class PreflightError(ConfigError):
    """The checks before a run found mistakes the user can fix; nothing was run or recorded.

    The message holds one line per problem, each naming the key, the bad value and the fix.
    """

    def __init__(self, problems: list[ConfigError]) -> None:
        self.problems = tuple(problems)
        """Each problem found, in the order of the config's sections."""
        super().__init__("\n".join(str(problem) for problem in problems))


class MissingExtraError(VistasimError):
    """An optional dependency is needed but not installed."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package!r} is not installed; install it with: pip install 'vistasim[{extra}]'"
        )


class AgentError(VistasimError):
    """The agent under test crashed, timed out, or answered with something unusable.

    The episode is kept and stops with `agent_error`: a failure of the agent, not of vistasim.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        body: str | None = None,
        tool_calls: tuple[object, ...] = (),
    ) -> None:
        self.status = status
        """HTTP status of the agent's answer, when it came over HTTP."""
        self.body = body
        """The start of the unusable body, for the record (at most 2,000 characters)."""
        self.tool_calls = tool_calls
        """`ToolCall` events the agent made in the failed turn before failing (they changed the
        environment, so the episode records them)."""
        super().__init__(message)


class EnvError(VistasimError):
    """The environment (a user's factory, tool, snapshot or restore) raised.

    The episode stops with `infra_error` and is errored: the agent is not to blame.
    """


class SimulatorError(VistasimError):
    """The simulated user gave no valid action within its repair budget."""


class InvalidActionError(SimulatorError):
    """A proposed user action broke a rule; the message says which and how to fix it."""


class ModelError(VistasimError):
    """A model provider failed (after retries): the episode is errored, never passed or failed."""

    def __init__(self, message: str, *, role: str, model: str) -> None:
        self.role = role
        self.model = model
        super().__init__(f"model {model!r} for role {role!r}: {message}")


class BrowserError(VistasimError):
    """The browser could not be found, crashed, or an element could not be used."""

    def __init__(
        self, message: str, *, url: str | None = None, selector: str | None = None
    ) -> None:
        self.url = url
        self.selector = selector
        super().__init__(message)


class StoreError(VistasimError):
    """The store is unreadable, or has no such run or episode."""


_VISTASIM_DIR = str(Path(__file__).resolve().parent)
_LIBRARY_DIRS = tuple(
    str(Path(path).resolve())
    for name in ("stdlib", "platstdlib", "purelib", "platlib")
    if (path := sysconfig.get_paths().get(name))
)


def user_frame(exc: BaseException) -> str:
    """Return where user code raised `exc`: ` (at path:line)`, or `""` if unknown.

    The frame is the innermost one outside vistasim, the standard library and installed
    packages, so a failure names the user's own line rather than a library's.
    """
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f" (at {_short_path(exc.filename)}:{exc.lineno})"  # the line that does not parse
    line = user_line(traceback.extract_tb(exc.__traceback__))
    return f" (at {line})" if line else ""


def user_line(frames: Sequence[traceback.FrameSummary]) -> str:
    """Return `path:line` of the innermost user frame of a stack, or `""`."""
    chosen = [f for f in frames if not _is_library(f.filename)] or list(frames)
    if not chosen:
        return ""
    frame = chosen[-1]
    return f"{_short_path(frame.filename)}:{frame.lineno}"


def _is_library(filename: str) -> bool:
    path = str(Path(filename).resolve())
    return path.startswith(_VISTASIM_DIR) or path.startswith(_LIBRARY_DIRS)


def _short_path(filename: str) -> str:
    cwd = os.getcwd()
    if filename.startswith(cwd + os.sep):
        return filename[len(cwd) + 1 :]
    return filename
