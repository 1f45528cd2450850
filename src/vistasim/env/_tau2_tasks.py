"""tau2 tasks as vistasim scenarios: the user's instructions, what it knows, how it is graded.

A task's id may hold characters a scenario id may not (telecom's `[mobile_data_issue]...|...`),
so the scenario id is `<domain>-<task id with those replaced>` and `task_id_of` maps it back.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pydantic import ValidationError

from vistasim.env._tau2_load import domain_name, tasks
from vistasim.scenario import (
    ActionCriterion,
    Criteria,
    Limits,
    Persona,
    Scenario,
    StatementCriterion,
)

_UNSAFE = re.compile(r"[^A-Za-z0-9_.:-]+")
MAX_TURNS = 30
"""tau2 stops a simulation at 200 steps (agent and user messages and tool calls); 30 user
turns is more than any of its June-2025 tasks takes."""


def scenario_id(domain: str, task_id: str) -> str:
    """The scenario id of a task (at most 128 characters, only the allowed ones)."""
    return f"{domain}-{_UNSAFE.sub('_', task_id).strip('_')}"[:128]


@cache
def _ids(domain: str) -> dict[str, str]:
    return {scenario_id(domain, task_id): task_id for task_id in tasks(domain)}


def task_id_of(domain: str, scenario: str) -> str | None:
    """The task a scenario id of `tau2_scenarios(domain)` stands for (None: not one of them)."""
    return _ids(domain_name(domain)).get(scenario)


def tau2_scenarios(target: str) -> list[Scenario]:
    """Every task of a tau2 domain (`tau2:airline`, or `airline`) as a scenario."""
    domain = domain_name(target)
    return [task_scenario(domain, task) for task in tasks(domain).values()]


def task_scenario(domain: str, task: Any) -> Scenario:
    """One tau2 task as a scenario: its instructions become the goal the LLM user plays."""
    instructions = task.user_scenario.instructions
    if isinstance(instructions, str):
        goal, known, unknown = instructions, "", ""
    else:
        goal = f"{instructions.reason_for_call}\n\n{instructions.task_instructions}".strip()
        known, unknown = instructions.known_info or "", instructions.unknown_info or ""
    persona = task.user_scenario.persona or ""
    profile = "\n\n".join(p for p in (persona, _unknown(unknown)) if p)
    return Scenario(
        id=scenario_id(domain, task.id),
        persona=Persona(name=_name(known), profile=profile),
        goal=goal,
        knowledge={"known_info": known} if known else {},
        criteria=_criteria(task.evaluation_criteria),
        limits=Limits(max_turns=MAX_TURNS),
        tags=["tau2", f"tau2:{domain}"],
    )


def _unknown(text: str) -> str:
    return f"What you do not know: {text}" if text else ""


def _name(known: str) -> str:
    found = re.search(r"You are ([^.\n]+)[.\n]", known)
    return found.group(1).strip() if found else "the customer"


def _criteria(evaluation: Any) -> Criteria:
    """Our criteria mirroring tau2's gold actions and communicated information, for reports.

    The tau2 reward itself comes from `tau2_reward`.
    """
    if evaluation is None:
        return Criteria()
    actions = []
    for action in evaluation.actions or []:
        if action.requestor != "assistant":
            continue
        compared = action.compare_args
        args = {k: v for k, v in action.arguments.items() if compared is None or k in compared}
        try:
            actions.append(ActionCriterion(tool=action.name, args=args))
        except ValidationError:  # nested arguments: kept by tool name alone
            actions.append(ActionCriterion(tool=action.name))
    statements = [
        StatementCriterion(contains_all=[info]) for info in evaluation.communicate_info or []
    ]
    return Criteria(actions=actions, statements=statements)
