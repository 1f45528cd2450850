"""Figures the agent reads out of a record, checked against the record its own call returned.

- `misquoted-result`: the reply names a record (an id a call returned, "CS201-A") and gives a
  figure for one of its fields in the field's own words ("has 12 seats left" for `seats_left`)
  that differs from what the latest call returned for that record (`seats_left: 0`): it read out
  another field, or a stale or made-up value.

Only fields named by two words or more are read (`seats_left`, `refills_left`,
`final_bill_estimate`): one word ("credits", "price") is said of too many things. The field's
words must stand around the figure, in any order and form (six words before it, three after:
"12 seats left", "your estimated final bill is £57.58"). The record is the one the sentence
names last before the figure; a sentence that names none speaks of the latest call's result,
when just one of its records has that field. A figure that a record named earlier in the
sentence holds for that field is no misquote, and a sentence about what would be ("the new
total would be €420") reads nothing out. Nor do a rule's bounds and ranges ("at least 2 weeks",
"7 to 27 days before arrival"), an amount added ("To add 2 child seats"), or a price said for
a field that holds no money ("meet-and-greet £12.00" beside `meet_greet: 0`).

Dates are read the same way: "expected delivery is 2026-03-15" for a shipment whose
`eta` is 2026-03-18 (its `last_update` is the 15th). A few field abbreviations are spelt out
(`eta`: expected or estimated arrival or delivery; `dob`: date of birth).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping

from vistasim.dates import find_dates
from vistasim.events import AgentReply, ToolCall
from vistasim.metrics._bounds import BOUND_WORDS
from vistasim.metrics._claim_verbs import PURPOSE
from vistasim.metrics._failures import Failure, detector_failures
from vistasim.store import EpisodeView, StoredEvent
from vistasim.values import iter_strings, money_amount, text_ids

__all__ = ["QUOTE_DETECTORS", "detect_quotes"]

QUOTE_DETECTORS: dict[str, str] = {
    "misquoted-result": "told the user a figure its own lookup contradicts",
}
"""Detector ids and their descriptions, worded the same every time."""

_SENTENCES = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<=[.!?;])\s+|\n+"
)  # "Dr. Jansen" ends no sentence
_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"  # "4,800.00", "12.5", "12,5"
_TOKEN = re.compile(r"[\w-]+")
_HYPOTHETICAL = re.compile(r"\b(?:would|will|new|if|once|could)\b|'ll\b", re.IGNORECASE)
_Record = dict[str, float]


def detect_quotes(view: EpisodeView) -> list[Failure]:
    """Run the quote detectors over one episode."""
    return detector_failures(view, "claims", _DETECTORS, QUOTE_DETECTORS, view.events)


def _misquoted(events: tuple[StoredEvent, ...]) -> list[int]:
    return _misquoted_figures(events) + _misdated(events)


_ABBREVIATIONS = {
    "eta": ("expected", "estimated", "arrival", "arrive", "delivery", "deliver"),
    "etd": ("expected", "estimated", "departure", "depart"),
    "dob": ("date", "birth", "born"),
}
"""Field names that are abbreviations, and the words people use for them."""


def _misdated(events: tuple[StoredEvent, ...]) -> list[int]:
    """Dates read out for a record or field of the latest call's result that say another day."""
    # A reply is only read once a successful call returned a record with a date field; without
    # one, the days every call returned (`seen`, `named`) would be parsed for nothing.
    if not any(
        isinstance(s.event, ToolCall) and s.event.error is None and _has_date_record(s.event)
        for s in events
    ):
        return []
    evidence: list[int] = []
    latest: list[tuple[dict[str, str], int]] = []  # date fields (field -> MM-DD) per record
    named: dict[str, tuple[set[str], int]] = {}  # record id -> every day any call gave it
    seen: set[str] = set()  # every day any call returned, in a result or an error
    for stored in events:
        event = stored.event
        if isinstance(event, ToolCall):
            seen |= {d for text in iter_strings([event.result, event.error])
                     for m in find_dates(text, None) for d in m.days}  # fmt: skip
        if isinstance(event, ToolCall) and event.error is None:
            found = list(_date_records(event.result))
            if found:
                latest = [(fields, stored.id) for fields in found]
            for ids, days in _dated_records(event.result):
                for record_id in ids:
                    named.setdefault(record_id, (set(), stored.id))[0].update(days)
        elif isinstance(event, AgentReply) and latest:
            # A proposal that waits for a yes ("Cancelling RP-5107 from Friday 11 December
            # refunds £17.39. Shall I cancel it?") says the day of a change to come: the call
            # that makes it is checked against it (contradicts-call), no record holds it yet.
            proposing = _ASKS_YES.search(event.text) is not None
            for sentence in _SENTENCES.split(event.text):
                if _HYPOTHETICAL.search(sentence) or _OFFER.search(sentence):
                    continue
                mentions = find_dates(sentence, None)
                for mention in mentions:
                    call_id = _wrong_day(sentence, mention.start, mention.days, latest)
                    if (
                        call_id is None
                        and not proposing
                        and len(mentions) == 1
                        and not mention.days & seen
                    ):
                        # One date for a record the sentence names ("your HIST110 final is
                        # on ..."), a day no call returned; with two, one may be the old one.
                        call_id = _wrong_record_day(sentence, mention.days, named)
                    if call_id is not None:
                        evidence += [call_id, stored.id]
    return evidence


