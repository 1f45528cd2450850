"""Grade an episode against its scenario's success criteria, with no code from the scenario run.

Each check becomes one entry of a `Judgment(judge="criteria")`: what was checked, whether it held,
and why not. Metrics read these entries as failures; reports show them as evidence.

A DIVERT branch whose user called the change off (it hesitated and left it there) is judged by
what it wanted then: the change must not happen. Its required actions that change the
environment must not be taken, its forbidden ones still not; the end state and statements the
criteria ask for belonged to the change it called off and are not checked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from pydantic import JsonValue

from vistasim.env._types import Environment
from vistasim.events import Judgment, ToolCall
from vistasim.scenario import (
    ActionCriterion,
    Criteria,
    StateCriterion,
    StatementCriterion,
    describe_criterion,
)

__all__ = ["evaluate_criteria"]


def evaluate_criteria(
    criteria: Criteria,
    *,
    tool_calls: Sequence[ToolCall],
    agent_texts: Sequence[str],
    env: Environment | None,
    mode: str = "chat",
    called_off: bool = False,
) -> Judgment:
    """Check the criteria against the episode's tool calls, agent messages and end state.

    Checks whose `modes` exclude the run's mode are left out (a required agent action does not
    apply when the user may do the thing on the site). `called_off`: the user called the change
    off; it must not happen (see the module).
    """

    def applies(criterion: StateCriterion | ActionCriterion | StatementCriterion) -> bool:
        return criterion.modes is None or mode in criterion.modes

    if called_off:
        return _judge_called_off(criteria, tool_calls, applies)

    checks: list[dict[str, JsonValue]] = []
    checks += [_check_state(c, env) for c in criteria.state if applies(c)]
    checks += [_check_action(c, tool_calls, required=True) for c in criteria.actions if applies(c)]
    checks += [
        _check_action(c, tool_calls, required=False)
        for c in criteria.forbidden_actions
        if applies(c)
    ]
    checks += [_check_statement(c, agent_texts) for c in criteria.statements if applies(c)]
    return _judgment(checks)


def _judgment(checks: list[dict[str, JsonValue]]) -> Judgment:
    failed = [c for c in checks if not c["passed"]]
    reason = "; ".join(str(c["detail"]) for c in failed)
    return Judgment(judge="criteria", passed=not failed, checks=checks, reason=reason)


def _check_state(criterion: StateCriterion, env: Environment | None) -> dict[str, JsonValue]:
    label = f"state {criterion.table} where {_fmt(criterion.where)}"
    if env is None:
        return _result(label, False, "no environment to check the end state against")
    try:
        rows = env.select(criterion.table, dict(criterion.where))
    except KeyError as exc:
        return _result(label, False, f"cannot check: {exc.args[0]}")
    if criterion.count is not None and len(rows) != criterion.count:
        return _result(label, False, f"expected {criterion.count} row(s), found {len(rows)}")
    if criterion.count is None and not rows:
        return _result(label, False, "no row matches")
    for row in rows:
        wrong = {k: row.get(k) for k, v in criterion.expect.items() if row.get(k) != v}
        if wrong:
            return _result(
                f"{label} expect {_fmt(criterion.expect)}", False, f"found {_fmt(wrong)}"
            )
    return _result(f"{label} expect {_fmt(criterion.expect)}", True, "")


def _judge_called_off(
    criteria: Criteria,
    tool_calls: Sequence[ToolCall],
    applies: Callable[[ActionCriterion], bool],
) -> Judgment:
    writes = [call for call in tool_calls if call.changes]  # what the environment saw change
    checks = [
        _check_action(c, writes, required=False, label=f"{describe_criterion(c)} (called off)")
        for c in criteria.actions
        if applies(c)
    ]
    checks += [
        _check_action(c, tool_calls, required=False)
        for c in criteria.forbidden_actions
        if applies(c)
    ]
    return _judgment(checks)


def _check_action(
    criterion: ActionCriterion,
    tool_calls: Sequence[ToolCall],
    *,
    required: bool,
    label: str | None = None,
) -> dict[str, JsonValue]:
    label = label or describe_criterion(criterion, forbidden=not required)
    made = any(
        call.name == criterion.tool and call.error is None and _args_match(criterion, call.args)
        for call in tool_calls
    )
    if made == required:
        return _result(label, True, "")
    detail = "not taken" if required else "taken"
    return _result(label, False, f"{label} {detail}")


def _args_match(criterion: ActionCriterion, args: dict[str, JsonValue]) -> bool:
    expected = {k: _canon(v) for k, v in criterion.args.items()}
    actual = {k: _canon(v) for k, v in args.items()}
    if criterion.match == "exact":
        return expected == actual
    return all(actual.get(k) == v for k, v in expected.items())


def _check_statement(
    criterion: StatementCriterion, agent_texts: Sequence[str]
) -> dict[str, JsonValue]:
    said = [text.lower() for text in agent_texts]
    missing_all = [p for p in criterion.contains_all if not any(p.lower() in t for t in said)]
    any_ok = not criterion.contains_any or any(
        p.lower() in t for p in criterion.contains_any for t in said
    )
    forbidden = [p for p in criterion.contains_none if any(p.lower() in t for t in said)]
    label = describe_criterion(criterion)
    problems = []
    if missing_all:
        problems.append(f"agent never said {missing_all}")
    elif not any_ok:
        problems.append(f"agent never said any of {criterion.contains_any}")
    if forbidden:
        problems.append(f"agent said {forbidden}")
    return _result(label, not problems, "; ".join(problems))


def _canon(value: object) -> str:
    # Scenario files write `W1007` and `1007` alike; compare canonical text, case-insensitively.
    if isinstance(value, str):
        return value.strip().lower()
    return json.dumps(value, sort_keys=True).lower()


def _fmt(mapping: Mapping[str, object]) -> str:
    return ", ".join(f"{k}={v}" for k, v in mapping.items())


def _result(check: str, passed: bool, detail: str) -> dict[str, JsonValue]:
    return {"check": check, "passed": passed, "detail": detail}
