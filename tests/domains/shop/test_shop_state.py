"""Snapshot/restore exactness, and bad input that must never change the shop's database."""

from __future__ import annotations

import random
import time

import pytest

from vistasim.domains.shop import ShopEnvironment

TABLES = [
    "customers",
    "payment_methods",
    "products",
    "variants",
    "coupons",
    "orders",
    "order_items",
    "shipments",
    "refunds",
    "exchanges",
    "escalations",
    "cart_items",
]


def dump(env: ShopEnvironment) -> dict[str, list[tuple]]:
    return {t: sorted(tuple(r) for r in env.db.execute(f"SELECT * FROM {t}")) for t in TABLES}


def random_call(rng: random.Random, orders: list[str], skus: list[str]) -> tuple[str, str, dict]:
    order = rng.choice(orders)
    calls = [
        ("agent", "cancel_order", {"order_id": order, "reason": "changed mind"}),
        (
            "agent",
            "return_items",
            {
                "order_id": order,
                "skus": [rng.choice(skus)],
                "reason": rng.choice(["too small", "arrived broken"]),
            },
        ),
        (
            "agent",
            "exchange_item",
            {
                "order_id": order,
                "sku": rng.choice(skus),
                "new_sku": rng.choice(skus),
                "reason": "size",
            },
        ),
        (
            "agent",
            "update_address",
            {"order_id": order, "address_line": "9 Fir St", "city": "Boise", "zip": "83702"},
        ),
        ("agent", "apply_coupon", {"order_id": order, "code": rng.choice(["SPRING10", "SAVE20"])}),
        ("agent", "escalate_to_human", {"summary": "random", "order_id": order}),
        (
            "user",
            "add_to_cart",
            {"customer_id": f"C{rng.randint(1001, 1032)}", "sku": rng.choice(skus)},
        ),
        (
            "user",
            "checkout",
            {
                "customer_id": f"C{rng.randint(1001, 1032)}",
                "payment_method_id": f"PM{rng.randint(2001, 2064)}",
            },
        ),
    ]
    return rng.choice(calls)


@pytest.mark.parametrize("seed", range(5))
def test_restore_after_random_operations_brings_back_every_table(seed):
    env = ShopEnvironment()
    rng = random.Random(seed)
    orders = [r["id"] for r in env.select("orders", {})]
    skus = [r["sku"] for r in env.select("order_items", {})]
    for _ in range(10):
        env.run_tool(*random_call(rng, orders, skus))
    before, image = dump(env), env.snapshot()
    successes = 0
    for _ in range(60):
        successes += env.run_tool(*random_call(rng, orders, skus)).error is None
    assert successes > 0 and dump(env) != before
    env.restore(image)
    assert dump(env) == before


def test_restore_into_a_fresh_environment_is_exact():
    env = ShopEnvironment()
    env.run_tool("agent", "cancel_order", {"order_id": "W1003", "reason": "x"})
    other = ShopEnvironment()
    other.restore(env.snapshot())
    assert dump(other) == dump(env)


def test_restored_environment_still_enforces_foreign_keys():
    env = ShopEnvironment()
    env.restore(env.snapshot())
    assert env.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_snapshot_and_restore_take_well_under_50_ms():
    env = ShopEnvironment()
    start = time.perf_counter()
    for _ in range(20):
        env.restore(env.snapshot())
    assert (time.perf_counter() - start) / 20 < 0.05


BAD_CALLS = [
    ("get_order", {"order_id": "' OR 1=1 --"}),
    ("cancel_order", {"order_id": "W1003; DELETE FROM orders", "reason": "x"}),
    ("cancel_order", {"order_id": "W1003", "reason": "x" * 100_000}),
    ("cancel_order", {"order_id": "W1003"}),
    ("cancel_order", {"order_id": "W1003", "reason": "x", "force": True}),
    ("return_items", {"order_id": "W1007", "skus": "P035-RED", "reason": "x"}),
    ("return_items", {"order_id": "W1007", "skus": [], "reason": "x"}),
    ("return_items", {"order_id": "W1007", "skus": ["P035-RED", "P035-RED"], "reason": "x"}),
    ("return_items", {"order_id": "W1007", "skus": ["P035-RED", "NOPE"], "reason": "x"}),
    (
        "update_address",
        {
            "order_id": "W1001",
            "address_line": "1 A St",
            "city": "X",
            "zip": "'; DROP TABLE orders; --",
        },
    ),
    ("apply_coupon", {"order_id": "W1003", "code": "' OR ''='"}),
    ("find_customer", {"email": "a@b.c' OR '1'='1"}),
    ("escalate_to_human", {"summary": "", "order_id": "W1001"}),
    ("no_such_tool", {}),
]


@pytest.mark.parametrize(("name", "args"), BAD_CALLS)
def test_bad_input_gives_clear_error_and_changes_nothing(name, args):
    env = ShopEnvironment()
    before = dump(env)
    outcome = env.run_tool("agent", name, args)
    assert outcome.error and outcome.result is None
    assert dump(env) == before


def test_non_object_arguments_are_rejected():
    env = ShopEnvironment()
    assert "invalid arguments" in env.run_tool("agent", "get_order", ["W1001"]).error


def test_multi_item_return_with_one_bad_item_writes_nothing():
    env = ShopEnvironment()
    env.run_tool(
        "agent", "return_items", {"order_id": "W1007", "skus": ["P035-RED", "NOPE"], "reason": "x"}
    )
    assert {r["status"] for r in env.select("order_items", {"order_id": "W1007"})} == {"ordered"}
