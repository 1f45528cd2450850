"""Play one episode of a run: open its live parts, start or resume it, play it, record how it ended.

`Runner` holds what every episode of a run shares (store, settings, the built parts, the browser
pool). `open_episode` builds one episode's environment, agent and page and closes them after;
`play_one` plays a pending episode (a new rollout, or one a crash left behind, a queued branch
included); `play_from` plays on from a state the caller brought the episode to (a new branch).
Whatever breaks (the page, the environment, the stored path) costs one episode, recorded
`errored` with why, never the run.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

import anyio
from pydantic import JsonValue

from vistasim.config import RunConfig
from vistasim.env import Environment
from vistasim.errors import BrowserError, EnvError, StoreError
from vistasim.events import Stop, StopReason
from vistasim.explore._episode import Episode, play, start
from vistasim.explore._guard import GuardedAgent, leaf_errors
from vistasim.explore._resume import fork_divergence, resume
from vistasim.explore._settings import RunSettings
from vistasim.explore._setup import Parts
from vistasim.explore._state import EpisodeState
from vistasim.explore._watch import WatchedEnvironment
from vistasim.explore._web import EpisodeAgent, WebChannel, web_channel
from vistasim.llm import ToolSpec
from vistasim.scenario import Scenario
from vistasim.store import EpisodePlan, Store, StoredEvent

if TYPE_CHECKING:
    from vistasim.browser import BrowserPool

__all__ = [
    "BranchPlayer",
    "Runner",
    "converged",
    "finish_branch",
    "finish_ended_branches",
    "open_episode",
    "play_from",
    "play_one",
    "record_stop",
]


class BranchPlayer(Protocol):
    """Plays recorded DIVERT branches elsewhere than in this process (the Ray workers)."""

    async def play_branch(self, plan: EpisodePlan, injected: dict[str, JsonValue]) -> str:
        """Restore a recorded branch at its fork, play `injected` first, then on to its end.

        The branch is finished (done, converged, diverged) as `play_from` finishes one here;
        returns its stop reason.
        """
        ...


logger = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class Runner:
    """What playing any episode of a run needs, built once per run."""

    db: Store
    run_id: str
    config: RunConfig
    """The agent and web specs the agent and page openers read."""
    settings: RunSettings
    parts: Parts
    pool: BrowserPool | None
    """The browser pool of `ui`/`hybrid` runs, else `None`."""
    roots: dict[str, tuple[int, Scenario]]
    """Each scenario's root event and scenario, by scenario id."""
    branch_player: BranchPlayer | None = None
    """Where new branches play once recorded (`None`: here, in the episode that grew them)."""


async def play_one(run: Runner, plan: EpisodePlan) -> str:
    """Play a pending episode to its end; return its stop reason."""
    root_id, scenario = run.roots[plan.scenario_id]
    unplayable = _unplayable(run.parts.policy, scenario)
    if unplayable is not None and plan.leaf_event_id is None:
        return record_stop(run, plan, StopReason.NOT_APPLICABLE, unplayable)

    async def body() -> str:
        async with open_episode(run, plan, scenario) as ep:
            if plan.leaf_event_id is None:
                state, stop = await start(ep, root_id)
            else:
                if plan.branch_of is not None and plan.leaf_event_id == plan.fork_event_id:
                    _inject(run.db, ep, plan)
                state, stop = await resume(ep, plan.leaf_event_id)
                if plan.branch_of is not None:
                    run.db.count_restores(plan.episode_id, ep.restores)
            return await play_from(run, ep, state, stop)

    return await guarded(run, plan, body)


async def play_from(run: Runner, ep: Episode, state: EpisodeState, stop: Stop | None) -> str:
    """Play `ep` on from `state` to its end (a branch is then marked done or converged)."""
    stop = await play(ep, state, timeout_s=run.settings.timeout_s, stop=stop)
    if ep.plan.branch_of is not None:
        finish_branch(run.db, ep.plan.episode_id)
    return stop.reason.value


async def guarded(run: Runner, plan: EpisodePlan, body: Callable[[], Awaitable[str]]) -> str:
    """Run `body`; a page, environment or store failure ends `plan` errored, with why."""
    try:
        return await body()
    except (BrowserError, EnvError, StoreError) as exc:
        return record_stop(run, plan, StopReason.INFRA_ERROR, str(exc))
    except ExceptionGroup as group:
        # The built-in site is served in a task group, which wraps what the episode raised.
        browser, others = group.split(BrowserError)
        if browser is None or others is not None:
            raise
        return record_stop(run, plan, StopReason.INFRA_ERROR, str(leaf_errors(browser)[0]))


@asynccontextmanager
async def open_episode(
    run: Runner, plan: EpisodePlan, scenario: Scenario
) -> AsyncIterator[Episode]:
    """The live parts of one episode (environment, agent, page), closed on exit.

    Raises:
        EnvError: the environment could not be built.
    """
    parts, settings = run.parts, run.settings
    made = parts.make_env() if parts.make_env is not None else None
    start_scenario = getattr(made, "start_scenario", None)
    if callable(start_scenario):
        start_scenario(scenario)  # an environment whose initial state is the scenario's (tau2)
    env = WatchedEnvironment(made) if made is not None else None
    async with _agent_and_page(run, env, plan.episode_id) as (agent, web):
        yield Episode(
            run_id=run.run_id,
            plan=plan,
            scenario=scenario,
            store=run.db,
            policy=parts.policy,
            agent=agent,
            env=env,
            max_turns=settings.turns_for(scenario),
            max_reply_bytes=settings.max_reply_bytes,
            api_tools=_api_tools(settings, env),
            seed=settings.seed_for(scenario.id, plan.rollout),
            web=web,
            agent_policy=parts.agent_policy,
            perturb=settings.perturb,
            judge=parts.models.get("judge"),
        )


