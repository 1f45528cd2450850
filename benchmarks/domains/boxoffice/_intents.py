"""Splitting a customer's message into requests in the order asked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"\be-?mail\b(?! (?:confirmation|ticket))", re.I)),
    ("access", re.compile(r"\bwheelchair|\baccessible (?:space|seat)|\baccess (?:space|seat|"
                          r"booking)|\bcompanion|\bcarer\b|\bpersonal assistant", re.I)),
    ("insurance", re.compile(r"\binsur|\bticket (?:protection|cover)\b|\bcover for (?:the|my|"
                             r"our) tickets\b", re.I)),
    ("discount", re.compile(r"\bdiscount\b|\bmember(?:s|ship)? (?:price|rate|offer|saving)", re.I)),
    ("name", re.compile(r"\bname on (?:the |my |our |her |his )?(?:gift )?tickets?\b|"
                        r"\bnames? (?:on|for) the gift\b|\bchange (?:the |her |his )?name\b|"
                        r"\b(?:in|under|into) (?:[A-Z][a-z]+ )?[A-Z][a-z]+'s name\b|"
                        r"\bput (?:the tickets|them) in (?:\w+ )?(?:\w+'s )?name\b|"
                        r"\brename\b|\bname (?:changed|change)\b", re.I)),
    ("delivery", re.compile(r"\bpost(?:ed)?\b|\bby (?:the )?mail\b|\bpaper tickets?\b|"
                            r"\bprinted tickets?\b|\bmailed\b|\bhard cop(?:y|ies)\b|"
                            r"\bsen[dt] (?:\w+ )?(?:to me|to my (?:home|house|address))\b|"
                            r"\bsend (?:me |us )?(?:the |my |our )?"
                            r"(?:real |physical )?tickets\b|\bdelivery\b|\bdeliver", re.I)),
    ("upgrade", re.compile(r"\bupgrade|\bbetter seats\b|\bmove (?:us |me |them |our seats |my "
                           r"seats )?(?:up |in)?to the stalls\b|\bseats? in the stalls\b", re.I)),
    ("exchange", re.compile(r"\bexchange|\bswap\b|\bchange (?:the |my |our )?(?:date|"
                            r"performance|night|day|booking|tickets)\b|\b(?:move|switch) (?:my |"
                            r"our |the )?(?:tickets|booking|seats)\b|\b(?:different|another|"
                            r"later|earlier) (?:date|day|night|performance|showing)\b|"
                            r"\b(?:switch|move) (?:to|them to) (?:the )?(?:saturday|sunday|"
                            r"monday|tuesday|wednesday|thursday|friday|matin|evening)|"
                            r"\bmatin[eé]e\b|\binstead of (?:the )?(?:friday|saturday|sunday|"
                            r"monday|tuesday|wednesday|thursday|evening|night)", re.I)),
    ("return", re.compile(r"\breturn\b|\b(?:give|send|hand|take) back\b|\bgive up (?:my |our |"
                          r"the )?tickets\b|\bno longer (?:need|want) (?:my|our|the) tickets\b|"
                          r"\b(?:give|send|take|hand|sell) (?:them|my tickets|the "
                          r"tickets|these|those|our tickets) back\b|\bcancel (?:my |our |the )?"
                          r"(?:tickets|booking|order)\b|\bresell\b|\brefund\b|\bmoney back\b|"
                          r"\bcredit (?:voucher|note)\b", re.I)),
    ("cant_go", re.compile(r"\bcan'?t (?:go|make it|attend|come)\b|\bcannot (?:go|make it|"
                           r"attend|come)\b|\bwon'?t be able to (?:go|make it|attend|come)\b|"
                           r"\bunable to (?:go|attend|come)\b", re.I)),
    ("lookup", re.compile(r"\b(?:what|which) seats\b|\bwhen is\b|\bwhat time (?:is|does)\b|"
                          r"\bdetails of\b|\bwhere (?:is|are) (?:he|she|they|we) sitting\b|"
                          r"\bwhat (?:has|did) (?:he|she|my \w+) (?:booked|book)\b|"
                          r"\bcheck (?:on )?(?:my|his|her|the) (?:order|booking)\b", re.I)),
]
_SPLIT_RE = re.compile(
    r"(?<=[.!?])\s+|\s*;\s*|,?\s+and also\s+|,?\s+also\s+|,?\s+and then\s+|,?\s+plus\s+|"
    r",?\s+and\s+(?=(?:could you|can you|please|i'?d|i want|i need|change|update|add|remove|"
    r"take|put|upgrade|exchange|swap|return|send|post|book|apply|tell me|check|what|when|"
    r"let me|move|get)\b)", re.I)


@dataclass
class Request:
    intent: str
    text: str


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
    """Requests in the order asked; clauses without a request join the one before them."""
    parsed = Parsed()
    loose: list[str] = []
    for clause in (c for c in _SPLIT_RE.split(message) if c and c.strip()):
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
        elif intent == "lookup" and parsed.requests:
            parsed.requests[-1].text += " " + clause    # "... and tell me when it is": the same
        elif intent == "return" and parsed.requests and \
                parsed.requests[-1].intent in {"insurance", "discount", "exchange", "upgrade"}:
            parsed.requests[-1].text += " " + clause    # "remove it and refund me": the same
        else:
            parsed.requests.append(Request(intent, " ".join([*loose, clause]) if not
                                           parsed.requests else clause))
            loose = [] if len(parsed.requests) == 1 else loose
    # "I can't go on Friday": a return, unless the message asks for something else for it
    for req in [r for r in parsed.requests if r.intent == "cant_go"]:
        if len(parsed.requests) > 1:
            parsed.requests.remove(req)
            parsed.requests[0].text = req.text + " " + parsed.requests[0].text
        else:
            req.intent = "return"
    parsed.loose = " ".join(loose)
    return parsed
