"""Scenario checks that need the run's environment, made before anything is recorded.

A criterion that names a tool the environment does not have can never hold, and a `state`
check without an environment has nothing to read: both would fail every episode and be counted
against the agent. They are mistakes in the scenario file, so they are reported as such, with
the scenario id and the field, before the run starts.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from vistasim.errors import ConfigError
from vistasim.scenario import Scenario

__all__ = ["check_criteria"]


def check_criteria(
    scenarios: Sequence[Scenario], *, tools: Sequence[str] | None, source: str | None = None
) -> None:
    """Raise `ConfigError` for criteria the environment cannot satisfy.

    Args:
        scenarios: The run's scenarios.
        tools: The environment's agent tool names; `None` when the run has no environment.
        source: The scenario file, for the error message.
    """
    problems: list[str] = []
    for scenario in scenarios:
        criteria = scenario.criteria
        if tools is None and criteria.state:
            problems.append(
                f"{scenario.id}.criteria.state: the run has no environment to check the end"
                " state against; set [environment] target or remove the state checks"
            )
        if tools is None:
            continue
        for field, checks in (
            ("actions", criteria.actions),
            ("forbidden_actions", criteria.forbidden_actions),
        ):
            for index, check in enumerate(checks):
                if check.tool not in tools:
                    problems.append(_unknown_tool(scenario.id, field, index, check.tool, tools))
    if problems:
        shown = "; ".join(problems[:5]) + (
            f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        )
        raise ConfigError(shown, path=source)


def _unknown_tool(scenario_id: str, field: str, index: int, tool: str, tools: Sequence[str]) -> str:
    close = difflib.get_close_matches(tool, tools, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"the agent's tools are {sorted(tools)}"
    return f"{scenario_id}.criteria.{field}[{index}].tool: no agent tool {tool!r}; {hint}"
