"""Reading customer English for the rule agent: card digits, dates, amounts, intents, yes/no.

Everything is a pure function of the message text and the desk's fixed clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from benchmarks.domains.bank._env import NOW

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december"
    .split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_MON = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" \
       r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORD = r"(?:st|nd|rd|th)?"

COUNTRIES = {
    "Japan": ["japan", "tokyo", "osaka", "kyoto"],
    "United States": ["united states", "usa", "u.s.", "america", "the states", "new york",
                      "california", "florida"],
    "United Kingdom": ["united kingdom", "uk", "england", "london", "scotland", "britain"],
    "Portugal": ["portugal", "lisbon", "lisboa", "porto", "algarve"],
    "Spain": ["spain", "madrid", "barcelona", "mallorca"],
    "France": ["france", "paris"], "Italy": ["italy", "rome", "milan"],
    "Germany": ["germany", "berlin"], "Belgium": ["belgium", "brussels"],
    "Greece": ["greece", "athens", "crete"], "Turkey": ["turkey", "istanbul"],
    "Morocco": ["morocco", "marrakech"], "Thailand": ["thailand", "bangkok"],
    "Indonesia": ["indonesia", "bali"], "Australia": ["australia", "sydney"],
    "Canada": ["canada", "toronto"], "Mexico": ["mexico"], "Brazil": ["brazil"],
    "South Africa": ["south africa", "cape town"], "Egypt": ["egypt"], "China": ["china"],
    "India": ["india"], "Vietnam": ["vietnam"], "Switzerland": ["switzerland"],
    "Austria": ["austria", "vienna"], "Norway": ["norway"], "Sweden": ["sweden"],
    "Denmark": ["denmark", "copenhagen"], "Poland": ["poland"], "Croatia": ["croatia"],
    "Iceland": ["iceland"], "Ireland": ["ireland", "dublin"], "Singapore": ["singapore"],
    "South Korea": ["south korea", "korea", "seoul"], "United Arab Emirates": [
        "united arab emirates", "uae", "dubai"], "New Zealand": ["new zealand"],
}

INTENTS: dict[str, str] = {
    "pin_disclose": r"\b(tell|give|show|read|send|text|email)\b[^.?!]{0,20}\bpin\b(?!\s*"
                    r"(letter|reminder|reset))|\bwhat(?:'s| is)\s+my\s+pin\b|\bpin\b[^.?!]{0,15}"
                    r"\b(in|over|via|through) (the )?(chat|here|message)"
                    r"|\bpin\b[^.?!]{0,50}\b(told|tell|said|shown|show|read)\b[^.?!]{0,30}"
                    r"\b(chat|here)\b",
    "pin": r"\bpin\b",
    "refund_fee": r"\b(refund|waive|reverse|return|money back)\b[^.?!]{0,40}\b(fees?|charges?)\b"
                  r"|\b(fees?|charges?)\b[^.?!]{0,40}\b(refunded|waived|reversed|back)\b",
    "charged_fee": r"\bwhy (was|were|am|have|did) (i|you|we)\b[^.?!]{0,25}\b(charged?|fee)|"
                   r"\bwhat (is|was|are) (this|that|the|these) (fee|charge)s?\b(?! for)|"
                   r"\bfees?\b[^.?!]{0,30}\b(on|in) my (statement|account|card)\b|"
                   r"\bcharged (me )?(a |an )?(fee|extra)|"
                   r"\bwhat (it|this|that) (is|was) for\b",
    "fee": r"\b(fees?|costs?|how much|price|charges?|free of charge)\b",
    "dispute": r"\b(dispute|don'?t recogni[sz]e|do not recogni[sz]e|not recogni[sz]ed|didn'?t "
               r"(make|authori[sz]e|buy)|never (arrived|received|came|got|made|bought|ordered)|"
               r"not (received|arrived)|"
               r"charged (me )?twice|double[- ]charged|charged double|unauthori[sz]ed|fraudulent|"
               r"chargeback|wrong amount|overcharged)",
    "refund": r"\b(refund\w*|money back|reimburse\w*|waive\w*)\b",
    "block": r"\b(block|freeze|froze|cancel (my|the|this) card|lost|lose|losing|stolen|stole|"
             r"missing|can'?t find|cannot find|pickpocket\w*|robbed|misplaced|damaged|broken)\b",
    "replace": r"\b(replace\w*|new (card|one)|another (card|one)|reissue|re-issue|"
               r"send (me )?a (new )?card)\b",
    "limit": r"\blimits?\b",
    "travel": r"\b(travel\w*(?! insurance)|trip|abroad|holiday|vacation)\b",
    "status": r"\b(status|is (my|the|this) (\w+ )?card( \d{4})? (still )?(active|blocked|"
              r"working|ok)|card (still )?work(s|ing)?|check (on )?(my|the) card|what(?:'s| is) "
              r"(my|the) (current )?(\w+ )?limit|how (high|much) is my limit|current limit|"
              r"card( ending)?( in)? \d{4} (is|was) (still )?(blocked|active)|whether [^.?!]{0,40}"
              r"(blocked|active)|is it (still )?(blocked|active)|check\b[^.?!]{0,30}\bcard)\b",
}
_GOING = r"\b(going|flying|travell?ing|heading|off|driving) to\b"

YES = re.compile(r"\b(yes|yeah|yea|yep|yup|sure|ok|okay|alright|all right|go ahead|go for it|"
                 r"please do|do it|do that|confirm(ed)?|correct|that'?s right|right|sounds good|"
                 r"fine|proceed|absolutely|definitely|perfect|great|that works|affirmative|"
                 r"please|agreed|of course|exactly)\b")
NO = re.compile(r"^\s*(no|nope|nah|n)\b(?!\s+(problem|worries))|[,.;!—-]\s*no\b(?!\s+"
                r"(problem|worries))|\b(not yet|not now|not sure|wait|hold on|hang on|"
                r"don'?t (do|go|change|block|order|set|make|proceed|want)|do not|stop|"
                r"let me think|rather not|no thanks|no thank you|not right|that'?s wrong|"
                r"incorrect)\b")
DROP = re.compile(r"\b(never ?mind|forget (it|that|about it)|leave it|cancel (it|that)|"
                  r"skip (it|that)|no need)\b")
CORRECTION = re.compile(r"\b(sorry|i mean|i meant|actually|correction|rather|oops|not \d)")
BYE = re.compile(r"\b(that'?s all|that is all|nothing else|no more|bye|goodbye|that'?s it|"
                 r"all good|i'?m done|all set)\b")
GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening))\b[\s!,.]*$")


@dataclass
class Parsed:
    """What one message says."""

    text: str
    intents: list[str] = field(default_factory=list)
    last4: list[str] = field(default_factory=list)
    dob: str | None = None
    dates: list[tuple[str, str]] = field(default_factory=list)  # (role, iso) role from/to/on
    amounts: list[float] = field(default_factory=list)
    country: str | None = None
    block_reason: str | None = None
    dispute_reason: str | None = None
    delivery: str | None = None
    address: tuple[str, str, str] | None = None
    address_on_file: bool = False
    card_kind: str | None = None
    third_party: bool = False
    third_party_last4: str | None = None
    yes: bool = False
    no: bool = False
    drop: bool = False
    correction: bool = False
    bye: bool = False
    greeting: bool = False


def parse(text: str, *, expect_digits: bool = False) -> Parsed:
    """Read one message; `expect_digits` when the agent just asked for a card's last 4 digits."""
    low = " " + text.lower().replace("’", "'") + " "
    p = Parsed(text=text)
    spans: list[tuple[int, int]] = []
    _dates(low, p, spans)
    p.address, addr_span = _address(text)
    if addr_span:
        spans.append(addr_span)
    p.last4 = _last4(low, spans, expect_digits)
    p.amounts = _amounts(low, spans, p.last4)
    p.country = _country(text, low)
    p.intents = _intents(low, p.country is not None and (bool(p.dates) or bool(re.search(
        _GOING + r"|\b(be|am|i'?m|we'?re|staying|stay|visit\w*|spend\w*)\b", low))))
    _details(low, p)
    return p


