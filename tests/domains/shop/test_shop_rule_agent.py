"""The rule-based shop agent: common paths work; each documented flaw shows under its trigger."""

from __future__ import annotations

import pytest

from vistasim.agent import Turn
from vistasim.domains.shop import RuleShopAgent, ShopEnvironment


@pytest.fixture
def env() -> ShopEnvironment:
    return ShopEnvironment()


def talk(env: ShopEnvironment, *messages: str) -> tuple[list[str], list]:
    agent = RuleShopAgent(env=env)
    texts, calls = [], []
    for message in messages:
        reply = agent.reply(message)
        texts.append(reply.text)
        calls.extend(reply.tool_calls)
    return texts, calls


def status(env: ShopEnvironment, order_id: str) -> str:
    return env.select("orders", {"id": order_id})[0]["status"]


def item_status(env: ShopEnvironment, order_id: str, sku: str) -> str:
    return env.select("order_items", {"order_id": order_id, "sku": sku})[0]["status"]


def test_greets_and_lists_what_it_can_do(env):
    texts, calls = talk(env, "hello")
    assert "cancel" in texts[0] and calls == []


def test_asks_for_email_then_order_number_one_at_a_time(env):
    texts, _ = talk(env, "I'd like to cancel an order", "miguel.alvarez@example.com")
    assert texts[0] == "Could you tell me the email address on your account?"
    assert texts[1] == "What's your order number?"


def test_cancels_after_explicit_yes(env):
    texts, calls = talk(
        env, "I'd like to cancel an order", "miguel.alvarez@example.com", "W1003", "yes"
    )
    assert "Shall I proceed (yes/no)?" in texts[2]
    assert texts[3].startswith("Done — order W1003 has been cancelled.")
    assert [c.name for c in calls] == ["find_customer", "get_order", "cancel_order"]
    assert status(env, "W1003") == "cancelled"


def test_does_nothing_when_the_customer_says_no(env):
    texts, calls = talk(env, "cancel W1003, email miguel.alvarez@example.com", "no")
    assert "won't make any changes" in texts[1]
    assert status(env, "W1003") == "pending"


def test_asks_again_when_confirmation_is_unclear(env):
    texts, _ = talk(env, "cancel W1003, email miguel.alvarez@example.com", "hmm")
    assert texts[1] == "Sorry, I need a clear yes or no. Shall I proceed (yes/no)?"


def test_refuses_to_cancel_a_shipped_order(env):
    texts, calls = talk(env, "please cancel order W1006", "priya.shah@example.com")
    assert "can't be cancelled" in texts[1]
    assert "cancel_order" not in [c.name for c in calls]


def test_refuses_an_order_of_another_account_when_email_comes_first(env):
    texts, calls = talk(env, "cancel an order please", "priya.shah@example.com", "W1003")
    assert "isn't on the account" in texts[2]
    assert status(env, "W1003") == "pending"


def test_reports_unknown_email_and_order(env):
    texts, _ = talk(env, "cancel an order", "ghost@example.com")
    assert "couldn't find an account" in texts[1]
    texts, _ = talk(env, "cancel an order", "priya.shah@example.com", "W9999")
    assert "couldn't find order W9999" in texts[2]


def test_returns_an_item_asking_item_reason_and_refund_method(env):
    texts, calls = talk(
        env,
        "I want to return something from order W1007",
        "priya.shah@example.com",
        "the daypack",
        "it's too small",
        "store gift card please",
        "yes",
    )
    assert texts[1].startswith("Which item(s) would you like to return?")
    assert texts[2] == "What's the reason for the return?"
    assert "original payment method or to a store gift card" in texts[3]
    assert texts[5].startswith("Done — your return for Trail Daypack (Red)")
    assert calls[-1].args["refund_to"] == "gift_card"
    assert item_status(env, "W1007", "P035-RED") == "return_requested"


def test_returns_every_item_when_the_customer_says_both(env):
    talk(
        env,
        "return both items from W1007, priya.shah@example.com, they arrived damaged,"
        " refund to my card",
        "yes",
    )
    assert item_status(env, "W1007", "P035-RED") == "return_requested"
    assert item_status(env, "W1007", "P053-RED") == "return_requested"


def test_relays_the_policy_error_for_a_late_return(env):
    texts, _ = talk(
        env,
        "return the smart speaker from W1004, I changed my mind because I don't need it",
        "miguel.alvarez@example.com",
        "original payment",
        "yes",
    )
    assert "couldn't do that" in texts[-1] and "30 days" in texts[-1]
    assert item_status(env, "W1004", "P025-WHITE") == "ordered"


