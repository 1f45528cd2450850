"""Compare an agent's proposal only with the fact it restates: same slot, same type.

A patient's date of birth and the appointment date are both dates; a phone number and an order
number may look alike. A rule-based user that checks every date an agent says against every date
it holds objects to correct proposals ("No, it should be 1969-11-02"). Here each value the agent
states is first given an owner:

- a slot the message names right next to it ("your date of birth, 3 November 1969"), or
- when no slot is named, the task: the goal's own values (its date, time, amount, duration) and
  the sub-goal's slots, never an identity fact such as a date of birth.

Only then is it compared, and only with values of its own type. A message that already restates
one of the owner's values of a type is not read as contradicting it ("08:30, held until 09:00").

>>> from datetime import date
>>> facts = build_facts({"dob": "1969-11-02"}, "Book a check-up next Thursday.", date(2026, 3, 12))
>>> contradiction("I have Thursday 19 March at 10:00. Shall I book it?", facts, {}, None)
>>> contradiction("Friday 20 March at 10:00. Shall I book it?", facts, {}, None).wrong
'Friday 20 March'
>>> contradiction("Your date of birth is 3 November 1969?", facts, {}, None).right
'1969-11-02'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from vistasim.dates import CLOCK_KEYS, day_text, find_dates
from vistasim.scenario import Scalar
from vistasim.user._fact_days import (
    DEADLINE_BEFORE,
    WINDOW_END_BEFORE,
    in_time,
    on_weekday_of,
    past_beside_future,
    weekdays_of,
)
from vistasim.user._fact_requests import ARTICLE, owned_by_requests, request_text
from vistasim.user._money_labels import other_quantity, sum_labels
from vistasim.user._owners import (
    BIRTH,
    GENERIC,
    TASK,
    is_birth_slot,
    named_anywhere,
    owner_of,
    vocabulary,
)
from vistasim.user._stated import Stated, stated_values
from vistasim.user._tasks import goal_requests, is_verb
from vistasim.values import OPENING_HOURS, id_shape, measure_of

__all__ = ["TASK", "Contradiction", "Fact", "build_facts", "contradiction"]

@dataclass(frozen=True, kw_only=True)
class Fact:
    """What the user holds for one owner (a slot, or the task): values by type, and words."""

    slot: str
    values: dict[str, frozenset[str]]
    said: dict[str, str]
    """How to say the value of each type back ("next Thursday (Thursday 19 March)")."""
    parts: tuple[Part, ...] = ()
    """For the task of a goal with several requests ("cancel my Spin tomorrow and book the Yoga
    on Friday"): each request's own values, so a proposal is checked against its own part."""
    sum_labels: frozenset[str] = frozenset()
    """The kinds the goal gives its own sums ("an excess of £100"): another kind is not ours."""
    current: bool = False
    """The value is what the user has now (a card number it came with), not one its goal asks
    for: a value the agent gives as the *new* one ("your new card number is RL-30009") is news."""
    made_anew: bool = False
    """The fact is a current id and the goal makes a record ("book a wheelchair space"): an id
    of its shape in the agent's report may be the new record's ("Done — order LH-48714")."""
    by: frozenset[str] = frozenset()
    """Days ("MM-DD") the goal wants things by ("collect them by Wednesday 9 December", "for an
    event on Saturday"): a day up to the latest of them is no contradiction."""
    superseded: bool = False
    """The goal speaks of an old one of the fact's kind ("I paid with my old card; I've changed
    cards since"): another value of its type may be that old one, not a wrong one of ours."""
    requests: tuple[Part, ...] = ()
    """The goal's requests when it makes several, and `request` the one whose words alone
    state the fact's value ("a quote for a 3-page contract"): a proposal that speaks of
    another request ("To upgrade TR7023 (your diploma, 2 pages)") says nothing of the fact."""
    request: int | None = None


@dataclass(frozen=True, kw_only=True)
class Part:
    """One request of a goal with several: its verb, its words and its values by type."""

    verb: str
    words: frozenset[str]
    values: dict[str, frozenset[str]]


@dataclass(frozen=True, kw_only=True)
class Contradiction:
    """A stated value that is none of its owner's values of that type."""

    slot: str
    """The owner: a slot name, or `""` for the task."""
    kind: str
    wrong: str
    right: str


def build_facts(
    held: Mapping[str, Scalar],
    goal: str,
    today: date | None,
    lexicon: Mapping[str, Sequence[str]] | None = None,
) -> list[Fact]:
    """The user's facts by owner: each held slot, and the task (the goal's own values)."""
    creates = bool(_CREATES & set(re.findall(r"[a-z]+", goal.casefold())))
    facts = [
        _fact(slot, str(value), today, current=_is_current(slot, str(value), goal))
        for slot, value in held.items()
        if _checkable(slot)
    ]
    facts = [
        replace(f, made_anew=creates and f.current and any(k.startswith("id:") for k in f.values))
        for f in facts
    ]
    facts = [replace(f, superseded=_old_one_named(goal, f.slot)) for f in facts if f.values]
    vocab = vocabulary([f.slot for f in facts], lexicon or {})
    task_values: dict[str, set[str]] = {}
    task_said: dict[str, str] = {}
    asked = _task_values(goal, facts, vocab, today)
    sums = [v.start for v in asked if v.kind == "money"]
    for value in asked:
        task_values.setdefault(value.kind, set()).update(value.values)
        # With two ("move it from 12 March to 19 March"), the last is the one asked for.
        task_said[value.kind] = _said(value, today)
    _add_weekdays(task_values, asked, today)
    if "weekday" in task_values and "date" in task_said:
        task_said.setdefault("weekday", task_said["date"])  # "today (3 December)" is a Thursday
    parts = _parts(goal, facts, vocab, today)
    if parts:
        facts = owned_by_requests(goal, facts, parts, today)
    task = Fact(
        slot=TASK,
        values={k: frozenset(v) for k, v in task_values.items()},
        said=task_said,
        parts=parts,
        sum_labels=sum_labels(goal, sums),
        by=frozenset(
            day
            for value in asked
            if value.kind == "date" and DEADLINE_BEFORE.search(goal[: value.start])
            for day in value.values
        ),
    )
    return [task, *facts] if task.values else facts


def _task_values(
    goal: str, facts: list[Fact], vocab: Mapping[str, Sequence[str]], today: date | None
) -> list[Stated]:
    """The values the goal asks for, not the held facts it states."""
    found = []
    stated = stated_values(goal, today)
    dates = [(v.start, v.end) for v in stated if v.kind == "date"]
    for value in stated:
        # The end of the date a weekday is part of ("Thursday 17 December — sorry, I meant").
        end = max([e for s, e in dates if s <= value.start < e] + [value.end])
        if _TAKEN_BACK_AFTER.match(goal[end:]):
            continue  # "Thursday 17 December — sorry, I meant Friday 18 December"
        if _refers_back(goal, value, stated):
            continue  # "26 January — sorry, I meant 28 January, the Tuesday is my first day"
        if _ASKING_NOW.fullmatch(value.surface) and _ASKING_BEFORE.search(goal[: value.start]):
            continue  # "I'm only asking for the price today": when the user asks, not a day
        if value.kind.startswith("id:") or value.kind == "email":
            continue  # ids are checked against the slots that hold them
        if value.kind == "quantity" and _is_shift(goal, value):
            continue  # "one day earlier", "an extra night": a change by, not a length of stay
        if _REPLACED_BEFORE.search(goal[: value.start]):
            continue  # "leaving on Sunday 21 June instead of Saturday": Saturday is not asked for
        holders = {f.slot for f in facts if value.kind in f.values}
        if owner_of(goal, value, vocab, holders | {BIRTH}) != TASK:
            continue  # "born on 2 Nov 1969": the goal states a held fact, not the request
        found.append(value)
    return found


_TAKEN_BACK_AFTER = re.compile(
    r"\s*(?:[—–-]+|,|\.)?\s*(?:(?:sorry|oops|no wait|wait|actually)\b[,.!]?\s*)+"
    r"(?:I\s+)?(?:mean|meant|make (?:that|it))\b",
    re.IGNORECASE,
)
"""Words after a value the goal takes back itself: what it asks for is the one after them."""
_ASKING_NOW = re.compile(r"today|tonight|now|this (?:morning|afternoon|evening)", re.IGNORECASE)
_ASKING_BEFORE = re.compile(
    r"\b(?:i'?m|i am|just|only)\s+(?:\w+\s+)?(?:asking|enquiring|inquiring|checking|wondering"
    r"|calling)\b(?:(?!\b(?:whether|if|when|to|can|could|will|would|be|is|are)\b)[^.;,—–]){0,30}$",
    re.IGNORECASE,
)
"""A verb of the user's own asking before "today" ("only asking for the price today")."""
_BARE_WEEKDAY = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.IGNORECASE)
_ARTICLE_BEFORE = re.compile(r"\b(?:the|that)\s+$", re.IGNORECASE)