def _free(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= a or start >= b for a, b in spans)


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    y = int(raw)
    return y + (2000 if y < 30 else 1900) if y < 100 else y


def _mk(y: int | None, m: int, d: int) -> date | None:
    try:
        return date(y or NOW.year, m, d)
    except ValueError:
        return None


def _role(low: str, start: int) -> str:
    before = low[max(0, start - 24):start]
    if re.search(r"\b(to|until|till|til|through|thru|back|returning|return|ends?|end of|"
                 r"and|-|–)\s*(on\s+)?(the\s+)?$", before):
        return "to"
    if re.search(r"\b(from|starting|start|leaving|leave|depart\w*|begin\w*|between)\s*(on\s+)?"
                 r"(the\s+)?$", before):
        return "from"
    return "on"


def _dates(low: str, p: Parsed, spans: list[tuple[int, int]]) -> None:
    found: list[tuple[int, int, date, bool]] = []  # start, end, date, had_year
    sep = r"\s*(?:-|–|to|until|till|and)\s*"
    ranges = [(rf"\b(\d{{1,2}}){_ORD}{sep}(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(\d{{4}}))?",
               (1, 2, 3, 4)),
              (rf"\b{_MON}\s+(\d{{1,2}}){_ORD}{sep}(\d{{1,2}}){_ORD}\b(?:,?\s+(\d{{4}}))?",
               (2, 3, 1, 4))]
    for rx, (ia, ib, im, iy) in ranges:
        for m in re.finditer(rx, low):
            y, mon = _year(m.group(iy)), MONTHS[m.group(im)[:3]]
            a, b = _mk(y, mon, int(m.group(ia))), _mk(y, mon, int(m.group(ib)))
            if a and b and _free(spans, *m.span()):
                spans.append(m.span())
                p.dates += [("from", a.isoformat()), ("to", b.isoformat())]
    patterns = [
        (r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", lambda g: (int(g[0]), int(g[1]), int(g[2]))),
        (r"\b(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2,4})\b", lambda g: _dmy(g)),
        (rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(\d{{4}}))?",
         lambda g: (_year(g[2]), MONTHS[g[1][:3]], int(g[0]))),
        (rf"\b{_MON}\s+(?:the\s+)?(\d{{1,2}}){_ORD}\b(?:,?\s+(\d{{4}}))?",
         lambda g: (_year(g[2]), MONTHS[g[0][:3]], int(g[1]))),
        (r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])", lambda g: (None, int(g[1]), int(g[0]))),
    ]
    for rx, conv in patterns:
        for m in re.finditer(rx, low):
            if not _free(spans, *m.span()):
                continue
            y, mon, d = conv(m.groups())
            made = _mk(y, mon, d) if mon and 1 <= mon <= 12 else None
            if made:
                spans.append(m.span())
                found.append((m.start(), m.end(), made, y is not None))
    for m in re.finditer(r"\b(today|tomorrow|yesterday|(?:(next|this|coming|last|on)\s+)?"
                         r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b", low):
        if _free(spans, *m.span()):
            spans.append(m.span())
            found.append((m.start(), m.end(), _relative(m.group(1), m.group(2), m.group(3)),
                          False))
    born = re.search(r"\b(born|birth|dob|d\.o\.b|birthday)\b", low)
    for start, _end, made, had_year in sorted(found, key=lambda f: f[0]):
        is_dob = had_year and (made.year <= 2012 or (born is not None and made.year < NOW.year))
        if is_dob:
            p.dob = made.isoformat()
        else:
            p.dates.append((_role(low, start), made.isoformat()))


def _dmy(g: tuple[str, ...]) -> tuple[int | None, int, int]:
    a, b, y = int(g[0]), int(g[1]), _year(g[2])
    if b > 12 >= a:  # 05/17/1984 written month first
        a, b = b, a
    return y, b, a


def _relative(word: str, qualifier: str | None, weekday: str | None) -> date:
    if word == "today":
        return NOW
    if word == "tomorrow":
        return NOW + timedelta(days=1)
    if word == "yesterday":
        return NOW - timedelta(days=1)
    target = WEEKDAYS.index(weekday or "monday")
    ahead = (target - NOW.weekday()) % 7 or 7
    if qualifier == "last":
        return NOW - timedelta(days=(NOW.weekday() - target) % 7 or 7)
    return NOW + timedelta(days=ahead)  # "Friday", "this/next/coming Friday": the coming one


def _address(text: str) -> tuple[tuple[str, str, str] | None, tuple[int, int] | None]:
    rx = (r"([A-Z][\w'.\-]*(?:\s+[\w'.\-]+){0,4}?\s+\d{1,4}\s?[a-zA-Z]?(?:-\d+)?)\s*,?\s+"
          r"(\d{4}\s?[A-Z]{2}|\d{4}-\d{3}|\d{5}|[A-Z]{1,2}\d{1,2}[A-Z]?\s?\d[A-Z]{2})\b"
          r"\s*,?\s*([A-Z][\w'\-]+(?:\s[A-Z][\w'\-]+)?)")
    m = re.search(rx, text)
    if not m:
        return None, None
    street = re.sub(r"^(?:(?:to|at|is|my|new|address|the|deliver|send|it|please)\s+)+", "",
                    m.group(1), flags=re.I)
    postcode = m.group(2).upper()
    if re.fullmatch(r"\d{4}[A-Z]{2}", postcode):
        postcode = f"{postcode[:4]} {postcode[4:]}"
    return (street.strip(), postcode, m.group(3).strip()), (m.start() + 1, m.end() + 1)


def _last4(low: str, spans: list[tuple[int, int]], expect_digits: bool) -> list[str]:
    hits: list[tuple[int, str]] = []
    rx = (r"(?:ending|ends|end)\s*(?:in|with|on)?\s*(?:number\s*)?[:#]?\s*(\d{4})\b|"
          r"last\s*(?:four|4)\s*(?:digits)?\s*(?:of my card)?\s*(?:are|is|:|-|=)?\s*(\d{4})\b|"
          r"\bcard\s*(?:number)?\s*(?:is\s*)?[*x#•.]*\s*(\d{4})\b|[*x•]{2,}\s*(\d{4})\b|"
          r"\b(?:number|digits)\s*(?:is|are)?\s*:?\s*(\d{4})\b|"
          r"\b(?:mine|my own(?: card)?)\s*(?:is|:)?\s*(?:ending\s*(?:in)?\s*)?(\d{4})\b")
    for m in re.finditer(rx, low):
        digits = next(g for g in m.groups() if g)
        start = m.start(m.lastindex or 0)
        if _free(spans, start, start + 4):
            hits.append((start, digits))
    if expect_digits or (not hits and re.search(r"\b(card|ending|digits)\b", low)):
        for m in re.finditer(r"(?<![\d€.,])(\d{4})(?![\d.,]\d)(?!\s*(?:eur|euro|€|k\b))", low):
            money = re.search(r"(limit|to|of|by|from|at|€|eur)\s*$", low[max(0, m.start() - 8):
                                                                   m.start()])
            year = re.fullmatch(r"(19|20)\d\d", m.group(1))
            if _free(spans, *m.span()) and all(m.start() != s for s, _ in hits):
                if expect_digits or not (money or year):
                    hits.append((m.start(), m.group(1)))
    return [d for _, d in sorted(hits)]


_WORDNUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20}


