"""How the bot words bills, plan lists and plan options."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.mobile._dates import spoken
from benchmarks.domains.mobile._rules import gbp, money

_KIND_TOPICS = {
    "roaming": ("roaming", "abroad", "france"), "fee": ("late", "fee"),
    "addon": ("top-up", "top up", "data"), "usage": ("118", "directory", "premium", "text",
                                                      "texts", "international", "0871"),
}


def day_text(iso: str) -> str:
    """'2026-05-01' -> 'Friday 1 May 2026'."""
    return spoken(date.fromisoformat(iso))


def humanize(message: str) -> str:
    """ISO dates in a tool's message as a person says them."""
    return re.sub(r"\b(20\d\d-\d\d-\d\d)\b", lambda m: day_text(m.group(1)), message)


def month_name(period: str) -> str:
    """'2026-04' -> 'April 2026'."""
    return date.fromisoformat(period + "-01").strftime("%B %Y")


def data_text(plan: dict[str, Any]) -> str:
    """'30GB data' or 'unlimited data'."""
    return "unlimited data" if plan.get("data_gb") is None else f"{plan['data_gb']}GB data"


def plan_line(plan: dict[str, Any]) -> str:
    """'Max 100GB: £25.00 a month, 100GB data'."""
    extra = ", roaming in Europe included" if plan.get("eu_roaming_included") else ""
    return f"{plan['name']}: {gbp(plan['monthly_price'])} a month, {data_text(plan)}{extra}"


def _focus(items: list[dict[str, Any]], slots: dict[str, Any]) -> list[dict[str, Any]]:
    wanted = [money(a) for a in slots.get("amounts", [])]
    topics = slots.get("topics", [])
    chosen = [i for i in items if money(i["amount"]) in wanted]
    for item in items:
        text = (item["description"] + " " + item["detail"]).lower()
        if item in chosen or item["kind"] == "plan":
            continue
        if any(t in text or t in _KIND_TOPICS.get(item["kind"], ()) for t in topics):
            chosen.append(item)
    return chosen


def bill_text(bill: dict[str, Any], slots: dict[str, Any]) -> str:
    """The bill, its items, and an explanation of the charges the customer asked about."""
    status = {"paid": "It has been paid.", "due": "It hasn't been paid yet.",
              "overdue": "It is overdue."}[bill["status"]]
    items = bill["items"]
    listed = "; ".join(f"{i['description']}, {gbp(i['amount'])}" for i in items)
    parts = [
        f"Your {month_name(bill['period'])} bill (issued {day_text(bill['issued_on'])}, due "
        f"{day_text(bill['due_on'])}) comes to {gbp(bill['total'])}. {status} It is made up of: "
        f"{listed}."
    ]
    focus = _focus(items, slots)
    for item in focus:
        parts.append(f"The {gbp(item['amount'])} is: {item['description']}. {item['detail']}")
    previous = bill.get("previous_total")
    extras = [i for i in items if i["kind"] != "plan"]
    if previous is not None and bill["total"] > previous and extras:
        difference = money(bill["total"] - previous)
        why = "; ".join(f"{i['description']} ({gbp(i['amount'])})" for i in extras)
        parts.append(
            f"That's {gbp(difference)} more than the previous bill ({gbp(previous)}), because of "
            f"charges on top of your plan: {why}."
        )
        if not focus:
            for item in extras:
                parts.append(f"About the {gbp(item['amount'])}: {item['detail']}")
    asked = [money(a) for a in slots.get("amounts", [])]
    unknown = [a for a in asked if a not in {money(i["amount"]) for i in items}]
    if previous is not None:
        unknown = [a for a in unknown if a != money(bill["total"] - previous)]
    unknown = [a for a in unknown if a != money(bill["total"])]
    if unknown:
        parts.append(
            f"I can't see a charge of {gbp(unknown[0])} on this bill. If it's on another month's "
            "bill, tell me which month and I'll check it."
        )
    return " ".join(parts)


def plans_text(plans: list[dict[str, Any]], filters: dict[str, Any]) -> str:
    """The plans on sale that fit the question."""
    chosen = [p for p in plans if p["on_sale"]]
    if filters.get("family"):
        chosen = [p for p in chosen if p["family"] == filters["family"]]
    if filters.get("min_gb"):
        chosen = [p for p in chosen if p["data_gb"] is None or p["data_gb"] >= filters["min_gb"]]
    if filters.get("unlimited") and not filters.get("min_gb"):
        chosen = [p for p in chosen if p["data_gb"] is None]
    chosen.sort(key=lambda p: p["monthly_price"])
    if filters.get("cheapest") and chosen:
        chosen = chosen[:1]
    if not chosen:
        return "I'm afraid none of our plans matches that. " + plans_text(plans, {})
    sim_only = [plan_line(p) for p in chosen if p["family"] == "sim_only"]
    handset = [plan_line(p) for p in chosen if p["family"] == "handset"]
    parts = []
    if sim_only:
        parts.append("SIM-only plans: " + "; ".join(sim_only) + ".")
    if handset:
        parts.append("Plans with a new phone: " + "; ".join(handset) + ".")
    parts.append(
        "SIM-only plans are 12 months, or rolling monthly once the term ends. Plans with a phone "
        "are 24 months."
    )
    return "Here's what we offer. " + " ".join(parts)


def options_text(current: dict[str, Any], plans: dict[str, Any],
                 options: dict[str, dict[str, Any]]) -> str:
    """The plans a line may move to, each with today's prorated difference."""
    lines = []
    for plan_id, option in options.items():
        if not option["available"]:
            continue
        amount = option["prorated_difference_today"]
        extra = (f"prorated extra today {gbp(amount)}" if amount > 0
                 else f"prorated credit today {gbp(amount)}")
        lines.append(f"{plan_line(plans[plan_id])} ({extra})")
    if not lines:
        return (f"You're on {current['name']}, and on this contract there's no other plan you can "
                "move to right now.")
    return (f"You're on {current['name']} ({gbp(current['monthly_price'])} a month). On your "
            f"contract you can move to: " + "; ".join(lines) + ". Which plan would you like?")


def resolve_plan(
    refs: list[str], plans: list[dict[str, Any]], current: dict[str, Any]
) -> str | None:
    """The plan the customer means: the last named one that isn't their current plan."""
    found: list[str] = []
    same = [p for p in plans if p["family"] == current["family"]]
    for ref in refs:
        if ref.startswith("gb:"):
            size = int(ref[3:])
            pool = [p for p in same if p["data_gb"] == size] or [
                p for p in plans if p["data_gb"] == size]
        elif ref == "unlimited":
            pool = [p for p in same if p["data_gb"] is None] or [
                p for p in plans if p["data_gb"] is None]
        elif ref.startswith("price:"):
            pool = [p for p in plans if money(p["monthly_price"]) == money(float(ref[6:]))]
        else:
            pool = [p for p in plans if p["plan_id"] == ref]
        found.extend(p["plan_id"] for p in pool[:1])
    others = [p for p in found if p != current["plan_id"]]
    return others[-1] if others else None
