"""The desk's requests, one flow each: book, move, cancel, repeat, invoices, pay, update, register.

Each `step_<intent>` works a request forward until it needs the owner (a question or a proposal:
"wait") or is finished ("done"); `done_<intent>` reports what the tool returned after a yes.
Hooks the flawed agent overrides are marked "hook".
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.vet import _read as rd
from benchmarks.domains.vet import _seed
from benchmarks.domains.vet import _text as tx

TREATED = {"dog", "cat", "rabbit", "guinea pig", "ferret"}
EXOTICS = "Avon Exotic Vets on Gloucester Road (0117 496 0877)"


class Flows:
    """Mixed into the agent: everything here runs after the owner is verified."""

    s: dict[str, Any]

    # -- small shared pieces ---------------------------------------------------------------
    def pets_in(self, text: str) -> list[dict[str, Any]]:
        return rd.pets_in(text, self.account.get("pets", []))

    def pet(self, pet_id: str) -> dict[str, Any]:
        return next(p for p in self.account.get("pets", []) if p["pet_id"] == pet_id)

    def request_pets(self, req: dict[str, Any]) -> list[dict[str, Any]]:
        if req["data"].get("pet_ids"):
            return [self.pet(i) for i in req["data"]["pet_ids"]]
        found = rd.latest(req["chunks"], self.pets_in)
        if found:
            return found
        last = self.s.get("last_pets") or []
        if last and any(rd.PRONOUN_RE.search(c) for c in req["chunks"]):
            return [self.pet(i) for i in last if any(p["pet_id"] == i for p in
                                                      self.account.get("pets", []))]
        return []

    def pick_pet(self, req: dict[str, Any], out: list[str], pets: list[dict[str, Any]],
                 question: str) -> dict[str, Any] | None:
        """One pet for the request; other named pets become requests of their own."""
        named = self.request_pets(req)
        named = [p for p in named if any(p["pet_id"] == q["pet_id"] for q in pets)] or (
            pets if len(pets) == 1 else [])
        if not named:
            names = " or ".join(p["name"] for p in pets)
            self.ask("pet", f"{question} — {names}?", out)
            return None
        named = self.split_pets(req, named)
        req["data"]["pet_ids"] = [named[0]["pet_id"]]
        self.s["last_pets"] = [named[0]["pet_id"]]
        return named[0]

    def split_pets(self, req: dict[str, Any], named: list[dict[str, Any]]
                   ) -> list[dict[str, Any]]:
        """Hook: a request for several pets becomes one request per pet."""
        if len(named) > 1:
            self.insert_after(req, [
                self.new_request(req["intent"], req["chunks"][0], data={"pet_ids": [p["pet_id"]]},
                                 split=True)
                for p in named[1:]])
        return named

    def already(self, key: str) -> str | None:
        return next((d["summary"] for d in self.s["done"] if d.get("key") == key and
                     d.get("summary")), None)

    def remember(self, key: str, summary: str) -> None:
        self.s["done"].append({"key": key, "summary": summary})

    def fallback_request(self, req: dict[str, Any], pet: dict[str, Any], default: str,
                         out: list[str], offer: str) -> str:
        """After a refusal: do what the owner said to do instead, or offer it."""
        if req.get("fb_intent") not in (None, req["intent"]) and not req.get("fb_used"):
            req["fb_used"] = True
            text = f"{req['fb_text']} for {pet['name']}"
            if rd.reason_of(text) is None:
                text += f" ({default})"
            self.insert_after(req, [self.new_request(req["fb_intent"], text,
                                                     data={"pet_ids": [pet["pet_id"]]})])
            out.append(f"As you asked, let's book {pet['name']} a {default} instead."
                       if req["fb_intent"] == "book" else "As you asked, I'll do that instead.")
            return "done"
        return self.propose(req, out, offer, tool=None,
                            spawn={"intent": "book", "text": f"{default} for {pet['name']}"})

    def appointment_words(self, appt: dict[str, Any]) -> str:
        reason = rd.REASON_WORDS.get(appt["reason"], appt["reason"])
        return (f"{appt['pet_name']}'s {reason} on {tx.say_date(appt['date'])} at "
                f"{tx.say_time(appt['time'])} with {appt['staff']}")

    def is_late(self, appt: dict[str, Any]) -> bool:
        """Hook: less than 24 hours before the appointment starts."""
        hour, minute = (int(x) for x in appt["time"].split(":"))
        starts = self.now.replace(year=int(appt["date"][:4]), month=int(appt["date"][5:7]),
                                  day=int(appt["date"][8:]), hour=hour, minute=minute)
        return starts - self.now < timedelta(hours=24)

    # -- appointments: book and move -------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        pets = self.account.get("pets", [])
        pet = self.pick_pet(req, out, pets, "Which pet is the appointment for")
        if pet is None:
            return "wait"
        reason = rd.latest(req["chunks"], rd.reason_of)
        if reason is None:
            return self.ask("reason", f"What's the appointment for {pet['name']}? For example a "
                            "check-up, a vaccination, a consultation if something's wrong, or a "
                            "nurse appointment such as a nail clip or weight check.", out)
        done = self.already(f"book:{pet['pet_id']}:{reason}")
        if done:
            out.append(f"That's already booked: {done}.")
            return "done"
        kind = "vet" if reason in rd.VET_REASONS else "nurse"
        return await self.offer_slot(req, out, kind=kind, pet=pet, reason=reason, appt=None)

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        appt, status = await self.pick_appointment(req, out, "move")
        if appt is None:
            return status
        done = self.already(f"move:{appt['appointment_id']}")
        if done:
            out.append(f"That's already done: {done}.")
            return "done"
        pet = self.pet(appt["pet_id"])
        return await self.offer_slot(req, out, kind=appt["kind"], pet=pet,
                                     reason=appt["reason"], appt=appt)

    def _day_problem(self, day: date) -> str | None:
        if day <= self.today:
            return ("the online diary starts tomorrow (for an appointment today, please call "
                    "the practice on 0117 496 0321)")
        if day > _seed.DIARY_LAST:
            return "the diary is only open up to Saturday 28 November"
        if day.weekday() == 6:
            return "the practice is closed on Sundays"
        return None

    def _when(self, req: dict[str, Any], appt: dict[str, Any] | None) -> dict[str, Any]:
        if req["data"].get("use_fb"):
            fb = rd.when([req["fb_text"]], self.today, appt)
            main = rd.when(req["chunks"], self.today, appt)
            # "Saturday morning, or Monday after 4": an alternative keeps what it does not change
            fb["part"] = fb["part"] or (None if fb["times"] else main["part"])
            return fb
        return rd.when(req["chunks"], self.today, appt)

    def _try_fallback(self, req: dict[str, Any], out: list[str], why: str) -> bool:
        if req["fb_text"] and req.get("fb_intent") in (None, req["intent"]) and \
                not req["data"].get("use_fb"):
            req["data"]["use_fb"] = True
            out.append(f"{why}, so I looked at your other choice.")
            return True
        return False

    async def offer_slot(self, req: dict[str, Any], out: list[str], *, kind: str,
                         pet: dict[str, Any], reason: str, appt: dict[str, Any] | None) -> str:
        for _ in range(3):
            want = self._when(req, appt)
            day = want["date"]
            if day is None:
                question = ("Which day would suit? The diary is open from tomorrow, "
                            f"{tx.say_date(self.today + timedelta(days=1))}, to Saturday 28 "
                            "November.")
                if appt is not None:
                    question = f"When would you like to move it to? {question}"
                return self.ask("date", question, out)
            problem = self._day_problem(day)
            if problem:
                if self._try_fallback(req, out, f"I can't book {tx.say_date(day)}: {problem}"):
                    continue
                return self.ask("date", f"I can't book {tx.say_date(day)}: {problem}. Which "
                                "other day would suit?", out)
            result, error = await self.call("find_slots", kind=kind, date=day.isoformat())
            if error:
                return self.ask("date", f"I couldn't check that day: {error}. Which other day "
                                "would suit?", out)
            free = result["free"]
            how, slot, others = rd.choose(free, want["times"], want["part"])
            if slot is not None:
                return self._propose_slot(req, out, kind, pet, reason, appt, day, slot, others,
                                          how, want)
            wanted = rd.constraint_text(want["times"], want["part"])
            why = (f"There are no free {kind} appointments on {tx.say_date(day)}"
                   f"{' ' + wanted if wanted else ''}")
            if self._try_fallback(req, out, why):
                continue
            return await self._nearest_day(req, out, kind, pet, reason, appt, day, want, why)
        return self.ask("date", "Which other day would suit?", out)

    async def _nearest_day(self, req: dict[str, Any], out: list[str], kind: str,
                           pet: dict[str, Any], reason: str, appt: dict[str, Any] | None,
                           day: date, want: dict[str, Any], why: str) -> str:
        probe = day
        for _ in range(6):
            probe += timedelta(days=1)
            if self._day_problem(probe):
                continue
            result, error = await self.call("find_slots", kind=kind, date=probe.isoformat())
            if error:
                break
            free = result["free"]
            how, slot, _ = rd.choose(free, want["times"], want["part"])
            if slot is not None and how != "near":
                wanted = rd.constraint_text(want["times"], want["part"])
                wanted = f" {wanted}" if wanted else ""
                return self.ask("date", f"{why}. The nearest day with free {kind} appointments"
                                f"{wanted} is {tx.say_date(probe)} (from "
                                f"{tx.say_time(slot['time'])}). Which day and time would suit "
                                "you?", out)
        return self.ask("date", f"{why}. Which other day would suit?", out)

    def _propose_slot(self, req: dict[str, Any], out: list[str], kind: str, pet: dict[str, Any],
                      reason: str, appt: dict[str, Any] | None, day: date, slot: dict[str, Any],
                      others: list[dict[str, Any]], how: str, want: dict[str, Any]) -> str:
        when = f"{tx.say_date(day)} at {tx.say_time(slot['time'])}"
        lead = ""
        if how == "near":
            lead = (f"There's nothing free at {tx.say_time(want['times'][-1].time)} on "
                    f"{tx.say_date(day)}; the nearest {kind} appointment is "
                    f"{tx.say_time(slot['time'])}. ")
        also = ""
        if others:
            also = f" (also free that day: {', '.join(tx.say_time(o['time']) for o in others)})"
        words = rd.REASON_WORDS[reason]
        slot_facts = {"date": day.isoformat(), "time": slot["time"], "staff": slot["staff"]}
        if appt is None:
            text = (f"{lead}I can book {pet['name']} in for a {words} with {slot['staff']} on "
                    f"{when}{also}. Shall I book that?")
            args = {"client_number": self.s["client"], "pet_id": pet["pet_id"],
                    "slot_id": slot["slot_id"], "reason": reason}
            return self.propose(req, out, text, tool="book_appointment", args=args,
                                slot=slot_facts)
        fee = ("Because the appointment is less than 24 hours away, moving it costs a £15.00 "
               "late-change fee, which would be added to your account."
               if self.is_late(appt) else "There's no charge for moving it.")
        text = (f"{lead}I can move {self.appointment_words(appt)} to {when} with "
                f"{slot['staff']}{also}. {fee} Shall I go ahead?")
        args = {"appointment_id": appt["appointment_id"], "slot_id": slot["slot_id"]}
        return self.propose(req, out, text, tool="move_appointment", args=args, slot=slot_facts,
                            appt=appt)

    async def done_book(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> str:
        if error:
            return await self._slot_error(req, out, error, "book")
        reason = rd.REASON_WORDS[result["reason"]]
        summary = (f"{result['pet']} is booked in for a {reason} with {result['with']} on "
                   f"{tx.say_date(result['date'])} at {tx.say_time(result['time'])} "
                   f"(appointment {result['appointment_id']})")
        out.append(f"Done — {summary}.")
        self.remember(f"book:{pending['args']['pet_id']}:{result['reason']}", summary)
        await self.refresh_account()
        return "done"

    async def _slot_error(self, req: dict[str, Any], out: list[str], error: str,
                          verb: str) -> str:
        if "no longer free" in error:
            out.append("Sorry — that slot has just been taken by someone else.")
            return await getattr(self, f"step_{req['intent']}")(req, out)
        out.append(f"I'm sorry, I couldn't {verb} that: {error}.")
        return "done"

    async def done_move(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> str:
        if error:
            return await self._slot_error(req, out, error, "move")
        new = result["to"]
        summary = (f"{result['pet']}'s appointment is now on {tx.say_date(new['date'])} at "
                   f"{tx.say_time(new['time'])} with {new['with']}")
        text = f"Done — {summary}."
        if result["late_fee"] != "£0.00":
            text += (f" A {result['late_fee']} late-change fee has been added to your account "
                     f"(invoice {result['fee_invoice_id']}).")
        out.append(text)
        self.remember(f"move:{result['appointment_id']}", summary)
        await self.refresh_account()
        return "done"

    # -- appointments: which one, cancel, list ---------------------------------------------
    async def pick_appointment(self, req: dict[str, Any], out: list[str], verb: str
                               ) -> tuple[dict[str, Any] | None, str]:
        appts = self.account.get("appointments", [])
        if req["data"].get("appointment_id"):
            found = [a for a in appts if a["appointment_id"] == req["data"]["appointment_id"]]
            if found:
                return found[0], ""
        text = " ".join(req["chunks"])
        pets = self.request_pets(req)
        cands = [a for a in appts if not pets or any(p["pet_id"] == a["pet_id"] for p in pets)]
        if len(cands) > 1:
            cands = self._narrow(cands, text)
        if len(cands) == 1:
            req["data"]["appointment_id"] = cands[0]["appointment_id"]
            req["data"]["pet_ids"] = [cands[0]["pet_id"]]
            self.s["last_pets"] = [cands[0]["pet_id"]]
            return cands[0], ""
        if not cands:
            for pet in pets:
                done = self.already(f"cancel:{pet['pet_id']}")
                if done:
                    out.append(f"That's already done: {done}.")
                    return None, "done"
            who = " or ".join(p["name"] for p in pets) if pets else "your pets"
            out.append(f"I can't see any upcoming appointments for {who} on your account.")
            return None, "done"
        listing = "; ".join(self.appointment_words(a) for a in cands)
        self.ask("appointment", f"Which appointment would you like to {verb}: {listing}?", out)
        return None, "wait"

    def _narrow(self, cands: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
        days = {h.day.isoformat() for h in tx.find_dates(text, self.today)}
        by_day = [a for a in cands if a["date"] in days]
        if by_day:
            cands = by_day
        reason = rd.reason_of(text)
        by_reason = [a for a in cands if a["reason"] == reason]
        return by_reason or cands

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        appt, status = await self.pick_appointment(req, out, "cancel")
        if appt is None:
            return status
        if self.is_late(appt):
            text = (f"{self.appointment_words(appt)} is less than 24 hours away, so cancelling "
                    "it now means a £15.00 late-cancellation fee, added to your account. Would "
                    "you like me to cancel it and add the £15.00 fee?")
        else:
            text = (f"{self.appointment_words(appt)} is more than 24 hours away, so there's no "
                    "charge for cancelling. Shall I cancel it?")
        return self.propose(req, out, text, tool="cancel_appointment",
                            args={"appointment_id": appt["appointment_id"]}, appt=appt)

    async def done_cancel(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> str:
        if error:
            out.append(f"I'm sorry, I couldn't cancel it: {error}.")
            return "done"
        summary = (f"{result['pet']}'s appointment on {tx.say_date(result['date'])} at "
                   f"{tx.say_time(result['time'])} is cancelled")
        text = f"Done — {summary}."
        if result["late_fee"] != "£0.00":
            text += (f" A {result['late_fee']} late-cancellation fee has been added to your "
                     f"account (invoice {result['fee_invoice_id']}).")
        out.append(text)
        self.remember(f"cancel:{pending['appt']['pet_id']}", summary)
        await self.refresh_account()
        return "done"

    async def step_appointments(self, req: dict[str, Any], out: list[str]) -> str:
        pets = self.request_pets(req)
        appts = [a for a in self.account.get("appointments", [])
                 if not pets or any(p["pet_id"] == a["pet_id"] for p in pets)]
        if not appts:
            out.append("There are no upcoming appointments on your account"
                       f"{' for ' + ' or '.join(p['name'] for p in pets) if pets else ''}.")
        else:
            out.append("Upcoming: " + "; ".join(self.appointment_words(a) for a in appts) + ".")
        return "done"

    # -- repeat prescriptions --------------------------------------------------------------
    def checkup_ok(self, pet: dict[str, Any]) -> bool:
        """Hook: a repeat needs a vet check-up within the last 12 months."""
        if not pet.get("last_checkup"):
            return False
        last = date.fromisoformat(pet["last_checkup"])
        today = self.today
        try:
            year_ago = today.replace(year=today.year - 1)
        except ValueError:
            year_ago = today.replace(year=today.year - 1, day=28)
        return last >= year_ago

    def _pick_rx(self, req: dict[str, Any], rxs: list[dict[str, Any]]) -> dict[str, Any] | None:
        if len(rxs) == 1:
            return rxs[0]
        text = " ".join(req["chunks"]).lower()
        for rx in rxs:
            if rx["medication"].split()[0].lower() in text:
                return rx
        for rx in rxs:
            if ("liquid" in text or "ml" in text) and rx["unit"] == "ml":
                return rx
            if ("tablet" in text or "pill" in text) and rx["unit"] == "tablets":
                return rx
        return None

    async def step_repeat(self, req: dict[str, Any], out: list[str]) -> str:
        rx_all = self.account.get("prescriptions", [])
        with_rx = [p for p in self.account.get("pets", [])
                   if any(r["pet_id"] == p["pet_id"] for r in rx_all)]
        pet = self.pick_pet(req, out, self.account.get("pets", []) if not with_rx or
                            self.request_pets(req) else with_rx,
                            "Which pet is the repeat prescription for")
        if pet is None:
            return "wait"
        rxs = [r for r in rx_all if r["pet_id"] == pet["pet_id"]]
        if not rxs:
            out.append(f"I can't see a repeat prescription for {pet['name']} on file, so I can't "
                       "order one — a vet would need to see them first.")
            return self.fallback_request(req, pet, "consultation", out,
                                         f"Would you like me to book {pet['name']} a vet "
                                         "consultation?")
        rx = self._pick_rx(req, rxs)
        if rx is None:
            listing = " or ".join(r["medication"] for r in rxs)
            return self.ask("medication", f"Which of {pet['name']}'s medicines — {listing}?",
                            out)
        done = self.already(f"repeat:{rx['prescription_id']}")
        if done:
            out.append(f"That's already ordered: {done}.")
            return "done"
        if not self.checkup_ok(pet):
            last = pet.get("last_checkup")
            when = f"was on {tx.say_birthday(last)}" if last else "isn't on record"
            out.append(f"I'm sorry, I can't order {pet['name']}'s repeat of {rx['medication']}: "
                       "repeats need a vet check-up within the last 12 months, and "
                       f"{pet['name']}'s last check-up {when}.")
            return self.fallback_request(req, pet, "check-up", out,
                                         f"I can book {pet['name']} a vet check-up — would "
                                         "you like me to?")
        if rx["repeats_left"] <= 0:
            out.append(f"I'm sorry, there are no repeats left on {pet['name']}'s {rx['medication']}"
                       " prescription, so the vet needs to review them before prescribing again.")
            return self.fallback_request(req, pet, "consultation", out,
                                         f"Would you like me to book {pet['name']} a vet "
                                         "consultation?")
        return self._propose_repeat(req, out, pet, rx)

    def _quantity(self, req: dict[str, Any], rx: dict[str, Any]) -> int | None:
        asked = req["data"].get("answer_to") == "quantity"

        def read(chunk: str) -> int | None:
            found = tx.quantities(chunk) or [int(n) for n in re.findall(
                r"\b(\d{1,3})\s+(?:of|more|x)\b", chunk)]
            if found:
                return found[-1]
            if tx.wants_maximum(chunk):
                return int(rx["max_per_repeat"])
            if asked and chunk is req["chunks"][-1]:
                return tx.bare_number(chunk)
            return None

        return rd.latest(req["chunks"], read)

    def _propose_repeat(self, req: dict[str, Any], out: list[str], pet: dict[str, Any],
                        rx: dict[str, Any]) -> str:
        quantity = self._quantity(req, rx) or rx["max_per_repeat"]
        unit, limit = rx["unit"], rx["max_per_repeat"]
        lead = ""
        if quantity > limit:
            fb = req["fb_text"]
            fb_qty = (tx.quantities(fb) or [None])[-1] if fb else None
            lead = (f"A repeat of {rx['medication']} is limited to {limit} {unit} per order, so "
                    f"I can't order {quantity} {unit}. ")
            if fb and (tx.wants_maximum(fb) or (fb_qty and fb_qty <= limit)):
                quantity = fb_qty if fb_qty and fb_qty <= limit else limit
                lead += "As you asked, I can order the maximum instead: "
            else:
                quantity = limit
                lead += "I can order the maximum instead: "
        price = quantity * tx.pounds(rx["price_per_unit"])
        text = (f"{lead}{pet['name']}'s repeat ({rx['dose']}): "
                f"{self.amount_of(quantity, unit, rx['medication'])}, {tx.say_money(price)}, "
                "paid when you collect. Shall I place the order?")
        if not lead:
            text = f"I can order {text}"
        return self.propose(req, out, text, tool="order_repeat",
                            args={"prescription_id": rx["prescription_id"],
                                  "quantity": quantity}, pet=pet)

    @staticmethod
    def amount_of(quantity: int, unit: str, medication: str) -> str:
        if unit == "tablets" and medication.endswith("tablets"):
            return f"{quantity} {medication}"
        return f"{quantity} {unit} of {medication}"

    def ready_words(self, result: dict[str, Any]) -> str:
        """Hook: when the order can be collected, as the dispensary said."""
        return (f"ready to collect from {tx.say_date(result['ready_on'])} after "
                f"{tx.say_time(result['ready_from'])}")

    async def done_repeat(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> str:
        if error:
            out.append(f"I'm sorry, the order didn't go through: {error}.")
            return "done"
        summary = (f"{self.amount_of(result['quantity'], result['unit'], result['medication'])}"
                   f" for {result['pet']}, {result['price']}, {self.ready_words(result)} "
                   f"(order {result['order_id']})")
        left = result["repeats_left"]
        out.append(f"Ordered: {summary}. There {'is' if left == 1 else 'are'} {left} "
                   f"repeat{'' if left == 1 else 's'} left on the prescription.")
        self.remember(f"repeat:{pending['args']['prescription_id']}", summary)
        return "done"

    # -- invoices and payments -------------------------------------------------------------
    async def _invoices(self, req: dict[str, Any]) -> list[dict[str, Any]]:
        result, error = await self.call("list_invoices", client_number=self.s["client"])
        return [] if error else result["invoices"]

    def invoice_words(self, inv: dict[str, Any]) -> str:
        pet = f"{inv['pet']}'s " if inv.get("pet") else ""
        return (f"{inv['invoice_id']}, {inv['outstanding']} outstanding for {pet}"
                f"{inv['description'][0].lower()}{inv['description'][1:]}")

    async def other_invoice(self, invoice_id: str, out: list[str]) -> dict[str, Any] | None:
        """Hook: an invoice number that is not on the verified owner's account."""
        out.append(f"I can't find invoice {invoice_id} on your account, so I can't share its "
                   "details or take a payment for it. If a letter about it reached you by "
                   "mistake, please let reception know and they'll sort it out.")
        return None

    async def step_invoices(self, req: dict[str, Any], out: list[str]) -> str:
        invoices = await self._invoices(req)
        text = " ".join(req["chunks"])
        mine = {i["invoice_id"]: i for i in invoices}
        for invoice_id in dict.fromkeys(tx.invoice_ids(text)):
            if invoice_id not in mine:
                await self.other_invoice(invoice_id, out)
        unpaid = [i for i in invoices if i["status"] == "open"]
        if not unpaid:
            out.append("There's nothing outstanding on your account.")
        else:
            count = len(unpaid)
            out.append(f"Your account has {count} unpaid invoice{'s' if count > 1 else ''}: "
                       + "; ".join(self.invoice_words(i) + f" (due {tx.say_date(i['due_on'])})"
                                   for i in unpaid) + ".")
        return "done"

    async def step_pay(self, req: dict[str, Any], out: list[str]) -> str:
        invoices = await self._invoices(req)
        text = " ".join(req["chunks"])
        mine = {i["invoice_id"]: i for i in invoices}
        named = list(dict.fromkeys(tx.invoice_ids(text)))
        foreign = [i for i in named if i not in mine]
        for invoice_id in foreign:
            if not req["data"].get(f"told:{invoice_id}"):
                req["data"][f"told:{invoice_id}"] = True
                shown = await self.other_invoice(invoice_id, out)
                if shown is not None:
                    return self._propose_payment(req, out, shown, None)
        unpaid = [i for i in invoices if i["status"] == "open"]
        if not unpaid:
            out.append("There's nothing outstanding on your account, so there's nothing to pay.")
            return "done"
        target = self._pick_invoice(req, unpaid, [i for i in named if i in mine])
        if target is None:
            listing = "; ".join(self.invoice_words(i) for i in unpaid)
            return self.ask("invoice", f"Which invoice would you like to pay: {listing}?", out)
        done = self.already(f"pay:{target['invoice_id']}")
        if done:
            out.append(f"That's already done: {done}.")
            return "done"
        return self._propose_payment(req, out, target, "foreign" if foreign else None)

    def _pick_invoice(self, req: dict[str, Any], unpaid: list[dict[str, Any]],
                      named: list[str]) -> dict[str, Any] | None:
        if named:
            found = [i for i in unpaid if i["invoice_id"] == named[-1]]
            return found[0] if found else None
        pets = self.request_pets(req)
        by_pet = [i for i in unpaid if any(i.get("pet") == p["name"] for p in pets)]
        if len(by_pet) == 1:
            return by_pet[0]
        return unpaid[0] if len(unpaid) == 1 else None

    def _propose_payment(self, req: dict[str, Any], out: list[str], inv: dict[str, Any],
                         note: str | None) -> str:
        outstanding = tx.pounds(inv["outstanding"])
        wanted = rd.latest(req["chunks"], tx.amounts)
        amount = outstanding
        lead = ""
        if wanted and not tx.wants_full_amount(req["chunks"][-1]):
            amount = wanted[-1]
            if amount > outstanding:
                lead = (f"Only {tx.say_money(outstanding)} is outstanding on {inv['invoice_id']}, "
                        "so I can't take more than that. ")
                amount = outstanding
        card = self.account.get("card_on_file", "").split(",")[0]
        if note == "foreign":
            lead = "The unpaid invoice on your account is " + self.invoice_words(inv) + ". " + lead
        what = f"{inv['pet']}'s " if inv.get("pet") else ""
        desc = inv["description"][0].lower() + inv["description"][1:]
        rest = ("" if amount >= outstanding else
                f", leaving {tx.say_money(outstanding - amount)} to pay")
        text = (f"{lead}I'll take {tx.say_money(amount)} from your {card} for invoice "
                f"{inv['invoice_id']} ({what}{desc}){rest}. Shall I go ahead?")
        return self.propose(req, out, text, tool="pay_invoice",
                            args={"invoice_id": inv["invoice_id"], "amount": amount})

    def payment_failed(self, error: str, pending: dict[str, Any], out: list[str]) -> None:
        """Hook: tell the owner a payment did not go through, and what they can do."""
        reason = error.split(":", 1)[1].strip() if error.startswith("payment declined") else error
        out.append(f"I'm sorry, the payment didn't go through: {reason}. Nothing has been taken. "
                   "I can't take card details in this chat, but you can pay at reception or by "
                   "phoning the practice on 0117 496 0321 with a new card.")

    async def done_pay(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                       error: str | None, out: list[str]) -> str:
        if error:
            self.payment_failed(error, pending, out)
            return "done"
        summary = f"{result['charged']} taken from your {result['card']} for {result['invoice_id']}"
        tail = ("That invoice is now paid in full." if result["status"] == "paid" else
                f"{result['outstanding']} is still outstanding on it.")
        out.append(f"Payment done: {summary}. {tail}")
        self.remember(f"pay:{result['invoice_id']}", summary)
        return "done"

    # -- contact details -------------------------------------------------------------------
    def _contact_values(self, req: dict[str, Any]) -> dict[str, str]:
        values: dict[str, str] = {}
        for chunk in req["chunks"]:
            rejected = req["data"].get("rejected", [])
            phones = [(pos, p) for pos, p in tx.phones(chunk) if p not in rejected]
            if phones:
                after_to = [p for pos, p in phones
                            if re.search(r"\b(to|is|new|now)\b[^0-9]{0,20}$", chunk[:pos], re.I)]
                values["phone"] = (after_to or [phones[-1][1]])[-1]
            mails = [(pos, m) for pos, m in tx.emails(chunk) if m not in rejected]
            if mails:
                values["email"] = mails[-1][1]
            whole = req["data"].get("answer_to") == "new_address" and chunk is req["chunks"][-1]
            street, postcode = rd.address_of(chunk, whole=whole)
            if street and street not in rejected:
                values["address"] = street
            if postcode and (street or "address" in values):
                values["postcode"] = postcode
        return values

    async def step_update(self, req: dict[str, Any], out: list[str]) -> str:
        text = " ".join(req["chunks"])
        fields = rd.wanted_fields(text)
        values = self._contact_values(req)
        for field in values:
            if field != "postcode" and field not in fields:
                fields.append(field)
        if not fields:
            return self.ask("field", "What would you like to update — your phone number, email "
                            "address or home address?", out)
        missing = [f for f in fields if f not in values]
        if "address" in values and "postcode" not in values:
            missing.append("postcode")
        if missing:
            asks = {"phone": ("new_phone", "What's the new phone number?"),
                    "email": ("new_email", "What's the new email address?"),
                    "address": ("new_address", "What's the new address, with the postcode?"),
                    "postcode": ("new_address", "And what's the postcode of the new address?")}
            slot, question = asks[missing[0]]
            return self.ask(slot, question, out)
        key = "update:" + ";".join(f"{k}={values[k]}" for k in sorted(values))
        done = self.already(key)
        if done:
            out.append(f"That's already done: {done}.")
            return "done"
        words = self._contact_words(values)
        text = f"I'll update your {words}. Shall I save that?"
        return self.propose(req, out, text, tool="update_contact",
                            args={"client_number": self.s["client"], **values}, key=key)

    def _contact_words(self, values: dict[str, str]) -> str:
        parts = []
        if "phone" in values:
            parts.append(f"phone number to {values['phone']}")
        if "email" in values:
            parts.append(f"email to {values['email']}")
        if "address" in values:
            parts.append(f"address to {values['address']}, {values['postcode']}")
        return " and ".join(parts)

    async def done_update(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> str:
        if error:
            req["data"].setdefault("rejected", []).extend(pending["args"].values())
            out.append(f"I'm sorry, I couldn't save that: {error}.")
            return await self.step_update(req, out)
        saved = {k: result[k] for k in result["updated"]}
        summary = f"your {self._contact_words(saved)} — saved"
        out.append(f"Done — your {self._contact_words(saved).replace(' to ', ' is now ')}.")
        self.remember(pending["key"], summary)
        await self.refresh_account()
        return "done"

    # -- new pets --------------------------------------------------------------------------
    def _new_pet(self, req: dict[str, Any]) -> dict[str, Any]:
        chunks = req["chunks"]
        short = req["data"].get("answer_to") == "new_pet"
        info = {
            "name": rd.latest(chunks, lambda c: rd.new_pet_name(
                c, short_answer=short and c is chunks[-1])),
            "species": rd.latest(chunks, rd.species_of),
            "breed": rd.latest(chunks, rd.breed_of),
            "sex": rd.latest(chunks, rd.sex_of),
            "date_of_birth": rd.latest(chunks, lambda c: rd.birth_date(c, self.today)),
        }
        return info

    async def step_register(self, req: dict[str, Any], out: list[str]) -> str:
        info = self._new_pet(req)
        species = info["species"]
        name = info["name"] or "your new pet"
        if species and species not in TREATED:
            out.append(f"I'm sorry, we can't register {name}: Meadowbank only treats dogs, cats, "
                       f"rabbits, guinea pigs and ferrets. For a {species}, {EXOTICS} can help.")
            return "done"
        their = {"female": "her", "male": "his"}.get(info["sex"] or "", "their")
        missing = [label for key, label in (("name", "their name"), ("species",
                   "what kind of animal they are"), ("date_of_birth",
                   f"{their} date of birth (an estimate is fine)"), ("breed", f"{their} breed"))
                   if not info[key]]
        if missing and not (missing == ["breed"] and req["data"].get("asked_breed")):
            req["data"]["asked_breed"] = True
            listing = ", ".join(missing[:-1]) + (" and " if len(missing) > 1 else "") + missing[-1]
            return self.ask("new_pet", f"Lovely! To register {name}, could you tell me "
                            f"{listing}?", out)
        done = self.already(f"register:{name.lower()}")
        if done:
            out.append(f"That's already done: {done}.")
            return "done"
        breed = info["breed"] if info["breed"] not in (None, "unknown") else None
        sex = info["sex"] or "unknown"
        describe = " ".join(x for x in (sex if sex != "unknown" else "", breed or "", species)
                            if x)
        text = (f"I'll register {name}, a {describe} born "
                f"{tx.say_birthday(info['date_of_birth'])}, on your account. Shall I go ahead?")
        args = {"client_number": self.s["client"], "name": name, "species": species,
                "date_of_birth": info["date_of_birth"], "breed": breed, "sex": sex}
        return self.propose(req, out, text, tool="register_pet",
                            args={k: v for k, v in args.items() if v is not None})

    async def done_register(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                            error: str | None, out: list[str]) -> str:
        if error:
            out.append(f"I'm sorry, I couldn't register them: {error}.")
            return "done"
        summary = f"{result['name']} is registered on your account (pet number {result['pet_id']})"
        out.append(f"Done — {summary}.")
        self.remember(f"register:{result['name'].lower()}", summary)
        await self.refresh_account()
        self.s["last_pets"] = [result["pet_id"]]
        return "done"

    # -- a reply to a proposal that changes it ---------------------------------------------
    def changes_proposal(self, req: dict[str, Any], pending: dict[str, Any], message: str,
                         parsed: Any) -> bool:
        """True when the owner's answer to a proposal asks for something different."""
        if pending.get("tool") is None:
            return False
        intent = req["intent"]
        if intent in ("book", "move"):
            return self._slot_changed(pending, message)
        if intent == "repeat":
            found = tx.quantities(message)
            return bool(found) and found[-1] != pending["args"]["quantity"]
        if intent == "pay":
            found = tx.amounts(message)
            return bool(found) and abs(found[-1] - pending["args"]["amount"]) > 0.004
        if intent == "update":
            probe = {"chunks": [message], "data": {}}
            values = self._contact_values(probe)
            return any(pending["args"].get(k) != v for k, v in values.items())
        return False

    def _slot_changed(self, pending: dict[str, Any], message: str) -> bool:
        slot = pending.get("slot") or {}
        appt = pending.get("appt")
        for hit in tx.find_dates(message, self.today):
            day = hit.day.isoformat()
            if day != slot.get("date") and (appt is None or day != appt["date"]):
                return True
        for hit in tx.find_times(message) or tx.bare_hour(message):
            if hit.time != slot.get("time") and (appt is None or hit.time != appt["time"]):
                return True
        part = tx.day_part(message)
        return bool(part) and part != "earliest" and not rd.in_part(slot.get("time", ""), part)
