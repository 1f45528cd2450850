"""Checks of the simulated user's own turns: was a failure the agent's, or the simulator's?

A verdict about the agent is only as good as the user that produced it. These cheap checks read
the user's side of an episode against its scenario:

- `contradicts-own-fact`: the user gave, for a fact it holds, another value of the same kind
  (an order number, an email, "2 hours" when it holds "2 days") that its scenario never planned
  to say (a `correct` or `change_mind` behaviour plans one, and so does the turn a DIVERT branch
  injected; a message that corrects itself — "W1010, sorry, I mean W1011" — says the right value
  too). Decisive when the agent then acted on the wrong value.
- `leaked-hidden-fact`: the user said a hidden fact when the agent had not asked anything.
- `repeated-goal`: the user sent the same request three times or more. Never decisive on its own:
  an agent that cannot do the request makes a sound user repeat it too.
- `acted-against-goal`: the user itself changed the state (a user-side API or a web action that
  the environment saw change a record — never a guess from a button's name), the criteria failed,
  and the agent changed nothing. Decisive.
- `agent-not-reached`: the agent received no message at all. Decisive when the criteria failed:
  such an episode can never be the agent's failure.
- `spent-turns-failing`: the episode ran out of turns with the criteria failed after two or
  more of the user's own actions failed (an API call with invalid arguments, a web action the
  browser could not carry out): the agent lost those turns to the simulator. Decisive.

A decisive finding makes the episode `invalid` (see `metrics/_outcome.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from vistasim.events import (
    AgentReply,
    ApiCall,
    Judgment,
    StopReason,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.metrics._writes import WriteTools
from vistasim.scenario import Scalar, Scenario
from vistasim.store import EpisodeView
from vistasim.values import id_shape, iter_strings, text_ids, text_values

__all__ = ["USER_CHECKS", "UserFinding", "check_user"]

USER_CHECKS: dict[str, str] = {
    "contradicts-own-fact": "the simulated user gave a value that contradicts a fact it holds",
    "leaked-hidden-fact": "the simulated user revealed a hidden fact without being asked",
    "repeated-goal": "the simulated user repeated the same request three times",
    "acted-against-goal": "the simulated user changed the state itself, against its goal",
    "agent-not-reached": "the agent never received a message",
    "spent-turns-failing": "the simulated user ran out of turns after its own actions failed",
}
"""Check ids and what each one means, worded the same every time."""

_ASKS = re.compile(
    r"\?|\b(?:please (?:provide|enter|share|tell|give|confirm)|could you|can you|may i have)\b",
    re.IGNORECASE,
)
_SELF_CORRECTION = re.compile(
    r"\b(?:sorry|i mean|i meant|actually|correction|rather|not\b.*\bbut)\b", re.IGNORECASE
)


class UserFinding(BaseModel):
    """One check of the simulated user's behaviour that fired in one episode."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    episode_id: str
    check: str
    """The check's id (see `USER_CHECKS`)."""
    description: str
    event_ids: list[int]
    """The user's events (and the agent's, where it acted on them) that show it."""
    decisive: bool
    """Whether it decided the episode's result, which makes the episode `invalid`."""
    detail: str = ""


def check_user(
    episode: EpisodeView,
    scenario: Scenario | None,
    *,
    write_tools: Sequence[str] | None = None,
    writes: WriteTools | None = None,
    injected: Sequence[str] = (),
) -> list[UserFinding]:
    """Run every check of the simulated user's behaviour over one episode.

    Args:
        episode: The stored episode.
        scenario: Its scenario.
        write_tools: A product's list of write tools (when `writes` is not given).
        writes: What changes the state, as observed over the run.
        injected: Texts of the turns DIVERT branching injected into this episode's path: what
            they say is planned, like a scripted behaviour.
    """
    if writes is None:
        writes = WriteTools.from_events((s.event for s in episode.events), listed=write_tools)
    found: list[UserFinding] = []
    held = _held(scenario)
    planned = _planned(scenario) | {i.upper() for t in injected for i in text_ids(t)}
    planned_values = {v for t in injected for v in text_values(t)}
    criteria_failed = _criteria_failed(episode)
    found += _contradictions(episode, held, planned, planned_values)
    found += _leaks(episode, scenario, planned)
    found += _repeats(episode)
    found += _against_goal(episode, criteria_failed, writes)
    found += _spent_turns(episode, criteria_failed)
    if criteria_failed and not any(isinstance(s.event, UserMessage) for s in episode.events):
        # A user that did everything itself and passed is fine; one that failed so is invalid.
        found.append(_finding(episode, "agent-not-reached", [], decisive=True))
    return found


def _finding(
    episode: EpisodeView, check: str, ids: list[int], *, decisive: bool, detail: str = ""
) -> UserFinding:
    return UserFinding(
        episode_id=episode.episode_id,
        check=check,
        description=USER_CHECKS[check],
        event_ids=sorted(set(ids)),
        decisive=decisive,
        detail=detail,
    )


def _held(scenario: Scenario | None) -> list[Scalar]:
    if scenario is None:
        return []
    values = [*scenario.knowledge.values(), *scenario.hidden.values()]
    values += [v for item in scenario.agenda for v in item.slots.values()]
    return values


