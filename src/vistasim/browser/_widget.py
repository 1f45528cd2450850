"""Find a page's chat widget, whichever framework drew it, and read it through one set of selectors.

Chat pages built with Python frameworks mark their parts with their own test ids (Gradio,
Streamlit) or element ids (Chainlit), not with a `chat` class, and each shows in its own way that
it is still working on a reply (a stop button, a status widget, a "running" state). A
`WidgetSelectors` value says where one widget's parts are; `FRAMEWORK_WIDGETS` holds one per known
framework. `find_widget` probes the page for the framework that drew it (its own markers first,
then common chat markup, then ARIA: a `role=log` and a textbox) and lays the user's selectors over
that framework's. The page view, the browser snapshots and the widget adapter then read the
transcript through the same selectors (`read_chat`, `poll_widget`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, cast

import anyio
from pydantic import ConfigDict, with_config

from vistasim.browser._types import WidgetMessage
from vistasim.errors import BrowserError, ConfigError

__all__ = [
    "FRAMEWORK_WIDGETS",
    "FoundWidget",
    "WidgetFramework",
    "WidgetSelectors",
    "WidgetState",
    "find_widget",
    "poll_widget",
    "read_chat",
    "widget_args",
]

WidgetFramework = Literal["gradio", "streamlit", "chainlit", "generic", "aria"]
"""Who drew a chat widget: a Python chat framework, common chat markup, or plain ARIA roles."""

_POLL_S = 0.1
_UNMARKED = ("generic", "aria")
"""What a page without a framework's markers may be, in the order they are tried."""


@with_config(ConfigDict(extra="forbid"))  # config files validate it: a typo is an error
@dataclass(frozen=True, kw_only=True)
class WidgetSelectors:
    """Where a chat widget's parts are on the page.

    `input`, `send` and `open_button` are Playwright selectors; the others are read inside the
    page, so they must be CSS (unions with commas, `:has()` and `:is()` are fine). The defaults
    fit the built-in domains' widgets and common markup (parts inside an element whose class or
    id mentions `chat`); `FRAMEWORK_WIDGETS` has the selectors of the chat frameworks.
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
    """Every message of the transcript, user's and agent's, in order (CSS)."""
    agent_message: str = (
        "#chat-log > .agent, #chat-log > .error, [data-role=agent], [data-role=assistant],"
        " [data-role=bot], [class*=chat] [class~=agent], [id*=chat] [class~=agent],"
        " [class*=chat] [class~=bot], [id*=chat] [class~=bot],"
        " [class*=chat] [class~=assistant], [id*=chat] [class~=assistant],"
        " [class*=agent-message], [class*=bot-message], [class*=assistant-message]"
    )
    """The agent's messages (CSS); a message matching, containing or inside one is the agent's."""
    open_button: str | None = (
        "[class*=chat][class*=launcher], [id*=chat][id*=launcher],"
        " [class*=chat][class*=toggle], [id*=chat][id*=toggle],"
        " button[aria-label*=open i][aria-label*=chat i]"
    )
    """A launcher clicked to open a collapsed widget when the input is not visible."""
    container: str | None = "#chat"
    """The whole widget, or each message block (CSS); kept out of the page text, which shows
    the transcript apart."""
    busy: str | None = (
        "[role=log][aria-busy=true], [class*=chat] [aria-busy=true], [id*=chat] [aria-busy=true]"
    )
    """Shown while the agent works on a reply (CSS); a reply is complete once none is visible."""
    ready: str | None = None
    """Present once the widget's live connection is up (CSS); nothing is sent before."""
    reply_url: str | None = "**/api/chat"
    """URL glob of the widget's request whose JSON answer may carry `tool_calls`."""
    tool_calls_attr: str | None = "data-tool-calls"
    """Attribute of an agent message holding its tool calls as JSON (used without `reply_url`)."""


