"""Reading tenants' English: references, dates of birth, days, phones, problems and requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

TENANCY_RE = re.compile(r"\bOH\s*-?\s*(\d{5})\b", re.I)
REPAIR_RE = re.compile(r"\bRP\s*-?\s*(\d{4})\b", re.I)
COMPLAINT_RE = re.compile(r"\bCP\s*-?\s*(\d{4})\b", re.I)
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
ADDRESS_RE = re.compile(
    r"\b(?:(?i:flat)\s+(\d+),?\s+)?(\d+)\s+([A-Z][a-z]+\s+(?:Court|House|Road|Lane|Street|Close|Way|"
    r"Grove|Rise|Drive|Walk))\b"
)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"(?:,?\s+(\d{4}))?\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b|"
    r"\b(\d{4})-(\d\d)-(\d\d)\b|"
    r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b",
    re.I,
)
BARE_WEEKDAY = re.compile(r"\b(?:on|this|next|for)?\s*(monday|tuesday|wednesday|thursday|friday)"
                          r"\b(?!,?\s+(?:the\s+)?\d)", re.I)  # fmt: skip
# a day said as the old one ("from the 14th", "not Monday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bdue (?:on)?|\bbooked "
    r"(?:in )?(?:on|for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|cost))|"
    r"\bif (?:i|we) (?:have|need|'?ve got) to pay\b|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|a recharge)"
    r".{0,40}\b(?:leave|don'?t|forget|own|myself)",
    re.I,
)


def tenancies(text: str) -> list[str]:
    return [f"OH{m.group(1)}" for m in TENANCY_RE.finditer(text)]


def repairs(text: str) -> list[str]:
    return [f"RP{m.group(1)}" for m in REPAIR_RE.finditer(text)]


def complaints(text: str) -> list[str]:
    return [f"CP{m.group(1)}" for m in COMPLAINT_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def addresses(text: str) -> list[str]:
    """Addresses said ("Flat 2, 8 Hazel Court"), in the system's spelling."""
    out = []
    for m in ADDRESS_RE.finditer(text):
        flat = f"Flat {m.group(1)}, " if m.group(1) else ""
        out.append(f"{flat}{m.group(2)} {m.group(3)}")
    return out


def _date(m: re.Match[str], today: date) -> tuple[date | None, bool]:
    """The day a match names, and whether a year was said."""
    g = m.groups()
    try:
        if g[0]:
            day, month, year = int(g[0]), MONTHS[g[1].lower()[:3]], g[2]
        elif g[3]:
            day, month, year = int(g[4]), MONTHS[g[3].lower()[:3]], g[5]
        elif g[6]:
            return date(int(g[6]), int(g[7]), int(g[8])), True
        else:
            return date(int(g[11]), int(g[10]), int(g[9])), True
        if year:
            return date(int(year), month, day), True
        # a yearless day in the past months is next year's ("5 January" said in December)
        return date(today.year + 1 if month < today.month - 3 else today.year, month, day), False
    except (ValueError, KeyError):
        return None, False


