"""Reading customers' English: references, days, times, ages, weights, names, answers, intents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

REF_RE = re.compile(r"\bSW\s*-?\s*(\d{4})\b", re.I)
VOUCHER_RE = re.compile(r"\bGV\s*-?\s*(\d{4})\b", re.I)
EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE_RE = re.compile(r"\b(0\d{4})\s?(\d{3})\s?(\d{3})\b|\b(0\d{3})\s?(\d{3})\s?(\d{4})\b")
TIME_RE = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm)?\b(?!\s*(?:st|nd|rd|th|of|jan|feb|"
                     r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|kg|kilo|stone|st\b|year|yr))",
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
# a day said as the old one ("from the 20th", "not Saturday") is not the one wanted
OLD_MARK = re.compile(
    r"(?:\bfrom|\bnot|instead of|rather than|\bcurrently|\bwas|\bis on|\bbooked (?:in )?(?:on|"
    r"for))\s*(?:the\s+|my\s+|on\s+)?$",
    re.I,
)
# a condition inside the goal: only go ahead when it costs nothing
FREE_ONLY = re.compile(
    r"\bonly if (?:it'?s |there'?s |it is |there is )?(?:free|no (?:fee|charge|extra))|"
    r"\bif (?:it|there)(?:'s| is)? (?:costs?|a (?:fee|charge)|any (?:fee|charge)|extra)"
    r".{0,30}\b(?:leave|don'?t|forget|keep)|\bas long as (?:it'?s|there'?s) (?:free|no)",
    re.I,
)
CONDITION_WORDS = (
    ("asthma", r"\basthma|\binhaler"),
    ("allergy", r"\ballerg|\banaphyla|\bepipen|\bepi-pen"),
    ("diabetes", r"\bdiabet|\binsulin"),
    ("epilepsy", r"\bepilep|\bseizure"),
    ("heart", r"\bheart|\bcardiac|\bpacemaker"),
)


def refs(text: str) -> list[str]:
    return [f"SW{m.group(1)}" for m in REF_RE.finditer(text)]


def vouchers(text: str) -> list[str]:
    return [f"GV-{m.group(1)}" for m in VOUCHER_RE.finditer(text)]


def emails(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in EMAIL_RE.finditer(text)]


def phones(text: str) -> list[str]:
    """Phone numbers, written 'NNNNN NNNNNN' whatever spacing was said."""
    out = []
    for m in PHONE_RE.finditer(text):
        digits = "".join(g for g in m.groups() if g)
        out.append(f"{digits[:5]} {digits[5:]}")
    return out


def _date(m: re.Match[str], today: date) -> date | None:
    g = m.groups()
    try:
        if g[0]:
            day, month = int(g[0]), MONTHS[g[1].lower()[:3]]
        elif g[2]:
            day, month = int(g[3]), MONTHS[g[2].lower()[:3]]
        else:
            return date(int(g[4]), int(g[5]), int(g[6]))
        # a yearless day in the months well past is next year's
        year = today.year + 1 if month < today.month - 3 else today.year
        return date(year, month, day)
    except (ValueError, KeyError):
        return None


def dates(text: str, today: date) -> list[date]:
    """Days said, in order; those said as the old one are dropped when another is said."""
    found = list(DATE_RE.finditer(text))
    kept = [m for m in found if not OLD_MARK.search(text[max(0, m.start() - 24) : m.start()])]
    return [d for d in (_date(m, today) for m in (kept or found)) if d is not None]


def clock_time(text: str) -> str | None:
    """The last time of day said ("2pm", "14:00", "9.30am"), as HH:MM; 'morning' is not one."""
    found = None
    for m in TIME_RE.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or hour > 23:
            continue
        if half == "pm" and hour < 12:
            hour += 12
        found = f"{hour:02d}:{minute:02d}"
    if found is None and re.search(r"\bnoon\b|\bmidday\b", text, re.I):
        found = "12:00"
    return found


def part_of_day(text: str) -> str | None:
    if re.search(r"\bmorning\b|\bearl(?:y|ier) one\b|\bfirst one\b", text, re.I):
        return "am"
    if re.search(r"\bafternoon\b|\blater one\b|\bsecond one\b", text, re.I):
        return "pm"
    return None


def age(text: str, *, bare: bool = False) -> int | None:
    """An age: 'aged 9', '9 years old', 'he's 9', 'is 10'; a bare number only when asked."""
    m = re.search(r"\b(?:aged?|age is|is|he'?s|she'?s|they'?re|turns?)\s+(\d{1,2})\b(?!\s*(?:kg|"
                  r"kilo|stone|st\b|:|\.\d|am|pm))|\b(\d{1,2})\s*(?:years?|yrs?)(?:\s*old)?\b|"
                  r"\b(\d{1,2})\s*-?\s*year-old\b", text, re.I)  # fmt: skip
    if m:
        return int(next(g for g in m.groups() if g))
    if bare:
        m = re.fullmatch(r"\D*?(\d{1,2})\D*", text.strip())
        if m:
            return int(m.group(1))
    return None


