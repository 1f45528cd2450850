"""Turn the agenda user's dialogue acts into persona-styled sentences.

The wording lives in `prompts/agenda_templates.yaml` (data); this module validates it and fills
it in. Every choice goes through the step's seeded RNG, so the same state gives the same words and
another seed gives other words for the same facts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from vistasim.errors import ConfigError
from vistasim.scenario import Persona, Scalar
from vistasim.user._lexicon import last_digits, spaced_figures
from vistasim.user._tasks import built_task, goal_clause, request_clauses
from vistasim.values import text_ids

_ID_WORDS = frozenset({"id", "number", "no", "code", "ref", "num"})
Formality = Literal["casual", "neutral", "formal"]
Verbosity = Literal["low", "medium", "high"]


class _ByFormality(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    casual: list[str]
    neutral: list[str]
    formal: list[str]


class _ByVerbosity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    low: list[str]
    medium: list[str]
    high: list[str]


_DONE_TO_ME = re.compile(r"^\s*[A-Za-z]+\s+(?:me|us)\b(?!\s+know\b)", re.IGNORECASE)
"""An imperative whose object is the user ("sign me up", "send us the code"); "let me know" is
not one."""


class AgendaTemplates(BaseModel):
    """The agenda user's wording, as shipped in `prompts/agenda_templates.yaml`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    greet: _ByFormality
    introduce: list[str]
    request: _ByFormality
    ask_do: _ByFormality
    ask_tell: _ByFormality
    ask_check: _ByFormality
    volunteer: list[str]
    next_item: list[str]
    facts: dict[str, list[str]]
    labels: dict[str, str]
    value_labels: dict[str, str]
    intents: dict[str, str]
    answer_prefix: _ByVerbosity
    answer_suffix: _ByVerbosity
    dont_have: list[str]
    repeat_prefix: list[str]
    confirm: _ByFormality
    correct: list[str]
    rephrase: list[str]
    impatient: list[str]
    api_failed: list[str]
    thanks: _ByFormality
    give_up: _ByFormality
    hesitate: list[str]
    confirm_later: list[str]
    decline: list[str]
    too_costly: list[str]
    left_as_is: list[str]
    left_out: list[str]
    no_refund: list[str]
    self_correct: list[str]
    change_mind: list[str]
    amend: list[str]
    amend_refused: list[str]
    withhold: list[str]
    second_request: list[str]
    accept_refusal: _ByFormality
    object_value: list[str]
    not_done: list[str]
    self_done: list[str]
    after_refusal: list[str]
    fallback: list[str]
    ask_alternative: list[str]
    choose: list[str]
    none_fit: list[str]
    no_preference: list[str]
    move_on: list[str]


@cache
def load_templates() -> AgendaTemplates:
    """Load and validate the packaged templates (once per process)."""
    path = resources.files("vistasim.user") / "prompts" / "agenda_templates.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        return AgendaTemplates.model_validate(raw)
    except ValueError as exc:
        raise ConfigError(f"invalid agenda templates: {exc}", path=str(path)) from None


