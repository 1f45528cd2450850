"""One guard around every hook of user code, so a failure costs its episode and never the run.

User code runs at a handful of points: the agent factory and the agent's `respond`, `snapshot`,
`restore` and `close`; the environment factory and every environment method (tools, snapshots,
lexicon, state queries). Each hook is reached only through the wrappers below, which turn
whatever it raises into an `AgentError` (the episode stops with `agent_error`) or an `EnvError`
(the episode is errored), naming the hook and the user's own line. `stop_for` is the one mapping
from an error to the episode's `Stop`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import JsonValue

from vistasim.agent._types import AgentAdapter, Reply, RestoreStrategy, StatefulAgent, Turn
from vistasim.env import Environment, ToolOutcome
from vistasim.errors import (
    AgentError,
    BrowserError,
    ConfigError,
    EnvError,
    ModelError,
    SimulatorError,
    StoreError,
    VistasimError,
    user_frame,
)
from vistasim.events import Stop, StopReason
from vistasim.llm import ToolSpec
from vistasim.scenario import Scalar

__all__ = [
    "GuardedAgent",
    "GuardedEnvironment",
    "agent_detail",
    "describe_failure",
    "guard_env_factory",
    "leaf_errors",
    "not_an_environment",
    "stop_for",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")

_PASS_THROUGH = (AgentError, EnvError, ConfigError, ModelError, BrowserError, SimulatorError)
"""Errors that already say who failed; anything else a hook raises is that hook's failure."""


def stop_for(exc: Exception, *, episode_id: str = "") -> Stop:
    """The `Stop` of an episode that `exc` ended.

    Raises:
        ConfigError: re-raised: a mistake in the config stops the whole run, once.
    """
    if isinstance(exc, ConfigError):
        raise exc
    if isinstance(exc, AgentError):
        return Stop(reason=StopReason.AGENT_ERROR, detail=agent_detail(exc))
    if isinstance(exc, EnvError | ModelError | BrowserError | StoreError):
        return Stop(reason=StopReason.INFRA_ERROR, detail=str(exc))
    if isinstance(exc, VistasimError):  # SimulatorError, InvalidOutputError, ...
        return Stop(reason=StopReason.SIMULATOR_ERROR, detail=str(exc))
    logger.exception("internal error in episode %s", episode_id)
    return Stop(reason=StopReason.INFRA_ERROR, detail=f"internal error: {exc!r}{user_frame(exc)}")


def agent_detail(exc: AgentError) -> str:
    """An agent failure in one line: the message, the HTTP status and a body excerpt."""
    text = str(exc)
    if exc.status is None:
        # Only an HTTP answer's body says more than the message; a Python agent's traceback
        # would bury the user's own line, which the message already ends with.
        return text
    status = f" (HTTP {exc.status})" if f"HTTP {exc.status}" not in text else ""
    body = f"; body: {exc.body[:300]!r}" if exc.body else ""
    return f"{text}{status}{body}"


def leaf_errors(exc: BaseException) -> list[BaseException]:
    """The errors inside (nested) exception groups, in order; `[exc]` for a plain error."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaf_errors(inner)]
    return [exc]


def describe_failure(exc: BaseException, *, limit: int = 500) -> str:
    """Why a run stopped, in one short line (the first error of an exception group)."""
    leaves = leaf_errors(exc)
    first = next((e for e in leaves if isinstance(e, VistasimError)), leaves[0])
    if isinstance(first, KeyboardInterrupt | asyncio.CancelledError):
        return "interrupted (Ctrl-C or cancelled) before every episode ended"
    text = " ".join(str(first).split()) or type(first).__name__
    if not isinstance(first, VistasimError):
        text = f"{type(first).__name__}: {text}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _failure(error: type[VistasimError], hook: str, exc: Exception) -> VistasimError:
    return error(f"{hook} raised {type(exc).__name__}: {exc}{user_frame(exc)}")


def _guarded(error: type[VistasimError], hook: str, call: Callable[[], T]) -> T:
    """Run user code; anything it raises (but what must pass through) becomes `error`."""
    try:
        return call()
    except _PASS_THROUGH:
        raise
    except Exception as exc:
        raise _failure(error, hook, exc) from exc


async def _guarded_async(
    error: type[VistasimError], hook: str, call: Callable[[], Awaitable[T]]
) -> T:
    """Await user code; anything it raises (but what must pass through) becomes `error`."""
    try:
        return await call()
    except _PASS_THROUGH:
        raise
    except Exception as exc:
        raise _failure(error, hook, exc) from exc


class GuardedAgent:
    """The agent under test as the episode reaches it: every hook raises `AgentError` only."""

    def __init__(self, inner: AgentAdapter, *, name: str = "the agent") -> None:
        self.inner = inner
        """The adapter being guarded."""
        self.restore_strategy: RestoreStrategy = inner.restore_strategy
        self._name = name
        self.closed = False
        """Whether `aclose()` was called (it runs once)."""

    async def respond(self, turn: Turn) -> Reply:
        """The agent's reply to one turn."""
        return await self._guard_async("respond()", lambda: self.inner.respond(turn))

    def snapshot_bytes(self) -> bytes:
        """The agent's state as JSON bytes (strategy `state` only)."""
        state = self._guard("snapshot()", lambda: self._stateful("snapshot").snapshot())
        try:
            return json.dumps(state, sort_keys=True).encode()
        except (TypeError, ValueError) as exc:
            raise AgentError(
                f"{self._name}.snapshot() returned state that is not JSON ({exc}); "
                "return plain dicts, lists, strings and numbers"
            ) from None

    def restore(self, state: JsonValue) -> None:
        """Bring the agent back to a `snapshot_bytes()` state."""
        self._guard("restore()", lambda: self._stateful("restore").restore(state))

    async def aclose(self) -> None:
        """Close the agent once; later calls do nothing."""
        if self.closed:
            return
        self.closed = True
        await self._guard_async("close()", self.inner.aclose)

    def _stateful(self, hook: str) -> StatefulAgent:
        if not isinstance(self.inner, StatefulAgent):
            raise AgentError(
                f"{self._name} has no {hook}(); its restore strategy is "
                f"{self.restore_strategy!r}, so its state cannot be saved or brought back"
            )
        return self.inner

    def _guard(self, hook: str, call: Callable[[], T]) -> T:
        return _guarded(AgentError, f"{self._name}.{hook}", call)

    async def _guard_async(self, hook: str, call: Callable[[], Awaitable[T]]) -> T:
        return await _guarded_async(AgentError, f"{self._name}.{hook}", call)