def birth_date(text: str) -> str | None:
    """A date of birth said with its year, as YYYY-MM-DD."""
    for m in DATE_RE.finditer(text):
        day, with_year = _date(m, date(2026, 1, 1))
        if day is not None and with_year and day.year < 2015:
            return day.isoformat()
    return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said from today on, in order; unless all_said, those said as the old one dropped."""
    found = [m for m in DATE_RE.finditer(text) if (_date(m, today)[0] or today) >= today]
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    days = [d for d in (_date(m, today)[0] for m in found) if d is not None]
    if not days:
        for m in BARE_WEEKDAY.finditer(text):
            if all_said or not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
                ahead = (WEEKDAYS.index(m.group(1).lower()) - today.weekday() - 1) % 7 + 1
                days.append(today + timedelta(days=ahead))
    return days


def window(text: str) -> str | None:
    """'AM' or 'PM' for the part of the day said first, or None."""
    am = re.search(r"\bmorning\b|\bam\b|\bbefore (?:noon|midday|12)", text, re.I)
    pm = re.search(r"\bafternoon\b|\bpm\b|\bafter (?:noon|midday|lunch|12)", text, re.I)
    if am and (not pm or am.start() < pm.start()):
        return "AM"
    return "PM" if pm else None


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think)|not sure|one moment)\b", low):
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now)", low) or re.search(
        r"\b(?:rather not|leave it|don'?t (?:do|bother|book|go ahead)|forget it)\b", low
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|sure|please do|go ahead|ok|okay|confirm|do it|that'?s fine|correct|"
        r"sounds good|fine|agreed|absolutely|of course|please|proceed|book it|happy|perfect|"
        r"great|lovely|that works|alright|all right|i accept|i agree)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- problems: what is wrong, its trade, its priority and whether it is rechargeable ---------
@dataclass(frozen=True)
class Problem:
    """One kind of repair the desk books."""

    key: str
    label: str
    trade: str
    priority: str
    pattern: str
    recharge: str = ""


# the first that fits wins within a trade; order from most to least severe
PROBLEMS = [
    Problem("leak_uncontained", "water coming through the ceiling", "plumbing", "emergency",
            r"\bthrough (?:the|my|our) (?:\w+ )?ceiling|\bpouring\b|\bflood|\bburst pipe|"
            r"\bcan'?t (?:stop|turn off) the (?:water|leak)"),
    Problem("no_power", "no electricity", "electrical", "emergency",
            r"\bno (?:power|electricity|electrics|lights)\b|\bsparking\b|\bburning smell|"
            r"\b(?:power|electrics?) (?:is |are |has |have )?(?:gone|off|out|tripped)"),
    Problem("insecure_door", "an outside door that won't lock", "joinery", "emergency",
            r"\b(?:front|back) door (?:won'?t|doesn'?t|can'?t|will not|does not) (?:lock|shut|"
            r"close)|\bbroken in\b|\bbreak-?in\b"),
    Problem("lock_change", "a lock change after lost keys", "joinery", "urgent",
            r"\blost (?:my|our|the|all (?:my|our)) (?:\w+ )?keys?\b|\bkeys? (?:were|was|got) "
            r"(?:lost|stolen)|\bchange the locks?\b", "lock_change"),
    Problem("no_heating", "no heating", "heating", "urgent",
            r"\bno heating\b|\bheating (?:isn'?t|is not|has stopped|stopped|not|won'?t)|"
            r"\bboiler\b|\bradiators? (?:are |is )?(?:cold|not)"),
    Problem("no_hot_water", "no hot water", "heating", "urgent", r"\bno hot water\b"),
    Problem("toilet_misuse", "a toilet blocked by wipes, nappies or objects", "plumbing",
            "urgent", r"\btoilet\b.{0,60}\b(?:wipes|nappy|nappies|toy|flushed)\b|\b(?:wipes|"
            r"nappy|nappies|toy)\b.{0,60}\btoilet\b", "toilet_misuse"),
    Problem("blocked", "a blockage", "plumbing", "urgent",
            r"\bblocked\b|\bwon'?t drain\b|\bnot draining\b"),
    Problem("dripping_tap", "a dripping tap", "plumbing", "routine",
            r"\btap\b.{0,20}\b(?:drip|leak)|\bdripping tap\b"),
    Problem("leak", "a leak", "plumbing", "urgent", r"\bleak"),
    Problem("window_damage", "a window broken by the household", "glazing", "urgent",
            r"\b(?:window|glass|pane)\b.{0,80}\b(?:my (?:son|daughter|kids?)|the kids|our "
            r"(?:son|daughter|kids?)|football|ball|my fault|our fault|i (?:broke|smashed))|"
            r"\b(?:football|ball|my (?:son|daughter))\b.{0,80}\b(?:window|glass|pane)\b",
            "reglazing"),
    Problem("window", "a broken window", "glazing", "urgent",
            r"\b(?:window|pane|glass)\b.{0,30}\b(?:broken|smashed|cracked)|\b(?:broken|smashed|"
            r"cracked) (?:\w+ )?(?:window|pane|glass)"),
    Problem("door_damage", "an internal door damaged by the household", "joinery", "routine",
            r"\b(?:kicked|punched|damaged|broke)\b.{0,40}\bdoor\b", "internal_door"),
    Problem("joinery", "a cupboard or door repair", "joinery", "routine",
            r"\bcupboard|\bdrawer|\bworktop|\bdoor\b.{0,30}\b(?:sticking|sticks|handle|hinge|"
            r"off|loose)|\bbanister|\bskirting"),
    Problem("electrics", "a socket, switch or light fault", "electrical", "routine",
            r"\bsocket|\bswitch\b|\blight (?:fitting|isn'?t|not|doesn'?t)|\bextractor"),
]  # fmt: skip

ROOMS = ["bathroom", "kitchen", "living room", "lounge", "hall", "landing", "bedroom",
         "second bedroom", "box room"]  # fmt: skip
VULNERABLE_WORDS = [
    ("young_child", r"\bbaby\b|\bnew-?born\b|\btoddler\b|\bunder (?:5|five)s?\b|\byoung child"),
    ("disability", r"\bwheelchair\b|\bdisab|\bregistered blind\b|\bmobility\b"),
    ("health", r"\boxygen\b|\bdialysis\b|\bcopd\b|\basthma\b|\bchemo|\bseriously ill\b|"
               r"\bheart condition\b"),
    ("age", r"\bover (?:75|80|eighty)\b|\belderly\b|\bfrail\b"),
]  # fmt: skip


def problems(text: str) -> list[Problem]:
    """The problems a message describes, one per trade (the most severe), in the order said."""
    found: dict[str, tuple[int, Problem]] = {}
    for p in PROBLEMS:
        m = re.search(p.pattern, text, re.I)
        if m and p.trade not in found:
            found[p.trade] = (m.start(), p)
    return [p for _, p in sorted(found.values(), key=lambda x: x[0])]


def rooms(text: str) -> list[str]:
    low = text.lower()
    out = [r for r in ROOMS if re.search(rf"\b{r}s?\b", low)]
    if "second bedroom" in out and "bedroom" in out and low.count("bedroom") == 1:
        out.remove("bedroom")
    return out


def vulnerability(text: str) -> str | None:
    return next((k for k, pattern in VULNERABLE_WORDS if re.search(pattern, text, re.I)), None)


# -- requests --------------------------------------------------------------------------------
NEIGHBOUR = r"\b(?:neighbou?r|upstairs|downstairs|next door|flat (?:above|below))\b"
INTENTS: list[tuple[str, str]] = [
    ("escalate", r"\bstage (?:2|two)\b|\bescalat"),
    ("complaint", r"\bcomplain|\bcomplaint\b"),
    ("neighbour", NEIGHBOUR + r".{0,80}\b(?:when|appointment|coming|booked|visit)\b|"
     r"\b(?:when|appointment|coming|booked|visit)\b.{0,80}" + NEIGHBOUR),
    ("vulnerable", r"\bvulnerab|\bjust had a baby\b|\bnew-?born\b|\bwheelchair\b|\bdisab|"
     r"\boxygen\b|\bdialysis\b|\bregistered blind\b"),
    ("access", r"\b(?:rings?|calls?|phones?|texts?)\b.{0,50}\bbefore (?:they|you|the|coming|"
     r"arriving|turning up)|\bcall[- ]ahead\b|\baccess arrangements?\b"),
    ("cancel", r"\bcancel"),
    ("move", r"\b(?:move|reschedule|rearrange|put back|bring forward)\b|\bchange\b.{0,40}\b(?:"
     r"appointment|visit|booking)\b|\b(?:another|different|later|new) (?:day|date)\b"),
    ("lookup", r"\bwhen (?:is|are|will|'s)\b|\bwhat (?:time|day)\b|\bwhich day\b"),
    ("damp", r"\bdamp\b|\bmou?ld\b|\bcondensation\b"),
    ("repair", "|".join(f"(?:{p.pattern})" for p in PROBLEMS)
     + r"|\breport (?:a|another) repair\b|\bneeds? (?:fixing|repairing)\b|\bbroken\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"book|add|note|put|make|log|send|tell me|let|what|when|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent, the clause it was said in, and a problem's key."""

    intent: str
    text: str
    key: str = ""
    message: str = ""


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause; a repair per problem)."""
    if (
        re.search(NEIGHBOUR, message, re.I)
        and re.search(r"\b(?:when|appointment|coming|booked|visit)\b", message, re.I)
        and not re.search(r"\b(?:into|through) (?:my|our)\b", message, re.I)
    ):
        # another household's repair, however it is put: one request, the whole message
        return [Request("neighbour", message, message=message)]
    out: list[Request] = []
    for clause in SPLIT.split(message):
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                if intent == "repair":
                    found = problems(clause)
                    out += [Request("repair", clause, p.key, message) for p in found] or [
                        Request("repair", clause, message=message)
                    ]
                else:
                    out.append(Request(intent, clause, message=message))
                break
    kinds = {r.intent for r in out}
    if "escalate" in kinds:
        # "I complained last week ... escalate it" is about the complaint already made
        out = [r for r in out if r.intent != "complaint"]
    if kinds & {"move", "cancel", "lookup", "neighbour", "complaint", "escalate"}:
        # "my repair" or "the leak" names the appointment being talked about, not a new repair
        out = [r for r in out if r.intent != "repair"]
    if "lookup" in kinds and len(kinds - {"lookup", "repair"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def say_day_year(iso: str) -> str:
    return f"{say_day(iso)} {iso[:4]}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"
