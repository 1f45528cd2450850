"""A tau2-bench domain as a vistasim environment (`environment.target = "tau2:airline"`).

The tools are tau2's own, run on tau2's own database objects, so a call does exactly what it
does in tau2. The environment keeps the calls it ran (agent's and user's, in order): tau2 grades
actions on them. An episode's task is set by `start_scenario` (the explorer calls it with the
scenario it plays) or `start_task`: it applies the task's initial state as tau2 does.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import JsonValue

from vistasim.env._tau2_load import domain_name, fresh_environment, tasks, tool_call
from vistasim.env._types import ToolOutcome
from vistasim.events import Judgment, StateChange
from vistasim.llm import ToolSpec
from vistasim.scenario import Scalar, Scenario

Requestor = Literal["assistant", "user"]


@dataclass(frozen=True)
class Tau2Call:
    """One tool call the environment ran, as tau2's evaluator sees it."""

    name: str
    arguments: dict[str, JsonValue]
    requestor: Requestor


class Tau2Environment:
    """A tau2 domain's state and tools (agent's, and the user's for telecom's dual control)."""

    def __init__(self, domain: str, task_id: str | None = None) -> None:
        self.domain = domain_name(domain)
        self._env = fresh_environment(self.domain)
        self.calls: list[Tau2Call] = []
        """Every call run so far, in order (both sides)."""
        self.task_id: str | None = None
        if task_id is not None:
            self.start_task(task_id)

    def start_task(self, task_id: str) -> None:
        """Apply the task's initial state (data, actions, message history) as tau2 does."""
        task = tasks(self.domain)[task_id]
        state = task.initial_state
        self.task_id = task_id
        if state is None:
            return
        self._env.set_state(
            initialization_data=state.initialization_data,
            initialization_actions=state.initialization_actions,
            message_history=state.message_history or [],
        )

    def start_scenario(self, scenario: Scenario) -> None:
        """Start the task a scenario from `tau2_scenarios` stands for (others: nothing)."""
        from vistasim.env._tau2_tasks import task_id_of

        task_id = task_id_of(self.domain, scenario.id)
        if task_id is not None:
            self.start_task(task_id)

    def policy(self) -> str:
        """The domain's written policy: the LLM agent's system prompt in tau2."""
        text: str = self._env.get_policy()
        return text

    def agent_tools(self) -> list[ToolSpec]:
        """tau2's agent tools with their JSON schemas."""
        return [_spec(tool) for tool in self._env.get_tools()]

    def user_tools(self) -> list[ToolSpec]:
        """tau2's user tools (telecom's phone); none in the other domains."""
        if self._env.user_tools is None:
            return []
        return [_spec(tool) for tool in self._env.get_user_tools()]

    async def call_tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run an agent tool as tau2 runs it."""
        return self.run("assistant", name, args)

    async def call_user_api(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run a user tool as tau2 runs it."""
        return self.run("user", name, args)

    def run(self, requestor: Requestor, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Run one call through tau2's `get_response` (errors come back as its `Error: ...`)."""
        self.calls.append(Tau2Call(name=name, arguments=dict(args), requestor=requestor))
        message = self._env.get_response(tool_call(name, dict(args), requestor))
        content: str = message.content
        if message.error:
            return ToolOutcome(error=content)
        try:
            result: JsonValue = json.loads(content)
        except json.JSONDecodeError:
            result = content
        return ToolOutcome(result=result)

    def replay_gold(self, name: str, args: dict[str, JsonValue], requestor: Requestor) -> None:
        """Apply a gold action as tau2's grader does: unrecorded, a raising one skipped."""
        try:
            self._env.make_tool_call(name, requestor=requestor, **args)
        except Exception:  # noqa: BLE001 - tau2 logs and skips a gold action that raises
            return

    def is_write(self, name: str) -> bool:
        """Whether tau2 declares the agent tool `name` a write."""
        kit = self._env.tools
        return kit is not None and kit.has_tool(name) and kit.tool_type(name).value == "write"

    def db_hashes(self) -> tuple[str | None, str | None]:
        """tau2's hashes of the agent's and the user's databases."""
        return self._env.get_db_hash(), self._env.get_user_db_hash()

    def run_env_assertion(self, assertion: Any) -> bool:
        """Run one of a task's env assertions on this state; one that raises is not met.

        tau2's evaluator lets such an exception (an id the state lacks) end the grading; an
        episode whose state cannot even be asked has not met the assertion.
        """
        try:
            met: bool = self._env.run_env_assertion(assertion, raise_assertion_error=False)
        except Exception:  # noqa: BLE001 - tau2's domain functions raise what they like
            return False
        return met

    def select(self, table: str, where: dict[str, Scalar]) -> list[dict[str, JsonValue]]:
        """Records of one top-level collection of the agent's database matching `where`."""
        data = self._env.tools.db.model_dump(mode="json").get(table, {})
        rows = list(data.values()) if isinstance(data, dict) else list(data)
        return [
            row
            for row in rows
            if isinstance(row, dict) and all(row.get(k) == v for k, v in where.items())
        ]

    def snapshot(self) -> bytes:
        """The whole state: tau2's environment and the calls run so far."""
        return pickle.dumps((self._env, self.calls, self.task_id))

    def restore(self, state: bytes) -> None:
        """Bring the state back to a `snapshot()` without rebuilding the database."""
        self._env, calls, self.task_id = pickle.loads(state)  # noqa: S301 - our own bytes
        self.calls = list(calls)

    def diff_state(self, before: bytes, after: bytes) -> list[StateChange]:
        """One change per database that differs (the call log alone is not a change)."""
        old, new = pickle.loads(before)[0], pickle.loads(after)[0]  # noqa: S301 - our own bytes
        changes = []
        for side, kit in (("agent", "tools"), ("user", "user_tools")):
            old_kit, new_kit = getattr(old, kit), getattr(new, kit)
            if old_kit is not None and old_kit.db != new_kit.db:
                changes.append(StateChange(table=f"{side}_db"))
        return changes

    def episode_judgment(
        self,
        *,
        stop: str,
        agent_texts: list[str],
        assertion_verdicts: Sequence[bool] | None = None,
    ) -> Judgment:
        """The episode's criteria judgment: tau2's reward on this environment's calls and state.

        `assertion_verdicts` are the judge's, one per `natural_language_assertions()`.
        """
        from vistasim.env._tau2_grade import tau2_judgment

        return tau2_judgment(self, agent_texts, stop=stop, assertion_verdicts=assertion_verdicts)

    def natural_language_assertions(self) -> list[str]:
        """What a judge must confirm of the conversation for the task's reward (often none)."""
        from vistasim.env._tau2_grade import nl_assertions

        return nl_assertions(self)

    def lexicon(self) -> dict[str, list[str]]:
        """No slot lexicon: tau2 users are LLM-driven."""
        return {}


def _spec(tool: Any) -> ToolSpec:
    function = tool.openai_schema["function"]
    return ToolSpec(
        name=function["name"],
        description=function.get("description", ""),
        parameters=function.get("parameters", {"type": "object", "properties": {}}),
    )


def make_tau2_environment(target: str) -> Tau2Environment:
    """The environment a `tau2:NAME` target names."""
    return Tau2Environment(target)
