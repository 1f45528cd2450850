"""Reach an agent under test through the chat widget on its web page.

Many products expose their agent only as a chat widget in their site. `WebChatAgent` drives that
widget in the Playwright page the simulated user also acts in: it opens the widget, types the
message, sends it and waits until the new agent message stops changing (widgets often stream
their reply). Widgets differ, so the elements are found by configurable selectors with defaults
for the built-in domains and common markup. The agent's tool calls are read from the widget's
network answer when it reports them (the built-in domains answer `{reply, tool_calls}`), else from
a `data-tool-calls` attribute on the message, else from a `TraceSource` the user points at.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import ConfigDict, with_config

from vistasim.agent._python import coerce_tool_call
from vistasim.agent._types import Reply, RestoreStrategy, Turn, Utterance
from vistasim.agent._web_trace import TraceSource
from vistasim.errors import AgentError, BrowserError, MissingExtraError
from vistasim.events import ToolCall

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page, Response

_POLL_S = 0.05
_BODY_LIMIT = 2000
_SEND_CHECK_S = 2.0
"""How long a click on send may take before the send counts as failed (within `timeout_s`)."""

# Texts of the matched elements, leaving out elements nested in another match, so broad default
# selectors (`.agent` inside `.agent-message`) do not count one message twice.
_TEXTS_JS = """els => els
  .filter(e => !els.some(o => o !== e && o.contains(e)))
  .map(e => [e.innerText || e.textContent || "", e.getAttribute(ATTR)])"""
_ROLES_JS = """(els, agents) => els
  .filter(e => !els.some(o => o !== e && o.contains(e)))
  .map(e => [e.innerText || e.textContent || "",
             agents.some(a => a === e || a.contains(e) || e.contains(a))])"""


@with_config(ConfigDict(extra="forbid"))  # config files validate it: a typo is an error
@dataclass(frozen=True, kw_only=True)
class WidgetSelectors:
    """Where the chat widget's parts are on the page (Playwright selectors; CSS unions allowed).

    Each field may list several alternatives separated by commas; the first visible match in
    document order is used. The defaults fit the built-in domains' widgets and common widgets
    (an input or textarea inside an element whose class or id mentions `chat`).
    """

    input: str = (
        "#chat-input, [data-semantic-id=chat-input], [class*=chat] textarea, [id*=chat] textarea,"
        " [class*=chat] input[type=text], [class*=chat] input:not([type]),"
        " [id*=chat] input[type=text], [id*=chat] input:not([type])"
    )
    """The text field the message is typed into."""
    send: str | None = (
        "#chat-send, [data-semantic-id=chat-send], #chat-form button,"
        " [class*=chat] button[type=submit], [id*=chat] button[type=submit],"
        " [class*=chat] button[aria-label*=send i], [id*=chat] button[aria-label*=send i]"
    )
    """The send button; when none is visible (or `None`), Enter is pressed in the input."""
    messages: str = (
        "#chat-log > *, [data-role=user], [data-role=agent], [data-role=assistant],"
        " [class*=chat] [class~=message], [id*=chat] [class~=message]"
    )
    """Every message of the transcript, user's and agent's, in order."""
    agent_message: str = (
        "#chat-log > .agent, [data-role=agent], [data-role=assistant], [data-role=bot],"
        " [class*=chat] [class~=agent], [id*=chat] [class~=agent],"
        " [class*=chat] [class~=bot], [id*=chat] [class~=bot],"
        " [class*=chat] [class~=assistant], [id*=chat] [class~=assistant],"
        " [class*=agent-message], [class*=bot-message], [class*=assistant-message]"
    )
    """The agent's messages only; a reply is the text of the ones that appear after a send."""
    open_button: str | None = (
        "[class*=chat][class*=launcher], [id*=chat][id*=launcher],"
        " [class*=chat][class*=toggle], [id*=chat][id*=toggle],"
        " button[aria-label*=open i][aria-label*=chat i]"
    )
    """A launcher clicked to open a collapsed widget when the input is not visible."""
    reply_url: str | None = "**/api/chat"
    """URL glob of the widget's request whose JSON answer may carry `tool_calls`."""
    tool_calls_attr: str | None = "data-tool-calls"
    """Attribute of an agent message holding its tool calls as JSON (used without `reply_url`)."""


