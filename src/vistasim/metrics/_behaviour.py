"""Conversational failures: name what the agent did wrong, not only what the end state lacks.

A failed criteria check says *that* an episode went wrong ("order W1011 is not cancelled"); the
same flaw shows up as several checks, and two flaws can fail the same check. These detectors read
an episode's events and name the cause, worded the same way every time, with the events that show
it:

- `ignored-correction`: the user took a value back ("W1010, sorry, I mean W1011") and a later
  successful tool call still used the old one.
- `partial-items`: one message listed several things ("the toaster and the coffee maker"), the
  agent's write calls covered some but not all of them, and it said it was done; or, before any
  write, it proposed only some of them and never wrote the others; or it said it was done
  without a word about a record the user had asked about, which was written only after the
  user asked for it a second time.
- `ignored-amendment`: the user said yes to a confirmation question and added a change ("yes, but
  make it BIO101-B"); the next write call lacks the change (a call the system refused counts:
  the agent set out to act without it).
- `unclear-confirmation`: the agent acted (or tried to: a refused write counts) on an answer to
  its confirmation question that said yes and no at once ("okay, hmm, wait, no, don't cancel it
  yet").
- `ignored-objection`: the user turned a proposal down for a day or id it named ("No — it should
  be Thursday 28 January"), and the agent proposed the same again (`metrics/_objection.py`).

The code is domain-independent: what counts as a value, a write tool, a confirmation question or a
"done" is data (`BehaviourSpec`, from a domain's `policy_rules.yaml`). Scenario ids and tags are
never read: they are the ground truth these detectors are measured against.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from pydantic import BaseModel, ConfigDict, JsonValue, field_validator

from vistasim.dates import find_dates
from vistasim.events import AgentReply, ToolCall, UserMessage
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.metrics._identity import is_identity_tool
from vistasim.metrics._mentions import (
    Correction,
    EntityKind,
    Mention,
    Record,
    corrections,
    find_mentions,
    listed_groups,
    mentions_value,
    records_in,
)
from vistasim.metrics._objection import ignored_objection
from vistasim.metrics._outcome import is_errored
from vistasim.metrics._writes import WriteTools
from vistasim.store._view import EpisodeView, RunView, StoredEvent
from vistasim.values import iter_strings, json_values, text_ids

__all__ = ["DETECTORS", "BehaviourSpec", "detect_behaviour"]

_GENERIC_ID = r"\b(?=[A-Za-z0-9-]*\d)[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b"
"""Without a domain: any token that starts with a letter and holds a digit (W1007, BIO101-B)."""
_AGREE = re.compile(r"\b(?:yes|yeah|yep|sure|ok|okay|fine|alright)\b", re.IGNORECASE)
_STARTS_AGREEING = re.compile(r"^\W*(?:yes|yeah|yep|sure|ok|okay|fine|alright)\b", re.IGNORECASE)
_HOLD = re.compile(
    r"\b(?:no(?!\s+(?:problem|worries|rush|trouble))|nope|wait|hold\s+on|hang\s+on|not\s+yet|"
    r"don'?t|do\s+not|stop|hmm+)\b",
    re.IGNORECASE,
)
_AMEND = re.compile(r"\b(?:but|instead|make\s+it|change|rather|except|only)\b", re.IGNORECASE)

DETECTORS: dict[str, str] = {
    "ignored-correction": "acted on a value the user had corrected",
    "partial-items": "handled only some of the items the user asked for, then reported done",
    "ignored-amendment": "carried out a confirmed action without the change the user added",
    "unclear-confirmation": "acted on a confirmation that also said no or wait",
    "ignored-objection": "proposed the same again after the user said no and named what it wanted",
}
"""Detector ids (the failure labels) and their descriptions, worded the same every time."""


class BehaviourSpec(BaseModel):
    """What the detectors need to know about a product: its values, write tools and phrasing."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    entities: list[EntityKind] = [EntityKind(name="id", pattern=_GENERIC_ID)]
    """Kinds of values users name; default: any id-like token."""
    write_tools: list[str] | None = None
    """Tools that change state, overriding what the environment observed; `None`: a call
    changed the state when the environment saw it change a record (else by the tool's name)."""
    confirm_cues: list[str] = [r"shall i proceed", r"yes/no", r"\bconfirm\b", r"go ahead\?"]
    """Regular expressions (case-insensitive) marking an agent reply as a confirmation question."""
    done_cues: list[str] = [r"\bdone\b", r"\ball set\b", r"\bcompleted\b", r"\bsuccessfully\b"]
    """Regular expressions (case-insensitive) that mark an agent reply as reporting success."""

    @field_validator("confirm_cues", "done_cues")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"cue {pattern!r} is not a regular expression: {exc}") from exc
        return patterns