def weight(text: str, *, bare: bool = False) -> int | None:
    """A weight in kg: '38 kg', '38 kilos', '12 stone' (and '12 stone 6'); bare numbers as kg."""
    m = re.search(r"\b(\d{1,3})\s*(?:st|stone)(?:\s*(\d{1,2})\s*(?:lb|lbs|pounds?)?)?\b", text,
                  re.I)  # fmt: skip
    if m:
        pounds = int(m.group(1)) * 14 + int(m.group(2) or 0)
        return round(pounds * 0.4536)
    m = re.search(r"\b(\d{1,3})(?:\.\d)?\s*(?:kg|kgs|kilos?|kilograms?)\b", text, re.I)
    if m:
        return int(m.group(1))
    if bare:
        m = re.fullmatch(r"\D*?(\d{2,3})\D*", text.strip())
        if m:
            return int(m.group(1))
    return None


NOT_NAMES = {
    "i", "hi", "hello", "please", "the", "my", "our", "can", "could", "add", "move", "cancel",
    "change", "update", "send", "thanks", "sorry", "sw", "gv", "saltwind", "harbour", "explorer",
    "sea", "caves", "adventure", "sunset", "paddle", "beginner", "kayak", "lesson", "it", "its",
    "she", "he", "they", "yes", "no", "ok", "and", "also", "her", "his", "we", "a", "that",
    "this", "there", "what", "how", "when", "where", "is", "just", "oh", "hmm", "actually",
    "but", "so", "if", "would", "will", "do", "does", "thank", "dear", "mr", "mrs", "ms", "miss",
    "dr", "lead", "surname", "name", "booking", "reference", "great", "perfect", "fine", "sure",
}  # fmt: skip
NOT_NAMES |= set(WEEKDAYS) | set(MONTH.strip("()").split("|"))


def capitalised_names(text: str) -> list[str]:
    """Runs of capitalised words that may be a person's name ('Katie Smyth', 'Leo')."""
    out = []
    for m in re.finditer(r"\b[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)*", text):
        words = [w for w in m.group(0).split() if w.lower().rstrip("'s") not in NOT_NAMES]
        words = [re.sub(r"'s$", "", w) for w in words]
        if words:
            out.append(" ".join(words))
    return out


