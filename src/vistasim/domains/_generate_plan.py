"""Plan scenario generation: which person, profile and goal kind each requested scenario gets.

A generator model writes better scenarios from concrete records than from a table schema. This
module gathers a person and their records from a domain's environment (customers with orders,
students with enrollments and exams), crosses persona profiles with the domain's goal kinds, and
renders the prompt asking for a batch, all deterministically from a seed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from itertools import product
from string import Template

import yaml
from pydantic import BaseModel, ConfigDict, JsonValue

from vistasim._docstrings import described_schema
from vistasim.domains._types import Domain
from vistasim.env._types import Environment
from vistasim.errors import ConfigError
from vistasim.llm._types import ChatMessage, ChatRequest, ToolSpec
from vistasim.scenario import Scenario, Style

_ROW_LIMIT = 12
"""Rows kept per table of one entity, so a prolific customer does not flood the prompt."""


@dataclass(frozen=True, kw_only=True)
class Link:
    """Rows of `table` whose `column` equals `parent_column` of a row already in the entity."""

    table: str
    column: str
    parent: str
    parent_column: str


@dataclass(frozen=True, kw_only=True)
class EntitySource:
    """Where a domain's people and their records live, and what identifies a request."""

    root: str
    """Table of the people who contact support (one row per simulated user); has `name`."""
    links: tuple[Link, ...]
    """Records gathered around a person, resolved in order (a link's parent comes earlier)."""
    catalog: tuple[tuple[str, int], ...]
    """Reference tables and how many of their rows to sample per batch."""
    identity: tuple[str, ...]
    """Knowledge keys naming the person, first present wins (for deduplication)."""
    key_slots: tuple[str, ...]
    """Agenda slot names that identify what a request is about (for deduplication)."""


def _links(*specs: str) -> tuple[Link, ...]:
    # "table.column=parent.parent_column", read like a join condition.
    out = []
    for spec in specs:
        left, right = spec.split("=")
        table, column = left.split(".")
        parent, parent_column = right.split(".")
        out.append(Link(table=table, column=column, parent=parent, parent_column=parent_column))
    return tuple(out)


SOURCES: dict[str, EntitySource] = {
    "shop": EntitySource(
        root="customers",
        links=_links(
            "payment_methods.customer_id=customers.id",
            "orders.customer_id=customers.id",
            "order_items.order_id=orders.id",
            "shipments.order_id=orders.id",
            "refunds.order_id=orders.id",
            "variants.sku=order_items.sku",
            "products.id=variants.product_id",
            "variants.product_id=products.id",
        ),
        catalog=(("products", 6), ("coupons", 4)),
        identity=("email", "customer_id"),
        key_slots=("order_id", "item", "sku", "new_option", "coupon_code"),
    ),
    "school": EntitySource(
        root="students",
        links=_links(
            "enrollments.student_id=students.student_id",
            "sections.section_id=enrollments.section_id",
            "exam_bookings.student_id=students.student_id",
            "exam_sessions.exam_id=exam_bookings.exam_id",
            "fees.student_id=students.student_id",
            "fee_waivers.student_id=students.student_id",
            "medical_notes.student_id=students.student_id",
        ),
        catalog=(("courses", 8), ("sections", 8)),
        identity=("student_id", "email"),
        key_slots=(
            "course",
            "courses",
            "section_id",
            "exam_id",
            "exam_kind",
            "session_id",
            "fee_id",
            "fee_kind",
        ),
    ),
}
"""Entity tables per built-in domain; a domain missing here cannot generate scenarios."""


def entity_source(name: str) -> EntitySource:
    """Return the entity tables of a domain; a domain without them cannot generate."""
    if name not in SOURCES:
        raise ConfigError(
            f"cannot generate scenarios for domain {name!r}: no entity tables are declared for it; "
            f"domains that can: {', '.join(sorted(SOURCES))}"
        )
    return SOURCES[name]


class PersonaSeed(BaseModel):
    """A persona profile from `prompts/personas.yaml`; the name comes from the data."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profile: str
    style: Style
    manner: str


@dataclass(frozen=True, kw_only=True)
class Slot:
    """One scenario to ask for: a person's records, a profile and a goal kind."""

    number: int
    intent: str
    persona: PersonaSeed
    entity: dict[str, list[dict[str, JsonValue]]]