class WebChatAgent:
    """The agent under test reached through its chat widget in a Playwright page (`kind = "web"`).

    The page belongs to the caller (the runner shares it with the simulated user); `aclose` only
    stops listening to it. The page holds the conversation, so the restore strategy is `replay`.
    Each reply's metadata records `latency_s` (send to the last change of the reply text) and
    `first_s` (send to the first text of the reply).

    Args:
        page: A Playwright `Page` already on the product's site.
        widget: Where the widget's parts are.
        settle_ms: The reply is complete once its text has not changed for this long.
        timeout_s: Upper bound on one turn, from finding the widget to the settled reply.
        trace: Where to read tool calls when neither the network nor the page reports them.
    """

    restore_strategy: RestoreStrategy = "replay"

    def __init__(
        self,
        page: Page,
        *,
        widget: WidgetSelectors = WidgetSelectors(),  # noqa: B008 (frozen, so sharing is safe)
        settle_ms: int = 400,
        timeout_s: float = 30.0,
        trace: TraceSource | None = None,
    ) -> None:
        _playwright()
        self._page = page
        self._widget = widget
        self._settle_s = settle_ms / 1000
        self._timeout_s = timeout_s
        self._trace = trace
        self._url_re = None if widget.reply_url is None else glob_to_regex(widget.reply_url)
        self._responses: list[Response] = []
        self._crashed = False
        page.on("response", self._on_response)
        page.on("crash", self._on_crash)

    async def respond(self, turn: Turn) -> Reply:
        """Type `turn.message` into the widget, send it and return the settled agent reply.

        Raises:
            AgentError: no widget input on the page, the send failed, no reply within
                `timeout_s`, the widget's request failed (HTTP >= 400) or the page crashed.
            BrowserError: the page or the browser was closed under the adapter.
        """
        deadline = time.monotonic() + self._timeout_s
        since = time.time()
        try:
            with anyio.fail_after(self._timeout_s + 1):  # backstop; each wait has its own bound
                return await self._turn(turn.message, deadline, since)
        except TimeoutError:
            raise self._timeout_error("") from None
        except _playwright().Error as exc:
            raise self._translate(exc) from None

    async def transcript(self) -> tuple[Utterance, ...]:
        """Return the widget's transcript as shown on the page, oldest first.

        A message is the agent's when it matches (or contains, or sits in) `agent_message`.
        """
        agents = await self._page.locator(self._widget.agent_message).element_handles()
        try:
            rows = await self._page.locator(self._widget.messages).evaluate_all(_ROLES_JS, agents)
        finally:
            for handle in agents:
                await handle.dispose()
        return tuple(
            Utterance(role="agent" if is_agent else "user", text=str(text).strip())
            for text, is_agent in rows
        )

    async def aclose(self) -> None:
        """Stop listening to the page (the page and browser belong to the caller)."""
        self._page.remove_listener("response", self._on_response)
        self._page.remove_listener("crash", self._on_crash)
        close = getattr(self._trace, "aclose", None)
        if close is not None:
            await close()

    async def _turn(self, message: str, deadline: float, since: float) -> Reply:
        field = await self._find_input(deadline)
        before = len(await self._agent_messages())
        self._responses.clear()
        sent_at = time.monotonic()
        await self._send(field, message, deadline)
        text, attrs, first_at, changed_at = await self._wait_reply(before, deadline)
        tool_calls = await self._tool_calls(attrs, since, deadline)
        return Reply(
            text=text,
            tool_calls=tool_calls,
            metadata={
                "latency_s": round(changed_at - sent_at, 4),
                "first_s": round(first_at - sent_at, 4),
            },
        )

    async def _find_input(self, deadline: float) -> Locator:
        """Return the visible widget input, clicking the launcher first if the widget is closed."""
        field = self._page.locator(self._widget.input).filter(visible=True).first
        if not await field.count() and self._widget.open_button:
            launcher = self._page.locator(self._widget.open_button).filter(visible=True).first
            if await launcher.count():
                await launcher.click(timeout=_ms_left(deadline))
                await self._wait_quiet(deadline)
        try:
            await field.wait_for(state="visible", timeout=_ms_left(deadline))
        except _playwright().TimeoutError:
            raise AgentError(
                f"no chat widget input matching {self._widget.input!r} is visible on "
                f"{self._page.url!r} after {self._timeout_s:g} s; set widget.input (and "
                "widget.open_button if a launcher opens the widget)"
            ) from None
        return field

    async def _wait_quiet(self, deadline: float) -> None:
        """Wait until the agent messages stop changing, so a greeting on open is not a reply."""
        last, changed_at = None, time.monotonic()
        while time.monotonic() < deadline:
            texts = await self._agent_messages()
            if texts != last:
                last, changed_at = texts, time.monotonic()
            elif time.monotonic() - changed_at >= self._settle_s:
                return
            await anyio.sleep(_POLL_S)

    async def _send(self, field: Locator, message: str, deadline: float) -> None:
        bound = min(_ms_left(deadline), _SEND_CHECK_S * 1000)
        try:
            await field.fill(message, timeout=bound)
            button = None
            if self._widget.send:
                button = self._page.locator(self._widget.send).filter(visible=True).first
            if button is not None and await button.count():
                await button.click(timeout=bound)
            else:
                await field.press("Enter", timeout=bound)
        except _playwright().TimeoutError as exc:
            raise AgentError(
                f"could not send the message through the chat widget on {self._page.url!r}: "
                f"{_first_line(exc)}; check widget.input and widget.send"
            ) from None

    async def _wait_reply(
        self, before: int, deadline: float
    ) -> tuple[str, list[str | None], float, float]:
        """Poll the agent messages after the first `before` until their text settles."""
        last, attrs = "", []
        last_rows: list[tuple[str, str | None]] = []
        first_at = changed_at = 0.0
        while True:
            await self._check_failures()
            rows = await self._poll_messages()
            now = time.monotonic()
            new = last_rows if rows is None else rows[before:]
            text = "\n".join(t for t, _ in new).strip()
            last_rows = new
            if text != last:
                last, attrs, changed_at = text, [a for _, a in new], now
                first_at = first_at or now
            elif last and now - changed_at >= self._settle_s:
                return last, attrs, first_at, changed_at
            if now >= deadline:
                raise self._timeout_error(last)
            await anyio.sleep(_POLL_S)

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
        found, calls = await self._network_tool_calls(deadline)
        if found:
            return calls
        reported = [a for a in attrs if a]
        if reported:
            return tuple(c for a in reported for c in _parse_calls(a, "the agent message"))
        if self._trace is not None:
            return tuple(await self._trace.fetch(since))
        return ()

    async def _network_tool_calls(self, deadline: float) -> tuple[bool, tuple[ToolCall, ...]]:
        """Read `tool_calls` from the widget's answers this turn; (False, ()) if none has them."""
        found, calls = False, []
        for response in list(self._responses):
            body = None
            # A streamed answer (SSE) may never finish: read what finishes within the turn.
            with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
                body = await response.text()
            try:
                data = json.loads(body or "")
            except ValueError:
                continue  # not JSON: this widget reports its tool calls elsewhere, if at all
            if isinstance(data, dict) and "tool_calls" in data:
                found = True
                calls += _coerce_calls(data["tool_calls"], f"the answer of {response.url}")
        return found, tuple(calls)

    async def _poll_messages(self) -> list[tuple[str, str | None]] | None:
        """Read the agent messages; `None` while the page is being replaced."""
        try:
            return await self._agent_messages()
        except _playwright().Error as exc:
            # Widgets that post a form reload the page: wait for the new page's transcript.
            if "context was destroyed" not in str(exc) and "navigation" not in str(exc):
                raise
            return None

    async def _agent_messages(self) -> list[tuple[str, str | None]]:
        return await self._texts(self._page.locator(self._widget.agent_message))

    async def _texts(self, locator: Locator) -> list[tuple[str, str | None]]:
        attr = json.dumps(self._widget.tool_calls_attr or "data-vistasim-none")
        rows = await locator.evaluate_all(_TEXTS_JS.replace("ATTR", attr))
        return [(str(text).strip(), attrs) for text, attrs in rows]

    def _timeout_error(self, partial: str) -> AgentError:
        if partial:
            detail = f"the reply was still changing; last text: {partial[:200]!r}"
        else:
            detail = "no new agent message appeared"
        return AgentError(
            f"no settled reply from the chat widget on {self._page.url!r} within "
            f"{self._timeout_s:g} s ({detail}); raise timeout_s, or check widget.agent_message"
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


def glob_to_regex(glob: str) -> re.Pattern[str]:
    """Compile a Playwright-style URL glob: `**` any text, `*` any text without `/`.

    >>> bool(glob_to_regex("**/api/chat").fullmatch("http://127.0.0.1:8000/api/chat"))
    True
    >>> bool(glob_to_regex("**/api/*").fullmatch("http://h/api/chat/extra"))
    False
    """
    parts = re.split(r"(\*\*|\*)", glob)
    tokens = {"**": ".*", "*": "[^/]*"}
    return re.compile("".join(tokens.get(part, re.escape(part)) for part in parts))


def _parse_calls(raw: str, where: str) -> list[ToolCall]:
    try:
        items = json.loads(raw)
    except ValueError:
        raise AgentError(f"{where} reports tool calls that are not JSON: {raw[:80]!r}") from None
    return _coerce_calls(items, where)


def _coerce_calls(items: Any, where: str) -> list[ToolCall]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise AgentError(
            f"{where} reports tool_calls as {type(items).__name__}, not a list of "
            "{name, args, result, error}"
        )
    return [coerce_tool_call(item) for item in items]


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
