"""Reading a guest's message: what they ask for, and the facts in it (refs, names, emails...)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from benchmarks.domains.hotel._dates import find_dates
from benchmarks.domains.hotel._times import find_time

REF = re.compile(r"\bHL[\s-]?(\d{5})\b", re.IGNORECASE)
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE = re.compile(r"(?:\+|\b00)\d[\d\s().-]{6,18}\d|\b0\d[\d\s-]{6,14}\d\b")

_OTHER_PERSON = re.compile(
    r"\b(?:sister|brother|friend|colleague|partner|husband|wife|mother|father|mum|mom|dad|son|"
    r"daughter|cousin|parents|boss|her|his|their|other|someone|somebody)\b"
)
NOTE_WORDS = (
    r"\b(?:cots?|crib|baby bed|accessib\w*|wheelchair|mobility|disabilit\w*|step[\s-]free|"
    r"walk[\s-]in shower|grab rails?|quiet room|high floor|low floor|ground floor|next to|"
    r"next door|adjoining|connecting|same floor|close to (?:my|her|his|their|our)|"
    r"near (?:my|her|his|their|our)|allerg\w*|gluten|arriv\w* late|late arrival|"
    r"special request|a note|extra pillows?|hypoallergenic)\b"
)
_CHANGE = r"\b(?:change|move|shift|reschedul\w*|postpone|push|bring|amend|modify|alter|switch)\b"
_DATE_WORDS = r"\b(?:dates?|arrival|departure|check[\s-]*in(?: date)?|nights?)\b"
_EXTEND = (
    r"\b(?:(?:a|one|two|three|\d) (?:days?|weeks?) (?:earlier|later|sooner)|"
    r"(?:back|forward|later|earlier) by (?:a|one|two|three|\d) (?:days?|weeks?)|"
    r"(?:change|move|new|different|other) (?:the |my |our )?dates|"
    r"extend\w*|extension|extra night|more nights?|another night|additional night|"
    r"stay longer|shorten|leave (?:a|one|two) days? (?:early|earlier|sooner)|"
    r"arrive (?:a|one|two) days? (?:early|earlier|later|sooner))\b"
)
_ROOM = (
    r"\bupgrad\w*|\broom type\b|\b(?:bigger|better|larger|nicer|different|another) room\b|"
    r"\b(?:change|switch|swap|move)\b[^.?!]{0,30}\b(?:rooms?|suite|superior|sea[\s-]?view|"
    r"river[\s-]?view)\b"
)
_LATE = (
    r"\blate[\s-]*check[\s-]*out|\bcheck(?:ing)?[\s-]*out\s+(?:late|later)\b|"
    r"\blater\s+check[\s-]*out|\bleave\s+(?:the room\s+)?later\b|"
    r"\bkeep (?:the|my|our) room (?:until|till|a bit longer|longer)\b"
)
_DETAILS = (
    r"\b(?:update|change|new|correct|replace|wrong|different|fix|amend)\b[^.?!]{0,40}"
    r"\b(?:e-?mail|phone|mobile|telephone|contact (?:number|details)|(?:my|the) number)\b|"
    r"\b(?:e-?mail|phone|mobile)(?:\s+(?:address|number))?\s+(?:is\s+)?(?:wrong|out of date|"
    r"outdated|has changed|changed)\b"
)
_INFO = (
    r"\b(?:what(?:'s| is| time)|how much|when|tell me|remind me|details)\b[^.?!]{0,40}"
    r"\b(?:total|price|cost|check[\s-]*in|check[\s-]*out|my booking|reservation|booked)\b"
)
ROOM_WORDS = [
    ("suite", r"\bsuites?\b"),
    ("superior", r"\bsuperior\b|\b(?:sea|river|dock)[\s-]?view\b|\bdeluxe\b"),
    ("family", r"\bfamily (?:room|suite)\b|\broom for (?:the )?(?:four|4|whole family)\b"),
    ("standard", r"\bstandard\b|\bdouble room\b|\bbasic room\b"),
]

NEGATIVE = re.compile(
    r"\b(?:no|nope|nah|not yet|not now|not really|not sure|unsure|wait|hold on|hang on|"
    r"don'?t|do not|stop|never ?mind|rather not|hmm+|let me think|leave it|forget it|"
    r"cancel that|keep it|as it is|i'?ll think|not right|wrong|incorrect|not what i|"
    r"that'?s not|isn'?t what|not quite)\b"
)
_LACKING = re.compile(
    r"\b(?:don'?t|do not|didn'?t) (?:have|know|remember|got)|\bhaven'?t got\b|"
    r"\bnot (?:on|to) hand\b|\bnot with me\b|\bcan'?t find\b|\bonly have\b|"
    r"\bno (?:booking )?(?:reference|number)\b"
)
_POS = re.compile(
    r"\b(?:yes|yeah|yep|yup|ya|sure|ok|okay|alright|all right|please do|go ahead|do it|"
    r"confirm\w*|correct|that'?s (?:right|fine|great|perfect|good)|sounds good|perfect|great|"
    r"fine|absolutely|of course|proceed|that works|lovely|agreed?|i accept|accept\w*|happy to|"
    r"deal|book it|add it|cancel it|please)\b"
)
_NOT_NEGATIVE = re.compile(r"\bno (?:problem|worries)\b|\bnot a problem\b|\bwhy not\b")
_FAREWELL = re.compile(
    r"\b(?:that'?s all|that is all|that'?s everything|nothing else|no,? thanks?|no thank you|"
    r"bye|goodbye|all set|that'?s it|have a (?:good|nice|great) day)\b"
)
_THANKS = re.compile(r"^\W*(?:thanks?|thank you|cheers|great|perfect|brilliant|lovely|wonderful)")
_WHY = re.compile(r"\bwhy (?:do|would|is|are) (?:you|that|this)\b|\bwhat for\b|\bwhy\?")


@dataclass
class Message:
    """One guest message, read once."""

    text: str
    today: date
    low: str = ""
    refs: list[tuple[str, bool]] = field(default_factory=list)
    """Booking references in the message and whether each seems to be someone else's."""
    emails: list[str] = field(default_factory=list)
    phones: list[str] = field(default_factory=list)
    dob: date | None = None
    intents: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.low = self.text.lower()
        for m in REF.finditer(self.text):
            before = self.low[max(0, m.start() - 40) : m.start()]
            before = before[before.rfind("hl") + 1 :] if "hl" in before else before
            others = bool(_OTHER_PERSON.search(before)) and not re.search(r"\bmy\b\W*$", before)
            self.refs.append((f"HL{m[1]}", others))
        self.emails = EMAIL.findall(self.text)
        rest = EMAIL.sub(" ", REF.sub(" ", self.text))
        self.phones = [p.strip() for p in PHONE.findall(rest) if len(re.sub(r"\D", "", p)) >= 8]
        years = [
            f.day for f in find_dates(self.text, self.today) if f.day.year < self.today.year - 10
        ]
        self.dob = years[0] if years else None
        self.intents = detect_intents(self.low, self.today)

    def own_refs(self) -> list[str]:
        """References the guest gives as their own."""
        return [r for r, others in self.refs if not others]

    def other_refs(self) -> list[str]:
        """References the guest gives as somebody else's."""
        return [r for r, others in self.refs if others]

    @property
    def yes(self) -> bool:
        """An agreement with nothing hedging it."""
        return bool(_POS.search(self.low)) and not self.no

    @property
    def no(self) -> bool:
        """A refusal or a hedge ("hmm, wait, not yet")."""
        return bool(NEGATIVE.search(_NOT_NEGATIVE.sub(" ", self.low)))

    @property
    def hesitant(self) -> bool:
        """A hedge rather than a clear no."""
        return bool(
            re.search(
                r"\b(?:not yet|wait|hold on|hang on|hmm+|let me think|not sure|"
                r"unsure|i'?ll think|not now)\b",
                self.low,
            )
        )

    @property
    def farewell(self) -> bool:
        """The guest is done ("that's all, thanks")."""
        short_thanks = bool(_THANKS.search(self.low)) and len(self.low.split()) <= 8
        return bool(_FAREWELL.search(self.low)) or short_thanks

    @property
    def lacking(self) -> bool:
        """The guest says they don't have something ("I don't have the reference to hand")."""
        return bool(_LACKING.search(self.low))

    @property
    def why(self) -> bool:
        """The guest asks why the desk needs something."""
        return bool(_WHY.search(self.low))

    def room_type(self, current: str | None = None) -> str | None:
        """The room type asked for: the one after "to"/"for"/"into", else the last one named."""
        found = []
        for kind, pattern in ROOM_WORDS:
            found += [(m.start(), kind) for m in re.finditer(pattern, self.low)]
        found.sort()
        for start, kind in found:
            if (
                re.search(
                    r"\b(?:to|for|into|with|get|a|an)\s+(?:the\s+|a\s+)?$",
                    self.low[max(0, start - 12) : start],
                )
                and kind != current
            ):
                return kind
        others = [kind for _, kind in found if kind != current]
        return others[-1] if others else None

    def time(self) -> str | None:
        """The first time of day, as HH:MM."""
        clock = find_time(self.text)
        return clock.hhmm if clock else None