def _amounts(low: str, spans: list[tuple[int, int]], last4: list[str]) -> list[float]:
    out: list[tuple[int, float]] = []
    rx = r"(?<![\w.,])(€\s?)?(\d{1,3}(?:[.,\s]\d{3})+|\d+)(?:[.,](\d{1,2}))?(?!\d)\s*(k\b)?"
    for m in re.finditer(rx, low):
        if not _free(spans, *m.span(2)):
            continue
        whole = re.sub(r"[.,\s]", "", m.group(2))
        if whole in last4 and not m.group(1):
            continue
        value = float(whole) + (float("0." + m.group(3)) if m.group(3) else 0.0)
        out.append((m.start(), value * (1000 if m.group(4) else 1)))
    for m in re.finditer(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty)"
                         r"\s+(thousand|hundred)(?:\s+(?:and\s+)?(one|two|three|four|five|six|"
                         r"seven|eight|nine)\s+hundred)?\b", low):
        base = _WORDNUM[m.group(1)] * (1000 if m.group(2) == "thousand" else 100)
        out.append((m.start(), base + (_WORDNUM[m.group(3)] * 100 if m.group(3) else 0)))
    return [v for _, v in sorted(out)]


def _country(text: str, low: str) -> str | None:
    best: tuple[int, str] | None = None
    for name, aliases in COUNTRIES.items():
        for alias in aliases:
            m = re.search(rf"(?<![\w.]){re.escape(alias)}(?!\w)", low)
            if alias in ("uk", "usa") and not re.search(rf"\b{alias.upper()}\b", text):
                m = None
            if m and (best is None or m.start() > best[0]):
                best = (m.start(), name)
    if best is None and re.search(r"\b(the )?US\b", text):
        return "United States"
    return best[1] if best else None


