"""Splitting an owner's message into requests, with an "if not, then ..." fallback each."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PET_WORDS = r"(?:pet|dog|cat|puppy|kitten|rabbit|bunny|guinea pig|ferret|lizard|dragon|snake)"
INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("register", re.compile(
        r"\bregister|\bsign (?:\w+ )?up\b|\badd (?:a |my |our |him |her |them )?(?:new )?"
        + _PET_WORDS + r"|\bnew (?:little )?" + _PET_WORDS + r"|\bjust (?:got|adopted|rescued|"
        r"brought home|picked up)\b|\bnew addition\b|\bnot registered\b", re.I)),
    ("update", re.compile(
        r"\b(?:update|change|amend|correct|edit)\b[^.?!]{0,40}?\b(?:phone|number|mobile|email|"
        r"e-mail|address|contact)\b(?! for the appointment)|\bmoved (?:house|home|address|to)\b"
        r"|\bmoving (?:house|home)\b|\bnew (?:phone|mobile|number|email|e-mail|address)\b|"
        r"\b(?:phone|number|mobile|email|address) (?:has|have) changed\b", re.I)),
    ("cancel", re.compile(
        r"\bcancel\b|\bcall off\b|\b(?:can'?t|cannot|won'?t be able to|can no longer|not able to|"
        r"unable to) (?:make|come|bring|attend|do)\b|\bno longer need", re.I)),
    ("move", re.compile(
        r"\b(?:move|moving|reschedule|rearrange|re-arrange|postpone|push (?:\w+ )?back|"
        r"bring (?:\w+ )?forward|change (?:the|his|her|their|its|my) (?:appointment|time|date|"
        r"day|booking)|different (?:time|day)|later (?:that|the same) day|another (?:time|day))\b",
        re.I)),
    ("repeat", re.compile(
        r"\b(?:repeats?|prescriptions?|re-?order|refill|top[- ]up|more (?:of )?(?:his|her|their|"
        r"its|the) (?:tablets|medication|meds|medicine|pills|liquid)|running (?:low|out)|"
        r"run out|almost out|nearly out|apoquel|felimazole|semintra|metacam|vetmedin)\b|"
        r"\border\b[^.?!]{0,30}\b(?:tablets|medication|meds|medicine|pills|liquid|drops)\b|"
        r"\b(?:tablets|medication|meds|medicine|pills)\b[^.?!]{0,20}\b(?:more|another|order)\b",
        re.I)),
    ("pay", re.compile(r"\b(?:pay|paying|settle|clear off)\b", re.I)),
    ("invoices", re.compile(r"\b(?:invoices?|bills?|owe|outstanding|balance|statement|"
                            r"reminder letter|letter about)\b", re.I)),
    ("appointments", re.compile(r"\bwhen(?:'s| is| are)\b[^.?!]*\bappointments?\b|"
                                r"\bwhat time is\b", re.I)),
    ("book", re.compile(
        r"\b(?:book|booking|appointment|get (?:\w+ )?(?:in|seen)|see (?:a|the) (?:vet|nurse)|"
        r"bring (?:\w+ )?in|check-?up|health check|booster|vaccinations?|jabs?|nail clip|"
        r"nails? (?:clipped|trimmed|cut|done)|weight check|microchip(?:ped)?|stitches)\b", re.I)),
]
MERGE = {"register", "update", "invoices", "repeat", "appointments"}
# When one clause matches several, the first in this order is what it asks for.
PRIORITY = [name for name, _ in INTENTS]

FALLBACK_RE = re.compile(
    r"\b(?:if (?:not|there'?s (?:nothing|no\w*)|that'?s (?:not|full|taken|booked|too|no)|"
    r"it'?s (?:not|full|taken|booked|too)|(?:it|that|they|you|he|she|the \w+) (?:can'?t|won'?t|"
    r"cannot|isn'?t|aren'?t)|[^,.]{0,30}?\b(?:needs?|has to|have to)\b|(?:that'?s|it'?s) "
    r"(?:not )?(?:possible|available)|[^,.]{0,40}?(?:full|fully booked|not possible|no space|"
    r"nothing free|too many|too much|over the limit))|otherwise|failing that|or else|or if not)\b",
    re.I)


@dataclass
class Request:
    intent: str
    text: str
    fb_text: str = ""
    fb_intent: str | None = None


@dataclass
class Parsed:
    requests: list[Request] = field(default_factory=list)
    identity_text: str = ""
    """The message without the parts that carry new contact details (for identity facts)."""
    lead: str = ""
    """Leading clauses that ask for nothing themselves ("Pickle." answering "which pet?")."""


def intent_of(text: str) -> str | None:
    found = [name for name, pattern in INTENTS if pattern.search(text)]
    return min(found, key=PRIORITY.index) if found else None


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def _split_fallback(sentence: str) -> tuple[str, str]:
    m = FALLBACK_RE.search(sentence)
    if not m:
        return sentence, ""
    rest = sentence[m.start():]
    body = sentence[:m.start()].rstrip(" ,;-—(")
    # "if Saturday's full, Monday after 4": the condition ends at the first comma or "then".
    cut = re.search(r",|\bthen\b|—| - ", rest)
    alt = rest[cut.end():] if cut else rest[m.end() - m.start():]
    return body, alt.strip(" ,.;)")


_JOIN_RE = re.compile(r",? and also |,? and then |,? and |; |\. also |,? also |,? plus |, then ",
                      re.I)


def _clauses(sentence: str) -> list[str]:
    parts = _JOIN_RE.split(sentence)
    return [p for p in parts if p.strip()]


def parse_message(text: str) -> Parsed:
    """The requests of a message, in the order they were asked, and its identity text."""
    parsed = Parsed()
    identity: list[str] = []
    held = ""  # a clause with no request of its own joins the next (or the previous) request
    for sentence in _sentences(text):
        body, alt = _split_fallback(sentence)
        for clause in _clauses(body):
            intent = intent_of(clause)
            if intent != "update":
                identity.append(clause)
            if intent is None and _identity_only(clause):
                continue  # "C1042, BS7 8QT", "my number is ..., our dog is Bella"
            if intent is None:
                if parsed.requests:
                    parsed.requests[-1].text += " " + clause
                else:
                    held += " " + clause
                continue
            last = parsed.requests[-1] if parsed.requests else None
            if last and last.intent == intent and (intent in MERGE or not _separate(clause)):
                last.text += " and " + clause
                continue
            if not parsed.requests:
                parsed.lead = held.strip()
            elif held.strip():
                parsed.requests[-1].text += " " + held.strip()
            parsed.requests.append(Request(intent=intent, text=clause.strip()))
            held = ""
        if alt and parsed.requests:
            target = parsed.requests[-1]
            target.fb_text = (target.fb_text + " " + alt).strip()
            target.fb_intent = intent_of(alt)
            if target.fb_intent != "update":
                identity.append(alt)
        elif alt:
            held += " " + alt
    if held.strip() and parsed.requests:
        parsed.requests[-1].text += " " + held.strip()
    elif held.strip():
        parsed.lead = held.strip()
    parsed.identity_text = " ".join(identity)
    return parsed


def _separate(clause: str) -> bool:
    """A clause with its own verb is a request of its own ("... and book Pickle in too")."""
    return bool(re.match(r"\s*(?:can|could|would|please|i'?d|i want|i need|book|cancel|move|"
                         r"order|pay|update|change|register|also)\b", clause, re.I))


_ID_RE = re.compile(r"\bC[\s-]?\d{4}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|"
                    r"(?:\+44|\b0)\d[\d\s-]{8,12}\d\b", re.I)


def _identity_only(clause: str) -> bool:
    """A clause that gives identity facts (client number, postcode, phone) and asks nothing."""
    return bool(_ID_RE.search(clause))
