"""Execute the simulated user's web actions on a Playwright page and say what changed.

A model picks targets from the last observation and may be wrong (a stale id, a disabled button,
typing into a select). Those are normal outcomes for a user, not crashes: each executor returns a
`StepResult` carrying an error the model can read and repair, and never raises for them. After an
action we wait for the page to settle, so the next observation sees the result.

How long an action waits is measured by the page's progress, not by a fixed clock, so a loaded
machine is slow but not wrong (`_activity.py`): an element is tried again while the page keeps
working, a navigation waits for the server to answer (`FIRST_BYTE_S`) and then for the document
to load while it keeps loading.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, assert_never
from urllib.parse import urljoin, urlsplit

from vistasim.browser._activity import (
    FIRST_BYTE_S,
    NetworkWatch,
    PageActivity,
    Patience,
    patiently,
)
from vistasim.browser._discover import import_playwright
from vistasim.browser._types import (
    NOT_TYPEABLE_INPUT_TYPES,
    WEB_STEPS,
    Back,
    Click,
    ElementView,
    Navigate,
    Scroll,
    SelectOption,
    TypeText,
    WebActionKind,
    WebStep,
)

__all__ = ["ACTION_DESCRIPTIONS", "StepResult", "execute_step", "locate"]

ACTION_DESCRIPTIONS: dict[WebActionKind, str] = {
    kind: step.description for kind, step in WEB_STEPS.items()
}
"""One line per web action kind, for the simulated user's prompt (each step class says its own)."""

ACTION_TIMEOUT_S = 2.0
"""First wait for an element to accept an action (the only one on a page without a watch)."""
ACTING = Patience(first_s=ACTION_TIMEOUT_S, quiet_s=10.0, cap_s=30.0)
"""An element that does not take an action is tried again while the page keeps working."""
LOADING = Patience(first_s=5.0, quiet_s=15.0, cap_s=90.0)
"""A page whose server answered is waited for while it keeps loading."""

_TEXT_TAGS = ("INPUT", "TEXTAREA")

_PROBE_JS = r"""
(selector) => {
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const el = selector ? document.querySelector(selector) : null;
  const ids = [];
  const TAGS = ["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"];
  const ROLES = ["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "textbox",
    "searchbox", "combobox", "listbox", "slider", "spinbutton", "option"];
  for (const n of document.querySelectorAll("[data-semantic-id]")) {
    const id = n.getAttribute("data-semantic-id");
    const usable = TAGS.includes(n.tagName) || ROLES.includes(n.getAttribute("role"))
      || n.isContentEditable;
    if (usable && !ids.includes(id) && visible(n)) ids.push(id);
  }
  return {found: el ? describe(el) : null, ids: ids};
  %DESCRIBE%}
"""

_DESCRIBE_FN = r"""
function describe(el) {
  return {tag: el.tagName, type: (el.getAttribute("type") || "").toLowerCase(),
    editable: el.isContentEditable, visible: el.checkVisibility({visibilityProperty: true}),
    enabled: !(el.matches(":disabled") || el.getAttribute("aria-disabled") === "true"),
    label: (el.getAttribute("aria-label") || el.innerText || el.placeholder || el.value || "")
      .replace(/\s+/g, " ").trim().slice(0, 80),
    options: el.tagName !== "SELECT" ? []
      : Array.from(el.options).map((o) => [o.value, o.textContent.trim(), o.disabled])};
}
"""
_PROBE_JS = _PROBE_JS.replace("%DESCRIBE%", _DESCRIBE_FN)
_DESCRIBE_JS = "(el) => {" + _DESCRIBE_FN + "return describe(el); }"


@dataclass(frozen=True, kw_only=True)
class StepResult:
    """What came of one web action."""

    ok: bool
    """Whether the action was carried out."""
    error: str | None = None
    """Why it was not (unknown element, disabled, blocked origin...), in words for the model."""
    url: str
    """The page's URL after the action."""
    summary: str
    """One line on what changed, e.g. "clicked 'Cancel order'; now at /orders/W1007"."""


def locate(page: Any, target: str, *, source: Literal["semantic", "aria"] = "semantic") -> Any:
    """Return a Playwright locator for an element id from an observation.

    Args:
        page: A Playwright `Page`.
        target: A `data-semantic-id`, or an aria ref (`e12`) when `source` is `aria`.
        source: Which kind of id the observation used.
    """
    if source == "aria":
        return page.locator(f"aria-ref={target}").first
    return page.locator(_semantic_selector(target)).first


def _semantic_selector(target: str) -> str:
    # A JSON string is a valid CSS string: quotes and backslashes are escaped the same way.
    return f"[data-semantic-id={json.dumps(target)}]"


