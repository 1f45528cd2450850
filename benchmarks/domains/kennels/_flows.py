"""The desk's flows: book, move, cancel, extras, collection, contacts, invoices, look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.kennels import _read as rd
from benchmarks.domains.kennels import _seed
from benchmarks.domains.kennels._env import is_peak

EXTRA_WORDS = (("medication", r"\bmedicat|\bmedicine|\btablets?\b|\bpills?\b"),
               ("grooming", r"\bgroom"), ("walks", r"\bwalk"))  # fmt: skip
EXTRA_NAMES = {"walks": "daily walks", "grooming": "a groom on the departure day",
               "medication": "medication each day"}  # fmt: skip


def nights(s: dict[str, Any]) -> int:
    return (date.fromisoformat(s["departure"]) - date.fromisoformat(s["arrival"])).days


class Flows:
    """The flows; `CorrectKennelsAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", account_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def named_pets(v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        return [p for p in v["pets"] if re.search(rf"\b{p['name']}\b", text, re.I)]

    def pet_names(self, v: dict[str, Any], ids: str) -> str:
        names = [p["name"] for p in v["pets"] if p["pet_id"] in ids.split(",")]
        return " and ".join(names)

    def pick_stay(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The stay meant: named by number, by a pet on it, or the only one booked."""
        ids = rd.stays(text)
        named = [s for s in v["stays"] if s["stay_id"] in ids]
        if not named:
            pets = {p["pet_id"] for p in self.named_pets(v, text)}
            named = [s for s in v["stays"] if pets & set(s["pet_ids"].split(","))]
        if not named and len(v["stays"]) == 1:
            named = v["stays"]
        return named[0] if named else None

    def no_stay(self, out: list[str]) -> str:
        out.append("I can't find a booked stay that matches that on your account.")
        return "done"

    def say_stay(self, v: dict[str, Any], s: dict[str, Any]) -> str:
        return (f"{self.pet_names(v, s['pet_ids'])}'s stay {s['stay_id']} "
                f"({rd.say_day(s['arrival'])} to {rd.say_day(s['departure'])})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        # the condition may be its own sentence of the message ("If there's a fee, leave it.")
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def vaccine_problem(self, pet: dict[str, Any], arrival: date) -> str | None:
        """Why a pet's vaccinations won't be in date on the arrival day, or None."""
        jabs = [("booster", pet["booster_on"])]
        if pet["species"] == "dog":
            jabs.append(("kennel cough vaccine", pet["kennel_cough_on"]))
        for name, given in jabs:
            if not given or (arrival - date.fromisoformat(given)).days > _seed.VACCINE_DAYS:
                when = f"was given on {rd.say_day(given)} {given[:4]}" if given else "isn't on file"
                return (f"{pet['name']}'s {name} {when}, so it won't be within 12 months on "
                        "the arrival day")  # fmt: skip
        return None

    def nightly_total(self, pets: list[dict[str, Any]]) -> int:
        """A night's rate: two dogs from one home share a run, the cheaper one at half."""
        rates = [_seed.nightly(p["species"], p["size"]) for p in pets]
        dogs = [r for r, p in zip(rates, pets, strict=True) if p["species"] == "dog"]
        if len(dogs) == 2:
            return sum(rates) - min(dogs) // 2
        return sum(rates)

    def refund_for(self, s: dict[str, Any]) -> int:
        if s["peak"] or s["days_to_arrival"] < _seed.REFUND_DAYS:
            return 0
        return int(s["deposit_pence"])

    def late_fee(self, s: dict[str, Any]) -> int:
        """Collection after 12:00: half a night at the stay's nightly price."""
        return int(s["price_pence"] // nights(s) // 2)

    def invoice_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    # -- booking a stay --------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        pets = self.named_pets(v, text)
        if not pets:
            dogs = [p for p in v["pets"] if p["species"] == "dog"]
            if re.search(r"\b(?:two|both|the) dogs\b", text, re.I) and len(dogs) == 2:
                pets = dogs
            elif len(v["pets"]) == 1:
                pets = v["pets"]
        if not pets:
            return self.ask("pets", "Which of your pets is the stay for?", out)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d > self.today]
        if len(days) < 2 or days[1] <= days[0]:
            return self.ask("dates", "Which day will they arrive, and which day will you "
                            "collect them?", out)  # fmt: skip
        arrival, departure = days[0], days[1]
        for pet in pets:
            why = self.vaccine_problem(pet, arrival)
            if why:
                out.append(f"I'm sorry — {why}, and every pet's vaccinations must be in date "
                           "on arrival. I haven't booked anything; once it's been given, we'd "
                           "be glad to take the booking.")  # fmt: skip
                return "done"
        count = (departure - arrival).days
        rate = self.nightly_total(pets)
        price = rate * count
        deposit = price * _seed.DEPOSIT_PERCENT // 100
        names = " and ".join(p["name"] for p in pets)
        shared = " (sharing a run, the second dog at half price)" if rate < sum(
            _seed.nightly(p["species"], p["size"]) for p in pets) else ""  # fmt: skip
        peak = (" This is a peak-week stay: it can't be refunded if cancelled."
                if is_peak(arrival.isoformat(), departure.isoformat()) else "")  # fmt: skip
        return self.propose(
            req, out,
            f"To book {names} from {rd.say_day(arrival.isoformat())} to "
            f"{rd.say_day(departure.isoformat())} ({count} nights) at {rd.pounds(rate)} a "
            f"night{shared}: {rd.pounds(price)} in all. A 20% deposit of {rd.pounds(deposit)} "
            f"is taken now from your card ending {v['card_last4']}; the rest is paid on "
            f"collection, by 12:00 on the departure day.{peak} Shall I book it?",
            [("book_stay", {"account_id": v["account_id"],
                            "pet_ids": [p["pet_id"] for p in pets],
                            "arrival": arrival.isoformat(), "departure": departure.isoformat(),
                            "price_pence": price})],
        )  # fmt: skip

    # -- changing dates and cancelling -----------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_stay(v, text)
        if s is None:
            return self.no_stay(out)
        new = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        new = [d for d in new if d != s["arrival"]]
        if not new:
            return self.ask("new_arrival", "Which day would you like the stay to start "
                            "instead? It keeps the same number of nights.", out)  # fmt: skip
        arrival = new[-1]
        departure = rd.plus_days(arrival, nights(s))
        late = s["days_to_arrival"] < _seed.FREE_CHANGE_DAYS
        if late and (s["peak"] or is_peak(arrival, departure)):
            out.append("I'm sorry — peak-week stays (Christmas and New Year) can't be changed "
                       "less than 7 days before arrival. Nothing has been changed.")  # fmt: skip
            return "done"
        fee = _seed.CHANGE_FEE_PENCE if late else 0
        if self.free_only(req, fee, "Changing the dates less than 7 days before arrival", out):
            return "done"
        charge = (f"The arrival is less than 7 days away, so there's a change fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge, as it's 7 or more days away.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_stay(v, s)} to {rd.say_day(arrival)} to "
            f"{rd.say_day(departure)}, same price. {charge} Shall I move it?",
            [("move_stay", {"account_id": v["account_id"], "stay_id": s["stay_id"],
                            "arrival": arrival, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_stay(v, self.text(req))
        if s is None:
            return self.no_stay(out)
        refund = self.refund_for(s)
        deposit = rd.pounds(s["deposit_pence"])
        if refund:
            what = (f"your {deposit} deposit is refunded to your card ending {v['card_last4']}, "
                    "as it's 14 or more days before arrival")  # fmt: skip
        elif s["peak"]:
            what = f"your {deposit} deposit is kept: peak-week stays are non-refundable"
        else:
            what = f"your {deposit} deposit is kept, as it's less than 14 days before arrival"
        return self.propose(
            req, out, f"To cancel {self.say_stay(v, s)}: {what}. Shall I cancel it?",
            [("cancel_stay", {"account_id": v["account_id"], "stay_id": s["stay_id"],
                              "refund_pence": refund})],
        )  # fmt: skip

    # -- extras and collection -------------------------------------------------------------
    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_stay(v, text)
        if s is None:
            return self.no_stay(out)
        kind = next(k for k, pattern in EXTRA_WORDS if re.search(pattern, text, re.I))
        on_stay = [p for p in v["pets"] if p["pet_id"] in s["pet_ids"].split(",")]
        pet = next(iter(self.named_pets({"pets": on_stay}, text)), None) or on_stay[0]
        if kind == "walks" and pet["species"] != "dog":
            out.append("I'm sorry — daily walks are for dogs. Nothing has been changed.")
            return "done"
        price = {"walks": _seed.WALK_PENCE * nights(s), "grooming": _seed.GROOM_PENCE,
                 "medication": _seed.MEDICATION_PENCE * nights(s)}[kind]  # fmt: skip
        if self.free_only(req, price, EXTRA_NAMES[kind].capitalize(), out):
            return "done"
        note = (" Medication is only given with a vet's note on file; the system checks it."
                if kind == "medication" else "")  # fmt: skip
        return self.propose(
            req, out, f"To add {EXTRA_NAMES[kind]} for {pet['name']} on {self.say_stay(v, s)}: "
            f"{rd.pounds(price)}, paid on collection.{note} Shall I add it?",
            [("add_extra", {"account_id": v["account_id"], "stay_id": s["stay_id"],
                            "pet_id": pet["pet_id"], "kind": kind, "price_pence": price})],
        )  # fmt: skip

    async def step_collect(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_stay(v, text)
        if s is None:
            return self.no_stay(out)
        when = rd.clock_time(text)
        if when is None:
            return self.ask("collect_time", f"What time will you collect on "
                            f"{rd.say_day(s['departure'])}?", out)  # fmt: skip
        fee = self.late_fee(s) if when > _seed.COLLECT_BY else 0
        if self.free_only(req, fee, f"Collecting at {when}", out):
            return "done"
        charge = (f"that's after 12:00, so a half-day charge of {rd.pounds(fee)} is added to "
                  "the bill" if fee else "there's no charge")  # fmt: skip
        return self.propose(
            req, out, f"To set collection for {self.say_stay(v, s)} at {when} on "
            f"{rd.say_day(s['departure'])}: {charge}. Shall I set it?",
            [("set_collection", {"account_id": v["account_id"], "stay_id": s["stay_id"],
                                 "collect_time": when, "fee_pence": fee})],
        )  # fmt: skip

    # -- contacts, invoices, look-ups ------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers = rd.phones(text)
        if not numbers:
            return self.ask("phone", "What's the new phone number?", out)
        field = "vet_phone" if re.search(r"\bvet", text, re.I) else "emergency_phone"
        who = "your vet's" if field == "vet_phone" else "your emergency contact's"
        return self.propose(
            req,
            out,
            f"To change {who} phone number to {numbers[-1]}. Shall I update it?",
            [("update_contacts", {"account_id": v["account_id"], field: numbers[-1]})],
        )

    async def step_invoice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.invoices(text)
        invs = [i for i in v["invoices"] if i["invoice_id"] in ids] or sorted(
            v["invoices"], key=lambda i: i["issued"], reverse=True)  # fmt: skip
        if not invs:
            out.append("I can't see an invoice on your account yet.")
            return "done"
        inv, email = invs[0], self.invoice_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"For your security, invoices only go to the email on your account, not to "
                f"{said[0]}. " if said else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To email a copy of invoice {inv['invoice_id']} "
            f"({rd.pounds(inv['total_pence'])}) to {email}. Shall I send it?",
            [("send_invoice_copy", {"account_id": v["account_id"],
                                    "invoice_id": inv["invoice_id"], "email": email})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_stay(v, self.text(req))
        if s is None:
            return self.no_stay(out)
        extras = sum(e["price_pence"] for e in s["extras"]) + s["late_fee_pence"]
        out.append(
            f"{self.say_stay(v, s)}: {nights(s)} nights, {rd.pounds(s['price_pence'])} for the "
            f"boarding{f' plus {rd.pounds(extras)} of extras' if extras else ''}; the "
            f"{rd.pounds(s['deposit_pence'])} deposit is paid, so "
            f"{rd.pounds(s['price_pence'] + extras - s['deposit_pence'])} is due on collection. "
            f"Collection is by {s['collect_time']} on {rd.say_day(s['departure'])}."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — stay {r['stay_id']} is booked, {rd.say_day(r['arrival'])} to "
                    f"{rd.say_day(r['departure'])}, {r['price']}; {r['deposit_taken']} deposit "
                    f"taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — stay {r['stay_id']} is now {rd.say_day(r['arrival'])} to "
                    f"{rd.say_day(r['departure'])}{fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — stay {r['stay_id']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "extra":
            return f"Done — {r['kind']} added for {r['pet']} ({r['price']}) on {r['stay_id']}."
        if intent == "collect":
            return (f"Done — collection for {r['stay_id']} is at {r['collect_time']}; late "
                    f"charge {r['late_fee']}.")  # fmt: skip
        if intent == "contact":
            return (f"Done — your emergency contact's number is {r['emergency_phone']} and your "
                    f"vet's is {r['vet_phone']}.")  # fmt: skip
        return f"Done — a copy of invoice {r['invoice_id']} has been sent to {r['sent_to']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