def _intents(low: str, has_country: bool) -> list[str]:
    found: list[tuple[int, str]] = []
    for name, rx in INTENTS.items():
        m = re.search(rx, low)
        if m:
            found.append((m.start(), name))
    if has_country and not any(n == "travel" for _, n in found):
        found.append((0, "travel"))
    names = {n for _, n in found}
    drops = set()
    if "pin_disclose" in names:
        drops.add("pin")
    if names & {"refund_fee", "charged_fee", "fee"} and "refund" in names:
        found = [(pos, "refund_fee" if n == "refund" else n) for pos, n in found]
        names = {n for _, n in found}
    if names & {"refund_fee", "charged_fee"}:
        drops |= {"fee", "dispute"}
    if "replace" in names and not re.search(
            r"\b(notice|trip|holiday|vacation|travel\w*|flying|heading)\b", low):
        drops.add("travel")  # "I'm working in Lisbon: send the new card to my hotel"
    if "dispute" in names:
        drops.add("refund")
    if "dispute" in names:
        drops.add("fee")
    if "status" in names:
        drops.add("block")
    if "limit" in names and not re.search(r"\bfees?\b", low):
        drops.add("fee")
    if "status" in names and "limit" in names and not re.search(
            r"\b(raise|increase|lower|reduce|change|set|up|higher|to \S*\d)", low):
        drops.add("limit")
    if "fee" in names and re.search(r"\b(how much|cost|fees?|price)\b", low) and not re.search(
            r"\b(please (order|send)|i need a|i want a|i'?d like a|order (me )?a|send me)\b", low):
        drops |= {"replace", "pin"}
    if names & {"fee", "charged_fee"} and not re.search(
            r"\b(notice|trip|holiday|vacation|going|flying|heading)\b", low):
        drops.add("travel")
    ordered = [n for _, n in sorted(found) if n not in drops]
    return list(dict.fromkeys(ordered))