def _refers_back(goal: str, value: Stated, stated: Sequence[Stated]) -> bool:
    """Whether a bare weekday after "the" names a date the goal said before ("the Tuesday").

    "Tuesday 26 January — sorry, I meant Thursday 28 January, the Tuesday is my first day at
    work": the Tuesday is the 26th, taken back, not a day asked for.
    """
    if value.kind != "date" or not _BARE_WEEKDAY.fullmatch(value.surface):
        return False
    if not _ARTICLE_BEFORE.search(goal[: value.start]):
        return False
    day = value.surface.lower()
    return any(
        v.kind == "date" and v.end <= value.start and v.surface.lower().startswith(day)
        and v.surface.lower() != day
        for v in stated
    )


_REPLACED_BEFORE = re.compile(
    r"(?:\binstead of|\brather than|,\s*not)\s+(?:the\s+|my\s+|on\s+|at\s+)?$", re.IGNORECASE
)
"""Words before a value the goal (or a proposal) replaces: what it asks for is the other one."""


def _add_weekdays(values: dict[str, set[str]], stated: list[Stated], today: date | None) -> None:
    # "tomorrow" is a Thursday: "Thursday 22 October" restates it.
    for value in stated:
        if value.kind == "date" and len(value.values) == 1 and today is not None:
            values.setdefault("weekday", set()).update(weekdays_of(value.values, today))


