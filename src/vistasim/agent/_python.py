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

import anyio
from pydantic import JsonValue, ValidationError

from vistasim._input import excerpt
from vistasim.agent._blocking import StepTimes, run_in_daemon_thread, timed_steps
from vistasim.agent._types import Reply, RestoreStrategy, Turn
from vistasim.env._types import Environment
from vistasim.errors import AgentError, ConfigError, EnvError, user_frame
from vistasim.events import ToolCall
from vistasim.llm._types import ChatModel
from vistasim.llm._usage import TokenUsage

_TARGET_KEY = "agent.target"
_REPLY_KEYS = ("text", "tool_calls", "usage", "metadata")


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
    except Exception as exc:  # the user's module may raise anything while importing
        raise ConfigError(
            f"cannot import module {module_name!r} ({type(exc).__name__}: {exc}); is it importable "
            "from the working directory or PYTHONPATH? "
            f"check with: python -c 'import {module_name}'",
            key=key,
        ) from exc
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


def coerce_tool_call(item: Any) -> ToolCall:
    """Turn a reported tool call (`ToolCall` or `{name, args, result, error}`) into an event.

    `args` may be a mapping or JSON text (unparsable text is kept as `{"_raw": text}`); `arguments`
    and `id` are accepted as aliases of `args` and `call_id`. Unknown keys are ignored.

    Raises:
        AgentError: the item has no string `name` or holds values that are not JSON.
    """
    if isinstance(item, ToolCall):
        return item
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
        raise AgentError(
            f"tool call {_short(item)} is not a mapping with a string 'name'; report tool calls "
            "as {name, args, result, error}"
        )
    raw_args = item.get("args", item.get("arguments"))
    call_id = item.get("call_id", item.get("id"))
    try:
        return ToolCall(
            name=item["name"],
            args=parse_tool_args(raw_args),
            result=item.get("result"),
            error=None if item.get("error") is None else str(item["error"]),
            call_id=None if call_id is None else str(call_id),
        )
    except ValidationError as exc:
        raise AgentError(f"tool call {item['name']!r} is not valid JSON data: {exc}") from None


def parse_tool_args(raw: Any) -> dict[str, Any]:
    """Parse tool arguments given as a mapping, JSON text or nothing; keep bad text as `_raw`."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, Mapping):
        return dict(raw)
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"_raw": raw}
        return parsed if isinstance(parsed, dict) else {"_raw": raw}
    return {"_raw": _short(raw)}


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
            with anyio.fail_after(self._timeout_s):
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


def normalize_reply(raw: Any, *, agent: str = "agent") -> Reply:
    """Turn what a Python agent returned into a `Reply`.

    Accepts a `Reply`, a non-empty `str`, or a mapping with a `text` string and optional
    `tool_calls`, `usage` and `metadata`.

    Raises:
        AgentError: anything else (None, numbers, empty text, unknown keys).
    """
    if isinstance(raw, Reply):
        return raw
    if isinstance(raw, str):
        if not raw.strip():
            raise AgentError(
                f"{agent} returned an empty str; return a non-empty str or vistasim.agent.Reply"
            )
        return Reply(text=raw)
    if isinstance(raw, Mapping) and isinstance(raw.get("text"), str):
        return _reply_from_mapping(raw, agent)
    raise AgentError(
        f"{agent} returned {type(raw).__name__} ({_short(raw)}); "
        "return a str or vistasim.agent.Reply",
        body=_short(raw, 2000),
    )


def _reply_from_mapping(raw: Mapping[str, Any], agent: str) -> Reply:
    unknown = sorted(str(key) for key in raw if key not in _REPLY_KEYS)
    if unknown:
        raise AgentError(
            f"{agent} returned a dict with unknown keys {unknown!r}; allowed: {list(_REPLY_KEYS)}"
        )
    calls = raw.get("tool_calls") or []
    if not isinstance(calls, list | tuple):
        raise AgentError(f"{agent} returned tool_calls as {type(calls).__name__}; use a list")
    tool_calls = tuple(coerce_tool_call(item) for item in calls)
    if not raw["text"].strip() and not tool_calls:
        raise AgentError(f"{agent} returned empty text and no tool calls; return a reply text")
    try:
        usage = None if raw.get("usage") is None else TokenUsage.model_validate(raw["usage"])
    except ValidationError as exc:
        raise AgentError(f"{agent} returned usage that is not token counts: {exc}") from None
    metadata = raw.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise AgentError(f"{agent} returned metadata as {type(metadata).__name__}; use a dict")
    return Reply(text=raw["text"], tool_calls=tool_calls, usage=usage, metadata=dict(metadata))


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
