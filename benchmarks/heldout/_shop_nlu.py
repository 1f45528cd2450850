"""Reading a shop customer's words: requests, order numbers, items, refunds, addresses, codes.

Pure functions over text (and over an order as `get_order` returns it), so the flows stay short
and the parsing can be tested on its own.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.heldout._base import corrected, singular, words

_ORDER = re.compile(r"\b[Ww]\s?-?(\d{4})\b")
_CODE = re.compile(r"\b([A-Za-z]{3,}\d{1,3})\b")
_ADDRESS = re.compile(
    r"\b(?P<line>\d+\s+[A-Za-z0-9 .'-]+?),\s*(?P<city>[A-Za-z .'-]+?),?\s+"
    r"(?:[A-Z]{2}\s+)?(?P<zip>\d{5})\b"
)
_PRICE = re.compile(r"(?:under|below|less than|up to|max(?:imum)?)\s*\$?\s*(\d+(?:\.\d\d)?)")

# Request kinds, most specific first; a lower rank wins where two patterns overlap.
_INTENTS: list[tuple[str, str]] = [
    (
        "refund_status",
        r"status of (?:my |the |a )?refund|refund status|where(?:'s| is) my refund"
        r"|(?:check|track|about) (?:on )?(?:my |the )refund|when will i get my refund",
    ),
    ("cancel", r"\bcancel(?:ling|ing)?\b"),
    ("exchange", r"\b(?:exchange|swap)\b|\b(?:different|another) (?:size|colou?r)\b"),
    ("return", r"\b(?:return(?:ing)?|send (?:it |them )?back)\b"),
    ("address", r"\b(?:shipping address|delivery address|(?<!email )address|ship it to|moved)\b"),
    ("coupon", r"\b(?:coupon|promo(?:tion)? code|discount code|voucher code)\b"),
    ("status", r"\b(?:status|track(?:ing)?|where(?: is|'s)? my|when will|arrive)\b"),
    ("search", r"\b(?:do you (?:have|sell|carry)|you have|looking for|in stock|under \$)"),
    (
        "escalate",
        r"\b(?:human|real person|representative|a person|manager|supervisor|someone)\b",
    ),
]
_STOP = {
    "find", "out", "whether", "you", "have", "under", "below", "the", "any", "there", "for",
    "looking", "want", "need", "buy", "sell", "carry", "stock", "less", "than", "cheap", "one",
    "something", "please", "can", "could", "tell", "me", "what", "your", "like", "would",
    "gotta", "wanna", "hiya", "hello", "hey", "hi", "got",
}  # fmt: skip
_NEGATED = re.compile(
    r"\b(?:not|except|instead of|rather than|keep)\s+(?:the\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?",
    re.IGNORECASE,
)
_ALL_ITEMS = re.compile(r"\b(?:both|all|every(?:thing)?|whole order|entire order)\b")
_SIZE = re.compile(r"\bsize\s+(xl|[sml]|\d{1,2})\b", re.IGNORECASE)
_COLOR = re.compile(r"\b(black|white|red|blue)\b", re.IGNORECASE)
_BARE = re.compile(r"\b(XL|S|M|L)\b|(?:^|\s)(\d{1,2})(?:\s|$|[.!,])")


def intents(text: str) -> list[tuple[str, int]]:
    """The kinds of request in a message, with where each starts, in the customer's order."""
    low = text.lower()
    found: list[tuple[int, int, int, str]] = []
    for rank, (name, pattern) in enumerate(_INTENTS):
        for match in re.finditer(pattern, low):
            found.append((rank, match.start(), match.end(), name))
    kept: list[tuple[int, int, int, str]] = []
    for item in sorted(found):
        if all(item[2] <= k[1] or item[1] >= k[2] for k in kept):
            kept.append(item)
    ordered = sorted(kept, key=lambda k: k[1])
    result: list[tuple[str, int]] = []
    for _rank, start, _end, name in ordered:
        if not result or result[-1][0] != name:
            result.append((name, start))
    return result


def order_ids(text: str) -> list[tuple[str, int]]:
    """Order numbers in the text with their positions, after applying any correction."""
    matches = [(f"W{m.group(1)}", m.start()) for m in _ORDER.finditer(text)]
    kept = corrected(text, [m[0] for m in matches], [m[1] for m in matches])
    return [m for m in matches if m[0] in kept and m[1] >= _first_kept(matches, kept)]


