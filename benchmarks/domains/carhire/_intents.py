"""Splitting a customer's message into requests in the order asked, each with its fallback."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("cancel", re.compile(r"\bcancel|\bno longer need the car\b|\bcall off\b", re.I)),
    ("damage", re.compile(r"\bdamag|\bscratch|\bdent(?:ed|s)?\b|\bbumper\b|\bscrape|\bcrack|"
                          r"\bwindscreen|\bwing mirror|\bchipped\b|\bscuff|\breport (?:a|some|the) "
                          r"(?:problem|bump)", re.I)),
    ("email", re.compile(r"\be-?mail\b", re.I)),
    ("driver", re.compile(r"\bdriver\b|\bdrive (?:it|the car) too\b|\binsured to drive\b", re.I)),
    ("extra", re.compile(r"\b(?:child|baby|booster|car)[- ]seats?\b|\bgps\b|\bsat[- ]?nav\b|"
                         r"\bsatellite navigation\b", re.I)),
    ("class", re.compile(r"\bupgrade|\bdowngrade|\bswitch\b|\bbigger car\b|\bsmaller car\b|"
                         r"\b(?:change|swap)\b[^.?!]{0,20}\b(?:car|class|vehicle)\b|"
                         r"\bcar class\b|\bto an? (?:suv|estate|premium|economy|compact)\b",
                         re.I)),
    ("dates", re.compile(r"\b(?:change|move|extend|shorten|push|bring|keep|alter|amend)\b"
                         r"[^.?!]{0,50}"
                         r"\b(?:dates?|pick[- ]?up|return|collection|drop[- ]off|booking|hire|"
                         r"car|back|forward|longer|until)\b|\bextra day\b|\bday longer\b|"
                         r"\b(?:return|bring (?:\w+ )?back|drop (?:\w+ )?off|pick (?:\w+ )?up|"
                         r"pick-up|collect)\b[^.?!]{0,30}\b(?:on|to|until|instead|later|"
                         r"earlier|a day)\b|"
                         r"\bnew dates\b", re.I)),
    ("lookup", re.compile(r"\bwhat time\b|\bwhen (?:is|do|does|can|it'?s)\b|\bdetails\b|"
                          r"\bcheck (?:my|the|her|his|their) (?:booking|hire)\b|\blook up\b|"
                          r"\bwhat (?:car|class)\b", re.I)),
]
_SPLIT_RE = re.compile(
    r"(?<=[.!?])\s+|\s*;\s*|,?\s+and also\s+|,?\s+also\s+|,?\s+and then\s+|,?\s+plus\s+|"
    r",?\s+and\s+(?=(?:could you|can you|please|i'?d|i want|i need|add|change|update|cancel|"
    r"switch|upgrade|report|move|extend|tell me|check|what|when|put)\b)", re.I)
_FALLBACK_RE = re.compile(r"^\s*(?:but\s+)?(?:if (?:not|you can'?t|that'?s not|there'?s no|"
                          r"it'?s not|you cannot|that isn'?t)|otherwise|failing that|or else)\b",
                          re.I)


@dataclass
class Request:
    intent: str
    text: str
    fallback: str = ""


@dataclass
class Parsed:
    requests: list[Request] = field(default_factory=list)
    loose: str = ""            # clauses with no request of their own (answers, identity)


def intent_of(text: str) -> str | None:
    for name, pattern in INTENTS:
        if pattern.search(text):
            return name
    return None


def parse_message(message: str) -> Parsed:
    """Requests in the order asked; "if not, ..." goes to the request before it."""
    parsed = Parsed()
    loose: list[str] = []
    for clause in (c for c in _SPLIT_RE.split(message) if c and c.strip()):
        if _FALLBACK_RE.search(clause) and parsed.requests:
            parsed.requests[-1].fallback += " " + clause
            continue
        intent = intent_of(clause)
        if intent is None:
            if parsed.requests:
                parsed.requests[-1].text += " " + clause
            else:
                loose.append(clause)
            continue
        same = [r for r in parsed.requests if r.intent == intent]
        if same:
            same[-1].text += " " + clause
        else:
            parsed.requests.append(Request(intent, " ".join([*loose, clause]) if not
                                           parsed.requests else clause))
            loose = [] if len(parsed.requests) == 1 else loose
    parsed.loose = " ".join(loose)
    return parsed
