"""Reach an agent under test through the chat widget on its web page.

Many products expose their agent only as a chat widget in their site, often drawn by a chat
framework (Gradio, Streamlit, Chainlit). `WebChatAgent` drives that widget in the Playwright page
the simulated user also acts in: it finds the widget (`browser.find_widget`), waits until the
widget can take a message, types and sends it, and waits until the reply is complete: no busy
indicator (stop button, status widget, running state) and no change to the text for a settle time
long enough for replies that stream with pauses. The agent's tool calls are read from the
widget's network answer when it reports them (the built-in domains answer `{reply, tool_calls}`),
else from a `data-tool-calls` attribute on the message, else from a `TraceSource`.

Failing to reach the widget (not found, never ready, the send ignored) is a `BrowserError`: the
episode is errored, since nothing of the agent was tested. What happens after the message was
delivered (no reply, a failed request, a crash) is the agent's: `AgentError`.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import anyio

from vistasim.agent._types import Reply, RestoreStrategy, Turn, Utterance
from vistasim.agent._web_calls import attribute_tool_calls, glob_to_regex, network_tool_calls
from vistasim.agent._web_send import is_navigation, send_message, wait_until_idle
from vistasim.agent._web_trace import TraceSource
from vistasim.browser import WidgetSelectors, WidgetState, find_widget, poll_widget, read_chat
from vistasim.errors import AgentError, BrowserError, MissingExtraError
from vistasim.events import ToolCall

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page, Response

__all__ = ["DEFAULT_SETTLE_MS", "WebChatAgent", "WidgetSelectors"]

_POLL_S = 0.05
_BODY_LIMIT = 2000
_UNREAD_WORDS = 3
"""New words on the page after a send, with no agent message read, that mean the reply is there
but unreadable (fewer: the agent said nothing)."""
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
        deadline = time.monotonic() + self._timeout_s
        since = time.time()
        try:
            with anyio.fail_after(self._timeout_s + 1):  # backstop; each wait has its own bound
                return await self._turn(turn.message, deadline, since)
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

    async def aclose(self) -> None:
        """Stop listening to the page (the page and browser belong to the caller)."""
        self._stop_listening()
        close = getattr(self._trace, "aclose", None)
        if close is not None:
            await close()

    def _stop_listening(self) -> None:
        self._page.remove_listener("response", self._on_response)
        self._page.remove_listener("crash", self._on_crash)

    async def _turn(self, message: str, deadline: float, since: float) -> Reply:
        widget = await self._find_widget(deadline)
        field = await self._find_input(widget, deadline)
        idle = await wait_until_idle(self._page, widget, field, deadline)
        self._responses.clear()
        self._page_before = (await self._page_words(), message)
        sent_at = time.monotonic()
        await send_message(self._page, widget, field, message, deadline)
        text, attrs, first_at, changed_at = await self._wait_reply(
            widget, len(idle.agent_texts), deadline
        )
        return Reply(
            text=text,
            tool_calls=await self._tool_calls(attrs, since, deadline),
            metadata={
                "latency_s": round(changed_at - sent_at, 4),
                "first_s": round(first_at - sent_at, 4),
            },
        )

    async def _find_widget(self, deadline: float) -> WidgetSelectors:
        if self._widget is None:
            left = max(0.1, deadline - time.monotonic())
            self._widget = (await find_widget(self._page, timeout_s=left)).selectors
            self._url_re = _url_pattern(self._widget)
        return self._widget

    async def _find_input(self, widget: WidgetSelectors, deadline: float) -> Locator:
        """Return the visible widget input, clicking the launcher first if the widget is closed."""
        field = self._page.locator(widget.input).filter(visible=True).first
        if not await field.count() and widget.open_button:
            launcher = self._page.locator(widget.open_button).filter(visible=True).first
            if await launcher.count():
                await launcher.click(timeout=_ms_left(deadline))
                await self._wait_quiet(widget, deadline)
        try:
            await field.wait_for(state="visible", timeout=_ms_left(deadline))
        except _playwright().TimeoutError:
            raise BrowserError(
                f"no chat widget input matching {widget.input!r} is visible on "
                f"{self._page.url!r} after {self._timeout_s:g} s; set [web.widget] input (and "
                "open_button if a launcher opens the widget)",
                url=self._page.url,
                selector=widget.input,
            ) from None
        return field

    async def _wait_quiet(self, widget: WidgetSelectors, deadline: float) -> None:
        """Wait until the agent messages stop changing, so a greeting on open is not a reply."""
        last, changed_at = None, time.monotonic()
        while time.monotonic() < deadline:
            texts = (await poll_widget(self._page, widget)).agent_texts
            if texts != last:
                last, changed_at = texts, time.monotonic()
            elif time.monotonic() - changed_at >= self._settle_s:
                return
            await anyio.sleep(_POLL_S)

    async def _wait_reply(
        self, widget: WidgetSelectors, before: int, deadline: float
    ) -> tuple[str, list[str | None], float, float]:
        """Poll the agent messages after the first `before` until the reply is complete.

        Complete means: some text, no busy indicator, and neither changed for the settle time.
        """
        last = ""
        attrs: list[str | None] = []
        busy: tuple[str, ...] = ()
        first_at = changed_at = 0.0
        quiet_since = time.monotonic()
        while True:
            await self._check_failures()
            state = await self._poll(widget)
            now = time.monotonic()
            if state is not None:
                new = state.agent_texts[before:]
                text = "\n".join(t for t, _ in new).strip()
                busy = state.busy
                if text != last:
                    last, attrs, changed_at = text, [a for _, a in new], now
                    first_at = first_at or (now if text else 0.0)
                if busy or changed_at == now:
                    quiet_since = now
            if last and not busy and now - quiet_since >= self._settle_s:
                return last, attrs, first_at, changed_at
            if now >= deadline:
                if not last and not busy and await self._page_changed():
                    raise self._unread_error()
                raise self._timeout_error(last, busy)
            await anyio.sleep(_POLL_S)

    async def _page_words(self) -> set[str]:
        try:
            text = await self._page.evaluate("document.body ? document.body.innerText : ''")
        except _playwright().Error:
            return set()
        return set(str(text).casefold().split())

    async def _page_changed(self) -> bool:
        """Whether new text showed on the page after the send, though no agent message did."""
        before, message = self._page_before
        new = await self._page_words() - before - set(message.casefold().split())
        return len(new) >= _UNREAD_WORDS

    def _unread_error(self) -> BrowserError:
        # New text appeared but no selector took it for the agent's: vistasim cannot read this
        # widget, and a harness that cannot read must never score the agent.
        return BrowserError(
            f"the reply could not be read on {self._page.url!r}: the page showed new text after "
            "the message was sent, but nothing matched the agent's messages; set "
            "[web.widget] agent_message to a selector of the agent's replies",
            url=self._page.url,
        )

    async def _poll(self, widget: WidgetSelectors) -> WidgetState | None:
        """Look at the widget; `None` while the page is being replaced."""
        try:
            return await poll_widget(self._page, widget)
        except _playwright().Error as exc:
            # Widgets that post a form reload the page: wait for the new page's transcript.
            if not is_navigation(exc):
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

    async def _tool_calls(
        self, attrs: list[str | None], since: float, deadline: float
    ) -> tuple[ToolCall, ...]:
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


def _ms_left(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


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
