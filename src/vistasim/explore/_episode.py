"""The episode loop: observe, act, let the agent answer, record, repeat.

See docs/architecture.md, Episode loop.

Every user turn is written as one transaction ending in a `Snapshot` of the state before the next
turn, so an episode can be resumed (after a crash) or branched (DIVERT) from any user turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, assert_never

import anyio
from pydantic import JsonValue

from vistasim.agent import Reply, Turn, proxy_requests
from vistasim.browser import (
    Back,
    Click,
    Navigate,
    Scroll,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.env import ToolOutcome
from vistasim.errors import AgentError, EnvError, MissingExtraError
from vistasim.events import (
    AgentReply,
    ApiCall,
    Event,
    RequestDigest,
    Snapshot,
    Stop,
    StopReason,
    ToolCall,
    UserMessage,
    WebAction,
)
from vistasim.explore._criteria import evaluate_criteria
from vistasim.explore._guard import GuardedAgent, stop_for
from vistasim.explore._oversize import cut_text, cut_tool_call
from vistasim.explore._state import EpisodeState, fold
from vistasim.explore._watch import WatchedEnvironment, attach_changes
from vistasim.explore._web import WebChannel
from vistasim.llm import ToolSpec
from vistasim.llm._meter import ModelCall, collect_calls
from vistasim.scenario import Scenario
from vistasim.store._store import EpisodePlan, Store, blob_hash
from vistasim.user import environment_now
from vistasim.user._types import Action, CallApi, Finish, Say, UserPolicy, UserView


@dataclass(kw_only=True)
class Episode:
    """The live parts of one episode."""

    run_id: str
    plan: EpisodePlan
    scenario: Scenario
    store: Store
    policy: UserPolicy
    agent: GuardedAgent
    env: WatchedEnvironment | None
    """The episode's environment, recording every call with what it changed."""
    max_turns: int
    max_reply_bytes: int = 1_000_000
    """Replies and tool results over this are stored cut (`run.max_reply_bytes`)."""
    api_tools: tuple[ToolSpec, ...] = ()
    seed: int = 0
    web: WebChannel | None = None
    """The episode's page in `ui` and `hybrid` modes."""
    pending_blobs: list[bytes] = field(default_factory=list)
    """Blobs (screenshots) to store with the next snapshot."""
    agent_session: str | None = None
    """The conversation id the agent sees; default the episode id. A `replay` agent brought back
    into a fresh session of its own continues in that session."""
    replay_diverged: int | None = None
    """Set when a replayed agent answered a stored turn differently (the restore is not exact)."""
    agent_policy: str = ""
    """The written policy an LLM agent would be sent (the built-in domain's), for the token proxy
    of agents that report no requests of their own."""
    first_action: tuple[Action, JsonValue] | None = None
    """A DIVERT branch's injected action and the user state after it, played as its first turn."""

    @property
    def session_id(self) -> str:
        """The id the agent's turns carry."""
        return self.agent_session or self.plan.episode_id


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
    return _finish(ep, committed[0], stop, pending, calls)


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
        leaf = ep.store.append_events(
            ep.run_id, ep.plan.episode_id, state.leaf, _numbered(outcome.events, state.turn + 1),
            calls=calls, blobs=outcome.blobs,
        )  # fmt: skip
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
        outcome.stop = await _execute(ep, state, action, outcome.events)
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
    state = EpisodeState(
        leaf=root_id, turn=0, user_state=ep.policy.initial_state(ep.scenario, seed=ep.seed)
    )
    try:
        snapshot, blobs = await take_snapshot(ep, turn=0, user_state=state.user_state)
    except Exception as exc:
        return state, stop_for(exc, episode_id=ep.plan.episode_id)
    leaf = ep.store.append_events(
        ep.run_id, ep.plan.episode_id, root_id, [(0, snapshot)], blobs=blobs
    )
    return replace(state, leaf=leaf), None