def _parts(
    goal: str, facts: list[Fact], vocab: Mapping[str, Sequence[str]], today: date | None
) -> tuple[Part, ...]:
    """Each request of a goal that makes several, with its own values; `()` for one."""
    parts = []
    for said in goal_requests(goal):
        # "Can you book a collection for an old bed on Tuesday? I'd also like to sign up for
        # garden waste": each is a request of its own, with the verb after its opening words.
        clause = request_text(said)
        verb = clause.split()[0].lower() if clause.split() else ""
        if ARTICLE.match(clause):
            verb = ""  # "I'd like a new food caddy": a thing asked for, no verb
        elif not is_verb(verb):
            continue
        values: dict[str, set[str]] = {}
        stated = _task_values(clause, facts, vocab, today)
        for value in stated:
            values.setdefault(value.kind, set()).update(value.values)
        _add_weekdays(values, stated, today)
        words = frozenset(w for w in _content_words(clause) if w != verb)
        parts.append(
            Part(verb=verb, words=words, values={k: frozenset(v) for k, v in values.items()})
        )
    return tuple(parts) if len(parts) >= 2 else ()


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4} - GENERIC


def _part_of(text: str, value: Stated, parts: Sequence[Part]) -> Part | None:
    """The request a sentence speaks of: by its verb ("cancel", "cancelled") and its words.

    `None` when no part, or more than one, fits best: then every part's values count.
    """
    start = max(text.rfind(c, 0, value.start) for c in ".!?\n") + 1
    ends = [i for i in (text.find(c, value.end) for c in ".!?\n") if i >= 0]
    sentence = text[start : min(ends) if ends else len(text)].lower()
    scores = _part_scores(sentence, parts)
    if not any(scores):
        # "To order a replacement food caddy: free. It will be delivered by Monday 21
        # December.": the day's own sentence names no request; the message does.
        scores = _part_scores(text.lower(), parts)
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return parts[scores.index(best)]


