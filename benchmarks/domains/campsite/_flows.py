"""The desk's flows: book, move, cancel, options, extras, times, contact, lost property, more."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.campsite import _read as rd
from benchmarks.domains.campsite import _seed
from benchmarks.domains.campsite._env import nights_of

OPTION_NAMES = {"hookup": "electric hook-up", "awning": "an awning", "dogs": "dogs"}
EXTRA_NAMES = {"firewood": "bag(s) of firewood", "gas": "gas bottle exchange(s)",
               "bikes": "bike(s) for the day"}  # fmt: skip
SUBJECTS = (("showers", r"\bshowers?\b|\bhot water"), ("noise", r"\bnois|\bloud|\bmusic"),
            ("cleanliness", r"\bdirty|\bclean|\btoilets?\b|\bbins?\b"),
            ("pitch", r"\bmuddy|\bflood|\bwaterlogged|\buneven"),
            ("staff", r"\brude|\bstaff"))  # fmt: skip


class Flows:
    """The flows; `CorrectCampsiteAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_guest", guest_id=self.s["guest"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_booking(self, v: dict[str, Any], text: str, *,
                     past: bool = False) -> dict[str, Any] | None:  # fmt: skip
        """The booking meant: by reference, by pitch type, or the only one that fits."""
        said = rd.refs(text)
        live = [b for b in v["bookings"] if b["status"] == "confirmed"]
        done = sorted((b for b in v["bookings"] if b["status"] == "completed"),
                      key=lambda b: b["departure"], reverse=True)  # fmt: skip
        pool = [*done, *live] if past else live
        named = [b for b in pool if b["booking_ref"] in said]
        if named:
            return named[0]
        kind = rd.pitch_type(text)
        if kind:
            pool = [b for b in pool if b["pitch_type"] == kind] or pool
        mine = [b for b in pool if b["booking_ref"] == self.s.get("ref")]
        return (mine or pool or [None])[0]

    def latest_dates(self, req: dict[str, Any], *, pair: bool) -> list[date]:
        """The future days of the latest part of the request that names them (a correction wins).

        With `pair`, the latest part naming two days, else every day said.
        """
        for chunk in reversed(req["chunks"]):
            days = [d for d in rd.dates(chunk, self.today, all_said=pair) if d > self.today]
            if len(days) >= (2 if pair else 1):
                return days
        return [d for d in rd.dates(self.text(req), self.today, all_said=pair) if d > self.today]

    def no_booking(self, out: list[str]) -> str:
        out.append("I can't find a booking that matches that under your name.")
        return "done"

    def say_booking(self, b: dict[str, Any]) -> str:
        return (f"booking {b['booking_ref']} ({b['pitch_type']} pitch {b['pitch_id']}, "
                f"{rd.say_day(b['arrival'])} to {rd.say_day(b['departure'])})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def pitch_rates(self, pitch_type: str, nights: list[date]) -> list[int]:
        """Each night at its own season's rate."""
        return [_seed.RATES[(pitch_type, _seed.season(n))] for n in nights]

    def dog_nightly(self, dogs: int) -> int:
        return _seed.DOG_PENCE * dogs

    def stay_price(self, pitch_type: str, arrival: str, departure: str, *, hookup: bool,
                   awning: bool, dogs: int) -> tuple[int, str]:  # fmt: skip
        """The price of a stay and how it is made up."""
        nights = nights_of(arrival, departure)
        rates = self.pitch_rates(pitch_type, nights)
        dog = self.dog_nightly(dogs) if dogs else 0
        extra = (_seed.HOOKUP_PENCE if hookup else 0) + (_seed.AWNING_PENCE if awning else 0) + dog
        parts = []
        for rate in sorted(set(rates), key=rates.index):
            n = rates.count(rate)
            parts.append(f"{n} night{'s' if n > 1 else ''} at {rd.pounds(rate)}")
        made = "the pitch " + " and ".join(parts)
        if hookup:
            made += f", hook-up at {rd.pounds(_seed.HOOKUP_PENCE)} a night"
        if awning:
            made += f", an awning at {rd.pounds(_seed.AWNING_PENCE)} a night"
        if dogs:
            made += f", {dogs} dog{'s' if dogs > 1 else ''} at {rd.pounds(dog)} a night"
        return sum(rates) + extra * len(nights), made

    def bank_holiday_problem(self, arrival: str, departure: str) -> str | None:
        """Why a stay breaks the bank-holiday minimum of 3 nights, or None."""
        nights = nights_of(arrival, departure)
        if len(nights) >= _seed.MIN_BANK_HOLIDAY_NIGHTS:
            return None
        hit = sorted(set(nights) & _seed.weekend_nights())
        if not hit:
            return None
        monday = next(m for m in _seed.BANK_HOLIDAYS if 0 < (m - hit[0]).days <= 2)
        return (f"stays over the bank-holiday weekend (Monday {monday.day} "
                f"{monday.strftime('%B')}) must be at least 3 nights, e.g. "
                f"{rd.say_day(rd.plus_days(monday.isoformat(), -3))} to "
                f"{rd.say_day(monday.isoformat())}")  # fmt: skip

    def refund_for(self, b: dict[str, Any]) -> tuple[int, str]:
        """The refund on cancelling, and why."""
        days, paid = b["days_to_arrival"], b["paid_pence"]
        if days >= _seed.FULL_REFUND_DAYS:
            return paid, "as it's 28 or more days before arrival, everything paid comes back"
        if days >= _seed.BALANCE_REFUND_DAYS:
            kept = rd.pounds(b["deposit_pence"])
            return paid - b["deposit_pence"], (
                f"as it's 7 to 27 days before arrival, the {kept} deposit is kept and the rest "
                "of what you paid comes back")  # fmt: skip
        return 0, "as it's less than 7 days before arrival, nothing is refunded"

    # -- a new booking ---------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = rd.pitch_type(text)
        if kind is None:
            return self.ask("pitch_type", "Is that for a tent, a touring caravan or a "
                            "motorhome?", out)  # fmt: skip
        days = self.latest_dates(req, pair=True)
        if len(days) < 2 or days[1] <= days[0]:
            return self.ask("dates", "Which day will you arrive, and which day will you "
                            "leave?", out)  # fmt: skip
        arrival, departure = days[0].isoformat(), days[1].isoformat()
        hookup = rd.wants(text, r"hook-?up|electric")
        awning = rd.wants(text, r"awning")
        dogs = (rd.count_of(text, r"dogs?") or 1) if rd.wants(text, r"\bdogs?\b") else 0
        why = self.bank_holiday_problem(arrival, departure)
        if why is None and awning and kind == "tent":
            why = "awnings are only for caravans and motorhomes"
        if why is None and dogs > _seed.MAX_DOGS:
            why = "we take at most 2 dogs on a pitch"
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything.")
            return "done"
        free, error = await self.call("check_availability", pitch_type=kind, arrival=arrival,
                                      departure=departure, hookup=hookup)  # fmt: skip
        if error or not free["pitches_free"]:
            out.append(f"I'm sorry — there's no {kind} pitch{' with hook-up' if hookup else ''} "
                       f"free every night from {rd.say_day(arrival)} to {rd.say_day(departure)}. "
                       "I haven't booked anything.")  # fmt: skip
            return "done"
        price, made = self.stay_price(kind, arrival, departure, hookup=hookup, awning=awning,
                                      dogs=dogs)  # fmt: skip
        deposit = price * _seed.DEPOSIT_PERCENT // 100
        due = rd.say_day(rd.plus_days(arrival, -_seed.BALANCE_DAYS))
        peak = (" Nights in July and August are at the peak rate."
                if any(_seed.season(n) == "peak" for n in nights_of(arrival, departure))
                else "")  # fmt: skip
        power = "" if hookup else " (without electric hook-up)"
        return self.propose(
            req, out,
            f"To book a {kind} pitch{power} from {rd.say_day(arrival)} to "
            f"{rd.say_day(departure)}: {made} — {rd.pounds(price)} in all.{peak} A 25% deposit "
            f"of {rd.pounds(deposit)} is taken now from your card ending {v['card_last4']}; the "
            f"balance of {rd.pounds(price - deposit)} is taken on {due}. Shall I book it?",
            [("book_pitch", {"guest_id": v["guest_id"], "pitch_type": kind, "arrival": arrival,
                             "departure": departure, "hookup": hookup, "awning": awning,
                             "dogs": dogs, "price_pence": price})],
        )  # fmt: skip

    # -- changing dates and cancelling -----------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        new = [d.isoformat() for d in self.latest_dates(req, pair=False)]
        if len(new) >= 2 and new[1] > new[0]:
            arrival, departure = new[0], new[1]
        elif new and new[-1] != b["arrival"]:
            arrival, departure = new[-1], rd.plus_days(new[-1], b["nights"])
        else:
            return self.ask("new_dates", "Which dates would you like instead — the arrival "
                            "and the departure day?", out)  # fmt: skip
        why = self.bank_holiday_problem(arrival, departure)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        fee = _seed.CHANGE_FEE_PENCE if b["days_to_arrival"] < _seed.FREE_CHANGE_DAYS else 0
        if self.free_only(req, fee, "Changing the dates less than 14 days before arrival", out):
            return "done"
        price, made = self.stay_price(b["pitch_type"], arrival, departure, hookup=bool(
            b["hookup"]), awning=bool(b["awning"]), dogs=b["dogs"])  # fmt: skip
        charge = (f"The arrival is less than 14 days away, so there's a change fee of "
                  f"{rd.pounds(fee)} from your card ending {v['card_last4']}."
                  if fee else "There's no change fee, as it's 14 or more days away.")  # fmt: skip
        diff = price - b["price_pence"]
        if b["paid_pence"] >= b["price_pence"] and diff:
            charge += (f" You've paid in full, so the difference of {rd.pounds(abs(diff))} is "
                       f"{'taken from' if diff > 0 else 'refunded to'} your card now.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_day(arrival)} to "
            f"{rd.say_day(departure)}: {made} — {rd.pounds(price)}. {charge} Shall I move it?",
            [("change_dates", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                               "arrival": arrival, "departure": departure, "price_pence": price,
                               "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        refund, why = self.refund_for(b)
        back = (f", so {rd.pounds(refund)} is refunded to your card ending {v['card_last4']}"
                if refund else "")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: you've paid "
            f"{rd.pounds(b['paid_pence'])}, and {why}{back}. Shall I cancel it?",
            [("cancel_booking", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- options and extras ------------------------------------------------------------------
    async def step_option(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        option = ("hookup" if re.search(r"hook-?up|electric", text, re.I)
                  else "awning" if re.search(r"awning", text, re.I) else "dogs")  # fmt: skip
        count, why = 1, None
        if option == "hookup" and b["hookup"]:
            why = "electric hook-up is already on that booking"
        elif option == "hookup" and not b["hookup_point"]:
            why = (f"pitch {b['pitch_id']} has no electric hook-up point, so hook-up can't be "
                   "added to it")  # fmt: skip
        elif option == "awning" and b["pitch_type"] == "tent":
            why = "awnings are only for caravans and motorhomes"
        elif option == "awning" and b["awning"]:
            why = "an awning is already on that booking"
        elif option == "dogs":
            count = rd.count_of(text, r"dogs?") or 1
            if b["dogs"] + count > _seed.MAX_DOGS:
                why = "we take at most 2 dogs on a pitch"
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        nightly = {"hookup": _seed.HOOKUP_PENCE, "awning": _seed.AWNING_PENCE,
                   "dogs": self.dog_nightly(count)}[option]  # fmt: skip
        price = nightly * b["nights"]
        if self.free_only(req, price, f"Adding {OPTION_NAMES[option]}", out):
            return "done"
        what = OPTION_NAMES[option]
        if option == "dogs":
            what = f"{count} dog{'s' if count > 1 else ''}"
        return self.propose(
            req, out, f"To add {what} to {self.say_booking(b)}: {rd.pounds(nightly)} a night "
            f"for {b['nights']} nights, {rd.pounds(price)}, added to the booking's price "
            f"(then {rd.pounds(b['price_pence'] + price)}). Shall I add it?",
            [("add_option", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                             "option": option, "count": count, "price_pence": price})],
        )  # fmt: skip

    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        kind = ("firewood" if re.search(r"firewood|\blogs\b", text, re.I)
                else "gas" if re.search(r"\bgas\b", text, re.I) else "bikes")  # fmt: skip
        day = None
        if kind == "bikes":
            qty = rd.count_of(text, r"(?:bikes?|bicycles?)")
            if qty is None:
                return self.ask("bikes", "How many bikes would you like?", out)
            stay = [d.isoformat() for d in nights_of(b["arrival"], b["departure"])]
            days = [d.isoformat() for d in rd.dates(text, self.today, all_said=True)]
            days = [d for d in days if d in [*stay, b["departure"]]]
            if not days:
                return self.ask("bike_day", f"Which day would you like the bikes for? Your "
                                f"stay is {rd.say_day(b['arrival'])} to "
                                f"{rd.say_day(b['departure'])}.", out)  # fmt: skip
            day = days[0]
            if qty > _seed.MAX_BIKES:
                out.append("I'm sorry — we have at most 4 bikes for a booking. Nothing has been "
                           "changed.")  # fmt: skip
                return "done"
            price = _seed.BIKE_PENCE * qty
            what = f"{qty} bike{'s' if qty > 1 else ''} for {rd.say_day(day)}"
        else:
            noun = r"(?:bags?|firewood)" if kind == "firewood" else r"(?:gas )?(?:bottles?|gas)"
            qty = rd.count_of(text, noun) or 1
            unit = _seed.FIREWOOD_PENCE if kind == "firewood" else _seed.GAS_PENCE
            price = unit * qty
            what = (f"{qty} bag{'s' if qty > 1 else ''} of firewood" if kind == "firewood"
                    else f"{qty} gas bottle exchange{'s' if qty > 1 else ''}")  # fmt: skip
        return self.propose(
            req, out, f"To add {what} to {self.say_booking(b)}: {rd.pounds(price)}, paid on "
            "arrival. Shall I add it?",
            [("add_extra", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                            "kind": kind, "quantity": qty, "day": day, "price_pence": price})],
        )  # fmt: skip

    async def step_times(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        late = bool(re.search(r"\bleav|\bdepart|\bcheck[- ]?out|\bstay (?:on )?(?:later|until)",
                              text, re.I))  # fmt: skip
        when = rd.clock_time(text)
        if when is None:
            verb = "leave on " + rd.say_day(b["departure"]) if late else (
                "arrive on " + rd.say_day(b["arrival"]))  # fmt: skip
            return self.ask("time", f"What time would you like to {verb}?", out)
        if late and when <= _seed.LEAVE_BY or not late and when >= _seed.ARRIVE_FROM:
            out.append("No change is needed for that: pitches are ready from 14:00 and left by "
                       "11:00, so that time is within them.")  # fmt: skip
            return "done"
        if late and when > _seed.LATEST_DEPARTURE or not late and when < _seed.EARLIEST_ARRIVAL:
            out.append("I'm sorry — the earliest arrival is 12:00 and the latest departure "
                       "16:00. Nothing has been changed.")  # fmt: skip
            return "done"
        fee = _seed.TIMES_FEE_PENCE
        what = (f"a late departure at {when} on {rd.say_day(b['departure'])}" if late
                else f"an early arrival at {when} on {rd.say_day(b['arrival'])}")  # fmt: skip
        if self.free_only(req, fee, what.capitalize(), out):
            return "done"
        args = {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"], "fee_pence": fee,
                "depart_time" if late else "arrive_time": when}  # fmt: skip
        return self.propose(
            req,
            out,
            f"To set {what} for {self.say_booking(b)}: a {rd.pounds(fee)} charge, "
            "paid on arrival, if the pitch is free then (the system checks). Shall I set it?",
            [("set_times", args)],
        )

    # -- contact, lost property, complaints, other guests, look-ups -------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mails, numbers = rd.emails(text), rd.phones(text)
        if not mails and not numbers:
            return self.ask("contact", "What's the new email address or phone number?", out)
        args: dict[str, Any] = {"guest_id": v["guest_id"]}
        said = []
        if mails:
            args["email"] = mails[-1]
            said.append(f"your email to {mails[-1]}")
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your phone number to {numbers[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update that?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lost(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, past=True)
        if b is None:
            return self.no_booking(out)
        found, error = await self.call("search_found_items", guest_id=v["guest_id"],
                                       booking_ref=b["booking_ref"], description=text)  # fmt: skip
        if not error and found:
            item = found[0]
            return self.propose(
                req, out, f"Good news — we have a {item['description']}, found on pitch "
                f"{item['pitch_id']} on {rd.say_day(item['found_on'])}. I can post it to the "
                f"address on your booking, {v['address']}, for {rd.pounds(_seed.POSTAGE_PENCE)} "
                f"postage from your card ending {v['card_last4']}. Shall I post it?",
                [("post_found_item", {"guest_id": v["guest_id"], "found_id": item["found_id"],
                                      "postage_pence": _seed.POSTAGE_PENCE})],
            )  # fmt: skip
        return self.propose(
            req, out, f"Nothing like that has been handed in from pitch {b['pitch_id']} yet. I "
            "can log a lost-property report, and we'll email you if it turns up. Shall I log it?",
            [("log_lost_item", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                                "description": text})],
        )  # fmt: skip

    async def step_complaint(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text, past=True)
        if b is None:
            return self.no_booking(out)
        subject = next((s for s, p in SUBJECTS if re.search(p, text, re.I)), "other")
        if subject == "other" and len(text.split()) < 8:
            return self.ask("details", "I'm sorry to hear that. What went wrong?", out)
        return self.propose(
            req, out, f"I'm sorry about that. I'll log a complaint about {subject} on "
            f"{self.say_booking(b)} for the site manager, who replies within 5 working days. "
            "I can't offer refunds or compensation myself; the manager decides. Shall I log it?",
            [("log_complaint", {"guest_id": v["guest_id"], "booking_ref": b["booking_ref"],
                                "subject": subject, "details": text})],
        )  # fmt: skip

    async def step_guest(self, req: dict[str, Any], out: list[str]) -> str:
        """Another guest's booking is never shared, not even whether they are coming."""
        out.append("I'm sorry — I can't tell you anything about another guest's booking, "
                   "including whether they're staying or which pitch they're on. If your friends "
                   "call us with their own booking reference, they can ask about pitches near "
                   "yours.")  # fmt: skip
        return "done"

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        extras = sum(e["price_pence"] for e in b["extras"]) + b["times_fee_pence"]
        left = b["price_pence"] - b["paid_pence"]
        if left > 0:
            owe = (f"you've paid {rd.pounds(b['paid_pence'])}, and the balance of "
                   f"{rd.pounds(left)} is taken from your card on "
                   f"{rd.say_day(b['balance_due_on'])}")  # fmt: skip
        else:
            owe = "it's paid in full"
        if extras:
            owe += f"; {rd.pounds(extras)} of extras is paid on arrival"
        out.append(
            f"For {self.say_booking(b)}: the pitch is ready from {b['arrive_time']} on "
            f"{rd.say_day(b['arrival'])} and must be left by {b['depart_time']} on "
            f"{rd.say_day(b['departure'])}. The booking is {rd.pounds(b['price_pence'])}; {owe}."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the guest's words."""
        if intent == "book":
            return (f"Done — booking {r['booking_ref']} on pitch {r['pitch_id']}, "
                    f"{rd.say_day(r['arrival'])} to {rd.say_day(r['departure'])}, {r['price']}; "
                    f"{r['deposit_taken']} deposit taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — booking {r['booking_ref']} is now {rd.say_day(r['arrival'])} to "
                    f"{rd.say_day(r['departure'])} on pitch {r['pitch_id']}, "
                    f"{r['price']}{fee}.")  # fmt: skip
        if intent == "cancel" and r["refunded"] == "£0.00":
            return f"Done — booking {r['booking_ref']} is cancelled; nothing is refunded."
        if intent == "cancel":
            return (f"Done — booking {r['booking_ref']} is cancelled; {r['refunded']} refunded "
                    f"to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "option":
            return (f"Done — {OPTION_NAMES[r['option']]} added to {r['booking_ref']} "
                    f"({r['price_added']}); the booking is now {r['new_price']}.")  # fmt: skip
        if intent == "extra":
            return (f"Done — {r['quantity']} x {r['kind']} added to {r['booking_ref']} "
                    f"({r['price']}, paid on arrival).")  # fmt: skip
        if intent == "times":
            return (f"Done — on {r['booking_ref']} you arrive from {r['arrive_time']} and leave "
                    f"by {r['depart_time']}; {r['fee']} paid on arrival.")  # fmt: skip
        if intent == "contact":
            return f"Done — your email is {r['email']} and your phone number {r['phone']}."
        if intent == "lost" and "found_id" in r:
            return (f"Done — the {r['description']} is posted to {r['posted_to']}; "
                    f"{r['postage']} postage taken.")  # fmt: skip
        if intent == "lost":
            return f"Done — lost-property report {r['report_id']} is logged."
        return (f"Done — complaint {r['complaint_id']} is logged; the site manager will reply "
                "within 5 working days.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
