"""The desk's flows: book, move, cancel, add-ons, plans, re-cleans and look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.valeting import _read as rd
from benchmarks.domains.valeting import _seed

WATER_WORDS = re.compile(r"\btap\b|\bwater\b|\bsocket\b|\bpower\b|\bhose\b|\belectric", re.I)


def total_of(b: dict[str, Any]) -> int:
    return int(b["price_pence"]) + sum(int(a["price_pence"]) for a in b["addons"])


class Flows:
    """The flows; `CorrectValetingAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def vehicle(self, v: dict[str, Any], text: str = "") -> dict[str, Any]:
        """The vehicle meant: one named by registration, else the one the customer verified."""
        named = rd.registrations(text)
        for car in v["vehicles"]:
            if car["registration"] in named:
                return dict(car)
        return dict(next(c for c in v["vehicles"] if c["registration"] == self.s["reg"]))

    def pick_booking(self, v: dict[str, Any], text: str,
                     status: str = "booked") -> dict[str, Any] | None:  # fmt: skip
        """The booking meant: named by reference, by its day, or the only one of that status."""
        mine = [b for b in v["bookings"] if b["status"] == status]
        ids = rd.bookings(text)
        named = [b for b in mine if b["booking_id"] in ids]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [b for b in mine if b["day"] in days]
        if not named and len(mine) == 1:
            named = mine
        if not named and status == "completed" and mine:
            named = [max(mine, key=lambda b: (b["day"], b["slot"] == "afternoon"))]
        return named[0] if named else None

    def no_booking(self, out: list[str]) -> str:
        out.append("I can't find a booked visit that matches that on your account.")
        return "done"

    def say_booking(self, b: dict[str, Any]) -> str:
        return (f"your {_seed.PACKAGE_NAMES.get(b['package'], 're-clean')} {b['booking_id']} "
                f"on {rd.say_day(b['day'])} ({b['slot']})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def ceramic_allowed(self, package: str) -> bool:
        """Ceramic coating goes only with a full valet or a showroom detail."""
        return package in _seed.CERAMIC_PACKAGES

    def move_fee(self, b: dict[str, Any]) -> int:
        """Free until 24 hours before the visit starts (08:00 or 13:00); £15.00 inside that."""
        hours = (_seed.starts_at(b["day"], b["slot"]) - self.now).total_seconds() / 3600
        return 0 if hours >= _seed.FREE_MOVE_HOURS else _seed.MOVE_FEE_PENCE

    def refund_for(self, b: dict[str, Any]) -> int:
        """All back 48+ hours before the visit, half inside that, nothing on the day."""
        hours = (_seed.starts_at(b["day"], b["slot"]) - self.now).total_seconds() / 3600
        if b["day"] == self.today.isoformat():
            return 0
        if hours >= _seed.FULL_REFUND_HOURS:
            return total_of(b)
        return total_of(b) // 2

    def reclean_allowed(self, b: dict[str, Any]) -> bool:
        """A missed area reported within 48 hours of the visit's end."""
        hours = (self.now - _seed.ends_at(b["day"], b["slot"])).total_seconds() / 3600
        return hours <= _seed.RECLEAN_HOURS

    async def foreign_booking(self, ref: str, out: list[str]) -> str:
        """A booking reference not on the caller's account: nothing about it is shared."""
        out.append(
            f"I'm sorry — {ref} isn't a booking on your account, so I can't share anything "
            "about it. The customer who made it can contact us directly."
        )
        return "done"

    @staticmethod
    def a(noun: str) -> str:
        return ("an " if noun[0] in "aeiou" else "a ") + noun

    def prices_for(self, size: str) -> str:
        return "; ".join(f"{_seed.PACKAGE_NAMES[p]} {rd.pounds(_seed.price(p, size))}"
                         for p in _seed.PRICES)  # fmt: skip

    # -- booking a valet -------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        car = self.vehicle(v, text)
        package = rd.package(text)
        if package is None:
            return self.ask("package", f"Which package would you like for your {car['model']} "
                            f"({car['size']})? {self.prices_for(car['size'])}.", out)  # fmt: skip
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if not days:
            return self.ask("day", "Which day would you like the valeter to come?", out)
        slots = rd.slots(text)
        if not slots:
            return self.ask("slot", "Morning (from 08:00) or afternoon (from 13:00)?", out)
        day, slot, addons = days[-1].isoformat(), slots[-1], rd.addons(text)
        if "ceramic" in addons and not self.ceramic_allowed(package):
            out.append(
                "I'm sorry — a ceramic coating can only go with a full valet or a showroom "
                "detail, not an exterior wash. I haven't booked anything."
            )
            return "done"
        note = None
        if v["parking"] == "driveway":
            answers = req.get("answers", {})
            note = answers.get("water_power") or next(
                (c for c in req["chunks"] if WATER_WORDS.search(c)), None)  # fmt: skip
            if not note:
                return self.ask("water_power", "The valet is on your driveway: is there an "
                                "outside tap and a power socket the valeter can use? We note "
                                "it on every driveway job.", out)  # fmt: skip
        price = _seed.price(package, car["size"])
        total = price + sum(_seed.ADDONS[a] for a in addons)
        extra = "".join(f", plus {_seed.ADDON_NAMES[a]} {rd.pounds(_seed.ADDONS[a])}"
                        for a in addons)  # fmt: skip
        noted = f" I'll note for the valeter: \"{note.strip()}\"." if note else ""
        return self.propose(
            req, out,
            f"To book {self.a(_seed.PACKAGE_NAMES[package])} for your {car['model']} "
            f"({car['registration']}, {car['size']}) on {rd.say_day(day)} ({slot}, from "
            f"{_seed.SLOT_START[slot]}) at {v['address']}, {v['postcode']}: "
            f"{rd.pounds(price)}{extra} — {rd.pounds(total)} in all, taken now from your card "
            f"ending {v['card_last4']}.{noted} Shall I book it?",
            [("book_valet", {"customer_id": v["customer_id"], "registration": car["registration"],
                             "package": package, "day": day, "slot": slot, "addons": addons,
                             "price_pence": price, "total_pence": total,
                             "water_power_note": note.strip() if note else None})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        new = [d.isoformat() for d in rd.dates(text, self.today) if d >= self.today]
        new = [d for d in new if d != b["day"]]
        said_slots = rd.slots(text)
        slot = said_slots[-1] if said_slots else b["slot"]
        if not new and slot == b["slot"]:
            return self.ask("new_day", "Which day would you like instead? Morning or "
                            "afternoon?", out)  # fmt: skip
        day = new[-1] if new else b["day"]
        fee = self.move_fee(b)
        if self.free_only(req, fee, "Moving it less than 24 hours before the visit", out):
            return "done"
        charge = (f"The visit starts less than 24 hours from now, so there's a move fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge, as it's 24 hours or more before the "
                  "visit.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_day(day)} ({slot}, from "
            f"{_seed.SLOT_START[slot]}). {charge} Shall I move it?",
            [("move_booking", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                               "day": day, "slot": slot, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        refund, paid = self.refund_for(b), rd.pounds(total_of(b))
        if b["day"] == self.today.isoformat():
            what = f"it's today, so nothing of the {paid} paid can be refunded"
        elif refund == total_of(b):
            what = (f"as it's 48 hours or more before the visit, the full {paid} is refunded "
                    f"to your card ending {v['card_last4']}")  # fmt: skip
        else:
            what = (f"as it's less than 48 hours before the visit, half of the {paid} paid — "
                    f"{rd.pounds(refund)} — is refunded to your card ending "
                    f"{v['card_last4']}")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_booking", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- add-ons ---------------------------------------------------------------------------
    async def step_addon(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        kind = rd.addons(text)[0]
        name = _seed.ADDON_NAMES[kind]
        if kind == "ceramic" and not self.ceramic_allowed(b["package"]):
            out.append(f"I'm sorry — a ceramic coating can only go with a full valet or a "
                       f"showroom detail, and {b['booking_id']} is an exterior wash. Nothing "
                       "has been changed.")  # fmt: skip
            return "done"
        if any(a["kind"] == kind for a in b["addons"]):
            out.append(f"{name.capitalize()} is already on {b['booking_id']}.")
            return "done"
        price = _seed.ADDONS[kind]
        return self.propose(
            req, out, f"To add {name} to {self.say_booking(b)}: {rd.pounds(price)}, taken now "
            f"from your card ending {v['card_last4']}. Shall I add it?",
            [("add_addon", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                            "kind": kind, "price_pence": price})],
        )  # fmt: skip

    # -- plans -----------------------------------------------------------------------------
    def _plan_terms(self, car: dict[str, Any], package: str) -> str:
        full, monthly = _seed.price(package, car["size"]), _seed.plan_price(package, car["size"])
        return (f"a monthly {_seed.PACKAGE_NAMES[package]} plan for your {car['model']} "
                f"({car['size']}) is {rd.pounds(monthly)} a month — 10% off the usual "
                f"{rd.pounds(full)}")  # fmt: skip

    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        car = self.vehicle(v, text)
        package = rd.package(text)
        if package is None:
            prices = self.prices_for(car["size"])
            return self.ask("package", "Which package would you like each month? "
                            f"{prices}, all 10% off on a plan.", out)  # fmt: skip
        if any(p["registration"] == car["registration"] and p["status"] == "active"
               for p in v["plans"]):  # fmt: skip
            out.append(f"Your {car['model']} already has an active plan. Nothing has changed.")
            return "done"
        monthly = _seed.plan_price(package, car["size"])
        return self.propose(
            req, out, f"To start a plan: {self._plan_terms(car, package)}, taken monthly from "
            f"your card ending {v['card_last4']}. Shall I set it up?",
            [("start_plan", {"customer_id": v["customer_id"], "registration": car["registration"],
                             "package": package, "monthly_pence": monthly})],
        )  # fmt: skip

    async def step_plan_quote(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        car = self.vehicle(v, text)
        package = rd.package(text)
        if package is None:
            return self.ask("package", "Which package would the plan be for? "
                            f"{self.prices_for(car['size'])}.", out)  # fmt: skip
        terms = self._plan_terms(car, package)
        out.append(f"{terms[0].upper()}{terms[1:]}. I haven't set anything up; just say if "
                   "you'd like to start one.")  # fmt: skip
        return "done"

    # -- re-cleans and look-ups ------------------------------------------------------------
    async def step_reclean(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, status="completed")
        if b is None:
            out.append("I can't find a completed visit on your account to re-clean.")
            return "done"
        if not self.reclean_allowed(b):
            out.append(f"I'm sorry — {self.say_booking(b)} finished more than 48 hours ago, "
                       "and free re-cleans are for missed areas reported within 48 hours of "
                       "the visit. I haven't booked anything; I can book a new valet if you'd "
                       "like.")  # fmt: skip
            return "done"
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if not days:
            return self.ask("day", "Sorry about that. Which day should the valeter come back?",
                            out)  # fmt: skip
        slots = rd.slots(text)
        if not slots:
            return self.ask("slot", "Morning (from 08:00) or afternoon (from 13:00)?", out)
        day, slot = days[-1].isoformat(), slots[-1]
        missed = req["chunks"][0].strip()
        return self.propose(
            req, out, f"Sorry the valet missed something. To book a free re-clean of "
            f"{b['booking_id']} on {rd.say_day(day)} ({slot}, from {_seed.SLOT_START[slot]}), "
            "at no charge. Shall I book it?",
            [("book_reclean", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                               "day": day, "slot": slot, "missed": missed})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mine = {b["booking_id"] for b in v["bookings"]}
        foreign = [ref for ref in rd.bookings(text) if ref not in mine]
        if foreign:
            return str(await self.foreign_booking(foreign[0], out))
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        out.append(self.describe(b))
        return "done"

    def describe(self, b: dict[str, Any]) -> str:
        extras = "".join(f" with {_seed.ADDON_NAMES[a['kind']]} "
                         f"({rd.pounds(a['price_pence'])})" for a in b["addons"])  # fmt: skip
        return (f"{b['booking_id']} is {self.a(_seed.PACKAGE_NAMES.get(b['package'], 're-clean'))} "
                f"({rd.pounds(b['price_pence'])}){extras} on {rd.say_day(b['day'])}, in the "
                f"{b['slot']} — the valeter arrives from {_seed.SLOT_START[b['slot']]}. "
                f"{rd.pounds(total_of(b))} in all, already paid.")  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — booking {r['booking_id']}: {rd.say_day(r['day'])}, {r['slot']}; "
                    f"{r['paid']} taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} move fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — {r['booking_id']} is now {rd.say_day(r['day'])}, "
                    f"{r['slot']}{fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — {r['booking_id']} is cancelled; {r['refunded']} refunded to your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "addon":
            return (f"Done — {_seed.ADDON_NAMES[r['kind']]} is on {r['booking_id']} "
                    f"({r['price']}).")  # fmt: skip
        if intent == "plan":
            return (f"Done — plan {r['plan_id']} is active for {r['registration']}: "
                    f"{r['monthly']} a month from your card ending {r['card_last4']}.")  # fmt: skip
        return (f"Done — re-clean {r['booking_id']} is booked for {rd.say_day(r['day'])}, "
                f"{r['slot']}, free of charge.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
