"""Hand a message to a chat widget only when it can take it, and check that it did.

Chat frameworks show their input before they can use it: Streamlit and Chainlit talk to their
server over a websocket that may not be up yet, keep the send button disabled meanwhile, and drop
what was typed when the composer re-renders; every framework is busy while a reply runs. So a
message is typed only once the widget's `ready` marker is there, no busy indicator shows and the
input is enabled; it is sent once the send button is enabled (retyped if the text was dropped);
and the send counts only when the widget took it (the input emptied, or the transcript or busy
state changed). Failing before the message reached the widget is an infrastructure failure
(`BrowserError`): nothing of the agent was tested.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import anyio

from vistasim.browser import WidgetSelectors, WidgetState, poll_widget
from vistasim.errors import BrowserError

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

_POLL_S = 0.05
SEND_CHECK_S = 2.0
"""How long a send may take to show on the page before it counts as failed (within the turn)."""
_VALUE_JS = "(e) => (e.value ?? e.innerText ?? '').trim()"


async def wait_until_idle(
    page: Page, widget: WidgetSelectors, field: Locator, deadline: float
) -> WidgetState:
    """Wait until the widget is connected, not busy and its input enabled; return that state.

    Raises:
        BrowserError: The widget did not get there before `deadline`.
    """
    while True:
        state = await poll_widget(page, widget)
        if state.ready and not state.busy and await _enabled(field):
            return state
        if time.monotonic() >= deadline:
            raise BrowserError(_not_idle(page.url, widget, state), url=page.url)
        await anyio.sleep(_POLL_S)


async def _enabled(field: Locator) -> bool:
    try:
        return await field.is_enabled(timeout=SEND_CHECK_S * 1000)
    except _playwright_timeout():
        return False  # the input went away meanwhile; the next look finds out more


async def send_message(
    page: Page, widget: WidgetSelectors, field: Locator, message: str, deadline: float
) -> None:
    """Type `message`, send it once the widget allows it, and check the widget took it.

    Raises:
        BrowserError: The text could not be typed or sent, or the widget ignored the send.
    """
    error = _playwright_timeout()
    bound = min(_ms_left(deadline), SEND_CHECK_S * 1000)
    before = await poll_widget(page, widget)
    try:
        await field.fill(message, timeout=bound)
        button = await _send_button(page, widget)
        if button is None:
            await field.press("Enter", timeout=bound)
        else:
            await _wait_enabled(button, field, message, min(deadline, _after(SEND_CHECK_S)))
            await button.click(timeout=bound)
    except error as exc:
        raise BrowserError(
            f"could not send the message through the chat widget on {page.url!r}: "
            f"{_first_line(exc)}; check [web.widget] input and send",
            url=page.url,
            selector=widget.send or widget.input,
        ) from None
    await _confirm_sent(page, widget, field, message, before, min(deadline, _after(SEND_CHECK_S)))


async def _send_button(page: Page, widget: WidgetSelectors) -> Locator | None:
    if not widget.send:
        return None
    button = page.locator(widget.send).filter(visible=True).first
    return button if await button.count() else None


async def _wait_enabled(button: Locator, field: Locator, message: str, until: float) -> None:
    """Wait for the send button to enable, retyping the message if the widget dropped it."""
    while not await button.is_enabled():
        if time.monotonic() >= until:
            return  # the click reports the disabled button
        if await _value(field) != message:
            await field.fill(message, timeout=_ms_left(until))
        await anyio.sleep(_POLL_S)


async def _confirm_sent(
    page: Page,
    widget: WidgetSelectors,
    field: Locator,
    message: str,
    before: WidgetState,
    until: float,
) -> None:
    while True:
        try:
            if await _value(field) != message:
                return  # the widget emptied its input: it took the message
            now = await poll_widget(page, widget)
        except _playwright_error() as exc:
            if is_navigation(exc):
                return  # a widget that posts a form reloads the page with the message sent
            raise
        if now.agent_texts != before.agent_texts or (now.busy and not before.busy):
            return
        if time.monotonic() >= until:
            raise BrowserError(
                f"the chat widget on {page.url!r} did not take the message: it stayed in the "
                f"input for {SEND_CHECK_S:g} s after sending; check [web.widget] send (or set it "
                "to '' to press Enter)",
                url=page.url,
                selector=widget.send or widget.input,
            )
        await anyio.sleep(_POLL_S)


async def _value(field: Locator) -> str:
    return str(await field.evaluate(_VALUE_JS, timeout=SEND_CHECK_S * 1000))


def _not_idle(url: str, widget: WidgetSelectors, state: WidgetState) -> str:
    if not state.ready:
        why = f"its connection marker {widget.ready!r} never appeared"
        fix = "check that the app's server is up, or set [web.widget] ready"
    elif state.busy:
        why = f"it stayed busy ({', '.join(state.busy)} visible)"
        fix = "check [web.widget] busy"
    else:
        why = f"its input {widget.input!r} stayed disabled"
        fix = "check [web.widget] input"
    return f"the chat widget on {url!r} never became ready for a message: {why}; {fix}"


def is_navigation(exc: Exception) -> bool:
    """Whether a Playwright error means the page was being replaced (a reload after a send)."""
    return "context was destroyed" in str(exc) or "navigation" in str(exc)


def _after(seconds: float) -> float:
    return time.monotonic() + seconds


def _ms_left(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _playwright_timeout() -> Any:
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def _playwright_error() -> Any:
    from playwright.async_api import Error

    return Error
