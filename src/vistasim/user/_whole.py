"""A value said as a whole token: the one test every reading of the user's values shares.

Size "10" is not the "10" of order W1040 or of 10:30; course STAT200 is the STAT200 of
section "STAT200-B". Replacing the first "10" of "exchange the sneakers from order W1040 for
size 10" asked for order W1140 when a branch meant to ask for size 11.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["says", "whole"]


@lru_cache(maxsize=1024)
def whole(value: str) -> re.Pattern[str]:
    """The value as a whole token, in any case.

    No word character around it, and no digit after a decimal point or a colon ("10" of "10.5"
    or "10:30").
    """
    return re.compile(rf"(?<!\w){re.escape(value.strip())}(?![\w]|[.,:]\d)", re.IGNORECASE)


def says(text: str, value: object) -> bool:
    """Whether `text` says `value` as a whole token (an empty value is never said)."""
    spoken = str(value).strip()
    return bool(spoken) and whole(spoken).search(text) is not None