FRAMEWORK_WIDGETS: Mapping[WidgetFramework, WidgetSelectors] = {
    "gradio": WidgetSelectors(
        input="textarea[data-testid=textbox], [data-testid=multimodal-textbox] textarea",
        send="[data-testid=submit-button], button.submit-button",
        messages="[data-testid=user], [data-testid=bot]",
        agent_message="[data-testid=bot]",
        open_button=None,
        container="[role=log][aria-label*=chatbot i], .bubble-wrap",
        busy="[data-testid=stop-button], [data-testid=status-tracker]:not(.hide)",
        ready=".gradio-container",
    ),
    "streamlit": WidgetSelectors(
        input="[data-testid=stChatInputTextArea], [data-testid=stChatInput] textarea",
        send="[data-testid=stChatInputSubmitButton]",
        messages="[data-testid=stChatMessageContent]",
        agent_message=(
            "[data-testid=stChatMessageContent]:not([aria-label='Chat message from user' i])"
            ":not([aria-label='Chat message from human' i])"
        ),
        open_button=None,
        container="[data-testid=stChatMessage]",  # with its avatar's icon name
        busy="[data-testid=stApp][data-test-script-state=running], [data-testid=stSpinner]",
        ready="[data-testid=stApp][data-test-connection-state=CONNECTED]",
    ),
    "chainlit": WidgetSelectors(
        input="#chat-input",
        send="#chat-submit",
        messages=(
            "[data-step-type=user_message] .message-content,"
            " [data-step-type=assistant_message] .message-content"
        ),
        agent_message="[data-step-type=assistant_message] .message-content",
        open_button=None,
        container=None,
        busy="#stop-button, .loading-cursor",
    ),
    "generic": WidgetSelectors(),
    "aria": WidgetSelectors(
        input="[role=log] ~ * [role=textbox], [role=log] ~ * textarea, [role=textbox], textarea",
        send="button[aria-label*=send i], button[title*=send i], button[type=submit]",
        messages=(
            "[role=log] :is([role=article], [role=listitem], li, [data-role], [class*=message])"
        ),
        agent_message=(
            "[role=log] :is([data-role=assistant], [data-role=agent], [data-role=bot],"
            " [class~=assistant], [class~=agent], [class~=bot], [aria-label*=assistant i],"
            " [aria-label*=agent i], [aria-label*=bot i])"
        ),
        open_button=None,
        container="[role=log]",
        busy="[role=log][aria-busy=true]",
    ),
}
"""The selectors of each chat framework vistasim knows, by name."""

# Page-side markers of each framework, present as soon as its page script runs (before its chat
# parts render): Gradio's config and element, Streamlit's app test id, Chainlit's composer.
_PROBE_JS = r"""
(candidates) => {
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const shown = (s) => { try { return s ? Array.from(document.querySelectorAll(s)).some(visible)
    : false; } catch (e) { return false; } };
  let marker = null;
  if (window.gradio_config || document.querySelector("gradio-app")) marker = "gradio";
  else if (document.querySelector("[data-testid=stApp]")) marker = "streamlit";
  else if (document.querySelector("#message-composer, meta[content*=chainlit i]"))
    marker = "chainlit";
  const hasLog = !!document.querySelector("[role=log]");
  const found = candidates.filter((c) => (c.name !== "aria" || !c.needs_log || hasLog)
    && (shown(c.input) || shown(c.open_button)));
  return {marker: marker, found: found.map((c) => c.name)};
}
"""

_CSS_FIELDS = ("messages", "agent_message", "container", "busy", "ready")
_INVALID_JS = """(sels) => Object.entries(sels).filter(([name, s]) => {
  try { if (s) document.querySelector(s); return false; } catch (e) { return true; }
}).map(([name]) => name)"""

_CHAT_FN = r"""
  function outermost(els) { return els.filter((e) => !els.some((o) => o !== e && o.contains(e))); }
  function all(s) { return s ? Array.from(document.querySelectorAll(s)) : []; }
  function isAgent(el, agents) {
    return agents.some((a) => a === el || a.contains(el) || el.contains(a));
  }
  function readChat(sel) {
    const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
    const agents = all(sel.agent_message);
    return outermost(all(sel.messages))
      .map((el) => ({role: isAgent(el, agents) ? "agent" : "user",
                     text: clean(el.innerText || el.textContent)}))
      .filter((m) => m.text);
  }
"""
CHAT_FN = _CHAT_FN
"""JavaScript defining `readChat(sel)` (sel: `widget_args(...)`), for page-side extraction."""

_CHAT_JS = "(sel) => {" + _CHAT_FN + "return readChat(sel); }"

_POLL_JS = (
    "(sel) => {"
    + _CHAT_FN
    + r"""
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const agents = outermost(all(sel.agent_message)).map((e) => [e.innerText || e.textContent || "",
    sel.tool_calls_attr ? e.getAttribute(sel.tool_calls_attr) : null]);
  const busy = all(sel.busy).filter(visible).map((e) => e.getAttribute("data-testid")
    || e.id || e.className || e.tagName.toLowerCase());
  return {agents: agents, busy: busy.slice(0, 3).map(String),
          ready: !sel.ready || !!document.querySelector(sel.ready)};
}"""
)


@dataclass(frozen=True, kw_only=True)
class FoundWidget:
    """The chat widget `find_widget` found on a page."""

    framework: WidgetFramework
    """Who drew it."""
    selectors: WidgetSelectors
    """That framework's selectors with the user's overrides laid over them."""


@dataclass(frozen=True, kw_only=True)
class WidgetState:
    """One look at the widget while the adapter waits."""

    agent_texts: tuple[tuple[str, str | None], ...]
    """Each agent message: its text and its tool-calls attribute, oldest first."""
    busy: tuple[str, ...]
    """The visible busy indicators (test id, id or class), empty when the agent is idle."""
    ready: bool
    """Whether the widget's `ready` marker is present (always, without one)."""


def widget_args(widget: WidgetSelectors) -> dict[str, Any]:
    """The selectors as the plain mapping the page-side scripts take."""
    return {f.name: getattr(widget, f.name) for f in fields(widget)}