def _wrong_record_day(
    sentence: str, days: frozenset[str], named: dict[str, tuple[set[str], int]]
) -> int | None:
    """The call of a record the sentence names, when no call gave any record it names that day."""
    tokens = {t.casefold() for t in _TOKEN.findall(sentence)}
    spoken = [named[t] for t in tokens if t in named]
    if not spoken or any(record_days & days for record_days, _ in spoken):
        return None
    return spoken[0][1]


_ASKS_YES = re.compile(
    r"\b(?:shall|should|can|may) (?:i|we) (?!help)[^.!?]*\?"
    r"|\b(?:do|would) you (?:like|want) me to\b|\bgo ahead\?|\(yes/no\)",
    re.IGNORECASE,
)
"""A question that asks for a yes to a change."""
_OFFER = re.compile(r"\b(?:i|we) can\b|\bcan i\b", re.IGNORECASE)
"""An offer ("I can switch it to delivery, arriving Friday"): what would be, not what is."""


def _dated_records(value: object) -> Iterator[tuple[frozenset[str], frozenset[str]]]:
    """Every dict with ids and dates (its nested ones too), as (its ids, its days)."""
    if isinstance(value, list):
        for item in value:
            yield from _dated_records(item)
        return
    if not isinstance(value, dict):
        return
    ids = frozenset(
        v.casefold() for v in value.values() if isinstance(v, str) and text_ids(v) == {v}
    )
    days = frozenset(d for fields in _date_records(value) for d in fields.values())
    if ids and days:
        yield ids, days
    for nested in value.values():
        if isinstance(nested, dict | list):
            yield from _dated_records(nested)


def _wrong_day(
    sentence: str, at: int, days: frozenset[str], latest: list[tuple[dict[str, str], int]]
) -> int | None:
    near = _near_words(sentence, at)
    owners = [
        (field, fields, call_id)
        for fields, call_id in latest
        for field in fields
        if _named_near(field, near)
    ]
    if len(owners) != 1:
        return None  # no field, or several, spoken of: nothing to hold the date to
    field, fields, call_id = owners[0]
    return None if fields[field] in days else call_id


def _named_near(field: str, near: set[str]) -> bool:
    spelt = _ABBREVIATIONS.get(field)
    if spelt is not None:
        return len({_stem(w) for w in spelt} & near) >= 2
    wanted = {_stem(w) for w in field.split("_") if w not in _UNIT_WORDS | _NOT_A_NAME}
    return len(wanted) >= 2 and wanted <= near


_NOT_A_NAME = frozenset({"date", "on", "at", "by", "in", "of", "to", "from", "until"})
"""Words of a field's name that name nothing by themselves: "booked ... at 11:30" is said of a
booking's day and time, not of its `booked_at` timestamp."""


def _near_words(sentence: str, at: int) -> set[str]:
    """The words of the five before a position and three after it (in its clause), stemmed.

    A length ("48 days ago", "within 30 days") is no word of a field's name: its "days" is
    not the `day` of `session_day`.
    """
    before = re.findall(r"[A-Za-z]+", _LENGTH.sub(" ", sentence[:at]))[-5:]
    rest = re.sub(r"^[\w\s,-]*?\d{4}", "", sentence[at:])
    rest = _NEXT_CLAUSE.split(rest, maxsplit=1)[0]  # "(renewal opens on 1 June)": its own day
    after = re.findall(r"[A-Za-z]+", _LENGTH.sub(" ", rest))[:3]
    return {_stem(w) for w in [*before, *after]}


