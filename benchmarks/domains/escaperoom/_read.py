"""Reading customers' English: references, vouchers, days, times, team sizes, ages, answers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

REF_RE = re.compile(r"\bLB\s*-?\s*(\d{4})\b", re.I)
VOUCHER_RE = re.compile(r"\bGV\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:the\s+)?"
DATE_RE = re.compile(
    r"\b" + WEEKDAY + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + WEEKDAY + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b",
    re.I,
)
HOLIDAYS = {"christmas eve": (12, 24), "christmas day": (12, 25), "boxing day": (12, 26),
            "new year's eve": (12, 31), "new year's day": (1, 1)}  # fmt: skip
DAY_WORD_RE = re.compile(
    r"\b(today|tonight|this (?:morning|afternoon|evening)|tomorrow|christmas eve|christmas day|"
    r"boxing day|new year'?s eve|new year'?s day|"
    r"(?:next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    re.I,
)
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bwere|\bbooked (?:in )?(?:on|for|"
    r"at))\s*(?:the\s+|my\s+|our\s+|on\s+|at\s+)?$",
    re.I,
)
TIME_RE = re.compile(
    r"(?<![£\d.:])\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|o'?clock)?\b(?!\s*(?:st|nd|rd|th)\b)", re.I
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple": 2,
           "a couple of": 2, "another": 1, "an extra": 1, "one more": 1}  # fmt: skip
NUM = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
ROOMS = [("vault", r"\bvault\b"), ("tomb", r"\btomb\b|\bpharaoh"),
         ("lab", r"\blab\b|\blaborator"), ("attic", r"\battic\b|\bhaunted\b")]  # fmt: skip


def refs(text: str) -> list[str]:
    return [f"LB{m.group(1)}" for m in REF_RE.finditer(text)]


def vouchers(text: str) -> list[str]:
    return [f"GV{m.group(1)}" for m in VOUCHER_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".").lower() for m in EMAIL_RE.finditer(text)]


CORRECTION = re.compile(r"\b(?:sorry|i mean|i meant|actually|correction|rather|no,)\W+", re.I)


def after_correction(text: str) -> str:
    """What was said after the last "sorry, I mean": the value that stands."""
    parts = CORRECTION.split(text)
    return parts[-1] if parts[-1].strip() else text


def number(word: str) -> int | None:
    word = word.lower().strip()
    return int(word) if word.isdigit() else NUMBERS.get(word)


def room(text: str) -> str | None:
    """The room named last."""
    found = [(m.start(), rid) for rid, pattern in ROOMS for m in re.finditer(pattern, text, re.I)]
    return max(found)[1] if found else None


def addon(text: str) -> str | None:
    if re.search(r"\bphoto|\bpictures\b", text, re.I):
        return "photo_pack"
    if re.search(r"\bbirthday|\bparty package", text, re.I):
        return "birthday"
    return None


# -- days and times ----------------------------------------------------------------------------
def _full_date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the months just gone is next year's ("5 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def _day_word(word: str, today: date) -> date:
    word = word.lower().replace("years", "year's")
    if word in HOLIDAYS:
        month, day = HOLIDAYS[word]
        return date(today.year + (1 if month < today.month - 3 else 0), month, day)
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word.startswith("next ") and word[5:] in WEEKDAYS:
        # "next Friday": the Friday of next week (Monday to Sunday)
        return today + timedelta(days=7 - today.weekday() + WEEKDAYS.index(word[5:]))
    if word in WEEKDAYS:
        return today + timedelta(days=(WEEKDAYS.index(word) - today.weekday()) % 7)
    return today  # today, tonight, this morning ...


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order ("Saturday" is the next one); unless all_said, old ones dropped."""
    found: list[tuple[int, date]] = []
    spans = []
    for m in DATE_RE.finditer(text):
        spans.append(m.span())
        d = _full_date(m, today)
        if d is not None:
            found.append((m.start(), d))
    for m in DAY_WORD_RE.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            found.append((m.start(), _day_word(m.group(1), today)))
    found.sort(key=lambda pair: pair[0])
    if not all_said:
        kept = [(i, d) for i, d in found if not OLD_MARK.search(text[max(0, i - 24) : i])]
        found = kept or found
    return [d for _, d in found]