def guard_env_factory(factory: Callable[[], Any], *, name: str) -> Callable[[], Environment]:
    """Wrap an environment factory: what it makes is guarded, and its own failure is `EnvError`."""

    def make() -> Environment:
        try:
            env = factory()
        except _PASS_THROUGH:
            raise
        except Exception as exc:
            raise _failure(EnvError, f"environment factory {name!r}", exc) from exc
        problem = not_an_environment(env, name)
        if problem is not None:
            raise problem
        return GuardedEnvironment(env, name=name)

    return make


_ENVIRONMENT_METHODS = tuple(
    name for name, value in vars(Environment).items() if callable(value) and name[0] != "_"
)
"""The methods of the `Environment` protocol, read from it."""


def not_an_environment(made: Any, name: str) -> ConfigError | None:
    """The error to raise when `made` (an object, or a class) lacks methods of `Environment`.

    Such an object would pass until its first use deep in the run, and fail there as a bug.
    """
    missing = [m for m in _ENVIRONMENT_METHODS if not callable(getattr(made, m, None))]
    if not missing:
        return None
    what = made.__name__ if isinstance(made, type) else f"a {type(made).__name__}"
    return ConfigError(
        f"{name!r} gives {what}, which is not an environment: it has no "
        f"{', '.join(f'{m}()' for m in missing)}; point environment.target at a class (or "
        "factory) implementing vistasim.env.Environment, e.g. a SqliteEnvironment subclass",
        key="environment.target",
    )


class GuardedEnvironment:
    """An environment whose every method raises `EnvError` when the user's code fails.

    Attributes beyond the `Environment` protocol (a built-in domain's `db`, `run_tool`) are
    passed through to the wrapped environment unguarded.
    """

    def __init__(self, inner: Environment, *, name: str) -> None:
        self.inner = inner
        """The wrapped environment."""
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    def agent_tools(self) -> list[ToolSpec]:
        """The agent's tools."""
        return self._guard("agent_tools()", self.inner.agent_tools)

    def user_tools(self) -> list[ToolSpec]:
        """The user-side APIs."""
        return self._guard("user_tools()", self.inner.user_tools)

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run an agent tool."""
        call = lambda: self.inner.call_tool(name, args)  # noqa: E731
        return await self._guard_async(f"call_tool({name!r})", call)

    async def call_user_api(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run a user-side API."""
        call = lambda: self.inner.call_user_api(name, args)  # noqa: E731
        return await self._guard_async(f"call_user_api({name!r})", call)

    def select(self, table: str, where: dict[str, Scalar]) -> list[dict[str, JsonValue]]:
        """Rows of `table` matching `where`."""
        return self._guard(f"select({table!r})", lambda: self.inner.select(table, where))

    def snapshot(self) -> bytes:
        """The whole state."""
        return self._guard("snapshot()", self.inner.snapshot)

    def restore(self, state: bytes) -> None:
        """Bring the state back to a `snapshot()`."""
        self._guard("restore()", lambda: self.inner.restore(state))

    def lexicon(self) -> dict[str, list[str]]:
        """Slot names and how agents ask for them."""
        return self._guard("lexicon()", self.inner.lexicon)

    def _guard(self, hook: str, call: Callable[[], T]) -> T:
        return _guarded(EnvError, f"environment {self._name!r} {hook}", call)

    async def _guard_async(self, hook: str, call: Callable[[], Awaitable[T]]) -> T:
        return await _guarded_async(EnvError, f"environment {self._name!r} {hook}", call)
