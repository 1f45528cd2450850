"""Check a generator model's scenarios: validate, ground in the data, deduplicate, count drops.

A model's output is not trusted. Each item must validate as a `Scenario`, name only tools, tables
and columns the environment has, and state facts found in the records it was given; anything else
is dropped and its reason counted, never repaired by guessing. Survivors get a stable id derived
from their content and are kept only if neither their goal text nor their agenda (intent plus
identifying slots) repeats an existing scenario or an earlier survivor.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from vistasim.domains._generate_plan import EntitySource, Slot
from vistasim.env._types import Environment
from vistasim.llm._types import ToolSpec
from vistasim.scenario import ActionCriterion, Scenario


class Reply(BaseModel):
    """The reply a batch asks for; items are checked one by one, not as a whole."""

    model_config = ConfigDict(extra="forbid")

    scenarios: list[JsonValue]


Outcome = tuple[Reply | None, int, str | None]
"""A batch's reply (None if it never validated), the calls it took and the failure, if any."""


class Tally:
    """Validate, ground and deduplicate items as batches come back; count what is dropped."""

    def __init__(
        self, domain: str, env: Environment, source: EntitySource, existing: Sequence[Scenario]
    ) -> None:
        self.domain = domain
        self.env = env
        self.source = source
        self.tools = {tool.name: _parameters(tool) for tool in env.agent_tools()}
        self.kept: list[Scenario] = []
        self.batches = 0
        self.calls = 0
        self.failed = 0
        self.duplicates = 0
        self.invalid: Counter[str] = Counter()
        self.rejected: list[str] = []
        self.seen: set[object] = set()
        for scenario in existing:
            self.seen.update(self._keys(scenario))

    def add(self, slots: list[Slot], outcome: Outcome) -> None:
        """Take one batch's reply: keep the valid, new items."""
        reply, calls, failure = outcome
        self.batches += 1
        self.calls += calls
        if reply is None:
            self.failed += 1
            self.rejected.append(f"batch {self.batches}: no valid reply: {failure}")
            return
        by_number = {slot.number: slot for slot in slots}
        for index, item in enumerate(reply.scenarios):
            checked = self._check(item, by_number)
            if isinstance(checked, tuple):
                reason, detail = checked
                self.invalid[reason] += 1
                self.rejected.append(f"batch {self.batches} item {index}: {reason}: {detail}")
            elif self.seen.isdisjoint(keys := self._keys(checked)):
                self.seen.update(keys)
                self.kept.append(checked)
            else:
                self.duplicates += 1

    def _check(self, item: JsonValue, slots: dict[int, Slot]) -> Scenario | tuple[str, str]:
        if not isinstance(item, dict):
            return "schema", f"not a JSON object: {str(item)[:80]!r}"
        data = {k: v for k, v in item.items() if k not in ("slot", "id", "domain")}
        slot = slots.get(item.get("slot"))  # type: ignore[arg-type]
        if slot is None:
            return "unknown slot", f"slot {item.get('slot')!r}; asked for {sorted(slots)}"
        try:
            scenario = Scenario.model_validate({**data, "id": "draft", "domain": self.domain})
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            return "schema", f"{'.'.join(map(str, err['loc']))}: {err['msg']}"
        problem = _ground(scenario, slot, self.env, self.tools)
        if problem is not None:
            return problem
        tags = [*scenario.tags, *(["generated"] if "generated" not in scenario.tags else [])]
        scenario = scenario.model_copy(update={"tags": tags})
        return scenario.model_copy(update={"id": _scenario_id(scenario)})

    def _keys(self, scenario: Scenario) -> set[object]:
        keys: set[object] = {("goal", _words(scenario.goal))}
        signature = _agenda_signature(scenario, self.source)
        if signature is not None:
            keys.add(("agenda", signature))
        return keys


def _ground(
    scenario: Scenario, slot: Slot, env: Environment, tools: dict[str, set[str] | None]
) -> tuple[str, str] | None:
    criteria = scenario.criteria
    if not (
        criteria.state or criteria.actions or criteria.forbidden_actions or criteria.statements
    ):
        return "no success criteria", "state, actions and statements are all empty"
    problem = _check_calls([*criteria.actions, *criteria.forbidden_actions], tools)
    if problem is not None:
        return problem
    for state in criteria.state:
        probe = {**state.where, **{k: "" if v is None else v for k, v in state.expect.items()}}
        try:
            env.select(state.table, probe)  # only to check the table and column names
        except (KeyError, ValueError) as exc:
            return "unknown table or column", str(exc).strip("\"'")
    # Identifiers and emails, not numbers: a stray `2` must not pass for a grounded fact.
    known = {_fact(v) for rows in slot.entity.values() for r in rows for v in r.values()}
    said = {_fact(v) for v in scenario.knowledge.values()}
    if known.isdisjoint(said - {""}):
        values = sorted(map(str, scenario.knowledge.values()))
        return "not grounded in the data", f"no knowledge value {values} is in the slot's records"
    return None


def _check_calls(
    calls: list[ActionCriterion], tools: dict[str, set[str] | None]
) -> tuple[str, str] | None:
    # A criterion naming a tool or argument the agent cannot use could never be met.
    for call in calls:
        if call.tool not in tools:
            return "unknown tool", f"{call.tool!r}; tools: {', '.join(sorted(tools))}"
        params = tools[call.tool]
        if params is not None and (extra := sorted(set(call.args) - params)):
            return "unknown tool argument", f"{call.tool}({extra[0]}=...); takes {sorted(params)}"
    return None


def _agenda_signature(scenario: Scenario, source: EntitySource) -> tuple[object, ...] | None:
    who = next((scenario.knowledge[k] for k in source.identity if k in scenario.knowledge), "")
    items = []
    for item in scenario.agenda:
        keys = tuple(
            (name, _value(item.slots[name])) for name in source.key_slots if name in item.slots
        )
        items.append((item.intent, keys))
    if not any(keys for _, keys in items):
        return None  # nothing identifies the request; the goal text decides alone
    return (_value(who), tuple(sorted(items)))


def _scenario_id(scenario: Scenario) -> str:
    content = json.dumps(scenario.model_dump(mode="json", exclude={"id"}), sort_keys=True)
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:8]
    basis = scenario.agenda[0].intent if scenario.agenda else " ".join(scenario.goal.split()[:5])
    slug = re.sub(r"[^a-z0-9]+", "-", basis.lower()).strip("-")[:40].strip("-") or "scenario"
    return f"{scenario.domain}-gen-{slug}-{digest}"


def _parameters(tool: ToolSpec) -> set[str] | None:
    properties = tool.parameters.get("properties")
    return set(properties) if isinstance(properties, dict) else None


def _words(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _value(value: object) -> str:
    return str(value).strip().lower()


def _fact(value: object) -> str:
    return _value(value) if isinstance(value, str) and len(value.strip()) >= 3 else ""