def _part_scores(text: str, parts: Sequence[Part]) -> list[int]:
    words = set(re.findall(r"[a-z]+", text))
    scores = []
    for part in parts:
        verb = part.verb
        forms = {verb, verb + "s", verb + "ed", verb + "d", verb + verb[-1:] + "ed"}  # cancelled
        forms = forms if verb else set()  # "a new food caddy" has no verb
        scores.append(2 * bool(words & forms) + len(words & part.words))
    return scores


def contradiction(
    text: str,
    facts: Sequence[Fact],
    lexicon: Mapping[str, Sequence[str]],
    today: date | None,
) -> Contradiction | None:
    """The first value the text states that contradicts the fact it restates, if any."""
    by_slot = {f.slot: f for f in facts}
    vocab = vocabulary([f.slot for f in facts if f.slot != TASK], lexicon)
    owned: dict[tuple[str, str], list[Stated]] = {}
    shapes = [k[3:] for f in facts for k in f.values if k.startswith("id:") and "A" not in k]
    stated = stated_values(text, today, shapes)
    for value in _proposed(text, stated):
        holders = {f.slot for f in facts if value.kind in f.values and f.slot != TASK}
        owner: str | None = owner_of(text, value, vocab, holders | {BIRTH})
        if owner == TASK and _needs_name(value.kind):
            owner = named_anywhere(text, holders, vocab)
        elif owner == TASK:
            owner = _task_owner(value.kind, facts)
        if owner in by_slot and value.kind in by_slot[owner].values:
            owner = _target_owner(text, value, by_slot[owner], facts)
            if not _not_ours(text, value, by_slot[owner], today):
                owned.setdefault((owner, value.kind), []).append(value)
    for (slot, kind), values in owned.items():
        mine = by_slot[slot].values[kind]
        part = _part_of(text, values[0], by_slot[slot].parts) if by_slot[slot].parts else None
        if part is not None:
            if kind not in part.values:
                continue  # "cancel my Spin tomorrow" says no time: the class's time is news
            mine = part.values[kind]
        if any(v.values & mine for v in stated if v.kind == kind):
            continue  # the message restates the value; others of its type say something else
        if kind.startswith("id:") and _count_restated(stated, mine, slot):
            continue  # "3 tickets: 1 member ticket and 2 guest tickets" for tickets 3
        if _of_another_request(text, values[0], by_slot[slot]):
            continue  # the 3 pages are the quote's, not the upgrade's this sentence proposes
        if kind == "quantity":  # "the lift of Skua (9.4 m)" says nothing of "6 weeks" ashore
            values = [v for v in values if _measures(v.values) & _measures(mine)]
        values = _about_ours(text, kind, values, mine, by_slot[slot], today)
        if not values:
            continue
        # "Moving it from Friday at 09:00 to Monday at 14:00": the value it moves from is the
        # old one; the objection names the new one.
        values = sorted(values, key=lambda v: _FROM_BEFORE.search(text[: v.start]) is not None)
        wrong = values[0].surface.strip(" .,;:!?()[]")
        said = by_slot[slot].said
        right = said.get(kind) or next(iter(said.values()), "")
        return Contradiction(slot=slot, kind=kind, wrong=wrong, right=right)
    return None


