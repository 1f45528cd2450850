"""The browser channel: Chromium via Playwright, page observations and web actions.

The web steps and widget selectors load with the package (the simulated user and the config
name them in every run); the browser itself, its observations and actions load on first use,
so a chat or api run does not pay for them.
"""

import sys as _sys
import typing as _typing

from vistasim._lazy import lazy_attributes as _lazy_attributes
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
from vistasim.browser._widget_selectors import (
    FRAMEWORK_WIDGETS,
    USER_AUTHORS,
    WidgetFramework,
    WidgetSelectors,
)

if _typing.TYPE_CHECKING:
    from vistasim.browser._actions import ACTION_DESCRIPTIONS, StepResult, execute_step, locate
    from vistasim.browser._activity import PageActivity, Patience, patiently, replaced_by_navigation
    from vistasim.browser._discover import LAUNCH_ARGS, find_chromium
    from vistasim.browser._labels import name_unlabeled
    from vistasim.browser._observe import (
        estimate_tokens,
        fit_budget,
        observe_page,
        parse_aria_snapshot,
    )
    from vistasim.browser._origins import normalize_origins, origin_of
    from vistasim.browser._pool import BrowserPool, Launcher, launch_chromium
    from vistasim.browser._session import PageSession
    from vistasim.browser._widget import (
        FoundWidget,
        WidgetState,
        count_parts,
        find_widget,
        poll_widget,
        read_chat,
    )

_ON_FIRST_USE = {
    "ACTION_DESCRIPTIONS": "vistasim.browser._actions",
    "StepResult": "vistasim.browser._actions",
    "execute_step": "vistasim.browser._actions",
    "locate": "vistasim.browser._actions",
    "PageActivity": "vistasim.browser._activity",
    "Patience": "vistasim.browser._activity",
    "patiently": "vistasim.browser._activity",
    "replaced_by_navigation": "vistasim.browser._activity",
    "LAUNCH_ARGS": "vistasim.browser._discover",
    "find_chromium": "vistasim.browser._discover",
    "name_unlabeled": "vistasim.browser._labels",
    "estimate_tokens": "vistasim.browser._observe",
    "fit_budget": "vistasim.browser._observe",
    "observe_page": "vistasim.browser._observe",
    "parse_aria_snapshot": "vistasim.browser._observe",
    "normalize_origins": "vistasim.browser._origins",
    "origin_of": "vistasim.browser._origins",
    "BrowserPool": "vistasim.browser._pool",
    "Launcher": "vistasim.browser._pool",
    "launch_chromium": "vistasim.browser._pool",
    "PageSession": "vistasim.browser._session",
    "FoundWidget": "vistasim.browser._widget",
    "WidgetState": "vistasim.browser._widget",
    "count_parts": "vistasim.browser._widget",
    "find_widget": "vistasim.browser._widget",
    "poll_widget": "vistasim.browser._widget",
    "read_chat": "vistasim.browser._widget",
}
__getattr__, __dir__ = _lazy_attributes(_sys.modules[__name__], _ON_FIRST_USE)

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
