import copy
import dataclasses

import pytest
import yaml

from tests.domains.fake_generator import batch, good_batch, good_item, prompt_of, slots_of
from vistasim.domains import generate_scenario_set, generate_scenarios, get_domain
from vistasim.errors import ConfigError, ModelError
from vistasim.scenario import load_scenarios
from vistasim.testing import FunctionLLM

SHOP = get_domain("shop")
SCHOOL = get_domain("school")
SHOP_BUNDLED = SHOP.scenarios()


def _first_good(request):
    """The first slot's good item, for tests that shape one batch by hand."""
    return good_item(slots_of(prompt_of(request))[0])


async def test_a_valid_batch_becomes_scenarios_that_load_from_yaml(tmp_path):
    scenarios = await generate_scenarios(SHOP, FunctionLLM(good_batch), count=4)
    path = tmp_path / "generated.yaml"
    items = [s.model_dump(mode="json", exclude_defaults=True) for s in scenarios]
    path.write_text(yaml.safe_dump(items, sort_keys=False), encoding="utf-8")
    assert load_scenarios(path) == scenarios
    assert len(scenarios) == 4
    assert all(s.domain == "shop" and "generated" in s.tags for s in scenarios)


async def test_ids_are_unique_and_name_the_domain_and_the_goal_kind():
    scenarios = await generate_scenarios(SHOP, FunctionLLM(good_batch), count=6)
    ids = [s.id for s in scenarios]
    assert len(set(ids)) == len(ids) == 6
    for scenario in scenarios:
        slug = scenario.agenda[0].intent.replace("_", "-")
        assert scenario.id.startswith(f"shop-gen-{slug}-")


async def test_ids_and_prompts_are_stable_for_the_same_seed():
    first, second, other = FunctionLLM(good_batch), FunctionLLM(good_batch), FunctionLLM(good_batch)
    a = await generate_scenarios(SCHOOL, first, count=5, seed=7)
    b = await generate_scenarios(SCHOOL, second, count=5, seed=7)
    await generate_scenarios(SCHOOL, other, count=5, seed=8)
    assert [s.id for s in a] == [s.id for s in b]
    assert first.requests == second.requests
    assert prompt_of(first.requests[0]) != prompt_of(other.requests[0])


async def test_school_scenarios_are_grounded_in_student_records():
    scenarios = await generate_scenarios(SCHOOL, FunctionLLM(good_batch), count=3)
    env = SCHOOL.make_environment()
    for scenario in scenarios:
        assert env.select("students", {"student_id": scenario.knowledge["student_id"]})


async def test_the_prompt_holds_the_policy_real_records_and_a_reply_schema():
    llm = FunctionLLM(good_batch)
    await generate_scenarios(SHOP, llm, count=2, batch_size=2)
    request = llm.requests[0]
    prompt = prompt_of(request)
    assert "Only orders that are **pending** or **processing** can be cancelled" in prompt
    env = SHOP.make_environment()
    for slot in slots_of(prompt):
        email = slot["entity"]["customers"][0]["email"]
        assert env.select("customers", {"email": email})
    schema = request.response_format["json_schema"]["schema"]
    item = schema["properties"]["scenarios"]["items"]
    assert "slot" in item["required"] and "id" not in item["properties"]


async def test_one_call_per_batch():
    llm = FunctionLLM(good_batch)
    generation = await generate_scenario_set(SHOP, llm, count=7, batch_size=3)
    assert len(generation.scenarios) == 7
    assert [len(slots_of(prompt_of(r))) for r in llm.requests] == [3, 3, 1]
    assert generation.calls == 3


def _broken_items(request):
    slot = slots_of(prompt_of(request))[0]
    good = good_item(slot)

    def variant(**changes):
        item = copy.deepcopy(good)
        item.update(changes)
        return item

    without_goal = {k: v for k, v in good.items() if k != "goal"}
    criteria = good["criteria"]
    return [
        without_goal,
        variant(goal="x", persona={"name": "Ann", "age": 3}),
        variant(goal="a", criteria={**criteria, "actions": [{"tool": "refund_everything"}]}),
        variant(goal="b", criteria={"actions": [{"tool": "cancel_order", "args": {"oid": "W1"}}]}),
        variant(goal="c", criteria={"state": [{"table": "parcels", "where": {"id": "W1"}}]}),
        variant(goal="d", criteria={"state": [{"table": "orders", "where": {"order": "W1"}}]}),
        variant(goal="e", knowledge={"order_id": "W9999", "email": "nobody@example.com"}),
        variant(goal="f", criteria={}),
        variant(goal="g", slot=999),
        "a scenario about a refund",
    ]