@dataclass(frozen=True, kw_only=True)
class _Context:
    page: Any
    source: Literal["semantic", "aria"]
    known: Sequence[ElementView]
    check_url: Callable[[str], str | None]
    timeout_s: float
    activity: PageActivity | None

    async def patiently(
        self, step: Callable[[float], Awaitable[Any]], patience: Patience = ACTING
    ) -> Any:
        """Run a Playwright step (given its timeout in ms) while the page makes progress."""
        if self.activity is None:
            return await step(self.timeout_s * 1000)
        first = min(patience.first_s, self.timeout_s)
        return await patiently(step, self.activity, replace(patience, first_s=first))

    async def once(self, step: Callable[[float], Awaitable[Any]]) -> Any:
        """Run a step that acts (a click, a key) once, after `patiently` saw it can act.

        Never tried again: a step that timed out may have acted already (a click whose
        navigation was slow), and a second click is not what the user did.
        """
        return await step((self.timeout_s if self.activity is None else ACTING.cap_s) * 1000)


async def execute_step(
    page: Any,
    step: WebStep,
    *,
    source: Literal["semantic", "aria"] = "semantic",
    known: Sequence[ElementView] = (),
    check_url: Callable[[str], str | None] = lambda _url: None,
    watch: NetworkWatch | None = None,
    timeout_s: float = ACTION_TIMEOUT_S,
) -> StepResult:
    """Carry out one web action on `page`; failures come back as a `StepResult` error.

    Args:
        page: A Playwright `Page`.
        step: The action.
        source: The id kind of the observation the step was chosen from.
        known: That observation's elements (labels for summaries, ids for error messages).
        check_url: Returns why a URL may not be visited, or None if it may.
        watch: The page's activity; when given, waits last while the page makes progress, and
            the page is let settle after the action.
        timeout_s: The first wait for an element (the only one without a watch).
    """
    ctx = _Context(
        page=page, source=source, known=known, check_url=check_url, timeout_s=timeout_s,
        activity=watch.activity if watch is not None else None,
    )  # fmt: skip
    before, since = page.url, time.monotonic()
    try:
        result = await _dispatch(ctx, step)
    except import_playwright().Error as exc:
        result = _failed(ctx, f"the {step.kind} action failed: {_first_line(exc)}")
    if watch is not None and result.ok:
        await watch.settle(since=since)
    if result.ok and step.kind in ("click", "type", "select") and page.url != before:
        summary = f"{result.summary}; now at {_short(page.url, before)}"
        result = StepResult(ok=True, url=page.url, summary=summary)
    return result


async def _dispatch(ctx: _Context, step: WebStep) -> StepResult:
    match step:
        case Click():
            return await _click(ctx, step)
        case TypeText():
            return await _type(ctx, step)
        case SelectOption():
            return await _select(ctx, step)
        case Scroll():
            return await _scroll(ctx, step)
        case Navigate():
            return await _navigate(ctx, step)
        case Back():
            return await _back(ctx)
        case _:
            assert_never(step)


async def _find(ctx: _Context, target: str) -> tuple[Any, dict[str, Any] | None, str | None]:
    """Resolve `target` to (locator, description, error)."""
    aria = ctx.source == "aria"
    locator = locate(ctx.page, target, source="aria" if aria else "semantic")
    if aria:
        found = await _describe_aria(locator)
        ids = [e.id for e in ctx.known]
    else:
        probe = await ctx.page.evaluate(_PROBE_JS, _semantic_selector(target))
        found, ids = probe["found"], probe["ids"]
    if found is None:
        shown = ", ".join(ids[:40]) + (", ..." if len(ids) > 40 else "") if ids else "none"
        return locator, None, f"no element {target!r} on this page; available: {shown}"
    label = _label(ctx, target, found)
    if not found["visible"]:
        return locator, found, f"element {target!r} ({label!r}) is hidden; it cannot be used now"
    if not found["enabled"]:
        return locator, found, f"element {target!r} ({label!r}) is disabled; try something else"
    return locator, found, None


async def _describe_aria(locator: Any) -> dict[str, Any] | None:
    # A ref from an older snapshot resolves to nothing; count() answers without waiting.
    if await locator.count() == 0:
        return None
    try:
        described: dict[str, Any] = await locator.evaluate(_DESCRIBE_JS, timeout=1000)
    except import_playwright().Error:
        return None
    return described


def _label(ctx: _Context, target: str, found: dict[str, Any] | None) -> str:
    for element in ctx.known:
        if element.id == target and element.label:
            return element.label
    return (found or {}).get("label") or target