def clock_time(text: str) -> str | None:
    """The last time of day said ("2pm", "14:00", "10 o'clock", "noon"), as HH:MM."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, suffix = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or suffix) or hour > 23 or minute > 59:
            continue
        if suffix == "pm" and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
        elif "clock" in suffix and hour < 10:
            hour += 12  # games run 10:00 to 21:00: "7 o'clock" is the evening
        found = (m.start(), f"{hour:02d}:{minute:02d}")
    noon = [n.start() for n in re.finditer(r"\bnoon\b|\bmidday\b", text, re.I)]
    if noon and (found is None or noon[-1] > found[0]):
        return "12:00"
    return found[1] if found else None


# -- the team ----------------------------------------------------------------------------------
TEAM_NOUN = r"(?:players?|people|persons|of us|guests|in (?:the|our) team|in total)"
KID_NOUN = r"(?:friends|boys|girls|kids|children|adults|teens|teenagers)"
NOT_A_COUNT = (r"(?!\s*(?:am|pm|o'?clock|noon|midday|[:.]\d|st\b|nd\b|rd\b|th\b|jan|feb|mar|apr|"
               r"may|jun|jul|aug|sep|oct|nov|dec))")  # fmt: skip
COUNT_RES = [
    # "four of us", but not "one of us can't come" or "two of us are under 16"
    re.compile(
        r"\b" + NUM + r"\s+" + TEAM_NOUN + r"\b(?!\s+(?:can'?t|cannot|won'?t|ha(?:ve|s) "
        r"(?:dropped|pulled)|dropped|pulled|more|extra|(?:are|is|will be) "
        r"(?:under|younger|aged|\d)))",
        re.I,
    ),  # fmt: skip
    re.compile(
        r"\b(?:make it|to|for|be|now|down to|up to|total of|team of|group of|party of)"
        r"\s+(?:the\s+)?" + NUM + r"\b" + NOT_A_COUNT,
        re.I,
    ),  # fmt: skip
]
KID_COUNT_RE = re.compile(r"\b" + NUM + r"\s+" + KID_NOUN + r"\b", re.I)
NUMW = NUM[1:-1]
MORE_RES = [
    re.compile(r"\b(" + NUMW + r"|a couple(?: of)?)\s+(?:more|extra|additional)\b", re.I),
    re.compile(
        r"\b(" + NUMW + r")\s+(?:players?|people|friends?)\s+(?:are|is|want to|wants to|"
        r"will be)\s+(?:joining|coming)",
        re.I,
    ),  # fmt: skip
    re.compile(r"\b(another|an extra)\s+(?:player|person|friend)\b", re.I),
]
FEWER_RES = [
    re.compile(r"\b(" + NUMW + r")\s+(?:fewer|less)\b", re.I),
    re.compile(
        r"\b(" + NUMW + r")\s+(?:of (?:us|them|our team|the team) )?(?:have |has )?"
        r"(?:dropped|pulled|can'?t come|cannot come|won'?t come)",
        re.I,
    ),  # fmt: skip
]


def _counts(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """(position, count) of each count said that isn't the old one ("from six players")."""
    out = []
    for m in pattern.finditer(text):
        if OLD_MARK.search(text[max(0, m.start() - 24) : m.start()]):
            continue
        n = number(m.group(1))
        if n is not None:
            out.append((m.start(), n))
    return out


def players(text: str, current: int | None = None, *, answer: bool = False) -> int | None:
    """How many players, said as a number of players, "make it six", or "two more" / fewer."""
    if answer:
        said = [n for n in _counts(re.compile(r"\b" + NUM + r"\b" + NOT_A_COUNT, re.I),
                                   after_correction(text))]  # fmt: skip
        if said:
            return said[-1][1]
    counts = sorted(c for pattern in COUNT_RES for c in _counts(pattern, text))
    if counts:
        return counts[-1][1]
    if current is not None:
        more = [number(m.group(1)) or 1 for p in MORE_RES for m in p.finditer(text)]
        fewer = [number(m.group(1)) or 1 for p in FEWER_RES for m in p.finditer(text)]
        if more or fewer:
            return current + sum(more) - sum(fewer)
    kids = _counts(KID_COUNT_RE, text)
    return kids[0][1] if kids else None


NONE_UNDER = re.compile(
    r"\b(?:no(?:body| one|ne)(?: of us| of them)?(?:'s| is| are| will be)?(?: under)?|"
    r"no under-?16s?|no (?:kids|children)|everyone(?:'s| is) (?:an adult|over)|(?:all|both) "
    r"(?:of us |of them )?(?:are )?(?:over 1[678]|1[6-9] or over))\b",
    re.I,
)
# "we're all adults", "both adults", "adults": no under-16s, unless children are mentioned
ALL_ADULTS = re.compile(r"^\W*(?:(?:we'?re|we are|they'?re|they are|it'?s)\s+)?(?:both |all |"
                        r"only |just )?(?:of us |of them )?(?:adults|grown-?ups)\b|\b(?:all|both|"
                        r"only|just) (?:of us |of them )?(?:are )?(?:adults|grown-?ups)\b",
                        re.I)  # fmt: skip