def surname_said(text: str, *, asked: bool) -> str | None:
    """The surname in an answer: 'Marsh', 'it's Marsh', 'the lead is Hannah Marsh'."""
    m = re.search(r"\b(?:surname|last name|family name)(?:'s| is)?\s*:?\s*([A-Za-z'-]+)", text,
                  re.I)  # fmt: skip
    if m and m.group(1).lower() not in {"is", "the"}:
        return m.group(1).capitalize() if m.group(1).islower() else m.group(1)
    m = re.search(r"\b(?:under(?: the name)?(?: of)?|in the name of|booked (?:by|as))\s+"
                  r"((?:[A-Z][a-z'-]+\s+)?[A-Z][a-z'-]+)", text)  # fmt: skip
    if m:
        return m.group(1).split()[-1]
    if not asked:
        return None
    names = capitalised_names(text)
    if names:
        return names[-1].split()[-1]
    words = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
    words = [w for w in words if w.lower() not in NOT_NAMES]
    if 1 <= len(words) <= 2:
        return words[-1].capitalize()
    return None


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
    ("voucher", r"\bvoucher|\bgift card\b|\bgift code\b"),
    ("weather", r"\bweather|\bcancelled (?:because|due)|\byou cancelled\b|\bcalled off\b"),
    ("cancel", r"\bcancel|\brefund|\bmoney back|\bget (?:anything|something|it) back"),
    ("medical", r"\bmedical|\basthma|\binhaler|\ballerg|\bdiabet|\bepilep|\bheart condition|"
     r"\bepi-?pen|\binsulin"),
    ("name", r"\bspelt\b|\bspelled\b|\bmisspel|\bspelling|\bname (?:is )?wrong|\bwrong name|"
     r"\bcorrect (?:the|her|his|my) name|\bchange (?:the|her|his|my) name"),
    ("contact", r"\bemail\b|\be-mail|\bphone|\bmobile|\bcontact (?:number|details)"),
    ("kayak", r"\bsingle kayak|\bown kayak|\bkayak (?:of (?:her|his|my|their) own|to "
     r"(?:her|him|my)self)|\bsingle\b|\btandem\b"),
    ("wetsuit", r"\bwetsuits?\b|\bwet suits?\b"),
    ("photos", r"\bphotos?\b|\bphotograph|\bpictures\b"),
    ("move", r"\b(?:move|reschedule|rebook|change the (?:date|day|time)|another (?:day|date)|"
     r"different (?:day|date|time)|swap (?:to|the))\b"),
    ("add_person", r"\badd\b.*\b(?:friend|son|daughter|husband|wife|partner|person|people|"
     r"brother|sister|mum|dad|one more|another|him|her|child|kid|someone|somebody|participant)"
     r"\b|\badd\b.{0,40}\bto (?:my|our|the) (?:booking|trip|tour|lesson)|\bone more\b|\bextra "
     r"(?:person|place|paddler)|\bjoin (?:us|the)\b|\bbring (?:my|a|our)\b"),
    ("lookup", r"\bhow much\b|\bowe\b|\bbalance\b|\bwhat time\b|\bwhere (?:do|should|is)\b|"
     r"\bwhen (?:do|does|should|is)\b|\bmeet\b|\bstill to pay\b"),
]  # fmt: skip
SPLIT = re.compile(
    r"(?<=[!?;])\s+|(?<=\.)\s+(?=[A-Z])|,?\s+(?:and|also|plus|then)\s+(?:also\s+)?(?="
    r"(?:can you|could you|please|i'?d (?:also )?like|i want|i need|change|update|move|cancel|"
    r"add|book|put|use|apply|set|let|what|how|the photo|a wetsuit|wetsuits)\b)",
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
            # "Can you add my friend? She's 31." — a clause with no request of its own adds to
            # the one before it
            out[-1] = Request(out[-1].intent, out[-1].text + " " + clause)
    kinds = {r.intent for r in out}
    if "lookup" in kinds and len(kinds - {"lookup"}) > 0:
        # "how much will it be" about a change is part of that change
        out = [r for r in out if r.intent != "lookup"]
    if "weather" in kinds:
        # "you cancelled it for the weather ... we'd like to rebook": one request, the weather's
        text = " ".join(r.text for r in out if r.intent in {"weather", "move", "cancel"})
        first = next(i for i, r in enumerate(out) if r.intent in {"weather", "move", "cancel"})
        rest = [r for r in out if r.intent not in {"weather", "move", "cancel"}]
        out = rest[:first] + [Request("weather", text)] + rest[first:]
    merged: list[Request] = []
    for r in out:
        if merged and merged[-1].intent == r.intent:
            merged[-1] = Request(r.intent, merged[-1].text + " " + r.text)
        else:
            merged.append(r)
    return merged


def say_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{WEEKDAYS[d.weekday()].capitalize()} {d.day} {d.strftime('%B')}"


def pounds(pence: int) -> str:
    return f"£{pence / 100:,.2f}"
