"""The desk's flows: book, items, dates, windows, cancel, disputes, contacts, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.partyhire import _read as rd
from benchmarks.domains.partyhire import _seed
from benchmarks.domains.partyhire._env import item_price, zone_of

WINDOW_WORDS = {"AM": "morning", "PM": "afternoon"}
CLOSED = {"dispatched", "collected"}


def say_window(window: str) -> str:
    return f"the {WINDOW_WORDS[window]} window ({_seed.WINDOWS[window]})"


def hire_days(delivery: str, collection: str) -> int:
    return (date.fromisoformat(collection) - date.fromisoformat(delivery)).days


class Flows:
    """The flows; `CorrectPartyhireAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_customer", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    async def catalogue(self) -> dict[str, dict[str, Any]]:
        if not self.s.get("catalogue"):
            cat, error = await self.call("get_catalogue")
            if error:
                return {}
            self.s["catalogue"] = {i["item_id"]: i for i in cat["items"]}
        return dict(self.s["catalogue"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_order(self, v: dict[str, Any], text: str) -> dict[str, Any]:
        """The order meant: one named by number on the account, else the one verified."""
        named = [o for o in v["orders"] if o["order_id"] in rd.orders(text)]
        if named:
            return named[-1]
        return next(o for o in v["orders"] if o["order_id"] == self.s["order"])

    def say_lines(self, lines: dict[str, int]) -> str:
        cat = self.s.get("catalogue") or {}
        parts = []
        for item_id, qty in lines.items():
            name = cat[item_id]["name"] if item_id in cat else item_id
            if qty != 1:
                head, _, tail = name.partition(" (")
                head += "es" if head.endswith("s") else "s"
                name = head + (f" ({tail}" if tail else "")
            parts.append(f"{qty} {name}")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def say_changes(self, old: dict[str, int], changes: dict[str, int]) -> str:
        """'add 10 folding chairs (40 in all) and take off the 2 patio heaters'."""
        parts = []
        for item_id, qty in changes.items():
            have = old.get(item_id, 0)
            if qty > have:
                total = f" ({qty} in all)" if have else ""
                parts.append(f"add {self.say_lines({item_id: qty - have})}{total}")
            elif qty == 0:
                parts.append(f"take off the {self.say_lines({item_id: have})}")
            else:
                parts.append(f"take off {self.say_lines({item_id: have - qty})} ({qty} left)")
        return " and ".join(parts)

    def closed(self, o: dict[str, Any], what: str, out: list[str]) -> bool:
        """A dispatched, collected or cancelled order can't be changed: say so."""
        if o["status"] in CLOSED:
            out.append(f"I'm sorry — order {o['order_id']} has already been {o['status']}, and "
                       f"{what} can't be changed after dispatch. Nothing has been changed; "
                       "please call us if there's a problem on the day.")  # fmt: skip
            return True
        if o["status"] == "cancelled":
            out.append(f"Order {o['order_id']} is cancelled, so there's nothing to change.")
            return True
        return False

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The customer said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost a {rd.pounds(fee)} change fee, as it's less than 7 "
                       "days before delivery, and you asked me to leave it if there was a "
                       "fee, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def survey_day(self, delivery: str) -> str | None:
        """The surveyor's first free weekday, if it is at least 3 days before delivery."""
        day = self.today + timedelta(days=_seed.SURVEY_LEAD_DAYS)
        while day.weekday() > 4:
            day += timedelta(days=1)
        if (date.fromisoformat(delivery) - day).days < _seed.SURVEY_BEFORE_DAYS:
            return None
        return day.isoformat()

    def no_survey(self, out: list[str]) -> str:
        out.append("I'm sorry — a marquee needs a site survey at least 3 days before delivery, "
                   "and our surveyor's first free visit is too close to your delivery day, so "
                   "I can't add a marquee to this hire. Nothing has been changed.")  # fmt: skip
        return "done"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def hire_total(self, lines: dict[str, int], days: int) -> int:
        """Every item for `days`: the hire price up to 3 days, else the weekly rate."""
        cat = self.s["catalogue"]
        return sum(item_price(cat[i], days) * q for i, q in lines.items())

    def deposit_for(self, lines: dict[str, int]) -> int:
        cat = self.s["catalogue"]
        if any(cat[i]["marquee"] and q for i, q in lines.items()):
            return _seed.MARQUEE_DEPOSIT_PENCE
        return _seed.DEPOSIT_PENCE

    def change_fee(self, o: dict[str, Any], old: dict[str, int], new: dict[str, int]) -> int:
        """Any change to items or dates inside 7 days of delivery: £20.00."""
        return _seed.CHANGE_FEE_PENCE if o["days_to_delivery"] < _seed.FREE_CHANGE_DAYS else 0

    def item_changes(self, text: str, o: dict[str, Any]) -> dict[str, int]:
        """The new quantity of each item named: added to, taken off, or set."""
        old = {line["item_id"]: line["qty"] for line in o["lines"]}
        op, out = rd.change_op(text), {}
        for item_id, qty in rd.items(text):
            have = old.get(item_id, 0)
            if op == "remove":
                out[item_id] = have - qty if qty and qty < have else 0
            elif op == "set":
                out[item_id] = have if qty is None else qty
            else:
                out[item_id] = have + (qty or 1)
        return {i: q for i, q in out.items() if q != old.get(i, 0)}

    def cancel_refund(self, o: dict[str, Any]) -> int:
        """The band's share of hire and delivery, by days before delivery, plus the deposit."""
        paid, days = o["hire_pence"] + o["delivery_pence"], o["days_to_delivery"]
        if days >= _seed.FULL_REFUND_DAYS:
            share = paid
        elif days >= _seed.HALF_REFUND_DAYS:
            share = paid // 2
        else:
            share = 0
        return int(share + o["deposit_pence"])

    def dispute_late(self, b: dict[str, Any]) -> bool:
        return bool(b["days_since_charged"] > _seed.DISPUTE_DAYS)

    # -- a new hire ------------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        await self.catalogue()
        text = self.text(req)
        lines = {i: q or 1 for i, q in rd.items(text)}
        if not lines:
            return self.ask("items", "What would you like to hire, and how many of each?", out)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d > self.today]
        if len(days) < 2 or days[1] <= days[0]:
            return self.ask("dates", "Which day should we deliver, and which day should we "
                            "collect?", out)  # fmt: skip
        start, end = days[0].isoformat(), days[1].isoformat()
        # the venue's postcode may be said in a sentence of its own, before the request
        everything = " ".join([*self.s.get("said", []), text])
        said = [p for p in rd.postcodes(everything) if p != self.s["postcode"]]
        postcode = said[-1] if said else self.s["postcode"]
        zone = zone_of(postcode)
        if zone is None:
            out.append(f"I'm sorry — {postcode} is outside our delivery area (we deliver to "
                       "GL1–GL4, GL20 and GL50–GL56), so I can't book that hire. Nothing has "
                       "been booked.")  # fmt: skip
            return "done"
        calls: list[tuple[str, dict[str, Any]]] = []
        survey = ""
        if any(self.s["catalogue"][i]["marquee"] for i in lines):
            day = self.survey_day(start)
            if day is None:
                return self.no_survey(out)
            survey = (f" A marquee needs a free site survey: our surveyor can visit on "
                      f"{rd.say_day(day)}, and I'll book that too.")  # fmt: skip
            calls.append(("book_survey", {"order_id": "NEW", "survey_day": day}))
        w = rd.windows(text)
        dw, cw = w.get("delivery", "AM"), w.get("collection", "PM")
        count = hire_days(start, end)
        hire = self.hire_total(lines, count)
        delivery, deposit = _seed.ZONE_PENCE[zone], self.deposit_for(lines)
        return self.propose(
            req, out,
            f"To book {self.say_lines(lines)}, delivered to {postcode} on {rd.say_day(start)} "
            f"in {say_window(dw)} and collected on {rd.say_day(end)} in {say_window(cw)}: "
            f"{count} days' hire, {rd.pounds(hire)}; delivery and collection (zone {zone}) "
            f"{rd.pounds(delivery)}; and a refundable damage deposit of {rd.pounds(deposit)}. "
            f"{rd.pounds(hire + delivery + deposit)} in all is taken from your card now.{survey} "
            "Shall I book it?",
            [("book_hire", {"customer_id": v["customer_id"], "postcode": postcode,
                            "delivery_date": start, "delivery_window": dw,
                            "collection_date": end, "collection_window": cw, "items": lines,
                            "hire_pence": hire, "delivery_pence": delivery,
                            "deposit_pence": deposit}), *calls],
        )  # fmt: skip

    # -- changing an order -----------------------------------------------------------------
    async def step_items(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        await self.catalogue()
        text = self.text(req)
        o = self.pick_order(v, text)
        if self.closed(o, "the items", out):
            return "done"
        changes = self.item_changes(text, o)
        if not changes:
            return self.ask("items", "Which items would you like to change, and to how many?",
                            out)  # fmt: skip
        old = {line["item_id"]: line["qty"] for line in o["lines"]}
        new = {i: q for i, q in {**old, **changes}.items() if q}
        if not new:
            out.append("That would leave nothing on the order — if you don't need anything, I "
                       "can cancel it instead. Nothing has been changed.")  # fmt: skip
            return "done"
        calls: list[tuple[str, dict[str, Any]]] = []
        survey = ""
        added = [i for i, q in changes.items() if q > old.get(i, 0)]
        if any(self.s["catalogue"][i]["marquee"] for i in added) and not o["survey_on"]:
            day = self.survey_day(o["delivery_date"])
            if day is None:
                return self.no_survey(out)
            survey = (f" A marquee needs a free site survey: our surveyor can visit on "
                      f"{rd.say_day(day)}, and I'll book that too.")  # fmt: skip
            calls.append(("book_survey", {"order_id": o["order_id"], "survey_day": day}))
        hire, deposit = self.hire_total(new, o["hire_days"]), self.deposit_for(new)
        fee = self.change_fee(o, old, new)
        if self.free_only(req, fee, "Changing the items", out):
            return "done"
        what = self.say_changes(old, changes)
        diff = hire - o["hire_pence"]
        money = (f"The hire becomes {rd.pounds(hire)} (was {rd.pounds(o['hire_pence'])}): "
                 f"{rd.pounds(abs(diff))} {'taken from' if diff > 0 else 'refunded to'} your "
                 "card.")  # fmt: skip
        if deposit != o["deposit_pence"]:
            step = deposit - o["deposit_pence"]
            money += (f" The damage deposit becomes {rd.pounds(deposit)} (was "
                      f"{rd.pounds(o['deposit_pence'])}): {rd.pounds(abs(step))} "
                      f"{'taken from' if step > 0 else 'refunded to'} your card.")  # fmt: skip
        money += (f" It's less than 7 days before delivery, so there's a {rd.pounds(fee)} "
                  "change fee." if fee else " There's no change fee.")  # fmt: skip
        return self.propose(
            req, out, f"To {what} on order {o['order_id']}. {money}{survey} Shall I make the "
            "change?",
            [("change_items", {"order_id": o["order_id"], "items": changes, "hire_pence": hire,
                               "deposit_pence": deposit, "fee_pence": fee}), *calls],
        )  # fmt: skip

    async def step_dates(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        await self.catalogue()
        text = self.text(req)
        o = self.pick_order(v, text)
        if self.closed(o, "the dates", out):
            return "done"
        said = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        if len(said) >= 2 and said[-1] > said[-2]:
            start, end = said[-2], said[-1]
        elif said and rd.leg_named(text) == "collection":
            start, end = o["delivery_date"], said[-1]
        elif said:
            start, end = said[-1], rd.plus_days(said[-1], o["hire_days"])
        else:
            return self.ask("dates", "Which days would you like instead — the delivery day and "
                            "the collection day?", out)  # fmt: skip
        if end <= start:
            return self.ask("dates", "The collection has to be after the delivery: which days "
                            "would you like?", out)  # fmt: skip
        if (start, end) == (o["delivery_date"], o["collection_date"]):
            out.append(f"Order {o['order_id']} is already delivered on {rd.say_day(start)} "
                       f"and collected on {rd.say_day(end)}, so there's nothing to "
                       "change.")  # fmt: skip
            return "done"
        lines = {line["item_id"]: line["qty"] for line in o["lines"]}
        hire, fee = self.hire_total(lines, hire_days(start, end)), self.change_fee(o, lines, lines)
        if self.free_only(req, fee, "Changing the dates", out):
            return "done"
        diff = hire - o["hire_pence"]
        money = ("The hire price stays the same" if not diff else
                 f"The hire becomes {rd.pounds(hire)} (was {rd.pounds(o['hire_pence'])}): "
                 f"{rd.pounds(abs(diff))} {'taken from' if diff > 0 else 'refunded to'} your "
                 "card")  # fmt: skip
        money += (f". It's less than 7 days before delivery, so there's a {rd.pounds(fee)} "
                  "change fee." if fee else ", and there's no change fee.")  # fmt: skip
        return self.propose(
            req, out, f"To move order {o['order_id']} to delivery on {rd.say_day(start)} "
            f"({WINDOW_WORDS[o['delivery_window']]}) and collection on {rd.say_day(end)} "
            f"({WINDOW_WORDS[o['collection_window']]}). {money} Shall I move it?",
            [("change_dates", {"order_id": o["order_id"], "delivery_date": start,
                               "collection_date": end, "hire_pence": hire, "fee_pence": fee})],
        )  # fmt: skip

    async def step_window(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        o = self.pick_order(v, text)
        said = rd.windows(text)
        if not said:
            return self.ask("window", "Would you like the morning window (08:00–12:00) or the "
                            "afternoon (12:00–17:00)?", out)  # fmt: skip
        leg = rd.leg_named(text) if rd.leg_named(text) in said else next(iter(said))
        window = said[leg]
        if o["status"] == "collected" or (leg == "delivery" and o["status"] in CLOSED):
            return "done" if self.closed(o, "the delivery", out) else "done"
        if o["status"] == "cancelled":
            return "done" if self.closed(o, "the order", out) else "done"
        if o[f"{leg}_window"] == window:
            out.append(f"The {leg} on {rd.say_day(o[f'{leg}_date'])} is already in "
                       f"{say_window(window)}, so there's nothing to change.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To change the {leg} of order {o['order_id']} on "
            f"{rd.say_day(o[f'{leg}_date'])} to {say_window(window)}, from the "
            f"{WINDOW_WORDS[o[f'{leg}_window']]}. There's no charge for a window change. "
            "Shall I change it?",
            [("set_window", {"order_id": o["order_id"], "leg": leg, "window": window})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, self.text(req))
        if self.closed(o, "the order", out):
            return "done"
        refund, paid = self.cancel_refund(o), o["hire_pence"] + o["delivery_pence"]
        days, deposit = o["days_to_delivery"], rd.pounds(o["deposit_pence"])
        if days >= _seed.FULL_REFUND_DAYS:
            band = (f"it's 28 or more days before delivery, so the {rd.pounds(paid)} hire and "
                    f"delivery you paid is refunded in full, and your {deposit} damage deposit "
                    "comes back too")  # fmt: skip
        elif days >= _seed.HALF_REFUND_DAYS:
            band = (f"it's 14 to 27 days before delivery, so half of the {rd.pounds(paid)} "
                    f"hire and delivery, {rd.pounds(paid // 2)}, is refunded, and your {deposit} "
                    "damage deposit comes back in full")  # fmt: skip
        else:
            band = (f"it's less than 14 days before delivery, so the {rd.pounds(paid)} hire and "
                    f"delivery isn't refunded; your {deposit} damage deposit comes back in "
                    "full")  # fmt: skip
        return self.propose(
            req, out, f"To cancel order {o['order_id']} (delivery {rd.say_day(o['delivery_date'])})"
            f": {band} — {rd.pounds(refund)} in all, to your card. Shall I cancel it?",
            [("cancel_order", {"order_id": o["order_id"], "refund_pence": refund})],
        )  # fmt: skip

    # -- breakages, contacts, look-ups -----------------------------------------------------
    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        await self.catalogue()
        text = self.text(req)
        every = [b for o in v["orders"] for b in o["breakages"]]
        named = [b for b in every if b["breakage_id"] in rd.breakages(text)]
        here = [b for b in every if b["order_id"] == self.pick_order(v, text)["order_id"]]
        found = named or here or (every if len(every) == 1 else [])
        if not found:
            out.append("I can't see a breakage charge on your orders, so there's nothing to "
                       "dispute.")  # fmt: skip
            return "done"
        b = found[-1]
        what = (
            f"breakage charge {b['breakage_id']} ({self.say_lines({b['item_id']: b['qty']})}"
            f", {rd.pounds(b['amount_pence'])}, charged on {rd.say_day(b['charged_on'])})"
        )
        if b["status"] == "disputed":
            out.append(f"Your dispute of {what} is already with our team for review.")
            return "done"
        if self.dispute_late(b):
            out.append(f"I'm sorry — a breakage charge can only be disputed within 14 days of "
                       f"being charged, and {what} was charged {b['days_since_charged']} days "
                       "ago, so I can't log a dispute. The charge stands.")  # fmt: skip
            return "done"
        reason = re.sub(r"\s+", " ", text).strip()[:300]
        return self.propose(
            req, out, f"To log a dispute of {what} for our team to review, with your reason: "
            f"\"{reason}\". The team decides within 10 working days. Shall I log it?",
            [("dispute_breakage", {"order_id": b["order_id"], "breakage_id": b["breakage_id"],
                                   "reason": reason})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, addresses = rd.phones(text), rd.emails(text)
        if not numbers and not addresses:
            return self.ask("phone", "What's the new phone number or email address?", out)
        args: dict[str, Any] = {"customer_id": v["customer_id"]}
        said = []
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your phone number to {numbers[-1]}")
        if addresses:
            args["email"] = addresses[-1]
            said.append(f"your email address to {addresses[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        await self.catalogue()
        o = self.pick_order(v, self.text(req))
        lines = {line["item_id"]: line["qty"] for line in o["lines"]}
        survey = f" The site survey is on {rd.say_day(o['survey_on'])}." if o["survey_on"] else ""
        out.append(
            f"Order {o['order_id']} ({o['status']}): {self.say_lines(lines)}. Delivery to "
            f"{o['postcode']} on {rd.say_day(o['delivery_date'])} in "
            f"{say_window(o['delivery_window'])}; collection on "
            f"{rd.say_day(o['collection_date'])} in {say_window(o['collection_window'])}. The "
            f"hire is {rd.pounds(o['hire_pence'])} and delivery and collection "
            f"{rd.pounds(o['delivery_pence'])}, both paid; the refundable damage deposit is "
            f"{rd.pounds(o['deposit_pence'])}.{survey}"
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if tool_name == "book_hire":
            return (f"Done — order {r['order_id']} is booked: delivery on "
                    f"{rd.say_day(r['delivery_date'])} in {say_window(r['delivery_window'])}, "
                    f"collection on {rd.say_day(r['collection_date'])} in "
                    f"{say_window(r['collection_window'])}; {r['hire']} hire and "
                    f"{r['delivery_charge']} delivery paid, and a {r['deposit']} deposit "
                    "taken.")  # fmt: skip
        if tool_name == "book_survey":
            day = rd.say_day(r["survey_on"])
            return f"The site survey for {r['order_id']} is booked for {day}."
        if tool_name == "change_items":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — order {r['order_id']} now has {self.say_lines(r['lines'])}; hire "
                    f"{r['hire']}, deposit {r['deposit']}{fee}.")  # fmt: skip
        if tool_name == "change_dates":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — order {r['order_id']} is now delivered on "
                    f"{rd.say_day(r['delivery_date'])} and collected on "
                    f"{rd.say_day(r['collection_date'])}; hire {r['hire']}{fee}.")  # fmt: skip
        if tool_name == "set_window":
            return (f"Done — the {r['leg']} on {rd.say_day(r['day'])} is now in "
                    f"{say_window(r['window'])}.")  # fmt: skip
        if tool_name == "cancel_order":
            return (f"Done — order {r['order_id']} is cancelled; {r['refunded']} refunded to "
                    "your card.")  # fmt: skip
        if tool_name == "dispute_breakage":
            return (f"Done — your dispute of {r['breakage_id']} ({r['amount']}) is logged for "
                    "review; the team will email you their decision.")  # fmt: skip
        return f"Done — your phone number is {r['phone']} and your email is {r['email']}."

    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], tool_name: str, error: str,
        results: list[tuple[str, Any]], out: list[str],
    ) -> None:  # fmt: skip
        """Hook: the system refused; say so, and what did change (if anything)."""
        done = " ".join(self.report(name, r) for name, r in results)
        rest = "That part wasn't done." if results else "Nothing has been changed."
        out.append(f"{done} I'm sorry — the system refused that: {error}. {rest}".strip())
