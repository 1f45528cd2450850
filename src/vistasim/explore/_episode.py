"""The episode loop: observe, act, let the agent answer, record, repeat.

See docs/architecture.md, Episode loop.

Every user turn is written at once, ending in a `Snapshot` of the state before the next turn, so
an episode can be resumed (after a crash) or branched (DIVERT) from any user turn; the turns that
episodes finish in the same event-loop tick share one transaction (`Store.append_turn`), and an
episode plays on only once its turn is committed. The live parts are an `Episode` (`_live`); one
user action is carried out by `_actions.execute`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import anyio
from pydantic import JsonValue

from vistasim.errors import AgentError, EnvError
from vistasim.events import Event, Judgment, Snapshot, Stop, StopReason, ToolCall
from vistasim.explore._actions import execute, take_snapshot
from vistasim.explore._assertions import AssertionGrade, grade_assertions
from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._guard import stop_for
from vistasim.explore._live import Episode
from vistasim.explore._state import EpisodeState, fold
from vistasim.explore._values import today_for, value_pool
from vistasim.llm import ModelCall, collect_calls
from vistasim.store import Append
from vistasim.user import UserView, environment_now

__all__ = ["Episode", "play", "start", "take_snapshot", "view_of"]


@dataclass(kw_only=True)
class _TurnOutcome:
    events: list[Event]
    new_state: JsonValue = None
    stop: Stop | None = None
    blobs: list[bytes] = field(default_factory=list)


async def play(
    ep: Episode, state: EpisodeState, *, timeout_s: float, stop: Stop | None = None
) -> Stop:
    """Run the episode from `state` to its end, close the agent, record the judgment and stop.

    Args:
        ep: The episode's live parts.
        state: Where it stands (a fresh start, or a restored snapshot).
        timeout_s: Wall-clock bound on the whole episode.
        stop: Set when the episode already ended before its first turn (a hook failed).
    """
    pending: list[Event] = []
    calls: list[ModelCall] = []
    committed = [state]
    if stop is None:
        with anyio.move_on_after(timeout_s):
            stop, pending, calls = await _loop(ep, committed)
        if stop is None:
            stop = Stop(reason=StopReason.TIMEOUT, detail=f"episode exceeded {timeout_s:g}s")
    stop = await _close_agent(ep, stop)
    with collect_calls() as judged:
        grade, stop = await grade_assertions(ep, fold(committed[0], pending).transcript, stop)
    return await _finish(ep, committed[0], stop, pending, [*calls, *judged], grade)


async def _loop(
    ep: Episode, committed: list[EpisodeState]
) -> tuple[Stop, list[Event], list[ModelCall]]:
    # Each committed state is appended, so a timeout still ends the episode where it stood.
    while True:
        state = committed[0]
        if state.turn >= ep.max_turns:
            return Stop(reason=StopReason.MAX_TURNS, detail=f"{ep.max_turns} turns"), [], []
        with collect_calls() as calls:
            outcome = await _take_turn(ep, state)
        if outcome.stop is not None:
            return outcome.stop, outcome.events, calls
        leaf = await ep.store.append_turn(Append(
            run_id=ep.run_id, episode_id=ep.plan.episode_id, parent_id=state.leaf,
            events=_numbered(outcome.events, state.turn + 1), calls=calls, blobs=outcome.blobs,
        ))  # fmt: skip
        committed[0] = replace(fold(state, outcome.events), leaf=leaf)


async def _take_turn(ep: Episode, state: EpisodeState) -> _TurnOutcome:
    """One user action, the agent's answer and the snapshot after it; any failure is the stop."""
    outcome = _TurnOutcome(events=[])
    try:
        if ep.first_action is not None:
            (action, outcome.new_state), ep.first_action = ep.first_action, None
        else:
            view = await view_of(ep, state)
            action, outcome.new_state = await ep.policy.next_action(view, state.user_state)
        outcome.stop = await execute(ep, state, action, outcome.events)
        if outcome.stop is None:
            snapshot, outcome.blobs = await take_snapshot(
                ep, turn=state.turn + 1, user_state=outcome.new_state
            )
            outcome.events.append(snapshot)
    except Exception as exc:  # a failure must cost one episode, not the run
        if isinstance(exc, AgentError):  # the calls it made before failing happened
            outcome.events.extend(e for e in exc.tool_calls if isinstance(e, ToolCall))
        outcome.stop = stop_for(exc, episode_id=ep.plan.episode_id)
    return outcome


async def start(ep: Episode, root_id: int) -> tuple[EpisodeState, Stop | None]:
    """Begin an episode: the first snapshot under its scenario's root.

    Returns the state, and the stop when a hook failed before the first turn.
    """
    state = EpisodeState(leaf=root_id, turn=0, user_state=_initial_user_state(ep))
    try:
        snapshot, blobs = await take_snapshot(ep, turn=0, user_state=state.user_state)
    except Exception as exc:
        return state, stop_for(exc, episode_id=ep.plan.episode_id)
    leaf = await ep.store.append_turn(Append(
        run_id=ep.run_id, episode_id=ep.plan.episode_id, parent_id=root_id,
        events=[(0, snapshot)], blobs=blobs,
    ))  # fmt: skip
    return replace(state, leaf=leaf), None


