"""How the shop's rule-based agent reads customer messages: ids, emails, intents, items, yes/no.

Keyword and pattern matching, the way many deployed support bots work. Some of the shortcuts
here are the rule agent's documented flaws (see README.md): they are deliberate and tested.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "corrected_address",
    "find_address",
    "find_coupon",
    "find_email",
    "find_intent",
    "find_items",
    "find_option",
    "find_order_id",
    "find_refund_to",
    "is_no",
    "is_yes",
]

_ORDER = re.compile(r"\b[Ww]\s?-?(\d{4})\b")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_COUPON = re.compile(r"\b([A-Z]{3,}\d{1,3})\b")
_ADDRESS = re.compile(
    r"(\d+\s+[A-Za-z0-9 .'-]+?),\s*([A-Za-z .'-]+?),?\s+(?:[A-Z]{2}\s+)?(\d{5})\b"
)
_INTENTS: list[tuple[str, re.Pattern[str]]] = [
    ("human", re.compile(r"\b(human|real person|manager|representative|supervisor)\b")),
    ("cancel", re.compile(r"\bcancel")),
    ("exchange", re.compile(r"\b(exchange|swap|different (size|colou?r))\b")),
    (
        "refund_status",
        re.compile(r"(where|status|when)\b.{0,30}\brefund|refund.{0,20}\b(status|yet)"),
    ),
    ("return", re.compile(r"\b(return|send (it|them) back|refund)")),
    ("address", re.compile(r"(?<!email )\b(address|ship it to|moved|moving)\b")),
    ("coupon", re.compile(r"\b(coupon|promo|discount code|voucher)\b")),
    ("status", re.compile(r"\b(where is|where's|track|status|when will|arrive|shipped yet)\b")),
    (
        "search",
        re.compile(r"\b(you (have|sell|carry)|looking for|search|recommend|in stock|buy)\b"),
    ),
]
_YES = re.compile(r"\b(yes|yeah|yep|sure|ok|okay|go ahead|please do|correct|confirm|do it)\b")
_NO = re.compile(r"\b(no|nope|don't|do not|wait|hold on|stop|not yet|never ?mind)\b")
_CORRECTION = re.compile(r"\b(sorry|i mean|i meant|no wait|actually|make that|correction)\b", re.I)
_STOP_WORDS = {"the", "and", "set", "for", "with", "pack", "trio", "from", "classic", "everyday"}


def find_order_id(text: str) -> str | None:
    """The first order number in the text, normalized to `W1234`."""
    match = _ORDER.search(text)
    return f"W{match.group(1)}" if match else None


def find_email(text: str) -> str | None:
    """The first email address in the text."""
    match = _EMAIL.search(text)
    return match.group(0).rstrip(".").lower() if match else None


def find_coupon(text: str) -> str | None:
    """A coupon-looking code (capital letters then digits, e.g. SPRING10)."""
    match = _COUPON.search(text.upper())
    return match.group(1) if match else None


def find_address(text: str) -> dict[str, str] | None:
    """A street, city and 5-digit ZIP written as `12 Birch Ct, Salem, OR 97301`."""
    match = _ADDRESS.search(text)
    if not match:
        return None
    street, city, zip_code = (part.strip() for part in match.groups())
    return {"address_line": street, "city": city, "zip": zip_code}


def corrected_address(text: str, current: dict[str, str] | None) -> bool:
    """Whether the text takes an address back (flaw F1 keeps the first one).

    Either another address than the one taken, or two in one message with a correction between.
    """
    found = [m.group(0) for m in _ADDRESS.finditer(text)]
    if current is not None and found:
        return find_address(found[-1]) != current
    return len(set(found)) > 1 and bool(_CORRECTION.search(text))


def find_intent(text: str) -> str | None:
    """What the customer wants, by the first matching keyword group (most specific first)."""
    lowered = text.lower()
    return next((name for name, pattern in _INTENTS if pattern.search(lowered)), None)


def find_refund_to(text: str) -> str | None:
    """`gift_card` or `original_payment` if the customer says where the refund should go."""
    lowered = text.lower()
    if re.search(r"gift ?card|store credit|credit", lowered):
        return "gift_card"
    if re.search(r"original|my card|same (card|payment)|back to|visa|mastercard|amex", lowered):
        return "original_payment"
    return None


def named_items(text: str, items: Sequence[dict[str, str]]) -> list[str]:
    """SKUs of every item of the order the text names (what `find_items` should return)."""
    lowered = text.lower()
    return [item["sku"] for item in items if _mention(lowered, item) >= 0]


def corrected_order(text: str, current: str | None, first: str | None) -> str | None:
    """The order number the customer corrects to, when the text takes one back (flaw F1).

    Either another number than the one already taken (`current`), or two numbers in one message
    with a correction between them ("W1010 — sorry, I mean W1011").
    """
    found = [f"W{m}" for m in _ORDER.findall(text)]
    if current is not None and found and found[-1] != current:
        return found[-1]
    if first is not None and len(set(found)) > 1 and _CORRECTION.search(text):
        return found[-1]
    return None


def find_items(text: str, items: Sequence[dict[str, str]]) -> list[str]:
    """SKUs of the order's items the text names.

    Only the item named first is returned: a shortcut that drops the second of two items named
    in one message (flaw F2). With no item named, "both", "all" or "everything" select every item.
    """
    lowered = text.lower()
    positions = [(_mention(lowered, item), item["sku"]) for item in items]
    named = sorted((pos, sku) for pos, sku in positions if pos >= 0)
    if named:
        return [named[0][1]]
    if re.search(r"\b(both|all of them|all items|everything|whole order)\b", lowered):
        return [item["sku"] for item in items]
    return []


def _mention(lowered: str, item: dict[str, str]) -> int:
    if item["sku"].lower() in lowered:
        return lowered.index(item["sku"].lower())
    words = [
        w
        for w in re.findall(r"[a-z]+", item["product_name"].lower())
        if len(w) > 2 and w not in _STOP_WORDS
    ]
    hits = [m.start() for w in words for m in re.finditer(rf"\b{w}s?\b", lowered)]
    return min(hits, default=-1)


def find_option(text: str, options: Sequence[str]) -> str | None:
    """The variant option (size or color) the text names, e.g. `M`, `Black`, `10`."""
    for option in sorted(options, key=len, reverse=True):
        if len(option) <= 2:
            # Short sizes (S, M, 10) only count as a whole word, and letters only in capitals,
            # so "I'm" is not size M.
            pattern = rf"(?<![\w'])({re.escape(option)})(?![\w'])"
            if re.search(pattern, text):
                return option
        elif re.search(rf"\b{re.escape(option.lower())}\b", text.lower()):
            return option
    return None


def is_yes(text: str) -> bool:
    """Whether the customer agrees.

    Looks for an agreeing word anywhere, before looking for a refusal: "Okay, wait, no" counts
    as yes (flaw F4, a hedged confirmation).
    """
    return bool(_YES.search(text.lower()))


def is_no(text: str) -> bool:
    """Whether the customer refuses or asks to hold on."""
    return bool(_NO.search(text.lower()))
