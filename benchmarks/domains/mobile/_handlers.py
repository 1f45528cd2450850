"""The bot's requests one by one: the details each needs, its proposal, and carrying it out."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.mobile import _texts as texts
from benchmarks.domains.mobile._dates import duration_days, spoken
from benchmarks.domains.mobile._handler_base import AGAIN, IGNORE_CASE
from benchmarks.domains.mobile._handlers_account import AccountHandlers
from benchmarks.domains.mobile._lang import ZONE_ADDON
from benchmarks.domains.mobile._rules import gbp, month_end, show_phone
from benchmarks.domains.mobile._seed import MAX_ROAMING_DAYS, TODAY

_DATA_BY_SIZE = {5: "DATA5", 20: "DATA20"}
_DATA_BY_PRICE = {5.0: "DATA5", 12.5: "DATA20"}
_I = IGNORE_CASE


class Handlers(AccountHandlers):
    """Mixin of CorrectMobileAgent: bills, plans, plan changes, data add-ons, roaming passes."""

    # -- details ---------------------------------------------------------------------------

    def _slots_roaming(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        held = intent["slots"]
        if AGAIN.search(text):
            held["again"] = True
        if "zone" in slots:
            held["zone"], held["place"] = slots["zone"], slots["place"]
        start, end = slots.get("start"), slots.get("end")
        if start and end:
            held["start"], held["end"] = start.isoformat(), end.isoformat()
            return
        if not (start or end):
            days = duration_days(text)
            if held.get("start") and days and not held.get("end"):
                first = date.fromisoformat(held["start"])
                held["end"] = (first + timedelta(days=days - 1)).isoformat()
            return
        day = (start or end).isoformat()
        if end and not start:
            held["end"] = day
        elif held.get("start") and held.get("end"):
            if re.search(r"\b(?:until|till|back|return|home|end|last day)\b", text, _I):
                held["end"] = day
            elif re.search(r"\b(?:from|start|leav|depart|fly out|first day)", text, _I):
                held["start"] = day
            else:
                nearer_start = abs(_days(day, held["start"])) <= abs(_days(day, held["end"]))
                held["start" if nearer_start else "end"] = day
        elif held.get("start") and day > held["start"]:
            held["end"] = day
        else:
            held["start"] = day

    def _slots_data_addon(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        held = intent["slots"]
        if AGAIN.search(text):
            held["again"] = True
        for size in slots.get("sizes", []):
            held["addon"] = _DATA_BY_SIZE.get(size, f"unknown:{size or 'unlimited'}")
        for amount in slots.get("amounts", []):
            if amount in _DATA_BY_PRICE:
                held["addon"] = _DATA_BY_PRICE[amount]
        if re.search(r"\b(?:smaller|cheaper|small|smallest|cheapest)\b", text, _I):
            held["addon"] = "DATA5"
        elif re.search(r"\b(?:bigger|larger|big|biggest|largest)\b", text, _I):
            held["addon"] = "DATA20"

    def _slots_change_plan(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        if slots.get("plan_refs"):
            intent["slots"]["refs"] = slots["plan_refs"]
    def _slots_bill(self, intent: dict[str, Any], slots: dict[str, Any], text: str) -> None:
        for key in ("amounts", "topics", "compare", "bill_month", "bill_previous"):
            if key in slots:
                intent["slots"][key] = slots[key]

    # -- questions and refusals ------------------------------------------------------------

    async def _step_bill(self, intent: dict[str, Any]) -> str:
        held, line = intent["slots"], intent["line"]
        bill, error = await self._call("get_bill", {"phone_number": line})
        if error:
            self._say(f"I couldn't open the bill: {error}")
            return "done"
        wanted = _wanted_period(bill["period"], held)
        if wanted != bill["period"]:
            other, error = await self._call("get_bill", {"phone_number": line, "period": wanted})
            if error:
                self._say(f"I couldn't find that bill: {error}")
                return "done"
            bill = other
        self._say(texts.bill_text(bill, held))
        return "done"

    async def _step_plans(self, intent: dict[str, Any]) -> str:
        catalogue = await self._catalogue()
        self._say(texts.plans_text(catalogue["plans"], intent["slots"].get("filters", {})))
        return "done"

    async def _step_pin_reminder(self, intent: dict[str, Any]) -> str:
        self._say(
            "For your security I can never read out, text or email your account PIN. You can see "
            "or reset it in the Brightwave app under Account > Security, or in any Brightwave "
            "store with photo ID."
        )
        return "done"

    # -- plan change -----------------------------------------------------------------------

    async def _step_change_plan(self, intent: dict[str, Any]) -> str:
        line = intent["line"]
        offers, error = await self._call("list_offers", {"phone_number": line})
        if error:
            self._say(f"I couldn't check the plans for that line: {error}")
            return "done"
        current = offers["current_plan"]
        plans = {p["plan_id"]: p for p in offers["plans"]}
        options = {o["plan_id"]: o for o in offers["line_options"]}
        refs = intent["slots"].get("refs", [])
        target = texts.resolve_plan(refs, list(plans.values()), current)
        if target is None:
            if [r for r in refs if r != current["plan_id"]]:
                self._say("I couldn't match that to one of our plans.")
            return self._ask("plan", texts.options_text(current, plans, options))
        option, plan = options[target], plans[target]
        if not option["available"]:
            self._say(f"I'm sorry, I can't move {show_phone(line)} to {plan['name']}. "
                      f"{texts.humanize(option['reason'])}")
            if any(o["available"] for o in options.values()):
                self._say(texts.options_text(current, plans, options))
                intent["slots"].pop("refs", None)
                self.s["asked"] = "plan"
                return "wait"
            return "done"
        amount = option["prorated_difference_today"]
        intent["slots"]["plan_id"] = target
        if amount >= 0:
            prorated = (f"Because you're changing part-way through the month, a prorated "
                        f"difference of {gbp(amount)} for the rest of May goes on your next bill")
        else:
            prorated = (f"Because you're changing part-way through the month, you get a prorated "
                        f"credit of {gbp(amount)} for the rest of May on your next bill")
        return self._propose(intent, (
            f"To confirm: I'll move {show_phone(line)} from {current['name']} "
            f"({gbp(current['monthly_price'])} a month) to {plan['name']} "
            f"({gbp(plan['monthly_price'])} a month, {texts.data_text(plan)}), starting today. "
            f"{prorated}, and from June the new monthly price applies. Shall I go ahead?"
        ))

    async def _do_change_plan(self, intent: dict[str, Any]) -> None:
        line, plan_id = intent["line"], intent["slots"]["plan_id"]
        result, error = await self._call(
            "change_plan", {"phone_number": line, "plan_id": plan_id}
        )
        if error:
            await self._failed(intent, error)
            return
        amount = result["prorated_amount"]
        self._record_done(intent, f"{show_phone(line)} is on {result['new_plan']}.")
        money_text = (f"a prorated {gbp(amount)} will be on your next bill" if amount >= 0
                      else f"a prorated credit of {gbp(amount)} will be on your next bill")
        self._say(f"Done: {show_phone(line)} is now on {result['new_plan']} at "
                  f"{gbp(result['monthly_price'])} a month, and {money_text}.")

    # -- data and roaming ------------------------------------------------------------------

    async def _step_data_addon(self, intent: dict[str, Any]) -> str:
        view = await self._view(intent["line"])
        if view.get("unlimited_data"):
            self._say(f"Your {view['plan_name']} plan already has unlimited data, so you don't "
                      "need a data add-on.")
            return "done"
        addons = {a["addon_id"]: a for a in (await self._catalogue())["data_addons"]}
        chosen = intent["slots"].get("addon")
        if chosen not in addons:
            lead = ""
            if chosen and chosen.startswith("unknown:"):
                size = chosen[8:] + ("" if chosen[8:] == "unlimited" else "GB")
                lead = f"We don't have a {size} data add-on. "
            options = " or ".join(
                f"{a['data_gb']}GB for {gbp(a['price'])}" for a in addons.values()
            )
            return self._ask("addon", (
                f"{lead}There are two data add-ons: {options}. Each works straight away, lasts "
                f"until the end of this billing month ({spoken(month_end(TODAY))}) and is charged "
                "on your next bill. Which would you like?"
            ))
        addon = addons[chosen]
        return self._propose(intent, (
            f"I can add the {addon['name']} to {show_phone(intent['line'])} for "
            f"{gbp(addon['price'])}, charged on your next bill. It works straight away and lasts "
            f"until {spoken(month_end(TODAY))}. Shall I add it?"
        ))

    async def _do_data_addon(self, intent: dict[str, Any]) -> None:
        result, error = await self._call(
            "add_addon", {"phone_number": intent["line"], "addon_id": intent["slots"]["addon"]}
        )
        if error:
            await self._failed(intent, error)
            return
        until = texts.day_text(result["end_date"])
        self._record_done(intent, f"the {result['name']} is active on "
                          f"{show_phone(intent['line'])} until {until}.")
        self._say(f"Done: the {result['name']} is active on {show_phone(intent['line'])} now, "
                  f"until {texts.day_text(result['end_date'])}. {gbp(result['price'])} will be on "
                  "your next bill.")

    async def _step_roaming(self, intent: dict[str, Any]) -> str:
        held, line = intent["slots"], intent["line"]
        if not held.get("zone"):
            return self._ask("zone", "Where are you travelling to?")
        view = await self._view(line)
        if held["zone"] == "europe" and view.get("eu_roaming_included"):
            self._say(f"Good news: your {view['plan_name']} plan already includes roaming in "
                      "Europe at no extra cost, so you don't need a pass. Your allowance works "
                      "there just as it does at home.")
            return "done"
        if view.get("roaming_barred"):
            account = await self._account()
            self._say(f"I'm sorry, I can't add a roaming pass: roaming is barred on "
                      f"{show_phone(line)} while the account has an overdue balance of "
                      f"{gbp(account['overdue_balance'])}. Once that's paid, roaming can be "
                      "switched back on and a pass added.")
            return "done"
        if not held.get("start"):
            return self._ask("dates", "What dates do you need the pass for: the day you leave "
                             "and the day you come back?")
        if not held.get("end"):
            return self._ask("dates", f"And what's the last day you'll need it? It would start "
                             f"on {texts.day_text(held['start'])}.")
        return await self._quote_roaming(intent)

    async def _quote_roaming(self, intent: dict[str, Any]) -> str:
        held, line = intent["slots"], intent["line"]
        start, end = date.fromisoformat(held["start"]), date.fromisoformat(held["end"])
        if start < TODAY:
            self._say(f"I'm sorry, roaming passes can't be backdated: a pass can only start today "
                      f"({spoken(TODAY)}) or later, so I can't add one from {spoken(start)}.")
            return "done"
        days = (end - start).days + 1
        if days > MAX_ROAMING_DAYS:
            held.pop("start"), held.pop("end")
            return self._ask("dates", f"A roaming pass can cover at most {MAX_ROAMING_DAYS} days, "
                             f"and those dates cover {days}. Which dates (up to 30 days) would "
                             "you like this pass for? You can book a second one afterwards.")
        addon_id = ZONE_ADDON[held["zone"]]
        passes = {a["addon_id"]: a for a in (await self._catalogue())["roaming_passes"]}
        addon = passes[addon_id]
        total = round(days * addon["price"], 2)
        return self._propose(intent, (
            f"A {addon['name']} for {show_phone(line)} from {spoken(start)} to {spoken(end)} "
            f"covers {days} days at {gbp(addon['price'])} a day, so {gbp(total)} in total, "
            "charged on your next bill. Shall I book it?"
        ))

    def _roaming_args(self, intent: dict[str, Any]) -> dict[str, Any]:
        held = intent["slots"]
        return {"phone_number": intent["line"], "addon_id": ZONE_ADDON[held["zone"]],
                "start_date": held["start"], "end_date": held["end"]}

    async def _do_roaming(self, intent: dict[str, Any]) -> None:
        result, error = await self._call("add_addon", self._roaming_args(intent))
        if error:
            await self._failed(intent, error)
            return
        self._record_done(intent, f"your {result['name']} on {show_phone(intent['line'])} is "
                          f"booked from {texts.day_text(result['start_date'])} to "
                          f"{texts.day_text(result['end_date'])}.")
        self._say(f"Booked: your {result['name']} on {show_phone(intent['line'])} is set from "
                  f"{texts.day_text(result['start_date'])} to {texts.day_text(result['end_date'])}"
                  f", {gbp(result['price'])} on your next bill. Have a great trip!")

def _days(a: str, b: str) -> int:
    return (date.fromisoformat(a) - date.fromisoformat(b)).days


def _wanted_period(latest: str, held: dict[str, Any]) -> str:
    year, month = int(latest[:4]), int(latest[5:])
    if held.get("bill_previous"):
        month -= 1
    elif held.get("bill_month"):
        wanted = held["bill_month"]
        year = year if wanted <= month + 1 else year - 1
        month = min(wanted, month) if wanted == month + 1 else wanted
    if month < 1:
        year, month = year - 1, 12
    return f"{year}-{month:02d}"