def _of_another_request(text: str, value: Stated, fact: Fact) -> bool:
    """Whether the value's sentence speaks of a request other than the one the fact is of."""
    if fact.request is None:
        return False
    part = _part_of(text, value, fact.requests)
    return part is not None and part is not fact.requests[fact.request]


def _count_restated(stated: Sequence[Stated], mine: frozenset[str], slot: str) -> bool:
    """Whether a count the fact holds ("tickets: 3") is said with its noun ("3 tickets").

    A bare number in the knowledge reads as a one-digit id; said with the slot's own noun it
    is a quantity, and the numbers of its parts ("2 guest tickets") are not other counts.
    """
    nouns = {word.removesuffix("s") for word in slot.split("_")}
    return any(
        number in mine and unit.removesuffix("s") in nouns
        for value in stated
        if value.kind == "quantity"
        for number, _, unit in (q.partition(" ") for q in value.values)
    )


def _target_owner(text: str, value: Stated, fact: Fact, facts: Sequence[Fact]) -> str:
    """The fact a change's target restates: "change your email to X" is the `new_email` held."""
    if not (fact.current and _CHANGED_TO.search(text[: value.start][-60:])):
        return fact.slot
    targets = [f for f in facts if not f.current and f.slot != TASK and value.kind in f.values]
    return targets[0].slot if len(targets) == 1 else fact.slot


def _not_ours(text: str, value: Stated, fact: Fact, today: date | None) -> bool:
    """Whether a value of the fact's type says something other than the fact's own value."""
    if fact.superseded:
        return True  # "to the card it was paid with, ending 3311" for "my old card"
    before = text[: value.start]
    if fact.current and (_NEW_BEFORE.search(before) or _CHANGED_TO.search(before[-60:])):
        return True  # "your new card number is RL-30009": what the change made, not ours
    if fact.made_anew and value.kind.startswith("id:"):
        return True  # "Done — order LH-48714" for a booking: the new record's number
    if value.kind in ("date", "weekday") and _RECORD_DATE_BEFORE.search(before[-40:]):
        return True  # "your voucher is valid until 31 December 2027": not the show's day
    own = (fact.said.get("date"), fact.values.get("date", frozenset()))
    if value.kind == "date" and past_beside_future(value.surface, value.values, *own, today):
        return True  # "your survey SV3024 on Thursday 7 January" for March: what was done
    weekdays, said = fact.values.get("weekday", frozenset()), fact.said.get("date", "")
    if value.kind == "date" and on_weekday_of(value.values, weekdays, said, today):
        return True  # "from Saturday 20 March" for a class on "Saturday": that day of the week
    if value.kind == "date" and in_time(value.values, fact.by, today):
        return True  # "ready on Tuesday 8 December" for a goal's "by Wednesday 9 December"
    if value.kind == "date" and WINDOW_END_BEFORE.search(before[-25:]):
        # "a contractor attends within 24 hours, by Thursday 10 December" for "today"
        return in_time(fact.values.get("date", frozenset()), value.values, today)
    if _REPLACED_BEFORE.search(before[-20:]):
        return True  # "on Thursday 10 December instead of Monday 14 December": the old day
    # "your excess is £250" beside a goal's "about £1,200 to replace it"
    return value.kind == "money" and other_quantity(text, value.start, fact.sum_labels)


def _measures(quantities: frozenset[str] | set[str]) -> set[str]:
    """The measures of quantities said as "6 week", "9.4 metre" (`values.measure_of`)."""
    return {measure_of(f"quantity:{q.rpartition(' ')[2]}") for q in quantities}


def _about_ours(
    text: str, kind: str, values: list[Stated], mine: frozenset[str], fact: Fact,
    today: date | None,
) -> list[Stated]:
    """The values of the kind the text says of the fact's own record, not of another one."""
    if kind.startswith("id:"):
        # "Buddy's stay HS5005" beside the account HB4005: ids of one shape with another
        # letter prefix number another kind of record.
        prefixes = {_letters(v) for v in mine}
        return [v for v in values if any(_letters(x) in prefixes for x in v.values)]
    if kind == "weekday":
        # "It started on Tuesday 10 November ... cancelled from today": that Tuesday is
        # another date's weekday, not a day said for ours.
        dates = fact.values.get("date", frozenset())
        return [v for v in values if not _of_another_date(text, v, dates, today)]
    return values