async def read_chat(page: Any, widget: WidgetSelectors | None = None) -> tuple[WidgetMessage, ...]:
    """Read the widget transcript of `page`, oldest line first.

    Args:
        page: A Playwright `Page`.
        widget: Where the widget is; default: the built-in domains' widget and common markup.
    """
    lines = await page.evaluate(_CHAT_JS, widget_args(widget or WidgetSelectors()))
    return tuple(WidgetMessage(role=m["role"], text=m["text"]) for m in lines)


async def poll_widget(page: Any, widget: WidgetSelectors) -> WidgetState:
    """Read the agent messages, the busy indicators and the ready marker in one page call."""
    data = await page.evaluate(_POLL_JS, widget_args(widget))
    return WidgetState(
        agent_texts=tuple((str(text).strip(), attr) for text, attr in data["agents"]),
        busy=tuple(data["busy"]),
        ready=bool(data["ready"]),
    )


async def find_widget(
    page: Any,
    *,
    framework: WidgetFramework | Literal["auto"] = "auto",
    overrides: Mapping[str, str | None] | None = None,
    timeout_s: float = 10.0,
) -> FoundWidget:
    """Find the chat widget on `page`, waiting up to `timeout_s` for the page script to draw it.

    With `framework="auto"` a page that carries a framework's markers is that framework's (and
    is waited for until its input shows); else common chat markup, else an ARIA `role=log` with a
    textbox. The widget counts as found when its input or its launcher is visible.

    Args:
        page: A Playwright `Page` on the product's chat page.
        framework: Skip the probe and use this framework's selectors.
        overrides: Selectors the user set (`[web.widget]`), laid over the framework's.
        timeout_s: How long to wait for the widget to appear.

    Raises:
        BrowserError: No widget within `timeout_s`; the message lists the selectors tried.
        ConfigError: A selector read inside the page (`messages`, `busy`...) is not CSS.
    """
    names = list(FRAMEWORK_WIDGETS) if framework == "auto" else [framework]
    candidates = {name: _merge(FRAMEWORK_WIDGETS[name], overrides) for name in names}
    # Probed, only a page with a `role=log` is an ARIA chat; chosen, the user knows it is one.
    needs_log = framework == "auto"
    args = [
        {"name": n, "input": w.input, "open_button": w.open_button, "needs_log": needs_log}
        for n, w in candidates.items()
    ]
    deadline = time.monotonic() + timeout_s
    marker = None
    while True:
        probe = await page.evaluate(_PROBE_JS, args)
        marker = probe["marker"] if framework == "auto" else framework
        chosen = _choose(marker, probe["found"])
        if chosen is not None:
            await _check_css(page, candidates[chosen])
            return FoundWidget(framework=chosen, selectors=candidates[chosen])
        if time.monotonic() >= deadline:
            raise _not_found(page.url, dict(candidates.items()), marker, timeout_s)
        await anyio.sleep(_POLL_S)


def _choose(marker: str | None, found: list[str]) -> WidgetFramework | None:
    """The framework to use: the page's own once its input shows, else common markup or ARIA."""
    allowed = (marker,) if marker is not None else _UNMARKED
    for name in found:
        if name in allowed:
            return cast(WidgetFramework, name)  # `allowed` holds framework names only
    return None


async def _check_css(page: Any, widget: WidgetSelectors) -> None:
    """Fail on a page-side selector that is not CSS, before it breaks every observation."""
    css = {name: getattr(widget, name) for name in _CSS_FIELDS}
    bad = await page.evaluate(_INVALID_JS, css)
    if bad:
        raise ConfigError(
            f"{css[bad[0]]!r} is not a CSS selector; this selector is read inside the page, so "
            "write it in CSS (e.g. '.chat .bot-message', '[data-role=assistant]')",
            key=f"web.widget.{bad[0]}",
        )


def _merge(base: WidgetSelectors, overrides: Mapping[str, str | None] | None) -> WidgetSelectors:
    chosen = {k: v for k, v in (overrides or {}).items() if v is not None}
    return replace(base, **chosen)


def _not_found(
    url: str, candidates: Mapping[str, WidgetSelectors], marker: str | None, timeout_s: float
) -> BrowserError:
    tried = {n: w for n, w in candidates.items() if n in ((marker,) if marker else _UNMARKED)}
    listed = "; ".join(f"{name}: input {w.input!r}" for name, w in tried.items())
    page_kind = f"a {marker} page" if marker else "the page"
    return BrowserError(
        f"no chat widget input is visible on {page_kind} {url!r} after {round(timeout_s, 1):g} s "
        f"(tried {listed}); set [web.widget] input (and messages, agent_message) to your "
        "widget's selectors, or framework to one of "
        f"{', '.join(repr(n) for n in FRAMEWORK_WIDGETS)}",
        url=url,
        selector=", ".join(w.input for w in tried.values()),
    )
