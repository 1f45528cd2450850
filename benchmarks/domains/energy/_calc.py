"""Greenfield Energy's money and date rules, shared by the tools (no state here)."""

from __future__ import annotations

import math
import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.energy._seed import TODAY

EXIT_FEE_FREE_DAYS = 49
"""No exit fee in the last 49 days of a fixed term."""
DD_NOTICE_DAYS = 10
"""A direct debit change needs ten days' notice before a collection."""
MAX_PLAN_MONTHS = 12
MAX_MOVE_AHEAD_DAYS = 90
BILLED_TO = date(2026, 8, 31)

NEEDS = {
    "pensionable age": ("over 65", "pension", "elderly", "older", "retired", "age"),
    "young children": ("child", "children", "baby", "toddler", "under 5", "under five"),
    "medical equipment": (
        "medical", "oxygen", "dialysis", "ventilator", "nebuliser", "nebulizer",
        "stairlift", "equipment", "concentrator", "hoist",
    ),
    "visual impairment": ("visual", "sight", "blind", "partially sighted", "vision"),
    "hearing impairment": ("hearing", "deaf"),
    "mobility": ("mobility", "wheelchair", "walking"),
    "chronic illness": ("chronic", "illness", "long-term condition", "long term condition"),
}
PSR_SERVICES = [
    "advance notice of planned power cuts",
    "priority support in an emergency",
    "a password scheme for callers",
    "bills in large print or braille on request",
]


def money(value: float) -> float:
    return round(value + 1e-9, 2)


def next_collection(day_of_month: int, today: date = TODAY) -> date:
    """The first collection on `day_of_month` at least ten days from today."""
    earliest = today + timedelta(days=DD_NOTICE_DAYS)
    candidate = date(earliest.year, earliest.month, day_of_month)
    if candidate < earliest:
        month = earliest.month % 12 + 1
        year = earliest.year + (1 if earliest.month == 12 else 0)
        candidate = date(year, month, day_of_month)
    return candidate


def exit_fee(meter: dict[str, Any], tariff: dict[str, Any], today: date = TODAY) -> float:
    """£75 for this fuel when it leaves a fixed tariff more than 49 days before its end."""
    if tariff["kind"] != "fixed" or not meter["tariff_end"]:
        return 0.0
    days_left = (date.fromisoformat(meter["tariff_end"]) - today).days
    return float(tariff["exit_fee_per_fuel"]) if days_left > EXIT_FEE_FREE_DAYS else 0.0


def rates(tariff: dict[str, Any], fuel: str) -> tuple[float, float]:
    prefix = "elec" if fuel == "electricity" else "gas"
    return float(tariff[f"{prefix}_unit_rate"]), float(tariff[f"{prefix}_standing_charge"])


def monthly_cost(meters: list[dict[str, Any]], tariff_of: dict[str, dict[str, Any]]) -> float:
    """Estimated average monthly cost of the meters on the tariffs given (by meter id)."""
    total = 0.0
    for meter in meters:
        unit, standing = rates(tariff_of[meter["meter_id"]], meter["fuel"])
        total += meter["annual_kwh"] * unit + 365 * standing
    return money(total / 12)


def plan_instalments(overdue: float, months: int) -> tuple[float, float]:
    """Monthly instalment (rounded up to the penny) and the smaller final one."""
    monthly = math.ceil(round(overdue * 100, 6) / months) / 100
    final = money(overdue - monthly * (months - 1))
    return money(monthly), final


def final_bill(
    meters: list[dict[str, Any]],
    tariff_of: dict[str, dict[str, Any]],
    move_out: date,
    finals: dict[str, int],
) -> dict[str, Any]:
    """Usage and standing charges from the last bill to the move-out day."""
    usage = standing_total = 0.0
    for meter in meters:
        unit, standing = rates(tariff_of[meter["meter_id"]], meter["fuel"])
        if meter["meter_id"] in finals:
            units = finals[meter["meter_id"]] - meter["last_reading"]
        else:
            since = date.fromisoformat(meter["last_reading_date"])
            units = round(meter["annual_kwh"] / 365 * (move_out - since).days)
        usage += units * unit
        standing_total += (move_out - BILLED_TO).days * standing
    return {"usage_charge": money(usage), "standing_charges": money(standing_total)}


def normalise_account(raw: str) -> str:
    digits = re.sub(r"\D", "", raw or "")
    return f"GE-{digits}" if digits else (raw or "").strip().upper()


def normalise_postcode(raw: str) -> str:
    return re.sub(r"\s+", "", raw or "").upper()


def normalise_phone(raw: str) -> str | None:
    digits = re.sub(r"[\s\-()]", "", raw or "")
    if digits.startswith("+44"):
        digits = "0" + digits[3:]
    return digits if re.fullmatch(r"0\d{10}", digits) else None


def canonical_need(raw: str) -> str | None:
    text = (raw or "").strip().lower()
    if text in NEEDS:
        return text
    for need, words in NEEDS.items():
        if any(word in text for word in words):
            return need
    return None


def iso(value: date) -> str:
    return value.isoformat()
