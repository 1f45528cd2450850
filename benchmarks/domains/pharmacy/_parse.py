"""Reading patient English for the refill desk's rule bot: ids, dates, times, names, intents.

Everything is relative to the desk's fixed clock (TODAY). Pick-up dates are today or later, dates
of birth carry a year before 2020.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from benchmarks.domains.pharmacy._seed import TODAY

MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
NUMBERS = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split())}
BRANCHES = [(r"\belm\b", "Elm Street"), (r"\briver ?side\b|\briver road\b", "Riverside"),
            (r"\bharbou?r\b", "Harbor Point")]

_MONTH = (r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_WEEKDAY = r"(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|rs|urday|\.)?"
_HOUR = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_AMPM = r"\s*(a\.?m\b\.?|p\.?m\b\.?)?"

INTENTS: list[tuple[str, str]] = [
    ("cancel", r"\bcancel(?!\s+(?:that|this)\b)|\bcall off\b|\bdon'?t need (?:the|my|that|this) "
     r"refill|\bstop (?:the|my) refill"),
    ("refills_left", r"how many refills|refills? (?:left|remaining|do i have|are left|i have)|"
     r"any refills|remaining refills|refill count|number of refills"),
    ("status", r"\bstatus\b|\bis (?:my|the|it)\b[^.?!]{0,30}\bready\b|\bready yet"
     r"|\b(?:refill|order|prescription) is ready\b|\bwhen (?:is )?my pick-?up\b"
     r"|\bwhere is my (?:refill|order)"),
    ("copay", r"co-?pays?\b|\bco pay|\bhow much (?:will|would|do|does|is|am)\b|\bcost\b|\bprice\b"
     r"|out of pocket|\bwhat (?:will|would|do) i (?:pay|owe)"),
    ("delivery", r"deliver|\bmail (?:it|them)|\bsend (?:it|them) (?:to|home)|\bship\b|"
     r"to my (?:house|home|door)"),
    ("transfer", r"\btransfer|\bmove\b[^.?!]{0,40}\bto (?:the )?(?:elm|river|harbo)|"
     r"\b(?:change|switch)\b[^.?!]{0,30}\b(?:branch|pharmacy|store|location)\b|"
     r"\bswitch\b[^.?!]{0,30}\bto (?:the )?(?:elm|river|harbo)"),
    ("book", r"\bpick(?:ing)?[ -]?(?:it |them |this |that )?up\b(?![ -]?(?:notice|notif|text|"
     r"alert))|\bpickup\b(?![ -]?(?:notice|notif|text|alert))|\bcollect\b|\bslot\b|"
     r"\bappointment\b|\bbook\b|\bcome (?:in|by)\b|\breschedul|\b(?:different|another|new) time"
     r"|\bchange (?:the |my )?(?:pick|time)"),
    ("phone", r"\bphone\b|\bmobile\b|\bcell\b|\bcontact number|\bnotices?\b|\b(?:my|new) number"),
    ("refill", r"\bre-?fill|\bre-?order|\bmore of my|\brun(?:ning)? (?:out|low)|"
     r"\bfill (?:my|the|it)"),
]
_PHONE_CHANGE = r"\b(?:update|change|new|different|switch|wrong|old|replace|correct)\b"
_FEE_QUESTION = r"\bhow much\b[^.?!]*deliver|deliver\w*\s+(?:fee|cost|charge)"
_DELIVERY_ACT = r"\b(?:have it|get it|switch|set (?:it )?up|instead|please deliver|deliver it)\b"

YES = (r"\b(?:yes|yeah|yep|yup|yea|sure|ok|okay|alright|all right|correct|confirm(?:ed)?|go ahead"
       r"|please do|do it|do that|sounds good|that works|works for me|perfect|great|fine|absolutely"
       r"|definitely|of course|right|please|exactly|go for it|book it|let'?s do it|proceed)\b")
HOLD = r"\b(?:not yet|not now|wait|hold on|hang on|hold off|not sure|let me think|hmm+)\b"
NO = (r"\b(?:no|nope|nah|don'?t (?:do|book|change|cancel|go ahead|proceed)|do not|rather not"
      r"|never ?mind|forget it|leave it)\b|" + HOLD)
FIRM_NO = (r"never ?mind|forget (?:it|about it)|leave it|don'?t bother|no,? thanks|no thank you|"
           r"don'?t do (?:it|that)|i'?ll pass|skip (?:it|that)|not interested")
CLOSING = (r"\b(?:that'?s (?:all|it|everything)|nothing else|no,? thanks?|no thank you|all good|"
           r"i'?m (?:good|all set|done)|bye|goodbye|have a (?:good|nice|great))\b")
CORRECTION = (r"\b(?:sorry|i mean|i meant|actually|rather|correction|my mistake|oops|scratch that"
              r"|make (?:that|it)|instead|wrong)\b")
ALSO = r"\b(?:also|too|as well|another|one more|second|other|both|plus)\b"

_STOP = set("""i hi hello hey yes yeah sure ok okay it it's its my the this that born date birth dob
last name thanks thank please sorry of and um well so oh here right good morning afternoon evening
elm street riverside river harbor harbour point dr mr mrs ms miss willow pharmacy no nope can could
would i'd i'm i've just also actually what how when is are do does not yep hmm the a an rx on at
for refill prescription pick up need want like mine surname family""".split())


@dataclass
class Parsed:
    """What one patient message says."""

    text: str
    rx_ids: list[tuple[int, str]] = field(default_factory=list)
    order_ids: list[tuple[int, str]] = field(default_factory=list)
    intents: list[tuple[int, str]] = field(default_factory=list)
    branches: list[tuple[int, str]] = field(default_factory=list)
    phone: str | None = None
    dob: str | None = None
    dob_partial: bool = False
    pickup_date: str | None = None
    time: str | None = None
    period: str | None = None
    last_name: str | None = None
    ordinal: int | None = None
    yes: bool = False
    no: bool = False
    firm_no: bool = False
    closing: bool = False
    correction: bool = False
    also: bool = False
    fee_question: bool = False
    words: set[str] = field(default_factory=set)

    @property
    def branch(self) -> str | None:
        """The last branch named."""
        return self.branches[-1][1] if self.branches else None


def parse(text: str, *, asked: str | None = None) -> Parsed:
    """Read one message; `asked` is what the desk asked for last (it helps short answers)."""
    low = text.lower()
    p = Parsed(text=text, words=set(re.findall(r"[a-z]+", low)))
    masked = _ids(p, text, asked)
    masked = _phone(p, masked)
    masked = _dates(p, masked, asked)
    _times(p, masked.lower())
    p.intents = _intents(low)
    p.branches = [(m.start(), name) for rx, name in BRANCHES for m in re.finditer(rx, low)]
    p.branches.sort()
    p.last_name = _last_name(masked, asked)
    _answers(p, low)
    return p


def _answers(p: Parsed, low: str) -> None:
    neutral = re.sub(r"\bno (?:problem|worries|rush)\b|\bnot a problem\b", " ", low)
    starts_yes = re.match(r"\W*" + YES, neutral) is not None
    p.no = bool(re.search(HOLD, neutral)) or (not starts_yes and bool(re.search(NO, neutral)))
    p.yes = bool(re.search(YES, neutral)) and not p.no
    p.firm_no = bool(re.search(FIRM_NO, neutral))
    p.closing = bool(re.search(CLOSING, neutral))
    p.correction = bool(re.search(CORRECTION, low))
    p.also = bool(re.search(ALSO, low))
    p.fee_question = bool(re.search(_FEE_QUESTION, low)) and not re.search(_DELIVERY_ACT, low)
    ordinals = [(r"\b(?:the )?(?:first|earliest|earlier)(?! thing)\b", 0),
                (r"\b(?:the )?(?:second|later one|next one)\b", 1),
                (r"\b(?:the )?third\b", 2), (r"\b(?:the )?(?:last one|latest one)\b", -1)]
    for rx, index in ordinals:
        if re.search(rx, low):
            p.ordinal = index
            break


def _ids(p: Parsed, text: str, asked: str | None) -> str:
    for m in re.finditer(r"\brx[\s#-]?(\d{5})\b|\bprescription (?:number |no\.? |#)?(\d{5})\b",
                         text, re.I):
        p.rx_ids.append((m.start(), "RX" + (m.group(1) or m.group(2))))
    for m in re.finditer(r"\brf[\s#-]?(\d{4})\b|\border (?:number |no\.? |#)?(\d{4})\b", text,
                         re.I):
        p.order_ids.append((m.start(), "RF" + (m.group(1) or m.group(2))))
    if asked == "rx" and not p.rx_ids:
        p.rx_ids += [(m.start(), "RX" + m.group(1)) for m in re.finditer(r"\b(\d{5})\b", text)]
    if asked == "order" and not p.order_ids:
        p.order_ids += [(m.start(), "RF" + m.group(1)) for m in re.finditer(r"\b(\d{4})\b", text)]
    text = re.sub(r"\b(?:rx|rf)[\s#-]?\d{4,5}\b", " ", text, flags=re.I)
    return re.sub(r"\b(?:prescription|order) (?:number |no\.? |#)?\d{4,5}\b", " ", text, flags=re.I)


def _phone(p: Parsed, text: str) -> str:
    m = re.search(r"(?<![\d/])(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})(?![\d/])",
                  text)
    if m is None:
        return text
    p.phone = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    return text[: m.start()] + " " + text[m.end():]


def _dates(p: Parsed, text: str, asked: str | None) -> str:
    low = text.lower()
    found: list[tuple[int, int, date | None, bool]] = []  # start, end, date, has year
    for rx, order in [(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b", "ymd"),
                      (r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", "mdy"),
                      (r"\b(\d{1,2})[.-](\d{1,2})[.-](\d{2,4})\b", "mdy"),
                      (_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s*(\d{4}))?", "Mdy"),
                      (r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH
                       + r"(?:,?\s*(\d{4}))?", "dMy")]:
        for m in re.finditer(rx, low):
            if not any(s <= m.start() < e for s, e, _, _ in found):
                found.append((m.start(), m.end(), *_make_date(m.groups(), order)))
    found += _relative_dates(low, found)
    birth_cue = re.search(r"\bborn\b|\bbirth|\bdob\b|\bbday\b", low) or asked in ("dob", "verify")
    for _start, _end, day, has_year in sorted(found):
        if day is None:
            continue
        if has_year and day.year < 2020:
            p.dob = day.isoformat()
        elif not has_year and birth_cue and asked == "dob":
            p.dob_partial = True
        elif day >= TODAY:
            p.pickup_date = day.isoformat()
    for start, end, _, _ in sorted(found, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def _make_date(groups: tuple[str | None, ...], order: str) -> tuple[date | None, bool]:
    if order == "ymd":
        y, mo, d = groups
    elif order == "mdy":
        mo, d, y = groups
        if mo and d and int(mo) > 12 >= int(d):
            mo, d = d, mo
    elif order == "Mdy":
        mon, d, y = groups
        mo = str(MONTHS[(mon or "jan")[:3]])
    else:
        d, mon, y = groups
        mo = str(MONTHS[(mon or "jan")[:3]])
    year = int(y) if y else None
    if year is not None and year < 100:
        year += 1900 if year > 26 else 2000
    try:
        day = date(year or TODAY.year, int(mo or 0), int(d or 0))
    except ValueError:
        return None, False
    if year is None and day < TODAY:
        day = day.replace(year=TODAY.year + 1)
    return day, year is not None


def _relative_dates(low: str, taken: list) -> list[tuple[int, int, date | None, bool]]:
    out: list[tuple[int, int, date | None, bool]] = []
    words = [(r"\bday after tomorrow\b", 2), (r"\btomorrow\b", 1), (r"\btoday\b|\btonight\b|"
             r"\bthis (?:afternoon|evening)\b|\blater today\b", 0), (r"\bthis weekend\b", None)]
    for rx, offset in words:
        for m in re.finditer(rx, low):
            if any(s <= m.start() < e for s, e, _, _ in taken + out):
                continue
            ahead = offset if offset is not None else (5 - TODAY.weekday()) % 7
            out.append((m.start(), m.end(), TODAY + timedelta(days=ahead), False))
    for m in re.finditer(r"\b(?:(next|this|coming|on)\s+)?" + _WEEKDAY + r"\b", low):
        ahead = (WEEKDAYS[m.group(2)] - TODAY.weekday()) % 7 or 7
        out.append((m.start(), m.end(), TODAY + timedelta(days=ahead), False))
    for m in re.finditer(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", low):
        day = _day_of_month(int(m.group(1)))
        out.append((m.start(), m.end(), day, False))
    return out


def _day_of_month(n: int) -> date | None:
    try:
        day = TODAY.replace(day=n)
    except ValueError:
        return None
    return day if day >= TODAY else day.replace(month=TODAY.month + 1)


def _times(p: Parsed, low: str) -> None:
    periods = [("morning", r"\bmorning\b|\bfirst thing\b"), ("afternoon", r"\bafternoon\b"),
               ("evening", r"\bevening\b|\bafter work\b|\bend of the day\b"),
               ("earliest", r"\bearliest\b|\bas (?:early|soon) as\b|\bsoonest\b"),
               ("latest", r"\blatest\b|\blast (?:slot|time)\b")]
    for name, rx in periods:
        if re.search(rx, low):
            p.period = name
            break
    minutes = _clock_time(low)
    if minutes is not None:
        p.time = f"{minutes // 60:02d}:{minutes % 60:02d}"


def _clock_time(low: str) -> int | None:
    hour_min = _word_time(low)
    if hour_min is None:
        return None
    hour, minute, suffix = hour_min
    if suffix.startswith("p") and hour < 12:
        hour += 12
    elif suffix.startswith("a") and hour == 12:
        hour = 0
    elif not suffix:
        pm = re.search(r"\bafternoon\b|\bevening\b|\btonight\b", low)
        am = re.search(r"\bmorning\b", low)
        if (pm and hour < 12) or (not am and 1 <= hour <= 7):
            hour += 12
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def _word_time(low: str) -> tuple[int, int, str] | None:
    def num(word: str) -> int:
        return int(word) if word.isdigit() else NUMBERS.get(word, 99)

    m = re.search(r"\b(\d{1,2})[:.](\d{2})" + _AMPM, low)
    if m:
        return int(m.group(1)), int(m.group(2)), (m.group(3) or "").replace(".", "")
    m = re.search(r"\b" + _HOUR + r"\s*(a\.?m\b\.?|p\.?m\b\.?)", low)
    if m:
        return num(m.group(1)), 0, m.group(2).replace(".", "")
    m = re.search(r"\bquarter (past|after|to|til+|before) " + _HOUR, low)
    if m:
        h = num(m.group(2))
        return (h, 15, "") if m.group(1) in ("past", "after") else ((h - 1) or 12, 45, "")
    m = re.search(r"\bhalf (?:past )?" + _HOUR, low)
    if m:
        return num(m.group(1)), 30, ""
    if re.search(r"\b(?:noon|midday|lunchtime|lunch time)\b", low):
        return 12, 0, "p"
    m = re.search(r"\b" + _HOUR + r"[ -](fifteen|thirty|forty[- ]five|o'?clock)\b", low)
    if m:
        extra = {"fifteen": 15, "thirty": 30}.get(m.group(2), 0 if "clock" in m.group(2) else 45)
        return num(m.group(1)), extra, ""
    m = re.search(r"\b(?:at|around|about|by|after|say)\s+(?:about\s+)?" + _HOUR
                  + r"\b(?!\s*(?:refills?|tablets|pills|days|weeks|months|minutes|of|mg))", low)
    if m:
        return num(m.group(1)), 0, ""
    return None


def _intents(low: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    spans: list[tuple[int, int]] = []
    for name, rx in INTENTS:
        for m in re.finditer(rx, low):
            if name == "refill" and any(s - 2 <= m.start() <= e + 25 for s, e in spans):
                continue  # "cancel my refill", "how many refills": not a refill request
            if name in ("cancel", "refills_left", "status"):
                spans.append((m.start(), m.end()))
            found.append((m.start(), name))
    kinds = {k for _, k in found}
    if "phone" in kinds and not re.search(_PHONE_CHANGE, low) and not re.search(r"\d{4}", low):
        found = [f for f in found if f[1] != "phone"]
    if "delivery" in kinds and "book" in kinds and re.search(
        r"instead of pick|not pick|from pick-?\s?up to", low
    ):
        found = [f for f in found if f[1] != "book"]
    if "status" in kinds and "book" in kinds and re.search(r"my pick-?up is (?:booked|set)", low):
        found = [f for f in found if f[1] != "book"]  # asks when it is booked, books nothing
    if "delivery" in kinds and "copay" in kinds and not re.search(r"co-?pay|co pay", low):
        found = [f for f in found if f[1] != "copay"]
    first: dict[str, int] = {}
    for pos, name in sorted(found):
        first.setdefault(name, pos)
    return sorted((pos, name) for name, pos in first.items())


def _is_name(word: str | None) -> bool:
    low = (word or "").lower()
    return bool(low) and low not in _STOP and low[:3] not in MONTHS and low[:3] not in WEEKDAYS


def _last_name(text: str, asked: str | None) -> str | None:
    cap = r"([A-Z][a-zA-Z'\-]+)"
    m = re.search(r"(?i:last name|surname|family name)(?:\s+is|\s*'s|:|\s*-)?\s+([A-Za-z][\w'\-]+)",
                  text)
    if m and _is_name(m.group(1)):
        return m.group(1).title()
    m = re.search(r"(?i:my name is|my name's|name is|this is|i am|i'm|it's|its|call me)\s+"
                  + cap + r"(?:\s+" + cap + r")?", text)
    if m and _is_name(m.group(2)):
        return m.group(2)
    if m and asked in ("last_name", "verify") and _is_name(m.group(1)):
        return m.group(1)
    m = re.search(r"\b" + cap + r"\s+" + cap + r"\b", text)
    if m and _is_name(m.group(1)) and _is_name(m.group(2)):
        return m.group(2)
    if asked not in ("last_name", "verify"):
        return None
    for word in re.findall(r"[A-Za-z][A-Za-z'\-]+", text):
        if word[0].isupper() and _is_name(word):
            return word
    bare = [w for w in re.sub(r"[^A-Za-z' -]", " ", text).split() if _is_name(w)]
    return bare[0].title() if len(bare) == 1 else None
