"""`contradicts-call`'s reading of values: what a reply or a proposal states against the calls.

Split from `metrics/_claims.py` (the say-versus-do detectors), whose `contradicts-call` walks the
turns and asks these whether the values a reply reports, or a proposal the user said yes to,
contradict the calls' arguments and results.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from datetime import date
from itertools import combinations
from typing import TYPE_CHECKING

from vistasim.dates import find_dates
from vistasim.events import AgentReply, ToolCall, UserMessage
from vistasim.metrics._bounds import BOUND_WORDS
from vistasim.metrics._named_amounts import misnamed_amount
from vistasim.metrics._reread import read_after, summarised
from vistasim.store import StoredEvent
from vistasim.values import (
    NUMERIC_DATE,
    id_shape,
    iter_strings,
    json_values,
    measure_of,
    numeric_days,
    text_ids,
    text_values,
    with_equivalents,
)

if TYPE_CHECKING:
    from vistasim.metrics._claims import _Context

__all__ = ["breaks_proposal", "contradicts_call", "wrong_ids", "wrong_values"]


def breaks_proposal(
    text: str,
    writes: list[StoredEvent],
    known: set[tuple[str, str]],
    asked: AbstractSet[tuple[str, str]] = frozenset(),
    today: date | None = None,
) -> bool:
    """Whether a proposal stated values of a kind the calls carry, none of them the calls'.

    One stated value must also be read nowhere before (an order total it read is context), or
    be one the user asked for (then it is the request, and a call without it is another one).
    """
    carried = _carried(writes, record_dates=False)
    known = with_equivalents(set(known))  # read as "32 days", said as such or in weeks
    stated = _read_once(text, carried | known, today)
    for family in {measure_of(kind) for kind, _ in _stated_kinds(carried)}:
        said = {v for v in stated if measure_of(v[0]) == family}
        if said and not said & carried and (said - known or said & asked):
            return True
    return False


_RECORD_DATE_KEY = re.compile(
    r"valid|expir|created|issued|updated|modified|timestamp|(?:cancelled|returned|paid)_at"
    r"|deadline|_by$",
    re.IGNORECASE,
)
"""Fields dating the record a change made (a voucher's `valid_until`), or a deadline it sets
the user (`evidence_by`), not the change itself."""


def _carried(writes: list[StoredEvent], *, record_dates: bool = True) -> set[tuple[str, str]]:
    """The values the calls carry, with the size of each negative sum as a value too.

    A result's `price_difference: "-£12.00"` is told as "a refund of £12.00". Without
    `record_dates`, the dates of fields that date the record a change made are left out: a
    voucher "valid until 31 December 2027" is no other day for the performance it refunds.
    """
    carried: set[tuple[str, str]] = set()
    for stored in writes:
        assert isinstance(stored.event, ToolCall)
        result = stored.event.result
        if not record_dates and isinstance(result, dict):
            result = {k: v for k, v in result.items() if not _RECORD_DATE_KEY.search(k)}
        carried |= json_values(stored.event.args) | json_values(result)
    carried |= {(k, v[1:]) for k, v in carried if k == "money" and v.startswith("-")}
    return with_equivalents(carried)


def _stated_kinds(carried: AbstractSet[tuple[str, str]]) -> set[tuple[str, str]]:
    """The calls' values a reply could state.

    `remaining_months: 0` is no length it would say ("one month's notice" is the rule, not a
    contradiction of it), and `late_fee: "£0.00"` no amount: the reply's figures are of other
    things (the balance it goes on to read out).
    """
    return {
        (k, v)
        for k, v in carried
        if not ((k.startswith("quantity") or k == "money") and float(v) == 0)
    }


def _read_once(
    text: str, known: AbstractSet[tuple[str, str]], today: date | None = None
) -> set[tuple[str, str]]:
    """The text's values, a date that may mean several days read the way that matches.

    "02/11/1969" is 2 November or 11 February, "next Thursday" this week's or next week's: when
    one reading is what the calls carry, the others are not further dates the reply states.
    With no reading known, every reading stays (and none agreeing with the call is the point).
    """
    text = _as_stated(text)
    stated = text_values(text)
    groups = [{("date", d) for d in numeric_days(m)} for m in NUMERIC_DATE.finditer(text)]
    if today is not None:
        groups += [{("date", d) for d in m.days} for m in find_dates(text, today) if m.relative]
    for readings in groups:
        stated |= readings
        if readings & known:
            stated -= readings - known
    return with_equivalents(stated)  # "a one-hour lesson" for a call of 60 minutes


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_BOUND = re.compile(
    rf"\b{BOUND_WORDS}\s+(?:the\s+)?[£$€]?\d[\d,.]*(?:\s*-?\s*[a-z]+)?", re.IGNORECASE
)
"""A bound ("more than 24 hours away", "within 30 days"): the rule's figure, not the change's."""
_SHARE = re.compile(r"\b\d+\s+(?:out\s+)?of\s+(?:the\s+)?\d+\s+[a-z]+", re.IGNORECASE)
"""A share ("23 of 31 days" of a pro-rata price): the whole is no quantity of the change."""
_DATED_WEEKDAY = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?=(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?"
    rf"\s+(?:of\s+)?{_MONTH}\b|{_MONTH}\s+\d)",
    re.IGNORECASE,
)
"""The weekday of a date said with it ("Friday 1 January 2027"): the date says the day."""


_WINDOW_END = re.compile(
    r"(\b\d{1,2}(?:[:.]\d{2}\s*(?:am|pm)?|\s*(?:am|pm)))\s*(?:–|—|-|to|until|till)\s*"
    r"\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?\b"
    r"(?=\s*(?:[,.;:)]|$|\s(?:and|on|at|for|is|with|to|from|until)\b))",
    re.IGNORECASE,
)
"""A time window ("18:00–20:00"): a slot is booked by its start, its end is the start's."""
_NAMED_LENGTH = re.compile(r"\b\d+-(?:hour|day|week|month|year|minute)\b", re.IGNORECASE)
"""A length that names a product or a rule ("24-hour turnaround", "48-hour rule")."""


_QUOTED = re.compile(r'"[^"]{1,500}"|“[^”]{1,500}”')
"""Words quoted back ('a complaint: "the electrician who never turned up last Thursday"'): of
four words or more, what the user said, no value the agent states for the change."""


def _unquoted(text: str) -> str:
    return _QUOTED.sub(lambda m: " " if len(m.group(0).split()) >= 4 else m.group(0), text)


def _as_stated(text: str) -> str:
    """The text without the figures that state no value of the change (see the patterns)."""
    text = _NAMED_LENGTH.sub(" ", _WINDOW_END.sub(r"\1", _unquoted(text)))
    return _DATED_WEEKDAY.sub("", _SHARE.sub(" ", _BOUND.sub(" ", text)))


def wrong_values(
    text: str,
    writes: list[StoredEvent],
    known: set[tuple[str, str]],
    today: date | None = None,
    reread: AbstractSet[tuple[str, str]] = frozenset(),
) -> bool:
    """Whether the reply states values of a kind the calls carry that contradict them.

    Values `reread` after the write (the record as it now is) are left out: a summary of it.

    Per measure ("2 hours" against a call of 2 days is one, a span of time; "9.4 m" another,
    `values.measure_of`): when none of the stated values is the calls' own, the reply
    contradicts them, even with values the agent read
    elsewhere (it says "the 11:30" it quoted, and booked the 10:30); when one is, the others must
    be values it read (the old time it moved from) or sums of amounts it read.
    """
    carried = _carried(writes)
    known = with_equivalents(set(known))
    # A refund of two items is the sum of their prices; a sum that needs the call's own amount
    # ("£46.00" = the £41.40 refunded + the £4.60 discount) is no such account.
    money = sorted(float(v) for k, v in known - carried if k == "money")
    # A value read back after the write, in a clause that names none of the write's fields, is
    # the record as it now is ("cover runs from 2 May to 1 May" after a claim is opened on the
    # policy), not a value said for the write ("your refund is €45.00" still is).
    stated = _read_once(text, carried | known, today) - (summarised(text, writes, reread) - carried)
    for family in {measure_of(kind) for kind, _ in _stated_kinds(carried)}:
        said = {v for v in stated if measure_of(v[0]) == family}
        if not said:
            continue
        if not said & carried:
            return not all(k == "money" and _is_sum(float(v), money) for k, v in said)
        for kind, value in said - carried - known:
            if not (kind == "money" and _is_sum(float(value), money)):
                return True
    return False


def _is_sum(target: float, parts: list[float]) -> bool:
    # A refund of two items is the sum of their prices: sums of two or three distinct known
    # amounts (never one amount twice: an old limit of 1,000 does not make 2,000 true).
    distinct = sorted({p for p in parts if p > 0 and round(p, 2) != round(target, 2)})
    sizes = (2, 3) if len(distinct) <= 40 else (2,)  # bounded work on long statements
    return any(
        round(sum(combo), 2) == round(target, 2)
        for size in sizes
        for combo in combinations(distinct, size)
    )


def wrong_ids(reply: str, writes: list[StoredEvent]) -> bool:
    """Whether the reply names a foreign id of the reported call's kind, and not the call's own.

    Foreign: neither an argument nor in the result ("cancelled W1011" after `cancel(W1010)`).
    """
    said = {i.upper() for i in text_ids(reply)}
    for stored in writes:
        assert isinstance(stored.event, ToolCall)
        own = {s.upper() for s in iter_strings(stored.event.args) if text_ids(s) == {s}}
        given = {i.upper() for s in iter_strings(stored.event.result) for i in text_ids(s)}
        for shape in {id_shape(i) for i in own}:
            mine = {i for i in own if id_shape(i) == shape}
            foreign = {i for i in said if id_shape(i) == shape} - mine - given
            if foreign and not said & mine:
                return True
    return False


def contradicts_call(ctx: _Context) -> list[int]:
    """Detect `contradicts-call` over the turns `_claims.py` gathered.

    A change that breaks the proposal the user approved, or a report of it that states other
    values than the calls carried.
    """
    if not any(ctx.actions(turn) for turn in ctx.turns):
        return []  # only a change is checked: with none, gathering what calls said is for nothing
    evidence: list[int] = []
    known: set[tuple[str, str]] = set()
    asked: set[tuple[str, str]] = set()  # what the user said: dates, amounts it asked for
    proposal: StoredEvent | None = None
    questioned = False  # the agent's previous reply asked the user something
    for turn in ctx.turns:
        writes = ctx.actions(turn)
        if turn.message is not None and isinstance(turn.message.event, UserMessage):
            asked |= text_values(turn.message.event.text)
        if (
            writes
            and proposal is not None
            and breaks_proposal(_text(proposal), writes, known, asked, ctx.today)
        ):
            evidence.extend([proposal.id, *(w.id for w in writes)])
        for stored in turn.calls:
            if isinstance(stored.event, ToolCall):
                known |= json_values(stored.event.args) | json_values(stored.event.result)
        # After an answer to its question, the reply to the change reports it, whatever its
        # words ("You're booked on Yoga at 19:00" after "...cancelled. Shall I book it?").
        reports = writes and (ctx.claims(turn, ()) or questioned)
        claimed = ctx.reported_part(turn) if reports else ""
        if claimed and turn.reply is not None:
            # Only what the reply reports as done is checked: a next proposal in the same reply
            # ("Done. First class costs 32.00 more: shall I?") states values of its own.
            reread = read_after(turn.calls, writes)
            wrong = (
                wrong_values(claimed, writes, known, ctx.today, reread)
                or wrong_ids(turn.reply_text, writes)
                or misnamed_amount(claimed, writes)
            )
            if wrong:
                evidence.extend([*(w.id for w in writes), turn.reply.id])
        questioned = turn.reply is not None and "?" in turn.reply_text
        proposal = turn.reply if questioned and not writes else None
    return evidence


def _text(stored: StoredEvent) -> str:
    return stored.event.text if isinstance(stored.event, AgentReply) else ""
