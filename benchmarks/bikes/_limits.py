"""The numbers of the written policy (policy.md), in one place for the tools and the agents."""

from __future__ import annotations

__all__ = [
    "CANCEL_FEE_CENTS",
    "DAMAGE_WINDOW_HOURS",
    "EBIKE_MAX_HOURS",
    "FREE_CANCEL_HOURS",
    "HOLD_MINUTES",
    "LATE_FEE_CAP_CENTS",
    "LATE_FEE_PER_HOUR_CENTS",
    "MAX_AHEAD_DAYS",
    "MAX_EXTENSION_HOURS",
    "MAX_HELD",
    "MIN_DESCRIPTION",
    "MIN_LEAD_MINUTES",
    "REFUND_WINDOW_DAYS",
]

MAX_EXTENSION_HOURS = 72
"""Extensions per rental, in total (3 days)."""
EBIKE_MAX_HOURS = 24
"""Longest e-bike rental from start to due time (battery range)."""
FREE_CANCEL_HOURS = 2
"""Cancelling a reservation at least this long before pickup is free."""
CANCEL_FEE_CENTS = 300
"""Late-cancellation fee (waived on the annual plan)."""
LATE_FEE_PER_HOUR_CENTS = 500
"""Late fee per started hour past the due time."""
LATE_FEE_CAP_CENTS = 5000
"""Most a late fee can be for one rental."""
REFUND_WINDOW_DAYS = 14
"""The desk refunds charges made within this many days."""
DAMAGE_WINDOW_HOURS = 48
"""Damage can be reported at the desk until this long after the return."""
MIN_LEAD_MINUTES = 30
"""A reservation's pickup is at least this far ahead."""
MAX_AHEAD_DAYS = 7
"""A reservation's pickup is at most this far ahead."""
HOLD_MINUTES = 30
"""A reserved bike is held this long past the pickup time."""
MAX_HELD = {"pay_as_you_go": 2, "monthly": 4, "annual": 4}
"""Reservations a customer may hold at once, by plan."""
MIN_DESCRIPTION = 10
"""Shortest damage description accepted, in characters."""
