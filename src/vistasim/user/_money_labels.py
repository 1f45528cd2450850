"""Which amount an amount is: "your excess is £250" is the excess, not the goal's estimate.

A goal names one sum ("the fencer thinks about £1,200"); the agent's reply may state several
("we would pay up to £950; your excess is £250; the annual premium is £456"). The proposal check
compares a sum with the goal's only when it may be the same quantity: one labelled by a noun
for a different kind of sum (an excess, a premium, a fee) is something else, unless the goal
labels its own sum that way.
"""

from __future__ import annotations

import re

__all__ = ["other_quantity", "sum_labels"]

_DISTINCT = (
    "excess", "premium", "fee", "fees", "deposit", "balance", "limit", "interest", "discount",
    "surcharge", "tax", "vat", "allowance", "credit limit", "deductible", "penalty",
)  # fmt: skip
"""Sums of their own kind: a refund or a price is usually the goal's sum; these are not."""
_LABEL_BEFORE = re.compile(
    rf"\b({'|'.join(re.escape(n) for n in _DISTINCT)})\b(?:\s+(?:is|was|of|at|will be|would be|"
    r"comes to|stays at|remains))?\s*[:=]?\s*(?:(?:only|just|about|around|a|an)\s+)?$",
    re.IGNORECASE,
)


def _label(text: str, start: int) -> str | None:
    found = _LABEL_BEFORE.search(text[max(0, start - 40) : start])
    return found[1].casefold() if found else None


def sum_labels(goal: str, starts: list[int]) -> frozenset[str]:
    """The kinds of sum the goal gives its own sums at `starts` ("an excess of £100")."""
    return frozenset(label for s in starts if (label := _label(goal, s)) is not None)


def other_quantity(text: str, start: int, goal_labels: frozenset[str]) -> bool:
    """Whether the sum at `start` of `text` is labelled as a kind the goal's sum is not.

    >>> other_quantity("Your excess is £250.00.", 15, frozenset())
    True
    >>> other_quantity("We would pay up to £950.00.", 19, frozenset())
    False
    >>> other_quantity("Your excess is £250.00.", 15, frozenset({"excess"}))
    False
    """
    label = _label(text, start)
    return label is not None and label not in goal_labels
