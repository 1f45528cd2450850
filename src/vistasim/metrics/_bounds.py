"""The words that make a figure a rule's bound, shared by the detectors that read figures.

"more than 24 hours away", "within 30 days", "until 6 hours before", "at least 2 weeks", "a
minimum of 2 weeks": the figure bounds what the rule allows; it is no value of a change
(`contradicts-call`) and no figure of a record (`misquoted-result`).
"""

from __future__ import annotations

__all__ = ["BOUND_WORDS"]

BOUND_WORDS = (
    r"(?:(?:more|less|fewer|longer|later|earlier|sooner)\s+than|at\s+(?:least|most)|within|under"
    r"|over|until|up\s+to|no\s+later\s+than|minimum(?:\s+of)?|maximum(?:\s+of)?)"
)
"""A regular expression (no group of its own) for the words before a bounding figure."""
