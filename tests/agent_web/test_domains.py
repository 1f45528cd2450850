"""WebChatAgent with default selectors on the built-in domains' sites, capturing tool calls."""

from __future__ import annotations

import pytest

from vistasim.agent import Turn, WebChatAgent, WidgetSelectors

pytestmark = pytest.mark.browser

ORDER_QUESTION = "What's the status of order W1003? My email is miguel.alvarez@example.com"


async def test_shop_widget_reply_with_default_selectors(page, shop_url):
    await page.goto(shop_url + "/")
    agent = WebChatAgent(page, settle_ms=150, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message=ORDER_QUESTION))
    assert reply.text.startswith("Order W1003 is pending")
    await agent.aclose()


async def test_shop_tool_calls_come_with_results_from_the_chat_response(page, shop_url):
    await page.goto(shop_url + "/")
    agent = WebChatAgent(page, settle_ms=150, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message=ORDER_QUESTION))
    assert [c.name for c in reply.tool_calls] == ["find_customer", "get_order"]
    assert reply.tool_calls[1].args == {"order_id": "W1003"}
    assert reply.tool_calls[1].result["status"] == "pending"
    await agent.aclose()


async def test_shop_tool_call_names_come_from_the_message_attribute_without_reply_url(
    page, shop_url
):
    await page.goto(shop_url + "/")
    agent = WebChatAgent(page, widget=WidgetSelectors(reply_url=None), settle_ms=150)
    reply = await agent.respond(Turn(episode_id="e1", message=ORDER_QUESTION))
    assert [(c.name, c.result) for c in reply.tool_calls] == [
        ("find_customer", None),
        ("get_order", None),
    ]
    await agent.aclose()


async def test_shop_conversation_survives_navigation_and_next_reply_is_new(page, shop_url):
    await page.goto(shop_url + "/")
    agent = WebChatAgent(page, settle_ms=150, timeout_s=8.0)
    await agent.respond(Turn(episode_id="e1", message=ORDER_QUESTION))
    await page.goto(shop_url + "/cart")  # the widget re-renders its transcript from storage
    reply = await agent.respond(Turn(episode_id="e1", message="Do you have any blenders?"))
    assert "W1003" not in reply.text  # the earlier reply, re-rendered, is not taken for new
    assert [c.name for c in reply.tool_calls] == ["search_products"]
    await agent.aclose()


async def test_school_widget_reply_with_default_selectors(page, school_url):
    await page.goto(school_url + "/")
    agent = WebChatAgent(page, settle_ms=150, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message="hello"))
    assert reply.text
    assert [m.role for m in await agent.transcript()] == ["user", "agent"]
    await agent.aclose()
