"""The desk's flows: book, return legs, pickup changes, flights, extras, cancellations, reports."""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.transfers import _read as rd
from benchmarks.domains.transfers import _seed
from benchmarks.domains.transfers._env import at

ITEM_RE = re.compile(r"\b(?:left|forgot|lost)\s+(?:my|a|an|our|his|her)\s+(.{2,40}?)(?=\s+(?:in|"
                     r"on|at|behind|under|when|after)\b|[.,!?]|$)", re.I)  # fmt: skip


def minutes_between(start: str, end: str) -> int:
    return int((at(end) - at(start)).total_seconds() // 60)


def waiting_fee(landed: str, met: str) -> int:
    """45 minutes free from the actual landing, then £7.50 per 15 minutes or part."""
    over = max(0, minutes_between(landed, met) - _seed.FREE_WAIT_MINUTES)
    return math.ceil(over / _seed.WAIT_BLOCK_MINUTES) * _seed.WAIT_BLOCK_PENCE


def a_car(vehicle_class: str) -> str:
    """'a saloon', 'an estate', 'an 8-seater'."""
    return f"{'a' if vehicle_class == 'saloon' else 'an'} {vehicle_class}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def paid(b: dict[str, Any]) -> int:
    return int(b["fare_pence"] + b["extras_pence"])


class Flows:
    """The flows; `CorrectTransfersAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", email=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_booking(self, v: dict[str, Any], text: str, status: str = "confirmed",
                     direction: str | None = None) -> dict[str, Any] | None:  # fmt: skip
        """The booking meant: by reference, by its day, the one verified, or the only one."""
        found = [b for b in v["bookings"] if b["status"] == status
                 and (direction is None or b["direction"] == direction)]  # fmt: skip
        refs = rd.booking_refs(text)
        named = [b for b in found if b["booking_ref"] in refs]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [b for b in found if b["pickup_at"][:10] in days]
        if not named:
            named = [b for b in found if b["booking_ref"] == self.s["ref"]]
        if not named and len(found) == 1:
            named = found
        if not named and status == "completed" and found:
            named = [found[-1]]  # the latest trip
        return named[0] if named else None

    def no_booking(self, out: list[str], what: str = "a booking") -> str:
        out.append(f"I can't find {what} that matches that on your account, so I haven't "
                   "changed anything.")  # fmt: skip
        return "done"

    @staticmethod
    def say_booking(b: dict[str, Any]) -> str:
        where = "to the airport" if b["direction"] == "to_airport" else "from the airport"
        return f"booking {b['booking_ref']} ({where}, {rd.say_when(b['pickup_at'])})"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def when_said(self, text: str, day: str | None = None) -> str | None:
        """A new pickup as YYYY-MM-DDTHH:MM from a day and a time said (or the day given)."""
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        time = rd.clock_time(text)
        chosen = days[-1].isoformat() if days else day
        if chosen is None or time is None:
            return None
        return f"{chosen}T{time}"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def pick_class(self, passengers: int, bags: int, named: str | None) -> str | None:
        """The smallest class that takes the passengers and the large cases (or the one named)."""
        fits = [c for c in _seed.CLASSES
                if passengers <= _seed.CAPACITY[c][0] and bags <= _seed.CAPACITY[c][1]]  # fmt: skip
        if not fits:
            return None
        if named in fits:
            return named
        return fits[0]

    def return_fare(self, full: int) -> int:
        """A return leg: 10% off its own fare."""
        return full * (100 - _seed.RETURN_DISCOUNT_PERCENT) // 100

    def refund_for(self, b: dict[str, Any]) -> int:
        """48+ hours before: all paid; 24 to 48 hours: half; under 24 hours: nothing."""
        hours = b["hours_to_pickup"]
        if hours >= _seed.REFUND_FULL_HOURS:
            return paid(b)
        if hours >= _seed.REFUND_HALF_HOURS:
            return paid(b) // 2
        return 0

    def promo_allowed(self, v: dict[str, Any], code: str) -> bool:
        """Each promo code once per account."""
        return code not in v["promo_codes_used"]

    def booking_child_seats(self, text: str) -> int:
        return rd.child_seats(text)

    def lost_followup(self, b: dict[str, Any]) -> str:
        """What the customer is told after a lost-property report (never the driver's number)."""
        return (f"Our office will contact the driver today and call you back within 24 hours; "
                f"please don't try to reach the driver directly. You can also call us on "
                f"{_seed.OFFICE_PHONE}.")  # fmt: skip

    # -- booking a transfer ----------------------------------------------------------------
    def _trip_question(self, direction: str | None) -> str:
        if direction == "from_airport":
            return "What day does your flight land, and at what time?"
        return "What day and time should we collect you?"

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        direction = rd.direction(text)
        if direction is None:
            return self.ask("direction", "Is this a car to the airport, or a pickup from the "
                            "airport when you land?", out)  # fmt: skip
        when = self.when_said(text)
        if when is None or at(when) <= self.now:
            return self.ask("pickup_time", self._trip_question(direction), out)
        answers = req.get("answers", {})
        flights = rd.flights(text) or rd.flights(answers.get("flight_no", "").upper())
        if direction == "from_airport" and not flights:
            return self.ask("flight_no", "What's your flight number? The driver tracks it, so "
                            "we're there when it actually lands.", out)  # fmt: skip
        pax = rd.passengers(text)
        if pax is None:
            pax = rd.bare_count(answers.get("passengers"))
        if not pax:
            return self.ask("passengers", "How many passengers, children included?", out)
        bags = rd.large_bags(text)
        if bags is None:
            bags = rd.bare_count(answers.get("large_bags"))
        if bags is None:
            return self.ask("large_bags", "And how many large suitcases?", out)
        zone_info, error = await self.call("find_zone", postcode=v["postcode"])
        if error:
            out.append(f"I'm sorry — {error}, so we can't book it. Nothing has been booked.")
            return "done"
        named = rd.vehicle_class(text)
        vclass = self.pick_class(pax, bags, named)
        if vclass is None:
            out.append(
                "I'm sorry — our largest car, the 8-seater, takes 8 passengers and 8 "
                "large cases, so that won't fit in one car. Nothing has been booked."
            )
            return "done"
        notes = self._class_notes(named, vclass, pax, bags)
        full = _seed.fare(int(zone_info["zone"]), vclass)
        fare, promo = await self._apply_promo(v, text, full, notes)
        seats = self.booking_child_seats(text)
        mg = rd.meet_greet(text)
        if mg and direction != "from_airport":
            notes.append("meet-and-greet is only for pickups from the airport, so I've left it off")
            mg = False
        extras = seats * _seed.CHILD_SEAT_PENCE + (_seed.MEET_GREET_PENCE if mg else 0)
        return self._propose_booking(req, v, out, {
            "direction": direction, "when": when, "flight": flights[-1] if flights else None,
            "pax": pax, "bags": bags, "class": vclass, "zone": zone_info["zone"], "full": full,
            "fare": fare, "promo": promo, "seats": seats, "mg": mg, "extras": extras,
            "notes": notes,
        })  # fmt: skip

    @staticmethod
    def _class_notes(named: str | None, vclass: str, pax: int, bags: int) -> list[str]:
        """Why the car is bigger than the one named, or than a saloon."""
        article = "a" if vclass == "saloon" else "an"
        if named and named != vclass:
            cap = _seed.CAPACITY[named]
            return [f"A {named} takes up to {cap[0]} passengers and {cap[1]} large cases, so "
                    f"for {pax} and {bags} it needs to be {article} {vclass}"]  # fmt: skip
        if vclass != "saloon" and pax <= _seed.CAPACITY["saloon"][0]:
            return [f"A saloon takes only {_seed.CAPACITY['saloon'][1]} large cases, so for "
                    f"{bags} you need {article} {vclass}"]  # fmt: skip
        return []

    async def _apply_promo(self, v: dict[str, Any], text: str, full: int,
                           notes: list[str]) -> tuple[int, str | None]:  # fmt: skip
        """The fare after a promo code said, once per account; why not, in `notes`."""
        codes = rd.promo_codes(text)
        if not codes:
            return full, None
        terms, error = await self.call("check_promo", code=codes[-1])
        if error:
            notes.append(f"I can't apply {codes[-1]}: {error}")
            return full, None
        if not self.promo_allowed(v, terms["code"]):
            notes.append(f"{terms['code']} has already been used on your account, and each code "
                         "can be used once per account, so it can't be applied again")  # fmt: skip
            return full, None
        off = (full * terms["value"] // 100 if terms["kind"] == "percent"
               else min(full, terms["value"]))  # fmt: skip
        return full - off, terms["code"]

    def _propose_booking(self, req: dict[str, Any], v: dict[str, Any], out: list[str],
                         t: dict[str, Any]) -> str:  # fmt: skip
        route = (f"from {v['address']}, {v['postcode']} to {_seed.AIRPORT}"
                 if t["direction"] == "to_airport"
                 else f"from {_seed.AIRPORT} to {v['address']}, {v['postcode']}")  # fmt: skip
        flight = (f", meeting flight {t['flight']} (landing {rd.say_when(t['when'])}; the "
                  f"driver tracks it and waits {_seed.FREE_WAIT_MINUTES} minutes free after it "
                  f"lands, then {rd.pounds(_seed.WAIT_BLOCK_PENCE)} per 15 minutes or part)"
                  if t["direction"] == "from_airport"
                  else f", collecting you {rd.say_when(t['when'])}")  # fmt: skip
        price = f"fare {rd.pounds(t['fare'])}"
        if t["promo"]:
            price = (f"fare {rd.pounds(t['full'])} less {t['promo']}: "
                     f"{rd.pounds(t['fare'])}")  # fmt: skip
        extras = []
        if t["mg"]:
            extras.append(f"meet-and-greet {rd.pounds(_seed.MEET_GREET_PENCE)}")
        if t["seats"]:
            extras.append(f"{t['seats']} child seat{'s' if t['seats'] > 1 else ''} "
                          f"{rd.pounds(t['seats'] * _seed.CHILD_SEAT_PENCE)}")  # fmt: skip
        price += "".join(f", {e}" for e in extras)
        total = t["fare"] + t["extras"]
        notes = "".join(f"{n[0].upper()}{n[1:]}. " for n in t["notes"])
        args = {"email": v["email"], "direction": t["direction"], "pickup_at": t["when"],
                "flight_no": t["flight"] if t["direction"] == "from_airport" else None,
                "vehicle_class": t["class"], "passengers": t["pax"], "large_bags": t["bags"],
                "meet_greet": t["mg"], "child_seats": t["seats"], "fare_pence": t["fare"],
                "extras_pence": t["extras"], "promo_code": t["promo"]}  # fmt: skip
        return self.propose(
            req, out, f"{notes}To book {a_car(t['class'])} {route}{flight}, for {t['pax']} "
            f"passenger{'s' if t['pax'] > 1 else ''} and {t['bags']} large case"
            f"{'' if t['bags'] == 1 else 's'} (zone {t['zone']}): {price} — "
            f"{rd.pounds(total)} in all, taken now from your card ending {v['card_last4']}. "
            "Shall I book it?",
            [("book_transfer", args)],
        )  # fmt: skip

    async def step_return(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        returns = {b["return_of"] for b in v["bookings"] if b["status"] == "confirmed"}
        v = {**v, "bookings": [b for b in v["bookings"] if b["booking_ref"] not in returns]}
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out, "an upcoming booking without a return")
        back = "from_airport" if b["direction"] == "to_airport" else "to_airport"
        when = self.when_said(text)
        if when is None or when <= b["pickup_at"]:
            return self.ask("return_time", self._trip_question(back).replace(
                "your flight", "your flight home"), out)  # fmt: skip
        said = f"{text} {req.get('answers', {}).get('flight_no', '').upper()}"
        flights = [f for f in rd.flights(said) if f != b["flight_no"]]
        if back == "from_airport" and not flights:
            return self.ask("flight_no", "What's the flight number of your flight home? The "
                            "driver tracks it.", out)  # fmt: skip
        full = _seed.fare(b["zone"], b["vehicle_class"])
        fare = self.return_fare(full)
        how = (
            f"meeting flight {flights[-1]}, landing {rd.say_when(when)}"
            if back == "from_airport"
            else f"collecting you {rd.say_when(when)}"
        )
        route = (f"from {_seed.AIRPORT} to {b['address']}" if back == "from_airport"
                 else f"from {b['address']} to {_seed.AIRPORT}")  # fmt: skip
        return self.propose(
            req, out, f"To add the return to {b['booking_ref']}: {a_car(b['vehicle_class'])} "
            f"{route}, {how}, for the same {plural(b['passengers'], 'passenger')}. The fare is "
            f"{rd.pounds(full)} less 10% for a return leg: {rd.pounds(fare)}, taken now from "
            f"your card ending {v['card_last4']}. Shall I add it?",
            [("add_return_leg", {"email": v["email"], "booking_ref": b["booking_ref"],
                                 "pickup_at": when,
                                 "flight_no": flights[-1] if back == "from_airport" else None,
                                 "fare_pence": fare})],
        )  # fmt: skip

    # -- changing a booking ----------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out, "an upcoming booking")
        when = self.when_said(text, b["pickup_at"][:10])
        if when is None and rd.dates(text, self.today) and re.search(r"\bsame time\b", text, re.I):
            when = self.when_said(f"{text} {b['pickup_at'][11:16]}")
        if when is None or when == b["pickup_at"]:
            question = (
                f"Your pickup is {rd.say_when(b['pickup_at'])}. What time (and day, if "
                "that changes too) would you like instead?"
            )
            return self.ask("new_time", question, out)
        if at(when) <= self.now:
            return self.ask("new_time", "That time has already passed. What time would you "
                            "like instead?", out)  # fmt: skip
        late = b["hours_to_pickup"] < _seed.AMEND_FREE_HOURS
        fee = _seed.AMEND_FEE_PENCE if late else 0
        if self.free_only(req, fee, "Changing a pickup less than 24 hours before it", out):
            return "done"
        charge = (f"The pickup is less than 24 hours away, so there's an amendment fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge, as it's 24 hours or more away.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_when(when)}, same car and "
            f"fare. {charge} Shall I change it?",
            [("change_pickup", {"email": v["email"], "booking_ref": b["booking_ref"],
                                "pickup_at": when, "fee_pence": fee})],
        )  # fmt: skip

    async def step_flight(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, direction="from_airport")
        if b is None:
            return self.no_booking(out, "an upcoming pickup from the airport")
        said = f"{text} {req.get('answers', {}).get('flight_no', '').upper()}"
        new = [f for f in rd.flights(said) if f != b["flight_no"]]
        if not new:
            return self.ask("flight_no", f"Your pickup is tracking flight {b['flight_no']}. "
                            "What's the new flight number?", out)  # fmt: skip
        return self.propose(
            req, out, f"To change the flight on {self.say_booking(b)} from {b['flight_no']} to "
            f"{new[-1]}, so the driver tracks the new one. There's no charge. Shall I update it?",
            [("update_flight", {"email": v["email"], "booking_ref": b["booking_ref"],
                                "flight_no": new[-1]})],
        )  # fmt: skip

    async def step_extras(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out, "an upcoming booking")
        seats, mg = rd.child_seats(text), rd.meet_greet(text)
        note = ""
        if mg and b["direction"] != "from_airport":
            note, mg = "Meet-and-greet is only for pickups from the airport. ", False
        if mg and b["meet_greet"]:
            note, mg = "Meet-and-greet is already on that booking. ", False
        if not seats and not mg:
            out.append(f"{note}So there's nothing to add — nothing has been changed.")
            return "done"
        price = seats * _seed.CHILD_SEAT_PENCE + (_seed.MEET_GREET_PENCE if mg else 0)
        what = " and ".join(
            x for x in (f"meet-and-greet ({rd.pounds(_seed.MEET_GREET_PENCE)})" if mg else "",
                        f"{seats} child seat{'s' if seats > 1 else ''} "
                        f"({rd.pounds(_seed.CHILD_SEAT_PENCE)} each)" if seats else "") if x
        )  # fmt: skip
        return self.propose(
            req, out, f"{note}To add {what} to {self.say_booking(b)}: {rd.pounds(price)}, "
            f"taken from your card ending {v['card_last4']}. Shall I add it?",
            [("add_extras", {"email": v["email"], "booking_ref": b["booking_ref"],
                             "meet_greet": mg, "child_seats": seats, "price_pence": price})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out, "an upcoming booking")
        refund, total = self.refund_for(b), rd.pounds(paid(b))
        if refund == paid(b):
            what = (f"you get the full {total} back to your card ending {v['card_last4']}, as "
                    "it's 48 hours or more before the pickup")  # fmt: skip
        elif refund:
            what = (f"it's between 24 and 48 hours before the pickup, so half of the {total} "
                    f"paid, {rd.pounds(refund)}, goes back to your card ending "
                    f"{v['card_last4']}")  # fmt: skip
        else:
            what = f"it's less than 24 hours before the pickup, so the {total} paid isn't refunded"
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_booking", {"email": v["email"], "booking_ref": b["booking_ref"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- after the trip --------------------------------------------------------------------
    async def step_waiting(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        charged = {**v, "bookings": [b for b in v["bookings"] if b["waiting_fee_pence"]]}
        b = self.pick_booking(charged, self.text(req), status="completed")
        if b is None or not b["landed_at"]:
            return self.no_booking(out, "a trip with a waiting charge")
        right = waiting_fee(b["landed_at"], b["met_at"])
        waited = minutes_between(b["landed_at"], b["met_at"])
        log = (f"Your flight {b['flight_no']} landed at {b['landed_at'][11:]} and you met the "
               f"driver at {b['met_at'][11:]}: {waited} minutes after landing, of which the "
               f"first {_seed.FREE_WAIT_MINUTES} are free")  # fmt: skip
        refund = b["waiting_fee_pence"] - right
        if refund <= 0:
            out.append(f"{log}, so the {rd.pounds(b['waiting_fee_pence'])} charge is right. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"{log}, so the waiting charge should be {rd.pounds(right)}, not "
            f"{rd.pounds(b['waiting_fee_pence'])}. To refund the difference, "
            f"{rd.pounds(refund)}, to your card ending {v['card_last4']}. Shall I refund it?",
            [("refund_waiting_charge", {"email": v["email"], "booking_ref": b["booking_ref"],
                                        "refund_pence": refund})],
        )  # fmt: skip

    async def step_lost(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, status="completed")
        if b is None:
            return self.no_booking(out, "a completed trip")
        m = ITEM_RE.search(text)
        if m is None:
            return self.ask("item", "I'm sorry to hear that. What did you leave in the car, and "
                            "what does it look like?", out)  # fmt: skip
        item = m.group(1).strip()
        return self.propose(
            req, out, f"To log a lost-property report for your {item}, left after "
            f"{self.say_booking(b)}. Our office then contacts the driver and calls you on "
            f"{v['phone']}. Shall I log it?",
            [("report_lost_property", {"email": v["email"], "booking_ref": b["booking_ref"],
                                       "item": item})],
        )  # fmt: skip

    async def step_complaint(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, status="completed") or self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out, "a trip")
        return self.propose(
            req, out, f"I'm sorry about that. To log your complaint about "
            f"{self.say_booking(b)}, in your words, for our customer relations team, who reply "
            "within 5 working days. Shall I log it?",
            [("log_complaint", {"email": v["email"], "booking_ref": b["booking_ref"],
                                "details": text})],
        )  # fmt: skip

    async def step_phone(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        numbers = rd.mobiles(self.text(req))
        if not numbers:
            return self.ask("phone", "What's the new mobile number?", out)
        return self.propose(
            req, out, f"To change the mobile number on your account from {v['phone']} to "
            f"{numbers[-1]}; the driver texts this number on the day. Shall I update it?",
            [("update_phone", {"email": v["email"], "phone": numbers[-1]})],
        )  # fmt: skip

    async def step_question(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        rule = (f"Drivers wait {_seed.FREE_WAIT_MINUTES} minutes free; after that it's "
                f"{rd.pounds(_seed.WAIT_BLOCK_PENCE)} per 15 minutes or part.")  # fmt: skip
        if b is None:
            out.append(rule)
            return "done"
        if b["direction"] == "from_airport":
            out.append(f"For {self.say_booking(b)}, the driver tracks flight {b['flight_no']}, "
                       f"so if it's late the free waiting starts when it actually lands: "
                       f"{_seed.FREE_WAIT_MINUTES} minutes free, then "
                       f"{rd.pounds(_seed.WAIT_BLOCK_PENCE)} per 15 minutes or part. You've "
                       f"paid {rd.pounds(paid(b))} for the trip.")  # fmt: skip
        else:
            out.append(f"For {self.say_booking(b)}, you've paid {rd.pounds(paid(b))}. {rule}")
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — booking {r['booking_ref']} is confirmed: {a_car(r['vehicle_class'])}, "
                    f"{rd.say_when(r['pickup_at'])}; {r['paid']} taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "return":
            return (f"Done — your return is booking {r['booking_ref']}, "
                    f"{rd.say_when(r['pickup_at'])}; {r['fare']} taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} amendment fee taken" if r["fee"] != "£0.00" else ""
            return f"Done — {r['booking_ref']} now picks up {rd.say_when(r['pickup_at'])}{fee}."
        if intent == "flight":
            return f"Done — {r['booking_ref']} now tracks flight {r['flight_no']}."
        if intent == "extras":
            has = [x for x in ("meet-and-greet" if r["meet_greet"] else "",
                               plural(r["child_seats"], "child seat") if r["child_seats"] else "")
                   if x]  # fmt: skip
            return (f"Done — {r['booking_ref']} now has {' and '.join(has)}; {r['charged']} "
                    f"taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "cancel":
            if r["refunded"] == "£0.00":
                return f"Done — {r['booking_ref']} is cancelled; nothing is refunded."
            return (f"Done — {r['booking_ref']} is cancelled; {r['refunded']} refunded to your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "waiting":
            return (
                f"Done — {r['refunded']} refunded to your card ending {r['card_last4']}; the "
                f"waiting charge on {r['booking_ref']} is now {r['waiting_fee_now']}."
            )
        if intent == "lost":
            return f"Done — your report is {r['report_id']}."
        if intent == "complaint":
            return f"Done — your complaint is logged as {r['complaint_id']}."
        return f"Done — your mobile number is now {r['phone']}."

    async def after(self, intent: str, args: dict[str, Any], out: list[str]) -> None:
        """What follows a report (a lost-property report's next steps)."""
        if intent == "lost":
            v = await self.refresh()
            b = next(x for x in v["bookings"] if x["booking_ref"] == args["booking_ref"])
            out.append(self.lost_followup(b))

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