def _inject(db: Store, ep: Episode, plan: EpisodePlan) -> None:
    """A queued branch plays its recorded action first (when resumed after a crash)."""
    from vistasim.user import action_from_json  # the agenda user's operations: branches only

    injected = db.branch(plan.episode_id).injected
    ep.first_action = (action_from_json(injected["action"]), injected.get("user_state"))
    db.set_branch_status(plan.episode_id, "playing")


def finish_branch(db: Store, episode_id: str) -> None:
    """Mark a played branch diverged (its replayed agent answered otherwise), converged or done.

    Decided from what is stored (the note of the replay at its fork, the paths), so a branch
    finished after a resume, or on a worker, is marked as it would be here uninterrupted.
    """
    branch = db.branch(episode_id)
    mine = db.episode(branch.episode_id)
    parent = db.episode(branch.parent_episode_id)
    if mine.leaf_event_id is None or parent.leaf_event_id is None:
        return
    path = db.read_path(mine.leaf_event_id)
    diverged = fork_divergence(path, branch.fork_event_id)
    if diverged is not None:
        detail = f"the replayed agent answered turn {diverged} differently"
        db.set_branch_status(branch.episode_id, "diverged", detail=detail)
        return
    if converged(db.read_path(parent.leaf_event_id), path, branch.fork_event_id):
        detail = "the agent made the same tool calls and the episode ended the same way"
        db.set_branch_status(branch.episode_id, "converged", detail=detail)
    else:
        db.set_branch_status(branch.episode_id, "done")


def finish_ended_branches(db: Store, run_id: str) -> None:
    """Finish the branches whose episode ended but which a killed run left `queued`/`playing`.

    The episode's last turn and the branch's status are two writes: a run killed between them
    is resumed with nothing left to play for that branch, so it is finished here (a branch
    ended by an infrastructure error stays `playing`, as it does uninterrupted).
    """
    for branch in db.list_branches(run_id):
        unfinished = branch.status in ("queued", "playing")
        if unfinished and db.episode(branch.episode_id).status == "done":
            finish_branch(db, branch.episode_id)


def converged(parent: list[StoredEvent], branch: list[StoredEvent], fork_id: int) -> bool:
    """Whether a branch's continuation is its parent's (see `_junctions.continuation`)."""
    from vistasim.explore._junctions import continuation

    return continuation(parent, fork_id) == continuation(branch, fork_id)


@asynccontextmanager
async def _agent_and_page(
    run: Runner, env: WatchedEnvironment | None, episode_id: str
) -> AsyncIterator[tuple[GuardedAgent, WebChannel | None]]:
    parts = run.parts
    if run.pool is None:
        assert parts.make_agent is not None  # build_parts requires an agent outside web modes
        agent = parts.make_agent(env)
        try:
            yield agent, None
        finally:
            await _close_quietly(agent)
        return

    # The built-in site names its own sessions; the agent behind it still serves this episode.
    make = parts.make_agent

    def site_agent() -> EpisodeAgent:
        assert make is not None
        return EpisodeAgent(make(env), episode_id=episode_id)

    backend = None if make is None else site_agent
    # The site's own routes act on the unwatched environment: what a web action changes is the
    # user's doing (measured around the action), never a call of the agent's.
    site_env = env.inner if env is not None else None
    async with web_channel(run.config, run.pool, site_env, backend) as (web, widget):
        agent = GuardedAgent(widget, name="the chat widget")
        try:
            yield agent, web
        finally:
            await _close_quietly(agent)


async def _close_quietly(agent: GuardedAgent) -> None:
    # The episode closes its agent and records a failure; this only covers an early exit.
    with anyio.CancelScope(shield=True):
        try:
            await agent.aclose()
        except Exception:
            logger.warning("closing the agent failed after its episode ended", exc_info=True)


def _api_tools(settings: RunSettings, env: Environment | None) -> tuple[ToolSpec, ...]:
    if env is None or settings.mode not in ("api", "hybrid"):
        return ()
    return tuple(env.user_tools())


def record_stop(run: Runner, plan: EpisodePlan, reason: StopReason, detail: str) -> str:
    """End an episode that could not be played (or finish) with `reason`; return it."""
    db, run_id = run.db, run.run_id
    current = db.episode(plan.episode_id)
    stop = Stop(reason=reason, detail=detail)
    status: Literal["errored", "done"] = "errored" if reason is StopReason.INFRA_ERROR else "done"
    parent = current.leaf_event_id or run.roots[plan.scenario_id][0]
    db.append_events(
        run_id, plan.episode_id, parent, [(plan.turns, stop)],
        status=status, stop_reason=stop.reason.value,
    )  # fmt: skip
    return stop.reason.value


def _unplayable(policy: object, scenario: Scenario) -> str | None:
    """Why the run's user policy cannot play a scenario, decided before play (or `None`)."""
    check = getattr(policy, "unplayable", None)
    return check(scenario) if callable(check) else None