@cache
def _compiled(cues: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    # Each reply is tested against every cue; looking patterns up in `re`'s cache by their
    # text on every test was a tenth of the detectors' time.
    return tuple(re.compile(cue, re.IGNORECASE) for cue in cues)


def detect_behaviour(
    run: RunView, spec: BehaviourSpec | None = None, *, writes: WriteTools | None = None
) -> list[Failure]:
    """Run every behavioural detector over every non-errored episode of a run.

    Args:
        run: The stored run.
        spec: The product's values, write tools and phrasing; default: generic id-like values.
        writes: What changes the state, as observed over the run; default: learnt from it.
    """
    spec = BehaviourSpec() if spec is None else spec
    if writes is None:
        events = (s.event for e in run.episodes for s in e.events)
        writes = WriteTools.from_events(events, listed=spec.write_tools)
    found: list[Failure] = []
    for view in run.episodes:
        if is_errored(view):
            continue
        episode = _Episode.read(view, spec, writes)
        found += detector_failures(view, "behaviour", _DETECTORS, DETECTORS, episode)
    return found


@dataclass(frozen=True, kw_only=True)
class _Episode:
    """An episode's events with what the detectors look up again and again."""

    events: tuple[StoredEvent, ...]
    spec: BehaviourSpec
    writes: WriteTools
    records: tuple[Record, ...]
    """Everything of a record-based kind that the agent read in a successful tool result."""
    said: dict[tuple[int, int], bool] = field(default_factory=dict, compare=False, repr=False)
    """`says` by (event id, id of the cue list): the detectors ask about the same replies again
    and again (each later message of an episode rescans the replies after it)."""
    mentioned: dict[str, list[Mention]] = field(default_factory=dict, compare=False, repr=False)
    """`mentions` by text: several detectors read the same user messages."""
    corrected: dict[str, list[Correction]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """`corrections` by text, for the same reason."""

    @classmethod
    def read(cls, view: EpisodeView, spec: BehaviourSpec, writes: WriteTools) -> _Episode:
        records = tuple(
            record
            for stored in view.events
            if isinstance(stored.event, ToolCall) and stored.event.error is None
            for record in records_in(stored.event.result, spec.entities)
        )
        return cls(events=view.events, spec=spec, writes=writes, records=records)

    def mentions(self, text: str) -> list[Mention]:
        found = self.mentioned.get(text)
        if found is None:
            found = self.mentioned[text] = find_mentions(text, self.spec.entities, self.records)
        return found

    def corrections(self, text: str) -> list[Correction]:
        found = self.corrected.get(text)
        if found is None:
            # The days count as values too: in "order W1010 to Tuesday 15 December — sorry, I
            # mean Monday 14 December" the cue takes back the day, not the order before it.
            named = sorted([*self.mentions(text), *_days(text)], key=lambda m: m.start)
            found = self.corrected[text] = corrections(text, named)
        return found

    def is_write(self, stored: StoredEvent) -> bool:
        """Whether the call acted for the user: it changed the state, not as an identity check.

        Recording who the user is answers "who are you?"; it is no action on a request.
        """
        event = stored.event
        return (
            isinstance(event, ToolCall)
            and self.writes.changed_state(event)
            and not is_identity_tool(event.name)
        )

    def tried_write(self, stored: StoredEvent) -> bool:
        """Whether the call set out to act for the user, whether or not the system let it.

        What the agent did with a confirmation's answer is its decision, not the environment's:
        "Okay, but make that BIO101 instead" then `enroll(BIO220-A)` ignored the change even
        though the enrolment was refused for a prerequisite (school, issue 16).
        """
        event = stored.event
        return (
            isinstance(event, ToolCall)
            and self.writes.attempted(event)
            and not is_identity_tool(event.name)
        )

    def says(self, stored: StoredEvent, cues: Sequence[str]) -> bool:
        event = stored.event
        if not isinstance(event, AgentReply):
            return False
        key = (stored.id, id(cues))  # the cue lists are the spec's, alive as long as `self`
        said = self.said.get(key)
        if said is None:
            said = self.said[key] = any(cue.search(event.text) for cue in _compiled(tuple(cues)))
        return said

    def answers_to_confirmation(self) -> list[_Answer]:
        """Return each user reply to a confirmation question."""
        found = []
        question: str | None = None
        for index, stored in enumerate(self.events):
            event = stored.event
            if isinstance(event, AgentReply):
                question = event.text if self.says(stored, self.spec.confirm_cues) else None
            elif isinstance(event, UserMessage):
                if question is not None:
                    found.append(
                        _Answer(index=index, event_id=stored.id, question=question, text=event.text)
                    )
                question = None
        return found


@dataclass(frozen=True, kw_only=True)
class _Answer:
    """A user message that answers the agent's confirmation question."""

    index: int
    """Position of the answer among the episode's events."""
    event_id: int
    question: str
    text: str


def _ignored_correction(episode: _Episode) -> list[int]:
    # (kind, value) -> the message taking it back, and the value given instead
    taken_back: dict[tuple[str, str], tuple[int, str]] = {}
    evidence: list[int] = []
    for stored in episode.events:
        event = stored.event
        if isinstance(event, UserMessage):
            days = _days(event.text)
            mentions = [*episode.mentions(event.text), *days]
            now = {(c.kind, c.old): c.new for c in episode.corrections(event.text)}
            for mention in mentions:
                # Naming a taken-back value again, outside a correction, asks for it again.
                if (mention.kind, mention.value) not in now:
                    taken_back.pop((mention.kind, mention.value), None)
            for key, new in now.items():
                taken_back.setdefault(key, (stored.id, new))
        elif isinstance(event, ToolCall) and event.error is None:
            hits = [
                message_id
                for (kind, old), (message_id, new) in taken_back.items()
                if (("date", old) in json_values(event.args) if kind == _DAY
                    else _acts_on(event.args, old, new))
            ]  # fmt: skip
            if hits:
                evidence.extend([*hits, stored.id])
    return evidence


def _acts_on(args: JsonValue, old: str, new: str) -> bool:
    """Whether call arguments carry a taken-back value other than in a quote of the correction.

    A complaint logged "in your words" holds "SW31112... actually, make that SW31111": the old
    value beside the new one is the user's correction quoted, not the old value acted on.
    """
    if isinstance(args, str):
        return mentions_value(args, old) and not mentions_value(args, new)
    if isinstance(args, list):
        return any(_acts_on(item, old, new) for item in args)
    if isinstance(args, dict):
        return any(_acts_on(item, old, new) for item in args.values())
    return False


_DAY = "day"
"""The kind of a day a user names ("Thursday 17 December — sorry, I meant Friday 18 December").

A product's own kinds name ids; a day taken back is checked in every domain.
"""


def _days(text: str) -> list[Mention]:
    """The single days a message names, as mentions (value `MM-DD`).

    No ranges, and no relative days: without the environment's day "Friday" is no date.
    """
    return [
        Mention(kind=_DAY, value=next(iter(m.days)), start=m.start, end=m.end)
        for m in find_dates(text, None)
        if len(m.days) == 1 and any(c.isdigit() for c in m.surface)
    ]


def _partial_items(episode: _Episode) -> list[int]:
    events = episode.events
    for index, stored in enumerate(events):
        if not isinstance(stored.event, UserMessage):
            continue
        text = stored.event.text
        mentions = episode.mentions(text)
        taken_back = {c.old for c in episode.corrections(text)}
        writes: list[StoredEvent] | None = None  # looked for once a message lists items
        for group in listed_groups(text, mentions):
            if writes is None:
                writes = [s for s in events[index + 1 :] if episode.is_write(s)]
            asked = {m.value for m in group} - taken_back
            acting = [w for w in writes if any(_carries(w, v) for v in asked)]
            covered = {v for v in asked if any(_carries(w, v) for w in acting)}
            if len(asked) < 2 or covered == asked:
                continue
            if not acting:
                # Nothing written yet: a proposal that leaves items out, and no write ever
                # covering them, is the same flaw caught before the agent acts.
                proposal = _partial_proposal(episode, events[index + 1 :], asked)
                if proposal is not None and not any(
                    _carries(w, v) for w in writes for v in asked - covered
                ):
                    return [stored.id, proposal.id]
                continue
            after = [s for s in events if s.id > acting[0].id]
            done = next((s for s in after if episode.says(s, episode.spec.done_cues)), None)
            if done is not None:
                return [stored.id, *(w.id for w in acting), done.id]
    return _asked_again(episode)


def _asked_again(episode: _Episode) -> list[int]:
    """A record the user asked about, left out of a done report, then asked for a second time.

    "Waive F-1003 and move my ECON301 final" - "Done, F-1003 is waived. Anything else?" -
    "Also, I'd like to reschedule my ECON301 exam": ECON301 was named, no reply spoke of it and
    no call carried it before "Done", and only the user's second asking got it written.
    """
    events = episode.events
    if not any(episode.says(s, episode.spec.done_cues) for s in events):
        return []  # no done report to leave a record out of (each message rescanned the rest)
    for first, stored in enumerate(events):
        if not isinstance(stored.event, UserMessage):
            continue
        text = stored.event.text
        for record in sorted(text_ids(text)):
            if re.search(rf"(?:\bis|:)\s+{re.escape(record)}\b", text, re.IGNORECASE):
                continue  # "my reservation number is RS411": a fact told, not a request
            later = events[first + 1 :]
            done = next((i for i, s in enumerate(later) if episode.says(s, episode.spec.done_cues)
                         and not _speaks_of(s, record)), None)  # fmt: skip
            if done is None or any(_speaks_of(s, record) for s in later[:done]):
                continue
            after = later[done + 1 :]
            again = next((i for i, s in enumerate(after) if isinstance(s.event, UserMessage)
                          and _speaks_of(s, record)), None)  # fmt: skip
            if again is not None and any(
                episode.is_write(s) and _speaks_of(s, record) for s in after[again + 1 :]
            ):
                return [stored.id, later[done].id, after[again].id]
    return []


def _speaks_of(stored: StoredEvent, record: str) -> bool:
    """Whether a message names the record, or a call carries it (`EX-ECON301-FIN`: ECON301)."""
    event = stored.event
    if isinstance(event, AgentReply | UserMessage):
        return record.casefold() in event.text.casefold()
    if isinstance(event, ToolCall):
        return any(record.casefold() in text.casefold() for text in iter_strings(event.args))
    return False


def _partial_proposal(
    episode: _Episode, later: Sequence[StoredEvent], asked: set[str]
) -> StoredEvent | None:
    """The agent's first confirmation question naming some but not all of `asked`."""
    for stored in later:
        if not episode.says(stored, episode.spec.confirm_cues):
            continue
        assert isinstance(stored.event, AgentReply)
        named = {m.value for m in episode.mentions(stored.event.text)} & asked
        if named and named != asked:
            return stored
    return None


def _ignored_amendment(episode: _Episode) -> list[int]:
    evidence: list[int] = []
    for answer in episode.answers_to_confirmation():
        amend = _AMEND.search(answer.text)
        if not _STARTS_AGREEING.search(answer.text) or amend is None:
            continue
        proposed = {m.value for m in episode.mentions(answer.question)}
        named = episode.mentions(answer.text)
        added = {m.value for m in named if m.start >= amend.start()} - proposed
        later = episode.events[answer.index + 1 :]
        write = next((s for s in later if episode.tried_write(s)), None)
        if added and write is not None and not any(_carries(write, v) for v in added):
            evidence.extend([answer.event_id, write.id])
    return evidence


def _unclear_confirmation(episode: _Episode) -> list[int]:
    evidence: list[int] = []
    for answer in episode.answers_to_confirmation():
        if not (_AGREE.search(answer.text) and _HOLD.search(answer.text)):
            continue
        for stored in episode.events[answer.index + 1 :]:
            if isinstance(stored.event, UserMessage):
                break
            if episode.tried_write(stored):
                evidence.extend([answer.event_id, stored.id])
                break
    return evidence


def _carries(stored: StoredEvent, value: str) -> bool:
    event = stored.event
    return isinstance(event, ToolCall) and mentions_value(event.args, value)


_DETECTORS: dict[str, Callable[[_Episode], list[int]]] = {
    "ignored-correction": _ignored_correction,
    "partial-items": _partial_items,
    "ignored-amendment": _ignored_amendment,
    "unclear-confirmation": _unclear_confirmation,
    "ignored-objection": lambda episode: ignored_objection(episode, _days),
}