async def _click(ctx: _Context, step: Click) -> StepResult:
    locator, found, error = await _find(ctx, step.target)
    if error:
        return _failed(ctx, error)
    await ctx.patiently(lambda ms: locator.click(trial=True, timeout=ms))  # actionable yet?
    await ctx.once(lambda ms: locator.click(timeout=ms))
    return _done(ctx, f"clicked {_label(ctx, step.target, found)!r}")


async def _type(ctx: _Context, step: TypeText) -> StepResult:
    locator, found, error = await _find(ctx, step.target)
    if error:
        return _failed(ctx, error)
    assert found is not None
    label = _label(ctx, step.target, found)
    typeable = found["editable"] or (
        found["tag"] in _TEXT_TAGS and found["type"] not in NOT_TYPEABLE_INPUT_TYPES
    )
    if not typeable:
        kind = "a select; use select" if found["tag"] == "SELECT" else "not a text field; use click"
        return _failed(ctx, f"cannot type into {step.target!r} ({label!r}): it is {kind}")
    await ctx.patiently(lambda ms: locator.fill(step.text, timeout=ms))
    if step.enter:
        await ctx.once(lambda ms: locator.press("Enter", timeout=ms))
    then = " and pressed Enter" if step.enter else ""
    return _done(ctx, f"typed {_clip(step.text)!r} into {label!r}{then}")


async def _select(ctx: _Context, step: SelectOption) -> StepResult:
    locator, found, error = await _find(ctx, step.target)
    if error:
        return _failed(ctx, error)
    assert found is not None
    label = _label(ctx, step.target, found)
    if found["tag"] != "SELECT":
        return _failed(ctx, f"cannot select in {step.target!r} ({label!r}): it is not a select")
    options = found["options"]
    wanted = step.value.strip().casefold()
    match = next((o for o in options if wanted in (o[0].casefold(), o[1].casefold())), None)
    if match is None:
        choices = ", ".join(repr(o[1]) for o in options)
        return _failed(ctx, f"{label!r} has no option {step.value!r}; options: {choices}")
    if match[2]:
        return _failed(ctx, f"option {match[1]!r} of {label!r} is disabled; pick another")
    await ctx.patiently(lambda ms: locator.select_option(value=match[0], timeout=ms))
    return _done(ctx, f"selected {match[1]!r} in {label!r}")


async def _scroll(ctx: _Context, step: Scroll) -> StepResult:
    sign = -1 if step.direction == "up" else 1
    where = await ctx.page.evaluate(
        """(sign) => { window.scrollBy(0, sign * Math.round(window.innerHeight * 0.8));
          const room = document.documentElement.scrollHeight - window.innerHeight;
          return room > 0 ? Math.round(100 * window.scrollY / room) : 100; }""",
        sign,
    )
    return _done(ctx, f"scrolled {step.direction} (now {where}% down the page)")


async def _navigate(ctx: _Context, step: Navigate) -> StepResult:
    url = urljoin(ctx.page.url, step.url.strip())
    refusal = ctx.check_url(url)
    if refusal:
        return _failed(ctx, refusal)
    response = await ctx.page.goto(url, wait_until="commit", timeout=FIRST_BYTE_S * 1000)
    loaded = await _loaded(ctx)
    status = f" (HTTP {response.status})" if response is not None and response.status >= 400 else ""
    return _done(ctx, f"navigated to {_short(ctx.page.url, url)}{status}{loaded}")


async def _back(ctx: _Context) -> StepResult:
    response = await ctx.page.go_back(wait_until="commit", timeout=FIRST_BYTE_S * 1000)
    if response is None and ctx.page.url in ("about:blank", ""):
        return _failed(ctx, "there is no previous page to go back to")
    loaded = await _loaded(ctx)
    return _done(ctx, f"went back to {_short(ctx.page.url, ctx.page.url)}{loaded}")


async def _loaded(ctx: _Context) -> str:
    """Wait for the new document while it keeps loading; a note if it is still loading."""
    try:
        await ctx.patiently(
            lambda ms: ctx.page.wait_for_load_state("domcontentloaded", timeout=ms), LOADING
        )
    except import_playwright().TimeoutError:
        return " (still loading)"
    return ""


def _done(ctx: _Context, summary: str) -> StepResult:
    return StepResult(ok=True, url=ctx.page.url, summary=summary)


def _failed(ctx: _Context, error: str) -> StepResult:
    return StepResult(ok=False, error=error, url=ctx.page.url, summary=f"failed: {error}")


def _short(url: str, relative_to: str) -> str:
    """Show `url` as a path when it is on the same origin as `relative_to`."""
    a, b = urlsplit(url), urlsplit(relative_to)
    if (a.scheme, a.netloc) == (b.scheme, b.netloc) and a.scheme in ("http", "https"):
        return (a.path or "/") + (f"?{a.query}" if a.query else "")
    return url


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