def _letters(value: str) -> str:
    """An id's leading letters ("HB" of "HB4005")."""
    return "".join(itertools.takewhile(str.isalpha, value)).upper()


def _of_another_date(
    text: str, weekday: Stated, dates: frozenset[str], today: date | None
) -> bool:
    """Whether a weekday is part of a full date the text gives that is not one of `dates`."""
    return any(
        m.start <= weekday.start < m.end and any(c.isdigit() for c in m.surface)
        and m.days and not m.days & dates
        for m in find_dates(text, today)
    )


_RECORD_DATE_BEFORE = re.compile(
    r"\b(?:valid\s+(?:until|to|through|till)|expires?(?:\s+on)?|expiry(?:\s+date)?"
    r"(?:\s+(?:is|of))?|use\s+(?:it\s+)?by|good\s+until|issued\s+on|(?:read|taken|recorded)\s+on"
    r"|dated|(?:was|were|fell)\s+due(?:\s+(?:on|by))?"
    r"|(?:held|fixed|guaranteed|honoured|reserved)(?:\s+for\s+\d+\s+\w+)?,?\s+(?:until|till))"
    r"\s*:?\s*$",
    re.IGNORECASE,
)
"""Words that make the next date one of a record the change gave (a voucher's), the day a
reading was taken ("a reading of 22340, read on Monday 14 September") or the day a bill was
due ("It was due on Monday 30 November, so a £10.00 late fee is added"), not the goal's."""
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:[\w,]+\s+){0,3}(?:at\s+)?$", re.IGNORECASE)
_READY = re.compile(
    r"\b(?:ready|available)\s+(?:\w+\s+){0,2}?(?:from|after|by|at|on)\s*$", re.IGNORECASE
)
_BOUNDED_KINDS = frozenset({"date", "time", "weekday"})


def _proposed(text: str, stated: Sequence[Stated]) -> list[Stated]:
    """Values the text proposes: not opening hours, readiness or lateness.

    A time the desk is open or an order is ready ("ready from 4:00 pm") bounds the choice; it
    is not a pick-up time offered in place of the user's. How late a record was ("returned 24
    days late") is no length offered in place of the goal's ("in hospital for three weeks").
    """
    hours = [(m.start(), m.end()) for m in _sentences_matching(text, OPENING_HOURS)]
    kept: list[Stated] = []
    bound_end = -1
    for value in stated:
        if value.kind == "quantity" and _LATENESS_AFTER.match(text[value.end :]):
            continue  # "returned 24 days late": how late a record was, not a length offered
        before = text[max(0, value.start - 30) : value.start]
        in_hours = any(s <= value.start < e for s, e in hours)
        next_to_bound = bound_end >= 0 and not text[bound_end : value.start].strip(" ,")
        if value.kind in _BOUNDED_KINDS and (
            in_hours or _READY.search(before) or next_to_bound
        ):
            bound_end = max(bound_end, value.end)  # "ready from 4:00 pm today": both bound
            continue
        kept.append(value)
    return kept


