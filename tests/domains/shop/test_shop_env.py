"""The shop environment: every tool's success and error paths, and the policy they enforce."""

from __future__ import annotations

import pytest

from vistasim.domains.shop import ShopEnvironment
from vistasim.env import Environment


@pytest.fixture
def env() -> ShopEnvironment:
    return ShopEnvironment()


def ok(env: ShopEnvironment, name: str, side: str = "agent", **args):
    outcome = env.run_tool(side, name, args)
    assert outcome.error is None, outcome.error
    return outcome.result


def fails(env: ShopEnvironment, name: str, side: str = "agent", **args) -> str:
    outcome = env.run_tool(side, name, args)
    assert outcome.error is not None, outcome.result
    return outcome.error


def test_shop_environment_satisfies_the_environment_protocol(env):
    assert isinstance(env, Environment)


def test_seed_is_large_enough_to_be_realistic(env):
    count = {
        t: env.db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("products", "variants", "customers", "orders")
    }
    statuses = {r["status"] for r in env.select("orders", {})}
    assert count["products"] >= 50 and count["variants"] > count["products"]
    assert count["customers"] >= 30
    assert statuses == {"pending", "processing", "shipped", "delivered", "cancelled"}


def test_seed_is_identical_in_every_fresh_environment(env):
    assert ShopEnvironment().snapshot() == env.snapshot()


def test_find_customer_returns_profile_with_orders(env):
    customer = ok(env, "find_customer", email="Priya.Shah@example.com")
    assert customer["id"] == "C1003"
    assert [o["id"] for o in customer["orders"]] == ["W1006", "W1007"]


def test_find_customer_reports_unknown_email(env):
    assert "nobody@example.com" in fails(env, "find_customer", email="nobody@example.com")


def test_get_order_returns_items_totals_and_shipment(env):
    order = ok(env, "get_order", order_id="w1007")
    assert order["customer_email"] == "priya.shah@example.com"
    assert {i["sku"] for i in order["items"]} == {"P035-RED", "P053-RED"}
    assert order["shipment"]["status"] == "delivered"


def test_get_order_reports_unknown_order(env):
    assert "W9999" in fails(env, "get_order", order_id="W9999")


def test_get_order_rejects_malformed_id(env):
    assert "invalid arguments" in fails(env, "get_order", order_id="W1'; DROP TABLE orders;--")


def test_search_products_matches_words_and_price_cap(env):
    result = ok(env, "search_products", query="blender", max_price_cents=10000)
    assert [p["name"] for p in result["products"]] == ["Aurora Blender"]
    assert ok(env, "search_products", query="blender", max_price_cents=1000)["count"] == 0


def test_search_products_filters_by_category(env):
    result = ok(env, "search_products", category="shoes", limit=20)
    assert result["count"] == 4
    assert all(p["category"] == "shoes" for p in result["products"])


def test_get_product_lists_variants(env):
    product = ok(env, "get_product", product_id="P035")
    assert {v["option"] for v in product["variants"]} == {"Black", "White", "Red", "Blue"}


def test_get_product_reports_unknown_product(env):
    assert "P999" in fails(env, "get_product", product_id="P999")


def test_cancel_pending_order_refunds_in_full(env):
    result = ok(env, "cancel_order", order_id="W1003", reason="ordered by mistake")
    assert result["refund_cents"] == 42697
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "cancelled"
    assert {r["status"] for r in env.select("order_items", {"order_id": "W1003"})} == {"cancelled"}
    refund = env.select("refunds", {"order_id": "W1003"})[0]
    assert (refund["status"], refund["method"]) == ("issued", "original_payment")


def test_cancel_refuses_shipped_order(env):
    assert "shipped" in fails(env, "cancel_order", order_id="W1006", reason="too slow")
    assert env.select("orders", {"id": "W1006"})[0]["status"] == "shipped"


def test_cancel_refuses_delivered_and_cancelled_orders(env):
    assert "returned instead" in fails(env, "cancel_order", order_id="W1007", reason="x")
    assert "cancelled" in fails(env, "cancel_order", order_id="W1005", reason="x")


def test_return_within_window_opens_pending_refund(env):
    result = ok(
        env,
        "return_items",
        order_id="W1007",
        skus=["P035-RED"],
        reason="too small",
        refund_to="gift_card",
    )
    assert result["refund_cents"] == 2 * 7899
    item = env.select("order_items", {"order_id": "W1007", "sku": "P035-RED"})[0]
    assert item["status"] == "return_requested"
    refund = env.select("refunds", {"order_id": "W1007"})[0]
    assert (refund["status"], refund["method"]) == ("pending", "gift_card")