def test_exchanges_for_another_color(env):
    texts, calls = talk(
        env,
        "exchange the daypack from W1007 for a different color",
        "priya.shah@example.com",
        "Black please",
        "yes",
    )
    assert "Options: Black, White, Blue." in texts[1]
    assert calls[-1].args == {
        "order_id": "W1007",
        "sku": "P035-RED",
        "new_sku": "P035-BLACK",
        "reason": "customer prefers Black",
    }
    assert item_status(env, "W1007", "P035-RED") == "exchange_requested"


def test_updates_the_shipping_address(env):
    talk(
        env,
        "I moved, please update the address on W1001",
        "dana.reyes@example.com",
        "12 Birch Ct, Salem, OR 97301",
        "yes",
    )
    assert env.select("orders", {"id": "W1001"})[0]["zip"] == "97301"


def test_applies_a_coupon(env):
    texts, _ = talk(
        env, "can I use a coupon on W1003? miguel.alvarez@example.com", "SPRING10", "yes"
    )
    assert "you save $42.69" in texts[-1]
    assert env.select("orders", {"id": "W1003"})[0]["coupon_code"] == "SPRING10"


def test_reports_shipment_status(env):
    texts, _ = talk(env, "where is my order W1006?", "priya.shah@example.com")
    assert "expected by 2026-03-18" in texts[1]


def test_reports_refund_status(env):
    texts, _ = talk(env, "what's the status of my refund for W1005?", "miguel.alvarez@example.com")
    assert "issued" in texts[1]


def test_searches_products_with_price_cap(env):
    texts, calls = talk(env, "do you have a blender under $100?")
    assert "Aurora Blender" in texts[0]
    assert calls[0].args["max_price_cents"] == 10000


def test_escalates_to_a_human(env):
    texts, _ = talk(env, "I want to talk to a human please")
    assert "ticket E0001" in texts[0]
    assert len(env.select("escalations", {})) == 1


def test_handles_a_second_request_in_the_same_conversation(env):
    texts, _ = talk(
        env, "cancel W1003, miguel.alvarez@example.com", "yes", "Also, where is my order W1004?"
    )
    assert status(env, "W1003") == "cancelled"
    assert texts[-1].startswith("Order W1004 was delivered on 2026-01-29.")


async def test_respond_reports_tool_calls_with_results(env):
    agent = RuleShopAgent(env=env)
    reply = await agent.respond(
        Turn(episode_id="e1", message="where is W1006? priya.shah@example.com")
    )
    assert [c.name for c in reply.tool_calls] == ["find_customer", "get_order"]
    assert reply.tool_calls[1].result["id"] == "W1006"


def test_snapshot_and_restore_replay_the_same_conversation(env):
    agent = RuleShopAgent(env=env)
    agent.reply("cancel W1003, miguel.alvarez@example.com")
    saved_agent, saved_env = agent.snapshot(), env.snapshot()
    first = agent.reply("yes").text
    agent.restore(saved_agent)
    env.restore(saved_env)
    assert agent.reply("yes").text == first


# -- documented flaws: each shows only under its trigger behaviour ------------------------------


def test_flaw_f1_acts_on_the_order_number_the_customer_corrected(env):
    talk(
        env,
        "I need to cancel order W1003",
        "miguel.alvarez@example.com. Sorry, I meant W1010, not W1003",
        "yes",
    )
    assert status(env, "W1003") == "cancelled"  # the wrong order
    assert status(env, "W1010") == "pending"


def test_flaw_f2_returns_only_the_first_of_two_items_named(env):
    texts, _ = talk(
        env,
        "priya.shah@example.com: I want to return the daypack and the wallet"
        " from W1007, they arrived damaged. Refund to my card.",
        "yes",
    )
    assert item_status(env, "W1007", "P035-RED") == "return_requested"
    assert item_status(env, "W1007", "P053-RED") == "ordered"  # silently dropped
    assert texts[-1].startswith("Done")


def test_flaw_f3_skips_the_ownership_check_when_the_order_comes_first(env):
    talk(env, "cancel order W1003 please", "priya.shah@example.com", "yes")
    assert status(env, "W1003") == "cancelled"  # Priya cancelled Miguel's order


def test_flaw_f4_treats_a_hedged_no_as_yes(env):
    texts, _ = talk(
        env,
        "cancel W1003, my email is miguel.alvarez@example.com",
        "Okay, hmm, wait, no, don't cancel it yet",
    )
    assert texts[-1].startswith("Done")
    assert status(env, "W1003") == "cancelled"
