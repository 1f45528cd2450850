"""What the simulated user sees of a web page, and the web actions it can take.

Plain values only (no Playwright types), so observations go into prompts, events and snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Back",
    "Click",
    "ElementView",
    "Navigate",
    "PageView",
    "Scroll",
    "SelectOption",
    "TypeText",
    "WebActionKind",
    "WebStep",
    "WidgetMessage",
]


@dataclass(frozen=True, kw_only=True)
class Click:
    """Click an element (button, link, checkbox...)."""

    target: str
    """The element's id in the observation: its `data-semantic-id`, or an aria ref like `e12`."""
    kind: Literal["click"] = "click"


@dataclass(frozen=True, kw_only=True)
class TypeText:
    """Type text into a field, replacing its content; optionally press Enter after."""

    target: str
    text: str
    enter: bool = False
    kind: Literal["type"] = "type"


@dataclass(frozen=True, kw_only=True)
class SelectOption:
    """Choose an option of a select element, by its value or visible label."""

    target: str
    value: str
    kind: Literal["select"] = "select"


@dataclass(frozen=True, kw_only=True)
class Scroll:
    """Scroll the page by about one screen."""

    direction: Literal["up", "down"] = "down"
    kind: Literal["scroll"] = "scroll"


@dataclass(frozen=True, kw_only=True)
class Navigate:
    """Open a URL (only origins the run allows)."""

    url: str
    kind: Literal["navigate"] = "navigate"


@dataclass(frozen=True, kw_only=True)
class Back:
    """Go back one page in the history."""

    kind: Literal["back"] = "back"


WebStep = Click | TypeText | SelectOption | Scroll | Navigate | Back
"""One web action of the simulated user."""

WebActionKind = Literal["click", "type", "select", "scroll", "navigate", "back"]


@dataclass(frozen=True, kw_only=True)
class ElementView:
    """One interactive element as the model sees it."""

    id: str
    """`data-semantic-id`, or an aria ref (`e12`) on pages without them."""
    role: str
    """button, link, textbox, combobox, checkbox, radio, ..."""
    label: str = ""
    """Accessible name or visible text, trimmed."""
    value: str | None = None
    """Current value of a field or the selected option."""
    options: tuple[str, ...] = ()
    """Choices of a select element."""
    enabled: bool = True


@dataclass(frozen=True, kw_only=True)
class WidgetMessage:
    """One line of the page's chat widget transcript."""

    role: Literal["user", "agent"]
    text: str


@dataclass(frozen=True, kw_only=True)
class PageView:
    """A compact observation of the current page, trimmed to a token budget."""

    url: str
    title: str = ""
    elements: tuple[ElementView, ...] = ()
    text: str = ""
    """Visible text of the main content (not the widget), trimmed."""
    chat: tuple[WidgetMessage, ...] = ()
    """The chat widget transcript, when the page has one."""
    source: Literal["semantic", "aria"] = "semantic"
    """`semantic` when elements carry data-semantic-id, else `aria` (aria_snapshot refs)."""
    tokens: int = 0
    """Estimated tokens of this view as rendered for a prompt."""
    raw_html_tokens: int = 0
    """Estimated tokens of the page's raw HTML, for the compression figure."""

    def render(self) -> str:
        """The view as prompt text: URL, title, elements one per line, text, widget chat."""
        lines = [f"URL: {self.url}", f"Title: {self.title}", "Elements:"]
        for el in self.elements:
            extra = f" = {el.value!r}" if el.value not in (None, "") else ""
            options = f" options={list(el.options)}" if el.options else ""
            state = "" if el.enabled else " (disabled)"
            lines.append(f"- [{el.id}] {el.role} {el.label!r}{extra}{options}{state}")
        if self.text:
            lines += ["Page text:", self.text]
        if self.chat:
            lines.append("Chat widget:")
            lines += [f"  {m.role}: {m.text}" for m in self.chat]
        return "\n".join(lines)
