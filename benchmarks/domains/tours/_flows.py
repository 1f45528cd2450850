"""The desk's flows: participants, moves, weather, cancellations, kayaks, extras, details."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.tours import _read as rd
from benchmarks.domains.tours import _seed

EVERYONE = re.compile(r"\b(?:both|all|everyone|everybody|each of us|the (?:two|three|four) of "
                      r"us|whole group|for us)\b", re.I)  # fmt: skip
ME = re.compile(r"\b(?:me|myself|mine)\b", re.I)
REFUND_WORDS = re.compile(r"\brefund|\bmoney back|\bcancel(?!led)|\bget (?:it|anything) back",
                          re.I)  # fmt: skip
REBOOK_WORDS = re.compile(r"\brebook|\bmove|\banother (?:day|date)|\bdifferent (?:day|date)|"
                          r"\bnew date|\bswap", re.I)  # fmt: skip


class Flows:
    """The flows; `CorrectToursAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: Any
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_booking", booking_ref=self.s["ref"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def answer_to(req: dict[str, Any], asked: str) -> str | None:
        return req.get("answers", {}).get(asked)

    @staticmethod
    def say_slot(v: dict[str, Any]) -> str:
        return f"the {v['tour_name']} on {rd.say_day(v['day'])} at {v['start']}"

    @staticmethod
    def named(v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        """Participants named in `text`, by full name or first name."""
        out = []
        for p in v["participants"]:
            first = p["name"].split()[0]
            if re.search(rf"\b{re.escape(p['name'])}\b|\b{re.escape(first)}\b", text, re.I):
                out.append(p)
        return out

    def who(self, v: dict[str, Any], text: str) -> list[dict[str, Any]] | None:
        """The participants a request is for; None when the desk must ask."""
        people = v["participants"]
        if EVERYONE.search(text):
            return people
        found = self.named(v, text)
        if found:
            return found
        if len(people) == 1 or ME.search(text):
            return [p for p in people if p["lead"]]
        return None

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def age_problem(self, v: dict[str, Any], age: int) -> str | None:
        """Why someone of `age` can't join this tour, or None."""
        minimum = _seed.TOURS[v["tour"]][3]
        if age < minimum:
            return f"the {v['tour_name']} is for ages {minimum} and over"
        return None

    def refund_for(self, v: dict[str, Any]) -> tuple[int, str]:
        """The refund of what was paid, by the band the start time falls in, and why."""
        paid = int(v["paid_pence"])
        if v["slot_status"] == "weather_cancelled":
            return paid, "we cancelled the tour for weather, so you get everything back"
        if v["hours_to_start"] >= _seed.FULL_REFUND_HOURS:
            return paid, "it's 7 or more days before the tour, so it's a full refund"
        if v["hours_to_start"] >= _seed.HALF_REFUND_HOURS:
            return paid // 2, "it's 2 to 6 days before the tour, so half is refunded"
        return 0, "it's less than 48 hours before the tour, so there's no refund"

    def move_fee(self, v: dict[str, Any]) -> int:
        """The first move is free; each later one costs the move fee. Weather rebooks are free."""
        if v["slot_status"] == "weather_cancelled" or not v["moves_used"]:
            return 0
        return _seed.MOVE_FEE_PENCE

    def voucher_amount(self, balance: int, due: int) -> int:
        """What a voucher pays: what's due, at most its balance; the rest stays on it."""
        return min(balance, due)

    # -- adding a participant --------------------------------------------------------------
    async def step_add_person(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        name = self._new_name(v, req)
        if name is None or (" " not in name and self.answer_to(req, "participant_name") is None):
            return self.ask("participant_name", "Happy to add someone. What's their full name?",
                            out)  # fmt: skip
        said_age = self.answer_to(req, "age")
        years = rd.age(text) if said_age is None else rd.age(said_age, bare=True)
        if years is None:
            return self.ask("age", f"How old is {name.split()[0]}? (Age on the tour day.)", out)
        why = self.age_problem(v, years)
        if why:
            out.append(f"I'm sorry — {why}, so I can't add {name} ({years}). Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        said_kg = self.answer_to(req, "weight")
        kg = rd.weight(text) if said_kg is None else rd.weight(said_kg, bare=True)
        if kg is None:
            return self.ask("weight", f"And roughly how much does {name.split()[0]} weigh? Our "
                            "kayaks take paddlers up to 120 kg.", out)  # fmt: skip
        if kg > _seed.MAX_WEIGHT_KG:
            out.append(f"I'm sorry — our kayaks take paddlers up to {_seed.MAX_WEIGHT_KG} kg, so "
                       f"I can't add {name}. Nothing has been changed.")  # fmt: skip
            return "done"
        single = bool(re.search(r"\bsingle\b|\bown kayak", text, re.I))
        note = ""
        if years < _seed.TANDEM_UNDER:
            single, note = False, " Under-16s paddle in a tandem with an adult from the group."
        kayak = "single" if single else "tandem"
        price = _seed.price_of(v["tour"], kayak)
        due = v["balance_pence"] + price
        return self.propose(
            req, out, f"To add {name} ({years}) to booking {v['booking_ref']}, {self.say_slot(v)},"
            f" in a {kayak} kayak: {rd.pounds(price)}, added to the booking — "
            f"{rd.pounds(due)} would then be due before the tour.{note} Shall I add them?",
            [("add_participant", {"booking_ref": v["booking_ref"], "name": name, "age": years,
                                  "weight_kg": kg, "kayak": kayak, "price_pence": price})],
        )  # fmt: skip

    def _new_name(self, v: dict[str, Any], req: dict[str, Any]) -> str | None:
        said = self.answer_to(req, "participant_name")
        text = said if said is not None else self.text(req)
        on = {p["name"].lower() for p in v["participants"]}
        firsts = {n.split()[0] for n in on}
        names = [n for n in rd.capitalised_names(text)
                 if n.lower() not in on and n.lower() not in firsts]  # fmt: skip
        names.sort(key=lambda n: -len(n.split()))
        if names:
            return names[0]
        if said is not None and re.fullmatch(r"[A-Za-z' -]{2,40}", said.strip()):
            return said.strip().title()
        return None

    # -- moves, weather and cancellations --------------------------------------------------
    async def step_weather(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["slot_status"] != "weather_cancelled":
            if REFUND_WORDS.search(text):
                req["intent"] = "cancel"
                return await self.step_cancel(req, out)
            out.append(
                f"Your booking is for {self.say_slot(v)}, and that tour is running: we "
                "haven't cancelled it. If the forecast changes, we'll contact you."
            )
            return "done"
        if REBOOK_WORDS.search(text) or rd.dates(text, self.today):
            req["intent"] = "move"
            return await self.step_move(req, out)
        if REFUND_WORDS.search(text):
            req["intent"] = "cancel"
            return await self.step_cancel(req, out)
        return self.ask(
            "rebook_or_refund",
            f"I'm sorry — we cancelled {self.say_slot(v)} because of the weather. You can rebook "
            f"onto another date of the same tour free of charge, or have a full refund of "
            f"{rd.pounds(v['paid_pence'])}. Which would you prefer?", out,
        )  # fmt: skip

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        weather = v["slot_status"] == "weather_cancelled"
        if not weather and v["hours_to_start"] < _seed.MOVE_CLOSES_HOURS:
            out.append(f"I'm sorry — {self.say_slot(v)} starts in less than 48 hours, and moves "
                       "close 48 hours before the tour. Nothing has been changed.")  # fmt: skip
            return "done"
        days = [d for d in rd.dates(text, self.today)
                if d > self.today and d.isoformat() != v["day"]]  # fmt: skip
        if not days:
            return self.ask("new_date", f"Which day would you like to move the {v['tour_name']} "
                            "to?", out)  # fmt: skip
        day = days[-1].isoformat()
        group = len(v["participants"])
        slots, _ = await self.call("find_slots", tour=v["tour"], day=day)
        running = [x for x in slots or [] if x["status"] == "running" and x["hours_to_start"] > 0]
        room = [x for x in running if x["places_left"] >= group]
        if not room:
            why = "isn't running" if not running else f"has no room for {group}"
            return self.ask(
                "new_date",
                f"I'm sorry — the {v['tour_name']} {why} on "
                f"{rd.say_day(day)}. Which other day would suit you?",
                out,
            )
        slot = self._pick_time(req, text, room)
        if slot is None:
            times = " or ".join(x["start"] for x in room)
            return self.ask("time", f"On {rd.say_day(day)} there's the {times} — which time "
                            "would you like?", out)  # fmt: skip
        fee = self.move_fee(v)
        if self.free_only(req, fee, "Moving the booking", out):
            return "done"
        if weather:
            charge = ("As we cancelled your tour for weather, the rebooking is free and doesn't "
                      "use your one free move.")  # fmt: skip
        elif fee:
            charge = (f"You've already used the booking's free move, so there's a move fee of "
                      f"{rd.pounds(fee)}, taken from the card that paid.")  # fmt: skip
        else:
            charge = ("This is the booking's one free move, so there's no charge; any later "
                      f"move costs {rd.pounds(_seed.MOVE_FEE_PENCE)}.")  # fmt: skip
        return self.propose(
            req, out, f"To move booking {v['booking_ref']} ({group} "
            f"{'people' if group > 1 else 'person'}) from {self.say_slot(v)} to "
            f"{rd.say_day(day)} at {slot['start']}. {charge} Shall I move it?",
            [("move_booking", {"booking_ref": v["booking_ref"], "slot_id": slot["slot_id"],
                               "fee_pence": fee})],
        )  # fmt: skip

    def _pick_time(self, req: dict[str, Any], text: str,
                   room: list[dict[str, Any]]) -> dict[str, Any] | None:  # fmt: skip
        said = self.answer_to(req, "time")
        where = said if said is not None else text
        when = rd.clock_time(where)
        if when is not None:
            hit = [x for x in room if x["start"] == when]
            if hit:
                return hit[0]
        half = rd.part_of_day(where)
        if half:
            hit = [x for x in room if (x["start"] < "12:00") == (half == "am")]
            if len(hit) == 1:
                return hit[0]
        if len(room) == 1 and (said is None or when is None):
            return room[0]
        return None

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        refund, why = self.refund_for(v)
        paid = rd.pounds(v["paid_pence"])
        back = (f"{rd.pounds(refund)} of the {paid} paid is refunded to the card that paid"
                if refund else f"nothing of the {paid} paid is refunded")  # fmt: skip
        return self.propose(
            req, out, f"To cancel booking {v['booking_ref']}, {self.say_slot(v)}: {why} — "
            f"{back}. Shall I cancel it?",
            [("cancel_booking", {"booking_ref": v["booking_ref"], "refund_pence": refund})],
        )  # fmt: skip

    # -- kayaks and extras -----------------------------------------------------------------
    async def step_kayak(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        people = self.who(v, text)
        if people is None:
            return self.ask("participant", "Which participant is the kayak change for?", out)
        kayak = "tandem" if re.search(r"\btandem\b", text, re.I) and not re.search(
            r"\bsingle\b|\bown kayak", text, re.I) else "single"  # fmt: skip
        p = people[0]
        if p["kayak"] == kayak:
            out.append(f"{p['name']} is already in a {kayak} kayak — nothing to change.")
            return "done"
        if kayak == "single" and p["age"] < _seed.TANDEM_UNDER:
            out.append(f"I'm sorry — {p['name']} is {p['age']}, and under-16s paddle only in a "
                       "tandem with an adult from the group, so I can't book a single kayak. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        change = _seed.SINGLE_PENCE if kayak == "single" else -_seed.SINGLE_PENCE
        price = (f"a single kayak is {rd.pounds(_seed.SINGLE_PENCE)} more than a tandem seat, "
                 "added to the booking" if change > 0 else
                 f"{rd.pounds(_seed.SINGLE_PENCE)} comes off the booking")  # fmt: skip
        return self.propose(
            req, out, f"To put {p['name']} in a {kayak} kayak on {self.say_slot(v)}: {price}. "
            "Shall I change it?",
            [("set_kayak", {"booking_ref": v["booking_ref"], "participant_id": p["participant_id"],
                            "kayak": kayak, "price_change_pence": change})],
        )  # fmt: skip

    async def step_wetsuit(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        people = self.who(v, self.text(req))
        if people is None:
            names = ", ".join(p["name"] for p in v["participants"])
            return self.ask("participant", f"Who are the wetsuits for? On the booking: {names}.",
                            out)  # fmt: skip
        need = [p for p in people if not p["wetsuit"]]
        if not need:
            out.append("Everyone you named already has a wetsuit booked — nothing to add.")
            return "done"
        price = _seed.WETSUIT_PENCE * len(need)
        names = " and ".join(p["name"] for p in need)
        return self.propose(
            req, out, f"To add wetsuit hire for {names} on {self.say_slot(v)}: "
            f"{rd.pounds(_seed.WETSUIT_PENCE)} each, {rd.pounds(price)} in all, added to the "
            "booking. Shall I add it?",
            [("add_extra", {"booking_ref": v["booking_ref"], "kind": "wetsuit",
                            "participant_id": p["participant_id"],
                            "price_pence": _seed.WETSUIT_PENCE}) for p in need],
        )  # fmt: skip

    async def step_photos(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["photos"]:
            out.append("The photo package is already on your booking — nothing to add.")
            return "done"
        return self.propose(
            req, out, f"To add the photo package to booking {v['booking_ref']} ({self.say_slot(v)}"
            f"): {rd.pounds(_seed.PHOTOS_PENCE)} for the booking, added to what's due; the "
            "guide's photos are emailed after the tour. Shall I add it?",
            [("add_extra", {"booking_ref": v["booking_ref"], "kind": "photos",
                            "price_pence": _seed.PHOTOS_PENCE})],
        )  # fmt: skip

    # -- participants' details and contacts ------------------------------------------------
    async def step_medical(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        people = self.who(v, text)
        if people is None or len(people) > 1 and not self.named(v, text):
            return self.ask("participant", "Which participant is the medical note for?", out)
        p = people[0]
        condition = next((c for c, pat in rd.CONDITION_WORDS if re.search(pat, text, re.I)),
                         "other")  # fmt: skip
        note = re.sub(r"\s+", " ", self.text(req)).strip()
        return self.propose(
            req, out, f"To add a medical note for {p['name']} ({condition}): \"{note}\". Our "
            "guides read it before the tour. Shall I save it?",
            [("update_participant", {"booking_ref": v["booking_ref"],
                                     "participant_id": p["participant_id"],
                                     "medical_condition": condition, "medical_note": note})],
        )  # fmt: skip

    async def step_name(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        old = self.named(v, text)
        on = {p["name"].lower() for p in v["participants"]}
        new = [n for n in rd.capitalised_names(text) if n.lower() not in on]
        new = [n for n in new if not any(n.lower() == p["name"].split()[0].lower() for p in old)]
        if not old:
            return self.ask("participant", "Whose name needs correcting? Please give the name "
                            "as it is on the booking.", out)  # fmt: skip
        if not new:
            return self.ask("new_name", f"What should {old[0]['name']}'s name be?", out)
        p, name = old[0], new[-1]
        if " " not in name:
            parts = p["name"].split()
            first_changed = any(name[:1] == x[:1] and name != x for x in parts[:1])
            name = f"{name} {parts[-1]}" if first_changed else f"{parts[0]} {name}"
        return self.propose(
            req, out, f"To change the name on booking {v['booking_ref']} from {p['name']} to "
            f"{name}. Shall I change it?",
            [("update_participant", {"booking_ref": v["booking_ref"],
                                     "participant_id": p["participant_id"], "name": name})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, mails = rd.phones(text), rd.emails(text)
        if not numbers and not mails:
            if re.search(r"\bemail|\be-mail", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"booking_ref": v["booking_ref"]}
        parts = []
        if numbers:
            args["phone"] = numbers[-1]
            parts.append(f"the phone number to {numbers[-1]}")
        if mails:
            args["email"] = mails[-1]
            parts.append(f"the email address to {mails[-1]}")
        return self.propose(
            req, out, f"To change {' and '.join(parts)} on booking {v['booking_ref']}. Shall I "
            "update it?", [("update_contact", args)],
        )  # fmt: skip

    # -- vouchers and look-ups -------------------------------------------------------------
    async def step_voucher(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        codes = rd.vouchers(self.text(req))
        if not codes:
            return self.ask("voucher_code", "What's the voucher code? It starts GV.", out)
        found, error = await self.call("check_voucher", code=codes[-1])
        if error:
            out.append(f"I'm sorry — I can't find voucher {codes[-1]}. Nothing has been changed.")
            return "done"
        if found["expired"]:
            out.append(f"I'm sorry — voucher {found['code']} expired on "
                       f"{rd.say_day(found['expires'])} {found['expires'][:4]}, so it can't be "
                       "used. Nothing has been changed.")  # fmt: skip
            return "done"
        due = int(v["balance_pence"])
        if due <= 0 or found["balance_pence"] <= 0:
            what = "nothing is due on the booking" if due <= 0 else "the voucher has nothing left"
            out.append(f"There's nothing to put the voucher towards: {what}. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        amount = self.voucher_amount(found["balance_pence"], due)
        left = found["balance_pence"] - amount
        return self.propose(
            req, out, f"Voucher {found['code']} has {found['balance']} on it and "
            f"{rd.pounds(due)} is still due on booking {v['booking_ref']}. To use "
            f"{rd.pounds(amount)} of it: {rd.pounds(due - amount)} would then be due, and "
            f"{rd.pounds(left)} stays on the voucher. Shall I apply it?",
            [("redeem_voucher", {"booking_ref": v["booking_ref"], "code": found["code"],
                                 "amount_pence": amount})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        people = len(v["participants"])
        extras = []
        suits = sum(p["wetsuit"] for p in v["participants"])
        if suits:
            extras.append(f"{suits} wetsuit{'s' if suits > 1 else ''}")
        if v["photos"]:
            extras.append("the photo package")
        with_extras = f" with {' and '.join(extras)}" if extras else ""
        status = (" That tour was cancelled for weather: you can rebook free or have a full "
                  "refund." if v["slot_status"] == "weather_cancelled" else "")  # fmt: skip
        out.append(
            f"Booking {v['booking_ref']} is for {self.say_slot(v)}, {people} "
            f"{'people' if people > 1 else 'person'}{with_extras}. Please meet at "
            f"{v['meet_point']} at {v['meet_at']}, 30 minutes before the start. The total is "
            f"{rd.pounds(v['total_pence'])}, {rd.pounds(v['paid_pence'])} is paid, so "
            f"{rd.pounds(v['balance_pence'])} is still to pay before the tour.{status}"
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, results: list[dict[str, Any]]) -> str:
        """What the system returned, in the customer's words."""
        r = results[-1]
        if intent == "add_person":
            return (
                f"Done — {r['name']} is added in a {r['kayak']} kayak ({r['price']}); the "
                f"booking's total is now {r['total']}, with {r['balance_due']} due."
            )
        if intent in {"move", "weather"}:
            fee = f"; {r['fee']} move fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — booking {r['booking_ref']} is now on {rd.say_day(r['day'])} at "
                    f"{r['start']}{fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — booking {r['booking_ref']} is cancelled; {r['refunded']} refunded "
                    "to the card that paid.")  # fmt: skip
        if intent == "kayak":
            return f"Done — {r['name']} is in a {r['kayak']} kayak; the total is now {r['total']}."
        if intent in {"wetsuit", "photos"}:
            what = ("wetsuit hire for " + " and ".join(x["participant"] for x in results)
                    if intent == "wetsuit" else "the photo package")  # fmt: skip
            return f"Done — {what} added; the booking's total is now {r['total']}."
        if intent == "medical":
            return (f"Done — the medical note for {r['name']} is saved ({r['medical_condition']})"
                    "; the guides will see it before the tour.")  # fmt: skip
        if intent == "name":
            return f"Done — the name on the booking is now {r['name']}."
        if intent == "contact":
            return f"Done — the booking's contact details are {r['phone']} and {r['email']}."
        return (f"Done — {r['used']} of voucher {r['code']} is on the booking, {r['balance_due']} "
                f"is still due, and {r['voucher_left']} stays on the voucher.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str], done: list[Any]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and what (if anything) did go through."""
        part = " The rest went through." if done else " Nothing has been changed."
        out.append(f"I'm sorry — the booking system refused that: {error}.{part}")
