"""Write new scenarios for a built-in domain with an LLM, grounded in the domain's own data.

Hand-written scenario sets are small and share their authors' blind spots. Here a generator model
gets real people from the domain's database (a customer with their orders, a student with their
enrollments and exams), a persona profile and a goal kind (profile x goal combinations), plus the
policy text, and writes scenarios with success criteria. A model's output is not trusted: every
item is validated against the `Scenario` model and checked against the environment (known tools,
tables and columns, identifiers that exist); invalid items are dropped and their reasons counted,
never repaired by guessing. Survivors get stable content-derived ids and are deduplicated against
the existing scenarios and each other.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import anyio

from vistasim.domains._generate_check import Outcome, Reply, Tally
from vistasim.domains._generate_plan import Planner, entity_source, prompt_hash
from vistasim.domains._types import Domain
from vistasim.errors import ConfigError
from vistasim.llm._structured import InvalidOutputError, complete_json
from vistasim.llm._types import ChatModel, ChatRequest
from vistasim.scenario import Scenario

__all__ = ["Generation", "generate_scenario_set", "generate_scenarios"]

_MAX_REPAIRS = 2
"""Re-prompts per batch after a reply that is not `{"scenarios": [...]}`."""


@dataclass(frozen=True, kw_only=True)
class Generation:
    """What one generation produced and what it threw away."""

    scenarios: list[Scenario]
    """Valid, deduplicated scenarios, at most the number asked for."""
    invalid: dict[str, int] = field(default_factory=dict)
    """Dropped items by reason (`schema`, `unknown tool`, `not grounded in the data`...)."""
    rejected: list[str] = field(default_factory=list)
    """One line per dropped item: batch, item, reason and the details."""
    duplicates: int = 0
    """Valid items dropped as duplicates of an existing scenario or of each other."""
    surplus: int = 0
    """Valid, new items beyond the number asked for."""
    failed_batches: int = 0
    """Batches whose reply never parsed as `{"scenarios": [...]}`, even after repairs."""
    calls: int = 0
    """Model calls made, repairs included."""
    prompt_hash: str = ""
    """First 16 hex digits of the prompt files' sha256, to tell prompt versions apart."""


async def generate_scenario_set(
    domain: Domain,
    model: ChatModel,
    *,
    count: int,
    seed: int = 0,
    existing: Sequence[Scenario] = (),
    batch_size: int = 5,
) -> Generation:
    """Generate up to `count` new scenarios for `domain`, one model call per batch.

    Batches of a round run concurrently; rounds continue while scenarios are missing, up to
    twice the batches `count` needs, so a model that writes many invalid items cannot loop.

    Args:
        domain: A built-in domain listed in `SOURCES` (shop, school).
        model: The generator model (usually the `generator` role's `RoleModel`).
        count: How many scenarios to return at most.
        seed: Picks the people, profiles and goal kinds; same seed, same prompts.
        existing: Scenarios the new ones must not duplicate (e.g. the bundled set).
        batch_size: Scenarios asked for per model call.

    Raises:
        ConfigError: `count` or `batch_size` below 1, or a domain without entity tables.
    """
    if count < 1 or batch_size < 1:
        raise ConfigError(f"count and batch size must be >= 1, got {count!r} and {batch_size!r}")
    source = entity_source(domain.name)
    env = domain.make_environment()
    planner = Planner(domain, env, source, random.Random(seed))
    tally = Tally(domain.name, env, source, existing)
    max_batches = 2 * math.ceil(count / batch_size)
    while len(tally.kept) < count and tally.batches < max_batches:
        missing = count - len(tally.kept)
        sizes = [min(batch_size, missing - start) for start in range(0, missing, batch_size)]
        plans = [
            planner.request(size, seed=seed + tally.batches + index)
            for index, size in enumerate(sizes[: max_batches - tally.batches])
        ]
        outcomes = await _ask_all(model, [request for _, request in plans])
        for (slots, _), outcome in zip(plans, outcomes, strict=True):
            tally.add(slots, outcome)
    return _result(tally, count)


async def generate_scenarios(
    domain: Domain,
    model: ChatModel,
    *,
    count: int,
    seed: int = 0,
    existing: Sequence[Scenario] = (),
    batch_size: int = 5,
) -> list[Scenario]:
    """Generate up to `count` new, valid, deduplicated scenarios (see `generate_scenario_set`)."""
    generation = await generate_scenario_set(
        domain, model, count=count, seed=seed, existing=existing, batch_size=batch_size
    )
    return generation.scenarios


def _result(tally: Tally, count: int) -> Generation:
    return Generation(
        scenarios=tally.kept[:count],
        invalid=dict(tally.invalid),
        rejected=list(tally.rejected),
        duplicates=tally.duplicates,
        surplus=max(0, len(tally.kept) - count),
        failed_batches=tally.failed,
        calls=tally.calls,
        prompt_hash=prompt_hash(),
    )


async def _ask_all(model: ChatModel, requests: list[ChatRequest]) -> list[Outcome]:
    outcomes: list[Outcome | None] = [None] * len(requests)
    errors: list[Exception] = []

    async def ask(index: int, request: ChatRequest) -> None:
        try:
            reply, calls = await complete_json(model, request, Reply, max_repairs=_MAX_REPAIRS)
            outcomes[index] = (reply, calls, None)
        except InvalidOutputError as exc:
            outcomes[index] = (None, _MAX_REPAIRS + 1, str(exc))
        except Exception as exc:  # noqa: BLE001 - re-raised below, outside the task group
            errors.append(exc)

    async with anyio.create_task_group() as group:
        for index, request in enumerate(requests):
            group.start_soon(ask, index, request)
    if errors:
        # A provider failure (ModelError) is the user's to see, not an ExceptionGroup.
        raise errors[0]
    return [outcome for outcome in outcomes if outcome is not None]
