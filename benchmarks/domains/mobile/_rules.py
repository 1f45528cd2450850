"""Brightwave's pricing rules, shared by the tools: prorating, early termination, plan moves."""

from __future__ import annotations

import calendar
import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from benchmarks.domains.mobile._seed import TODAY

_POSTCODE = re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}$")


def money(value: float) -> float:
    """Round half up to pence."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def gbp(value: float) -> str:
    """£12.50 style; negative amounts as a credit are the caller's wording."""
    return f"£{abs(value):,.2f}"


def normalize_phone(raw: str) -> str:
    """07700 900123, +44 7700 900123, 07700-900-123 -> 07700900123 (other text unchanged)."""
    digits = re.sub(r"\D", "", raw or "")
    if digits.startswith("44") and len(digits) == 12:
        digits = "0" + digits[2:]
    return digits if len(digits) == 11 and digits.startswith("07") else (raw or "").strip()


def show_phone(number: str) -> str:
    """07700900123 -> 07700 900123."""
    return f"{number[:5]} {number[5:]}" if len(number) == 11 else number


def normalize_postcode(raw: str) -> str | None:
    """A UK postcode in upper case with one space, or None when it is not one."""
    squashed = re.sub(r"\s+", "", (raw or "").upper())
    if not _POSTCODE.match(squashed):
        return None
    return f"{squashed[:-3]} {squashed[-3:]}"


def month_end(day: date) -> date:
    """The last day of `day`'s month."""
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def next_month_start(day: date) -> date:
    """The first day of the month after `day`'s."""
    end = month_end(day)
    return date.fromordinal(end.toordinal() + 1)


def prorated_difference(old_price: float, new_price: float, today: date = TODAY) -> float:
    """(new - old) for the days left in this billing month, today included."""
    days_in_month = calendar.monthrange(today.year, today.month)[1]
    days_left = days_in_month - today.day + 1
    return money((new_price - old_price) * days_left / days_in_month)


def months_left(contract_end: str, today: date = TODAY) -> int:
    """Whole billing months after this one up to the contract's last month."""
    end = date.fromisoformat(contract_end)
    if end <= today:
        return 0
    return max(0, (end.year - today.year) * 12 + end.month - today.month)


def early_termination_fee(contract_end: str, monthly_price: float, today: date = TODAY) -> float:
    """Remaining monthly charges: months left after this one x the monthly price."""
    return money(months_left(contract_end, today) * monthly_price)


def in_contract(contract_end: str, today: date = TODAY) -> bool:
    """Whether the minimum term is still running."""
    return date.fromisoformat(contract_end) > today


def plan_move_refusal(line: dict[str, Any], current: dict[str, Any], target: dict[str, Any]) -> str:
    """Why the line may not move to `target` (empty when it may)."""
    if target["plan_id"] == current["plan_id"]:
        return f"The line is already on {target['name']}."
    if not target["on_sale"]:
        return f"{target['name']} is no longer sold."
    end = line["contract_end"]
    if in_contract(end):
        if target["family"] != current["family"]:
            kind = "SIM-only" if current["family"] == "sim_only" else "phone"
            return (
                f"{target['name']} is not available on this contract: while the {kind} contract "
                f"runs (until {end}) the line can only move to another {kind} plan."
            )
        if target["monthly_price"] < current["monthly_price"]:
            return (
                f"{target['name']} is not available on this contract: a cheaper plan can only be "
                f"chosen once the contract ends on {end}."
            )
        return ""
    if target["family"] == "handset":
        return (
            f"{target['name']} comes with a new phone, so it can only be taken as an upgrade in a "
            "Brightwave store."
        )
    return ""
