"""The desk's flows: book, move, cancel, add-ons, reminders, certificates, look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.chimney import _read as rd
from benchmarks.domains.chimney import _seed

OFFICE = "01904 555 210"
REMINDER_OFF = re.compile(
    r"\b(?:stop|cancel|no longer|unsubscribe|take me off|leave|opt out|turn off|don'?t want)\b",
    re.I,
)


def hours_of(slot: str) -> str:
    return _seed.SLOTS[slot][1].replace("-", "–")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def flue_name(f: dict[str, Any]) -> str:
    return f"{_seed.FLUE_NAMES[f['kind']]} in the {f['room']}"


class Flows:
    """The flows; `CorrectChimneyAgent` supplies the state, the calls and the questions."""

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

    def named_flues(self, v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        """The flues meant: all of them ("both"), by type, by room, or the only one."""
        flues = v["flues"]
        if rd.ALL_FLUES.search(text) and len(flues) > 1:
            return list(flues)
        kinds = rd.flue_kinds(text)
        low = text.lower()
        picked = [f for f in flues if f["kind"] in kinds or f["room"] in low
                  or f["flue_id"] in text.upper()]  # fmt: skip
        if not picked and len(flues) == 1:
            picked = list(flues)
        return picked

    def pick_visit(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The visit meant: by booking number, by its day, or the only one booked."""
        visits = v["visits"]
        ids = rd.bookings(text)
        named = [x for x in visits if x["booking_id"] in ids]
        if not named and not ids:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [x for x in visits if x["day"] in days]
        if not named and not ids and len(visits) == 1:
            named = visits
        return named[0] if named else None

    def no_visit(self, v: dict[str, Any], req: dict[str, Any], out: list[str]) -> str:
        if len(v["visits"]) > 1 and not rd.bookings(self.text(req)):
            listed = "; ".join(self.say_visit(x) for x in v["visits"])
            return self.ask("booking_id", f"Which visit do you mean — {listed}?", out)
        out.append("I can't find an upcoming sweep on your account that matches that, so "
                   "nothing has been changed.")  # fmt: skip
        return "done"

    @staticmethod
    def say_visit(x: dict[str, Any]) -> str:
        return f"your sweep {x['booking_id']} on {rd.say_day(x['day'])} ({x['slot']})"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a charge ends the request, nothing changed."""
        # the condition may be its own sentence of the message ("If there's a fee, leave it.")
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    @staticmethod
    def offered(req: dict[str, Any]) -> str | None:
        """The slot the desk offered instead, when the customer's last answer took it."""
        if req.get("offer") and rd.answer(req["chunks"][-1]) == "yes":
            return str(req["offer"])
        return None

    async def diary(self, v: dict[str, Any], day: str) -> list[dict[str, Any]]:
        """Sweeps free per slot in the customer's area, for the day and the six after it."""
        result, error = await self.call("find_slots", customer_id=v["customer_id"], day=day,
                                        days=7)  # fmt: skip
        if error:
            return [{"day": day, "closed": error, "morning": 0, "afternoon": 0}]
        return list(result["days"])

    def no_slot(self, req: dict[str, Any], diary: list[dict[str, Any]], slot: str | None,
                out: list[str]) -> str:  # fmt: skip
        """Nothing free when asked: offer the other slot, or say which days have one free."""
        first = diary[0]
        day = rd.say_day(first["day"])
        if first["closed"]:
            why = f"I'm sorry — there are no visits on {day}: {first['closed']}."
        else:
            other = "afternoon" if slot == "morning" else "morning"
            if slot and first[other]:
                req["offer"] = other
                return self.ask("slot", f"I'm sorry — the {slot} of {day} is taken in your "
                                f"area, but the {other} ({hours_of(other)}) is free. Would you "
                                f"like the {other} instead?", out)  # fmt: skip
            why = f"I'm sorry — there's no sweep free in your area on {day}."
        free = [d for d in diary[1:] if not d["closed"] and (d["morning"] or d["afternoon"])]
        names = [f"{rd.say_day(d['day'])} ({' or '.join(s for s in _seed.SLOTS if d[s])})"
                 for d in free[:3]]  # fmt: skip
        then = (
            f" The next days with a sweep free are {', '.join(names)} — just tell me if "
            "one of those suits."
            if names
            else f" Please call the office on {OFFICE}."
        )
        out.append(f"{why} Nothing has been changed.{then}")
        self.s["retry"] = {"intent": req["intent"], "chunks": list(req["chunks"])}
        return "done"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def flue_prices(self, flues: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
        """The dearest flue at its full price, each further flue at the reduced price."""
        ranked = sorted(flues, key=lambda f: -_seed.FLUE_PENCE[f["kind"]])
        return [(f, _seed.FLUE_PENCE[f["kind"]] if i == 0 else _seed.FURTHER_FLUE_PENCE)
                for i, f in enumerate(ranked)]  # fmt: skip

    def travel_charge(self, v: dict[str, Any]) -> int:
        return _seed.travel_for(v["postcode"])

    def hours_before(self, x: dict[str, Any]) -> float:
        """Hours from now to the start of the visit's slot."""
        return (_seed.slot_start(x["day"], x["slot"]) - self.now).total_seconds() / 3600

    def change_fee(self, x: dict[str, Any]) -> int:
        """A move or cancellation less than 24 hours before the visit starts: a call-out fee."""
        return _seed.CALL_OUT_PENCE if self.hours_before(x) < _seed.FREE_CHANGE_HOURS else 0

    def cancel_fee(self, x: dict[str, Any]) -> int:
        return self.change_fee(x)

    def certificate_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    async def other_booking(self, v: dict[str, Any], booking_id: str, out: list[str]) -> str:
        """A booking that isn't the caller's: nothing about it is shared."""
        out.append(f"I'm sorry — {booking_id} isn't a booking on your account, so I can't share "
                   "anything about it. Whoever made it can contact us directly.")  # fmt: skip
        return "done"

    # -- booking a sweep -------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        flues = self.named_flues(v, text)
        if not flues:
            listed = " or ".join(flue_name(f) for f in v["flues"])
            return self.ask("flues", f"Which would you like swept — your {listed}?", out)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("day", "Which day would you like? We sweep Monday to Saturday, "
                            "mornings 08:00–12:00 or afternoons 13:00–17:00.", out)  # fmt: skip
        diary = await self.diary(v, days[-1].isoformat())
        first = diary[0]
        if first["closed"] or not (first["morning"] or first["afternoon"]):
            return self.no_slot(req, diary, None, out)
        said = rd.slots(text, self.today)
        slot = self.offered(req) or (said[-1] if said else None)
        if slot is None:
            return self.ask("slot", f"Would you like the morning (08:00–12:00) or the afternoon "
                            f"(13:00–17:00) on {rd.say_day(first['day'])}?", out)  # fmt: skip
        if not first[slot]:
            return self.no_slot(req, diary, slot, out)
        travel = self.travel_charge(v)
        where = _seed.district(v["postcode"])
        if self.free_only(req, travel, f"A visit to {where}, outside our core area,", out):
            return "done"
        return self.propose_booking(req, v, flues, first["day"], slot, travel, out)

    def addons_for(self, flues: list[dict[str, Any]], text: str,
                   notes: list[str]) -> list[dict[str, Any]]:  # fmt: skip
        """The add-ons asked for with a booking, on the first flue; a guard already fitted is
        left out, with a note."""
        out = []
        for kind in rd.addon_kinds(text):
            flue = flues[0]
            if kind != "cctv" and flue["guard"]:
                notes.append(
                    f"Your {flue_name(flue)} already has a "
                    f"{flue['guard'].replace('_', ' ')} fitted, so I've left that out."
                )
                continue
            out.append({"flue_id": flue["flue_id"], "kind": kind,
                        "price_pence": _seed.ADDON_PENCE[kind]})  # fmt: skip
        return out

    def propose_booking(self, req: dict[str, Any], v: dict[str, Any],
                        flues: list[dict[str, Any]], day: str, slot: str, travel: int,
                        out: list[str]) -> str:  # fmt: skip
        text = self.text(req)
        notes: list[str] = []
        addons = self.addons_for(flues, text, notes)
        prices = self.flue_prices(flues)
        sweep = sum(p for _, p in prices)
        if len(prices) == 1:
            lines = [f"sweeping your {flue_name(flues[0])}: {rd.pounds(sweep)}"]
        else:
            lines = [f"sweeping your {flue_name(prices[0][0])} at {rd.pounds(prices[0][1])}"] + [
                f"your {flue_name(f)} at {rd.pounds(p)} as a further flue" for f, p in prices[1:]
            ]
        by_id = {f["flue_id"]: f for f in flues}
        lines += [f"{_seed.ADDON_NAMES[a['kind']]} on the "
                  f"{_seed.FLUE_NAMES[by_id[a['flue_id']]['kind']]}: {rd.pounds(a['price_pence'])}"
                  for a in addons]  # fmt: skip
        if travel:
            lines.append(f"a travel charge of {rd.pounds(travel)}, as "
                         f"{_seed.district(v['postcode'])} is outside our core area")  # fmt: skip
        total = sweep + travel + sum(a["price_pence"] for a in addons)
        cap = rd.budget(" ".join([text, *self.s["said"]]))
        if cap is not None and total > cap:
            out.append(f"That visit would come to {rd.pounds(total)} ({'; '.join(lines)}), "
                       f"more than the {rd.pounds(cap)} you mentioned, so I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        camera = (" The CCTV survey needs our camera to be free that day; the system checks it."
                  if any(a["kind"] == "cctv" for a in addons) else "")  # fmt: skip
        return self.propose(
            req, out, f"{' '.join(notes)} To book a sweep on {rd.say_day(day)}, in the {slot} "
            f"({hours_of(slot)}): {'; '.join(lines)} — {rd.pounds(total)} in all, paid to the "
            f"sweep on the day. Your sweep certificate is emailed to you afterwards.{camera} "
            "Shall I book it?",
            [("book_sweep", {"customer_id": v["customer_id"], "day": day, "slot": slot,
                             "flue_ids": sorted(f["flue_id"] for f in flues),
                             "sweep_pence": sweep, "travel_pence": travel, "addons": addons})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(v, req, out)
        old = date.fromisoformat(x["day"])
        new = [d for d in rd.dates(text, self.today) if d > self.today and d != old]
        said = rd.slots(text, self.today, old_day=old)
        slot = self.offered(req) or (said[-1] if said else x["slot"])
        day = new[-1].isoformat() if new else x["day"]
        if (day, slot) == (x["day"], x["slot"]):
            ask = f"Which day would you like instead of {rd.say_day(x['day'])}?"
            return self.ask("new_day", f"{ask} We sweep Monday to Saturday.", out)
        diary = await self.diary(v, day)
        first = diary[0]
        if first["closed"] or not (first["morning"] or first["afternoon"]):
            return self.no_slot(req, diary, None, out)
        if not first[slot]:
            return self.no_slot(req, diary, slot, out)
        fee = self.change_fee(x)
        if self.free_only(req, fee, "Moving it less than 24 hours before the visit", out):
            return "done"
        charge = (
            f"It's less than 24 hours before the visit, so there's a call-out fee of "
            f"{rd.pounds(fee)}, charged to your card ending {v['card_last4']}."
            if fee
            else "There's no charge, as it's 24 hours or more before the visit."
        )
        return self.propose(
            req, out, f"To move {self.say_visit(x)} to {rd.say_day(day)}, in the {slot} "
            f"({hours_of(slot)}); the price stays {rd.pounds(x['total_pence'])}. {charge} "
            "Shall I move it?",
            [("move_visit", {"customer_id": v["customer_id"], "booking_id": x["booking_id"],
                             "day": day, "slot": slot, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(v, self.text(req))
        if x is None:
            return self.no_visit(v, req, out)
        fee = self.cancel_fee(x)
        if self.free_only(req, fee, "Cancelling less than 24 hours before the visit", out):
            return "done"
        what = (
            f"it's less than 24 hours before the visit, so there's a call-out fee of "
            f"{rd.pounds(fee)}, charged to your card ending {v['card_last4']}"
            if fee
            else "there's no charge, as it's 24 hours or more before the visit"
        )
        return self.propose(
            req, out, f"To cancel {self.say_visit(x)}: {what}. Shall I cancel it?",
            [("cancel_visit", {"customer_id": v["customer_id"], "booking_id": x["booking_id"],
                               "fee_pence": fee})],
        )  # fmt: skip

    # -- add-ons, reminders, certificates --------------------------------------------------
    async def step_addon(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(v, req, out)
        kinds = rd.addon_kinds(text)
        if not kinds:
            return self.ask("addon", "Would you like a CCTV flue survey (£95.00), a bird guard "
                            "(£45.00) or a cowl (£85.00)?", out)  # fmt: skip
        kind = kinds[-1]
        flue = next(iter(self.named_flues({"flues": x["flues"]}, text)), None) or x["flues"][0]
        flue = next(f for f in v["flues"] if f["flue_id"] == flue["flue_id"])
        if any(a["kind"] == kind and a["flue_id"] == flue["flue_id"] for a in x["addons"]):
            out.append(f"{cap(_seed.ADDON_NAMES[kind])} is already on "
                       f"{self.say_visit(x)} — nothing to add.")  # fmt: skip
            return "done"
        if kind != "cctv" and flue["guard"]:
            out.append(f"Your {flue_name(flue)} already has a {flue['guard'].replace('_', ' ')} "
                       "fitted, so I haven't added anything.")  # fmt: skip
            return "done"
        price = _seed.ADDON_PENCE[kind]
        camera = (" It needs our CCTV camera to be free that day; the system checks it."
                  if kind == "cctv" else "")  # fmt: skip
        return self.propose(
            req, out, f"To add {_seed.ADDON_NAMES[kind]} for your {flue_name(flue)} at "
            f"{self.say_visit(x)}: {rd.pounds(price)}, paid to the sweep on the day.{camera} "
            "Shall I add it?",
            [("add_addon", {"customer_id": v["customer_id"], "booking_id": x["booking_id"],
                            "flue_id": flue["flue_id"], "kind": kind, "price_pence": price})],
        )  # fmt: skip

    def reminder_date(self, v: dict[str, Any]) -> str | None:
        """11 months after the last sweep (tomorrow at the earliest), or None: never swept."""
        if not v["certificates"]:
            return None
        due = _seed.add_months(v["certificates"][0]["swept_on"], _seed.REMINDER_MONTHS)
        return max(due, date.fromordinal(self.today.toordinal() + 1).isoformat())

    async def step_reminder(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        call = ("set_reminders", {"customer_id": v["customer_id"], "enabled": False})
        if REMINDER_OFF.search(self.text(req)):
            if not v["reminder_plan"]:
                out.append("You're not on our reminder plan, so there's nothing to stop.")
                return "done"
            return self.propose(req, out, "To take you off our annual reminder plan: no more "
                                "reminder emails. Shall I do that?", [call])  # fmt: skip
        if v["reminder_plan"]:
            out.append("You're already on our annual reminder plan — reminders go to "
                       f"{v['email']} 11 months after each sweep.")  # fmt: skip
            return "done"
        due = self.reminder_date(v)
        first = (f"the first on {rd.say_day(due, year=True)}, 11 months after your last sweep"
                 if due else "the first 11 months after your first sweep with us")  # fmt: skip
        return self.propose(
            req, out, "To put you on our annual reminder plan: it's free, and we email a "
            f"reminder to {v['email']} 11 months after each sweep — {first}. Shall I sign "
            "you up?", [("set_reminders", {"customer_id": v["customer_id"], "enabled": True})],
        )  # fmt: skip

    async def step_certificate(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        certs = v["certificates"]
        ids = rd.certificates(text)
        flues = {f["flue_id"] for f in self.named_flues(v, text)} if len(v["flues"]) > 1 else set()
        cert = (
            next((c for c in certs if c["cert_id"] in ids), None)
            or next((c for c in certs if c["flue_id"] in flues), None)
            or next(iter(certs), None)
        )
        if cert is None:
            out.append("We don't have a sweep certificate on record for you yet — one is "
                       "emailed after each sweep.")  # fmt: skip
            return "done"
        email = self.certificate_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"For your security, certificate copies only go to the email on your "
                f"account, not to {said[0]} — you're welcome to forward it on. " if said
                else "")  # fmt: skip
        flue = next(f for f in v["flues"] if f["flue_id"] == cert["flue_id"])
        return self.propose(
            req, out, f"{note}To email a copy of certificate {cert['cert_id']} (your "
            f"{flue_name(flue)}, swept on {rd.say_day(cert['swept_on'], year=True)}) to {email}. "
            "Shall I send it?",
            [("send_certificate_copy", {"customer_id": v["customer_id"],
                                        "certificate_id": cert["cert_id"], "email": email})],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    def describe(self, x: dict[str, Any], *, own: bool = True) -> str:
        whose = "your" if own else "the"
        flues = " and ".join(f"{whose} {flue_name(f)}" for f in x["flues"])
        parts = [f"sweeping {flues}: {rd.pounds(x['sweep_pence'])}"]
        parts += [f"{_seed.ADDON_NAMES[a['kind']]}: {rd.pounds(a['price_pence'])}"
                  for a in x["addons"]]  # fmt: skip
        if x["travel_pence"]:
            parts.append(f"travel charge: {rd.pounds(x['travel_pence'])}")
        start, end = _seed.SLOTS[x["slot"]][1].split("-")
        return (f"{cap(whose)} sweep {x['booking_id']} is on {rd.say_day(x['day'])}, in "
                f"the {x['slot']}: the sweep arrives between {start} and {end}. "
                f"{cap('; '.join(parts))}. That's {rd.pounds(x['total_pence'])} in all, "
                "paid to the sweep on the day.")  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.bookings(text)
        if ids and not any(x["booking_id"] == ids[0] for x in v["visits"]):
            return await self.other_booking(v, ids[0], out)
        x = self.pick_visit(v, text)
        if x is None and not v["visits"]:
            out.append("You don't have a sweep booked at the moment.")
            return "done"
        for visit in [x] if x else v["visits"]:
            out.append(self.describe(visit))
        return "done"

    async def step_history(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        certs = v["certificates"]
        if not certs:
            out.append("We have no sweep on record for you yet.")
            return "done"
        for f in v["flues"]:
            last = next((c for c in certs if c["flue_id"] == f["flue_id"]), None)
            if last:
                out.append(f"Your {flue_name(f)} was last swept on "
                           f"{rd.say_day(last['swept_on'], year=True)} (certificate "
                           f"{last['cert_id']}).")  # fmt: skip
            else:
                out.append(f"We have no sweep of your {flue_name(f)} on record.")
        if v["visits"]:
            out.append(f"Your next sweep is booked for {rd.say_day(v['visits'][0]['day'])}, "
                       f"{v['visits'][0]['slot']}.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        fee = r.get("fee")
        charged = (f"; the {fee} call-out fee has been charged to your card ending "
                   f"{r['card_last4']}" if fee and fee != "£0.00" else "")  # fmt: skip
        if intent == "book":
            return (f"Done — your sweep is booked: {r['booking_id']}, {rd.say_day(r['day'])}, "
                    f"{r['slot']} ({hours_of(r['slot'])}), {r['total']} in all, paid on the "
                    f"day. The certificate will be emailed to {r['certificate_to']} after the "
                    "sweep.")  # fmt: skip
        if intent == "move":
            return (f"Done — {r['booking_id']} is now on {rd.say_day(r['day'])}, in the "
                    f"{r['slot']} ({hours_of(r['slot'])}){charged}.")  # fmt: skip
        if intent == "cancel":
            return f"Done — {r['booking_id']} is cancelled{charged or '; there is no charge'}."
        if intent == "addon":
            return (f"Done — {_seed.ADDON_NAMES[r['kind']]} is added to {r['booking_id']} on "
                    f"{rd.say_day(r['day'])} ({r['price']}).")  # fmt: skip
        if intent == "reminder":
            if not r["reminder_plan"]:
                return "Done — you're off the reminder plan; no more reminder emails."
            when = (f"on {rd.say_day(r['next_reminder'], year=True)}" if r["next_reminder"]
                    else "11 months after your first sweep")  # fmt: skip
            return (f"Done — you're on the annual reminder plan; the first reminder goes to "
                    f"{r['email']} {when}.")  # fmt: skip
        return (f"Done — a copy of certificate {r['certificate_id']} has been sent to "
                f"{r['sent_to']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