@dataclass(frozen=True, kw_only=True)
class Phrasing:
    """Realize acts for one persona at one step (the RNG is that step's)."""

    templates: AgendaTemplates
    persona: Persona
    rng: random.Random

    @property
    def formality(self) -> Formality:
        """The persona's register."""
        return self.persona.style.formality

    @property
    def verbosity(self) -> Verbosity:
        """How much the persona says."""
        return self.persona.style.verbosity

    def pick(self, variants: list[str], **values: str) -> str:
        """Pick one variant with the RNG and fill in its placeholders."""
        template = self.rng.choice(variants)
        # A sentence placed after a comma ("To be clear, {request}") continues that sentence.
        filled = {
            key: lower_first(value) if f", {{{key}}}" in template else value
            for key, value in values.items()
        }
        return template.format(**filled).strip()

    def greeting(self) -> str:
        """Return the opening: a greeting, and a name for formal or chatty users.

        The persona's profile shapes how the user talks; it is never said aloud ("35, teacher").
        """
        parts = [self.pick(getattr(self.templates.greet, self.formality))]
        if self.formality == "formal" or self.verbosity == "high":
            parts.append(self.pick(self.templates.introduce, name=self.persona.name))
        return join_sentences(parts)

    def request(self, task: str) -> str:
        """Return sentences asking for `task`, one per clause, in the first person.

        A first-person clause, a question or a statement is said as it is; an imperative goes
        through a request template; "check/find out whether ..." becomes a question.
        """
        parts: list[str] = []
        templated = False
        for clause in request_clauses(task):
            if clause.form == "statement":
                parts.append(sentence(clause.text))
            elif clause.form != "verb":
                asks = (
                    self.templates.ask_check if clause.form == "check" else self.templates.ask_tell
                )
                parts.append(self.pick(getattr(asks, self.formality), question=clause.text))
            elif _DONE_TO_ME.match(clause.text):
                variants = getattr(self.templates.ask_do, self.formality)
                parts.append(self.pick(variants, task=lower_first(clause.text)))
                templated = True
            elif not templated:
                variants = getattr(self.templates.request, self.formality)
                parts.append(self.pick(variants, task=lower_first(clause.text)))
                templated = True
            else:
                parts.append(sentence(f"I'd also like to {lower_first(clause.text)}"))
        return " ".join(parts)

    def task(self, intent: str, slots: dict[str, Scalar], goal: str = "") -> str:
        """Return the words for an agenda intent: its template, the goal's clause, or built.

        Intent and slot names are never said: an intent no template knows is asked for with
        the goal's own clause about it, else with words built from its verb and values.
        """
        clause = goal_clause(goal, intent, slots) if goal else None
        if clause is not None and _names_a_value(clause, slots):
            # The owner's own words for this part ("find out how many seats are left in CS201")
            # say more than a template's ("find out more about CS201").
            return clause
        template = self.templates.intents.get(intent)
        if template is not None:
            try:
                return template.format(**{k: str(v) for k, v in slots.items()})
            except (KeyError, IndexError):
                pass  # a slot the template needs is missing: fall back to plain words
        return clause if clause is not None else built_task(intent, slots)

    def fact(self, slot: str, value: Scalar, context: str = "") -> str:
        """Return a clause stating one fact ("my order number is W1007")."""
        text = str(value)
        variants = self.templates.facts.get(slot)
        if variants is None and _COUNT.fullmatch(text) and _PLURAL.fullmatch(self.label(slot)):
            variants = ["{value} {label}"]  # "4 players", never "my players is 4"
        if variants is None and self.label(slot) == "name":
            variants = self.templates.facts.get("name")  # `caller_name`: "my name is ..."
        if variants is None:
            sentence = isinstance(value, str) and len(text.split()) >= 3
            variants = self.templates.facts["sentence" if sentence else "default"]
            if _others_name(slot):  # "my old name is Mark Walsh" for the husband's name
                variants = [v for v in variants if not v.startswith("my ")] or variants
        return self.pick(variants, value=text, label=self.label(slot, context))

    def facts(self, pairs: list[tuple[str, Scalar]]) -> str:
        """Return several facts joined into one clause."""
        clauses = [self.fact(slot, value) for slot, value in pairs]
        if len(clauses) <= 1:
            return "".join(clauses)
        return ", ".join(clauses[:-1]) + " and " + clauses[-1]

    def label(self, slot: str, context: str = "") -> str:
        """Return natural words for a slot, never its machine name read out.

        The templates' label, "date of birth" for a birth date, "note number" for `note_id`, a
        one-word name as it is; a longer name spaced out when the agent said those words
        (`context`) or it is a name (`pet_name` -> "pet name"), else its head noun
        (`pickup_time` -> "time").
        """
        known = self.templates.labels.get(slot)
        if known is not None:
            return known
        words = spaced_figures(slot.lower().replace("_", " ")).split()
        if not words:
            return slot
        last = last_digits(" ".join(words))
        if last is not None:
            return f"last {last[0]} digits"  # `card_last4`: "last4" is no word anyone says
        if {"dob", "birth", "birthdate", "birthday"} & set(words):
            return "date of birth"
        if len(words) == 2 and words[1] == "name" and words[0] in SELF_NAMED:
            return "name"  # "Caller's name: Gary Hill" was read as the name "Caller's Gary Hill"
        if len(words) > 1 and words[-1] in _ID_WORDS:
            return f"{words[-2]} number"
        spaced = " ".join(words)
        if _others_name(slot) and len(words) == 2 and words[0] not in _NAME_QUALIFIERS:
            return f"{words[0]}'s name"  # "pet's name", "passenger's name"
        # "My name is Bella" would be the user's own name: a name keeps whose it is.
        if len(words) == 1 or spaced in context.lower() or words[-1] == "name":
            return spaced
        return words[-1]

    def value_label(self, slot: str, value: Scalar) -> str:
        """Return a slot named right before its value ("order W1007")."""
        return f"{self.templates.value_labels.get(slot, self.label(slot))} {value}"

    def styled(self, act: str) -> str:
        """Pick a variant of an act keyed by formality (`confirm`, `thanks`, `give_up`)."""
        return self.pick(getattr(getattr(self.templates, act), self.formality))

    def answer(self, clauses: list[str], *, gives_facts: bool = True) -> str:
        """Wrap answer clauses in the persona's verbosity (bare, prefixed, or with a follow-up).

        An answer that gives no fact ("I don't have that on hand") gets no "Sure."/"Yes," prefix.
        """
        body = " ".join(sentence(c) for c in clauses if c)
        prefix = self.pick(getattr(self.templates.answer_prefix, self.verbosity))
        prefix = prefix if gives_facts else ""
        suffix = self.pick(getattr(self.templates.answer_suffix, self.verbosity))
        if prefix.endswith(","):
            body = f"{prefix} {lower_first(body)}"
        elif prefix:
            body = f"{prefix} {body}"
        return f"{body} {suffix}".strip()


