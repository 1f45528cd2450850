"""Hand a message to a chat widget only when it can take it, and check that it did.

Chat frameworks show their input before they can use it: Streamlit and Chainlit talk to their
server over a websocket that may not be up yet, keep the send button disabled meanwhile, and drop
what was typed when the composer re-renders; every framework is busy while a reply runs. So a
message is typed only once the widget's `ready` marker is there, no busy indicator shows and the
input is enabled; it is sent once the send button is enabled (retyped if the text was dropped);
and the send counts only when the widget took it (the input emptied, or the transcript or busy
state changed). Failing before the message reached the widget is an infrastructure failure
(`BrowserError`): nothing of the agent was tested.

On a loaded machine each of these takes longer: a step is tried again while the page keeps
working, and a send counts as ignored only once the page has been quiet for `SEND_QUIET_S`
with the message still in the input (a widget taking a message talks to its server).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from vistasim.browser import (
    PageActivity,
    Patience,
    WidgetSelectors,
    WidgetState,
    patiently,
    poll_widget,
    replaced_by_navigation,
)
from vistasim.errors import BrowserError

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

_POLL_S = 0.05
SEND_CHECK_S = 2.0
"""The first wait for each step of a send (typing, the button, the widget taking it)."""
SEND_QUIET_S = 5.0
"""A send is ignored once the page has done nothing for this long with the message still typed."""
_VALUE_JS = "(e) => (e.value ?? e.innerText ?? '').trim()"


@dataclass(kw_only=True)
class TurnClock:
    """A turn's time for getting a message in: `timeout_s`, and longer while the page works.

    Over once `timeout_s` has passed and the page has then been quiet for a while (the shorter of
    `timeout_s` and `SEND_QUIET_S`): a page on a loaded machine is slow, not stuck. Over in any
    case after `cap_s`.
    """

    timeout_s: float
    cap_s: float
    activity: PageActivity
    start: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        """Seconds since the turn began."""
        return time.monotonic() - self.start

    def over(self) -> bool:
        """Whether the turn's time for getting the message in is up."""
        elapsed = self.elapsed()
        quiet = min(self.activity.quiet_for(), elapsed)
        return elapsed >= self.cap_s or (
            elapsed >= self.timeout_s and quiet >= min(self.timeout_s, SEND_QUIET_S)
        )

    def patience(self, first_s: float | None = None) -> Patience:
        """How a Playwright step in this turn is waited for (`first_s`: its first try)."""
        left = max(1.0, self.cap_s - self.elapsed())
        first = first_s if first_s is not None else max(1.0, self.timeout_s - self.elapsed())
        return Patience(first_s=first, quiet_s=min(self.timeout_s, SEND_QUIET_S), cap_s=left)


async def wait_until_idle(
    page: Page, widget: WidgetSelectors, field: Locator, clock: TurnClock
) -> WidgetState:
    """Wait until the widget is connected, not busy and its input enabled; return that state.

    Raises:
        BrowserError: The widget did not get there before the turn's `clock` was over.
    """
    while True:
        state = await poll_widget(page, widget)
        if state.ready and not state.busy and await _enabled(field):
            return state
        if clock.over():
            raise BrowserError(_not_idle(page.url, widget, state), url=page.url)
        await anyio.sleep(_POLL_S)


async def _enabled(field: Locator) -> bool:
    try:
        return await field.is_enabled(timeout=SEND_CHECK_S * 1000)
    except _playwright_timeout():
        return False  # the input went away meanwhile; the next look finds out more


async def send_message(
    page: Page,
    widget: WidgetSelectors,
    field: Locator,
    message: str,
    clock: TurnClock,
) -> None:
    """Type `message`, send it once the widget allows it, and check the widget took it.

    Args:
        page: The page the widget is on.
        widget: Its selectors.
        field: Its input.
        message: What to send.
        clock: The turn's time for getting the message in (longer while the page works).

    Raises:
        BrowserError: The text could not be typed or sent, or the widget ignored the send.
    """
    error = _playwright_timeout()
    activity, patience = clock.activity, clock.patience(SEND_CHECK_S)
    before = await poll_widget(page, widget)
    try:
        await patiently(lambda ms: field.fill(message, timeout=ms), activity, patience)
        button = await _send_button(page, widget)
        if button is None:
            await field.press("Enter", timeout=patience.cap_s * 1000)  # once: it acts
        else:
            await _wait_enabled(button, field, message, clock)
            trial = button.click  # actionable yet? (a trial click does nothing, so try again)
            await patiently(lambda ms: trial(trial=True, timeout=ms), activity, patience)
            await button.click(timeout=patience.cap_s * 1000)  # once: a second would send twice
    except error as exc:
        raise BrowserError(
            f"could not send the message through the chat widget on {page.url!r}: "
            f"{_first_line(exc)}; check [web.widget] input and send",
            url=page.url,
            selector=widget.send or widget.input,
        ) from None
    await _confirm_sent(page, widget, field, message, before, clock)


async def _send_button(page: Page, widget: WidgetSelectors) -> Locator | None:
    if not widget.send:
        return None
    button = page.locator(widget.send).filter(visible=True).first
    return button if await button.count() else None


async def _wait_enabled(button: Locator, field: Locator, message: str, clock: TurnClock) -> None:
    """Wait for the send button to enable, retyping the message if the widget dropped it."""
    started = time.monotonic()
    while not await button.is_enabled():
        if _given_up(started, clock):
            return  # the click reports the disabled button
        if await _value(field) != message:
            await field.fill(message, timeout=SEND_CHECK_S * 1000)
        await anyio.sleep(_POLL_S)


def _given_up(started: float, clock: TurnClock) -> bool:
    """Whether a wait for the widget is over: the turn's time is up, or the page went quiet."""
    waited = time.monotonic() - started
    quiet = min(clock.activity.quiet_for(), waited)
    return clock.over() or (waited >= SEND_CHECK_S and quiet >= SEND_QUIET_S)


async def _confirm_sent(
    page: Page,
    widget: WidgetSelectors,
    field: Locator,
    message: str,
    before: WidgetState,
    clock: TurnClock,
) -> None:
    started = time.monotonic()
    while True:
        try:
            if await _value(field) != message:
                return  # the widget emptied its input: it took the message
            now = await poll_widget(page, widget)
        except _playwright_error() as exc:
            if replaced_by_navigation(exc):
                return  # a widget that posts a form reloads the page with the message sent
            raise
        if now.agent_texts != before.agent_texts or (now.busy and not before.busy):
            return
        if _given_up(started, clock):
            waited = time.monotonic() - started
            raise BrowserError(
                f"the chat widget on {page.url!r} did not take the message: it stayed in the "
                f"input for {waited:.0f} s after sending, the page quiet; check [web.widget] "
                "send (or set it to '' to press Enter)",
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


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _playwright_timeout() -> Any:
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def _playwright_error() -> Any:
    from playwright.async_api import Error

    return Error
