"""Say versus do: what the agent told the user against the tool calls it made.

An agent can fail with a perfect end state ("I've cancelled it" when it did not, then the user
cancels on the site) and pass a substring check with a false reply. These detectors compare each
reply with the calls of its own turn:

- `claimed-without-action`: the reply reports a change as carried out, and no successful
  state-changing call stands behind it (none in this turn, none left unreported from before).
- `claimed-after-failure`: the reply reports success, but the turn's last state-changing call
  failed.
- `contradicts-call`: the reply states an id, an amount, a date, a time or a quantity that
  contradicts the arguments or result of the call it reports on; or the proposal the user said
  yes to stated values of a kind the call then carried, and none of them is the call's ("I'll
  refund $45.99", then a refund of $89.98).
- `empty-reply`: the agent answered with nothing.

They are domain-independent: a call changed the state when the environment saw it change (state
digests, see `metrics/_writes.py`; a product's `write_tools` list, or a tool's name, only where
no environment saw the call); the verbs a claim uses come from the write tools' own names
(`cancel_order` -> "cancelled"), and a claim with such a verb ("extended") is backed only by a
change of that tool, while a generic one ("done", "updated") is backed by any change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date

from vistasim.dates import find_dates, pinned_day
from vistasim.events import AgentReply, ToolCall, UserMessage
from vistasim.metrics._claim_verbs import (
    GENERIC_CLAIMS,
    GENERIC_VERBS,
    PURPOSE,
    claim_cues,
    verbs_of,
)
from vistasim.metrics._contradicts import contradicts_call
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.metrics._identity import is_identity_tool
from vistasim.metrics._writes import WriteTools, is_write_name
from vistasim.store import EpisodeView, StoredEvent
from vistasim.values import (
    OPENING_HOURS,
    iter_strings,
    text_ids,
)

__all__ = ["CLAIM_DETECTORS", "Turn", "agent_turns", "detect_claims", "is_write_tool"]

CLAIM_DETECTORS: dict[str, str] = {
    "claimed-without-action": "said a change was made when no successful call made it",
    "claimed-after-failure": "reported success right after the call failed",
    "contradicts-call": "told the user something that contradicts the call it made",
    "empty-reply": "answered with an empty reply",
}
"""Detector ids (the failure labels) and their descriptions, worded the same every time."""

_PROPOSAL = re.compile(
    r"\b(?:shall i|should i|(?:do you )?want me to|would you like me to|go ahead|proceed|"
    r"yes/no|yes or no|confirm|say yes|when you're ready)\b",
    re.IGNORECASE,
)
"""A reply that asks the user to approve a change; "just say yes when you're ready" keeps one
the user put on hold open."""
_OFFER = re.compile(
    r"^\W*(?:i can|i could|we can|i'd be happy to|would you like|do you want|if you like)\b",
    re.IGNORECASE,
)
"""How a reply's next proposal begins, after what it reports as done."""
_NEGATION = re.compile(
    r"\b(?:not|never|nothing|none|no\s+changes?|unable|cannot|can't|couldn't|won't|wasn't|isn't|"
    r"hasn't|haven't|didn't|failed|yet|if|once|before|would|could|can|will\s+be\s+able)\b|n't\b",
    re.IGNORECASE,
)
_HISTORY = re.compile(
    r"\b(?:\d+|a|an|one|two|three|four|five|six)\s+(?:days?|weeks?|months?|years?)\s+ago\b"
    r"|\byesterday\b|\blast\s+(?:week|month|year)\b"
    r"|\b(?:in|within|over)\s+the\s+(?:last|past)\s+(?:\d+\s+|few\s+|two\s+|three\s+)?"
    r"(?:days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
"""When a change happened before the chat: a record's history, not a change claimed now."""
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_MONEY_SUBJECT = re.compile(
    r"\b(?:fee|charge|surcharge|cost|amount|difference|supplement)\b|[€$£]\s?\d", re.IGNORECASE
)
_PARTY = re.compile(r"\b(?:you|your|yours|i|i'?ve|i'?ll|we|we'?ve|our|it|its)\b", re.IGNORECASE)
"""Words that make a sentence about this conversation's parties or its record."""
_HAS_ADJECTIVE = re.compile(r"(?:has|had)\s+(?!been\b)\w+$", re.IGNORECASE)
"""A `has` + participle claim frame without "been": "has extended cover" may be a possession."""
_NOUN = re.compile(
    r"\s+(?!(?:the|an?|your|his|her|their|its?|them|this|that|these|those|my|our|by|to|for"
    r"|from|on|at|in|into|with|and|or|now|today|already|successfully|until|till|as|so|but)\b)"
    r"(?![a-z]+ly\b)[a-z]+\b"
)
"""A bare lower-case noun right after the participle ("extended cover", "reserved seating"):
the participle describes it. An object after a determiner ("extended your stay"), a preposition
("moved to Friday"), an id or a name keeps the claim."""
_USERS_OWN = re.compile(
    r"\byou(?:'ve|\s+have|\s+had)?\s+(?:already\s+|just\s+)?(?!been\b)[a-z]+$", re.IGNORECASE
)
"""An active verb whose subject is the user ("You've paid £740.00"): what the user did, before
this chat or in it, not a change the agent claims ("you have been refunded" is one)."""
_SOMEONE_ELSE = re.compile(
    r"\b(?:by|for|to) (?:another|someone else|somebody else|a different|other)\b", re.IGNORECASE
)


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One user message, the agent's tool calls while answering it, and its reply."""

    message: StoredEvent | None
    calls: tuple[StoredEvent, ...]
    reply: StoredEvent | None
    text: str | None = None
    """The reply's text when it is not stored (one sentence of a reply, checked alone)."""

    @property
    def reply_text(self) -> str:
        """The reply's text ('' without a reply)."""
        if self.text is not None:
            return self.text
        event = self.reply.event if self.reply is not None else None
        return event.text if isinstance(event, AgentReply) else ""


def agent_turns(events: Sequence[StoredEvent]) -> list[Turn]:
    """Split an episode's events into turns: message, the calls after it, the reply."""
    turns: list[Turn] = []
    message: StoredEvent | None = None
    calls: list[StoredEvent] = []
    for stored in events:
        event = stored.event
        if isinstance(event, UserMessage):
            message, calls = stored, []
        elif isinstance(event, ToolCall):
            calls.append(stored)
        elif isinstance(event, AgentReply):
            turns.append(Turn(message=message, calls=tuple(calls), reply=stored))
            message, calls = None, []
    return turns


def is_write_tool(name: str, write_tools: Sequence[str] | None) -> bool:
    """Whether a tool changes state by a product's list, or by its name (no evidence)."""
    if write_tools is not None:
        return name in write_tools
    return is_write_name(name)


def detect_claims(
    view: EpisodeView,
    *,
    write_tools: Sequence[str] | None = None,
    tool_names: Sequence[str] = (),
    writes: WriteTools | None = None,
    today: date | None = None,
) -> list[Failure]:
    """Run the say-versus-do detectors over one episode.

    `writes`: what changes the state as observed over the whole run; default: learnt from this
    episode (and `write_tools`, a product's list, when given). `today`: the environment's day,
    against which "tomorrow" and "next Thursday" in a reply are read.
    """
    if writes is None:
        writes = WriteTools.from_events((s.event for s in view.events), listed=write_tools)
    named = [t for t in tool_names if writes.tool(t)] or _called_writes(view, writes)
    context = _Context(
        turns=agent_turns(view.events),
        writes_of=writes,
        claim_cues=claim_cues(named),
        tool_verbs=frozenset(v for t in named for v in verbs_of(t)),
        today=today,
    )
    return detector_failures(view, "claims", _DETECTORS, CLAIM_DETECTORS, context)


@dataclass(frozen=True, kw_only=True)
class _Context:
    turns: list[Turn]
    writes_of: WriteTools
    claim_cues: tuple[re.Pattern[str], ...]
    """The generic cues first (`len(GENERIC_CLAIMS)` of them), then the verb frames."""
    tool_verbs: frozenset[str] = frozenset()
    """The verbs the write tools are named after ("cancelled" for `cancel_order`)."""
    today: date | None = None
    """The environment's day, if its clock was recorded: relative dates are read against it."""
    read_by_turn: dict[int, tuple[Turn, list[_Read]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """`reads` by turn: two detectors walk the same turns."""

    def backs(self, verb: str, tool: str) -> bool:
        """Whether a change made by `tool` backs a claim worded with `verb` ("" = generic)."""
        if is_identity_tool(tool):
            return verb in verbs_of(tool)  # recording who the user is backs "verified" only
        if not verb or verb in verbs_of(tool):
            return True
        return verb not in self.tool_verbs

    def writes(self, turn: Turn) -> list[StoredEvent]:
        """The turn's calls that set out to change the state (failed ones included)."""
        return [
            c for c in turn.calls
            if isinstance(c.event, ToolCall) and self.writes_of.attempted(c.event)
        ]  # fmt: skip

    def actions(self, turn: Turn) -> list[StoredEvent]:
        """The turn's successful writes that act on a request (an identity check does not)."""
        return [
            w for w in self.writes(turn)
            if isinstance(w.event, ToolCall) and not w.event.error
            and not is_identity_tool(w.event.name)
        ]  # fmt: skip

    def claims(self, turn: Turn, reads: Sequence[_Read], *, at_stake: bool = True) -> bool:
        """Whether the reply reports a change as carried out (not a status it read)."""
        return bool(self.claimed_verbs(turn, reads, at_stake=at_stake))

    def reported_part(self, turn: Turn) -> str:
        """The part of a reply that reports what was done, without the next proposal in it.

        Question sentences go, and so do the sentences leading up to a proposal that claim no
        change themselves (`_leads_in`: "First class costs 32.00 more. Shall I upgrade you?");
        an offer ("I can switch it to delivery...") ends the report.
        """
        sentences = [s for s in _SENTENCES.split(turn.reply_text) if s.strip()]
        claiming = [self.claims(_sentence_turn(s), ()) for s in sentences]
        kept = []
        for index, sentence in enumerate(sentences):
            if _OFFER.search(sentence) and not claiming[index]:
                break  # the next proposal starts: "I can switch it to delivery, ..."
            if sentence.rstrip().endswith("?") or OPENING_HOURS.search(sentence):
                continue  # opening hours bound the next choice; they report nothing done
            if not claiming[index] and _leads_in(sentences, claiming, index):
                continue
            kept.append(sentence)
        return " ".join(kept)

    def claimed_verbs(
        self, turn: Turn, reads: Sequence[_Read], *, at_stake: bool = True
    ) -> list[str]:
        """The verbs with which the reply reports changes as carried out ("" for "done").

        Generic cues ("done", "all set") count only when a change was `at_stake`.
        """
        cues = self.claim_cues if at_stake else self.claim_cues[len(GENERIC_CLAIMS) :]
        verbs: list[str] = []
        proposing = _PROPOSAL.search(turn.reply_text) is not None
        for sentence in _SENTENCES.split(turn.reply_text):
            if sentence.rstrip().endswith("?") or _SOMEONE_ELSE.search(sentence):
                continue  # "was just booked by another patient": it is no longer available
            if proposing and not _PARTY.search(sentence) and not text_ids(sentence):
                # Beside a proposal, a sentence naming neither the user, the agent nor a record
                # states a rule: "lessons already booked stay with the instructor they were
                # booked with. Shall I go ahead?"
                continue
            for number, cue in enumerate(cues):
                for match in cue.finditer(sentence):
                    if _NEGATION.search(sentence[: match.start()]):
                        continue
                    if _USERS_OWN.search(sentence[: match.end()]):
                        continue
                    if _HAS_ADJECTIVE.match(match.group(0)) and _NOUN.match(sentence, match.end()):
                        continue  # "your move has extended cover": what it has, not a change
                    if _HISTORY.search(sentence, match.end()) or _dated_before(
                        sentence[match.end() :], self.today
                    ):
                        continue  # "was issued on 30 November, 42 days ago": before this chat
                    verb = re.findall(r"[A-Za-z]+", match.group(0))[-1].lower()
                    if not _status_read(sentence, verb, reads):
                        generic = at_stake and number < len(GENERIC_CLAIMS)
                        # "The fee of €30.00 has been added": money booked with a change,
                        # whatever tool made it, not an `add_*` of its own.
                        money = _MONEY_SUBJECT.search(sentence[: match.start()]) is not None
                        generic = generic or money
                        verbs.append("" if generic or verb in GENERIC_VERBS else verb)
        return verbs

    def reads(self, turn: Turn) -> list[_Read]:
        """What the turn's successful read calls returned, as ids and words."""
        kept = self.read_by_turn.get(id(turn))
        if kept is None or kept[0] is not turn:
            kept = self.read_by_turn[id(turn)] = (turn, self._reads(turn))
        return kept[1]

    def reads_up_to(self, index: int) -> list[_Read]:
        """What the read calls of turns 0..`index` returned (looked up once a reply claims)."""
        return [r for turn in self.turns[: index + 1] for r in self.reads(turn)]

    def _reads(self, turn: Turn) -> list[_Read]:
        found = []
        for stored in turn.calls:
            event = stored.event
            if not isinstance(event, ToolCall) or event.error is not None:
                continue
            if self.writes_of.attempted(event):
                continue
            texts = list(iter_strings(event.result))
            words = {w.lower() for t in texts if len(t) < 40 for w in re.findall(r"[A-Za-z]+", t)}
            ids = {i.upper() for t in texts for i in text_ids(t)}
            found.append(_Read(ids=frozenset(ids), words=frozenset(words)))
        return found


@dataclass(frozen=True, kw_only=True)
class _Read:
    """A read call's result, as the ids and the short words (statuses) it holds."""

    ids: frozenset[str]
    words: frozenset[str]


def _dated_before(after: str, today: date | None) -> bool:
    """Whether a change is dated, right after its verb, to a day before today.

    "the certificate was issued on Tuesday 29 December 2026", read out on 11 January 2027, is
    the record's history. Only a date said with its year, or with a weekday that fits one year
    around today, counts: without either, which year is meant is a guess.
    """
    if today is None:
        return False
    mention = next(iter(find_dates(after[:48], None)), None)
    if mention is None or len(mention.days) != 1:
        return False
    when = pinned_day(mention.surface, next(iter(mention.days)), today)
    return when is not None and when < today


def _status_read(sentence: str, word: str, reads: Sequence[_Read]) -> bool:
    """Whether `word` reports a status the agent read ("W1005 was cancelled on March 3")."""
    named = {i.upper() for i in text_ids(sentence)}
    return any(word in r.words and (not named or named & r.ids) for r in reads)


def _leads_in(sentences: Sequence[str], claiming: Sequence[bool], index: int) -> bool:
    """Whether a sentence that claims nothing belongs to a proposal asked after it.

    The sentence just before "Shall I ...?" does; so does every sentence between the report's
    last claim and that question ("Done — BLK-40523 is booked. To set up garden waste until 31
    March 2027: £52.00. The fee is the same whenever you join. Shall I set it up?"), and one
    that opens with what the change is for ("To book ..."), wherever it stands.
    """
    ask = next(
        (i for i in range(index + 1, len(sentences))
         if sentences[i].rstrip().endswith("?")), None
    )  # fmt: skip
    if ask is None or not _PROPOSAL.search(sentences[ask]):
        return False
    return ask == index + 1 or any(claiming[:index]) or PURPOSE.match(sentences[index]) is not None


def _sentence_turn(sentence: str) -> Turn:
    return Turn(message=None, calls=(), reply=None, text=sentence)


def _called_writes(view: EpisodeView, writes: WriteTools) -> list[str]:
    return sorted(
        {s.event.name for s in view.events
         if isinstance(s.event, ToolCall) and writes.tool(s.event.name)}
    )  # fmt: skip


def _claimed_without_action(ctx: _Context) -> list[int]:
    evidence: list[int] = []
    unreported: list[str] = []  # tools whose changes no reply has reported yet
    made: list[ToolCall] = []  # every successful change so far, reported or not
    proposed = False  # the agent's previous reply proposed a change for the user to approve
    for index, turn in enumerate(ctx.turns):
        writes = ctx.writes(turn)
        done = [w.event for w in writes if isinstance(w.event, ToolCall) and not w.event.error]
        failed = len(writes) > len(done)
        unreported += [call.name for call in done] + _already_so(ctx, turn)
        made += done
        at_stake = proposed or bool(writes)
        verbs = ctx.claimed_verbs(turn, (), at_stake=at_stake) if turn.reply else []
        if verbs:  # a status read out is no claim: the reads so far may take verbs away
            verbs = ctx.claimed_verbs(turn, ctx.reads_up_to(index), at_stake=at_stake)
        if turn.reply is not None and verbs and not failed:
            backed = all(any(ctx.backs(v, tool) for tool in unreported) for v in set(verbs))
            if not backed and not _restates(ctx, turn.reply_text, set(verbs), made):
                evidence.append(turn.reply.id)
            unreported = []
        proposed = bool(_PROPOSAL.search(turn.reply_text))
    return evidence


def _already_so(ctx: _Context, turn: Turn) -> list[str]:
    """Write tools the turn called with success that changed nothing: it was already so.

    The email asked for was already the one on the account: `update_contacts` succeeded and
    changed nothing, and "Done — your email is ..." is backed by that call. Only a tool the run
    saw changing the state elsewhere counts (not a read that never writes).
    """
    return [
        c.event.name
        for c in turn.calls
        if isinstance(c.event, ToolCall) and c.event.error is None and c.event.changes == []
        and c.event.name in ctx.writes_of.changed and not is_identity_tool(c.event.name)
    ]  # fmt: skip


def _restates(ctx: _Context, text: str, verbs: set[str], made: list[ToolCall]) -> bool:
    """Whether a reply tells again of changes made earlier, naming the records they changed.

    "RL-20688 was your old card: it has been cancelled and replaced by RL-30009", said when the
    user asks again after the replacement was reported, is a true account; a claim naming no
    record of an earlier change ("Renewed!" after no renewal) is not.
    """
    said = {i.upper() for i in text_ids(text)}
    if not said:
        return False
    ids_of = [
        {i.upper() for s in iter_strings(call.args) for i in text_ids(s)}
        | {i.upper() for s in iter_strings(call.result) for i in text_ids(s)}
        for call in made
    ]
    pairs = list(zip(made, ids_of, strict=True))
    return all(any(ctx.backs(v, call.name) and said & ids for call, ids in pairs) for v in verbs)


def _claimed_after_failure(ctx: _Context) -> list[int]:
    evidence: list[int] = []
    for index, turn in enumerate(ctx.turns):
        writes = ctx.writes(turn)
        last = writes[-1] if writes else None
        if (
            last is not None
            and isinstance(last.event, ToolCall)
            and last.event.error is not None
            and turn.reply is not None
            and (
                ctx.claims(turn, ctx.reads_up_to(index))
                or _states_done(turn.reply_text, last.event.name)
            )
        ):
            evidence.extend([last.id, turn.reply.id])
    return evidence


def _states_done(reply: str, failed_tool: str) -> bool:
    """Whether the reply states the failed call's change as the user's state now.

    "You're booked on Spin on Saturday" describes a state, which is no claim in general; right
    after `book_class` failed, it reports that very booking as made.
    """
    verbs = "|".join(re.escape(v) for v in sorted(verbs_of(failed_tool)))
    stated = re.compile(
        rf"\b(?:you're|you are|you've been|it's|it is|that's|that is)\s+(?:now\s+|all\s+)?"
        rf"(?:{verbs})\b",
        re.IGNORECASE,
    )
    return any(
        stated.search(sentence) and not _NEGATION.search(sentence)
        for sentence in _SENTENCES.split(reply)
        if not sentence.rstrip().endswith("?")
    )


def _empty_reply(ctx: _Context) -> list[int]:
    return [t.reply.id for t in ctx.turns if t.reply is not None and not t.reply_text.strip()]


_DETECTORS: dict[str, Callable[[_Context], list[int]]] = {
    "claimed-without-action": _claimed_without_action,
    "claimed-after-failure": _claimed_after_failure,
    "contradicts-call": contradicts_call,
    "empty-reply": _empty_reply,
}