_COUNT = re.compile(r"\d{1,3}")
_PLURAL = re.compile(r"[a-z]+[^su\W]s")
"""One plural noun ("players", "guests"), not a word that merely ends in s ("address", "bus")."""

SELF_NAMED = frozenset({"caller", "customer", "holder", "contact", "your", "my", "user"})
"""First words of a `*_name` slot that is simply the user's name (`caller_name`): "my name"."""
_OWN_NAME = SELF_NAMED | {"first", "last", "full", "given", "family", "middle", "maiden"}
"""First words of a `*_name` slot that is the user's own name (or a part of it)."""
_NAME_QUALIFIERS = frozenset({"old", "new", "current", "previous", "other", "account", "company"})
"""First words of a `*_name` slot that qualify the name rather than say whose it is."""


def _others_name(slot: str) -> bool:
    """Whether a slot is a name that is not the user's own (`pet_name`, `old_name`)."""
    words = [w for w in slot.lower().split("_") if w]
    return len(words) > 1 and words[-1] == "name" and words[0] not in _OWN_NAME


def sentence(clause: str) -> str:
    """Capitalize a clause and end it with a period unless it already ends (or leads into) one."""
    clause = clause.strip()
    if not clause:
        return clause
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?,:" else f"{clause}."


def join_sentences(parts: list[str]) -> str:
    """Join clauses into sentences; a part after a comma ("Hey,") continues that sentence."""
    out: list[str] = []
    for part in filter(None, (p.strip() for p in parts)):
        text = sentence(part)
        if out and out[-1].endswith(","):
            text = lower_first(text)
        out.append(text)
    return " ".join(out)


def lower_first(text: str) -> str:
    """Lower-case a leading capitalized word so the text can continue a sentence."""
    # Keep acronyms and names ("ID", "W1007") as they are: only lower a capitalized word.
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _names_a_value(clause: str, slots: Mapping[str, Scalar]) -> bool:
    """Whether the clause names this part's values and no id of another part's."""
    values = {str(v).casefold() for k, v in slots.items() if k != "api" and len(str(v)) >= 3}
    lowered = clause.casefold()
    return any(v in lowered for v in values) and all(
        i.casefold() in values for i in text_ids(clause)
    )
