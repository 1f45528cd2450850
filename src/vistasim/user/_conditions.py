"""A price a goal sets on its request: "only cancel it if there is no fee", "if it's under £20".

Or the money back it asks for: "only if I get the £12 I paid back".

A person with such a goal says no to a proposal that costs more, and that is their goal met, not
a failure to ask again. Amounts are read with `vistasim.values`, so "£270.00" and "270 GBP" are
the same figure.

>>> price_limit("Tell me whether cancelling costs anything. Only cancel it if there is no fee.")
0.0
>>> price_limit("Switch me to Fix 12, but I won't pay an exit fee.")
0.0
>>> price_limit("Add the 5GB pack, as long as it's under £10.")
10.0
>>> price_limit("Cancel my line.") is None
True
>>> price_limit("Move my test to 14 January — but not if it means paying the test fee again.")
0.0
>>> price_limit("Move it — but if there's a fee for changing the date, I'd rather keep it.")
0.0
>>> price_limit("If there's a problem, call me back.") is None
True
>>> price_limit("It's cracked. If I have to pay for it I'll get my own glazier in instead.")
0.0
>>> price_limit("If I have to pay for it, tell me how much.") is None
True
>>> over_limit("That means a fee of £270.00. Shall I cancel?", 0.0)
'270.00'
>>> over_limit("There's no charge for this. Shall I go ahead?", 0.0) is None
True
>>> left_unchanged("It would cost £15.00, and you asked me to leave it if there was a charge,"
...                " so I haven't changed anything.")
True
>>> left_unchanged("Done: collection moved to 14:00, £15.00 added to your bill.")
False
>>> wants_back("Cancel it, but only if I get my credit hour and the £12 I paid back.")
True
>>> wants_back("Cancel my lesson — but if I'd lose the hours for it, I'd rather keep it.")
True
>>> refund_denied("It starts in less than 24 hours, so the £12.00 paid can't be returned.")
True
>>> refund_denied("£12.00 is refunded to your card. Shall I cancel it?")
False
>>> refund_denied("It's under 48 hours away, so the 2 hours are lost and won't go back.")
True
>>> price_held("Book the installation from my quote — but only at the price I was quoted.")
True
>>> price_held("Renew it as long as the price hasn't gone up."), price_held("Book it.")
(True, False)
>>> price_rose("At today's prices it comes to £3,340.00 (it was £3,090.00).")
True
>>> price_rose("The price has gone up to £55.00."), price_rose("It's £55.00, as quoted.")
(True, False)
"""

from __future__ import annotations

import re

from vistasim.values import text_values

__all__ = [
    "left_unchanged",
    "over_limit",
    "price_held",
    "price_limit",
    "price_rose",
    "refund_denied",
    "wants_back",
]

_FREE = re.compile(
    r"\b(?:only|just)\b[^.;]{0,40}?\bif\b[^.;]{0,30}?"
    r"(?:\bno (?:fee|charge|cost)s?\b|\bfree\b|\b(?:costs?|charges?) (?:me )?nothing\b"
    r"|\bdoes ?n[o']t cost\b|\bwon'?t cost\b)"
    r"|\bas long as (?:there(?:'s| is) no (?:fee|charge|cost)|it(?:'s| is) free"
    r"|it (?:costs|is) nothing)\b"
    r"|\bif (?:it(?:'s| is) free|there(?:'s| is) no (?:fee|charge|cost))\b[^.;]{0,20}?\bonly\b"
    r"|\b(?:won'?t|will not|don'?t want to|do not want to|not willing to|refuse to|can'?t) pay"
    r" (?:an?|the|any) (?:\w+ )?(?:fee|charge|penalty)"
    r"|\bnot if (?:it|that|this) (?:means|involves) paying\b[^.;]{0,30}?\b(?:fee|charge|penalty)"
    r"|\bif (?:I|we) (?:have|need|had) to pay\b[^.;]{0,60}?"
    r"\b(?:instead|I'?d rather|I would rather|leave it|forget it|don'?t bother)\b"
    r"|\bif (?:there(?:'s| is| are) (?:an?|any) |it (?:means|involves) (?:paying )?(?:an?|any) )"
    r"(?:\w+ )?(?:fee|charge|cost|penalty)s?\b[^.;]{0,60}?"
    r"\b(?:I'?d rather|I would rather|I'?d prefer|leave it|keep it|don'?t|do not|forget it)",
    re.IGNORECASE,
)
_CEILING = re.compile(
    r"\b(?:only|as long as|provided|if)\b[^.;]{0,40}?\b(?:under|less than|below|no more than|"
    r"up to|at most|not more than|cheaper than)\s*(?P<amount>[£$€]\s?\d+(?:[.,]\d{1,2})?"
    r"|\d+(?:[.,]\d{1,2})?\s?(?:pounds|euros?|dollars|GBP|EUR|USD))",
    re.IGNORECASE,
)


