"""The desk's flows: pick-up, single rooms, insurance, seats, names, cancelling, passengers."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.coachtours import _read as rd
from benchmarks.domains.coachtours import _seed

ME = re.compile(r"\b(?:me|my place|myself|i can'?t (?:go|come|travel|make it)|the lead)\b", re.I)


def stop_of(v: dict[str, Any], town: str) -> dict[str, Any] | None:
    return next((r for r in v["tour"]["route"] if r["town"] == town), None)


class Flows:
    """The flows; `CorrectCoachtoursAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_booking", booking_ref=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def named(v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        """Passengers named in the text, by full name or first name."""
        out = []
        for p in v["passengers"]:
            first = p["name"].split()[0]
            if re.search(rf"\b{re.escape(p['name'])}\b|\b{re.escape(first)}\b", text, re.I):
                out.append(p)
        return out

    def say_booking(self, v: dict[str, Any]) -> str:
        t = v["tour"]
        return f"booking {v['booking_ref']} ({t['name']}, leaving {rd.say_day(t['departure'])})"

    def say_stop(self, v: dict[str, Any], town: str) -> str:
        stop = stop_of(v, town)
        return f"{stop['point']} at {stop['time']}" if stop else town

    def route(self, v: dict[str, Any]) -> str:
        return "; ".join(f"{r['town']} ({r['point']}, {r['time']})" for r in v["tour"]["route"])

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def single_price(self, v: dict[str, Any]) -> int:
        """A single room: £25.00 a night of the tour."""
        return _seed.SINGLE_PENCE * int(v["tour"]["nights"])

    def seat_fee(self, seats: list[int]) -> int:
        """£10.00 for each seat in rows 1-3; the other seats are free."""
        return _seed.SEAT_PENCE * sum(1 for n in seats if n <= _seed.FRONT_ROWS_LAST_SEAT)

    def insurance_problem(self, v: dict[str, Any]) -> str | None:
        days = v["tour"]["days_to_departure"]
        if days < _seed.INSURANCE_DAYS:
            return (
                f"travel insurance can only be added up to 7 days before departure, and the "
                f"coach leaves on {rd.say_day(v['tour']['departure'])}, {days} days from now"
            )
        return None

    def name_problem(self, v: dict[str, Any], p: dict[str, Any]) -> str | None:
        if p["lead"]:
            return (
                "the lead passenger's name can't be changed: the lead passenger holds the "
                "booking. If you can't travel, the booking can be cancelled instead"
            )
        days = v["tour"]["days_to_departure"]
        if days < _seed.NAME_CHANGE_DAYS:
            return (
                f"names can only be changed up to 7 days before departure, and the coach "
                f"leaves on {rd.say_day(v['tour']['departure'])}"
            )
        return None

    def refund_for(self, v: dict[str, Any]) -> tuple[int, str]:
        """The refund and why: more than 60 days out the deposit is kept; 30-60 days half the
        price; under 30 days nothing."""
        days = v["tour"]["days_to_departure"]
        paid, price, count = v["paid_pence"], v["price_pence"], len(v["passengers"])
        if days > _seed.DEPOSIT_BAND_DAYS:
            kept = _seed.DEPOSIT_PENCE * count
            why = (
                f"it's more than 60 days before departure, so the {rd.pounds(kept)} deposit "
                f"({rd.pounds(_seed.DEPOSIT_PENCE)} a person) is kept"
            )
        elif days >= _seed.HALF_BAND_DAYS:
            kept = price // 2
            why = (
                f"it's {days} days before departure (60 to 30 days), so 50% of the "
                f"{rd.pounds(price)} price, {rd.pounds(kept)}, is kept"
            )
        else:
            kept = price
            why = f"it's {days} days before departure, under 30 days, so nothing can be refunded"
        return max(0, paid - kept), why

    # -- pick-up point -----------------------------------------------------------------------
    async def step_pickup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        t = v["tour"]
        if t["days_to_departure"] <= 0:
            out.append(
                f"I'm sorry — the coach for {self.say_booking(v)} has already left, so "
                "the pick-up point can't be changed now. Nothing has been changed."
            )
            return "done"
        wanted = [w for w in rd.towns(self.text(req)) if w != v["pickup"]]
        if not wanted:
            return self.ask("pickup", f"Which pick-up point would you like? This tour's are: "
                            f"{self.route(v)}.", out)  # fmt: skip
        town = wanted[-1]
        if stop_of(v, town) is None:
            out.append(
                f"I'm sorry — {town} isn't a pick-up point on this tour. Its pick-up "
                f"points are: {self.route(v)}. Nothing has been changed."
            )
            return "done"
        fee = _seed.PICKUP_FEE_PENCE if t["days_to_departure"] < _seed.PICKUP_FREE_DAYS else 0
        if self.free_only(req, fee, "Changing the pick-up point less than 14 days out", out):
            return "done"
        charge = (f"As it's less than 14 days before departure there's a {rd.pounds(fee)} "
                  f"change fee, taken from your card ending {v['card_last4']}." if fee else
                  "There's no charge, as it's 14 or more days before departure.")  # fmt: skip
        return self.propose(
            req, out, f"To change the pick-up on {self.say_booking(v)} from "
            f"{self.say_stop(v, v['pickup'])} to {self.say_stop(v, town)} on "
            f"{rd.say_day(t['departure'])}. {charge} Shall I change it?",
            [("change_pickup", {"booking_ref": v["booking_ref"], "pickup": town,
                                "fee_pence": fee})],
        )  # fmt: skip

    # -- extras: single room, insurance, seats ---------------------------------------------
    def who(self, v: dict[str, Any], text: str, what: str, out: list[str]) -> Any:
        pax = self.named(v, text)
        if not pax and len(v["passengers"]) == 1:
            pax = v["passengers"]
        if not pax:
            return self.ask("passenger", f"Which passenger is the {what} for?", out)
        return pax

    async def step_single(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["tour"]["singles_left"] <= 0:
            out.append(
                "I'm sorry — the hotel on this tour has no single rooms left, so I can't "
                "add one. Nothing has been changed."
            )
            return "done"
        pax = self.who(v, self.text(req), "single room", out)
        if isinstance(pax, str):
            return pax
        p = pax[0]
        if p["single_room"]:
            out.append(f"{p['name']} already has a single room. Nothing has been changed.")
            return "done"
        price = self.single_price(v)
        return self.propose(
            req, out, f"To give {p['name']} a single room for the {v['tour']['nights']} nights "
            f"of {self.say_booking(v)}: £25.00 a night, {rd.pounds(price)} in all, taken from "
            f"your card ending {v['card_last4']}. Shall I add it?",
            [("add_single_room", {"booking_ref": v["booking_ref"],
                                  "passenger_id": p["passenger_id"], "price_pence": price})],
        )  # fmt: skip

    async def step_insurance(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        why = self.insurance_problem(v)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        text = self.text(req)
        pax = [] if re.search(r"\b(?:both|all|everyone|us)\b", text, re.I) else self.named(v, text)
        pax = [p for p in (pax or v["passengers"]) if not p["insured"]]
        if not pax:
            out.append("Everyone on the booking is already insured. Nothing has been changed.")
            return "done"
        price = _seed.INSURANCE_PENCE * len(pax)
        names = " and ".join(p["name"] for p in pax)
        return self.propose(
            req, out, f"To add travel insurance for {names} on {self.say_booking(v)}: £39.00 a "
            f"person, {rd.pounds(price)} in all, taken from your card ending "
            f"{v['card_last4']}. Shall I add it?",
            [("add_insurance", {"booking_ref": v["booking_ref"],
                                "passenger_ids": [p["passenger_id"] for p in pax],
                                "price_pence": price})],
        )  # fmt: skip

    async def step_seats(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        seated = {s["passenger_id"] for s in v["seats"]}
        free_pax = [p for p in v["passengers"] if p["passenger_id"] not in seated]
        if not free_pax:
            out.append("Everyone on the booking already has a seat. Nothing has been changed.")
            return "done"
        seats = rd.seat_numbers(self.text(req), bare=len(req["chunks"]) > 1)
        seats = [n for n in seats if 1 <= n <= _seed.SEATS_ON_COACH][: len(free_pax)]
        if not seats:
            return self.ask("seats", "Which seat numbers would you like? Seats 1 to 12 (rows 1 "
                            "to 3) are £10.00 each; the rest are free.", out)  # fmt: skip
        fee = self.seat_fee(seats)
        if self.free_only(req, fee, "Those seats", out):
            return "done"
        charge = (f"{rd.pounds(fee)} for the front-row seats (£10.00 each), taken from your card "
                  f"ending {v['card_last4']}" if fee else "no charge")  # fmt: skip
        listed = " and ".join(str(n) for n in seats)
        return self.propose(
            req, out, f"To reserve seat{'s' if len(seats) > 1 else ''} {listed} on "
            f"{self.say_booking(v)}: {charge}. Shall I reserve them?",
            [("choose_seats", {"booking_ref": v["booking_ref"], "seats": seats,
                               "price_pence": fee})],
        )  # fmt: skip

    # -- names and passengers --------------------------------------------------------------
    def new_names(self, v: dict[str, Any], text: str) -> list[str]:
        known = {p["name"].lower() for p in v["passengers"]}
        return [n for n in rd.full_names(text) if n.lower() not in known]

    def name_target(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        new = {n.split()[0].lower() for n in self.new_names(v, text)}
        named = [p for p in self.named(v, text) if p["name"].split()[0].lower() not in new]
        others = [p for p in v["passengers"] if not p["lead"]]
        if named:
            return named[0]
        if ME.search(text):
            return v["passengers"][0]
        return others[0] if len(others) == 1 else None

    async def step_name(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        target = self.name_target(v, text)
        if target is None:
            return self.ask("passenger", "Which passenger's place is changing?", out)
        why = self.name_problem(v, target)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        new = self.new_names(v, text)
        if not new:
            return self.ask("new_name", "What's the full name of the person taking the place?",
                            out)  # fmt: skip
        return self.propose(
            req, out, f"To put {new[-1]} in {target['name']}'s place on {self.say_booking(v)}: "
            f"a name change costs {rd.pounds(_seed.NAME_CHANGE_PENCE)}, taken from your card "
            f"ending {v['card_last4']}. Shall I change it?",
            [("change_name", {"booking_ref": v["booking_ref"],
                              "passenger_id": target["passenger_id"], "new_name": new[-1],
                              "fee_pence": _seed.NAME_CHANGE_PENCE})],
        )  # fmt: skip

    async def step_passenger(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        t = v["tour"]
        if t["seats_left"] <= 0:
            out.append(
                f"I'm sorry — {t['name']} is fully booked: no seats remain, so I can't add "
                "anyone. Nothing has been changed."
            )
            return "done"
        new = self.new_names(v, self.text(req))
        if not new:
            return self.ask("new_name", "What's the new passenger's full name?", out)
        price = int(t["price_pp_pence"])
        return self.propose(
            req, out, f"To add {new[-1]} to {self.say_booking(v)} at today's price of "
            f"{rd.pounds(price)}, paid now from your card ending {v['card_last4']}, with the "
            f"same pick-up ({self.say_stop(v, v['pickup'])}). Shall I add them?",
            [("add_passenger", {"booking_ref": v["booking_ref"], "name": new[-1],
                                "price_pence": price})],
        )  # fmt: skip

    # -- cancelling, contact details, look-ups ---------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        refund, why = self.refund_for(v)
        back = (
            f"{rd.pounds(refund)} of the {rd.pounds(v['paid_pence'])} paid is refunded to "
            f"your card ending {v['card_last4']}"
            if refund
            else "there is no refund"
        )
        return self.propose(
            req, out, f"To cancel {self.say_booking(v)} for everyone on it: {why}. "
            f"{back[0].upper()}{back[1:]}. Shall I cancel it?",
            [("cancel_booking", {"booking_ref": v["booking_ref"], "refund_pence": refund})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        phone, email = (rd.phones(text) or [None])[-1], (rd.emails(text) or [None])[-1]
        if not phone and not email:
            return self.ask("contact", "What's the new phone number or email address?", out)
        args: dict[str, Any] = {"booking_ref": v["booking_ref"]}
        parts = []
        if phone:
            args["phone"] = phone
            parts.append(f"the phone number to {phone}")
        if email:
            args["email"] = email
            parts.append(f"the email address to {email}")
        return self.propose(
            req, out, f"To change {' and '.join(parts)} on {self.say_booking(v)}. Shall I "
            "update it?", [("update_contact", args)],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        t = v["tour"]
        names = ", ".join(p["name"] + (" (lead)" if p["lead"] else "") for p in v["passengers"])
        seats = ", ".join(str(s["seat"]) for s in v["seats"]) or "none chosen yet"
        due = v["price_pence"] - v["paid_pence"]
        out.append(
            f"Your {self.say_booking(v)}: pick-up at {self.say_stop(v, v['pickup'])} on "
            f"{rd.say_day(t['departure'])}, {t['nights']} nights. Passengers: {names}. Seats: "
            f"{seats}. {rd.pounds(v['paid_pence'])} paid"
            f"{f', {rd.pounds(due)} still to pay' if due > 0 else ', nothing more to pay'}."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "pickup":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — your pick-up on {r['booking_ref']} is now {r['pickup']} at "
                    f"{r['time']} on {rd.say_day(r['departure'])}{fee}.")  # fmt: skip
        if intent == "single":
            return (f"Done — {r['passenger']} has a single room; {r['price']} taken from your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "insurance":
            return (f"Done — travel insurance added for {' and '.join(r['insured'])}; "
                    f"{r['price']} taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "seats":
            return (
                f"Done — seat{'s' if len(r['seats']) > 1 else ''} "
                f"{' and '.join(str(n) for n in r['seats'])} reserved on {r['booking_ref']}; "
                + ("no charge." if r["price"] == "£0.00" else f"charge {r['price']}.")
            )
        if intent == "name":
            return (f"Done — {r['new_name']} now takes {r['old_name']}'s place on "
                    f"{r['booking_ref']}; {r['fee']} name-change fee taken.")  # fmt: skip
        if intent == "passenger":
            return (f"Done — {r['name']} is added to {r['booking_ref']}; {r['price']} taken from "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — booking {r['booking_ref']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        return (f"Done — the contact details on {r['booking_ref']} are now phone {r['phone']} "
                f"and email {r['email']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