async def test_invalid_items_are_dropped_and_their_reasons_counted():
    def first_batch(request):
        return batch(_broken_items(request))

    answers = iter([first_batch, good_batch])

    def model(request):
        return next(answers)(request)

    generation = await generate_scenario_set(SHOP, FunctionLLM(model), count=1, batch_size=1)
    assert generation.invalid == {
        "schema": 3,
        "unknown tool": 1,
        "unknown tool argument": 1,
        "unknown table or column": 2,
        "not grounded in the data": 1,
        "no success criteria": 1,
        "unknown slot": 1,
    }
    assert len(generation.rejected) == 10
    assert "refund_everything" in " ".join(generation.rejected)
    assert len(generation.scenarios) == 1  # the second batch made up for the first


async def test_duplicates_of_existing_scenarios_and_of_each_other_are_removed():
    existing = SHOP_BUNDLED

    def model(request):
        good = _first_good(request)
        assert good["agenda"][0]["slots"]["order_id"]  # seed 0 starts with an open order
        twin = dict(good, goal=good["goal"].upper() + "!!")  # same goal, normalized
        same_agenda = dict(good, goal="Something else entirely, about the same order.")
        bundled = dict(good, goal=existing[0].goal)
        return batch([good, twin, same_agenda, bundled])

    generation = await generate_scenario_set(
        SHOP, FunctionLLM(model), count=1, batch_size=1, existing=existing
    )
    assert len(generation.scenarios) == 1
    assert generation.duplicates == 3


async def test_a_rerun_with_the_same_seed_skips_what_exists_and_moves_on_to_new_people():
    first = await generate_scenarios(SCHOOL, FunctionLLM(good_batch), count=3)
    generation = await generate_scenario_set(
        SCHOOL, FunctionLLM(good_batch), count=3, existing=first
    )
    assert generation.duplicates == 3
    assert len(generation.scenarios) == 3
    assert {s.id for s in generation.scenarios}.isdisjoint(s.id for s in first)


async def test_at_most_count_scenarios_are_returned():
    def model(request):
        good = _first_good(request)
        return batch([dict(good, goal=f"{good['goal']} ({n})", agenda=[]) for n in range(3)])

    generation = await generate_scenario_set(SHOP, FunctionLLM(model), count=1)
    assert len(generation.scenarios) == 1
    assert generation.surplus == 2


async def test_a_reply_that_never_parses_is_a_failed_batch_and_generation_goes_on():
    replies = ["not json", '{"items": []}', "```json\n[1, 2]\n```"]

    def model(request):
        return replies.pop(0) if replies else good_batch(request)

    generation = await generate_scenario_set(SHOP, FunctionLLM(model), count=2, batch_size=2)
    assert generation.failed_batches == 1
    assert generation.calls == 4
    assert len(generation.scenarios) == 2


async def test_a_model_that_writes_only_invalid_items_stops_after_twice_the_batches():
    def model(request):
        slots = slots_of(prompt_of(request))
        return batch([{"slot": slot["slot"], "goal": "no persona"} for slot in slots])

    llm = FunctionLLM(model)
    generation = await generate_scenario_set(SHOP, llm, count=4, batch_size=2)
    assert generation.scenarios == []
    assert len(llm.requests) == 4
    assert generation.invalid == {"schema": 8}


async def test_a_provider_failure_is_raised_as_a_model_error():
    def model(request):
        raise ModelError("provider down", role="generator", model="m")

    with pytest.raises(ModelError, match="provider down"):
        await generate_scenarios(SHOP, FunctionLLM(model), count=6, batch_size=2)


async def test_count_below_one_is_a_config_error():
    with pytest.raises(ConfigError, match="count and batch size must be >= 1, got 0"):
        await generate_scenarios(SHOP, FunctionLLM(good_batch), count=0)


async def test_a_domain_without_entity_tables_is_a_config_error():
    other = dataclasses.replace(SHOP, name="airline")
    with pytest.raises(ConfigError, match="'airline'.*domains that can: school, shop"):
        await generate_scenarios(other, FunctionLLM(good_batch), count=1)
