"""Pulse Fitness: the money and date rules, shared by the tools (one place for each rule)."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from typing import Any

from vistasim.env import ToolFailure

MAX_BOOKINGS = 3
LATE_FEE = 5.0
FREEZE_FEE = 5.0
PLAN_NAMES = {"offpeak": "Off-Peak", "standard": "Standard", "premium": "Premium"}
PLAN_FEES = {"offpeak": 25.0, "standard": 35.0, "premium": 50.0}
PLAN_RANK = {"offpeak": 1, "standard": 2, "premium": 3}


def plan_name(plan_id: str) -> str:
    return PLAN_NAMES.get(plan_id, plan_id)


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    last = calendar.monthrange(year, month)[1]
    return day.replace(year=year, month=month, day=min(day.day, last))


def is_peak(starts: datetime) -> bool:
    """Weekday classes from 16:00 are peak; Off-Peak members may not book them."""
    return starts.weekday() < 5 and starts.hour >= 16


def late_fee(starts: datetime, now: datetime) -> float:
    return LATE_FEE if starts - now < timedelta(hours=2) else 0.0


def plan_change(m: dict[str, Any], plan_id: str, now: datetime) -> dict[str, Any]:
    if plan_id not in PLAN_FEES:
        raise ToolFailure(f"no plan {plan_id!r}; plans: offpeak, standard, premium")
    if plan_id == m["plan_id"]:
        raise ToolFailure(f"the member is already on {plan_name(plan_id)}")
    if m["status"] == "cancelling":
        raise ToolFailure(f"the membership is cancelled from {m['end_date']}")
    billing = date.fromisoformat(m["next_billing_date"])
    if PLAN_RANK[plan_id] > PLAN_RANK[m["plan_id"]]:
        period = (billing - add_months(billing, -1)).days
        left = (billing - now.date()).days
        charge = round((PLAN_FEES[plan_id] - m["monthly_fee"]) * left / period, 2)
        return {"kind": "upgrade", "plan_id": plan_id, "plan": plan_name(plan_id),
                "effective_from": now.date().isoformat(), "charge_now": charge,
                "new_monthly_fee": PLAN_FEES[plan_id], "next_billing_date": billing.isoformat()}
    if m["contract"] == "annual":
        raise ToolFailure(f"an annual contract cannot be downgraded before it ends on "
                          f"{m['contract_end']}")
    return {"kind": "downgrade", "plan_id": plan_id, "plan": plan_name(plan_id),
            "effective_from": billing.isoformat(), "charge_now": 0.0,
            "new_monthly_fee": PLAN_FEES[plan_id]}


def check_freeze(m: dict[str, Any], start: date, months: int, today: date) -> tuple[date, float]:
    if not 1 <= months <= 3:
        raise ToolFailure("a freeze is 1 to 3 months")
    if start < today:
        raise ToolFailure("the freeze cannot start in the past")
    if start > today + timedelta(days=60):
        raise ToolFailure("a freeze must start within the next 60 days")
    if m["status"] == "cancelling":
        raise ToolFailure(f"the membership is cancelled from {m['end_date']}")
    if m["contract"] == "annual":
        allowed = add_months(date.fromisoformat(m["start_date"]), 3)
        if start < allowed:
            raise ToolFailure(f"annual contracts cannot be frozen in their first 3 months; "
                              f"this one can be frozen from {allowed.isoformat()}")
    return add_months(start, months), FREEZE_FEE * months


def cancellation(m: dict[str, Any], medical: bool, today: date) -> dict[str, Any]:
    end = add_months(today, 1)
    remaining = 0
    if m["contract"] == "annual" and m["contract_end"]:
        billing, stop = date.fromisoformat(m["next_billing_date"]), date.fromisoformat(
            m["contract_end"])
        while billing < stop:
            remaining += billing > end
            billing = add_months(billing, 1)
    charge = 0.0 if medical else round(remaining * m["monthly_fee"], 2)
    return {"end_date": end.isoformat(), "contract": m["contract"],
            "remaining_months": remaining, "exit_charge": charge,
            "medical_waiver": bool(medical and remaining)}


def parse_expiry(text: str) -> date | None:
    match = re.fullmatch(r"\s*(\d{1,2})\s*/\s*(\d{2}|\d{4})\s*", text)
    if not match or not 1 <= int(match[1]) <= 12:
        return None
    year = int(match[2]) + (2000 if len(match[2]) == 2 else 0)
    return date(year, int(match[1]), 1)
