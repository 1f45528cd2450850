"""The refill desk's change handlers: pick-up booking, delivery, transfer, cancellation, phone.

Each `plan_*` checks what the policy allows and proposes; each `do_*` runs after the patient's yes.
Mixed into CorrectPharmacyAgent (which gives `propose`, `resolve_rx`, `resolve_order`).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.pharmacy._desk import OPEN, fmt_date, fmt_time, money
from benchmarks.domains.pharmacy._seed import DELIVERY_FEE_USD, TODAY

WINDOWS = {"morning": ("00:00", "12:00"), "afternoon": ("12:00", "17:00"),
           "evening": ("16:00", "24:00")}


def _minutes(hh_mm: str) -> int:
    return int(hh_mm[:2]) * 60 + int(hh_mm[3:5])


def delivery_day(ready_at: str) -> str:
    """Delivery is the business day after the order is ready (never on a Sunday)."""
    day = max(date.fromisoformat(ready_at[:10]), TODAY) + timedelta(days=1)
    return (day + timedelta(days=1 if day.weekday() == 6 else 0)).isoformat()


class ChangeHandlers:
    """Pick-up, delivery, transfer, cancellation and phone changes."""

    s: dict[str, Any]

    # ---- pick-up booking -----------------------------------------------------------------

    async def plan_book(self, task: dict[str, Any]) -> bool:
        """Find the slot the patient asked for (or the closest) and propose it."""
        order = await self.resolve_order(task)
        if not isinstance(order, dict):
            return order is False
        task["order"] = order["order_id"]
        if order["status"] not in OPEN:
            self.say(f"Refill {order['order_id']} is {order['status'].replace('_', ' ')}.")
            return True
        facts, branch = self.s["facts"], order["branch"]
        if facts["branch"] and facts["branch"] != branch and not task.get("noted"):
            task["noted"] = True
            self.say(f"Refill {order['order_id']} is being prepared at {branch}, so the pick-up "
                     f"has to be there.")
        if not facts["date"]:
            return self.ask("date", f"What day would you like to pick up {order['drug']} at "
                            f"{branch}? We're open Monday to Friday 9 am to 6 pm"
                            f"{'' if branch == 'Harbor Point' else ', Saturday 9 am to 1 pm'}.")
        slots = await self.open_slots(order, facts["date"])
        if not slots:
            facts["date"] = None
            return self.ask("date", "Which other day would suit you?")
        choice, note = self.choose(slots, facts["time"], facts["period"])
        note = "" if task.pop("quiet", False) else note
        if choice is None:
            self.s["offer"] = slots[:6]
            listed = ", ".join(fmt_time(t) for t in slots[:6])
            return self.ask("time", f"{note}What time suits you on {fmt_date(facts['date'])}? "
                            f"Open times include {listed}.")
        others = [t for t in slots if t != choice]
        others.sort(key=lambda t: abs(_minutes(t) - _minutes(choice)))
        self.s["offer"] = [choice, *others[:2]]
        facts["time"], facts["period"] = choice, None
        where = f"at {branch} on {fmt_date(facts['date'])} at {fmt_time(choice)}"
        question = f"I can book your pick-up of {order['drug']} ({order['order_id']}) {where}."
        if note:
            also = ", ".join(fmt_time(t) for t in others[:2])
            question = (f"{note}The closest open time is {fmt_time(choice)}"
                        f"{f' (also open: {also})' if also else ''}. I can book your pick-up of "
                        f"{order['drug']} ({order['order_id']}) {where}.")
        return self.propose("book", question + " Shall I book it?",
                            {"date": facts["date"], "time": choice}, order=order["order_id"],
                            branch=branch, date=facts["date"], time=choice, open=slots)

    async def open_slots(self, order: dict[str, Any], day: str) -> list[str]:
        """Open times at the order's branch that day, after it is ready."""
        result, error = await self.call("find_pickup_slots",
                                        {"branch": order["branch"], "pickup_date": day})
        if error:
            self.say(f"Sorry, I can't book {fmt_date(day)}: {error}.")
            return []
        failed = {tuple(x) for x in self.s["failed_slots"]}
        slots = [t for t in result["open_times"]
                 if (day, t) not in failed and f"{day} {t}" >= order["ready_at"]]
        if not slots:
            self.say(f"There are no open pick-up times left at {order['branch']} on "
                     f"{fmt_date(day)}.")
        return slots

    @staticmethod
    def choose(slots: list[str], time: str | None, period: str | None) -> tuple[str | None, str]:
        """The slot to propose and a note when it is not what was asked."""
        if time:
            if time in slots:
                return time, ""
            nearest = min(slots, key=lambda t: (abs(_minutes(t) - _minutes(time)), -_minutes(t)))
            return nearest, f"{fmt_time(time)} isn't available that day. "
        if period == "earliest":
            return slots[0], ""
        if period == "latest":
            return slots[-1], ""
        if period in WINDOWS:
            low, high = WINDOWS[period]
            inside = [t for t in slots if low <= t < high]
            if inside:
                return inside[0], ""
            return None, f"There are no {period} times left that day. "
        return None, ""

    def booking_time(self, pend: dict[str, Any]) -> str:
        """The time to book for a confirmed proposal."""
        return str(pend["time"])

    async def do_book(self, pend: dict[str, Any]) -> bool:
        """Book the confirmed slot; on a race, offer the closest other time."""
        time = self.booking_time(pend)
        args = {"order_id": pend["order"], "branch": pend["branch"],
                "pickup_date": pend["date"], "pickup_time": time}
        result, error = await self.call("book_pickup", args)
        if error:
            return await self.on_book_error(pend, error)
        self.changed()
        self.say(self.booked_text(result["pickup_date"], result["pickup_time"], pend))
        self._clear_when()
        return True

    def booked_text(self, day: str, time: str, pend: dict[str, Any]) -> str:
        """The confirmation of a booking, from what was booked."""
        return (f"Booked: you can pick up your refill ({pend['order']}) at {pend['branch']} on "
                f"{fmt_date(day)} at {fmt_time(time)}.")

    async def on_book_error(self, pend: dict[str, Any], error: str) -> bool:
        """The slot went: say so and propose the closest one left."""
        self.s["failed_slots"].append([pend["date"], pend["time"]])
        if "just booked" in error or "full" in error:
            self.say(f"Sorry, {fmt_time(pend['time'])} on {fmt_date(pend['date'])} was just "
                     "booked by another patient.")
        else:
            self.say(f"Sorry, I couldn't book that: {error}.")
        self.s["current"]["quiet"] = True
        return await self.plan_book(self.s["current"])

    def _clear_when(self) -> None:
        for key in ("date", "time", "period"):
            self.s["facts"][key] = None

    # ---- home delivery -------------------------------------------------------------------

    async def plan_delivery(self, task: dict[str, Any]) -> bool:
        """Propose home delivery with its fee, unless the drug is controlled."""
        order = await self.resolve_order(task)
        if not isinstance(order, dict):
            return order is False
        task["order"] = order["order_id"]
        profile = await self.profile()
        rx = next(r for r in profile["prescriptions"] if r["rx_id"] == order["rx_id"])
        if rx["controlled"]:
            self.say(f"I'm sorry, {rx['drug']} is a controlled substance, so it can't be "
                     f"delivered: it has to be picked up in person with photo ID at "
                     f"{order['branch']}. I can book you a pick-up time there instead if you like.")
            return True
        if order["fulfilment"] == "delivery":
            self.say(f"Refill {self.order_label(order)} is already set for home delivery.")
            return True
        return self.propose("delivery", self.delivery_question(order, profile),
                            {"order": order["order_id"]}, order=order["order_id"])

    def delivery_question(self, order: dict[str, Any], profile: dict[str, Any]) -> str:
        """The delivery proposal, fee included."""
        return (f"I can switch refill {order['order_id']} ({order['drug']}) to home delivery to "
                f"{profile['address']}, arriving {fmt_date(delivery_day(order['ready_at']))}. "
                f"There's a {money(DELIVERY_FEE_USD)} delivery fee on top of your "
                f"{money(order['copay_usd'])} copay. Shall I set that up?")

    def delivery_args(self, pend: dict[str, Any]) -> dict[str, Any]:
        """Arguments of the confirmed delivery."""
        return {"order_id": pend["order"]}

    async def do_delivery(self, pend: dict[str, Any]) -> bool:
        """Switch the confirmed order to delivery."""
        result, error = await self.call("arrange_delivery", self.delivery_args(pend))
        if error:
            self.say(f"I'm sorry, I couldn't set up delivery: {error}.")
            return True
        self.changed()
        fee = result["delivery_fee_usd"]
        self.say(f"Done: {result['drug']} ({result['order_id']}) will be delivered to "
                 f"{result['delivery_address']} on {fmt_date(result['delivery_date'])}"
                 f"{f'; the {money(fee)} delivery fee is added to your copay' if fee else ''}.")
        return True

    # ---- transfer ------------------------------------------------------------------------

    async def plan_transfer(self, task: dict[str, Any]) -> bool:
        """Propose moving a prescription, unless it is controlled or has an open refill."""
        rx = await self.resolve_rx(task)
        if not isinstance(rx, dict):
            return rx is False
        to = task.get("branch") or self.s["facts"]["branch"]
        if not to:
            return self.ask("branch", f"Which branch should {self.rx_label(rx)} move to: Elm "
                            "Street, Riverside or Harbor Point?")
        task["branch"], label = to, self.rx_label(rx)
        orders = [o for o in (await self.profile())["refill_orders"]
                  if o["rx_id"] == rx["rx_id"] and o["status"] in OPEN]
        if rx["controlled"]:
            self.say(f"I'm sorry, {label} is a controlled substance, so it can't be transferred "
                     f"between branches. {rx['prescriber']} would need to send a new "
                     f"prescription to {to}.")
        elif rx["branch"] == to:
            self.say(f"{label} is already held at {to}.")
        elif rx["expires_on"] < TODAY.isoformat():
            self.say(f"{label} expired on {fmt_date(rx['expires_on'])}, so it can't be "
                     "transferred; a new prescription is needed.")
        elif orders:
            self.say(f"{label} has a refill in progress ({orders[0]['order_id']}), so I can't "
                     "transfer it until that refill is picked up or cancelled.")
        else:
            return self.propose(
                "transfer", f"I can transfer {label} from {rx['branch']} to {to}; future refills "
                "will be prepared there. Shall I go ahead?", {"rx": rx["rx_id"], "branch": to},
                rx=rx["rx_id"], to=to)
        return True

    async def do_transfer(self, pend: dict[str, Any]) -> bool:
        """Transfer the confirmed prescription."""
        result, error = await self.call("transfer_prescription",
                                        {"rx_id": pend["rx"], "to_branch": pend["to"]})
        if error:
            self.say(f"I'm sorry, the transfer didn't go through: {error}.")
            return True
        self.changed()
        self.say(f"Done: {result['rx_id']} is now held at {result['to']}.")
        return True

    # ---- cancellation --------------------------------------------------------------------

    async def plan_cancel(self, task: dict[str, Any]) -> bool:
        """Propose cancelling a pending or ready refill."""
        order = await self.resolve_order(task)
        if not isinstance(order, dict):
            return order is False
        task["order"] = order["order_id"]
        if order["status"] not in OPEN:
            self.say(f"Refill {order['order_id']} is {order['status'].replace('_', ' ')}, so "
                     "there's nothing to cancel.")
            return True
        slot = " and the pick-up slot is released" if order["pickup_date"] else ""
        return self.propose(
            "cancel", f"I can cancel refill {self.order_label(order)}; the refill goes back onto "
            f"your prescription{slot}. Shall I cancel it?", {"order": order["order_id"]},
            order=order["order_id"])

    async def do_cancel(self, pend: dict[str, Any]) -> bool:
        """Cancel the confirmed order."""
        result, error = await self.call("cancel_refill", {"order_id": pend["order"]})
        if error:
            self.say(f"I'm sorry, I couldn't cancel it: {error}.")
            return True
        self.changed()
        self.say(f"Done: refill {result['order_id']} is cancelled.")
        return True

    # ---- phone number --------------------------------------------------------------------

    async def plan_phone(self, task: dict[str, Any]) -> bool:
        """Propose the new pick-up notice number."""
        new = self.s["facts"]["phone"]
        if not new:
            return self.ask("phone", "What's the new phone number for your pick-up notices?")
        old = (await self.profile())["phone"]
        if old == new:
            self.say(f"Your pick-up notices already go to {new}.")
            return True
        return self.propose("phone", f"I'll change the number for your pick-up notices from {old} "
                            f"to {new}. Shall I go ahead?", {"phone": new}, phone=new)

    async def do_phone(self, pend: dict[str, Any]) -> bool:
        """Store the confirmed number."""
        result, error = await self.call("update_phone", {"phone": pend["phone"]})
        if error:
            self.say(f"I'm sorry, I couldn't update it: {error}.")
            return True
        self.changed()
        self.say(f"Done: pick-up notices will now go to {result['phone']}.")
        return True
