"""Reading clients' English: numbers, postcodes, days, times, people, orders, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

ACCOUNT_RE = re.compile(r"\bFG\s*-?\s*(\d{4})\b", re.I)
SESSION_RE = re.compile(r"\bPS\s*-?\s*(\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|people|of us|more|image))",
                     re.I)  # fmt: skip
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
# a day said as the old one ("from the 16th", "not Friday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# conditions inside the goal: only go ahead when it costs nothing / when the deposit comes back
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
REFUND_ONLY = re.compile(
    r"\bonly if (?:i|we) (?:can )?(?:get|'ll get|will get) (?:my|our|the) deposit back|"
    r"\bif (?:i|we) (?:can'?t|cannot|won'?t|don'?t|wouldn'?t) get (?:my|our|the) deposit back"
    r".{0,40}\b(?:leave|don'?t|keep|forget)|\bas long as (?:i|we) get (?:my|our|the) deposit",
    re.I,
)
NUMBERS = {"a": 1, "an": 1, "one": 1, "another": 1, "two": 2, "three": 3, "four": 4, "five": 5,
           "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "both": 2}  # fmt: skip
NUM = r"(\d{1,2}|a|an|one|another|two|three|four|five|six|seven|eight|nine|ten|both)"


def number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def accounts(text: str) -> list[str]:
    return [f"FG{m.group(1)}" for m in ACCOUNT_RE.finditer(text)]


def sessions(text: str) -> list[str]:
    return [f"PS{m.group(1)}" for m in SESSION_RE.finditer(text)]


def postcodes(text: str) -> list[str]:
    """UK postcodes, written 'BS6 5QT' whatever spacing or case was said."""
    return [f"{m.group(1).upper()} {m.group(2).upper()}" for m in POSTCODE_RE.finditer(text)]


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the past months is next year's ("9 January" said in December)
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date, *, all_said: bool = False) -> list[date]:
    """Days said, in order; unless all_said, those said as the old one are dropped."""
    found = list(DATE_RE.finditer(text))
    if not all_said:
        kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
        found = kept or found
    return [d for d in (_date(m, today) for m in found) if d is not None]


def clock_times(text: str) -> list[str]:
    """Times of day said ("2pm", "14:00", "noon"), in order, as HH:MM."""
    found: list[tuple[int, str]] = []
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found.append((m.start(), f"{hour:02d}:{minute:02d}"))
    for m in re.finditer(r"\bnoon\b|\bmidday\b", text, re.I):
        found.append((m.start(), "12:00"))
    return [t for _, t in sorted(found)]


def session_kind(text: str) -> str | None:
    if re.search(r"\bnew-?born|\bbaby\b", text, re.I):
        return "newborn"
    if re.search(r"\bhead-?shots?\b|\blinkedin\b|\bprofile (?:photo|picture)", text, re.I):
        return "headshot"
    if re.search(r"\bfamily\b|\bkids\b|\bchildren\b|\ball of us\b", text, re.I):
        return "family"
    return None


RELATIVES = (r"(?:mum|mom|dad|mother|father|sister|brother|partner|wife|husband|son|daughter|"
             r"friend|colleague|nan|nana|gran|granny|grandma|grandad|grandpa|aunt|auntie|uncle|"
             r"cousin|niece|nephew)")  # fmt: skip
PAIRS = r"(?:parents|grandparents|in-laws|twins)"
PERSONS = r"(?:people|persons?|adults?|children|kids|guests?|relatives|grandparents|more)"


def people_total(text: str) -> int | None:
    """How many people in the photos in all ("six of us", "a family of five", "4 people")."""
    m = re.search(r"\bfamily of " + NUM + r"\b", text, re.I) or re.search(
        r"\b" + NUM + r"\s+(?:of us|people|persons|in total|altogether)\b", text, re.I
    )
    if m and m.group(1).lower() not in {"another", "a", "an"}:
        return number(m.group(1))
    if re.fullmatch(r"\s*(\d{1,2})\s*\.?\s*", text):
        return int(text.strip(" ."))
    return None


def people_added(text: str) -> int | None:
    """How many people are being added ("two more people", "my mum", "my parents")."""
    m = re.search(r"\b" + NUM + r"\s+(?:more\s+|extra\s+|other\s+)?" + PERSONS + r"\b", text, re.I)
    if m:
        return number(m.group(1))
    if re.search(r"\b(?:my|our|the|her|his)\s+" + PAIRS + r"\b", text, re.I):
        return 2
    if re.search(r"\b(?:my|our|her|his|a)\s+" + RELATIVES + r"\b", text, re.I):
        return len(re.findall(r"\b(?:my|our|her|his|a)\s+" + RELATIVES + r"\b", text, re.I))
    if re.fullmatch(r"\s*(\d{1,2})\s*\.?\s*", text):
        return int(text.strip(" ."))
    return None


def outfits_added(text: str) -> int:
    m = re.search(r"\b" + NUM + r"\s+(?:more\s+|extra\s+|additional\s+)?outfit", text, re.I)
    return number(m.group(1)) if m else 1


# -- orders ---------------------------------------------------------------------------------
PRODUCT_WORDS = [
    ("print_8x10", r"\b8\s*(?:x|by)\s*10\b"),
    ("print_11x14", r"\b11\s*(?:x|by)\s*14\b"),
    ("canvas_16x20", r"\bcanvas"),
    ("digital_all", r"\b(?:full|whole|entire|all)[- ](?:the )?(?:gallery|images|photos)\b|"
     r"\bdigital\b.*\ball\b|\ball\b.*\bdigital\b"),
    ("digital_10", r"\b(?:10|ten)[- ]?(?:image|photo|picture)|\bdigital\b.*\b(?:10|ten)\b|"
     r"\b(?:10|ten)\b.*\bdigital\b"),
    ("digital_5", r"\b(?:5|five)[- ]?(?:image|photo|picture)|\bdigital\b.*\b(?:5|five)\b|"
     r"\b(?:5|five)\b.*\bdigital\b"),
]  # fmt: skip
IMAGE_RE = re.compile(r"\b(?:image|photo|picture|shot|number|no\.?)\s*#?\s*(\d{1,3})\b|#(\d{1,3})",
                      re.I)  # fmt: skip
ITEM_SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s+plus\s+|;\s*", re.I)


def order_items(text: str) -> list[dict[str, object]]:
    """Items asked for: product, image number (None when not said) and quantity."""
    items: list[dict[str, object]] = []
    for chunk in ITEM_SPLIT.split(text):
        product = next((p for p, pattern in PRODUCT_WORDS if re.search(pattern, chunk, re.I)),
                       None)  # fmt: skip
        if product is None:
            continue
        image = None
        m = IMAGE_RE.search(chunk)
        if m:
            image = int(m.group(1) or m.group(2))
        quantity = 1
        if not product.startswith("digital"):
            rest = IMAGE_RE.sub(" ", chunk)
            rest = re.sub(r"\b\d+\s*(?:x|by)\s*\d+\b", " ", rest, flags=re.I)
            q = re.search(r"\b" + NUM + r"\b", rest, re.I)
            quantity = number(q.group(1)) if q else 1
        items.append({"product": product, "image": image, "quantity": quantity})
    return items


def image_numbers(text: str) -> list[int]:
    found = [int(m.group(1) or m.group(2)) for m in IMAGE_RE.finditer(text)]
    if not found:
        found = [int(n) for n in re.findall(r"^\s*#?(\d{1,3})\s*\.?\s*$", text)]
    return found


# -- answers --------------------------------------------------------------------------------
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
        r"great|lovely|that works|alright|all right|send it|order it)\b",
        low,
    ):
        return "yes"
    return None


def thanks_or_bye(text: str) -> bool:
    return bool(
        re.search(r"\b(?:thanks|thank you|cheers|bye|that'?s all|nothing else)\b", text, re.I)
    )


# -- requests -------------------------------------------------------------------------------
INTENTS: list[tuple[str, str]] = [
    ("gallery", r"\b(?:link|access|code|pin|password|log ?in)\b.{0,40}\bgallery|\bgallery\b.{0,40}"
     r"\b(?:link|access|code|pin|password|log ?in)\b|\bresend\b"),
    ("order", r"\border\b|\bprints?\b|\bcanvas|\bdigital\b|\b8\s*x\s*10\b|\b11\s*x\s*14\b|"
     r"\bpackage\b"),
    ("cancel", r"\bcancel"),
    ("lookup", r"\bhow much\b|\bowe\b|\bbalance\b|\bwhat time\b|\bwhen (?:do|does|is|should)\b"),
    ("add", r"\badd\b|\bextra (?:person|people|outfit)|\boutfits?\b|\b(?:one|two|\d) more "
     r"(?:person|people)\b|\banother person\b|\bbring (?:my|our|along)\b"),
    ("move", r"\b(?:move|reschedule|change the (?:date|day|time)|push|bring forward|put back|"
     r"rebook|different (?:day|date|time))\b"),
    ("book", r"\bbook\b|\bsession\b|\bshoot\b|\bhead-?shots?\b|\bnew-?born\b|\bphotos?\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|move|cancel|"
    r"book|add|send|resend|order|set|let|what|how)\b)",
    re.I,
)


@dataclass(frozen=True)
class Request:
    """One thing asked for: its intent and the clause it was said in."""

    intent: str
    text: str


def requests(message: str) -> list[Request]:
    """The requests of a message, in the order said (one per clause, the first that fits)."""
    out: list[Request] = []
    for clause in SPLIT.split(message):
        intent = next((i for i, pattern in INTENTS if re.search(pattern, clause, re.I)), None)
        if intent is not None:
            out.append(Request(intent, clause))
        elif out:
            # a clause with no request of its own ("If that's gone, 12:00 would do.") belongs
            # to the one before it
            out[-1] = Request(out[-1].intent, f"{out[-1].text} {clause}")
    kinds = {r.intent for r in out}
    if kinds & {"move", "cancel", "add", "order", "lookup", "gallery"}:
        # "my session" names the session being changed, not a new booking
        out = [r for r in out if r.intent != "book"]
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        out = [r for r in out if r.intent != "lookup"]
    return out


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"