class Planner:
    """Deterministic stream of slots (person x profile x goal kind) and prompts asking for them."""

    def __init__(
        self, domain: Domain, env: Environment, source: EntitySource, rng: random.Random
    ) -> None:
        self._env = env
        self._source = source
        self._rng = rng
        bundled = _bundled(domain)
        intents = sorted({item.intent for s in bundled for item in s.agenda})
        if not intents:
            raise ConfigError(
                f"domain {domain.name!r} has no scenario with an agenda, so no goal kinds to "
                "combine; add `agenda` intents to its scenarios.yaml"
            )
        combos = list(product(_personas(), intents))
        rng.shuffle(combos)
        self._combos = combos
        people = sorted(env.select(source.root, {}), key=canonical)
        rng.shuffle(people)
        self._people = people
        self._next = 0
        self._static = _static_values(domain, env, source, bundled, intents)

    def request(self, size: int, *, seed: int) -> tuple[list[Slot], ChatRequest]:
        """Plan the next `size` slots and the request asking for them."""
        slots = [self._slot() for _ in range(size)]
        catalog = {}
        for table, k in self._source.catalog:
            rows = sorted(self._env.select(table, {}), key=canonical)
            catalog[table] = self._rng.sample(rows, min(k, len(rows)))
        text = _template().substitute(
            self._static,
            n=str(size),
            catalog=json.dumps(catalog, ensure_ascii=False),
            slots=json.dumps({"slots": [_slot_json(s) for s in slots]}, ensure_ascii=False),
        )
        message = ChatMessage(role="user", content=text)
        return slots, ChatRequest(messages=[message], seed=seed, response_format=_reply_format())

    def _slot(self) -> Slot:
        number = self._next
        self._next += 1
        persona, intent = self._combos[number % len(self._combos)]
        person = self._people[number % len(self._people)]
        entity = _gather(self._env, self._source, person)
        return Slot(number=number, intent=intent, persona=persona, entity=entity)


def _gather(
    env: Environment, source: EntitySource, person: dict[str, JsonValue]
) -> dict[str, list[dict[str, JsonValue]]]:
    entity: dict[str, list[dict[str, JsonValue]]] = {source.root: [person]}
    for link in source.links:
        rows = entity.setdefault(link.table, [])
        seen = {canonical(row) for row in rows}
        for parent in list(entity.get(link.parent, [])):
            value = parent.get(link.parent_column)
            if value is None or not isinstance(value, str | int | float | bool):
                continue
            for row in env.select(link.table, {link.column: value}):
                if len(rows) < _ROW_LIMIT and canonical(row) not in seen:
                    seen.add(canonical(row))
                    rows.append(row)
    return {table: rows for table, rows in entity.items() if rows}


def _slot_json(slot: Slot) -> dict[str, JsonValue]:
    return {
        "slot": slot.number,
        "goal_kind": slot.intent,
        "profile": slot.persona.profile,
        "manner": slot.persona.manner,
        "style": slot.persona.style.model_dump(mode="json"),
        "entity": slot.entity,  # type: ignore[dict-item]
    }


def _static_values(
    domain: Domain,
    env: Environment,
    source: EntitySource,
    bundled: Sequence[Scenario],
    intents: list[str],
) -> dict[str, str]:
    def listing(tools: Sequence[ToolSpec]) -> str:
        lines = [f"- `{t.name}`: {t.description}".rstrip(": ") for t in tools]
        return "\n".join(lines) or "(none)"

    example = next((s for s in bundled if s.hidden and s.criteria.state), bundled[0])
    example_yaml = yaml.safe_dump(
        [example.model_dump(mode="json", exclude_defaults=True)], sort_keys=False, width=100
    )
    return {
        "domain": domain.name,
        "description": domain.description,
        "policy": domain.policy().strip(),
        "tools": listing(env.agent_tools()),
        "user_tools": listing(env.user_tools()),
        "intents": ", ".join(f"`{i}`" for i in intents),
        "example": example_yaml.strip(),
        "root": source.root,
    }


def _prompt_dir() -> Traversable:
    return resources.files("vistasim.domains") / "prompts"


@cache
def _bundled(domain: Domain) -> tuple[Scenario, ...]:
    # Parsing a bundled scenarios.yaml takes a few hundred ms of pure-Python YAML; package data
    # does not change within a process, so parse it once per domain.
    return tuple(domain.scenarios())


@cache
def _reply_format() -> dict[str, JsonValue]:
    # The shape of one item is a scenario without `id`/`domain` (assigned here) plus its `slot`;
    # items are still validated one by one, so a bad item never costs the whole batch.
    item = described_schema(Scenario)
    defs = item.pop("$defs", {})
    for name in ("id", "domain"):
        item["properties"].pop(name)
        item["required"] = [f for f in item.get("required", []) if f != name]
    item["properties"]["slot"] = {"type": "integer", "description": "The slot's number."}
    item["required"] = ["slot", *item["required"]]
    schema = {
        "type": "object",
        "properties": {"scenarios": {"type": "array", "items": item}},
        "required": ["scenarios"],
        "$defs": defs,
    }
    return {"type": "json_schema", "json_schema": {"name": "ScenarioBatch", "schema": schema}}


@cache
def _template() -> Template:
    return Template((_prompt_dir() / "generate.md").read_text(encoding="utf-8"))


@cache
def _personas() -> tuple[PersonaSeed, ...]:
    raw = yaml.safe_load((_prompt_dir() / "personas.yaml").read_text(encoding="utf-8"))
    return tuple(PersonaSeed.model_validate(item) for item in raw)


@cache
def prompt_hash() -> str:
    """Return the first 16 hex digits of a sha256 over the generator's prompt files."""
    digest = hashlib.sha256()
    for name in ("generate.md", "personas.yaml"):
        digest.update(name.encode() + b"\0" + (_prompt_dir() / name).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def canonical(row: object) -> str:
    """Return a row as sorted-key JSON, to order and compare rows deterministically."""
    return json.dumps(row, sort_keys=True, default=str)
