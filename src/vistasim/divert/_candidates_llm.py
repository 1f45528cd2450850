"""Alternative user actions for a junction, written by a model and screened before use.

A branch is only a fair test if its user still pursues the scenario's goal with the scenario's
facts: a rewrite that invents an id or a date makes the agent fail for the simulator's fault, one
that says an implausible value (a day already past, 09:31 for 09:30) tests no real user, and one
that ends the conversation tests nothing. So every candidate is checked here and the bad ones
dropped; the model is asked again (with the reasons) only when none survives.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date

from pydantic import BaseModel, ConfigDict, field_validator

from vistasim.divert._support import TokenTally, clip, render_prompt
from vistasim.divert._types import Candidate, CandidateContext
from vistasim.llm import ChatMessage, ChatModel, ChatRequest, complete_json
from vistasim.user import ROLE_SWAP_PATTERNS, implausible
from vistasim.values import text_ids, text_values

__all__ = [
    "MAX_CANDIDATE_CHARS",
    "STOP_MARKERS",
    "LLMCandidates",
    "implausible_values",
    "known_text",
    "screen_candidates",
    "unknown_facts",
]

MAX_CANDIDATE_CHARS = 1_000

STOP_MARKERS = ("goal_met", "user_stop", "###STOP###")
"""How a simulated user ends an episode: the LLM user's `finish` reasons, and tau-bench's marker.

