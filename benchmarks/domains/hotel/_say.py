"""How the desk writes amounts, dates and counts in its replies."""

from __future__ import annotations

from datetime import date


def eur(amount: float) -> str:
    """An amount in euros: €1,234.50."""
    return f"€{amount:,.2f}"


def day(value: date | str) -> str:
    """A date with its weekday: Friday 12 June 2026."""
    d = date.fromisoformat(value) if isinstance(value, str) else value
    return f"{d:%A} {d.day} {d:%B %Y}"


def span(check_in: date | str, check_out: date | str) -> str:
    """A stay: Friday 12 June to Monday 15 June 2026."""
    ci = date.fromisoformat(check_in) if isinstance(check_in, str) else check_in
    co = date.fromisoformat(check_out) if isinstance(check_out, str) else check_out
    first = f"{ci:%A} {ci.day} {ci:%B}" + ("" if ci.year == co.year else f" {ci.year}")
    return f"{first} to {day(co)}"


def count(n: int, word: str) -> str:
    """3 nights, 1 guest."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def difference(amount: float, than: str = "now") -> str:
    """€80.00 more than now / €40.00 less than now / the same as now."""
    if amount > 0:
        return f"{eur(amount)} more than {than}"
    if amount < 0:
        return f"{eur(-amount)} less than {than}"
    return f"the same as {than}"


def saver_refusal(ref: str, what: str) -> str:
    """The refusal for a change the Advance Saver rate does not allow."""
    return (
        f"I'm sorry — booking {ref} is on the Advance Saver rate, which can't be changed, so "
        f"I can't {what}. The booking stays exactly as it is."
    )