def _planned(scenario: Scenario | None) -> set[str]:
    """Values the scenario has the user say on purpose although they are not the right ones."""
    if scenario is None:
        return set()
    # What the goal itself says is the scenario's own wording ("W1010, sorry, I mean W1011").
    planned = {i.upper() for i in text_ids(scenario.goal)}
    for item in scenario.agenda:
        for behaviour in item.behaviours:
            for value in (behaviour.wrong, behaviour.first):
                if value is not None:
                    planned.add(str(value).upper())
    return planned


def _contradictions(
    episode: EpisodeView,
    held: list[Scalar],
    planned: set[str],
    planned_values: set[tuple[str, str]],
) -> list[UserFinding]:
    held_ids = {str(v).upper() for v in held for i in text_ids(str(v)) if i == str(v)}
    shapes = {id_shape(i) for i in held_ids}
    held_values = {v for h in held for v in text_values(str(h))}
    kinds = {k for k, _ in held_values}
    if not shapes and not kinds:
        return []  # a message contradicts an id or value of a held kind: there is none to check
    found = []
    quoted: set[str] = set()  # what the agent said: a user naming it back is not contradicting
    for index, stored in enumerate(episode.events):
        if isinstance(stored.event, AgentReply):
            quoted |= {i.upper() for i in text_ids(stored.event.text)}
        if not isinstance(stored.event, UserMessage):
            continue
        text = stored.event.text
        if _corrects_itself(text, held):
            continue
        wrong_ids = (
            {
                i.upper()
                for i in text_ids(text)
                if id_shape(i) in shapes and i.upper() not in held_ids
            }
            - planned
            - quoted
        )
        wrong_values = {
            f"{v} {k.removeprefix('quantity:')}"
            for k, v in text_values(text)
            if k in kinds and (k, v) not in held_values and (k, v) not in planned_values
        }
        wrong = wrong_ids | wrong_values
        if not wrong:
            continue
        acted = [
            s.id
            for s in episode.events[index + 1 :]
            if isinstance(s.event, ToolCall)
            and wrong_ids & {x.upper() for x in iter_strings(s.event.args)}
        ]
        found.append(
            _finding(
                episode,
                "contradicts-own-fact",
                [stored.id, *acted],
                decisive=bool(acted),
                detail=f"said {sorted(wrong)}",
            )
        )
    return found[:1]


def _corrects_itself(text: str, held: list[Scalar]) -> bool:
    """Whether the message takes a value back and gives a held one ("W1010, sorry, W1011")."""
    if not _SELF_CORRECTION.search(text):
        return False
    lowered = text.casefold()
    return any(len(str(v)) >= 3 and str(v).casefold() in lowered for v in held)


def _leaks(episode: EpisodeView, scenario: Scenario | None, planned: set[str]) -> list[UserFinding]:
    if scenario is None or not scenario.hidden:
        return []
    hidden = [str(v) for v in scenario.hidden.values() if len(str(v)) >= 3]
    hidden = [h for h in hidden if h.upper() not in planned]
    asked = False
    for stored in episode.events:
        event = stored.event
        if isinstance(event, AgentReply):
            asked = bool(_ASKS.search(event.text))
        elif isinstance(event, UserMessage):
            said = [h for h in hidden if h.lower() in event.text.lower()]
            if said and not asked:
                return [_finding(episode, "leaked-hidden-fact", [stored.id], decisive=False)]
    return []


def _repeats(episode: EpisodeView) -> list[UserFinding]:
    seen: dict[str, list[int]] = {}
    for stored in episode.events:
        if isinstance(stored.event, UserMessage):
            key = re.sub(r"\W+", " ", stored.event.text).strip().casefold()
            seen.setdefault(key, []).append(stored.id)
    repeated = next((ids for ids in seen.values() if len(ids) >= 3), None)
    if repeated is None:
        return []
    return [_finding(episode, "repeated-goal", repeated, decisive=False)]


def _against_goal(
    episode: EpisodeView, criteria_failed: bool | None, writes: WriteTools
) -> list[UserFinding]:
    if not criteria_failed:
        return []
    agent_wrote = any(
        isinstance(s.event, ToolCall) and writes.changed_state(s.event) for s in episode.events
    )
    if agent_wrote:
        return []
    acts = [
        s.id
        for s in episode.events
        if isinstance(s.event, ApiCall | WebAction) and writes.changed_state(s.event)
    ]
    if not acts:
        return []
    return [_finding(episode, "acted-against-goal", acts, decisive=True)]


_OWN_FAULT = re.compile(
    r"invalid arguments|unknown (?:api|tool|target)|not found on the page|timeout \d+ ?ms exceeded"
    r"|action failed",
    re.IGNORECASE,
)
"""Errors of the user's own actions: what it sent was malformed, or the browser could not act.
A product API that refuses ("the exam is in 2 days") is an answer, not the user's fault."""


def _spent_turns(episode: EpisodeView, criteria_failed: bool | None) -> list[UserFinding]:
    stop = episode.stop
    if not criteria_failed or stop is None or stop.reason is not StopReason.MAX_TURNS:
        return []
    failed = [
        s.id
        for s in episode.events
        if isinstance(s.event, ApiCall | WebAction)
        and s.event.error
        and _OWN_FAULT.search(s.event.error)
    ]
    if len(failed) < 2:
        return []
    return [_finding(episode, "spent-turns-failing", failed, decisive=True,
                     detail=f"{len(failed)} of its actions failed")]  # fmt: skip


def _criteria_failed(episode: EpisodeView) -> bool | None:
    for stored in reversed(episode.events):
        event = stored.event
        if isinstance(event, Judgment) and event.judge == "criteria" and event.passed is not None:
            return not event.passed
    return None