def _sentences_matching(text: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    return [m for m in re.finditer(r"[^.!?]+(?:[.!?](?=\s|$)|$)", text) if pattern.search(m[0])]


_SHIFT_AFTER = re.compile(
    r"\s*(?:earlier|later|sooner|before|after|longer|shorter|more|less|fewer|extra)\b", re.I
)
_SHIFT_BEFORE = re.compile(
    r"\b(?:extra|another|additional|more|(?:put|push|pushed|move|moved|bring|brought|set)\s+"
    r"(?:[\w']+\s+){0,3}?(?:back|forward)(?:\s+by)?|delay(?:ed)?(?:(?:\s+[\w']+){0,3}?\s+by)?)\s*$",
    re.IGNORECASE,
)
"""Words before a length that make it a change by ("put back a day", "push our March trip back
two weeks"), not the stay's length."""


_LATENESS_AFTER = re.compile(r"\s*(?:late|overdue|early|ago|behind)\b", re.IGNORECASE)


def _is_shift(text: str, value: Stated) -> bool:
    return bool(
        _SHIFT_AFTER.match(text[value.end :]) or _SHIFT_BEFORE.search(text[: value.start])
    )


def _checkable(slot: str) -> bool:
    return slot != "api" and slot not in CLOCK_KEYS


def _needs_name(kind: str) -> bool:
    # An id or an email is compared only with a slot the message names: an order number is
    # never checked against a phone number of the same shape.
    return kind.startswith("id:") or kind == "email"


def _task_owner(kind: str, facts: Sequence[Fact]) -> str | None:
    """Who owns an unnamed typed value: the goal's values, else the one task slot of its type."""
    task = next((f for f in facts if f.slot == TASK), None)
    if task is not None and kind in task.values:
        return TASK
    slots = [f.slot for f in facts if f.slot != TASK and kind in f.values]
    slots = [s for s in slots if not is_birth_slot(s)]
    return slots[0] if len(slots) == 1 else None


def _old_one_named(goal: str, slot: str) -> bool:
    """Whether the goal speaks of an old one of what the slot names ("my old card")."""
    words = {w.removesuffix("s") for w in slot.lower().split("_") if len(w) > 2}
    return any(
        found.group(1).lower().removesuffix("s") in words for found in _OLD_ONE.finditer(goal)
    )


_OLD_ONE = re.compile(r"\b(?:my|the|an?|our)\s+(?:old|previous|former|expired)\s+(\w+)", re.I)


def _is_current(slot: str, value: str, goal: str) -> bool:
    # `new_email`, or a value the goal names ("change my email to ann@new.org"), is a target.
    return "new" not in slot.lower().split("_") and value.casefold() not in goal.casefold()


_CREATES = frozenset(
    "book reserve buy purchase open create register schedule hire rent subscribe".split()
)
"""Verbs of a goal that makes a record, which comes with an id of its own."""
_NEW_BEFORE = re.compile(
    r"\b(?:new|replacement)\s+(?:[\w-]+\s+){0,3}(?:is\s+|will\s+be\s+|:\s*)?$"
    r"|\breplaced\s+(?:by|with)\s+$",
    re.IGNORECASE,
)


_CHANGED_TO = re.compile(
    r"\b(?:chang|updat|switch|set)(?:e|es|ed|ing)?\s+(?:[\w-]+\s+){0,4}?to\s+$", re.IGNORECASE
)
"""Words before the value a change makes ("To change your email to vera@new.org"): for a fact
the user has now, the change's target is news, not a wrong value of it."""


def _fact(slot: str, value: str, today: date | None, *, current: bool = False) -> Fact:
    values: dict[str, set[str]] = {}
    for found in stated_values(value, today):
        values.setdefault(found.kind, set()).update(found.values)
    if not values and " " not in value and any(c.isdigit() for c in value):
        values[f"id:{id_shape(value)}"] = {value.casefold()}
    return Fact(
        slot=slot,
        values={k: frozenset(v) for k, v in values.items()},
        said=dict.fromkeys(values, value),
        current=current,
    )


def _said(value: Stated, today: date | None) -> str:
    surface = value.surface.strip(" .,;:!?")
    if value.kind == "date" and len(value.values) == 1 and not any(c.isdigit() for c in surface):
        day = next(iter(value.values))  # "next Thursday": say which day it is
        named = re.search(r"day\b", surface, re.I) is not None  # it names the weekday already
        return f"{surface} ({day_text(day, None if named or today is None else today.year)})"
    return surface
