"""Filling a request's slots from a message: which values belong to which request."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from benchmarks.domains.energy import _intents as intents
from benchmarks.domains.energy import _lang as lang
from benchmarks.domains.energy._seed import TODAY

_NO_READING = (
    r"\bno\b|\bdon't have\b|\bdo not have\b|\bestimate\b|\bhaven't\b|\bcan't\b|\bnot sure\b"
    r"|\bwithout\b|\bnope\b"
)


def absorb_slots(
    task: dict[str, Any], text: str, rest: str, addr: str | None, state: dict[str, Any]
) -> bool:
    """Put the values of `text` that `task` needs into its slots; True when one changed."""
    awaiting = state.get("awaiting") or ""
    asked = awaiting[5:] if awaiting.startswith("slot:") and state["tasks"][0] is task else None
    plain = lang.without_birthdates(rest)
    found = _FILLERS[task["intent"]](text, plain, addr, asked, state)
    changed = False
    for key, value in found.items():
        if value is not None and task["slots"].get(key) != value:
            task["slots"][key] = value
            changed = True
    return changed


def _reading(text: str, plain: str, addr: str | None, asked: str | None,
             state: dict[str, Any]) -> dict[str, Any]:
    when = lang.parse_date(plain, past=True)
    if when and not TODAY - timedelta(days=90) <= when <= TODAY + timedelta(days=30):
        when = None
    fuel = lang.fuel(plain)
    return {
        "reading": lang.reading(plain),
        "fuel": fuel if fuel in ("electricity", "gas") else None,
        "meter_id": _meter_id(plain),
        "date": when.isoformat() if when else None,
    }


def _meter_id(text: str) -> str | None:
    match = lang.METER_RE.search(text)
    return match.group(1).upper() if match else None


def _tariff(text: str, plain: str, addr: str | None, asked: str | None,
            state: dict[str, Any]) -> dict[str, Any]:
    chosen = lang.tariff(plain)
    if chosen is None and asked == "tariff_id":
        chosen = lang.tariff(plain + " fix") if re.search(r"\b12|24\b", plain) else None
    return {"tariff_id": chosen}


def _direct_debit(text: str, plain: str, addr: str | None, asked: str | None,
                  state: dict[str, Any]) -> dict[str, Any]:
    cleaned = lang.strip_non_readings(plain)
    day = lang.day_of_month(cleaned)
    if day is None and asked == "day_of_month":
        match = re.search(r"\b(\d{1,2})\b", cleaned)
        day = int(match.group(1)) if match else None
    money = lang.amount(plain)
    if money is None and asked == "amount":
        match = re.search(r"\b(\d{2,4}(?:\.\d{1,2})?)\b", cleaned)
        money = float(match.group(1)) if match else None
    return {"amount": money, "day_of_month": day}


def _plan(text: str, plain: str, addr: str | None, asked: str | None,
          state: dict[str, Any]) -> dict[str, Any]:
    count = lang.months(plain)
    if count is None and asked == "months":
        match = re.search(r"\b(\d{1,2})\b", lang.strip_non_readings(plain))
        count = int(match.group(1)) if match else None
        count = count or lang.NUMBER_WORDS.get(plain.lower().strip(" .!"))
    return {"months": count}


def _move(text: str, plain: str, addr: str | None, asked: str | None,
          state: dict[str, Any]) -> dict[str, Any]:
    without_addr = plain.replace(addr, " ") if addr else plain
    when = lang.parse_date(without_addr)
    new_address = addr
    if new_address is None and asked == "new_address" and len(text) > 10:
        new_address = re.sub(
            r"^(?:it'?s|it is|the new address is|my new address is|new address:?|that'?s"
            r"|sure,?)\s*",
            "", text.strip(" ."), flags=re.I,
        ).strip(" .")
    final = lang.reading(without_addr)
    if final is None and asked == "final_reading" and re.search(_NO_READING, text.lower()):
        final = "none"
    fuel = lang.fuel(without_addr)
    return {
        "move_out_date": when.isoformat() if when else None,
        "new_address": new_address,
        "final_reading": final,
        "final_fuel": fuel if fuel in ("electricity", "gas") else None,
    }


def _contact(text: str, plain: str, addr: str | None, asked: str | None,
             state: dict[str, Any]) -> dict[str, Any]:
    mail = lang.email(plain)
    if mail and not (state["verified"] or asked == "email" or lang.is_new_email(plain, mail)):
        mail = None
    return {"email": mail, "phone": lang.phone(plain)}


def _priority(text: str, plain: str, addr: str | None, asked: str | None,
              state: dict[str, Any]) -> dict[str, Any]:
    needs = []
    for part in re.split(r"\band\b|,|;|\balso\b", plain.lower()):
        need = intents.need(part)
        if need and need not in needs:
            needs.append(need)
    return {"needs": needs or None}


def _bill(text: str, plain: str, addr: str | None, asked: str | None,
          state: dict[str, Any]) -> dict[str, Any]:
    low = plain.lower()
    if re.search(r"\blast month\b|\blatest\b|\bmost recent\b", low):
        return {"period": None}
    for name, index in lang.MONTHS.items():
        if re.search(rf"\b{name}\b", low) and len(name) > 3:
            return {"period": f"{TODAY.year if index <= TODAY.month else TODAY.year - 1}-"
                              f"{index:02d}"}
    return {}


def _other(text: str, plain: str, addr: str | None, asked: str | None,
           state: dict[str, Any]) -> dict[str, Any]:
    mine = state["verified"] or state["ids"].get("account_number")
    others = [n for n in lang.account_numbers(text) if n != mine]
    return {"target": others[0] if others else None}


def _none(text: str, plain: str, addr: str | None, asked: str | None,
          state: dict[str, Any]) -> dict[str, Any]:
    return {}


_FILLERS = {
    "reading": _reading,
    "tariff": _tariff,
    "direct_debit": _direct_debit,
    "plan": _plan,
    "move": _move,
    "contact": _contact,
    "priority": _priority,
    "bill": _bill,
    "account_info": _none,
    "tariffs_info": _none,
    "other_account": _other,
}
