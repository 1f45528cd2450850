"""Web skills: how the offline user does an agenda item itself in the product's web UI.

A rule-based user cannot look at a page and improvise, so each domain writes down, per agenda
intent, the route through its site as data (`web_skills.yaml` next to the domain's code): a list
of step templates over the scenario's slots ("navigate /orders/{order_id}", "click cancel-order"),
then how the final page shows the item done. This module defines that file's schema and loads it;
`_web_route` walks a skill on a live page.

Targets are `data-semantic-id` patterns: `{slot}` is filled from the user's facts and `*` matches
any run of characters (`drop-{course}-*` finds `drop-HIST240-A`). A step can list several
patterns (the first that matches an enabled element wins), narrow them by `label`, and `bind` the
element it used for later steps.

>>> step = WebSkillStep(action="click", target="cancel-order")
>>> step.target
['cancel-order']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from vistasim.browser._types import (
    WebActionKind,
)
from vistasim.errors import ConfigError

WEB_SKILLS_FILE = "web_skills.yaml"
"""Name of a domain's web skill file inside its package."""
_PHRASES_PACKAGE = "vistasim.user"

_TARGETED = frozenset({"click", "type", "select"})
_FIELDS_BY_ACTION: dict[str, frozenset[str]] = {
    "click": frozenset({"target", "label", "bind"}),
    "type": frozenset({"target", "label", "text", "enter", "bind"}),
    "select": frozenset({"target", "label", "value", "bind"}),
    "scroll": frozenset({"direction"}),
    "navigate": frozenset({"url"}),
    "back": frozenset(),
}
_STEP_FIELDS = frozenset().union(*_FIELDS_BY_ACTION.values())


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WebSkillStep(_Strict):
    """One step template of a web skill; `{slot}` placeholders are filled from the user's facts."""

    action: WebActionKind
    target: list[str] = []
    """Element id patterns (`*` = any characters), tried in order; click, type and select only."""
    label: str | None = None
    """Keep only elements whose label mentions this text (`{item}` -> 'Return Trail Daypack')."""
    text: str | None = None
    """What to type (`type`)."""
    enter: bool = False
    """Press Enter after typing (`type`)."""
    value: str | None = None
    """The option to choose (`select`): the closest option wins; `*` takes the first one."""
    url: str | None = None
    """Where to go (`navigate`); a path is resolved against the current page's URL."""
    direction: Literal["up", "down"] = "down"
    """Which way to scroll (`scroll`)."""
    optional: bool = False
    """Skip the step (instead of giving up on the skill) when its slots or element are missing."""
    bind: str | None = None
    """Name under which later steps can use `{name}`: the id of the element this step used, minus
    the target's literal head (`reschedule-session-*` matched `reschedule-session-X1`: `X1`)."""

    @field_validator("target", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _fits_action(self) -> WebSkillStep:
        allowed = _FIELDS_BY_ACTION[self.action]
        given = {name for name in _STEP_FIELDS & self.model_fields_set if name not in allowed}
        if given:
            raise ValueError(
                f"{self.action!r} steps take only {sorted(allowed)}; remove {sorted(given)}"
            )
        needed = {"type": "text", "select": "value", "navigate": "url"}.get(self.action)
        if needed is not None and getattr(self, needed) is None:
            raise ValueError(f"{self.action!r} steps need {needed!r}")
        if self.action in _TARGETED and not self.target:
            raise ValueError(f"{self.action!r} steps need 'target' (a data-semantic-id pattern)")
        return self


class WebSkill(_Strict):
    """How to do one agenda intent through the web UI: steps, then how to see it worked."""

    intent: str
    description: str = ""
    steps: list[WebSkillStep] = Field(min_length=1)
    done_text: list[str] = []
    """Phrases (slot templates allowed) whose presence on the final page means the item is done;
    a done report in the lexicon's sense ("has been cancelled") counts too."""


class UseRoutine(_Strict):
    """A step that splices in a named routine of the file (such as logging in)."""

    use: str


class _SkillSpec(_Strict):
    description: str = ""
    steps: list[WebSkillStep | UseRoutine] = Field(min_length=1)
    done_text: list[str] = []


class WebSkillsFile(_Strict):
    """The shape of a domain's `web_skills.yaml`."""

    routines: dict[str, list[WebSkillStep]] = {}
    """Named step lists shared by skills (`- use: login`)."""
    skills: dict[str, _SkillSpec]
    """Agenda intent -> the route through the site."""


def load_web_skills(package: str) -> dict[str, WebSkill]:
    """Load and validate `web_skills.yaml` of a domain package (`Domain.package`).

    A package without the file has no web skills: the result is empty.

    Raises:
        ConfigError: the file is not valid YAML, breaks the schema, or uses an unknown routine.
    """
    source = resources.files(package) / WEB_SKILLS_FILE
    if not source.is_file():
        return {}
    return dict(_load(package))


@cache
def _load(package: str) -> tuple[tuple[str, WebSkill], ...]:
    source = resources.files(package) / WEB_SKILLS_FILE
    where = f"{package}/{WEB_SKILLS_FILE}"
    try:
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        parsed = WebSkillsFile.model_validate(data)
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", path=where) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        raise ConfigError(
            f"{first['msg']} (got {first.get('input')!r}); see vistasim/user/_web_skills.py",
            path=where,
            key=key,
        ) from None
    skills = []
    for intent, spec in parsed.skills.items():
        steps = _expand(spec.steps, parsed.routines, where=where, intent=intent)
        skill = WebSkill(
            intent=intent, description=spec.description, steps=steps, done_text=spec.done_text
        )
        skills.append((intent, skill))
    return tuple(skills)


def _expand(
    steps: Sequence[WebSkillStep | UseRoutine],
    routines: Mapping[str, list[WebSkillStep]],
    *,
    where: str,
    intent: str,
) -> list[WebSkillStep]:
    expanded: list[WebSkillStep] = []
    for step in steps:
        if isinstance(step, WebSkillStep):
            expanded.append(step)
        elif step.use in routines:
            expanded.extend(routines[step.use])
        else:
            raise ConfigError(
                f"unknown routine {step.use!r}; known routines: {sorted(routines)}",
                path=where,
                key=f"skills.{intent}",
            )
    return expanded


@cache
def web_failed_phrases() -> tuple[str, ...]:
    """Return the ways the agenda user says its web attempt failed (`prompts/web_phrases.yaml`)."""
    source = resources.files(_PHRASES_PACKAGE) / "prompts" / "web_phrases.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    phrases = data.get("web_failed") if isinstance(data, dict) else None
    if not isinstance(phrases, list) or not all(isinstance(p, str) and p for p in phrases):
        raise ConfigError("web_failed must be a non-empty list of strings", path=str(source))
    return tuple(phrases)
