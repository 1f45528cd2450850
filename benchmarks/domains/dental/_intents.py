"""Splitting a patient's message into requests in the order asked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("cancel", re.compile(r"\bcancel|\bcan'?t make (?:it|my|the)\b|\bwon'?t be able to (?:come|"
                          r"make)\b|\bcall off\b", re.I)),
    ("move", re.compile(r"\b(?:move|reschedule|rearrange|re-?book|change|switch|push|bring|put)"
                        r"\b[^.?!]{0,40}\b(?:appointment|check-?up|visit|hygien\w*|clean\w*|"
                        r"time|day|date|to (?:next|mon|tue|wed|thu|fri|\d)\w*|back|forward|"
                        r"later|earlier)\b", re.I)),
    ("emergency", re.compile(r"\bemergenc|\btooth ?ache\b|\bin (?:a lot of |so much |real )?"
                             r"pain\b|\bpainful\b|\bhurts?\b|\bthrobbing\b|\bswoll?en\b|"
                             r"\bswelling\b|\babscess|\bbleeding\b|\bknocked out\b|"
                             r"\b(?:broke|broken|cracked|chipped|lost) (?:a |my |the )?"
                             r"(?:\w+ )?(?:tooth|teeth|filling|crown)\b|\bsame[- ]day\b|"
                             r"\bseen today\b|\burgent", re.I)),
    ("plan", re.compile(r"\bpayment plan|\binstal?ments?\b|\bspread (?:the|out the) (?:cost|"
                        r"payments?)\b|\bpay (?:it )?monthly\b|\bmonthly payments?\b|"
                        r"\bpay (?:it )?(?:off )?over\b", re.I)),
    ("refund", re.compile(r"\brefund|\boverpa|\bpaid twice\b|\bcharged twice\b|"
                          r"\bdouble[- ]charged\b|\bmoney back\b|\bcredit on my account\b",
                          re.I)),
    ("email", re.compile(r"\be-?mail\b", re.I)),
    ("book", re.compile(r"\bbook\b|\bmake an appointment\b|\bappointment (?:for|with)\b|"
                        r"\bcheck-?up\b|\bscale and polish\b|\bhygienist\b|\bclean(?:ing)?\b|"
                        r"\bsee (?:a|the) dentist\b|\bcome in\b", re.I)),
    ("quote", re.compile(r"\bquote\b|\bhow much\b|\bcost\b|\bprice\b|\btreatment plan\b|"
                         r"\bnhs band\b|\bwhat (?:will|would) I (?:pay|owe)\b", re.I)),
    ("lookup", re.compile(r"\bwhen is\b|\bwhat time is\b|\bnext appointment\b|"
                          r"\bmy appointments\b|\bwhen(?:'s| are)\b|\bdetails of\b|"
                          r"\bwho is (?:my|his|her)\b|\bremind me\b", re.I)),
]
_SPLIT_RE = re.compile(
    r"(?<=[.!?])\s+|\s*;\s*|,?\s+and also\s+|,?\s+also\s+|,?\s+and then\s+|,?\s+plus\s+|"
    r",?\s+and\s+(?=(?:could you|can you|please|i'?d|i want|i need|change|update|cancel|"
    r"book|move|refund|tell me|check|what|when|put|set up|let me)\b)", re.I)


@dataclass
class Request:
    intent: str
    text: str


@dataclass
class Parsed:
    requests: list[Request] = field(default_factory=list)
    loose: str = ""            # clauses with no request of their own (answers, identity)


_QUESTION = re.compile(r"\bwhat time\b(?! (?:slots|are free|do you have))|\bwhen (?:is|are)\b|"
                       r"\bwhen'?s\b|\bwhat day is\b", re.I)


# "I'll book another one in the new year": a plan for later, not a request now.
_LATER = re.compile(r"\b(?:I'?ll|I will|I'?m going to|we'?ll)\s+(?:\w+\s+)?(?:re-?)?book\b|"
                    r"\b(?:re-?)?book\b[^.?!]{0,30}\b(?:new year|next year|another time|"
                    r"in january|after christmas)\b", re.I)


def intent_of(text: str) -> str | None:
    found = [name for name, pattern in INTENTS if pattern.search(text)]
    if found and found[0] in {"book", "move"} and _LATER.search(text):
        return None
    if found and found[0] == "book" and _QUESTION.search(text) and \
            not re.search(r"\bbook\b", text, re.I):
        return "lookup"          # "what time is my check-up?" asks, it does not book
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
        elif intent in {"quote", "lookup"} and parsed.requests and \
                parsed.requests[-1].intent in {"plan", "refund", "cancel", "move", "book",
                                               "emergency"}:
            parsed.requests[-1].text += " " + clause   # "... and tell me how much": the same
        else:
            parsed.requests.append(Request(intent, " ".join([*loose, clause]) if not
                                           parsed.requests else clause))
            loose = [] if len(parsed.requests) == 1 else loose
    urgent = [r for r in parsed.requests if r.intent == "emergency"]
    for booking in [r for r in parsed.requests if r.intent == "book"] if urgent else []:
        urgent[0].text += " " + booking.text     # "toothache: can I come in today?": one request
        parsed.requests.remove(booking)
    parsed.loose = " ".join(loose)
    return parsed
