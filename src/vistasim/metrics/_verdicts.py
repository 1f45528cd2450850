"""Judge every episode of a run once: agent failures, user checks, and the outcome they give.

Detectors (`_failures`, `_behaviour`, `_claims`, `_duties`, `_quotes`, `_partial`,
`_limits`, `_disclosure`) say what the agent did wrong; user checks (`_validity`) say where the
simulated user went wrong;
`_outcome.classify` turns both and the criteria verdict into one outcome per episode. Success,
pass^k and the failure catalogue all read this one `RunFindings`, so they never disagree about an
episode.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from vistasim.metrics._behaviour import BehaviourSpec, detect_behaviour
from vistasim.metrics._claims import detect_claims
from vistasim.metrics._disclosure import DisclosureRule, detect_disclosure
from vistasim.metrics._duties import detect_duties
from vistasim.metrics._failures import Failure, PolicyRule, detect_failures
from vistasim.metrics._limits import detect_limits
from vistasim.metrics._outcome import CAUSE_KINDS, Verdict, classify, is_errored
from vistasim.metrics._partial import detect_partial
from vistasim.metrics._quotes import detect_quotes
from vistasim.metrics._secrets_shown import detect_secrets
from vistasim.metrics._validity import UserFinding, check_user
from vistasim.metrics._writes import WriteTools
from vistasim.store import RunView
from vistasim.values import iter_strings

__all__ = ["RunFindings", "find_all"]


@dataclass(frozen=True, kw_only=True)
class RunFindings:
    """What the detectors and user checks found in a run, and each episode's verdict."""

    failures: tuple[Failure, ...]
    """Agent-failure findings of every episode that was not errored (any outcome)."""
    user: tuple[UserFinding, ...]
    """Findings of the checks of the simulated user's behaviour."""
    verdicts: dict[str, Verdict]
    """Episode id -> outcome and why."""

    def of_failed_episodes(self) -> list[Failure]:
        """The findings that count as agent failures: those of `failed` episodes."""
        return [f for f in self.failures if self.verdicts[f.episode_id].outcome == "failed"]


def find_all(
    run: RunView,
    *,
    rules: Sequence[PolicyRule] = (),
    behaviour: BehaviourSpec | None = None,
    disclosure: Sequence[DisclosureRule] = (),
    judged: Sequence[Failure] = (),
    only: Collection[str] | None = None,
) -> RunFindings:
    """Run every detector and user check over a run and classify each episode.

    `judged`: findings an LLM judge made with evidence (the policy judge's), counted like the
    detectors' own. `only`: judge these episodes alone (what the tools write is still learnt
    from the whole run), as an explorer does after each wave.
    """
    spec = BehaviourSpec() if behaviour is None else behaviour
    events = (s.event for e in run.episodes for s in e.events)
    writes = WriteTools.from_events(events, listed=spec.write_tools)
    if only is not None:
        run = replace(run, episodes=tuple(e for e in run.episodes if e.episode_id in only))
    errored = {e.episode_id for e in run.episodes if is_errored(e)}
    failures = [
        *detect_failures(run, rules, recovered_errors=True),
        *detect_behaviour(run, spec, writes=writes),
        *(f for f in judged if f.episode_id not in errored),
    ]
    user: list[UserFinding] = []
    tools = run.agent_tools or ()
    injected = _injected_texts(run)
    today = _environment_day(run)
    recorded = run.metadata.get("agent_tool_params")
    params = (
        {str(k): [str(p) for p in v] for k, v in recorded.items() if isinstance(v, list)}
        if isinstance(recorded, dict)
        else {}
    )
    described = run.metadata.get("agent_tool_descriptions")
    descriptions = (
        {str(k): str(v) for k, v in described.items()} if isinstance(described, dict) else {}
    )
    for episode in run.episodes:
        if is_errored(episode):
            continue
        failures += detect_claims(episode, writes=writes, tool_names=tools, today=today)
        failures += detect_duties(
            episode, writes=writes, tool_names=tools, descriptions=descriptions
        )
        failures += detect_disclosure(episode, disclosure, tool_names=tools)
        failures += detect_secrets(episode, writes=writes)
        failures += detect_quotes(episode)
        failures += detect_partial(episode, writes=writes, params=params)
        failures += detect_limits(episode, writes=writes)
        scenario = run.scenarios.get(episode.scenario_id)
        user += check_user(
            episode, scenario, writes=writes, injected=injected.get(episode.episode_id, ())
        )
    failures = [f for f in failures if _after_fork(run, f.episode_id, f.event_ids)]
    user = [f for f in user if _after_fork(run, f.episode_id, f.event_ids)]
    causes: dict[str, list[str]] = defaultdict(list)
    for failure in failures:
        if failure.kind in CAUSE_KINDS:
            causes[failure.episode_id].append(failure.description)
    decisive: dict[str, list[str]] = defaultdict(list)
    for finding in user:
        if finding.decisive:
            decisive[finding.episode_id].append(finding.description)
    verdicts = {
        e.episode_id: classify(
            e, cause_labels=causes[e.episode_id], decisive_user=decisive[e.episode_id]
        )
        for e in run.episodes
    }
    return RunFindings(failures=tuple(failures), user=tuple(user), verdicts=verdicts)


def _environment_day(run: RunView) -> date | None:
    """The day of the environment's clock, as the run recorded it at its start."""
    recorded = run.metadata.get("environment_now")
    try:
        return datetime.fromisoformat(recorded).date() if isinstance(recorded, str) else None
    except ValueError:
        return None


def _injected_texts(run: RunView) -> dict[str, tuple[str, ...]]:
    """Per episode, the texts of the turns branching injected into its path (its and its parents').

    What an injected turn says was planned by the explorer, as a scripted behaviour is.
    """
    own: dict[str, tuple[str, ...]] = {
        b.episode_id: tuple(iter_strings(b.injected.get("action"))) for b in run.branches
    }
    parents = {b.episode_id: b.parent_episode_id for b in run.branches}
    paths: dict[str, tuple[str, ...]] = {}
    for episode_id in own:
        texts: list[str] = []
        current: str | None = episode_id
        while current is not None and current in own:
            texts += own[current]
            current = parents.get(current)
        paths[episode_id] = tuple(texts)
    return paths


def _after_fork(run: RunView, episode_id: str, event_ids: Sequence[int]) -> bool:
    """Whether a finding is the episode's own: a branch's needs evidence after its fork.

    What a branch's prefix shows was found in its parent already; counting it again would
    credit the branch with its parent's failures.
    """
    episode = run.episode(episode_id)
    if episode is None or episode.fork_event_id is None or not event_ids:
        return True
    return episode.own(event_ids)
