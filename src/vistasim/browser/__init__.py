"""The browser channel: Chromium via Playwright, page observations and web actions."""

from vistasim.browser._actions import ACTION_DESCRIPTIONS, StepResult, execute_step, locate
from vistasim.browser._discover import LAUNCH_ARGS, find_chromium
from vistasim.browser._labels import name_unlabeled
from vistasim.browser._observe import estimate_tokens, fit_budget, observe_page, parse_aria_snapshot
from vistasim.browser._origins import normalize_origins, origin_of
from vistasim.browser._pool import BrowserPool, Launcher, launch_chromium
from vistasim.browser._session import PageSession
from vistasim.browser._types import (
    NOT_TYPEABLE_INPUT_TYPES,
    NOT_TYPEABLE_ROLES,
    WEB_STEPS,
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
from vistasim.browser._widget import (
    FRAMEWORK_WIDGETS,
    FoundWidget,
    WidgetFramework,
    WidgetSelectors,
    WidgetState,
    find_widget,
    poll_widget,
    read_chat,
)

__all__ = [
    "ACTION_DESCRIPTIONS",
    "Back",
    "BrowserPool",
    "Click",
    "ElementView",
    "FRAMEWORK_WIDGETS",
    "FoundWidget",
    "LAUNCH_ARGS",
    "NOT_TYPEABLE_INPUT_TYPES",
    "NOT_TYPEABLE_ROLES",
    "WEB_STEPS",
    "Launcher",
    "Navigate",
    "PageSession",
    "PageView",
    "Scroll",
    "SelectOption",
    "StepResult",
    "TypeText",
    "WebActionKind",
    "WebStep",
    "WidgetFramework",
    "WidgetMessage",
    "WidgetSelectors",
    "WidgetState",
    "estimate_tokens",
    "execute_step",
    "find_chromium",
    "find_widget",
    "fit_budget",
    "launch_chromium",
    "locate",
    "name_unlabeled",
    "normalize_origins",
    "observe_page",
    "origin_of",
    "parse_aria_snapshot",
    "poll_widget",
    "read_chat",
]
