"""Splitting a customer's message into requests in the order asked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("van", re.compile(r"\bvan\b|\btruck\b|\blorry\b|\bremovals? (?:slot|vehicle)\b", re.I)),
    ("auth", re.compile(r"\bauthori[sz]|\bkey ?holder|\bnamed user|\b(?:add|put) (?:my |our )?"
                        r"(?:husband|wife|partner|son|daughter|brother|sister|mum|dad|mother|"
                        r"father|friend|colleague|flatmate|him|her|me)\b|\b(?:give|let) (?:my |"
                        r"our )?\w+ (?:access|get in|into)\b|\baccess to (?:my|the|his|her|our) "
                        r"unit\b|\b(?:on|to) (?:the|my|his|her) (?:unit|account) as\b|"
                        r"\b(?:get|be|being) "
                        r"added\b|\badd(?:ed)? (?:me|him|her|them)\b|\b(?:another|second|third|"
                        r"extra) (?:person|name|user)\b", re.I)),
    ("pin", re.compile(r"\bpin\b|\bgate (?:code|number|access|password)|\b(?:door|entry|access|"
                       r"keypad|security) code\b|\bcode (?:for|to) the gate\b|\bkeypad\b|"
                       r"\bcode\b(?= (?:is|was|for|to get in))", re.I)),
    ("dispute", re.compile(r"\bdisput|\bchallenge\b|\bunfair\b|\bwaive|\bappeal\b|\bwrong(?:ly)? "
                           r"(?:charged|fee)|\bshouldn'?t (?:have )?(?:been|be) charged|\bnot "
                           r"(?:fair|right|my fault)\b|\b(?:cancel|remove|scrap|drop|take off|"
                           r"refund|reverse|get rid of) (?:the|my|that|this|a) (?:£15 )?(?:late )?"
                           r"(?:fee|charge|penalty)\b|\bcomplain|"
                           r"\b(?:is|was)n'?t (?:fair|right|late)\b|"
                           r"\b(?:taken|took|take|knocked|wiped) off\b|\bremov(?:e|ed|al)\b"
                           r"(?=.*\b(?:fee|charge|penalty)\b)", re.I)),
    ("pay_fee", re.compile(r"\bpay\b|\bsettle\b|\bclear (?:the|my|that) (?:fee|balance|charge)|"
                           r"\boutstanding\b|\bowe\b", re.I)),
    ("notice", re.compile(r"\bmov(?:e|ing) out\b|\bnotice\b|\bvacate|\bend (?:my|the|our) "
                          r"(?:rental|contract|agreement|storage|lease)|\b(?:cancel|terminate|"
                          r"close|stop) (?:my|the|our) (?:rental|unit|storage|contract|account|"
                          r"agreement)|\bclear(?:ing)? out (?:of )?(?:my|the) unit\b|"
                          r"\b(?:give|hand) (?:back|up) (?:my|the) unit\b|\bleav(?:e|ing) "
                          r"(?:keepsafe|the unit|storage)\b|\bno longer need (?:my|the|a) "
                          r"(?:unit|storage)\b|\bempty(?:ing)? (?:my|the) unit\b", re.I)),
    ("resize", re.compile(r"\bbigger\b|\blarger\b|\bsmaller\b|\bup-?grad|\bdown-?(?:grad|siz)|"
                          r"\bsize (?:up|down)|\bmore (?:space|room)\b|\bless (?:space|room)\b|"
                          r"\bchange (?:the |my )?(?:unit )?size|\b(?:move|switch|swap|change|"
                          r"transfer|go) (?:me |my stuff |my things )?(?:up |down )?(?:to|into|"
                          r"over to) (?:a|an|the) (?:\d+|small|medium|large|extra|locker|"
                          r"garage)|\bdifferent (?:size|unit)\b|\bdown to a\b|\bup to a\b|"
                          r"\bmove (?:up|down)\b|"
                          r"\b(?:sq ft|square f\w+|unit|one)\b[^.?!]*\binstead\b|\binstead of "
                          r"my\b|\bswap (?:my|it|the) (?:unit|\w+ unit)\b", re.I)),
    ("rent", re.compile(r"\brent\b(?! (?:is|was|paid|payment|due|late))|\b(?:another|second|"
                        r"extra|additional) unit\b|\b(?:a|an) new unit\b|\breserve\b|"
                        r"\b(?:book|hire|take|get) "
                        r"(?:a|an|another|one more)\b(?=.*\b(?:unit|locker|sq|square)\b)|"
                        r"\bmove in\b", re.I)),
]
_SPLIT_RE = re.compile(
    r"(?<=[.!?])\s+|\s*;\s*|,?\s+and also\s+|,?\s+also\s+|,?\s+and then\s+|,?\s+plus\s+|"
    r",?\s+and\s+(?=(?:could you|can you|please|i'?d|i want|i need|change|set|update|add|"
    r"book|pay|give|put|dispute|reset|let me|move|get|rent|reserve)\b)", re.I)


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
            if name == "pay_fee" and not re.search(r"\bfee|\bcharge|\bbalance|\bpenalt|"
                                                   r"\boutstanding|\bowe\b", text, re.I):
                continue
            if name == "rent" and re.search(r"\bmove in\b", text, re.I) and \
                    re.search(r"\bvan\b", text, re.I):
                continue
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
        elif intent == "pay_fee" and parsed.requests and parsed.requests[-1].intent in {
                "dispute", "rent", "resize", "van", "notice"}:
            parsed.requests[-1].text += " " + clause    # "...the fee I was asked to pay"
        else:
            parsed.requests.append(Request(intent, " ".join([*loose, clause]) if not
                                           parsed.requests else clause))
            loose = [] if len(parsed.requests) == 1 else loose
    parsed.loose = " ".join(loose)
    return parsed