async def _close_agent(ep: Episode, stop: Stop) -> Stop:
    # Closing is a hook of user code too: if it fails, an episode that ended well is a failure.
    try:
        await ep.agent.aclose()
    except Exception as exc:
        closing = stop_for(exc, episode_id=ep.plan.episode_id)
        return closing if stop.reason in _CLEAN_ENDS else stop
    return stop


_CLEAN_ENDS = (StopReason.GOAL_MET, StopReason.USER_STOP, StopReason.MAX_TURNS, StopReason.TIMEOUT)


async def _execute(
    ep: Episode, state: EpisodeState, action: Action, events: list[Event]
) -> Stop | None:
    match action:
        case Finish():
            return _finish_stop(action)
        case CallApi():
            outcome = await _call_api(ep, action)
            result, error = outcome.result, outcome.error
            seen = ep.env.take_calls("user") if ep.env is not None else []
            changes = seen[-1].changes if seen else None
            events.append(
                ApiCall(name=action.name, args=action.args, result=result, error=error,
                        changes=changes)
            )  # fmt: skip
        case Say():
            await _say(ep, state, action.text, events)
        case Click() | TypeText() | SelectOption() | Scroll() | Navigate() | Back():
            await _web_step(ep, action, events)
        case _:
            assert_never(action)
    return None


def _finish_stop(action: Finish) -> Stop:
    # An accepted refusal settles the request as far as the user is concerned: `goal_met`, with
    # a detail that tells it apart from a request carried out.
    if action.reason == "refused":
        return Stop(
            reason=StopReason.GOAL_MET, detail=f"accepted the agent's refusal: {action.text}"
        )
    reason = StopReason.GOAL_MET if action.reason == "goal_met" else StopReason.USER_STOP
    return Stop(reason=reason, detail=action.text)


async def _web_step(ep: Episode, step: WebStep, events: list[Event]) -> None:
    if ep.web is None:
        error = "there is no web page in this mode; chat or call an API instead"
        events.append(WebAction(action=step.kind, error=error))
        return
    # A built-in site's state is the environment's, so what the action changed is known.
    watched = ep.env if ep.env is not None and ep.web.site is not None else None
    before = watched.snapshot() if watched is not None else None
    result = await ep.web.act(step)
    changes = watched.changes_since(before) if watched is not None and before is not None else None
    screenshot = None
    if ep.web.screenshots:
        image = await ep.web.session.screenshot()
        screenshot = blob_hash(image)
        ep.pending_blobs.append(image)
    events.append(
        WebAction(
            action=step.kind,
            target=step.target if isinstance(step, Click | TypeText | SelectOption) else None,
            value=_step_value(step),
            enter=True if isinstance(step, TypeText) and step.enter else None,
            url=result.url,
            observation=result.summary,
            screenshot_ref=screenshot,
            error=result.error,
            changes=changes,
        )
    )


def _step_value(step: WebStep) -> str | None:
    match step:
        case TypeText(text=value) | SelectOption(value=value) | Navigate(url=value):
            return value
        case Scroll(direction=direction):
            return direction
        case Click() | Back():
            return None
        case _:
            assert_never(step)


async def _say(ep: Episode, state: EpisodeState, text: str, events: list[Event]) -> None:
    events.append(UserMessage(text=text, channel="widget" if ep.web is not None else "chat"))
    turn = Turn(episode_id=ep.session_id, message=text, history=state.transcript)
    if ep.env is not None:
        ep.env.take_calls("agent")  # calls of a replay during a restore are not this turn's
    started = anyio.current_time()
    reply = await ep.agent.respond(turn)
    latency = anyio.current_time() - started
    reported = list(reply.tool_calls)
    if ep.env is not None:
        reported = attach_changes(reported, ep.env.take_calls("agent"))
    # Cut before anything else sees it: a huge reply must not make every later turn slower.
    calls = [cut_tool_call(call, ep.max_reply_bytes) for call in reported]
    answer, oversized = cut_text(reply.text, ep.max_reply_bytes)
    events.extend(calls)
    requests, source = _requests(ep, state, text, calls, answer, reply)
    events.append(
        AgentReply(
            text=answer,
            latency_s=round(latency, 6),
            usage=reply.usage,
            oversized=oversized,
            requests=requests,
            requests_source=source,
        )
    )