def test_return_handles_several_items_in_one_request(env):
    ok(env, "return_items", order_id="W1007", skus=["P035-RED", "P053-RED"], reason="not needed")
    items = env.select("order_items", {"order_id": "W1007"})
    assert {i["status"] for i in items} == {"return_requested"}


def test_return_refuses_final_sale_item(env):
    error = fails(env, "return_items", order_id="W1062", skus=["P009-4PACK"], reason="changed mind")
    assert "final-sale" in error


def test_return_refuses_after_thirty_days_unless_defective(env):
    assert "30 days" in fails(
        env, "return_items", order_id="W1004", skus=["P025-WHITE"], reason="changed my mind"
    )
    ok(env, "return_items", order_id="W1004", skus=["P025-WHITE"], reason="it arrived cracked")


def test_return_refuses_after_defect_window(env):
    error = fails(env, "return_items", order_id="W1009", skus=["P016-S"], reason="broken zipper")
    assert "90 days" in error


def test_return_refuses_undelivered_order(env):
    assert "after delivery" in fails(
        env, "return_items", order_id="W1006", skus=["P049-RED"], reason="x"
    )


def test_return_refuses_unknown_or_repeated_item(env):
    assert "P001-BLACK" in fails(
        env, "return_items", order_id="W1007", skus=["P001-BLACK"], reason="x"
    )
    ok(env, "return_items", order_id="W1007", skus=["P035-RED"], reason="x")
    assert "already return_requested" in fails(
        env, "return_items", order_id="W1007", skus=["P035-RED"], reason="x"
    )


def test_return_refund_shares_the_coupon_discount(env):
    ok(env, "apply_coupon", order_id="W1010", code="SPRING10")
    env.db.execute(
        "UPDATE orders SET status = 'delivered', delivered_on = '2026-03-15' WHERE id = 'W1010'"
    )
    result = ok(env, "return_items", order_id="W1010", skus=["P050-4PACK"], reason="too big")
    line = env.select("order_items", {"order_id": "W1010", "sku": "P050-4PACK"})[0]
    paid = line["unit_price_cents"] * line["quantity"] * 0.9
    assert result["refund_cents"] == pytest.approx(paid, abs=1)


def test_exchange_swaps_variant_and_takes_stock(env):
    ok(
        env,
        "exchange_item",
        order_id="W1007",
        sku="P035-RED",
        new_sku="P035-BLACK",
        reason="prefer black",
    )
    assert env.select("variants", {"sku": "P035-BLACK"})[0]["stock"] == 13
    assert env.select("exchanges", {"order_id": "W1007"})[0]["new_sku"] == "P035-BLACK"
    item = env.select("order_items", {"order_id": "W1007", "sku": "P035-RED"})[0]
    assert item["status"] == "exchange_requested"


def test_exchange_refuses_other_product_or_out_of_stock(env):
    assert "same product" in fails(
        env, "exchange_item", order_id="W1007", sku="P035-RED", new_sku="P053-BLACK", reason="x"
    )
    assert "out of stock" in fails(
        env, "exchange_item", order_id="W1007", sku="P035-RED", new_sku="P035-BLUE", reason="x"
    )


def test_update_address_on_open_order(env):
    ok(
        env,
        "update_address",
        order_id="W1001",
        address_line="12 Birch Ct",
        city="Salem",
        zip="97301",
    )
    order = env.select("orders", {"id": "W1001"})[0]
    assert (order["address_line"], order["city"], order["zip"]) == ("12 Birch Ct", "Salem", "97301")


def test_update_address_refuses_shipped_order_and_bad_zip(env):
    assert "shipped" in fails(
        env, "update_address", order_id="W1006", address_line="1 A St", city="Salem", zip="97301"
    )
    assert "zip" in fails(
        env, "update_address", order_id="W1001", address_line="1 A St", city="Salem", zip="9730"
    )


def test_apply_coupon_discounts_open_order(env):
    result = ok(env, "apply_coupon", order_id="W1003", code="save20")
    assert result["discount_cents"] == 42697 * 20 // 100


def test_apply_coupon_enforces_expiry_minimum_and_one_per_order(env):
    assert "expired" in fails(env, "apply_coupon", order_id="W1003", code="WINTER15")
    assert "at least" in fails(env, "apply_coupon", order_id="W1026", code="SAVE20")
    assert "does not exist" in fails(env, "apply_coupon", order_id="W1003", code="FREE100")
    ok(env, "apply_coupon", order_id="W1003", code="SPRING10")
    assert "one coupon" in fails(env, "apply_coupon", order_id="W1003", code="WELCOME5")
    assert "pending or processing" in fails(env, "apply_coupon", order_id="W1007", code="SPRING10")