def price_limit(goal: str) -> float | None:
    """The most the goal allows its request to cost (0.0: only if free), or None."""
    if _FREE.search(goal):
        return 0.0
    found = _CEILING.search(goal)
    if found is None:
        return None
    amounts = [float(v) for kind, v in text_values(found.group("amount")) if kind == "money"]
    return amounts[0] if amounts else None


def over_limit(message: str, limit: float) -> str | None:
    """The largest amount the message states above the limit, or None."""
    amounts = sorted(
        (float(v), v) for kind, v in text_values(message) if kind == "money"
    )
    above = [text for value, text in amounts if value > limit + 0.005]
    return above[-1] if above else None


_UNCHANGED = re.compile(
    r"\b(?:haven'?t|have not|hasn'?t|has not|didn'?t|did not|won'?t|will not)\s+"
    r"(?:changed?|made|booked|moved|added|touched|done|updated)\s+"
    r"(?:anything|any changes?|it|that|the \w+|your \w+)\b"
    r"|\b(?:left|kept|keeping|leaving)\s+(?:it|everything|things|your \w+|the \w+)\s+"
    r"(?:as (?:it|they) (?:is|are|was|were)|unchanged|as is)\b"
    r"|\bno changes? (?:has|have|was|were) (?:been )?made\b"
    r"|\bnothing(?:'s| has been| has| was| is) changed\b",
    re.IGNORECASE,
)


def left_unchanged(message: str) -> bool:
    """Whether the agent says it changed nothing ("so I haven't changed anything")."""
    return _UNCHANGED.search(message) is not None


_BACK = re.compile(
    r"\b(?:only|just|as long as|provided)\b[^.;]{0,60}?\b(?:get|have|receive|getting)\b"
    r"[^.;]{0,60}?\b(?:back|refunded|returned|a (?:full )?refund)\b"
    r"|\bif (?:I|we)(?:'d| would) lose (?:it|them|the|my|that)",
    re.IGNORECASE,
)
_NOT_BACK = re.compile(
    r"\b(?:can(?:no|')t|cannot|won'?t|will not|isn'?t|is not|aren'?t|are not|not)\s+(?:be\s+)?"
    r"(?:returned|refunded|given back|paid back)\b|\bno refund\b|\bnon-?refundable\b"
    r"|\bnothing (?:is |will be )?(?:returned|refunded)\b|\byou(?:'d| would| will)? lose\b"
    r"|\b(?:is|are|will be|would be) lost\b|\bforfeit"
    r"|\b(?:won'?t|will not|wouldn'?t|would not|don'?t|do not|doesn'?t|does not|can'?t|cannot)"
    r" (?:go|come|be put|be added) back\b",
    re.IGNORECASE,
)


def wants_back(goal: str) -> bool:
    """Whether the goal asks for its request only with what it paid given back."""
    return _BACK.search(goal) is not None


def refund_denied(message: str) -> bool:
    """Whether the message says nothing paid would be given back."""
    return _NOT_BACK.search(message) is not None


_HELD = re.compile(
    r"\b(?:only|just)\b[^.;]{0,30}?\bat the (?:same )?(?:price|rate|cost|figure)\s+(?:I|we)\s+"
    r"(?:was|were|got|have been)\s+quoted\b|\bat the (?:quoted|original) (?:price|rate)\b"
    r"|\b(?:as long as|provided|only if)\s+the (?:price|rate|cost|quote)\s+(?:hasn'?t|has not|"
    r"didn'?t|did not)\s+(?:gone up|go up|changed?|risen|rise|increased?)\b"
    r"|\bif (?:it|the (?:price|rate|cost))(?:'s| has) (?:gone up|risen|increased)\b[^.;]{0,30}?"
    r"\b(?:leave it|forget it|don'?t|do not|I'?d rather)",
    re.IGNORECASE,
)
_ROSE = re.compile(
    r"\b(?:has|have|had|'s|is|was)\s+(?:now\s+)?(?:gone up|risen|increased|gone higher)\b"
    r"|\bwent up\b|\bat today'?s (?:prices?|rates?)\b[^;]{0,60}?\((?:it|that) was\s"
    r"|\bprice (?:rise|increase)\b",
    re.IGNORECASE,
)


def price_held(goal: str) -> bool:
    """Whether the goal wants its request only at the price it was quoted (no rise)."""
    return _HELD.search(goal) is not None


def price_rose(message: str) -> bool:
    """Whether the message says the price has gone up since it was quoted."""
    return _ROSE.search(message) is not None
