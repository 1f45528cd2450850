"""What the customer wants (intents, in the order said) and the details they gave (slots)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.mobile import _lang as lang
from benchmarks.domains.mobile._dates import date_range

_I = re.IGNORECASE
INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("pin_reminder", re.compile(
        r"\b(?:what'?s|what is|tell me|remind me (?:of|what)|give me|send me|read (?:me|out)|"
        r"let me know)\b[^.?!]{0,20}\b(?:my |the )?(?:account |security )?pin\b(?! is)", _I)),
    ("port_out", re.compile(
        r"\bpac\b|\bport(?:ing)?(?:[\s-]?out)?\b(?!al)|\bport my number\b|\bkeep my number\b|"
        r"\btransfer my number\b|\bmove my number\b|\bswitch(?:ing)? (?:to )?(?:another|a "
        r"different|a new|other) (?:network|provider|operator|carrier)\b|\bleaving brightwave\b|"
        r"\bnumber transfer\b|\btransfer (?:code|pin)\b", _I)),
    ("sim_swap", re.compile(
        r"\blost (?:my |the )?(?:phone|mobile|sim|handset)\b|\b(?:phone|mobile|handset) (?:was |"
        r"got |has been |'s been )?(?:stolen|lost|nicked)\b|\bstolen\b|\breplacement sim\b|"
        r"\bnew sim\b|\bsim swap\b|\bswap (?:my |the )?sim\b|\bsim (?:card )?(?:is |has )?"
        r"(?:broken|damaged|stopped working|not working)\b|\breplace (?:my |the )?sim\b|"
        r"\bsim replacement\b|\b(?:phone|sim) (?:is |got |was )?(?:broken|damaged|smashed)\b|"
        r"\bbroke my phone\b|\bblock (?:my |the )?sim\b", _I)),
    ("cancel", re.compile(
        r"\b(?:cancel|terminate|close|disconnect|end|stop)\b[^.?!]{0,30}\b(?:line|contract|"
        r"number|account|mobile|phone|sim|service|plan)\b|\bcancel(?:lation|ling)?\b(?=[^.?!]*"
        r"\b07)|\bcancell?ation fee\b|\bearly termination\b|\bleave (?:my contract )?early\b", _I)),
    ("address", re.compile(
        r"\baddress\b|\bmoved (?:house|home)\b|\bmoving (?:house|home)\b|\bi(?:'ve| have) "
        r"(?:just )?moved\b|\bnew house\b|\bnew flat\b", _I)),
    ("due_day", re.compile(
        r"\bdue (?:date|day)\b|\bdate (?:my|the) bill is due\b|\bbills?\b[^.?!]{0,20}\bdue\b|"
        r"\bdue on the\b|\bdue (?:at|by|from) the (?:start|end|beginning|middle)\b|"
        r"\bpayment (?:date|day)\b|\bdirect debit (?:date|day)\b|\bpay(?:ing)? (?:date|day)\b|"
        r"\bbill(?:ing)? (?:date|day)\b|\bdate of (?:my|the) bill\b|\bbill (?:to )?(?:come|be "
        r"taken|go) out\b|\b(?:pay|paid) on the\b", _I)),
    ("roaming", re.compile(
        r"\broam(?:ing)?\b|\babroad\b|\boverseas\b|\btravel(?:l?ing)?\b|\btrip\b|\bholiday\b|"
        r"\bvacation\b|\btravel pass\b|\bday pass\b|\bgoing away\b|\bworking away\b|"
        r"\buse my phone (?:in|abroad|overseas)\b", _I)),
    ("data_addon", re.compile(
        r"\bdata (?:add-?on|boost|bolt-?on|top-?up|pack|bundle)s?\b|\b(?:add-?on|boost|bolt-?on|"
        r"top-?up)s?\b|\bextra data\b|\bmore data\b|\b(?:run|ran|running) (?:out|low) (?:of|on) "
        r"data\b|\bout of data\b|\badd (?:some )?data\b|\bdata (?:has )?run out\b", _I)),
    ("change_plan", re.compile(
        r"\b(?:change|switch|upgrade|downgrade|move|swap|go|put)\b[^.?!]{0,40}\b(?:plan|tariff)\b|"
        r"\bplan change\b|\bupgrade\b|\bdowngrade\b|\bcheaper plan\b|\bbigger plan\b|"
        r"\bdifferent plan\b|\bnew plan\b|\b(?:move|switch|go|change|put) (?:me |my line )?"
        r"(?:to|onto|on to) (?:the )?(?:essentials|smart|max|unlimited|flex)\b", _I)),
    ("plans", re.compile(
        r"\b(?:what|which) (?:\w+ )?plans\b|\bplans (?:do you|are|you) (?:have|offer|available)|"
        r"\bplan options\b|\bavailable plans\b|\bcompare (?:the )?plans\b|\b(?:how much|price|"
        r"cost) (?:is|of|are) (?:the |your )?(?:essentials|smart|max|unlimited|flex|plans)\b|"
        r"\bsim[- ]only (?:plans|deals|tariffs)\b|\bplans?\b[^.?!]*\b(?:cost|price)s?\b|"
        r"\b(?:what|which) (?:\w+ )?(?:tariffs|deals)\b", _I)),
    ("bill", re.compile(
        r"\bbill\b|\binvoice\b|\bstatement\b|\bcharged?\b|\bcharges\b|\bovercharg|"
        r"\bowe[sd]?\b|\bowing\b|\bbalance\b|\bamount due\b|\bhow much (?:do|did|will) i "
        r"(?:pay|owe)\b|\bwhat do i owe\b", _I)),
]
_BILL_STRONG = re.compile(
    r"\b(?:my|the|last|latest|this|monthly|recent|previous|april|march|may|month'?s)\s+bill\b|"
    r"\binvoice\b|\bstatement\b|\bon my bill\b|\bcharged\b|\bovercharg|\bcharges? (?:on|of|for)\b|"
    r"\b(?:this|that|the) charge\b|\bexplain\b|\bowe[sd]?\b|\bbalance\b", _I)
_TRAVEL = re.compile(
    r"\b(?:going|off|heading|flying|fly|travel\w*|trip|holiday|visit\w*|away|abroad|"
    r"be in|'ll be in|will be in|staying in|going back to|out to|leave for|leaving for)\b", _I)
_ADDON_WORD = re.compile(r"\b(?:add-?on|boost|bolt-?on|top-?up|pack|bundle)s?\b", _I)
_PLAN_NAMES = {
    "essentials": "ESS5", "smart": "SMART30", "max": "MAX100", "flex unlimited": "FLEXUNL",
    "unlimited flex": "FLEXUNL",
}
BILL_TOPICS = (
    "118", "directory", "roaming", "abroad", "france", "late", "premium", "text", "texts",
    "80888", "international", "poland", "0871", "top-up", "top up", "data", "fee",
)


def detect_intents(text: str) -> list[str]:
    """The intents in `text`, in the order they are first mentioned."""
    found: list[tuple[int, str]] = []
    for kind, pattern in INTENTS:
        match = pattern.search(text)
        if match:
            found.append((match.start(), kind))
    kinds = {k for _, k in found}
    place = lang.zone(text)
    if "roaming" not in kinds and place and _TRAVEL.search(text) and "bill" not in kinds:
        found.append((text.lower().find(place[1]), "roaming"))
        kinds.add("roaming")
    drop: set[str] = set()
    if "data_addon" in kinds:
        data_said = re.search(r"\bdata\b|\d\s*gb\b|\bgig", text, _I)
        if ("roaming" in kinds and not data_said) or (
            "change_plan" in kinds and not _ADDON_WORD.search(text)
        ):
            drop.add("data_addon")
    if "pin_reminder" in kinds and "port_out" in kinds:
        drop.add("pin_reminder")
    if "change_plan" in kinds and "plans" in kinds:
        drop.add("plans")
    if "bill" in kinds and len(kinds - {"bill"}) and not _BILL_STRONG.search(text):
        drop.add("bill")
    if "bill" in kinds and "due_day" in kinds and not re.search(r"\bexplain|\bwhy\b|\bcharge", text,
                                                                 _I):
        drop.add("bill")
    if "cancel" in kinds and "port_out" in kinds:
        drop.add("cancel")
    return [k for _, k in sorted(found) if k not in drop]


def plan_refs(text: str) -> list[tuple[int, str]]:
    """Plans named in `text` as (position, reference): plan ids, 'gb:N', 'unlimited', '£N'."""
    low = lang.spell_numbers(text.lower())
    refs: list[tuple[int, str]] = []
    for name, plan_id in _PLAN_NAMES.items():
        for match in re.finditer(rf"\b{name}\b", low):
            refs.append((match.start(), plan_id))
    for match in re.finditer(r"\b(\d{1,3})\s*(?:gb|gig|gigs|gigabytes?)\b", low):
        refs.append((match.start(), f"gb:{match.group(1)}"))
    for match in re.finditer(r"\bunlimited\b", low):
        if not any(abs(pos - match.start()) < 8 for pos, _ in refs):
            refs.append((match.start(), "unlimited"))
    for match in re.finditer(r"£\s?(\d+(?:\.\d\d)?)\s*(?:a month|per month|/month|plan|one)", low):
        refs.append((match.start(), f"price:{float(match.group(1))}"))
    return sorted(refs)


def plan_filters(text: str) -> dict[str, Any]:
    """Filters of a plans question: family, minimum data, unlimited, cheapest."""
    low = lang.spell_numbers(text.lower())
    filters: dict[str, Any] = {}
    if re.search(r"\bsim[- ]?only\b|\bjust (?:a |the )?sim\b", low):
        filters["family"] = "sim_only"
    elif re.search(r"\b(?:with a|new|including a) (?:phone|handset|mobile)\b|\bhandset\b", low):
        filters["family"] = "handset"
    least = re.search(
        r"(?:at least|minimum of|min|over|more than|or more|plus)\D{0,12}(\d{1,3})\s*(?:gb|gig)"
        r"|(\d{1,3})\s*(?:gb|gig)s?\s*(?:or more|plus|\+|and up|or above|minimum)", low)
    if least:
        filters["min_gb"] = int(least.group(1) or least.group(2))
    if re.search(r"\bunlimited\b", low):
        filters["unlimited"] = True
    if re.search(r"\bcheapest\b|\blowest price\b|\bleast expensive\b", low):
        filters["cheapest"] = True
    return filters


def bill_topics(text: str) -> list[str]:
    """Words of a bill question that name a charge ('118', 'roaming', 'late')."""
    low = text.lower()
    return [t for t in BILL_TOPICS if re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", low)]


def read_slots(text: str, today: date, *, asked: str | None = None) -> dict[str, Any]:
    """Every detail a message gives, keyed by slot."""
    slots: dict[str, Any] = {}
    place = lang.zone(text)
    if place:
        slots["zone"], slots["place"] = place
    start, end = date_range(text, today)
    if start and start.year < 2020:
        start = None
    if end and end.year < 2020:
        end = None
    if start or end:
        slots["start"], slots["end"] = start, end
    sizes = lang.data_sizes(text)
    if sizes:
        slots["sizes"] = sizes
    money = lang.amounts(text)
    if money:
        slots["amounts"] = money
    refs = plan_refs(text)
    if refs:
        slots["plan_refs"] = [ref for _, ref in refs]
    where = lang.address(text) if (asked in {"address", "postcode"} or re.search(
        r"\baddress\b|\bmoved\b|\bmoving\b|\blive at\b|\bliving at\b", text, _I)) else None
    if where and not re.search(r"^\d{1,2}(?:st|nd|rd|th)\b", where):
        slots["address"] = where
    code = lang.postcode(text)
    if code:
        slots["postcode"] = code
    day = lang.due_day(text, expecting=asked == "day")
    if day and (asked == "day" or re.search(r"\bdue\b|\bpay|\bdate\b|\bmonth\b|\bbill\b|"
                                            r"\bdebit\b|\binstead\b|\bmeant\b|\bmean\b", text, _I)):
        slots["day"] = day
    month = lang.bill_month(text)
    if month:
        slots["bill_month"] = month
    if lang.wants_previous_bill(text):
        slots["bill_previous"] = True
    topics = bill_topics(text)
    if topics:
        slots["topics"] = topics
    if re.search(r"\bhigher|\bmore than (?:usual|normal|last)|\bwent up\b|\bgone up\b|\bextra\b|"
                 r"\bbigger\b|\bincrease", text, _I):
        slots["compare"] = True
    return slots