A candidate carrying one would stop the branch at the junction, which tests nothing.
"""
_STOP = re.compile(
    "|".join([*(re.escape(m) for m in STOP_MARKERS), r"\"action\"\s*:\s*\"finish\""]),
    re.IGNORECASE,
)
_ROLE_SWAP = re.compile("|".join(ROLE_SWAP_PATTERNS), re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# "3rd", "18th": ordinals name a position ("the 2nd option"), not a fact; dates are read apart.
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.IGNORECASE)
# "6pm", "10GB", "30min": a number with a unit; its number is checked, the token is no id.
_NUMBER_UNIT = re.compile(r"^\d+(?:\.\d+)?[A-Za-z]{1,3}$")
_CHECKED_VALUES = ("date", "time")


class LLMCandidates:
    """Ask a model for K intent-preserving rewrites of the user's action at a junction.

    Args:
        model: Any chat model (usually the `generator` role's `RoleModel`).
        max_repairs: Extra calls allowed when a reply is not valid JSON or none of its
            candidates passes the checks; then `InvalidOutputError` is raised.
    """

    name = "llm"

    def __init__(self, model: ChatModel, *, max_repairs: int = 2) -> None:
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be 0 or more, got {max_repairs}")
        self.model = model
        self.max_repairs = max_repairs

    async def generate(self, ctx: CandidateContext, k: int) -> tuple[list[Candidate], int]:
        """Return at most `k` valid candidates and the model tokens spent.

        Raises:
            ValueError: `k` is below 1.
            InvalidOutputError: no valid candidate within `max_repairs` repairs.
        """
        if k < 1:
            raise ValueError(f"k must be 1 or more, got {k}")
        prompt = render_prompt(
            "candidates",
            persona=ctx.persona.strip() or "(not given)",
            goal=ctx.goal.strip(),
            facts="\n".join(f"- {key}: {value}" for key, value in ctx.facts.items()) or "(none)",
            transcript="\n".join(f"{role}: {clip(text)}" for role, text in ctx.transcript)
            or "(nothing yet: this is the customer's opening message)",
            original=ctx.original.strip(),
            rationale=ctx.rationale.strip() or "(not given)",
            k=str(k),
        )
        request = ChatRequest(messages=[ChatMessage(role="user", content=prompt)])
        tally = TokenTally(self.model)
        reply, _ = await complete_json(
            tally, request, _reply_schema(ctx), max_repairs=self.max_repairs
        )
        kept = [Candidate(text=text, source=self.name) for text in reply.candidates[:k]]
        return kept, tally.tokens


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    candidates: list[str]


def _reply_schema(ctx: CandidateContext) -> type[_Reply]:
    known = known_text(ctx)

    # Screening inside validation puts "all candidates rejected" through complete_json's repair
    # loop, so the model sees why and one bound covers bad JSON and bad content alike.
    class CandidatesReply(_Reply):
        @field_validator("candidates")
        @classmethod
        def _screen(cls, values: list[str]) -> list[str]:
            kept, problems = screen_candidates(
                values, original=ctx.original, known=known, today=ctx.today
            )
            if not kept:
                raise ValueError(
                    "no candidate was usable: " + "; ".join(problems or ["the list was empty"])
                )
            return kept

    return CandidatesReply


def known_text(ctx: CandidateContext) -> str:
    """Return everything a candidate may draw facts from: facts, goal, transcript, original."""
    parts: list[str] = [ctx.goal, ctx.original]
    parts.extend(f"{key}: {value}" for key, value in ctx.facts.items())
    parts.extend(text for _, text in ctx.transcript)
    return "\n".join(parts)


def screen_candidates(
    texts: Iterable[str], *, original: str, known: str, today: date | None = None
) -> tuple[list[str], list[str]]:
    """Split candidate texts into the usable ones (stripped) and one problem line per reject.

    A candidate is rejected when it is empty, longer than `MAX_CANDIDATE_CHARS`, the same as the
    original or an earlier candidate (ignoring case and spacing), carries a stop marker, speaks
    as the assistant, mentions a fact (`unknown_facts`) not in `known`, or says an implausible
    value (`implausible_values`: a day before `today`, a near-duplicate of the original's).
    """
    seen = {_normalized(original)}
    kept: list[str] = []
    problems: list[str] = []
    for number, raw in enumerate(texts, start=1):
        text = raw.strip()
        problem = _problem(text, seen, known) or implausible_values(text, original, today)
        if problem is None:
            kept.append(text)
            seen.add(_normalized(text))
        else:
            problems.append(f"candidate {number} {json.dumps(clip(text, 60))}: {problem}")
    return kept, problems


def _problem(text: str, seen: set[str], known: str) -> str | None:
    if not text:
        return "is empty"
    if len(text) > MAX_CANDIDATE_CHARS:
        return f"is {len(text)} characters long (at most {MAX_CANDIDATE_CHARS})"
    if _normalized(text) in seen:
        return "repeats the original message or another candidate"
    if _STOP.search(text):
        return "ends the conversation (stop marker); the agent must have something to answer"
    if _ROLE_SWAP.search(text):
        return "speaks as the assistant, not the customer"
    new = unknown_facts(text, known)
    if new:
        return f"mentions {', '.join(new)}, not in the facts or the conversation (invented)"
    return None


def implausible_values(text: str, original: str, today: date | None) -> str | None:
    """Why a date or time `text` says, and `original` does not, is no value a user would mean.

    A day already past where the original asks for one to come (a date written without its
    year is read as the nearest such day; a past day told as a fact, "I ordered it on March 2",
    is no choice), or a near-duplicate of the original's value of the same kind (`implausible`).

    >>> implausible_values("The 09:31 one instead?", "Book the 09:30 train", None)
    'says 09:31: a near-duplicate of 09:30 (times under 30 minutes apart)'
    >>> implausible_values("Make it March 2", "Book it for March 20", date(2026, 3, 16))
    'says 03-02: a date in the past (today is 2026-03-16)'
    >>> implausible_values("Make it 10:15", "Book the 09:30 train", None) is None
    True
    """
    said = text_values(original)
    ahead = today is not None and any(
        kind == "date" and _nearest_day(value, today) >= today for kind, value in said
    )
    for kind, value in sorted(text_values(text) - said):
        if kind == "date" and ahead and today and _nearest_day(value, today) < today:
            return f"says {value}: a date in the past (today is {today.isoformat()})"
        if kind != "time":
            continue
        for other_kind, other in sorted(said):
            why = implausible(other, value) if other_kind == kind else None
            if why is not None and why.startswith("a near-duplicate"):
                return f"says {value}: {why}"
    return None


def _nearest_day(month_day: str, today: date) -> date:
    """The day `MM-DD` names nearest to `today` (a date said without its year)."""
    month, day = (int(part) for part in month_day.split("-")[-2:])
    try:
        days = [date(today.year + shift, month, day) for shift in (-1, 0, 1)]
    except ValueError:  # 29 February of a year without one: no past day to refuse
        return today
    return min(days, key=lambda d: (abs(d - today), d < today))


def unknown_facts(text: str, known: str) -> list[str]:
    """Return the facts `text` states that `known` does not: emails, ids, dates, times, numbers.

    Dates and times compare as values ("March 18" is "2026-03-18", "6pm" is "18:00"), ids and
    emails ignore case, and any other number (an amount, a count) is known when `known` writes it
    in any spelling (`1,200` is `1200.00`), alone, inside an id or as part of a date or time.
    Ordinals ("the 2nd one") are positions, not facts, and pass.

    >>> unknown_facts("Move it to March 18, ref w1007", "booking W1007 on 2026-03-18")
    []
    >>> unknown_facts("It was 45 EUR on March 19, id W2000", "booking W1007 on 2026-03-18")
    ['id W2000', 'date 03-19', 'number 45']
    """
    known_emails = {email.lower() for email in _EMAIL.findall(known)}
    known_ids = {token.upper() for token in text_ids(_EMAIL.sub(" ", known))}
    known_values = text_values(known)
    known_numbers = _numbers(known) | _value_numbers(known_values)
    new: list[str] = []
    new += [f"email {e}" for e in _EMAIL.findall(text) if e.lower() not in known_emails]
    rest = _EMAIL.sub(" ", text)
    for token in sorted(text_ids(rest)):
        if _NUMBER_UNIT.match(token) and not _ORDINAL.match(token):
            continue  # its number stays in `rest` and is checked below
        if not _ORDINAL.match(token) and token.upper() not in known_ids:
            new.append(f"id {token}")
        # Digits inside an id (or an ordinal) are no number of their own.
        rest = re.sub(rf"(?<![\w-]){re.escape(token)}(?![\w-])", " ", rest)
    # Dates and times have many spellings, so they compare as values; amounts are plain numbers.
    unknown_values = {v for v in text_values(text) - known_values if v[0] in _CHECKED_VALUES}
    new += [f"{kind} {value}" for kind, value in sorted(unknown_values)]
    # A number that is part of an unknown date or time was reported with it.
    reported = _value_numbers(unknown_values)
    new += [f"number {n}" for n in sorted(_numbers(rest) - known_numbers - reported)]
    return list(dict.fromkeys(new))


def _numbers(text: str) -> set[str]:
    return {_canonical(match.group(0)) for match in _NUMBER.finditer(text)}


def _value_numbers(values: Iterable[tuple[str, str]]) -> set[str]:
    """Return the numbers a user may write for known values: 18:00 gives 18, 6 and 0."""
    numbers: set[str] = set()
    for kind, value in values:
        parts = re.findall(r"\d+(?:\.\d+)?", value)
        numbers.update(_canonical(part) for part in parts)
        if kind == "time":
            numbers.add(str(int(parts[0]) % 12 or 12))
    return numbers


def _canonical(number: str) -> str:
    """Return one spelling of a number: `1,200.50` -> `1200.5`, `03` -> `3` (exact, no float).

    >>> _canonical("1,200.50"), _canonical("03"), _canonical("0.0")
    ('1200.5', '3', '0')
    """
    whole, _, fraction = number.replace(",", "").partition(".")
    whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split())
