"""The browser channel: Chromium via Playwright, page observations and web actions."""

from vistasim.browser._types import (
    Back,
    Click,
    ElementView,
    Navigate,
    PageView,
    Scroll,
    SelectOption,
    TypeText,
    WebActionKind,
    WebStep,
    WidgetMessage,
)

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
