"""What the simulated user sees of a web page, and the web actions it can take.

Plain values only (no Playwright types), so observations go into prompts, events and snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

from vistasim.events import WebActionKind

__all__ = [
    "NOT_TYPEABLE_INPUT_TYPES",
    "NOT_TYPEABLE_ROLES",
    "WEB_STEPS",
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
    description: ClassVar[str] = (
        'click {"target": id}: click a link, button, checkbox or other element by its id.'
    )
    """The action as the simulated user's prompt describes it."""


@dataclass(frozen=True, kw_only=True)
class TypeText:
    """Type text into a field, replacing its content; optionally press Enter after."""

    target: str
    text: str
    enter: bool = False
    kind: Literal["type"] = "type"
    description: ClassVar[str] = (
        'type {"target": id, "text": str, "enter": bool}: replace a field\'s text; '
        "enter=true presses Enter after (submits most forms)."
    )


@dataclass(frozen=True, kw_only=True)
class SelectOption:
    """Choose an option of a select element, by its value or visible label."""

    target: str
    value: str
    kind: Literal["select"] = "select"
    description: ClassVar[str] = (
        'select {"target": id, "value": str}: choose an option of a select element '
        "by its value or visible label."
    )


@dataclass(frozen=True, kw_only=True)
class Scroll:
    """Scroll the page by about one screen."""

    direction: Literal["up", "down"] = "down"
    kind: Literal["scroll"] = "scroll"
    description: ClassVar[str] = (
        'scroll {"direction": "up"|"down"}: scroll the page by about one screen.'
    )


@dataclass(frozen=True, kw_only=True)
class Navigate:
    """Open a URL (only origins the run allows)."""

    url: str
    kind: Literal["navigate"] = "navigate"
    description: ClassVar[str] = (
        'navigate {"url": str}: open a URL or a path like "/orders" on this site '
        "(only the sites of this run are allowed)."
    )


@dataclass(frozen=True, kw_only=True)
class Back:
    """Go back one page in the history."""

    kind: Literal["back"] = "back"
    description: ClassVar[str] = "back {}: go back to the previous page."


WebStep = Click | TypeText | SelectOption | Scroll | Navigate | Back
"""One web action of the simulated user."""

WEB_STEPS: dict[WebActionKind, type[WebStep]] = {step.kind: step for step in get_args(WebStep)}
"""The web step class of each kind, in the order of `WebActionKind`."""

NOT_TYPEABLE_ROLES = frozenset({"button", "link", "checkbox", "radio", "switch", "img", "image"})
"""Roles of observed elements that take no typed text (a `type` action on one is refused)."""

NOT_TYPEABLE_INPUT_TYPES = frozenset(
    {"checkbox", "radio", "submit", "button", "reset", "image", "file", "hidden"}
)
"""`<input type=...>` values that take no typed text: they show as the roles above, or not at
all."""


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
