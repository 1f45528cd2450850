"""Look at a chat page as the widget adapter will: what it finds, and the selectors to paste.

A page vistasim cannot read should cost its owner one command, not a run of errored episodes:
`inspect_page` opens the page, finds the widget (`find_widget`), counts what each selector
matches (visible elements, and a sample of their text), reads the transcript, and can send one
message to show the reply as the adapter reads it. `vistasim web inspect URL` prints it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from vistasim.agent._types import Turn
from vistasim.agent._web import WebChatAgent
from vistasim.browser import (
    BrowserPool,
    WidgetFramework,
    WidgetMessage,
    WidgetSelectors,
    count_parts,
    find_widget,
    origin_of,
    read_chat,
)
from vistasim.errors import AgentError, BrowserError, ConfigError

__all__ = ["PageInspection", "PartFound", "inspect_page"]

PARTS = ("input", "send", "messages", "agent_message", "author", "busy", "ready", "open_button")
"""The widget's parts an inspection reports, in the order a person reads them."""


@dataclass(frozen=True, kw_only=True)
class PartFound:
    """What one selector of the widget matches on the page."""

    selector: str | None
    matches: int = 0
    visible: int = 0
    sample: str = ""
    """The text (or placeholder) of the first visible match, cut short."""


@dataclass(frozen=True, kw_only=True)
class PageInspection:
    """What `inspect_page` found on a chat page."""

    url: str
    framework: WidgetFramework | None
    """Who drew the widget; None when no widget was found."""
    selectors: WidgetSelectors | None
    parts: Mapping[str, PartFound]
    transcript: tuple[WidgetMessage, ...] = ()
    reply: str | None = None
    """The reply to the message sent, as the adapter read it (with `message`)."""
    problem: str | None = None
    """Why the widget was not found, or why the reply could not be read."""

    def toml(self) -> str:
        """The `[web.widget]` block that pins what was found (paste it into vistasim.toml)."""
        if self.selectors is None:
            return ""
        lines = ["[web.widget]", f"framework = {_toml_str(self.framework or 'auto')}"]
        for name in PARTS:
            value = getattr(self.selectors, name)
            if value is not None:
                lines.append(f"{name} = {_toml_str(value)}")
        return "\n".join(lines)


async def inspect_page(
    url: str,
    *,
    chromium: str | None = None,
    framework: WidgetFramework | Literal["auto"] = "auto",
    overrides: Mapping[str, str | None] | None = None,
    timeout_s: float = 10.0,
    message: str | None = None,
) -> PageInspection:
    """Open `url`, find its chat widget and report each part; optionally send `message`.

    Args:
        url: The chat page (only its origin is reached).
        chromium: The Chromium to use (default: `find_chromium()`'s search).
        framework: Whose selectors to use (default: found out from the page).
        overrides: Selectors to lay over the framework's, as in `[web.widget]`.
        timeout_s: How long to wait for the widget once the page stopped changing.
        message: A message to send, to see the reply as the adapter reads it.

    Raises:
        ConfigError: `url` is not an http(s) URL with a host.
        BrowserError: No Chromium, or the page could not be opened.
    """
    origin = origin_of(url)
    if origin is None:
        raise ConfigError(f"{url[:200]!r} is not an http(s) URL with a host", key="URL")
    async with BrowserPool(executable=chromium) as pool:
        session = await pool.new_session(allowed_origins=[origin])
        opened = await session.goto(url)
        if not opened.ok:
            raise BrowserError(f"cannot open {url!r}: {opened.error}", url=url)
        try:
            found = await find_widget(
                session.page, framework=framework, overrides=overrides, timeout_s=timeout_s
            )
        except BrowserError as exc:
            parts = await _parts(session.page, WidgetSelectors(**_plain(overrides)))
            return PageInspection(
                url=url, framework=None, selectors=None, parts=parts, problem=str(exc)
            )
        reply, problem = await _send(session.page, found.selectors, message)
        return PageInspection(
            url=url,
            framework=found.framework,
            selectors=found.selectors,
            parts=await _parts(session.page, found.selectors),
            transcript=await read_chat(session.page, found.selectors),
            reply=reply,
            problem=problem,
        )


async def _parts(page: Any, widget: WidgetSelectors) -> dict[str, PartFound]:
    selectors = {name: getattr(widget, name) for name in PARTS}
    counted = await count_parts(page, selectors)
    parts = {}
    for name in PARTS:
        found = counted[name]
        parts[name] = PartFound(
            selector=selectors[name],
            matches=found["matches"] if found else 0,
            visible=found["visible"] if found else 0,
            sample=found["sample"] if found else "",
        )
    return parts


async def _send(
    page: Any, widget: WidgetSelectors, message: str | None
) -> tuple[str | None, str | None]:
    if message is None:
        return None, None
    agent = WebChatAgent(page, widget=widget)
    try:
        reply = await agent.respond(Turn(episode_id="inspect", message=message))
    except (AgentError, BrowserError) as exc:
        return None, str(exc)
    finally:
        await agent.aclose()
    return reply.text, None


def _plain(overrides: Mapping[str, str | None] | None) -> dict[str, Any]:
    known = {f.name for f in fields(WidgetSelectors)}
    return {k: v for k, v in (overrides or {}).items() if k in known and v is not None}


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
