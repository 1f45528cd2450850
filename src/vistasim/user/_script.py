"""The scripted user: fixed turns, played in order, so an episode can be replayed as a test.

A script is a list of user actions per scenario id. A plain string is a chat message; any other
action is written as `action_json` writes it (`{kind: call_api, name: ..., args: ...}`,
`{kind: click, target: ...}`, `{kind: finish, reason: goal_met}`). When the script runs out before
the episode ends, the user stops (`user_stop`, "the script has no more turns"): what the agent did
with the turns is what the criteria judge.

`actions_of_events` rebuilds the user's actions from a stored episode, which is how
`vistasim export RUN --episode ID --as-test` writes a script that replays it.

>>> import anyio
>>> from vistasim.scenario import Persona, Scenario
>>> scenario = Scenario(id="s", persona=Persona(name="Ann"), goal="Say hi.")
>>> user = ScriptedUser(["hi"])
>>> view = UserView(scenario=scenario, transcript=(), turn=0, max_turns=5)
>>> anyio.run(user.next_action, view, user.initial_state(scenario, seed=0))
(Say(text='hi', kind='say'), 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from pydantic import JsonValue

from vistasim._input import excerpt, read_structured
from vistasim.browser import Back, Click, Navigate, Scroll, SelectOption, TypeText, WebStep
from vistasim.errors import ConfigError
from vistasim.events import ApiCall, Event, Stop, StopReason, UserMessage, WebAction
from vistasim.scenario import Scenario
from vistasim.user._types import Action, CallApi, Finish, Say, UserView

__all__ = [
    "SCRIPT_OVER",
    "ScriptedUser",
    "action_of_event",
    "actions_of_events",
    "load_script",
    "script_json",
]

SCRIPT_OVER = "the script has no more turns"
"""The stop detail of an episode whose script ran out."""

Script = Sequence[Action | str]


class ScriptedUser:
    """Plays each scenario's script, one action per step (state: the index of the next one).

    Args:
        scripts: One script for every scenario, or scripts by scenario id; a scenario without
            one is not played (`not_applicable`).
    """

    name = "scripted"

    def __init__(self, scripts: Script | Mapping[str, Script]) -> None:
        self._any: list[Action] | None = None
        self._by_id: dict[str, list[Action]] = {}
        if isinstance(scripts, Mapping):
            self._by_id = {k: [_action(a) for a in v] for k, v in scripts.items()}
        else:
            self._any = [_action(a) for a in scripts]

    def unplayable(self, scenario: Scenario) -> str | None:
        """Why a scenario cannot be played: it has no script."""
        if self._any is None and scenario.id not in self._by_id:
            return f"no script for scenario {scenario.id!r} (the scripted user plays scripts only)"
        return None

    def initial_state(self, scenario: Scenario, *, seed: int) -> JsonValue:
        """Start at the first turn."""
        return 0

    async def next_action(self, view: UserView, state: JsonValue) -> tuple[Action, JsonValue]:
        """The next scripted action; a stop once the script is over."""
        index = state if isinstance(state, int) else 0
        turns = self._any if self._any is not None else self._by_id.get(view.scenario.id, [])
        if index >= len(turns):
            return Finish(reason="user_stop", text=SCRIPT_OVER), index
        return turns[index], index + 1


def load_script(path: str | Path) -> dict[str, list[Action]]:
    """Read a script file: a YAML or JSON mapping of scenario id to its list of actions.

    Raises:
        ConfigError: naming the file, the scenario and the turn that is wrong.
    """
    path = Path(path)
    fmt = "json" if path.suffix == ".json" else "yaml"
    raw = read_structured(path, fmt=fmt, what="script file")
    if not isinstance(raw, dict) or not all(isinstance(v, list) for v in raw.values()):
        raise ConfigError(
            "a script file maps each scenario id to a list of user turns "
            "(a text, or an action such as {kind: call_api, name: ..., args: {...}})",
            path=str(path),
        )
    scripts: dict[str, list[Action]] = {}
    for scenario_id, turns in raw.items():
        scripts[str(scenario_id)] = [
            _loaded(turn, path, f"{scenario_id}[{i}]") for i, turn in enumerate(turns)
        ]
    return scripts


def script_json(actions: Iterable[Action]) -> list[JsonValue]:
    """Actions as a script file holds them: chat messages as plain text, the rest as JSON."""
    from vistasim.user._agenda_ops import action_json  # loaded on use: see the package docstring

    return [a.text if isinstance(a, Say) else action_json(a) for a in actions]


def actions_of_events(events: Iterable[Event]) -> list[Action]:
    """The simulated user's actions in a stored episode, in order (its stop included)."""
    return [a for a in (action_of_event(e) for e in events) if a is not None]


def action_of_event(event: Event) -> Action | None:
    """The user action an event records, or `None` (agent, tool, judge and bookkeeping events).

    A stop is an action only when the user chose it (`goal_met`, `user_stop`).
    """
    match event:
        case UserMessage(text=text):
            return Say(text=text)
        case ApiCall(name=name, args=args):
            return CallApi(name=name, args=dict(args))
        case WebAction():
            return _web_step(event)
        case Stop(reason=StopReason.GOAL_MET, detail=detail):
            return Finish(reason="goal_met", text=detail)
        case Stop(reason=StopReason.USER_STOP, detail=detail):
            return Finish(reason="user_stop", text=detail)
        case _:
            return None


def _web_step(event: WebAction) -> WebStep | None:
    target, value = event.target, event.value
    match event.action:
        case "click" if target:
            return Click(target=target)
        case "type" if target:
            return TypeText(target=target, text=value or "", enter=bool(event.enter))
        case "select" if target:
            return SelectOption(target=target, value=value or "")
        case "scroll":
            return Scroll(direction="up" if value == "up" else "down")
        case "navigate" if value:
            return Navigate(url=value)
        case "back":
            return Back()
        case _:
            return None  # an action refused before it had a target: nothing to replay


def _action(turn: Action | str) -> Action:
    return Say(text=turn) if isinstance(turn, str) else turn


def _loaded(turn: object, path: Path, where: str) -> Action:
    if isinstance(turn, str):
        return Say(text=turn)
    from vistasim.user._agenda_ops import action_from_json  # loaded on use: package docstring

    try:
        if not isinstance(turn, dict):
            raise ValueError("a turn is a text or a mapping with a `kind`")
        return action_from_json(turn)
    except (ValueError, TypeError) as exc:
        raise ConfigError(
            f"{exc} (got {excerpt(turn)}); a turn is a text or an action such as "
            "{kind: call_api, name: track_order, args: {order_id: W1002}}",
            path=str(path),
            key=where,
        ) from None
