"""Reading customers' English: numbers, postcodes, days, times, cakes, writing, requests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from benchmarks.domains.bakery import _seed

CUSTOMER_RE = re.compile(r"\bPW\s*-?\s*(\d{4})\b", re.I)
ORDER_RE = re.compile(r"\bPC\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
MOBILE_RE = re.compile(r"\b07\d{3}\s?\d{3}\s?\d{3}\b")
# writing in quotes: straight or curly, single or double (an apostrophe inside a word is not one)
QUOTED_RE = re.compile(r"\"([^\"\n]{1,60})\"|“([^”\n]{1,60})”|‘([^’\n]{1,60})’|"
                       r"(?<![\w])'([^'\n]{1,60}?)'(?![\w])")  # fmt: skip
NO_WRITING = re.compile(
    r"\bno (?:writing|message|inscription|words)\b|\bnothing (?:written|on (?:it|top))\b|"
    r"\b(?:leave it|keep it) (?:plain|blank)\b|\bplain top\b|^\s*(?:none|nothing|no)\W*$",
    re.I,
)
WRITING_LEAD = re.compile(
    r"^\s*(?:(?:it|the writing|the message)\s+)?(?:(?:should|can|could|will|would)\s+)?"
    r"(?:(?:say|read|be)\s+)?(?:just\s+)?(?:please\s+)?(?:(?:write|put|pipe)\s+)?:?\s*",
    re.I,
)
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}  # fmt: skip
MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
         r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")  # fmt: skip
DAY_NAME = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?,?\s+)?"
DATE_RE = re.compile(
    r"\b" + DAY_NAME + r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r"\b|"
    r"\b" + DAY_NAME + MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b|"
    r"\b(20\d\d)-(\d\d)-(\d\d)\b|"
    r"\b(boxing day|christmas eve|christmas day|new year'?s eve|new year'?s day)\b",
    re.I,
)
NAMED_DAYS = {"boxing day": (12, 26), "christmas eve": (12, 24), "christmas day": (12, 25),
              "new years eve": (12, 31), "new years day": (1, 1)}  # fmt: skip
# a value said as the one being replaced ("from the 2nd", "instead of 10am") is not the new one
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis for|\bbooked for|"
    r"\bat the moment)\s*(?:the\s+|my\s+|on\s+|at\s+)?$",
    re.I,
)
TIME_RE = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|a\.m\.|p\.m\.)?(?![\w-])(?!\s*(?:inch|in\b|tier|"
    r"st\b|nd\b|rd\b|th\b|of\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|days?\b))",
    re.I,
)
SIZE_RE = re.compile(r"\b(\d{1,2})\s*(?:-\s*)?(?:inch(?:es)?\b|in\b|\"|”)", re.I)
TIERS_RE = re.compile(r"\b(one|single|two|double|three|four|[1-4])[- ]tier(?:s|ed)?\b|"
                      r"\b(two|three|four|[2-4]) tiers\b", re.I)  # fmt: skip
NUMBER_WORDS = {"one": 1, "single": 1, "two": 2, "double": 2, "three": 3, "four": 4}
FLAVOUR_RE = re.compile(r"\b(vanilla|chocolate|choc|lemon|carrot|red velvet|salted caramel)\b",
                        re.I)  # fmt: skip
GLUTEN_RE = re.compile(r"\bgluten[- ]?free\b|\bcoeliac\b|\bceliac\b|\bno gluten\b", re.I)
VEGAN_RE = re.compile(r"\bvegan\b|\bplant[- ]based\b", re.I)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |it is |delivery'?s |delivery is |there'?s |there is )?(?:free|no "
    r"(?:charge|fee|cost|extra))|\bas long as (?:it'?s|there'?s|it is) (?:free|no)|\bif "
    r"(?:it|there|delivery)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,40}\b(?:leave|don'?t|forget|keep|collect as)",
    re.I,
)


def customers(text: str) -> list[str]:
    return [f"PW{m.group(1)}" for m in CUSTOMER_RE.finditer(text)]


def orders(text: str) -> list[str]:
    return [f"PC-{m.group(1)}" for m in ORDER_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def district(postcode: str) -> str:
    return postcode.split()[0].upper()


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def mobiles(text: str) -> list[str]:
    """Mobile numbers, written '07NNN NNNNNN' whatever spacing was said."""
    out = []
    for m in MOBILE_RE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def unquoted(text: str) -> str:
    """The text with quoted writing blanked out, so '30th' in 'Happy 30th' is not a day."""
    return QUOTED_RE.sub(lambda m: " " * len(m.group(0)), text)


# -- days and times ----------------------------------------------------------------------------
def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        elif g[4]:
            return date(int(g[4]), int(g[5]), int(g[6]))
        else:
            month, day = NAMED_DAYS[g[7].lower().replace("'", "")]
        # a yearless day of a month already past is next year's ("9 January" said in December)
        year = today.year + 1 if month < today.month - 2 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, with_old: bool = False) -> list[date]:
    """Days said, in order; unless with_old, those said as the one being replaced are left out."""
    plain = unquoted(text)
    found = [
        m
        for m in DATE_RE.finditer(plain)
        if with_old or not OLD_MARK.search(plain[max(0, m.start() - 24) : m.start()])
    ]
    return [d for d in (_date(m, today) for m in found) if d is not None]


def clock(text: str, *, bare: bool = False) -> str | None:
    """The last time of day said ("2pm", "14:30", "noon"), as HH:MM; bare: "11" counts too."""
    plain = unquoted(text)
    found = None
    for m in TIME_RE.finditer(plain):
        if OLD_MARK.search(plain[max(0, m.start() - 24) : m.start()]):
            continue
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        half = (m.group(3) or "").lower().replace(".", "")
        if not (m.group(2) or half or bare) or hour > 23 or minute > 59:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        elif not half and not m.group(2) and 1 <= hour <= 6:
            hour += 12  # "collect at 3" in a shop open 9 to 5 is the afternoon
        found = f"{hour:02d}:{minute:02d}"
    if found is None and re.search(r"\bnoon\b|\bmidday\b|\blunchtime\b", plain, re.I):
        found = "12:00"
    return found


# -- the cake ----------------------------------------------------------------------------------
def sizes(text: str) -> list[int]:
    """Tier diameters said, largest first ("10-inch and 8-inch" -> [10, 8])."""
    said = [int(m.group(1)) for m in SIZE_RE.finditer(unquoted(text))]
    if not said and re.fullmatch(r"\s*\d{1,2}\s*(?:and\s+\d{1,2}\s*)*\W*", text):
        said = [int(n) for n in re.findall(r"\d{1,2}", text)]  # a bare answer: "8" or "10 and 8"
    return sorted(dict.fromkeys(said), reverse=True) if said else []


def tier_count(text: str) -> int | None:
    m = TIERS_RE.search(unquoted(text))
    if not m:
        return None
    word = (m.group(1) or m.group(2)).lower()
    return NUMBER_WORDS.get(word) or int(word)


def flavours(text: str) -> list[str]:
    """Flavours said, in order, leaving out one said as the old one ("from vanilla")."""
    plain = unquoted(text)
    out = []
    for m in FLAVOUR_RE.finditer(plain):
        if OLD_MARK.search(plain[max(0, m.start() - 24) : m.start()]):
            continue
        name = m.group(1).lower()
        out.append("chocolate" if name == "choc" else name)
    return out


def diet(text: str) -> str | None:
    plain = unquoted(text)
    if GLUTEN_RE.search(plain):
        return "gluten_free"
    if VEGAN_RE.search(plain):
        return "vegan"
    return None


def wants_delivery(text: str) -> bool:
    return bool(re.search(r"\bdeliver(?:y|ed|ing)?\b", unquoted(text), re.I))


def writing(text: str, *, bare: bool = False) -> str | None:
    """The writing asked for: the last quoted text, '' for none; bare: a whole answer counts."""
    said = [next(g for g in m.groups() if g is not None) for m in QUOTED_RE.finditer(text)]
    if said:
        return said[-1].strip()
    if NO_WRITING.search(text):
        return ""
    if bare:
        words = WRITING_LEAD.sub("", text.strip(), count=1)
        words = re.sub(r",?\s*(?:please|thanks|thank you)\W*$", "", words, flags=re.I)
        return words.strip().strip("\"'“”‘’").rstrip(".!").strip() or None
    return None


# -- answers and requests ----------------------------------------------------------------------
def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' (not a decision yet) or None."""
    low = text.lower().strip()
    if re.search(r"\b(?:hang on|hold on|wait|let me (?:check|think|ask)|not sure|one sec|"
                 r"give me a (?:minute|moment)|not yet)\b", low):  # fmt: skip
        return "hedge"
    if re.match(r"no (?:problem|worries)\b", low):
        low = low[3:]
    elif re.match(r"(?:no\b|nope|nah|don'?t|do not|leave it|not now|cancel that)", low) or (
        re.search(
            r"\b(?:rather not|leave it|don'?t (?:do|bother|go ahead)|forget it|"
            r"never mind)\b",
            low,
        )  # fmt: skip
    ):
        return "no"
    if re.search(
        r"\b(?:yes|yeah|yep|yup|sure|please do|go ahead|go for it|ok|okay|confirm|do it|"
        r"that'?s (?:fine|right|great|perfect)|correct|sounds good|fine|agreed|absolutely|"
        r"of course|please|proceed|lovely|perfect|great|that works|alright|all right|place it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b",
                          text, re.I))  # fmt: skip


