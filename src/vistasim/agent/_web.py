"""Reach an agent under test through the chat widget on its web page.

Many products expose their agent only as a chat widget in their site, often drawn by a chat
framework (Gradio, Streamlit, Chainlit, Shiny, Panel, NiceGUI). `WebChatAgent` drives that
widget in the Playwright page the simulated user also acts in: it finds the widget
(`browser.find_widget`), waits until the widget can take a message, types and sends it, and
waits until the reply is complete: no busy indicator (stop button, status widget, running state)
and no change to the text for a settle time long enough for replies that stream with pauses. The
agent's tool calls are read from the widget's network answer when it reports them (the built-in
domains answer `{reply, tool_calls}`), else from a `data-tool-calls` attribute on the message,
else from a `TraceSource`.

Failing to reach the widget (not found, never ready, the send ignored) is a `BrowserError`: the
episode is errored, since nothing of the agent was tested; so is a reply on the page that no
selector marks as the agent's (`_web_unread.py`). What happens after the message was delivered
(no reply, a failed request, a crash) is the agent's: `AgentError`. Waits are measured by
progress, not by a fixed clock: a reply that keeps moving is waited for (`timeout_s` counts
from its last change), so a loaded machine makes turns slow, not failed.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from vistasim.agent._types import Reply, RestoreStrategy, Turn, Utterance
from vistasim.agent._web_calls import attribute_tool_calls, glob_to_regex, network_tool_calls
from vistasim.agent._web_send import TurnClock, send_message, wait_until_idle
from vistasim.agent._web_trace import TraceSource
from vistasim.agent._web_unread import UNREAD_WORDS, page_words, unattributed, unread_error
from vistasim.browser import (
    PageActivity,
    WidgetSelectors,
    WidgetState,
    find_widget,
    patiently,
    poll_widget,
    read_chat,
    replaced_by_navigation,
)
from vistasim.errors import AgentError, BrowserError, MissingExtraError
from vistasim.events import ToolCall

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page, Response

__all__ = ["DEFAULT_SETTLE_MS", "WebChatAgent", "WidgetSelectors"]

_POLL_S = 0.05
_BODY_LIMIT = 2000
_CAP_TURNS = 10
"""A turn that keeps moving still ends after this many `timeout_s`."""
DEFAULT_SETTLE_MS = 1500
"""A reply is complete once its text has not changed for this long (and nothing shows busy)."""


class WebChatAgent:
    """The agent under test reached through its chat widget in a Playwright page (`kind = "web"`).

    The page belongs to the caller (the runner shares it with the simulated user); `aclose` only
    stops listening to it. The page holds the conversation, so the restore strategy is `replay`
    (unless the caller's browser snapshots bring it back); after a browser restore, `rebind` moves
    the adapter to the new page.
    Each reply's metadata records `latency_s` (send to the last change of the reply text) and
    `first_s` (send to the first text of the reply).

    Args:
        page: A Playwright `Page` already on the product's site.
        widget: Where the widget's parts are; default: found on the first turn (`find_widget`).
        settle_ms: The reply is complete once nothing shows busy and its text has not changed
            for this long (default `DEFAULT_SETTLE_MS`).
        timeout_s: Upper bound on one turn, from finding the widget to the settled reply.
        trace: Where to read tool calls when neither the network nor the page reports them.
        restore_strategy: `replay` (the default: the product's server holds the conversation);
            `stateless` when the browser snapshot brings the whole conversation back (the
            built-in domains' sites, whose sessions are in it), so nothing is re-sent.
    """

    restore_strategy: RestoreStrategy = "replay"

    def __init__(
        self,
        page: Page,
        *,
        widget: WidgetSelectors | None = None,
        settle_ms: int | None = None,
        timeout_s: float = 30.0,
        trace: TraceSource | None = None,
        restore_strategy: RestoreStrategy = "replay",
    ) -> None:
        _playwright()
        self.restore_strategy = restore_strategy
        self._page = page
        self._widget = widget
        self._settle_s = (DEFAULT_SETTLE_MS if settle_ms is None else settle_ms) / 1000
        self._timeout_s = timeout_s
        self._page_before: tuple[set[str], str] = (set(), "")
        self._trace = trace
        self._url_re = _url_pattern(widget or WidgetSelectors())
        self._responses: list[Response] = []
        self._crashed = False
        page.on("response", self._on_response)
        page.on("crash", self._on_crash)
        self._activity = PageActivity(page)

    @property
    def widget(self) -> WidgetSelectors | None:
        """The selectors in use (None until the first turn finds the widget)."""
        return self._widget

    async def respond(self, turn: Turn) -> Reply:
        """Type `turn.message` into the widget, send it and return the complete agent reply.

        Raises:
            AgentError: no reply within `timeout_s`, the widget's request failed (HTTP >= 400)
                or the page crashed.
            BrowserError: the widget was not found, never became ready or ignored the send; or
                the page or the browser was closed under the adapter.
        """
        cap_s = self._timeout_s * _CAP_TURNS
        clock = TurnClock(timeout_s=self._timeout_s, cap_s=cap_s, activity=self._activity)
        since = time.time()
        try:
            # A backstop: each wait has its own bound, which grows while the page makes progress.
            with anyio.fail_after(cap_s + self._timeout_s):
                return await self._turn(turn.message, clock, since)
        except TimeoutError:
            raise self._timeout_error("", ()) from None
        except _playwright().Error as exc:
            raise self._translate(exc) from None

    async def transcript(self) -> tuple[Utterance, ...]:
        """Return the widget's transcript as shown on the page, oldest first.

        A message is the agent's when it matches (or contains, or sits in) `agent_message`.
        """
        lines = await read_chat(self._page, self._widget or WidgetSelectors())
        return tuple(Utterance(role=line.role, text=line.text) for line in lines)

    def rebind(self, page: Page) -> None:
        """Talk to the widget on `page` from now on (the page a browser restore opened).

        The widget's selectors are kept: the restored page is the same site.
        """
        self._stop_listening()
        self._page = page
        self._responses.clear()
        self._crashed = False
        page.on("response", self._on_response)
        page.on("crash", self._on_crash)
        self._activity = PageActivity(page)

    async def aclose(self) -> None:
        """Stop listening to the page (the page and browser belong to the caller)."""
        self._stop_listening()
        close = getattr(self._trace, "aclose", None)
        if close is not None:
            await close()

    def _stop_listening(self) -> None:
        self._page.remove_listener("response", self._on_response)
        self._page.remove_listener("crash", self._on_crash)
        self._activity.close()

    async def _turn(self, message: str, clock: TurnClock, since: float) -> Reply:
        widget = await self._find_widget()
        field = await self._find_input(widget, clock)
        idle = await wait_until_idle(self._page, widget, field, clock)
        self._responses.clear()
        self._page_before = (await page_words(self._page, _playwright().Error), message)
        await send_message(self._page, widget, field, message, clock)
        reading = await self._wait_reply(widget, idle, message, clock)
        return Reply(
            text=reading.text,
            tool_calls=await self._tool_calls(reading.attrs, since),
            metadata={
                "latency_s": round(reading.changed_at - reading.sent_at, 4),
                "first_s": round(reading.first_at - reading.sent_at, 4),
            },
        )

    async def _find_widget(self) -> WidgetSelectors:
        if self._widget is None:
            self._widget = (await find_widget(self._page, timeout_s=self._timeout_s)).selectors
            self._url_re = _url_pattern(self._widget)
        return self._widget

    async def _find_input(self, widget: WidgetSelectors, clock: TurnClock) -> Locator:
        """Return the visible widget input, clicking the launcher first if the widget is closed."""
        field = self._page.locator(widget.input).filter(visible=True).first
        if not await field.count() and widget.open_button:
            launcher = self._page.locator(widget.open_button).filter(visible=True).first
            if await launcher.count():
                trial = launcher.click  # actionable yet? (a trial click does nothing)
                await patiently(lambda ms: trial(trial=True, timeout=ms), self._activity,
                                clock.patience())  # fmt: skip
                await launcher.click(timeout=clock.patience().cap_s * 1000)
                await self._wait_quiet(widget, clock)
        try:
            await patiently(
                lambda ms: field.wait_for(state="visible", timeout=ms),
                self._activity,
                clock.patience(),
            )
        except _playwright().TimeoutError:
            raise BrowserError(
                f"no chat widget input matching {widget.input!r} is visible on "
                f"{self._page.url!r} after {clock.elapsed():.0f} s; set [web.widget] input (and "
                "open_button if a launcher opens the widget)",
                url=self._page.url,
                selector=widget.input,
            ) from None
        return field

    async def _wait_quiet(self, widget: WidgetSelectors, clock: TurnClock) -> None:
        """Wait until the agent messages stop changing, so a greeting on open is not a reply."""
        last, changed_at = None, time.monotonic()
        while not clock.over():
            texts = (await poll_widget(self._page, widget)).agent_texts
            if texts != last:
                last, changed_at = texts, time.monotonic()
            elif time.monotonic() - changed_at >= self._settle_s:
                return
            await anyio.sleep(_POLL_S)

    async def _wait_reply(
        self, widget: WidgetSelectors, before: WidgetState, message: str, clock: TurnClock
    ) -> _Reading:
        """Poll the widget after the send until the reply is complete.

        Complete means: some text, no busy indicator, and neither changed for the settle time.
        The wait lasts while the reply moves: it fails once nothing (its text, the busy
        indicators, the transcript) has changed for `timeout_s`, or after `_CAP_TURNS` times
        that in all; a reply on the page that no selector marks as the agent's is an
        unreadable reply, not a missing one.
        """
        reading = _Reading(before=before, message=message, sent_at=time.monotonic())
        while True:
            await self._check_failures()
            state = await self._poll(widget)
            now = time.monotonic()
            if state is not None:
                reading.update(state, now)
            if reading.text and not reading.busy and now - reading.quiet_since >= self._settle_s:
                return reading
            if reading.unread and not reading.busy and now - reading.quiet_since >= self._settle_s:
                raise unread_error(self._page.url, _unread_detail(reading.unread))
            if now - reading.moved_at >= self._timeout_s or clock.elapsed() >= clock.cap_s:
                await self._give_up(reading)
            await anyio.sleep(_POLL_S)

    async def _give_up(self, reading: _Reading) -> None:
        """Fail the turn: an unreadable reply if new words showed, else no complete reply."""
        if not reading.text and not reading.busy:
            before, message = self._page_before
            new = await page_words(self._page, _playwright().Error) - before
            if len(new - set(message.casefold().split())) >= UNREAD_WORDS:
                raise unread_error(self._page.url, "the page shows new text, but no agent message")
        raise self._timeout_error(reading.text, reading.busy)

    async def _poll(self, widget: WidgetSelectors) -> WidgetState | None:
        """Look at the widget; `None` while the page is being replaced."""
        try:
            return await poll_widget(self._page, widget)
        except _playwright().Error as exc:
            # Widgets that post a form reload the page: wait for the new page's transcript.
            if not replaced_by_navigation(exc):
                raise
            return None

    async def _check_failures(self) -> None:
        if self._crashed:
            raise AgentError(f"the page {self._page.url!r} crashed while waiting for the reply")
        for response in list(self._responses):
            if response.status >= 400:
                body = (await response.text())[:_BODY_LIMIT]
                raise AgentError(
                    f"the chat widget's request to {response.url} answered HTTP {response.status}",
                    status=response.status,
                    body=body,
                )

    async def _tool_calls(self, attrs: list[str | None], since: float) -> tuple[ToolCall, ...]:
        deadline = time.monotonic() + self._timeout_s
        found, calls = await network_tool_calls(self._responses, deadline)
        if found:
            return calls
        if any(attrs):
            return attribute_tool_calls(attrs)
        if self._trace is not None:
            return tuple(await self._trace.fetch(since))
        return ()

    def _timeout_error(self, partial: str, busy: tuple[str, ...]) -> AgentError:
        if partial and busy:
            detail = f"the widget still showed {', '.join(busy)}; last text: {partial[:200]!r}"
        elif partial:
            detail = f"the reply was still changing; last text: {partial[:200]!r}"
        else:
            detail = "no new agent message appeared"
        return AgentError(
            f"no complete reply from the chat widget on {self._page.url!r} within "
            f"{self._timeout_s:g} s ({detail}); raise [web.widget] timeout_s, or check "
            "[web.widget] agent_message and busy"
        )

    def _translate(self, exc: Exception) -> Exception:
        if self._crashed:
            return AgentError(f"the page {self._page.url!r} crashed: {_first_line(exc)}")
        if type(exc).__name__ == "TargetClosedError" or self._page.is_closed():
            return BrowserError(
                f"the page or browser was closed while talking to the chat widget: "
                f"{_first_line(exc)}",
                url=self._page.url,
            )
        return AgentError(f"the chat widget on {self._page.url!r} failed: {_first_line(exc)}")

    def _on_response(self, response: Response) -> None:
        if self._url_re is not None and self._url_re.fullmatch(response.url):
            self._responses.append(response)

    def _on_crash(self, _page: Page) -> None:
        self._crashed = True


def _url_pattern(widget: WidgetSelectors) -> re.Pattern[str] | None:
    return None if widget.reply_url is None else glob_to_regex(widget.reply_url)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _playwright() -> Any:
    """Import Playwright's async API (the `browser` extra) only when a web agent is used."""
    try:
        import playwright.async_api as api
    except ImportError:
        raise MissingExtraError("playwright", "browser") from None
    return api


@dataclass(kw_only=True)
class _Reading:
    """What the adapter has read of one reply so far."""

    before: WidgetState
    """The widget just before the send."""
    message: str
    sent_at: float
    text: str = ""
    """The agent's new messages, joined."""
    attrs: list[str | None] = field(default_factory=list)
    busy: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()
    """New transcript lines that are neither the agent's nor the message sent."""
    first_at: float = 0.0
    changed_at: float = 0.0
    moved_at: float = 0.0
    """When anything read last changed (text, busy indicators, unread lines)."""
    quiet_since: float = 0.0
    """Since when nothing has changed and nothing shows busy."""

    def __post_init__(self) -> None:
        self.changed_at = self.moved_at = self.quiet_since = self.sent_at

    def update(self, state: WidgetState, now: float) -> None:
        """Take in one look at the widget."""
        new = state.agent_texts[len(self.before.agent_texts) :]
        text = "\n".join(t for t, _ in new).strip()
        unread = unattributed(self.before.chat, state.chat, self.message)
        moved = text != self.text or state.busy != self.busy or unread != self.unread
        if text != self.text:
            self.text, self.attrs, self.changed_at = text, [a for _, a in new], now
            self.first_at = self.first_at or (now if text else 0.0)
        self.busy, self.unread = state.busy, unread
        if moved:
            self.moved_at = now
        if moved or state.busy:
            self.quiet_since = now


def _unread_detail(lines: tuple[str, ...]) -> str:
    return f"the widget shows a new message {lines[-1][:120]!r} that is not marked as the agent's"