_NEXT_CLAUSE = re.compile(r"[(\[;—–]|,\s*(?:and|but|while|whereas|so)\b", re.IGNORECASE)
"""Where the words after a date start to speak of another thing: a bracket, a new clause."""
_LENGTH = re.compile(
    r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|ten)\s+(?:working\s+)?"
    r"(?:days?|weeks?|months?|years?|hours?)\b",
    re.IGNORECASE,
)
"""A length of time ("48 days", "two weeks"): its unit names no field."""


def _date_records(value: object) -> Iterator[dict[str, str]]:
    """Every dict of a result with date fields (ISO dates), as field -> MM-DD."""
    if isinstance(value, list):
        for item in value:
            yield from _date_records(item)
        return
    if not isinstance(value, dict):
        return
    fields = {
        str(k).lower(): f"{m.group(2)}-{m.group(3)}"
        for k, v in value.items()
        if isinstance(v, str) and (m := _ISO_DAY.match(v))
    }
    if fields:
        yield fields
    for nested in value.values():
        if isinstance(nested, dict | list):
            yield from _date_records(nested)


def _has_date_record(call: ToolCall) -> bool:
    return next(_date_records(call.result), None) is not None


_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?)?$")


def _misquoted_figures(events: tuple[StoredEvent, ...]) -> list[int]:
    evidence: list[int] = []
    records: dict[str, tuple[_Record, int]] = {}  # id -> numeric fields, call event id
    latest: list[tuple[_Record, int]] = []  # the records of the latest successful call
    this_turn: dict[str, set[float]] = {}  # every value each field took since the last reply
    for stored in events:
        event = stored.event
        if isinstance(event, ToolCall) and event.error is None:
            found = list(_records(event.result))
            for record_id, fields in found:
                records[record_id.casefold()] = (fields, stored.id)
                for field, value in fields.items():
                    this_turn.setdefault(field, set()).add(value)
            if found:
                latest = [(fields, stored.id) for _, fields in found]
        elif isinstance(event, AgentReply):
            # Two drops in one go: "you now have 6 credits... now 3": each is a call's own.
            # With no record read yet (`latest` and `this_turn` are then empty too) no figure
            # has a field to be checked against, and splitting the reply would find nothing.
            if records:
                for call_id in _contradicted(event.text, records, latest, this_turn):
                    evidence += [call_id, stored.id]
            this_turn = {}
    return evidence


def _contradicted(
    text: str,
    records: Mapping[str, tuple[_Record, int]],
    latest: list[tuple[_Record, int]],
    this_turn: Mapping[str, set[float]],
) -> Iterator[int]:
    for sentence in _SENTENCES.split(text):
        if _HYPOTHETICAL.search(sentence):
            continue  # "the new total would be €420": a proposal, not a read-out of the record
        # Plain tokens, then a dictionary lookup: a pattern that must find a digit inside a
        # token backtracks for ever on a long reply without one.
        named = [
            (m.start(), m.group(0).casefold())
            for m in _TOKEN.finditer(sentence)
            if m.group(0).casefold() in records
        ]
        candidates = {f for _, rid in named for f in records[rid][0]}
        candidates |= {f for fields, _ in latest for f in fields}
        for position, field, said in _quoted_figures(sentence, candidates):
            if _proposed_value(sentence, position):
                continue
            before = [rid for start, rid in named if start < position] or [
                rid for _, rid in named[:1]
            ]
            owners = [records[rid] for rid in before[-1:]]
            if not owners:
                # No record named: the latest call's, when only one of its records has the field.
                owners = [r for r in latest if field in r[0]][:2]
                if len(owners) != 1:
                    continue
            fields, call_id = owners[0]
            if field not in fields or fields[field] == said:
                continue
            if not named and said in this_turn.get(field, set()):
                continue
            if any(records[rid][0].get(field) == said for rid in before):
                continue  # the figure is another named record's, said a little further on
            yield call_id


