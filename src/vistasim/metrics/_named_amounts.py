"""An amount a report gives in the word of a field of the call's result, and that field's amount.

"Done — claim 1 is registered: £80.00 is payable to your card" after a call that returned
`payable: "£35.00", value: "£80.00"`: the £80.00 is one of the call's amounts (its value), so
comparing amounts alone (`wrong_values`) sees nothing wrong; said as what is *payable*, it is
not what the call made payable. Only one-word fields are read, and only where the word stands
right beside the amount ("£80.00 is payable", "payable: £35.00", "a refund of £20.00"): a field
of several words is `misquoted-result`'s, read around the figure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from vistasim.events import ToolCall
from vistasim.store import StoredEvent
from vistasim.values import money_amount

__all__ = ["misnamed_amount"]

_AMOUNT = r"([£$€]\s?\d[\d,]*(?:\.\d{1,2})?)"
_UNITS = ("pence", "cents")
_LINK = r"(?:is|are|was|were|will\s+be|has\s+been|have\s+been)"


def misnamed_amount(text: str, writes: Sequence[StoredEvent]) -> bool:
    """Whether the text gives, in a result field's own word, an amount the field does not hold."""
    fields: dict[str, set[float]] = {}
    for stored in writes:
        if isinstance(stored.event, ToolCall) and isinstance(stored.event.result, dict):
            for word, amount in _amount_fields(stored.event.result):
                fields.setdefault(word, set()).add(round(amount, 2))
    for word, amounts in fields.items():
        for said in _said_as(text, word):
            if round(said, 2) not in amounts:
                return True
    return False


def _amount_fields(result: Mapping[str, object]) -> Iterator[tuple[str, float]]:
    """(word, amount) for each one-word money field of a result, its unit suffix dropped."""
    for key, value in result.items():
        words = [w for w in str(key).lower().split("_") if w]
        in_units = bool(words) and words[-1] in _UNITS
        if in_units:
            words = words[:-1]
        if len(words) != 1 or not words[0].isalpha() or len(words[0]) < 4:
            continue
        if in_units and isinstance(value, int) and not isinstance(value, bool):
            yield words[0], value / 100
        elif isinstance(value, str) and (amount := money_amount(value)) is not None:
            yield words[0], amount


def _said_as(text: str, word: str) -> Iterator[float]:
    """The amounts the text gives as `word`: "£80.00 is payable", "payable: £35.00"."""
    name = re.escape(word)
    after = re.compile(rf"{_AMOUNT}\s+{_LINK}\s+{name}\b", re.IGNORECASE)
    before = re.compile(rf"\b{name}\s*(?::|{_LINK}|of)\s*{_AMOUNT}", re.IGNORECASE)
    for pattern in (after, before):
        for match in pattern.finditer(text):
            amount = money_amount(match.group(1))
            if amount is not None:
                yield amount
