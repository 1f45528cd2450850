"""Web actions on the shop site and on a plain page: each kind, and each way a target is wrong."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import log_in
from vistasim.browser import (
    ACTION_DESCRIPTIONS,
    Back,
    Click,
    Navigate,
    Scroll,
    SelectOption,
    TypeText,
)

pytestmark = pytest.mark.browser


def value_of(view, element_id):
    return next(e.value for e in view.elements if e.id == element_id)


async def test_type_with_enter_submits_the_login_form(session, shop):
    await session.goto(f"{shop}/login")
    await session.observe()
    result = await session.act(
        TypeText(target="login-email", text="priya.shah@example.com", enter=True)
    )
    assert result.ok
    assert result.url.startswith(f"{shop}/orders")
    assert result.summary.startswith(
        "typed 'priya.shah@example.com' into 'Email' and pressed Enter"
    )
    assert "now at /orders" in result.summary


async def test_click_follows_a_link_and_says_where_it_went(session, shop):
    await log_in(session, shop)
    await session.goto(f"{shop}/orders")
    await session.observe()
    result = await session.act(Click(target="order-link-W1007"))
    assert result.ok and result.url == f"{shop}/orders/W1007"
    assert result.summary == "clicked 'W1007'; now at /orders/W1007"


async def test_click_toggles_a_checkbox(session, shop):
    await log_in(session, shop)
    await session.goto(f"{shop}/orders/W1007")
    await session.observe()
    result = await session.act(Click(target="return-item-P035-RED"))
    assert result.ok and result.summary == "clicked 'Return Trail Daypack'"
    assert value_of(await session.observe(), "return-item-P035-RED") == "checked"


async def test_select_chooses_an_option_by_value_or_label(session, shop):
    await log_in(session, shop)
    await session.goto(f"{shop}/orders/W1007")
    await session.observe()
    by_value = await session.act(SelectOption(target="return-refund-to", value="gift_card"))
    assert by_value.summary == "selected 'Store gift card' in 'Refund to'"
    assert value_of(await session.observe(), "return-refund-to") == "Store gift card"
    by_label = await session.act(SelectOption(target="return-refund-to", value="Original payment"))
    assert by_label.ok
    assert value_of(await session.observe(), "return-refund-to") == "Original payment"


async def test_scroll_moves_the_page(session, shop):
    await session.page.set_viewport_size({"width": 800, "height": 200})
    await session.goto(f"{shop}/")
    result = await session.act(Scroll(direction="down"))
    assert result.ok and result.summary.startswith("scrolled down")
    assert await session.page.evaluate("() => window.scrollY") > 0
    await session.act(Scroll(direction="up"))
    assert await session.page.evaluate("() => window.scrollY") == 0


async def test_navigate_accepts_a_path_on_the_current_site(session, shop):
    await session.goto(f"{shop}/")
    result = await session.act(Navigate(url="/product/P035"))
    assert result.ok and result.url == f"{shop}/product/P035"
    assert result.summary == "navigated to /product/P035"


async def test_navigate_reports_an_http_error_status(session, shop):
    await session.goto(f"{shop}/")
    result = await session.act(Navigate(url="/product/NOPE"))
    assert result.ok and re.search(r"\(HTTP 4\d\d\)$", result.summary)


async def test_back_returns_to_the_previous_page(session, shop):
    await session.goto(f"{shop}/")
    await session.goto(f"{shop}/product/P035")
    result = await session.act(Back())
    assert result.ok and result.url == f"{shop}/"
    assert result.summary == "went back to /"


async def test_back_with_no_history_is_an_error(session):
    result = await session.act(Back())
    assert not result.ok and "no previous page" in result.error


async def test_unknown_target_lists_the_available_ids(session, shop):
    await session.goto(f"{shop}/login")
    await session.observe()
    result = await session.act(Click(target="buy-now"))
    assert not result.ok
    assert result.error.startswith("no element 'buy-now' on this page; available: ")
    assert "login-submit" in result.error and "chat-log" not in result.error


async def test_typing_into_a_select_is_refused_with_the_fix(session, shop):
    await session.goto(f"{shop}/product/P035")
    await session.observe()
    result = await session.act(TypeText(target="variant-select", text="Red"))
    assert not result.ok and "use select" in result.error


async def test_selecting_a_missing_option_lists_the_options(session, shop):
    await session.goto(f"{shop}/")
    await session.observe()
    result = await session.act(SelectOption(target="category-select", value="Spaceships"))
    assert not result.ok
    assert "no option 'Spaceships'" in result.error and "'All categories'" in result.error


async def test_aria_refs_are_clicked_and_typed_on_pages_without_ids(session, site):
    await session.goto(f"{site}/plain")
    view = await session.observe()
    ids = {e.label: e.id for e in view.elements}
    typed = await session.act(TypeText(target=ids["Your name"], text="Grace"))
    clicked = await session.act(Click(target=ids["Send"]))
    assert typed.ok and clicked.ok and clicked.summary == "clicked 'Send'"
    view = await session.observe()
    assert "Sent!" in view.text
    assert next(e.value for e in view.elements if e.label == "Your name") == "Grace"


async def test_disabled_element_is_an_error(session, site):
    await session.goto(f"{site}/plain")
    view = await session.observe()
    archive = next(e.id for e in view.elements if e.label == "Archive")
    result = await session.act(Click(target=archive))
    assert not result.ok and "is disabled" in result.error


async def test_stale_aria_ref_is_an_unknown_element(session, site):
    await session.goto(f"{site}/plain")
    await session.observe()
    result = await session.act(Click(target="e999"))
    assert not result.ok and result.error.startswith("no element 'e999' on this page")


def test_every_action_kind_has_a_description():
    assert set(ACTION_DESCRIPTIONS) == {"click", "type", "select", "scroll", "navigate", "back"}
    assert all(text.startswith(kind) for kind, text in ACTION_DESCRIPTIONS.items())


async def test_a_request_pending_from_before_the_action_is_not_waited_for(session, site):
    await session.page.goto(f"{site}/poll")  # starts a request that answers after 3 s
    await session.observe()
    started = time.monotonic()
    result = await session.act(Click(target="mark"))
    assert result.ok
    assert time.monotonic() - started < 1.9  # the settle bound is 2 s
    assert "marked" in (await session.observe()).text


async def test_hidden_element_is_not_observed_and_cannot_be_clicked(session, site):
    await session.goto(f"{site}/links")
    view = await session.observe()
    assert "secret" not in {e.id for e in view.elements}
    result = await session.act(Click(target="secret"))
    assert not result.ok and "is hidden" in result.error