def _proposed_value(sentence: str, position: int) -> bool:
    """Whether a figure is the value a proposed change sets, not one read out of the record.

    "To set the dietary meals on order EV7021 (...) to 8 vegetarian and 2 gluten-free": what
    follows the proposal's "to" is the record as it will be ("10 to 29 days" is a range).
    """
    opening = PURPOSE.match(sentence)
    if opening is None:
        return False
    return _TARGET.search(sentence[opening.end() : position]) is not None


_TARGET = re.compile(r"(?<!\d\s)\bto\b[^:;()]*$", re.IGNORECASE)


def _quoted_figures(sentence: str, fields: set[str]) -> Iterator[tuple[int, str, float]]:
    """(where, field, figure) for each figure said with a field's own words around it.

    The words may come in any order and form ("estimated final bill is £57.58" for
    `final_bill_estimate`), within five words before the figure or three after it, and not
    beyond the figures beside it.
    """
    if not fields:  # nothing to quote (a reply after reads without figures): no need to look
        return
    found = list(_WORD.finditer(sentence))
    starts = [m.start() for m in found]
    words = [_stem(m.group(0)) for m in found]
    # Not the digits of an id ("fine F901"): a figure starts a token. Nor a date's day or year
    # ("...to 1 May 2027, the annual premium is £456.00": 2027 is no premium).
    dated = [(d.start, d.end) for d in find_dates(sentence, None)]
    figures = [
        m for m in _FIGURE.finditer(sentence)
        if not any(start <= m.start() < end for start, end in dated)
    ]  # fmt: skip
    told: set[str] = set()  # the fields the figure before this one was said with, after it
    for index, match in enumerate(figures):
        if (
            _BOUND_BEFORE.search(sentence, 0, match.start())
            or _BOUND_AFTER.match(sentence, match.end())
            or _range_end(sentence, match)
        ):
            continue  # "storage is for 2 weeks at least": the rule's figure, not the record's
        rate = _RATE.match(sentence, match.end())
        # The words between this figure and its neighbours only: "a lab fee of $80.00 (due in
        # 14 days)" says nothing of a fee of 14.
        low = figures[index - 1].end() if index else -1
        high = figures[index + 1].start() if index + 1 < len(figures) else len(sentence)
        before = bisect_left(starts, match.start())
        after = bisect_right(starts, match.end())
        ahead = [w for s, w in zip(starts[max(0, before - 5):before],
                                   words[max(0, before - 5):before], strict=True) if s > low]
        behind = [w for s, w in zip(starts[after:after + 3], words[after:after + 3], strict=True)
                  if s < high]  # fmt: skip
        near = set(ahead + behind)
        # A change word may follow a longer name ("4 room-credit hours added").
        changed = {w for s, w in zip(starts[after:after + 5], words[after:after + 5], strict=True)
                   if s < high} | set(ahead)  # fmt: skip
        duration = _DURATION.match(sentence, match.end())
        money = match.group(0).lstrip()[:1] in "£$€"
        said_with: set[str] = set()
        for field in fields:
            wanted = {_stem(w) for w in field.split("_") if w not in _UNIT_WORDS}
            if duration is not None and duration.group(1).lower()[:3] not in field.lower():
                continue  # "the 14-day discount": a length of time, not the discount's amount
            if len(wanted) < 2 or not wanted <= near:
                continue
            if money and not _MONEY_FIELD.search(field):
                continue  # "meet-and-greet £12.00": the extra's price, not `meet_greet: 0`
            if rate is not None and _stem(rate.group(1)) in wanted:
                continue  # "stairs are £25.00 a floor": a price per floor, not the floors
            if wanted <= set(behind):
                said_with.add(field)
            elif field in told:
                continue  # "2 credit hours returned and £60.00 refunded": the words are the 2's
            if (changed & _CHANGE_WORDS) - wanted:
                continue  # "4 room-credit hours added": what changed, not the record's figure
            yield match.start(), field, _figure(match.group(1))
        told = said_with