def _details(low: str, p: Parsed) -> None:
    if re.search(r"\b(stolen|stole|pickpocket\w*|robbed|theft|thief)\b", low):
        p.block_reason = "stolen"
    elif re.search(r"\b(damaged|broken|snapped|cracked|chip)\b", low):
        p.block_reason = "damaged"
    elif re.search(r"\b(lost|lose|losing|missing|can'?t find|cannot find|misplaced)\b", low):
        p.block_reason = "lost"
    reasons = [("charged_twice", r"twice|double|two times|duplicate"),
               ("not_received", r"never (arrived|came|received|got)|not (received|arrived)|"
                                r"didn'?t (arrive|receive|get)|haven'?t (received|got)"),
               ("wrong_amount", r"wrong amount|overcharged|more than|too much|incorrect amount"),
               ("not_recognised", r"recogni[sz]|didn'?t (make|authori[sz]e|buy)|unauthori[sz]ed|"
                                  r"fraud|not me|wasn'?t me|never made")]
    for code, rx in reasons:
        if re.search(rx, low):
            p.dispute_reason = code
            break
    if re.search(r"\b(express|fast|faster|fastest|urgent\w*|asap|quick\w*|as soon as possible)\b",
                 low):
        p.delivery = "express"
    elif re.search(r"\b(standard|normal|regular|cheapest|free)\b", low):
        p.delivery = "standard"
    p.address_on_file = bool(re.search(r"\b(on file|home address|usual address|registered|"
                                       r"my address|same address|current address|at home)\b",
                                       low))
    if re.search(r"\bcredit\s*card\b|\bcredit\b", low):
        p.card_kind = "credit"
    elif re.search(r"\bdebit\s*card\b|\bdebit\b|bank card|pinpas", low):
        p.card_kind = "debit"
    other = re.search(
        r"\b(sister|brother|wife|husband|partner|mother|mom|mum|father|dad|son|daughter|friend|"
        r"colleague|neighbou?r|girlfriend|boyfriend|aunt|uncle|grand\w+|someone else|somebody "
        r"else|other person)'?s?\b[^.?!]{0,25}\bcard\b(?:\D{0,20}?(\d{4})\b)?", low)
    p.third_party = other is not None
    p.third_party_last4 = other.group(2) if other and other.group(2) in p.last4 else None
    p.no = bool(NO.search(low))
    p.yes = bool(YES.search(low)) and not p.no
    p.drop = bool(DROP.search(low))
    p.correction = bool(CORRECTION.search(low))
    p.bye = bool(BYE.search(low)) or bool(re.search(r"^\s*(no,?\s*)?thanks?( you)?\W*$", low))
    p.greeting = bool(GREETING.search(low))
