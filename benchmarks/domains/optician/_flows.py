"""The desk's flows: eye tests, glasses orders, cover claims, lens plans, prescriptions, contact."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.optician import _read as rd
from benchmarks.domains.optician import _seed

COATING_WORDS = (("anti-glare", r"\banti[- ]?glare\b|\banti[- ]?reflect"),
                 ("blue-light", r"\bblue[- ]?light\b|\bblue filter\b"))  # fmt: skip
LENS_WORDS = (("varifocal", r"\bvarifocals?\b|\bprogressives?\b"), ("bifocal", r"\bbifocals?\b"),
              ("single vision", r"\bsingle[- ]vision\b|\bdistance\b|\breading\b"))  # fmt: skip
OPEN_ORDER = ("placed", "at_lab", "ready")
STATUS_WORDS = {"placed": "with us, not yet sent to the lab", "at_lab": "at the lab being made",
                "ready": "ready to collect", "collected": "collected"}  # fmt: skip


class Flows:
    """The flows; `CorrectOpticianAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
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

    def pick_appt(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The test meant: named by number, by its day, or the first one booked."""
        ids = rd.appointments(text)
        named = [a for a in v["appointments"] if a["appt_id"] in ids]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [a for a in v["appointments"] if a["day"] in days]
        return (named or v["appointments"] or [None])[0]

    @staticmethod
    def pick_order(v: dict[str, Any], text: str, statuses: tuple[str, ...]) -> dict | None:
        """The order meant: named by number, else the latest in one of `statuses`."""
        ids = rd.orders(text)
        named = [o for o in v["orders"] if o["order_id"] in ids]
        if not named:
            named = [o for o in reversed(v["orders"]) if o["status"] in statuses]
        return named[0] if named else None

    @staticmethod
    def nothing(out: list[str], what: str) -> str:
        out.append(f"I can't find {what} on your record, so I haven't changed anything.")
        return "done"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def test_terms(self, v: dict[str, Any], day: date) -> tuple[bool, int, str]:
        """NHS-funded (free) or private, and why."""
        age = _seed.age_on(v["dob"], day)
        if age < _seed.NHS_UNDER or age >= _seed.NHS_FROM:
            return True, 0, f"you'll be {age} on the day, so it's NHS-funded and free"
        if v["benefit_ref"]:
            return True, 0, "you have a qualifying benefit on record, so it's NHS-funded and free"
        return False, _seed.TEST_PENCE, (f"it's a private test at {rd.pounds(_seed.TEST_PENCE)}, "
                                         "paid at the appointment")  # fmt: skip

    def late_fee(self, a: dict[str, Any]) -> int:
        """Moving or cancelling a private test less than 24 hours before it."""
        if a["nhs"] or a["hours_to"] >= _seed.LATE_HOURS:
            return 0
        return _seed.LATE_FEE_PENCE

    def order_price(self, v: dict[str, Any], frame: str, lens: str,
                    coatings: list[str]) -> tuple[int, int]:  # fmt: skip
        """The pair's full price and its second-pair discount (30% off the whole pair)."""
        full = (_seed.FRAMES[frame][1] + _seed.LENSES[lens]
                + sum(_seed.COATINGS[k] for k in coatings))  # fmt: skip
        recent = [o for o in v["orders"] if (self.today - date.fromisoformat(o["ordered_on"])).days
                  <= _seed.SECOND_PAIR_DAYS]  # fmt: skip
        return full, (full * _seed.SECOND_PAIR_PERCENT // 100 if recent else 0)

    def may_cancel_order(self, o: dict[str, Any]) -> bool:
        return o["status"] == "placed"

    def excess(self, kind: str) -> int:
        return _seed.EXCESS[kind]

    def prescription_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    # -- eye tests -------------------------------------------------------------------------
    async def pick_time(self, req: dict[str, Any], day: str, out: list[str],
                        skip: str = "") -> tuple[str | None, str]:  # fmt: skip
        """A free time on `day` as the customer asked, or the question to ask."""
        result, error = await self.call("list_slots", day=day)
        free = [t for t in (result or {}).get("free", []) if f"{day} {t}" != skip]
        if error or not free:
            out.append(f"I'm sorry — there are no free eye-test slots on {rd.say_day(day)}.")
            return None, self.ask("day", "Which other day would suit you?", out)
        text = self.text(req)
        when, part = rd.clock_time(text), rd.part_of_day(text)
        if when in free:
            return when, ""
        if when is None and part:
            fits = [t for t in free if (t < "12:00") == (part == "morning")]
            if fits:
                return fits[0], ""
        opener = f"{when} isn't free then. " if when else ""
        return None, self.ask("time", f"{opener}On {rd.say_day(day)} the free times are "
                              f"{', '.join(free)}. Which would suit you?", out)  # fmt: skip

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        days = [d for d in rd.dates(self.text(req), self.today) if d >= self.today]
        if not days:
            return self.ask("day", "Which day would you like the eye test? We test Monday to "
                            "Friday.", out)  # fmt: skip
        day = days[-1].isoformat()
        time, status = await self.pick_time(req, day, out)
        if time is None:
            return status
        nhs, fee, why = self.test_terms(v, days[-1])
        return self.propose(
            req, out, f"To book an eye test on {rd.say_day(day)} at {time}: {why}."
            + ("" if nhs else f" Moving or cancelling it less than 24 hours before costs "
               f"{rd.pounds(_seed.LATE_FEE_PENCE)}.") + " Shall I book it?",
            [("book_eye_test", {"customer_id": v["customer_id"], "day": day, "time": time,
                                "nhs": nhs, "fee_pence": fee})],
        )  # fmt: skip

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        a = self.pick_appt(v, text)
        if a is None:
            return self.nothing(out, "a booked eye test")
        days = [d for d in rd.dates(text, self.today) if d >= self.today
                and d.isoformat() != a["day"]]  # fmt: skip
        if not days:
            return self.ask("new_day", "Which day would you like to move it to?", out)
        day = days[-1].isoformat()
        time, status = await self.pick_time(req, day, out, skip=f"{a['day']} {a['time']}")
        if time is None:
            return status
        fee = self.late_fee(a)
        if self.free_only(req, fee, "Moving it less than 24 hours before", out):
            return "done"
        charge = (f"It's less than 24 hours away, so there's a late-change fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge for the change.")  # fmt: skip
        return self.propose(
            req, out, f"To move your eye test {a['appt_id']} from {rd.say_day(a['day'])} at "
            f"{a['time']} to {rd.say_day(day)} at {time}. {charge} Shall I move it?",
            [("move_appointment", {"customer_id": v["customer_id"], "appt_id": a["appt_id"],
                                   "day": day, "time": time, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        a = self.pick_appt(v, self.text(req))
        if a is None:
            return self.nothing(out, "a booked eye test")
        fee = self.late_fee(a)
        if self.free_only(req, fee, "Cancelling it less than 24 hours before", out):
            return "done"
        charge = (f"it's less than 24 hours away, so there's a late-cancellation fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}"
                  if fee else "there's no charge")  # fmt: skip
        return self.propose(
            req, out, f"To cancel your eye test {a['appt_id']} on {rd.say_day(a['day'])} at "
            f"{a['time']}: {charge}. Shall I cancel it?",
            [("cancel_appointment", {"customer_id": v["customer_id"], "appt_id": a["appt_id"],
                                     "fee_pence": fee})],
        )  # fmt: skip

    # -- glasses ---------------------------------------------------------------------------
    async def step_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        codes = [c for c in rd.frames(text) if c in _seed.FRAMES]
        if not codes:
            menu = ", ".join(f"{c} {n} ({rd.pounds(p)})" for c, (n, p) in _seed.FRAMES.items())
            return self.ask("frame", f"Which frame would you like? The code is on the frame's "
                            f"tag: {menu}.", out)  # fmt: skip
        lens = next((k for k, pattern in LENS_WORDS if re.search(pattern, text, re.I)), None)
        if lens is None:
            return self.ask("lens", "Which lenses: single vision (£40.00), bifocal (£80.00) or "
                            "varifocal (£120.00)?", out)  # fmt: skip
        coatings = [k for k, pattern in COATING_WORDS if re.search(pattern, text, re.I)]
        frame = codes[-1]
        full, off = self.order_price(v, frame, lens, coatings)
        parts = [f"{_seed.FRAMES[frame][0]} frame {frame} {rd.pounds(_seed.FRAMES[frame][1])}",
                 f"{lens} lenses {rd.pounds(_seed.LENSES[lens])}",
                 *(f"{k} {rd.pounds(_seed.COATINGS[k])}" for k in coatings)]  # fmt: skip
        discount = (f", less the second-pair discount of 30% ({rd.pounds(off)}), as you've "
                    "ordered a pair in the last 30 days" if off else "")  # fmt: skip
        return self.propose(
            req, out, f"To order {', '.join(parts)}: {rd.pounds(full)}{discount}. That's "
            f"{rd.pounds(full - off)} in all, paid now from your card ending {v['card_last4']}. "
            "The order can be changed until it goes to the lab. Shall I place it?",
            [("place_order", {"customer_id": v["customer_id"], "frame": frame, "lens": lens,
                              "coatings": coatings, "price_pence": full - off})],
        )  # fmt: skip

    async def step_coating(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        o = self.pick_order(v, text, OPEN_ORDER)
        if o is None:
            return self.nothing(out, "a glasses order in progress")
        kind = next((k for k, pattern in COATING_WORDS if re.search(pattern, text, re.I)), None)
        if kind is None:
            return self.ask("coating", "Which coating: anti-glare (£25.00) or a blue-light "
                            "filter (£30.00)?", out)  # fmt: skip
        if kind in o["coatings"].split(","):
            out.append(f"Your order {o['order_id']} already has {kind}, so there's nothing to add.")
            return "done"
        price = _seed.COATINGS[kind]
        return self.propose(
            req, out, f"To add {kind} to your order {o['order_id']}: {rd.pounds(price)}, taken "
            f"from your card ending {v['card_last4']}. Coatings can only be added before the "
            "order goes to the lab; the system checks that. Shall I add it?",
            [("add_coating", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                              "coating": kind, "price_pence": price})],
        )  # fmt: skip

    async def step_cancel_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, self.text(req), OPEN_ORDER)
        if o is None:
            return self.nothing(out, "a glasses order in progress")
        if not self.may_cancel_order(o):
            out.append(f"I'm sorry — your order {o['order_id']} is {STATUS_WORDS[o['status']]}, "
                       "and an order can only be cancelled before it goes to the lab, as the "
                       "lenses are made to your prescription. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To cancel your order {o['order_id']}: the {rd.pounds(o['price_pence'])} "
            f"you paid is refunded to your card ending {v['card_last4']}. Shall I cancel it?",
            [("cancel_order", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                               "refund_pence": o["price_pence"]})],
        )  # fmt: skip

    async def step_claim(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        o = self.pick_order(v, text, ("collected",))
        if o is None:
            return self.nothing(out, "a pair of glasses you've collected")
        kind = ("replacement" if re.search(r"\blost\b|\breplace|\bstolen\b|\bmissing\b", text,
                                           re.I) else "repair")  # fmt: skip
        if not o["cover"]:
            out.append(f"I'm sorry — your glasses from order {o['order_id']} don't have "
                       f"Clearview Cover, so the {kind} can't be claimed. The practice can quote "
                       "for it in store. Nothing has been changed.")  # fmt: skip
            return "done"
        fee = self.excess(kind)
        return self.propose(
            req, out, f"To claim a {kind} under Clearview Cover for your glasses from order "
            f"{o['order_id']}: the {kind} excess is {rd.pounds(fee)}, taken from your card "
            f"ending {v['card_last4']}. Shall I make the claim?",
            [("claim_cover", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                              "kind": kind, "excess_pence": fee})],
        )  # fmt: skip

    # -- contact-lens plans ----------------------------------------------------------------
    async def step_pause(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        sub = next(iter(v["subscriptions"]), None)
        if sub is None:
            return self.nothing(out, "a contact-lens plan")
        n = rd.months(self.text(req))
        if n is None or not 1 <= n <= _seed.MAX_PAUSE_MONTHS:
            return self.ask("months", "How many months would you like to pause for? It can be "
                            "one to three months.", out)  # fmt: skip
        nxt = _seed.add_months(sub["next_payment"], n)
        return self.propose(
            req, out, f"To pause your {sub['plan']} lens plan {sub['sub_id']} for {n} "
            f"month{'s' if n > 1 else ''}: no lenses are sent and nothing is taken, and your "
            f"next payment of {rd.pounds(sub['monthly_pence'])} moves from "
            f"{rd.say_day(sub['next_payment'])} to {rd.say_day(nxt)}. A plan can be paused "
            "once in 12 months. Shall I pause it?",
            [("pause_subscription", {"customer_id": v["customer_id"], "sub_id": sub["sub_id"],
                                     "months": n})],
        )  # fmt: skip

    async def step_cancel_sub(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        sub = next(iter(v["subscriptions"]), None)
        if sub is None:
            return self.nothing(out, "a contact-lens plan")
        end = _seed.add_months(self.today.isoformat(), _seed.NOTICE_MONTHS)
        due = (f" Your payment of {rd.pounds(sub['monthly_pence'])} on "
               f"{rd.say_day(sub['next_payment'])} is still taken, and that month's lenses sent."
               if sub["next_payment"] <= end else "")  # fmt: skip
        return self.propose(
            req, out, f"To cancel your {sub['plan']} lens plan {sub['sub_id']} with one month's "
            f"notice: it ends on {rd.say_day(end)}.{due} Shall I cancel it?",
            [("cancel_subscription", {"customer_id": v["customer_id"], "sub_id": sub["sub_id"],
                                      "end_date": end})],
        )  # fmt: skip

    # -- prescriptions, contact details, look-ups ------------------------------------------
    async def step_prescription(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        email = self.prescription_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"For your privacy, a prescription is only sent to the patient's own email "
                f"on record, not to {said[0]}; you're welcome to forward it. "
                if said else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To email a copy of your latest prescription to {email}. Shall I "
            "send it?",
            [("send_prescription", {"customer_id": v["customer_id"], "email": email})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, mails = rd.phones(text), rd.emails(text)
        if not numbers and not mails:
            return self.ask("phone", "What's the new number or email address?", out)
        args: dict[str, Any] = {"customer_id": v["customer_id"]}
        said = []
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your mobile number to {numbers[-1]}")
        if mails:
            args["email"] = mails[-1]
            said.append(f"your email address to {mails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if re.search(r"\bglasses\b|\border\b|\bspecs\b|\bready\b", text, re.I):
            o = self.pick_order(v, text, (*OPEN_ORDER, "collected"))
            if o is None:
                return self.nothing(out, "a glasses order")
            out.append(f"Your order {o['order_id']} ({o['lens']} lenses in frame {o['frame']}, "
                       f"{rd.pounds(o['price_pence'])}, paid in full) is "
                       f"{STATUS_WORDS[o['status']]}.")  # fmt: skip
            return "done"
        a = self.pick_appt(v, text)
        if a is None:
            return self.nothing(out, "a booked eye test")
        cost = ("NHS-funded, so there's nothing to pay" if a["nhs"] else
                f"a private test, {rd.pounds(a['fee_pence'])}, paid at the "
                "appointment")  # fmt: skip
        out.append(f"Your eye test {a['appt_id']} is on {rd.say_day(a['day'])} at {a['time']}: "
                   f"{cost}. Please bring your glasses and any contact lenses.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the customer's words."""
        if intent == "book":
            cost = "NHS-funded, no charge" if r["nhs"] else f"{r['fee']}, paid on the day"
            return (f"Done — your eye test {r['appt_id']} is booked for {rd.say_day(r['day'])} "
                    f"at {r['time']} ({cost}).")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} late-change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — your eye test {r['appt_id']} is now on {rd.say_day(r['day'])} at "
                    f"{r['time']}{fee}.")  # fmt: skip
        if intent == "cancel":
            return f"Done — eye test {r['appt_id']} is cancelled; fee charged: {r['fee']}."
        if intent == "order":
            return (f"Done — order {r['order_id']} is placed: {r['price']} taken from your card "
                    f"ending {r['card_last4']}.")  # fmt: skip
        if intent == "coating":
            return (f"Done — {r['coating']} added to order {r['order_id']} ({r['price']}); the "
                    f"order is now {r['order_total']}.")  # fmt: skip
        if intent == "cancel_order":
            return (f"Done — order {r['order_id']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "claim":
            return (f"Done — your {r['kind']} claim on order {r['order_id']} is made; "
                    f"{r['excess']} excess taken. "
                    + ("Please bring the glasses in for the repair." if r["kind"] == "repair"
                       else "We'll call you when the new pair is ready."))  # fmt: skip
        if intent == "pause":
            return (f"Done — plan {r['sub_id']} is paused; the next payment is on "
                    f"{rd.say_day(r['next_payment'])}.")  # fmt: skip
        if intent == "cancel_sub":
            return f"Done — plan {r['sub_id']} ends on {rd.say_day(r['end_date'])}."
        if intent == "contact":
            return f"Done — your mobile is {r['phone']} and your email is {r['email']}."
        return f"Done — a copy of your prescription has been sent to {r['sent_to']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
