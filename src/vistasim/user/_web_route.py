"""Walk a web skill on the page the user sees: the next concrete action, or why there is none.

A skill's steps are templates (`click drop-{course}-*`); the page decides what they mean now. This
module fills the templates from the user's facts, finds the element (first enabled match; for a
select, the match whose options fit the wanted value best), picks the option, and after the last
step tells whether the page shows the item done. `bind` lets a step remember which element it
used (`reschedule-session-EX-MATH201-FIN` -> exam = `EX-MATH201-FIN`) so later steps act on the
same one.

>>> from vistasim.user._web_skills import WebSkillStep
>>> step = WebSkillStep(action="navigate", url="/orders/{order_id}")
>>> resolve_step(step, {"order_id": "W1003"}, PageView(url="http://127.0.0.1:9/")).action
Navigate(url='http://127.0.0.1:9/orders/W1003', kind='navigate')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from string import Formatter
from typing import Literal
from urllib.parse import urljoin

from vistasim.browser._types import (
    Back,
    Click,
    ElementView,
    Navigate,
    PageView,
    Scroll,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.scenario import Scalar
from vistasim.user._lexicon import is_done
from vistasim.user._web_skills import WebSkill, WebSkillStep

_FILLER_WORDS = frozenset("a an the and or of my to for it is in on at with".split())


@dataclass(frozen=True, kw_only=True)
class ResolvedStep:
    """A step template made concrete on a page."""

    action: WebStep
    bound: dict[str, str] = field(default_factory=dict)
    """Facts the step's `bind` learned from the element it used."""


@dataclass(frozen=True, kw_only=True)
class WebProgress:
    """Where a web skill stands on the current page, and the next action if there is one."""

    status: Literal["act", "done", "failed", "unavailable"]
    """`act`: take `action`; `done`: the page shows the item done; `failed`: the route broke
    (say so in chat); `unavailable`: the user lacks a fact the route needs (just chat)."""
    action: WebStep | None = None
    next_step: int = 0
    """Index of the step after `action`: what to keep in the policy state."""
    bound: dict[str, str] = field(default_factory=dict)
    """Facts learned by `bind` on this step, to keep for the later steps."""
    reason: str = ""
    """Why the route failed, for logs and tests."""


def advance_skill(
    skill: WebSkill,
    facts: Mapping[str, Scalar],
    page: PageView | None,
    *,
    step_index: int,
    last_error: str | None = None,
) -> WebProgress:
    """Return the next action of a skill, or whether it is done, failed or not for this user.

    `step_index` is the number of steps already resolved (0 before the first); `last_error` is the
    outcome of the previous web action. Optional steps that do not fit the page are skipped.
    """
    if step_index == 0 and not is_applicable(skill, facts):
        return WebProgress(status="unavailable", reason="a fact the route needs is unknown")
    if page is None:
        return WebProgress(status="failed", reason="there is no web page")
    if step_index > 0 and last_error:
        return WebProgress(status="failed", reason=last_error)
    index = step_index
    while index < len(skill.steps):
        step = skill.steps[index]
        resolved = resolve_step(step, facts, page)
        if resolved is not None:
            return WebProgress(
                status="act", action=resolved.action, next_step=index + 1, bound=resolved.bound
            )
        if not step.optional:
            what = step.url or ", ".join(step.target)
            reason = f"step {index + 1} ({step.action} {what}) is not possible on {page.url}"
            return WebProgress(status="failed", reason=reason)
        index += 1
    if is_skill_done(skill, facts, page):
        return WebProgress(status="done", next_step=index)
    return WebProgress(status="failed", reason=f"{page.url} does not show the item done")


def is_applicable(skill: WebSkill, facts: Mapping[str, Scalar]) -> bool:
    """Say whether the user knows every fact the skill's required steps need.

    Facts a step `bind`s for later steps count as known.
    """
    known = {name: "" for step in skill.steps if step.bind for name in [step.bind]}
    facts = {**known, **facts}
    for step in skill.steps:
        if step.optional:
            continue
        templates = [step.url, step.text, step.value, step.label]
        if any(t is not None and fill(t, facts) is None for t in templates):
            return False
        if step.target and all(fill(t, facts) is None for t in step.target):
            return False
    return True


def resolve_step(
    step: WebSkillStep, facts: Mapping[str, Scalar], page: PageView
) -> ResolvedStep | None:
    """Turn a step template into a concrete web action on this page.

    Returns None when the step cannot be done here: a slot it needs is unknown, no enabled element
    matches its target (and label), or no option of a select fits its value.
    """
    if step.action == "navigate":
        url = fill(step.url or "", facts)
        return None if url is None else ResolvedStep(action=Navigate(url=urljoin(page.url, url)))
    if step.action == "scroll":
        return ResolvedStep(action=Scroll(direction=step.direction))
    if step.action == "back":
        return ResolvedStep(action=Back())
    found = _find(step, facts, page)
    if found is None:
        return None
    template, element, option = found
    action: WebStep
    if step.action == "click":
        action = Click(target=element.id)
    elif step.action == "type":
        text = fill(step.text or "", facts)
        if text is None:
            return None
        action = TypeText(target=element.id, text=text, enter=step.enter)
    else:
        action = SelectOption(target=element.id, value=option)
    bound = {step.bind: _bound_part(template, element.id)} if step.bind else {}
    return ResolvedStep(action=action, bound=bound)