def _first_kept(matches: list[tuple[str, int]], kept: list[str]) -> int:
    return next((pos for oid, pos in matches if oid in kept), 0)


def coupon_code(text: str) -> str | None:
    """A coupon code such as SPRING10 (never an order number)."""
    for match in _CODE.finditer(text):
        code = match.group(1).upper()
        if not re.fullmatch(r"W\d{4}", code):
            return code
    return None


def address(text: str) -> dict[str, str] | None:
    """A street line, city and 5-digit ZIP, e.g. '12 Birch Ct, Salem, OR 97301'."""
    match = _ADDRESS.search(text)
    if match is None:
        return None
    return {
        "address_line": match.group("line").strip(),
        "city": match.group("city").strip(),
        "zip": match.group("zip"),
    }


def max_price_cents(text: str) -> int | None:
    """A price ceiling such as 'under $100', in cents."""
    match = _PRICE.search(text.lower())
    return round(float(match.group(1)) * 100) if match else None


def search_words(text: str) -> str:
    """The product words of a search request ('a blender under $100' -> 'blender')."""
    kept = [
        w
        for w in re.findall(r"[a-z][a-z-]+", text.lower())
        if w not in _STOP and len(w) > 2 and not w.startswith("$")
    ]
    return " ".join(kept[-2:]) if kept else ""


def refund_choice(text: str) -> str | None:
    """Where the customer wants the refund: 'gift_card', 'original_payment' or None."""
    low = text.lower()
    if re.search(r"gift ?card|store credit|voucher|store balance", low):
        return "gift_card"
    if re.search(r"original|card|same payment|payment method|back to my|credit|visa|amex", low):
        return "original_payment"
    return None


def refund_choice_as_built(text: str) -> str | None:
    """The deployed keyword table: 'credit' (meant for 'credit card') is checked before 'store'."""
    low = text.lower()
    if re.search(r"gift ?card|voucher|store balance", low):
        return "gift_card"
    if re.search(r"original|card|same payment|payment method|back to my|credit|visa|amex", low):
        return "original_payment"
    if "store" in low:
        return "gift_card"
    return None


def match_items(text: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The order's items the text names ('the toaster and the coffee maker', 'both items')."""
    said = words(_without_negated(text))
    named = [
        item
        for item in items
        if any(singular(w) in said for w in item["product_name"].split() if len(w) > 2)
    ]
    if not named and _ALL_ITEMS.search(text.lower()):
        return list(items)
    return named


def _without_negated(text: str) -> str:
    """The text without the things it rules out ('the kettle, not the toaster' -> 'the kettle')."""
    return _NEGATED.sub(" ", text)


def option_words(text: str) -> str | None:
    """The size or color asked for ('the black one' -> 'Black', 'size 10' -> '10')."""
    for pattern in (_SIZE, _COLOR, _BARE):
        match = pattern.search(text)
        if match:
            value = next(g for g in match.groups() if g)
            return value.upper() if len(value) <= 2 else value.capitalize()
    return None


def find_variant(product: dict[str, Any], wanted: str) -> dict[str, Any] | None:
    """The product's variant whose option is `wanted` (case-insensitive)."""
    wanted = wanted.strip().lower()
    return next((v for v in product["variants"] if v["option"].lower() == wanted), None)


def item_label(item: dict[str, Any]) -> str:
    """'2 x Trail Daypack (Red)'."""
    option = "" if item["option"] == "Standard" else f" ({item['option']})"
    return f"{item['quantity']} x {item['product_name']}{option}"


def reason_clause(text: str) -> str | None:
    """A reason given with the request ('..., it is defective and stopped working')."""
    match = re.search(
        r"(?:because|since|\bas\b|[,;:—?.!-])\s*((?:it|they|the|i|both|my|its|it's)\b[^.?!]*)",
        text,
        re.IGNORECASE,
    )
    if match is None:
        return None
    kept = []
    for part in match.group(1).split(","):
        if re.search(r"\b(?:refund|store credit|gift card|order w?\d{4}|email)\b", part, re.I):
            break
        kept.append(part)
    clause = ",".join(kept).strip()
    return clause if len(clause) > 6 else None