def _initial_user_state(ep: Episode) -> JsonValue:
    """The user's state before its first action; under `--perturb`, with its drawn operations.

    What was drawn is recorded on the episode: it is planned, like a scenario's behaviours.
    """
    state = ep.policy.initial_state(ep.scenario, seed=ep.seed)
    if not ep.perturb:
        return state
    # Loaded by the runs that use them (the `vistasim.user` package docstring).
    from vistasim.user import AgendaPolicy, perturbed

    if not isinstance(ep.policy, AgendaPolicy):
        return state
    state, drawn = perturbed(
        state,
        ep.perturb,
        seed=ep.seed,
        pool=value_pool(ep.env, ep.scenario),
        today=today_for(ep.env, ep.scenario),
    )
    if drawn:
        ep.store.set_perturbations(ep.plan.episode_id, drawn)
    return state


async def _close_agent(ep: Episode, stop: Stop) -> Stop:
    # Closing is a hook of user code too: if it fails, an episode that ended well is a failure.
    try:
        await ep.agent.aclose()
    except Exception as exc:
        closing = stop_for(exc, episode_id=ep.plan.episode_id)
        return closing if stop.reason in _CLEAN_ENDS else stop
    return stop


_CLEAN_ENDS = (StopReason.GOAL_MET, StopReason.USER_STOP, StopReason.MAX_TURNS, StopReason.TIMEOUT)


async def _finish(
    ep: Episode,
    state: EpisodeState,
    stop: Stop,
    pending: list[Event],
    calls: list[ModelCall],
    grade: AssertionGrade | None = None,
) -> Stop:
    events = list(pending)
    if stop.reason != StopReason.INFRA_ERROR:
        try:
            events.append(_judge(ep, fold(state, pending), stop, grade))
        except EnvError as exc:  # the environment's state query is user code too
            stop = Stop(reason=StopReason.INFRA_ERROR, detail=str(exc))
    errored = stop.reason == StopReason.INFRA_ERROR
    events.append(stop)
    await ep.store.append_turn(Append(
        run_id=ep.run_id, episode_id=ep.plan.episode_id, parent_id=state.leaf,
        events=_numbered(events, state.turn + 1), calls=calls,
        status="errored" if errored else "done", stop_reason=stop.reason.value,
    ))  # fmt: skip
    return stop


def _judge(ep: Episode, state: EpisodeState, stop: Stop, grade: AssertionGrade | None) -> Event:
    agent_texts = [u.text for u in state.transcript if u.role == "agent"]
    own_judgment = getattr(ep.env, "episode_judgment", None)
    if callable(own_judgment):  # an environment that grades as its benchmark does (tau2)
        if grade is not None and grade.verdicts is None:  # its verdict hangs on the judge's
            return Judgment(judge="criteria", passed=None, reason=grade.why_none)
        verdicts = {} if grade is None else {"assertion_verdicts": grade.verdicts}
        judged: Event = own_judgment(stop=stop.reason.value, agent_texts=agent_texts, **verdicts)
        return judged
    return evaluate_criteria(
        ep.scenario.criteria,
        tool_calls=list(state.tool_calls),
        agent_texts=agent_texts,
        env=ep.env,
        mode=ep.plan.mode,
        called_off=_called_off(ep),
    )


def _called_off(ep: Episode) -> bool:
    """Whether a branch's user called the change off: its injected state says it will."""
    if ep.plan.branch_of is None:
        return False
    from vistasim.user import calls_off  # the agenda user's operations: branches only

    injected = ep.store.branch(ep.plan.episode_id).injected
    return calls_off(injected.get("user_state"), ep.scenario)


async def view_of(ep: Episode, state: EpisodeState) -> UserView:
    """What the simulated user sees before its next action."""
    return UserView(
        scenario=ep.scenario,
        transcript=state.transcript,
        turn=state.turn,
        max_turns=ep.max_turns,
        api_tools=ep.api_tools,
        last_api_result=state.last_api_result,
        lexicon=ep.env.lexicon() if ep.env is not None else {},
        agent_tools=tuple(ep.env.agent_tools()) if ep.env is not None else (),
        page=await ep.web.observe() if ep.web is not None else None,
        last_web_error=state.last_web_error,
        now=environment_now(ep.env.inner) if ep.env is not None else None,
    )


def _numbered(events: list[Event], turn_after: int) -> list[tuple[int, Event]]:
    # Events of a turn carry the number of actions taken before it; the closing snapshot, after.
    return [(turn_after if isinstance(e, Snapshot) else max(turn_after - 1, 0), e) for e in events]