KID_WORDS = re.compile(r"\b(?:kids?|child|children|boys?|girls?|sons?|daughters?|teens?|"
                       r"teenagers?|under|aged?|year-olds?|years old)\b", re.I)  # fmt: skip
NO_ADULT = re.compile(
    r"\b(?:no adults?|no grown-?ups?|without (?:an )?adults?|(?:i|we)(?:'ll| will)? "
    r"(?:won'?t|will not|am not|'m not|are not|aren'?t|not) (?:be )?(?:playing|joining)|"
    r"(?:i'?m|i am|we'?re|we are) not (?:playing|joining)|not playing|drop(?:ping)? (?:them|him|"
    r"her|the \w+) off|just the (?:kids|children|boys|girls)|only (?:the )?(?:kids|children))\b",
    re.I,
)
ADULT = re.compile(
    r"\b(?:adults?|grown-?ups?|husband|wife|partner|parents?|dad|mum|mom|i'?m playing|"
    r"i am playing|we'?re (?:both )?playing|i'?ll (?:be )?play(?:ing)?|playing too|over 18|"
    r"me,? (?:and|my)|and i\b|(?:i|we)'?(?:m|re) (?:coming|joining))",
    re.I,
)
UNDER_RE = re.compile(r"\b" + NUM + r"\s+(?:of (?:us|them|the (?:players|team)) )?(?:are|is|"
                      r"will be|'re)\s+(?:under|younger than)\s*16|\b" + NUM + r"\s+under-?16s",
                      re.I)  # fmt: skip
AGES_RE = re.compile(r"\b(all\s+(?:(?:" + NUM[1:-1] + r")\s+)?)?(?:aged?|ages|who are|are|is)\s+"
                     r"(\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})*)\b(?!\s*(?:players|people|of us|"
                     r"am|pm|o'?clock|[:.]\d|st\b|nd\b|rd\b|th\b|jan|feb|mar|apr|may|jun|jul|aug|"
                     r"sep|oct|nov|dec))|\b(\d{1,2})-year-olds?", re.I)  # fmt: skip


def team(text: str, size: int | None, *, answer: bool = False) -> tuple[int | None, bool | None]:
    """(how many are under 16, whether an adult plays), each None when not said."""
    adult: bool | None = None
    if NO_ADULT.search(text):
        adult = False
    elif ADULT.search(text):
        adult = True
    m = UNDER_RE.search(text)
    if m:
        return number(m.group(1) or m.group(2)) or 0, adult
    under = None
    for a in AGES_RE.finditer(text):
        if a.group(3):
            ages = [int(a.group(3))]
        else:
            ages = [int(x) for x in re.findall(r"\d{1,2}", a.group(2))]
        young = [x for x in ages if x < 16]
        if a.group(1) and young:  # "all aged 12", "all five are 12"
            under = (under or 0) + (number(a.group(1).split()[1]) if len(a.group(1).split()) > 1
                                    else size or len(young))  # fmt: skip
        else:
            under = (under or 0) + len(young)
    grown = ALL_ADULTS.search(text) and not KID_WORDS.search(text)
    if under is None and (NONE_UNDER.search(text) or grown or (
            answer and re.match(r"\W*no\b", text, re.I))):  # fmt: skip
        return 0, True if adult is None else adult
    return under, adult


# -- names -------------------------------------------------------------------------------------
FILLER = re.compile(
    r"\b(?:it'?s|it is|my|name|names|is|i'?m|i am|this is|surname|the|lead|booker|booker's|"
    r"of|sure|yes|ok|okay|hi|hello|oh|thanks|thank you|please|called|and|email|full)\b",
    re.I,
)


def full_name(text: str, *, answer: bool = False) -> str | None:
    """A full name: "my name is Megan Ford", or a short answer to the desk's question."""
    m = re.search(r"\b(?:my name is|name'?s|i'?m|i am|this is)\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)"
                  r"+)", text)  # fmt: skip
    if m:
        return m.group(1)
    if answer:
        text = after_correction(text)
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", FILLER.sub(" ", EMAIL_RE.sub(" ", text)))
        if 2 <= len(words) <= 4:
            return " ".join(w[:1].upper() + w[1:] for w in words)
    return None