_WORD = re.compile(r"[A-Za-z]+")
_FIGURE = re.compile(rf"(?<![\w.])[£$€]?\s?{_NUMBER}")
"""A figure where a token starts (not the digits of an id: "fine F901")."""
_DURATION = re.compile(r"(?:-|\s)(day|week|month|year|hour|minute|night)s?\b", re.IGNORECASE)
_BOUND_BEFORE = re.compile(rf"\b{BOUND_WORDS}\s*$", re.IGNORECASE)
_BOUND_AFTER = re.compile(
    r"(?:\s*-?\s*[A-Za-z]+){0,2}?\s+(?:at (?:least|most)|minimum|maximum"
    r"|or (?:more|less|fewer))\b",
    re.IGNORECASE,
)
"""A bound a rule sets ("at least 2 weeks", "2 weeks minimum"): no figure of a record."""
_RANGE_BEFORE = re.compile(
    r"(?:(?<!from )(?<![\d.])\d+(?:\.\d+)?\s*(?:to|-|–|—)|\bbetween\s+[£$€]?\d+(?:\.\d+)?\s+and)"
    r"\s*[£$€]?$",
    re.IGNORECASE,
)
_RANGE_AFTER = re.compile(r"\s*(?:to|-|–|—|and)\s*[£$€]?\d", re.IGNORECASE)
_FROM_OR_BETWEEN = re.compile(r"\b(from|between)\s+[£$€]?$", re.IGNORECASE)


def _range_end(sentence: str, match: re.Match[str]) -> bool:
    """Whether a figure is one end of a range ("7 to 27 days", "7-27", "between 7 and 27").

    A range is a rule's band, no record's value. "from 10 to 12" is a change, not a range: its
    new value is read out (the old one is skipped like a range's first end).
    """
    if _RANGE_BEFORE.search(sentence, 0, match.start()):
        return True
    after = _RANGE_AFTER.match(sentence, match.end())
    if after is None:
        return False
    lead = _FROM_OR_BETWEEN.search(sentence, 0, match.start())
    joined_by_and = after.group(0).strip().lower().startswith("and")
    return (lead is not None and lead.group(1).lower() == "between") if joined_by_and else True


_RATE = re.compile(
    r"(?:\s*-?\s*[A-Za-z]+)?\s+(?:a|an|per|each|every)\s+([A-Za-z]+)", re.IGNORECASE
)
"""A rate ("£25.00 a floor", "£30.00 per week"): the figure is the price of one, not a count."""


_MONEY_FIELD = re.compile(
    r"pence|cents|price|fee|cost|amount|total|fare|balance|charge|refund|deposit|paid|pay"
    r"|premium|rent|excess|bill|owe|due|credit|rate|value|limit|discount|spen[dt]|fine|sum"
    r"|budget|allowance|wallet|tip|tax|vat|gbp|eur|usd",
    re.IGNORECASE,
)
"""Field names that may hold money: a figure with a currency sign is read against no other."""


def _figure(text: str) -> float:
    """Read a figure: "4,800.00" is four thousand eight hundred, "12,5" twelve and a half."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    return float(text.replace(",", "."))


_UNIT_WORDS = frozenset({"eur", "gbp", "usd", "cents", "pct"})


def _stem(word: str) -> str:
    # "estimated" and "estimate", "seats" and "seat", "hours" and "hour" are one word here.
    word = word.lower()
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:5]


_CHANGE_WORDS = frozenset(
    _stem(w) for w in ("added", "add", "adding", "returned", "refunded", "back", "more",
                       "extra", "removed", "deducted", "another")
)  # fmt: skip
"""Words that make a figure an amount of change ("4 hours added"), unless its field says so."""


def _records(value: object) -> Iterator[tuple[str, _Record]]:
    """Every dict in a result that carries an id and numeric fields of two words or more."""
    if isinstance(value, list):
        for item in value:
            yield from _records(item)
        return
    if not isinstance(value, dict):
        return
    ids = [v for v in value.values() if isinstance(v, str) and text_ids(v) == {v}]
    fields = {
        str(k).lower(): float(v) / (100 if str(k).lower().endswith(("_cents", "_pence")) else 1)
        for k, v in value.items()
        if isinstance(v, int | float) and not isinstance(v, bool) and "_" in str(k)
    }  # `lab_fee_cents: 8000` is said "$80.00"
    fields |= {  # `remaining_on_fine: "£1.75"`: an amount written out is a figure too
        str(k).lower(): amount
        for k, v in value.items()
        if isinstance(v, str) and "_" in str(k) and (amount := money_amount(v)) is not None
    }
    if ids and fields:
        for record_id in ids:
            yield record_id, fields
    for nested in value.values():
        if isinstance(nested, dict | list):
            yield from _records(nested)


_DETECTORS = {"misquoted-result": _misquoted}