def _requests(
    ep: Episode, state: EpisodeState, text: str, calls: list[ToolCall], answer: str, reply: Reply
) -> tuple[list[RequestDigest], Literal["metered", "proxy"] | None]:
    """The agent's requests for this turn: its own, else the labelled proxy.

    The proxy is what an LLM agent would have been sent, counted with the bundled tokenizer.
    """
    if reply.requests:
        return list(reply.requests), "metered"
    if reply.usage is not None or ep.env is None:
        return [], None
    try:
        tools = ep.env.agent_tools()
        made = proxy_requests(
            policy=ep.agent_policy, tools=tools, past=state.turns, message=text,
            tool_calls=calls, reply=answer,
        )  # fmt: skip
    except MissingExtraError:  # no tokenizer installed: no proxy, said so in the metrics
        return [], None
    return made, "proxy"


async def _call_api(ep: Episode, action: CallApi) -> ToolOutcome:
    allowed = {tool.name for tool in ep.api_tools}
    if ep.env is None or action.name not in allowed:
        return ToolOutcome(error=f"API {action.name!r} is not available in this run")
    return await ep.env.call_user_api(action.name, action.args)


async def take_snapshot(
    ep: Episode, *, turn: int, user_state: JsonValue
) -> tuple[Snapshot, list[bytes]]:
    """The state before user turn `turn`, with the blobs it references."""
    blobs, ep.pending_blobs = ep.pending_blobs, []
    env_ref = agent_ref = browser_ref = None
    # Page text, the widget transcript, the agent's messages and the environment's records may
    # all quote a secret: each state is stored masked, and a restore fills the secrets back in.
    if ep.web is not None:
        blobs.append(ep.store.mask_state(await ep.web.snapshot()))
        browser_ref = blob_hash(blobs[-1])
    if ep.env is not None:
        blobs.append(ep.store.mask_state(ep.env.snapshot()))
        env_ref = blob_hash(blobs[-1])
    if ep.agent.restore_strategy == "state":
        blobs.append(ep.store.mask_state(ep.agent.snapshot_bytes()))
        agent_ref = blob_hash(blobs[-1])
    snapshot = Snapshot(
        turn=turn,
        user_state=user_state,
        env_state_ref=env_ref,
        agent_state_ref=agent_ref,
        browser_state_ref=browser_ref,
    )
    return snapshot, blobs


def _finish(
    ep: Episode, state: EpisodeState, stop: Stop, pending: list[Event], calls: list[ModelCall]
) -> Stop:
    events = list(pending)
    if stop.reason != StopReason.INFRA_ERROR:
        try:
            events.append(_judge(ep, fold(state, pending), stop))
        except EnvError as exc:  # the environment's state query is user code too
            stop = Stop(reason=StopReason.INFRA_ERROR, detail=str(exc))
    errored = stop.reason == StopReason.INFRA_ERROR
    events.append(stop)
    ep.store.append_events(
        ep.run_id, ep.plan.episode_id, state.leaf, _numbered(events, state.turn + 1),
        calls=calls, status="errored" if errored else "done", stop_reason=stop.reason.value,
    )  # fmt: skip
    return stop


def _judge(ep: Episode, state: EpisodeState, stop: Stop) -> Event:
    agent_texts = [u.text for u in state.transcript if u.role == "agent"]
    own_judgment = getattr(ep.env, "episode_judgment", None)
    if callable(own_judgment):  # an environment that grades as its benchmark does (tau2)
        judged: Event = own_judgment(stop=stop.reason.value, agent_texts=agent_texts)
        return judged
    return evaluate_criteria(
        ep.scenario.criteria,
        tool_calls=list(state.tool_calls),
        agent_texts=agent_texts,
        env=ep.env,
        mode=ep.plan.mode,
    )


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
