"""Check a model-proposed web action against the page the model saw.

The target must be one of the page's element ids (not a label, selector or made-up id) and fit
the action (no typing into a button, an option the select has); the same web action must not be
proposed twice in a row. Each problem is an `InvalidActionError` written for the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from urllib.parse import urljoin

from vistasim.browser import (
    NOT_TYPEABLE_ROLES,
    Click,
    ElementView,
    Navigate,
    PageView,
    Scroll,
    SelectOption,
    TypeText,
    WebStep,
)
from vistasim.errors import InvalidActionError

__all__ = ["check_web_action", "id_list"]

_MAX_IDS_SHOWN = 60


def check_web_action(
    step: WebStep, page: PageView | None, *, previous: WebStep | None = None
) -> WebStep:
    """Check a web action against the page: element exists and fits, not a repeat.

    Returns the action, with a relative `navigate` URL made absolute against the page's URL.

    Raises:
        InvalidActionError: naming the problem and the valid choices.
    """
    if page is None:
        raise InvalidActionError(
            f"there is no web page in this mode, so {step.kind!r} is not possible; "
            'use "say" to talk to the agent'
        )
    if isinstance(step, Click | TypeText | SelectOption):
        element = _element(step.target, page)
        _check_element(step, element)
        step = replace(step, target=element.id)
    if isinstance(step, Navigate):
        if not step.url.strip():
            raise InvalidActionError('action "navigate" needs "url": a URL or a /path on this site')
        step = Navigate(url=urljoin(page.url, step.url.strip()))
    # Scrolling again moves further down the page, so only the other kinds count as repeats.
    if previous is not None and step == previous and not isinstance(step, Scroll):
        raise InvalidActionError(
            f"{_describe(step)} repeats your previous web action exactly; it did not get you "
            "further: look at the page again and try another element, chat, or finish"
        )
    return step


def _element(target: str, page: PageView) -> ElementView:
    by_id = {el.id: el for el in page.elements}
    bare = target.strip("[]")
    if bare in by_id:
        return by_id[bare]
    named = [el.id for el in page.elements if el.label and el.label.casefold() == bare.casefold()]
    if named:
        raise InvalidActionError(
            f"{target!r} is the label of an element, not its id; use its id {named[0]!r}"
        )
    raise InvalidActionError(
        f"unknown target {target!r}: no element of {page.url} has this id; do not invent "
        f"elements or use CSS selectors; valid ids: {id_list(list(by_id))}"
    )


def _check_element(step: Click | TypeText | SelectOption, element: ElementView) -> None:
    if not element.enabled:
        raise InvalidActionError(
            f"element {element.id!r} ({element.label!r}) is disabled; pick another element or "
            "ask the agent"
        )
    if isinstance(step, TypeText) and element.role in NOT_TYPEABLE_ROLES:
        raise InvalidActionError(
            f"element {element.id!r} is a {element.role}, not a text field: you cannot type "
            'into it; "click" it, or type into a textbox'
        )
    if isinstance(step, SelectOption):
        if not element.options:
            raise InvalidActionError(
                f"element {element.id!r} is a {element.role} with no options: you cannot "
                'select in it; use "click" or "type"'
            )
        if not any(step.value.casefold() == option.casefold() for option in element.options):
            raise InvalidActionError(
                f"{step.value!r} is not an option of {element.id!r}; options: "
                f"{list(element.options)}"
            )


def _describe(step: WebStep) -> str:
    if isinstance(step, Click):
        return f"click on {step.target!r}"
    if isinstance(step, TypeText):
        return f"typing {step.text!r} into {step.target!r}"
    if isinstance(step, SelectOption):
        return f"selecting {step.value!r} in {step.target!r}"
    if isinstance(step, Navigate):
        return f"navigating to {step.url!r}"
    return step.kind


def id_list(ids: Sequence[str]) -> str:
    shown = list(ids[:_MAX_IDS_SHOWN])
    more = f" (and {len(ids) - _MAX_IDS_SHOWN} more)" if len(ids) > _MAX_IDS_SHOWN else ""
    return f"{shown}{more}"