NOT_A_SURNAME = r"(?!(?:It|I|My|The|And|Please|Thanks|Sorry|Yes|No|Our|We|Can|Could|What|Is|Hi)\b)"
SURNAME_SAID = re.compile(
    r"\bsurname(?: is|'s|:)?\s+([A-Z][A-Za-z'-]+)|\b(LB\s*-?\s*\d{4})\W{1,3}(?:(?:and |surname |"
    r"it'?s )+)?" + NOT_A_SURNAME + r"([A-Z][a-z'-]+)\b"
)


def said_with_ref(text: str) -> tuple[str | None, str | None]:
    """A surname said with the reference ("LB2014, Lambert") or as "my surname is Lambert"."""
    m = SURNAME_SAID.search(text)
    if not m:
        return None, None
    if m.group(1):
        return None, m.group(1)
    return "LB" + re.sub(r"\D", "", m.group(2)), m.group(3)


def surname(text: str) -> str | None:
    """A surname given as an answer: the last word that isn't filler."""
    text = after_correction(text)
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", FILLER.sub(" ", EMAIL_RE.sub(" ", text)))
    return words[-1] if words and len(words) <= 3 else None


# -- answers -----------------------------------------------------------------------------------
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
        r"great|lovely|that works|alright|all right)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests --------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("voucher", r"\bvoucher\b|\bGV\s*-?\d{4}"),
    ("slots", r"\b(?:free|available|availability|open)\b.{0,25}\b(?:times?|slots?)\b|\b(?:times?|"
     r"slots?)\b.{0,25}\b(?:free|available|left|open)\b|\bavailability\b|\bwhat times\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bwhat time\b|\bhow many (?:players|people)\b|\bhow much (?:did|have) (?:we|i) "
     r"pa(?:y|id)\b|\bdetails\b|\bwhen (?:is|do|does|should)\b|\bget there\b|\bwhat'?s booked\b"),
    ("players", r"\b(?:more|extra|additional|fewer|less|another)\s+(?:players?|people|friends?|of "
     r"us)\b|\bmake it " + NUM + NOT_A_COUNT + r"|\bnumber of players\b|\b(?:dropped|drop|"
     r"pulled) out\b|\bplayers?\b.{0,30}\b(?:instead|to \w+)\b|\b(?:add|join)\b.{0,30}\b"
     r"(?:players?|friends?)\b|\b\w+ more\b.{0,15}\b(?:players?|people|friends?)\b|\bfriends?"
     r"\b.{0,30}\b(?:join|coming)\b|\b(?:down|up) to \w+(?: players| people| of us)?\b|"
     r"\bcan'?t come\b"),
    ("extra", r"\bphoto|\bbirthday (?:package|pack|add-?on|extra)|\badd\b.{0,40}\bbirthday\b"),
    ("move", r"\b(?:move|reschedule|push|bring (?:it |us )?forward|put (?:it |us )?back|switch|"
     r"swap)\b|\bchange (?:the |our )?(?:date|time|day|slot)\b|\b(?:another|different) (?:day|"
     r"date|time)\b"),
    ("book", r"\bbook\b|\breserve\b|\b(?:we|i)'?d like\b.{0,25}\b(?:vault|tomb|lab|attic|room|"
     r"game)\b|\bcan we (?:play|do)\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|book|add|"
    r"make|put|push|switch|tell|give|what|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and what was said about it."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        if re.search(INTENTS[-1][1], clause, re.I) and re.search(INTENTS[0][1], clause, re.I):
            out.append(Request("book", clause))  # "book ... with my voucher GV7104"
            continue
        for intent, pattern in INTENTS:
            if re.search(pattern, clause, re.I):
                out.append(Request(intent, clause))
                break
    kinds = {r.intent for r in out}
    if "book" in kinds:
        out = [r for r in out if r.intent != "voucher"]  # a voucher to pay for the booking
    if "lookup" in kinds and kinds & {"move", "cancel", "players", "extra", "book"}:
        out = [r for r in out if r.intent != "lookup"]
    merged: list[Request] = []
    for r in out:
        same = next((i for i, m in enumerate(merged) if m.intent == r.intent), None)
        if same is None:
            merged.append(r)
        else:
            merged[same] = Request(r.intent, merged[same].text + " " + r.text)
    if len(merged) == 1:
        # one request: the whole message is about it (a reference may be in another sentence)
        return [Request(merged[0].intent, message)]
    return merged


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"
