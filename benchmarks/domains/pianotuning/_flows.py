"""The desk's flows: book, move, cancel, repairs, plans, invoice copies and look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.pianotuning import _read as rd
from benchmarks.domains.pianotuning import _seed

VISIT_WORDS = re.compile(r"\b(?:visit|coming|booked|booking|appointment|tuner|on the day)\b", re.I)


def span(slot: str) -> str:
    return f"{slot}–{_seed.window_end(slot)}"


def slot_for(time: str) -> str | None:
    """The window a time of day falls in ("11:00" is in the 10:30 window), or None."""
    return next((w for w in _seed.WINDOWS if w <= time < _seed.window_end(w)), None)


def piano_name(p: dict[str, Any]) -> str:
    return f"{p['make']} {p['kind']}" if p["kind"] not in p["make"].lower() else p["make"]


class Flows:
    """The flows; `CorrectPianoTuningAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_customer", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def pick_pianos(v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        """The pianos meant: both/all, named by kind or make, or the only one on record."""
        tunable = [p for p in v["pianos"] if p["kind"] != "digital"]
        if re.search(r"\bboth\b|\b(?:two|all|each of) (?:my |the |of my )?pianos\b", text, re.I):
            return tunable
        named = [p for p in v["pianos"]
                 if re.search(rf"\b{p['kind']}\b", text, re.I)
                 or re.search(rf"\b{re.escape(p['make'].split()[0])}\b", text, re.I)]  # fmt: skip
        if not named and len(v["pianos"]) == 1:
            named = list(v["pianos"])
        return named

    def pick_visit(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The visit meant: by number, by a piano on it, by its day, or the only one booked."""
        ids = rd.visits(text)
        found = [x for x in v["visits"] if x["visit_id"] in ids]
        if not found:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            found = [x for x in v["visits"] if x["day"] in days]
        if not found and len(v["visits"]) > 1:
            pids = {p["piano_id"] for p in self.pick_pianos(v, text)}
            found = [x for x in v["visits"] if pids & set(x["piano_ids"].split(","))]
        if not found and len(v["visits"]) == 1:
            found = v["visits"]
        return found[0] if found else None

    def no_visit(self, out: list[str]) -> str:
        out.append("I can't find a booked visit that matches that on your record.")
        return "done"

    def piano_names(self, v: dict[str, Any], ids: str) -> str:
        return " and ".join(piano_name(p) for p in v["pianos"] if p["piano_id"] in ids.split(","))

    def say_visit(self, v: dict[str, Any], x: dict[str, Any]) -> str:
        return (f"visit {x['visit_id']} to tune your {self.piano_names(v, x['piano_ids'])} "
                f"({rd.say_day(x['day'])}, {span(x['slot'])})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def day_problem(self, v: dict[str, Any], day: date) -> str | None:
        """Why no tuner can come on a day (closed, or not one the area is covered), or None."""
        if day in _seed.CLOSED:
            return f"I'm sorry — we're closed on {rd.say_day(day.isoformat())}."
        cover = _seed.COVER[v["area"]]
        if day.weekday() not in cover:
            names = " and ".join(rd.WEEKDAYS[d].capitalize() + "s" for d in cover)
            return (f"I'm sorry — our tuner covers the {_seed.AREA_NAMES[v['area']]} area "
                    f"({v['area']}) on {names}, so we can't come on "
                    f"{rd.say_day(day.isoformat())}.")  # fmt: skip
        return None

    async def pick_day_and_slot(
        self, req: dict[str, Any], v: dict[str, Any], days: list[date], keep: str | None,
        out: list[str],
    ) -> tuple[str, str] | str:  # fmt: skip
        """A covered day and a free window, or the question to ask ('wait') / 'done'."""
        if not days:
            return self.ask("day", "Which day would suit you?", out)
        day = days[-1]
        problem = self.day_problem(v, day)
        if problem:
            return self.ask("day", f"{problem} Which other day would suit you?", out)
        found, error = await self.call("find_windows", customer_id=v["customer_id"],
                                       day=day.isoformat())  # fmt: skip
        if error:
            return self.ask("day", f"I'm sorry — {error}. Which other day would suit you?", out)
        free = found["free"]
        if not free:
            return self.ask("day", f"I'm sorry — {rd.say_day(day.isoformat())} is fully "
                            "booked. Which other day would suit you?", out)  # fmt: skip
        said = rd.clock_time(self.text(req))
        slot = slot_for(said) if said else keep
        listing = ", ".join(span(w) for w in free)
        if said and slot is None:
            return self.ask("slot", f"{said} isn't one of our visit windows. On "
                            f"{rd.say_day(day.isoformat())} these are free: {listing}. "
                            "Which would you like?", out)  # fmt: skip
        if slot is None:
            return self.ask("slot", f"On {rd.say_day(day.isoformat())} these 90-minute windows "
                            f"are free: {listing}. Which would you like?", out)  # fmt: skip
        if slot not in free:
            return self.ask("slot", f"I'm sorry — the {span(slot)} window on "
                            f"{rd.say_day(day.isoformat())} is already taken. These are free: "
                            f"{listing}. Would one of those suit?", out)  # fmt: skip
        return day.isoformat(), slot

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def pitch_raise(self, p: dict[str, Any], day: str) -> int:
        """A piano not tuned for two years or more by the visit day needs a pitch raise."""
        if not p["last_tuned"]:
            return 0
        gap = (date.fromisoformat(day) - date.fromisoformat(p["last_tuned"])).days
        return _seed.PITCH_RAISE_PENCE if gap >= _seed.PITCH_RAISE_DAYS else 0

    def second_piano_off(self, v: dict[str, Any], pianos: list[dict[str, Any]]) -> int:
        """25% off the cheaper piano's tuning when two are tuned at the same visit."""
        if len(pianos) < 2:
            return 0
        cheaper = min(_seed.TUNING[p["kind"]] for p in pianos)
        return cheaper * _seed.SECOND_PIANO_PERCENT // 100

    def hours_before(self, x: dict[str, Any]) -> float:
        """Hours from now to the start of the visit's window."""
        start = datetime.fromisoformat(f"{x['day']}T{x['slot']}").replace(tzinfo=_seed.UK)
        return (start - self.now).total_seconds() / 3600

    def move_fee(self, x: dict[str, Any]) -> int:
        return _seed.CALLOUT_PENCE if self.hours_before(x) < _seed.FREE_HOURS else 0

    def cancel_fee(self, x: dict[str, Any]) -> int:
        return _seed.CALLOUT_PENCE if self.hours_before(x) < _seed.FREE_HOURS else 0

    def invoice_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    async def other_visit(self, v: dict[str, Any], ref: str, out: list[str]) -> None:
        """A visit number not on the caller's record: its details are not theirs to hear."""
        out.append(f"I'm sorry — {ref} isn't a booking on your record, and I can only share a "
                   "booking's details with its own customer. They're welcome to contact us "
                   "themselves.")  # fmt: skip

    # -- booking a tuning ------------------------------------------------------------------
    def quote_tuning(self, v: dict[str, Any], pianos: list[dict[str, Any]],
                     day: str) -> tuple[int, str]:  # fmt: skip
        """The price of tuning these pianos at one visit, and how it is made up."""
        pianos = sorted(pianos, key=lambda p: -_seed.TUNING[p["kind"]])
        off = self.second_piano_off(v, pianos)
        parts, total = [], 0
        for i, p in enumerate(pianos):
            fee = _seed.TUNING[p["kind"]]
            line = f"your {piano_name(p)} {rd.pounds(fee)}"
            if off and (i == len(pianos) - 1 or len(pianos) == 1):
                fee -= off
                line += f" less {rd.pounds(off)} (25% off as a second piano) = {rd.pounds(fee)}"
            raise_ = self.pitch_raise(p, day)
            if raise_:
                fee += raise_
                line += (f" plus a {rd.pounds(raise_)} pitch raise (last tuned "
                         f"{rd.say_day(p['last_tuned'])} {p['last_tuned'][:4]}, two years or "
                         "more before the visit)")  # fmt: skip
            parts.append(line)
            total += fee
        return total, "; ".join(parts)

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        pianos = self.pick_pianos(v, text)
        if any(p["kind"] == "digital" for p in pianos) or (
            v["pianos"] and all(p["kind"] == "digital" for p in v["pianos"])
        ):
            out.append("Digital pianos don't go out of tune, so we don't tune them — I haven't "
                       "booked anything. If it has a fault, our repair team can "
                       "advise.")  # fmt: skip
            return "done"
        if not pianos:
            names = ", ".join(piano_name(p) for p in v["pianos"])
            return self.ask("pianos", f"Which piano would you like tuned ({names})?", out)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        picked = await self.pick_day_and_slot(req, v, days, None, out)
        if isinstance(picked, str):
            return picked
        day, slot = picked
        total, detail = self.quote_tuning(v, pianos, day)
        return self.propose(
            req, out,
            f"To book a tuning visit on {rd.say_day(day)}, {span(slot)}: {detail}. That's "
            f"{rd.pounds(total)} in all, paid to the tuner on the day. Shall I book it?",
            [("book_visit", {"customer_id": v["customer_id"],
                             "piano_ids": [p["piano_id"] for p in pianos], "day": day,
                             "slot": slot, "price_pence": total})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        days = [d for d in days if d.isoformat() != x["day"]]
        picked = await self.pick_day_and_slot(req, v, days, x["slot"], out)
        if isinstance(picked, str):
            return picked
        day, slot = picked
        fee = self.move_fee(x)
        if self.free_only(req, fee, "Moving it less than 48 hours before the visit", out):
            return "done"
        charge = (f"It's less than 48 hours before the visit, so there's a {rd.pounds(fee)} "
                  f"call-out fee, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge, as it's 48 hours or more before the "
                  "visit.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_visit(v, x)} to {rd.say_day(day)}, {span(slot)}, "
            f"same price. {charge} Shall I move it?",
            [("move_visit", {"customer_id": v["customer_id"], "visit_id": x["visit_id"],
                             "day": day, "slot": slot, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(v, self.text(req))
        if x is None:
            return self.no_visit(out)
        fee = self.cancel_fee(x)
        if self.free_only(req, fee, "Cancelling less than 48 hours before the visit", out):
            return "done"
        what = (f"it's less than 48 hours before the visit, so there's a {rd.pounds(fee)} "
                f"call-out fee, taken from your card ending {v['card_last4']}"
                if fee else "there's no charge, as it's 48 hours or more before the "
                "visit")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_visit(v, x)}: {what}. Shall I cancel it?",
            [("cancel_visit", {"customer_id": v["customer_id"], "visit_id": x["visit_id"],
                               "fee_pence": fee})],
        )  # fmt: skip

    # -- repairs and plans -----------------------------------------------------------------
    async def step_repair(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.quotes(text)
        open_ = [q for q in v["quotes"] if q["status"] == "open"]
        q = next((q for q in v["quotes"] if q["quote_id"] in ids), None) or (
            open_[-1] if open_ else None)  # fmt: skip
        if q is None:
            out.append("I can't see a repair quote on your record. Repairs are quoted after a "
                       "tuner has seen the piano: I can book a visit for that.")  # fmt: skip
            return "done"
        deposit = q["price_pence"] * _seed.REPAIR_DEPOSIT_PERCENT // 100
        return self.propose(
            req, out, f"To accept quote {q['quote_id']} ({q['work']}, {rd.pounds(q['price_pence'])}"
            f"): a 30% deposit of {rd.pounds(deposit)} is taken now from your card ending "
            f"{v['card_last4']}, and the rest, {rd.pounds(q['price_pence'] - deposit)}, is paid "
            "when the work is done. Shall I accept it?",
            [("accept_quote", {"customer_id": v["customer_id"], "quote_id": q["quote_id"],
                               "deposit_pence": deposit})],
        )  # fmt: skip

    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        pianos = self.pick_pianos(v, text)
        tunable = [p for p in pianos if p["kind"] != "digital"]
        if pianos and not tunable:
            out.append("Digital pianos aren't tuned, so they can't go on a tuning plan.")
            return "done"
        if len(tunable) != 1:
            names = ", ".join(piano_name(p) for p in v["pianos"] if p["kind"] != "digital")
            return self.ask("pianos", f"Which piano would you like on the plan ({names})?", out)
        p = tunable[0]
        if any(pl["piano_id"] == p["piano_id"] for pl in v["plans"]):
            out.append(f"Your {piano_name(p)} is already on an annual plan.")
            return "done"
        price = _seed.PLAN[p["kind"]]
        return self.propose(
            req, out, f"To put your {piano_name(p)} on our annual tuning plan: two tuning visits "
            f"a year for {rd.pounds(price)}, paid yearly — the first year is taken now from your "
            f"card ending {v['card_last4']}, and we'll book the visits with you. Shall I start "
            "it?",
            [("start_plan", {"customer_id": v["customer_id"], "piano_id": p["piano_id"],
                             "price_pence": price})],
        )  # fmt: skip

    # -- invoices and look-ups -------------------------------------------------------------
    async def step_invoice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.invoices(text)
        invs = [i for i in v["invoices"] if i["invoice_id"] in ids] or sorted(
            v["invoices"], key=lambda i: i["issued"], reverse=True)  # fmt: skip
        if not invs:
            out.append("I can't see an invoice on your record yet.")
            return "done"
        inv, email = invs[0], self.invoice_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"Invoice copies only go to the email on your record, not to {said[0]} — you "
                "can forward it on. " if said else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To email a copy of invoice {inv['invoice_id']} "
            f"({rd.pounds(inv['total_pence'])}) to {email}. Shall I send it?",
            [("send_invoice_copy", {"customer_id": v["customer_id"],
                                    "invoice_id": inv["invoice_id"], "email": email})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        own = {x["visit_id"] for x in v["visits"]}
        other = [ref for ref in rd.visits(text) if ref not in own]
        if other:
            await self.other_visit(v, other[0], out)
            return "done"
        if v["visits"] and (set(rd.visits(text)) & own or VISIT_WORDS.search(text)):
            for x in v["visits"]:
                out.append(f"Your {self.say_visit(v, x)}: {rd.pounds(x['price_pence'])}, paid "
                           "to the tuner on the day.")  # fmt: skip
            return "done"
        for p in self.pick_pianos(v, text) or v["pianos"]:
            if p["kind"] == "digital":
                out.append(f"Your {piano_name(p)} is digital, so it doesn't need tuning.")
                continue
            fee = _seed.TUNING[p["kind"]]
            raise_ = self.pitch_raise(p, (self.today + timedelta(days=1)).isoformat())
            extra = (f" It was last tuned on {rd.say_day(p['last_tuned'])} "
                     f"{p['last_tuned'][:4]}, two years or more ago, so it needs a pitch raise "
                     f"of {rd.pounds(raise_)} as well: {rd.pounds(fee + raise_)} in all."
                     if raise_ else " No pitch raise is needed.")  # fmt: skip
            out.append(f"Tuning your {piano_name(p)} is {rd.pounds(fee)}.{extra}")
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — visit {r['visit_id']} is booked for {rd.say_day(r['day'])}, "
                    f"{span(r['slot'])}; {r['price']}, paid to the tuner on the day.")  # fmt: skip
        if intent == "move":
            fee = (f"; {r['fee']} call-out fee taken from your card ending {r['card_last4']}"
                   if r["fee"] != "£0.00" else "")  # fmt: skip
            return (f"Done — visit {r['visit_id']} is now {rd.say_day(r['day'])}, "
                    f"{span(r['slot'])}{fee}.")  # fmt: skip
        if intent == "cancel":
            fee = (f"; {r['fee']} call-out fee taken from your card ending {r['card_last4']}"
                   if r["fee"] != "£0.00" else "; no charge")  # fmt: skip
            return f"Done — visit {r['visit_id']} is cancelled{fee}."
        if intent == "repair":
            return (f"Done — quote {r['quote_id']} is accepted ({r['work']}); {r['deposit_taken']}"
                    f" deposit taken from your card ending {r['card_last4']}. We'll be in touch "
                    "to arrange the work.")  # fmt: skip
        if intent == "plan":
            return (f"Done — your {r['piano']} is on the annual tuning plan; {r['price']} taken "
                    f"from your card ending {r['card_last4']}.")  # fmt: skip
        return f"Done — a copy of invoice {r['invoice_id']} has been sent to {r['sent_to']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
