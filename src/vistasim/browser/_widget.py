"""Find a page's chat widget, whichever framework drew it, and read it through one set of selectors.

Chat pages built with Python frameworks mark their parts with their own test ids (Gradio,
Streamlit), element ids (Chainlit), custom elements (Shiny), Quasar classes (NiceGUI) or shadow
roots of their own (Panel), not with a `chat` class, and each shows in its own way that it is
still working on a reply (a stop button, a status widget, a "running" state). A
`WidgetSelectors` value says where one widget's parts are; `FRAMEWORK_WIDGETS` holds one per known
framework (`_widget_selectors.py`). `find_widget` probes the page for the framework that drew it
(its own markers first, then common chat markup, then ARIA: a `role=log` and a textbox) and lays
the user's selectors over that framework's. The page view, the browser snapshots and the widget
adapter then read the transcript through the same selectors (`read_chat`, `poll_widget`), with
the page-side scripts of `_widget_js.py`, which also look inside shadow roots.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

import anyio

from vistasim.browser._activity import PageActivity
from vistasim.browser._types import WidgetMessage
from vistasim.browser._widget_js import CHAT_FN, CHAT_JS, COUNT_JS, INVALID_JS, POLL_JS, PROBE_JS
from vistasim.browser._widget_selectors import (
    FRAMEWORK_WIDGETS,
    MARKED_FRAMEWORKS,
    WidgetFramework,
    WidgetSelectors,
    widget_args,
)
from vistasim.errors import BrowserError, ConfigError

__all__ = [
    "CHAT_FN",
    "FRAMEWORK_WIDGETS",
    "FoundWidget",
    "count_parts",
    "WidgetFramework",
    "WidgetSelectors",
    "WidgetState",
    "find_widget",
    "poll_widget",
    "read_chat",
    "widget_args",
]

_POLL_S = 0.1
_FIND_CAP = 6
"""A page that keeps loading is waited for at most this many times `timeout_s`."""
_UNMARKED = tuple(name for name in FRAMEWORK_WIDGETS if name not in MARKED_FRAMEWORKS)
"""What a page without a framework's markers may be, in the order they are tried."""
_CSS_FIELDS = ("messages", "agent_message", "container", "author", "busy", "ready")
"""The selectors read inside the page, which must be CSS."""


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
    chat: tuple[WidgetMessage, ...] = ()
    """The whole transcript as `read_chat` reads it (a reply that is not told apart from the
    user's messages shows here as a new message that is not the one sent)."""


async def read_chat(page: Any, widget: WidgetSelectors | None = None) -> tuple[WidgetMessage, ...]:
    """Read the widget transcript of `page`, oldest line first.

    Args:
        page: A Playwright `Page`.
        widget: Where the widget is; default: the built-in domains' widget and common markup.
    """
    lines = await page.evaluate(CHAT_JS, widget_args(widget or WidgetSelectors()))
    return tuple(WidgetMessage(role=m["role"], text=m["text"]) for m in lines)


async def count_parts(
    page: Any, selectors: Mapping[str, str | None]
) -> dict[str, dict[str, Any] | None]:
    """For each named selector: `matches`, `visible` and a `sample` of the first visible text.

    Selectors are matched as the widget's are (shadow roots too); an unset one maps to None.
    """
    counted: dict[str, dict[str, Any] | None] = await page.evaluate(COUNT_JS, dict(selectors))
    return counted


async def poll_widget(page: Any, widget: WidgetSelectors) -> WidgetState:
    """Read the agent messages, the transcript, the busy indicators and the ready marker at once."""
    data = await page.evaluate(POLL_JS, widget_args(widget))
    return WidgetState(
        agent_texts=tuple((str(text).strip(), attr) for text, attr in data["agents"]),
        busy=tuple(data["busy"]),
        ready=bool(data["ready"]),
        chat=tuple(WidgetMessage(role=m["role"], text=m["text"]) for m in data["chat"]),
    )


async def find_widget(
    page: Any,
    *,
    framework: WidgetFramework | Literal["auto"] = "auto",
    overrides: Mapping[str, str | None] | None = None,
    timeout_s: float = 10.0,
) -> FoundWidget:
    """Find the chat widget on `page`, waiting for the page script to draw it.

    With `framework="auto"` a page that carries a framework's markers is that framework's (and
    is waited for until its input shows); else common chat markup, else an ARIA `role=log` with a
    textbox. The widget counts as found when its input or its launcher is visible. The wait lasts
    `timeout_s`, and longer while the page is still loading or drawing (its requests, its number
    of elements), up to `_FIND_CAP` times `timeout_s`: a slow page is not a page without a widget.

    Args:
        page: A Playwright `Page` on the product's chat page.
        framework: Skip the probe and use this framework's selectors.
        overrides: Selectors the user set (`[web.widget]`), laid over the framework's.
        timeout_s: How long to wait for the widget once the page stopped changing.

    Raises:
        BrowserError: No widget in time; the message lists the selectors tried.
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
    started = time.monotonic()
    activity, size = PageActivity(page, sockets=False), -1
    try:
        while True:
            probe = await page.evaluate(PROBE_JS, args)
            marker = probe["marker"] if framework == "auto" else framework
            chosen = _choose(marker, probe["found"])
            if chosen is not None:
                await _check_css(page, candidates[chosen])
                return FoundWidget(framework=chosen, selectors=candidates[chosen])
            if probe["size"] != size:
                activity.touch()  # the page is still drawing
                size = probe["size"]
            waited = time.monotonic() - started
            if min(waited, activity.quiet_for()) >= timeout_s or waited >= _FIND_CAP * timeout_s:
                raise _not_found(page.url, dict(candidates.items()), marker, waited)
            await anyio.sleep(_POLL_S)
    finally:
        activity.close()


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
    bad = await page.evaluate(INVALID_JS, css)
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