def _find(
    step: WebSkillStep, facts: Mapping[str, Scalar], page: PageView
) -> tuple[str, ElementView, str] | None:
    """Return (target template, element, chosen option) for the first target that fits."""
    label = fill(step.label, facts) if step.label is not None else ""
    wanted = fill(step.value, facts) if step.value is not None else ""
    if label is None or wanted is None:
        return None
    for template in step.target:
        pattern = fill(template, facts, glob=True)
        if pattern is None:
            continue
        matches = [
            el
            for el in page.elements
            if el.enabled
            and fnmatchcase(el.id.casefold(), pattern.casefold())
            and (not label or _names(el.label, label))
        ]
        if step.action != "select":
            if matches:
                return template, matches[0], ""
            continue
        best = _best_select(matches, wanted)
        if best is not None:
            return template, *best
    return None


def _best_select(elements: Sequence[ElementView], wanted: str) -> tuple[ElementView, str] | None:
    best: tuple[ElementView, str] | None = None
    best_score = 0
    for element in elements:
        option = closest_option(wanted, element.options)
        if option is None:
            continue
        score = 1 if wanted.strip() == "*" else _option_score(wanted, option)
        if score > best_score:
            best, best_score = (element, option), score
    return best


def _bound_part(template: str, element_id: str) -> str:
    """Return the element id without the template's literal head (`reschedule-session-`)."""
    head = re.split(r"[{*]", template, maxsplit=1)[0]
    return element_id[len(head) :] if element_id.casefold().startswith(head.casefold()) else ""


def is_skill_done(skill: WebSkill, facts: Mapping[str, Scalar], page: PageView | None) -> bool:
    """Say whether the page shows the skill's item as done (a done phrase or a `done_text`)."""
    if page is None:
        return False
    text = "\n".join([page.title, page.text])
    if is_done(text):
        return True
    for template in skill.done_text:
        phrase = fill(template, facts)
        if phrase and phrase.casefold() in text.casefold():
            return True
    return False


def fill(template: str, facts: Mapping[str, Scalar], *, glob: bool = False) -> str | None:
    """Fill `{slot}` placeholders from the facts; None when one is unknown.

    With `glob=True` the values are escaped so that only the template's own `*` is a wildcard.

    >>> fill("/orders/{order_id}", {"order_id": "W1"})
    '/orders/W1'
    >>> fill("{email}", {}) is None
    True
    """
    parts: list[str] = []
    for literal, name, _, _ in Formatter().parse(template):
        parts.append(literal)
        if name is None:
            continue
        if name not in facts:
            return None
        value = str(facts[name])
        parts.append(re.sub(r"([*?\[])", r"[\1]", value) if glob else value)
    return "".join(parts)


def closest_option(wanted: str, options: Sequence[str]) -> str | None:
    """Pick the option that fits a wanted value: one contains the other, else shared words.

    Numbers only count inside a containment: a shared year does not make two dates alike.

    >>> closest_option("store gift card", ["Original payment", "Store gift card"])
    'Store gift card'
    >>> closest_option("a family wedding, personal", ["Personal ($25.00)", "Medical"])
    'Personal ($25.00)'
    >>> closest_option("2026-12-18", ["2026-10-29 09:00", "2026-12-18 09:00"])
    '2026-12-18 09:00'
    >>> closest_option("teleport", ["Personal", "Medical"]) is None
    True
    """
    if options and wanted.strip() == "*":
        return options[0]
    best, best_score = None, 0
    for option in options:
        score = _option_score(wanted, option)
        if score > best_score:
            best, best_score = option, score
    return best


def _option_score(wanted: str, option: str) -> int:
    folded, key = wanted.casefold().strip(), option.casefold().strip()
    if key and folded and (key in folded or folded in key):
        return 100
    return len(_words(wanted) & _words(option))


def _names(label: str, wanted: str) -> bool:
    """Say whether an element label names the wanted thing (contains it, or all its words)."""
    if wanted.casefold() in label.casefold():
        return True
    words = _words(wanted)
    return bool(words) and words <= _words(label)


def _words(text: str) -> set[str]:
    found = re.findall(r"[a-z]+", text.casefold())
    return {w for w in found if len(w) >= 3 and w not in _FILLER_WORDS}