def detect_intents(low: str, today: date) -> list[str]:
    """What the guest asks for, in the order they ask (each kind once)."""
    hits: list[tuple[int, str]] = []

    def add(kind: str, pattern: str) -> None:
        m = re.search(pattern, low)
        if m:
            hits.append((m.start(), kind))

    add("cancel", r"\bcancel(?:l?ing|l?ed|s)?\b(?! that)|\bcancellation\b")
    add("breakfast", r"\bbreakfast\b")
    add("note", NOTE_WORDS)
    add("details", _DETAILS)
    add("late", _LATE)
    if not any(k == "late" for _, k in hits) and find_time(low):
        add("late", r"\b(?:check(?:ing)?[\s-]*out|leave|leaving|vacate|stay in the room)\b")
    add("room", _ROOM)
    has_date = any(f.day.year >= today.year for f in find_dates(low, today))
    late_arrival = re.search(r"\barriv\w* late|late arrival", low)
    moving = re.search(
        r"\b(?:move|reschedul\w*|postpone|push back|bring forward)\b[^.?!]{0,20}"
        r"\b(?:booking|reservation|stay|trip)\b",
        low,
    )
    if (
        re.search(_EXTEND, low)
        or moving
        or (
            (re.search(_CHANGE, low) or re.search(r"\binstead\b|\barriv\w*|\bcome\b", low))
            and (has_date or re.search(_DATE_WORDS, low))
            and not late_arrival
        )
        or (has_date and re.search(r"\bdates?\b(?! of birth)", low))
    ):
        m = re.search(_EXTEND, low) or re.search(_CHANGE + "|" + _DATE_WORDS + r"|\barriv", low)
        hits.append((m.start() if m else 0, "dates"))
    kinds = {k for _, k in hits}
    if "room" in kinds and "dates" in kinds and not (has_date or re.search(_EXTEND, low)):
        hits = [h for h in hits if h[1] != "dates"]
    if not hits and re.search(_INFO, low):
        hits.append((0, "info"))
    ordered: list[str] = []
    for _, kind in sorted(hits):
        if kind not in ordered:
            ordered.append(kind)
    return ordered
