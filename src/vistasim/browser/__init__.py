"""The browser channel: Chromium via Playwright, page observations and web actions."""

from vistasim.browser._actions import ACTION_DESCRIPTIONS, StepResult, execute_step, locate
from vistasim.browser._activity import PageActivity, Patience, patiently, replaced_by_navigation
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
    FoundWidget,
    WidgetState,
    count_parts,
    find_widget,
    poll_widget,
    read_chat,
)
from vistasim.browser._widget_selectors import (
    FRAMEWORK_WIDGETS,
    USER_AUTHORS,
    WidgetFramework,
    WidgetSelectors,
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
    "PageActivity",
    "PageSession",
    "PageView",
    "Patience",
    "Scroll",
    "SelectOption",
    "StepResult",
    "TypeText",
    "USER_AUTHORS",
    "WebActionKind",
    "WebStep",
    "WidgetFramework",
    "WidgetMessage",
    "WidgetSelectors",
    "WidgetState",
    "count_parts",
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
    "patiently",
    "poll_widget",
    "read_chat",
    "replaced_by_navigation",
]