def test_escalate_opens_ticket(env):
    result = ok(env, "escalate_to_human", summary="wants a manager", order_id="W1007")
    assert result["ticket"] == "E0001"
    assert env.select("escalations", {"order_id": "W1007"})[0]["summary"] == "wants a manager"


def test_escalate_refuses_unknown_order(env):
    assert "Unknown order" in fails(env, "escalate_to_human", summary="x", order_id="W9999")
    assert "Unknown customer" in fails(env, "escalate_to_human", summary="x", customer_id="C9999")


def test_track_shipment_for_shipped_order(env):
    shipment = ok(env, "track_shipment", "user", order_id="W1006")
    assert shipment["status"] == "in_transit" and shipment["eta"] == "2026-03-18"


def test_track_shipment_fails_before_shipping(env):
    assert "no shipment" in fails(env, "track_shipment", "user", order_id="W1003")


def test_check_refund_status_needs_the_account_email(env):
    refunds = ok(
        env, "check_refund_status", "user", order_id="W1005", email="miguel.alvarez@example.com"
    )
    assert refunds["refunds"][0]["status"] == "issued"
    assert "does not match" in fails(
        env, "check_refund_status", "user", order_id="W1005", email="priya.shah@example.com"
    )
    assert "no refunds" in fails(
        env, "check_refund_status", "user", order_id="W1007", email="priya.shah@example.com"
    )


def test_cart_checkout_creates_pending_order_and_takes_stock(env):
    ok(env, "add_to_cart", "user", customer_id="C1003", sku="P001-BLACK", quantity=2)
    stock = env.select("variants", {"sku": "P001-BLACK"})[0]["stock"]
    order = ok(env, "checkout", "user", customer_id="C1003", payment_method_id="PM2005")
    assert order == {"order_id": "W1086", "status": "pending"}
    assert env.select("order_items", {"order_id": "W1086"})[0]["quantity"] == 2
    assert env.select("variants", {"sku": "P001-BLACK"})[0]["stock"] == stock - 2
    assert env.select("cart_items", {"customer_id": "C1003"}) == []


def test_cart_refuses_unknown_sku_too_many_and_foreign_payment(env):
    assert "SKU" in fails(env, "add_to_cart", "user", customer_id="C1003", sku="NOPE")
    assert "Only" in fails(env, "add_to_cart", "user", customer_id="C1003", sku="P035-BLUE")
    assert "empty" in fails(
        env, "checkout", "user", customer_id="C1003", payment_method_id="PM2005"
    )
    ok(env, "add_to_cart", "user", customer_id="C1003", sku="P001-BLACK")
    assert "not on this account" in fails(
        env, "checkout", "user", customer_id="C1003", payment_method_id="PM2001"
    )


def test_remove_from_cart(env):
    ok(env, "add_to_cart", "user", customer_id="C1003", sku="P001-BLACK")
    ok(env, "remove_from_cart", "user", customer_id="C1003", sku="p001-black")
    assert "not in the cart" in fails(
        env, "remove_from_cart", "user", customer_id="C1003", sku="P001-BLACK"
    )


def test_self_service_acts_only_on_own_orders(env):
    assert "does not belong" in fails(
        env, "cancel_my_order", "user", customer_id="C1001", order_id="W1003"
    )
    ok(env, "cancel_my_order", "user", customer_id="C1002", order_id="W1003")
    ok(
        env,
        "return_my_items",
        "user",
        customer_id="C1003",
        order_id="W1007",
        skus=["P053-RED"],
        reason="duplicate gift",
    )
    assert env.select("orders", {"id": "W1003"})[0]["status"] == "cancelled"


def test_agent_cannot_call_user_apis_and_vice_versa(env):
    assert "unknown tool" in fails(env, "track_shipment", order_id="W1006")
    assert "unknown tool" in fails(env, "cancel_order", "user", order_id="W1003", reason="x")


async def test_async_protocol_methods_run_tools(env):
    outcome = await env.call_tool("get_order", {"order_id": "W1001"})
    api = await env.call_user_api("track_shipment", {"order_id": "W1001"})
    assert outcome.result["status"] == "processing"
    assert api.result["status"] == "label_created"


def test_tool_specs_have_json_schemas(env):
    specs = {s.name: s for s in env.agent_tools()}
    assert specs["return_items"].parameters["required"] == ["order_id", "skus", "reason"]
    assert {s.name for s in env.user_tools()} >= {"track_shipment", "check_refund_status"}


def test_lexicon_names_the_slots_the_agent_asks_for(env):
    lexicon = env.lexicon()
    assert "order number" in lexicon["order_id"] and "email" in lexicon["email"]
