"""Run an agent written in Python as the agent under test.

A user points `agent.target` at `module:attr`: a class (one instance per episode, `respond(turn)`
each turn) or a plain function called each turn, sync or async. This module imports the target,
keeps slow sync code off the event loop so the per-turn timeout holds (see `_blocking.py`), and
turns whatever the agent returns or raises into a `Reply` or an `AgentError`, so a broken agent
is a finding, never a crash.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import json
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import JsonValue

from vistasim._deadline import fail_after
from vistasim._input import excerpt
from vistasim.agent._blocking import StepTimes, run_in_daemon_thread, timed_steps
from vistasim.agent._replies import coerce_tool_call, normalize_reply, parse_tool_args
from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.env._types import Environment
from vistasim.errors import AgentError, ConfigError, EnvError, user_frame
from vistasim.llm._types import ChatModel

__all__ = [
    "PythonAgent",
    "coerce_tool_call",
    "normalize_reply",
    "parse_tool_args",
    "resolve_target",
]

_TARGET_KEY = "agent.target"


def resolve_target(target: str, *, key: str = _TARGET_KEY) -> Any:
    """Import `module:attr` (the attribute may be dotted, `module:Outer.inner`) and return it.

    `key` names the config key in errors (e.g. `environment.target` for an environment factory).

    Raises:
        ConfigError: the target is malformed, its module cannot be imported, or lacks the attribute.
    """
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(
            f"{target!r} is not 'module:attr'; name a class or function, "
            "e.g. 'my_agent:SupportBot'",
            key=key,
        )
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if not (module_name == missing or module_name.startswith(missing + ".")):
            # The module exists but imports one that does not: point at that import line.
            raise _import_failed(module_name, exc, key) from None
        raise ConfigError(
            f"cannot import module {module_name!r} (ModuleNotFoundError: {exc}); is it importable "
            "from the working directory or PYTHONPATH? "
            f"check with: python -c 'import {module_name}'",
            key=key,
        ) from None
    except Exception as exc:  # the user's module may raise anything while importing
        raise _import_failed(module_name, exc, key) from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            public = sorted(name for name in dir(obj) if not name.startswith("_"))
            raise ConfigError(
                f"{target!r}: {getattr(obj, '__name__', module_name)!r} has no attribute "
                f"{part!r}; available: {', '.join(public[:20]) or '(none)'}",
                key=key,
            )
        obj = getattr(obj, part)
    return obj


class PythonAgent:
    """An agent under test written in Python: a class (one instance per episode) or a function.

    A class is instantiated here with `**options`, plus `env=env` when its `__init__` takes `env`
    and `model=model` (the run's `agent` model) when it takes `model`;
    its `respond(turn)` is called each turn. A function is called as `fn(turn)`. Sync code runs in
    a worker thread so `timeout_s` can cut it off; async code is awaited.

    The restore strategy is `state` for a class with `snapshot()`/`restore(state)` (this adapter's
    own `snapshot()`/`restore()` delegate to it), `replay` for other classes and `stateless` for
    functions.
    """

    def __init__(
        self,
        target: Any,
        *,
        options: Mapping[str, Any] | None = None,
        env: Environment | None = None,
        model: ChatModel | None = None,
        timeout_s: float = 60.0,
    ) -> None:
        self.name = _describe(target)
        """The agent's qualified name, for messages."""
        self._timeout_s = timeout_s
        self._instance: Any = None
        if inspect.isclass(target):
            self._instance = _instantiate(target, dict(options or {}), env, model)
            self._fn: Callable[[Turn], Any] = _respond_method(self._instance, self.name)
            stateful = callable(getattr(self._instance, "snapshot", None)) and callable(
                getattr(self._instance, "restore", None)
            )
            self.restore_strategy: RestoreStrategy = "state" if stateful else "replay"
        elif callable(target):
            if options:
                raise ConfigError(
                    f"options {sorted(options)!r} were given but {self.name} is a function; "
                    "options are keyword arguments for a class target, so remove them",
                    key="agent.options",
                )
            self._fn = target
            self.restore_strategy = "stateless"
        else:
            raise ConfigError(
                f"{self.name} is a {type(target).__name__}, not a class or function; point "
                "agent.target at a class with respond(turn) or a function fn(turn)",
                key=_TARGET_KEY,
            )
        self._is_async = _is_async_callable(self._fn)

    async def respond(self, turn: Turn) -> Reply:
        """Call the agent with one turn and normalize its answer.

        Raises:
            AgentError: the agent raised, timed out, or returned something that is not a reply.
        """
        steps = StepTimes()
        try:
            with fail_after(self._timeout_s):
                raw = await self._call(turn, steps)
        except TimeoutError:
            self._check_loop_not_blocked(steps)
            raise AgentError(
                f"{self.name} did not answer within {self._timeout_s:g} s (agent.timeout_s)"
            ) from None
        self._check_loop_not_blocked(steps)
        return normalize_reply(raw, agent=self.name)

    def _check_loop_not_blocked(self, steps: StepTimes) -> None:
        # While an async agent blocks the loop no timeout can fire; its late reply is dropped.
        if steps.longest_s > self._timeout_s:
            raise AgentError(
                f"{self.name} blocked the event loop for {steps.longest_s:.1f} s, longer than "
                f"agent.timeout_s ({self._timeout_s:g} s), so its reply is dropped; an async "
                "agent must await its I/O (run blocking code with anyio.to_thread.run_sync)"
            )

    def snapshot(self) -> JsonValue:
        """Return a copy of the agent's state from its own `snapshot()` (strategy `state` only).

        Raises:
            AgentError: the agent cannot snapshot, raised, or returned state that is not JSON.
        """
        self._require_state("snapshot")
        try:
            state = self._instance.snapshot()
        except Exception as exc:
            raise _raised(self.name, "snapshot()", exc) from exc
        try:
            # A JSON round trip both checks the state is storable and detaches it from the agent,
            # so later turns cannot change a snapshot already taken.
            detached: JsonValue = json.loads(json.dumps(state))
            return detached
        except (TypeError, ValueError) as exc:
            raise AgentError(
                f"{self.name}.snapshot() returned state that is not JSON ({exc}); "
                "return plain dicts, lists, strings and numbers"
            ) from None

    def restore(self, state: JsonValue) -> None:
        """Bring the agent back to a `snapshot()` (strategy `state` only).

        Raises:
            AgentError: the agent cannot restore, or its `restore()` raised.
        """
        self._require_state("restore")
        try:
            # A copy, so one snapshot can be restored again after the agent mutates what it got.
            self._instance.restore(copy.deepcopy(state))
        except Exception as exc:
            raise _raised(self.name, "restore()", exc) from exc

    async def aclose(self) -> None:
        """Call the agent's own `aclose()` or `close()`, if it has one."""
        closer = getattr(self._instance, "aclose", None) or getattr(self._instance, "close", None)
        if closer is None:
            return
        try:
            result = closer()
            if inspect.isawaitable(result):
                await result
        except Exception as exc:
            raise _raised(self.name, closer.__name__ + "()", exc) from exc

    async def _call(self, turn: Turn, steps: StepTimes) -> Any:
        try:
            if self._is_async:
                return await timed_steps(self._fn(turn), steps)
            result = await run_in_daemon_thread(functools.partial(self._fn, turn))
            # A sync callable may still hand back a coroutine (e.g. a wrapped async function).
            return await timed_steps(result, steps) if inspect.isawaitable(result) else result
        except (AgentError, EnvError):
            raise  # already says who failed (an environment the agent called, say)
        except Exception as exc:
            where = "respond()" if self._instance is not None else ""
            raise _raised(self.name, where, exc) from exc

    def _require_state(self, what: str) -> None:
        if self.restore_strategy != "state":
            raise AgentError(
                f"{self.name} has no snapshot()/restore(); its restore strategy is "
                f"{self.restore_strategy!r}, so {what} is not available"
            )


def _instantiate(
    cls: type, options: dict[str, Any], env: Environment | None, model: ChatModel | None
) -> Any:
    name = _describe(cls)
    try:
        signature: inspect.Signature | None = inspect.signature(cls)
    except (TypeError, ValueError):
        signature = None  # no introspectable signature (some builtins): let the call decide
    env_param = signature.parameters.get("env") if signature else None
    if env_param is not None:
        _add_env(name, env_param, options, env)
    model_param = signature.parameters.get("model") if signature else None
    if model_param is not None:
        _add_model(name, model_param, options, model)
    try:
        if signature is not None:
            signature.bind(**options)
    except TypeError as exc:
        raise ConfigError(
            f"{name} does not accept options {sorted(options)!r} ({exc}); "
            "match agent.options to its __init__ parameters",
            key="agent.options",
        ) from None
    try:
        return cls(**options)
    except Exception as exc:
        raise _raised(name, "__init__()", exc) from exc


def _add_env(
    name: str, param: inspect.Parameter, options: dict[str, Any], env: Environment | None
) -> None:
    if "env" in options:
        raise ConfigError(
            f"{name} gets env from the run; remove 'env' from agent.options", key="agent.options"
        )
    if env is not None:
        options["env"] = env
    elif param.default is inspect.Parameter.empty:
        raise ConfigError(
            f"{name} takes an env but the run has no environment; "
            "set [environment] target in the config",
            key="environment",
        )


def _add_model(
    name: str, param: inspect.Parameter, options: dict[str, Any], model: ChatModel | None
) -> None:
    # An LLM agent gets the run's metered `agent` model, so its tokens count in the run's cost.
    if "model" in options:
        raise ConfigError(
            f"{name} gets its model from the run; remove 'model' from agent.options and set "
            "[models.agent]",
            key="agent.options",
        )
    if model is not None:
        options["model"] = model
    elif param.default is inspect.Parameter.empty:
        raise ConfigError(
            f"{name} takes a model but the run has none; add [models.agent] (model, base_url) "
            "or pass --model agent=openai/gpt-4.1-mini",
            key="models.agent",
        )


def _respond_method(instance: Any, name: str) -> Callable[[Turn], Any]:
    respond = getattr(instance, "respond", None)
    if not callable(respond):
        raise ConfigError(
            f"{name} has no respond(turn) method; add one returning a str or vistasim.agent.Reply",
            key=_TARGET_KEY,
        )
    method: Callable[[Turn], Any] = respond
    return method


def _is_async_callable(fn: Any) -> bool:
    while isinstance(fn, functools.partial):
        fn = fn.func
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 (an instance with an async __call__)
    )


def _import_failed(module_name: str, exc: BaseException, key: str) -> ConfigError:
    return ConfigError(
        f"cannot import module {module_name!r}: {type(exc).__name__}: {exc}{user_frame(exc)}; "
        f"fix that line, then check with: python -c 'import {module_name}'",
        key=key,
    )


def _raised(agent: str, where: str, exc: BaseException) -> AgentError:
    trace = "".join(traceback.format_exception(exc))
    label = f"{agent}.{where}" if where else agent
    message = f"{label} raised {type(exc).__name__}: {exc}{user_frame(exc)}"
    return AgentError(message, body=trace[-2000:])


def _describe(obj: Any) -> str:
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    return f"{module}:{qualname}" if module else qualname


def _short(value: Any, limit: int = 200) -> str:
    # Bounded in time too: an agent may return a huge or deeply nested value.
    return excerpt(value, limit)