INTENTS: list[tuple[str, str]] = [
    ("nuts", r"\bnut[- ]?free\b|\bnut allerg|\bnuts?\b|\bpeanuts?\b"),
    ("cancel", r"\bcancel"),
    ("move", r"\bmove\b|\bchange the (?:date|day)\b|\bdifferent (?:day|date)\b|\breschedule|"
     r"\bbring (?:it |the order )?forward\b|\bput (?:it |the order )?back\b"),
    ("order", r"^(?!.*\bmy (?:cake|order)\b).*\b(?:order|book|make|bake|like|want|need|get)\b"
     r"[^.?!]{0,30}\b(?:a|an|one)\b[^.?!]{0,50}\b(?:cake|tiers?|tiered)\b"),
    ("contact", r"\b(?:mobile|phone)(?: number)?\b|\bemail address\b|\bnew email\b"),
    ("lookup", r"\bhow much\b|\bwhat time\b|\bwhen (?:can|do|is|will|should)\b|\bbalance\b|"
     r"\bstill (?:owe|to pay|have to pay)\b|\bwhat(?:'s| is| does)\b[^.?!]{0,30}\b(?:say|"
     r"written|writing|on (?:it|top))\b|\bcheck (?:my|the) order\b|\btell me (?:about|what)\b|"
     r"\b(?:details|status) of\b"),
    ("inscription", r"\b(?:writing|wording|inscription|message|piped|piping|lettering)\b|"
     r"\bwritten on\b"),
    ("delivery", r"\bdeliver(?:y|ed|ing)?\b"),
    ("cake", r"\b(?:change|switch|swap|make|turn)\b[^.?!]{0,40}\b(?:flavour|vanilla|chocolate|"
     r"lemon|carrot|red velvet|salted caramel|vegan|gluten[- ]?free)\b"),
    ("slot", r"\bcollection time\b|\b(?:collect|pick)\w*\b[^.?!]{0,40}\b(?:at|for|to|by)\s+"
     r"\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\b|\b(?:later|earlier) (?:collection|pick-?up|time)\b"),
]  # fmt: skip
# a new clause: a sentence, or "and"/"also" before another request
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|\s+[-–—]\s+(?=(?:and |also |can you|could you|please)"
    r")|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?=(?:can you|could you|please|i'?d (?:also "
    r")?like|i want|i need|change|update|move|cancel|order|add|send|switch|set|let|what|how|"
    r"have it|have the cake|get it|deliver|make it)\b)",
    re.I,
)
DETAILS_OF_AN_ORDER = {"slot", "inscription", "delivery", "lookup", "cake"}


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def clauses(message: str) -> list[str]:
    """The message cut into clauses, never inside quoted writing."""
    masked = QUOTED_RE.sub(lambda m: "x" * len(m.group(0)), message)
    cuts, out, start = [(m.start(), m.end()) for m in SPLIT.finditer(masked)], [], 0
    for begin, end in cuts:
        out.append(message[start:begin])
        start = end
    out.append(message[start:])
    return [c for c in out if c.strip()]


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first intent that fits).

    A clause that asks for nothing ("It's order PC-7021.") is context for the request after it,
    or for the one before it when none follows.
    """
    out: list[Request] = []
    context = ""
    for clause in clauses(message):
        plain = unquoted(clause)
        intent = next((i for i, pattern in INTENTS if re.search(pattern, plain, re.I)), None)
        if intent is None:
            context += clause + " "
            continue
        out.append(Request(intent, context + clause))
        context = ""
    if context and out:
        out[-1] = Request(out[-1].intent, out[-1].text + " " + context)
    kinds = {r.intent for r in out}
    if "order" in kinds:
        # the details of a new cake (its time, its writing, a delivery) belong to that order
        text = " ".join(r.text for r in out if r.intent in DETAILS_OF_AN_ORDER | {"order"})
        first = next(r for r in out if r.intent == "order")
        out = [Request("order", text) if r is first else r for r in out
               if r is first or r.intent not in DETAILS_OF_AN_ORDER | {"order"}]  # fmt: skip
    elif "lookup" in kinds and kinds - {"lookup", "nuts"}:
        out = [r for r in out if r.intent != "lookup"]  # "... and tell me the total" asks no more
    return out


# -- saying things -----------------------------------------------------------------------------
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def say_day(day: str | date) -> str:
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{WEEKDAYS[d.weekday()]} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def say_cake(tiers: list[int], flavour: str, diet: str, *, serves: bool = True) -> str:
    what = {"none": "", "vegan": "vegan ", "gluten_free": "gluten-free "}[diet]
    if len(tiers) == 1:
        article = "an" if tiers[0] == 8 else "a"
        portions = f" (serves {_seed.SERVES[tiers[0]]})" if serves else ""
        return f"{article} {tiers[0]}-inch {what}{flavour} cake{portions}"
    sizes_said = " and ".join(f"{t}-inch" for t in tiers)
    portions = f", serves {sum(_seed.SERVES[t] for t in tiers)}" if serves else ""
    return f"a {len(tiers)}-tier {what}{flavour} cake ({sizes_said}{portions})"
