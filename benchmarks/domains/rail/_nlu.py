"""What the desk bot reads in a customer's message: references, identity, dates, times, intents.

Pure functions over text, with the desk's fixed today (Monday 16 March 2026).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from benchmarks.domains.rail._env import TODAY

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
MONTHS |= {m[:3]: n for m, n in list(MONTHS.items())} | {"sept": 9}
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
NUMBERS = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split())}
_MON = "|".join(sorted(MONTHS, key=len, reverse=True))
_WD = "|".join(WEEKDAYS) + "|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_HOUR = r"(\d{1,2}|" + "|".join(NUMBERS) + ")"
_ORD = r"(?:st|nd|rd|th)?"

REF_RE = re.compile(r"\bLR[\s-]?(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MONEY_RE = re.compile(r"(?:€|eur\b|euros?\b)\s?\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?\s?"
                      r"(?:€|eur\b|euros?\b)", re.I)
DATE_RES = [
    (re.compile(rf"\b(\d{{1,2}}){_ORD}(?:\s+of)?\s+({_MON})\.?(?:,?\s+(\d{{4}}))?\b", re.I), "dmy"),
    (re.compile(rf"\b({_MON})\.?\s+(\d{{1,2}}){_ORD}(?:,?\s+(\d{{4}}))?\b", re.I), "mdy"),
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), "iso"),
    (re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b"), "num"),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})\b"), "num"),
]
WEEKDAY_RE = re.compile(rf"\b(?:(next|this|coming)\s+)?({_WD})\b"
                        rf"(?:\s+(?:the\s+)?(\d{{1,2}}){_ORD}\b)?"
                        r"(\s+(?:next|of next)\s+week)?", re.I)
DAY_ONLY_RE = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)
RELATIVE_RE = re.compile(r"\b(today|tonight|this (?:morning|afternoon|evening)|tomorrow|"
                         r"day after tomorrow)\b", re.I)
TIME_RES = [
    (re.compile(r"\b([01]?\d|2[0-3])\s?[:.h]\s?([0-5]\d)\s*(am|pm|a\.m\.|p\.m\.)?", re.I), "hm"),
    (re.compile(r"\b(1[0-2]|0?[1-9])\s*(am|pm|a\.m\.|p\.m\.)", re.I), "h"),
    (re.compile(rf"\bhalf\s+past\s+{_HOUR}\b", re.I), "half"),
    (re.compile(rf"\bquarter\s+past\s+{_HOUR}\b", re.I), "qpast"),
    (re.compile(rf"\bquarter\s+to\s+{_HOUR}\b", re.I), "qto"),
    (re.compile(rf"\bhalf\s+{_HOUR}\b", re.I), "half"),
    (re.compile(rf"\b{_HOUR}\s+(thirty|fifteen|forty[- ]five)\b", re.I), "words"),
    (re.compile(rf"\b{_HOUR}\s*o'?\s?clock\b", re.I), "h"),
    (re.compile(r"\b(noon|midday|mid-day)\b", re.I), "noon"),
    (re.compile(rf"\b(?:at|around|about|for|the)\s+{_HOUR}\b(?!\s*(?:[:./]|{_MON}|%|people|"
                r"days?|weeks?|hours?|minutes?|bikes?|pets?|euros?|eur))", re.I), "h"),
]
PART_RE = re.compile(r"\b(morning|afternoon|evening|night|lunchtime)\b", re.I)
INTENT_RES = {
    "cancel": r"\bcancel(?!lation fee)\w*|\bdon'?t need (?:the|my|this) (?:ticket|train|booking)",
    "upgrade": r"\bupgrad\w*|\bfirst[- ]class\b|\b1st class\b",
    "bicycle": r"\b(?:bike|bicycle|cycle|e-?bike)s?\b",
    "pet": r"\b(?:dog|cat|pet|puppy|kitten)s?\b",
    "change": r"\b(?:chang\w*|mov(?:e|ing)|switch\w*|swap\w*|re-?book\w*|reschedul\w*|"
              r"transfer\w*|put me on|earlier (?:train|one|departure)|later (?:train|one|"
              r"departure)|(?:different|another|other) (?:train|time|day|date|departure))\b",
    "status": r"\b(?:what time|when (?:does|is|do)|which seat|what seat|my seat|details of|"
              r"look up|check (?:my|on my|the) (?:booking|train|ticket|reservation)|"
              r"booking status|still (?:on|valid|booked))\b|\bwhen\b[^.?!]{0,30}\b(?:leave|"
              r"leaves|depart|departs|goes)\b",
}
REFUND_Q_RE = re.compile(
    r"\bif i (?:were to |was to )?cancel|\bhow much (?:would|will|do|could|can) i (?:get|be)\b|"
    r"\bhow much i(?:'d| would| will| could)? (?:get|be refunded)\b|"
    r"\bwhat (?:would|will|do) i get back|\bwould i get\b|\bam i entitled|\b(?:is|are) "
    r"(?:it|my ticket|my booking|tickets?) refundable|\bhow much (?:of a )?refund\b|"
    r"\bwhat(?:'s| is| would be) the refund\b", re.I)
FEE_Q_RE = re.compile(
    r"\bhow much (?:is|are|does|do|would|will|to)\b|\b(?:fee|fees|charge|charges|cost|costs|"
    r"price|prices|pricing|rules|policy|policies|conditions)\b|\bdo you charge\b|"
    r"\bwhat are the\b",
    re.I)
ACTION_RE = re.compile(
    r"\bi(?:'d| would)? (?:want|like|need)\b|\bi'?d love\b|\bplease\b|\b(?:can|could|would) "
    r"you (?:please )?(?:change|move|add|cancel|upgrade|book|switch|put)\b|\blet'?s\b|\bbook me\b"
    r"|\bi'?m bringing\b|\bi will bring\b|\bi'?ll be bringing\b", re.I)
CANCEL_NOW_RE = re.compile(r"\b(?:i(?:'d| would)? (?:want|like|need)|please|can you|could you|"
                           r"go ahead and)\s+(?:to\s+)?cancel", re.I)
KNOW_RE = re.compile(r"\b(?:like|want) to know\b|\bwondering\b|\b(?:can|could) you tell me\b|"
                     r"\bjust (?:a )?(?:question|asking|checking)\b", re.I)
HESITANT_RE = re.compile(r"\b(?:not yet|wait|hold on|hang on|hmm+|let me think|one (?:sec|moment|"
                         r"minute)|give me a (?:sec|second|moment|minute)|not sure|unsure|"
                         r"thinking about it|before you do)\b", re.I)
NEGATIVE_RE = re.compile(r"\b(?:no|nope|nah|don'?t|do not|rather not|never ?mind|forget it|"
                         r"not now|leave it|neither)\b", re.I)
POSITIVE_RE = re.compile(r"\b(?:yes|yeah|yep|yup|sure|ok|okay|go ahead|please do|do it|do that|"
                         r"confirm\w*|correct|that'?s right|sounds good|perfect|great|fine|"
                         r"book it|let'?s do it|absolutely|that works|works for me|go for it|"
                         r"alright|all right|definitely|of course|proceed|lovely|brilliant)\b",
                         re.I)
NO_PROBLEM_RE = re.compile(r"\bno (?:problem|worries|issue)s?\b|\bnot a problem\b", re.I)
CLOSING_RE = re.compile(r"\b(?:that'?s (?:all|it|everything)|nothing (?:else|more)|no,? thanks?"
                        r"|no thank you|bye|goodbye|all good|that'?s great,? thanks|"
                        r"have a (?:good|nice) day|i'?m all set|that will be all)\b", re.I)
WHY_RE = re.compile(r"\bwhy (?:do|would) you need\b|\bwhat for\b|\bwhy\?|\bis that necessary\b",
                    re.I)
NAME_RES = [
    re.compile(r"\b(?:last name|surname|family name)(?: is|:|'s| it's)?\s+([A-ZÀ-Ý][\w'’-]+)"),
    re.compile(r"\b(?:[Mm]y name is|[Ii]'m|[Ii] am|[Tt]his is|[Uu]nder(?: the name)?|"
               r"[Nn]ame'?s|[Ii]t'?s)\s+((?:[A-ZÀ-Ý][\w'’-]+\s+)?[A-ZÀ-Ý][\w'’-]+)"),
]
OWN_MARK = re.compile(r"\b(?:my|mine|i)\b", re.I)
OTHER_MARK = re.compile(r"\b(?:colleague|wife|husband|partner|friend|mother|father|mum|mom|dad|"
                        r"son|daughter|sister|brother|boss|her|his|their|someone else)\b", re.I)
EARLIER_RE = re.compile(r"\b(?:earlier|sooner|before that)\b", re.I)
LATER_RE = re.compile(r"\b(?:later|after that|next (?:train|one|departure))\b", re.I)
SAME_TIME_RE = re.compile(r"\bsame (?:time|train|departure)\b", re.I)


@dataclass
class Parsed:
    """Everything read from one message."""

    refs: list[str] = field(default_factory=list)
    other_refs: list[str] = field(default_factory=list)
    email: str | None = None
    dob: str | None = None
    dates: list[str] = field(default_factory=list)
    times: list[str] = field(default_factory=list)
    part_of_day: str | None = None
    relative: str | None = None
    same_time: bool = False
    intents: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    answer: str | None = None  # "yes", "no", "hesitant"
    closing: bool = False
    why: bool = False
    names: list[str] = field(default_factory=list)
    text: str = ""


def iso(day: date) -> str:
    return day.isoformat()


def _make_date(year: int | None, month: int, day: int) -> date | None:
    try:
        return date(year or TODAY.year, month, day)
    except ValueError:
        return None


def _weekday(match: re.Match[str]) -> date:
    prefix, name, number, next_week = match.groups()
    wanted = next(i for i, w in enumerate(WEEKDAYS) if w.startswith(name.lower()[:3]))
    if number and (d := _make_date(None, TODAY.month, int(number))):
        return d if d >= TODAY else _make_date(None, TODAY.month + 1, int(number)) or d
    if (prefix or "").lower() == "next" or next_week:
        monday = TODAY + timedelta(days=7 - TODAY.weekday())
        return monday + timedelta(days=wanted)
    ahead = (wanted - TODAY.weekday()) % 7 or 7
    return TODAY + timedelta(days=ahead)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def find_dates(text: str) -> tuple[list[tuple[int, date]], str]:
    """Dates with their positions, and the text with them blanked out."""
    found: list[tuple[int, date]] = []
    for regex, kind in DATE_RES:
        for m in regex.finditer(text):
            a, b, c = (m.groups() + (None,))[:3]
            if kind == "dmy":
                d = _make_date(int(c) if c else None, MONTHS[b.lower().rstrip(".")], int(a))
            elif kind == "mdy":
                d = _make_date(int(c) if c else None, MONTHS[a.lower().rstrip(".")], int(b))
            elif kind == "iso":
                d = _make_date(int(a), int(b), int(c))
            else:
                year = (int(c) + (1900 if int(c) > 30 else 2000) if c and len(c) == 2
                        else int(c) if c else None)
                d = _make_date(year, int(b), int(a))
            if d:
                found.append((m.start(), d))
                text = _blank(text, m.start(), m.end())
    for m in WEEKDAY_RE.finditer(text):
        if any(m.end() <= pos <= m.end() + 6 for pos, _ in found):
            text = _blank(text, m.start(), m.end())  # "Tuesday 24 March": the date says it
            continue
        found.append((m.start(), _weekday(m)))
        text = _blank(text, m.start(), m.end())
    for m in RELATIVE_RE.finditer(text):
        word = m.group(1).lower()
        shift = 2 if word.startswith("day after") else 1 if word == "tomorrow" else 0
        found.append((m.start(), TODAY + timedelta(days=shift)))
        text = _blank(text, m.start(), m.end())
    for m in DAY_ONLY_RE.finditer(text):
        if d := _make_date(None, TODAY.month, int(m.group(1))):
            found.append((m.start(), d if d >= TODAY else d.replace(month=TODAY.month + 1)))
            text = _blank(text, m.start(), m.end())
    return sorted(found), text


def _hour(word: str) -> int:
    return NUMBERS.get(word.lower()) or int(word)


def _clock(hour: int, minute: int, meridiem: str | None, part: str | None) -> str | None:
    mer = (meridiem or "").lower().replace(".", "")
    if mer == "pm" and hour < 12 or (not mer and (part in ("afternoon", "evening", "night")
                                                  or hour <= 6) and hour < 12):
        hour += 12
    if mer == "am" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}" if 0 <= hour < 24 and 0 <= minute < 60 else None


def find_times(text: str) -> list[tuple[int, str]]:
    """Clock times with their positions (dates and amounts must already be blanked)."""
    part = (PART_RE.search(text) or [None, None])[1]
    part = part.lower() if part else None
    found: list[tuple[int, str]] = []
    for regex, kind in TIME_RES:
        for m in regex.finditer(text):
            g = m.groups()
            if kind == "noon":
                value: str | None = "12:00"
            elif kind == "hm":
                value = _clock(int(g[0]), int(g[1]), g[2], part)
            elif kind == "words":
                minute = {"thirty": 30, "fifteen": 15}.get(g[1].lower(), 45)
                value = _clock(_hour(g[0]), minute, None, part)
            else:
                hour = _hour(g[0])
                minute = {"half": 30, "qpast": 15, "qto": 45}.get(kind, 0)
                hour = hour - 1 if kind == "qto" else hour
                value = _clock(hour, minute, g[1] if kind == "h" and len(g) > 1 else None, part)
            if value and 0 < _hour(g[0] if kind != "noon" else "12") <= 23:
                found.append((m.start(), value))
            text = _blank(text, m.start(), m.end())
    return sorted(found)


def _answer(text: str) -> str | None:
    text = NO_PROBLEM_RE.sub(" okay ", text)
    if HESITANT_RE.search(text):
        return "hesitant"
    neg, pos = NEGATIVE_RE.search(text), POSITIVE_RE.search(text)
    if neg and (not pos or neg.start() < pos.start()):
        return "no"
    return "yes" if pos else None


def _intents(text: str) -> tuple[list[str], list[str]]:
    hits: list[tuple[int, str]] = []
    if REFUND_Q_RE.search(text):
        hits.append((REFUND_Q_RE.search(text).start(), "refund_question"))  # type: ignore[union-attr]
    for name, pattern in INTENT_RES.items():
        m = re.search(pattern, text, re.I)
        if m and not (name == "cancel" and hits and hits[0][1] == "refund_question"):
            hits.append((m.start(), name))
    if hits and hits[0][1] == "refund_question" and CANCEL_NOW_RE.search(text):
        hits = [(0, "cancel")] + [h for h in hits[1:] if h[1] != "cancel"]
    kinds = [k for _, k in sorted(hits)]
    topics = kinds + (["cancel"] if re.search(r"\brefund", text, re.I) else [])
    asking = not ACTION_RE.search(text) or KNOW_RE.search(text)
    if FEE_Q_RE.search(text) and asking and not REF_RE.search(text) and "status" not in kinds:
        return ["fees"], topics
    return kinds, topics


def _refs(text: str) -> tuple[list[str], list[str]]:
    own: list[str] = []
    other: list[str] = []
    for m in REF_RE.finditer(text):
        ref = f"LR{m.group(1)}"
        before = text[max(0, m.start() - 45):m.start()]
        clause = re.split(r"[.;!?]|\band\b|,", before)[-1]
        target = other if OTHER_MARK.search(clause) and not re.search(r"\bmy (?:own )?"
                                                                      r"(?:booking|ticket|"
                                                                      r"reference|ref)\b",
                                                                      clause) else own
        if ref not in own + other:
            target.append(ref)
    return own, other


def parse(text: str) -> Parsed:
    """Read one customer message."""
    p = Parsed(text=text)
    p.refs, p.other_refs = _refs(text)
    if m := EMAIL_RE.search(text):
        p.email = m.group(0).lower().rstrip(".")
    rest = EMAIL_RE.sub(" ", REF_RE.sub(" ", MONEY_RE.sub(" ", text)))
    dates, rest = find_dates(rest)
    for _, d in dates:
        if d.year < 2015:
            p.dob = iso(d)
        elif iso(d) not in p.dates:
            p.dates.append(iso(d))
    p.times = list(dict.fromkeys(t for _, t in find_times(rest)))
    if m := PART_RE.search(rest):
        p.part_of_day = m.group(1).lower()
    p.relative = ("earlier" if EARLIER_RE.search(text) else
                  "later" if LATER_RE.search(text) else None)
    p.same_time = bool(SAME_TIME_RE.search(text))
    p.intents, p.topics = _intents(text)
    p.answer = _answer(text)
    p.closing = bool(CLOSING_RE.search(text))
    p.why = bool(WHY_RE.search(text))
    for regex in NAME_RES:
        p.names += [m.group(1) for m in regex.finditer(text) if not re.search(r"\d", m.group(1))]
    return p
