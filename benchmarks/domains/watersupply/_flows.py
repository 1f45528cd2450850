"""The desk's flows: readings, plans, direct debit dates, leaks, moves, the register, balance."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.watersupply import _read as rd
from benchmarks.domains.watersupply import _seed

PHONE = "0345 600 4400"
NEED_NAMES = {"dialysis": "home dialysis", "mobility": "limited mobility", "sight": "sight",
              "hearing": "hearing"}  # fmt: skip
NEED_HELP = {
    "dialysis": "bottled water brought to your door if your supply is interrupted",
    "mobility": "bottled water brought to your door if your supply is interrupted",
    "sight": "bills and letters in large print or braille",
    "hearing": "messages by text instead of phone calls",
}


def next_pay_date(today: date, day: int) -> date:
    """The next day `day` of a month after today."""
    if today.day < day:
        return today.replace(day=day)
    first = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    return first.replace(day=day)


def rate_words(sewer: int) -> str:
    return "water and wastewater" if sewer else "water only: your home is on a septic tank"


class Flows:
    """The flows; `CorrectWatersupplyAgent` supplies the state, the calls and the questions."""

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
    def answer_to(req: dict[str, Any], asked: str) -> str | None:
        """The customer's answer to the desk's question `asked` about this request."""
        return req.get("answers", {}).get(asked)

    def no_home(self, out: list[str]) -> str:
        out.append("There's no home supplied on your account at the moment, so there's no meter "
                   "to read or close. Nothing has been changed.")  # fmt: skip
        return "done"

    def move_day(self, req: dict[str, Any], what: str, out: list[str]) -> date | str:
        """The day of a move, or 'done' when it can't be recorded in the chat."""
        days = rd.dates(self.text(req), self.today)
        alone = rd.day_said_alone(self.answer_to(req, "move_date"), self.today)
        if not days and alone is None:
            return self.ask("move_date", f"Which day did you move {what}?", out)
        day = days[-1] if days else alone
        assert day is not None
        if day > self.today:
            out.append(f"We record a move on the day you move {what} or up to 28 days after, "
                       "with the meter reading from that day — please get back in touch then. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        if (self.today - day).days > _seed.MOVE_BACK_DAYS:
            out.append(f"A move more than 28 days ago is handled by our billing team on {PHONE}. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        return day

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def reading_rate(self, home: dict[str, Any]) -> int:
        """Pence per m3 for a reading's bill: wastewater only for homes on the public sewer."""
        return _seed.unit_rate(home["sewer"])

    def leak_rate(self, home: dict[str, Any]) -> int:
        """Pence per m3 credited for a leak: everything charged for the water lost."""
        return _seed.unit_rate(home["sewer"])

    def leak_covered(self, place: str) -> bool:
        """Only leaks on the underground supply pipe are covered."""
        return place == "supply_pipe"

    def plan_months_allowed(self, months: int) -> int:
        """The months a plan may run for: 2 to 12."""
        return max(_seed.MIN_PLAN_MONTHS, min(months, _seed.MAX_PLAN_MONTHS))

    def say_balance(self, v: dict[str, Any]) -> str:
        bal = v["balance_pence"]
        owed = (f"Your balance is {rd.pounds(bal)} to pay" if bal > 0 else
                f"Your account is {rd.pounds(-bal)} in credit" if bal < 0 else
                "Your balance is £0.00: nothing is owed")  # fmt: skip
        if v["payment_day"] is None:
            how = "You pay by card when each bill comes."
        else:
            nxt = next_pay_date(self.today, v["payment_day"]).isoformat()
            how = (f"Your direct debit is taken on the {rd.ordinal(v['payment_day'])} of each "
                   f"month; the next one is on {rd.say_day(nxt)}.")  # fmt: skip
        plan = ""
        if v["plans"]:
            p = v["plans"][0]
            plan = (f" You're on a payment plan of {p['months']} monthly instalments of "
                    f"{rd.pounds(p['instalment_pence'])}.")  # fmt: skip
        return f"{owed}. {how}{plan}"

    # -- meter readings ----------------------------------------------------------------------
    async def step_reading(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        home = v["home"]
        if home is None:
            return self.no_home(out)
        numbers = rd.meter_numbers(self.text(req))
        if not numbers:
            return self.ask("reading", "What's the reading on your meter? The black numbers "
                            "only — whole cubic metres.", out)  # fmt: skip
        reading, last = numbers[-1], home["last_reading"]
        used = reading - last["reading"]
        if used < 0:
            out.append(
                f"{reading} is lower than the last reading, {last['reading']} on "
                f"{rd.say_day(last['read_on'])}, so I think it's been misread — could you "
                "check the meter and give it to us again? Nothing has been changed."
            )
            return "done"
        rate = self.reading_rate(home)
        amount = used * rate
        return self.propose(
            req, out, f"To submit a meter reading of {reading} for {home['address']} today. "
            f"Since the last reading ({last['reading']} on {rd.say_day(last['read_on'])}) that's "
            f"{used} m³ at {rd.pounds(rate)} per m³ ({rate_words(home['sewer'])}): a bill of "
            f"{rd.pounds(amount)}, added to your balance. Shall I submit it?",
            [("submit_reading", {"account_id": v["account_id"], "reading": reading,
                                 "amount_pence": amount})],
        )  # fmt: skip

    # -- payment plans and direct debit dates ---------------------------------------------
    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        balance = v["balance_pence"]
        if balance <= 0:
            out.append("There's nothing owed on your account, so there's nothing to spread. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        asked = rd.plan_months(text) or rd.bare_number(self.answer_to(req, "months"))
        if asked is None and not rd.LONGEST_RE.search(text):
            return self.ask("months", f"Over how many months would you like to spread your "
                            f"{rd.pounds(balance)} balance? It can be 2 to 12.", out)  # fmt: skip
        asked = asked or _seed.MAX_PLAN_MONTHS
        months = self.plan_months_allowed(asked)
        days = [d for d in [*rd.pay_days(text), rd.bare_number(self.answer_to(req, "payment_day"))]
                if d is not None and _seed.FIRST_PAY_DAY <= d <= _seed.LAST_PAY_DAY]  # fmt: skip
        day = days[-1] if days else v["payment_day"]
        if day is None:
            return self.ask("payment_day", "Which day of the month should the direct debit be "
                            "taken? Any day from the 1st to the 28th.", out)  # fmt: skip
        instalment = -(-balance // months)
        note = ""
        if months != asked:
            note = (
                f"A payment plan can run for {_seed.MIN_PLAN_MONTHS} to "
                f"{_seed.MAX_PLAN_MONTHS} months, so the closest I can do is {months}. "
            )
        last = balance - instalment * (months - 1)
        tail = f" (the last one {rd.pounds(last)})" if last != instalment else ""
        first = next_pay_date(self.today, day).isoformat()
        return self.propose(
            req, out, f"{note}To set up a payment plan clearing your {rd.pounds(balance)} "
            f"balance in {months} monthly instalments of {rd.pounds(instalment)}{tail}, by "
            f"direct debit on the {rd.ordinal(day)} of each month, starting {rd.say_day(first)}. "
            "Shall I set it up?",
            [("set_up_plan", {"account_id": v["account_id"], "months": months,
                              "payment_day": day, "instalment_pence": instalment})],
        )  # fmt: skip

    async def step_payday(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        # a fallback day may be its own sentence ("If you can't do that, the 28th.")
        text = " ".join(self.s.get("said", [])) or self.text(req)
        if v["payment_day"] is None:
            out.append("You pay by card when each bill comes, so there's no direct debit date "
                       "to change. Nothing has been changed.")  # fmt: skip
            return "done"
        alone = rd.bare_number(self.answer_to(req, "payment_day"))
        said = [d for d in [*rd.pay_days(text), alone] if d is not None and d != v["payment_day"]]
        valid = [d for d in said if _seed.FIRST_PAY_DAY <= d <= _seed.LAST_PAY_DAY]
        too_late = rd.wants_last_day(text) or len(valid) < len(said)
        if not valid:
            first = ("We can only take direct debits on the 1st to the 28th of the month. "
                     if too_late else "")  # fmt: skip
            return self.ask("payment_day", f"{first}Which day of the month would you like it "
                            "taken? Any day from the 1st to the 28th.", out)  # fmt: skip
        day = valid[-1]
        note = "We can't take a direct debit after the 28th, so: " if too_late else ""
        nxt = next_pay_date(self.today, day).isoformat()
        return self.propose(
            req, out, f"{note}To move your direct debit from the "
            f"{rd.ordinal(v['payment_day'])} to the {rd.ordinal(day)} of each month; the next "
            f"one would be taken on {rd.say_day(nxt)}. Shall I change it?",
            [("change_payment_day", {"account_id": v["account_id"], "payment_day": day})],
        )  # fmt: skip

    # -- leak allowances -------------------------------------------------------------------
    def _leak_refusal(self, v: dict[str, Any], place: str, text: str) -> str | None:
        if not self.leak_covered(place):
            return (
                "Leak allowances only cover leaks on the underground supply pipe, which "
                "can't be seen; leaks inside the home, like a tap or a toilet, are for the "
                "household to spot and fix, so I can't give an allowance for this one."
            )
        cutoff = self.today - timedelta(days=_seed.LEAK_EVERY_DAYS)
        earlier = [a for a in v["allowances"] if date.fromisoformat(a["granted_on"]) > cutoff]
        if earlier:
            return (f"We give one leak allowance per account in five years, and one was given "
                    f"on {rd.say_day(earlier[0]['granted_on'])} {earlier[0]['granted_on'][:4]}, "
                    "so I can't give another.")  # fmt: skip
        if rd.NOT_REPAIRED.search(text):
            return ("An allowance is given once the leak is repaired — please get back in touch "
                    "with the repair date then.")  # fmt: skip
        return None

    async def step_leak(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        named = rd.bills(text)
        regular = [b for b in v["bills"] if b["kind"] == "regular"]
        bill = next((b for b in regular if b["bill_id"] in named), None) or (
            regular[-1] if regular else None)  # fmt: skip
        if bill is None:
            out.append("I can't see a bill on your account for an allowance. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        place = rd.leak_place(text)
        if place is None:
            return self.ask("leak_place", "Where was the leak — on the underground supply pipe "
                            "outside the house, or inside the home (a tap, toilet or tank)?",
                            out)  # fmt: skip
        refusal = self._leak_refusal(v, place, text)
        if refusal:
            out.append(refusal + " Nothing has been changed.")
            return "done"
        repaired = [d for d in [*rd.dates(text, self.today),
                                rd.day_said_alone(self.answer_to(req, "repaired_on"), self.today)]
                    if d is not None and d <= self.today]  # fmt: skip
        if not repaired:
            return self.ask("repaired_on", "When was the leak repaired?", out)
        excess = bill["usage_m3"] - bill["usual_m3"]
        if excess <= 0:
            out.append(f"Bill {bill['bill_id']} is no higher than your usual use, so there's no "
                       "leak allowance to give. Nothing has been changed.")  # fmt: skip
            return "done"
        home = v["home"] or {"sewer": 1}
        rate = self.leak_rate(home)
        amount = excess * rate
        after = v["balance_pence"] - amount
        return self.propose(
            req, out, f"Bill {bill['bill_id']} ({rd.say_day(bill['period_from'])} to "
            f"{rd.say_day(bill['period_to'])}) charged {bill['usage_m3']} m³ against your usual "
            f"{bill['usual_m3']} m³. For a leak on the supply pipe, repaired on "
            f"{rd.say_day(repaired[-1].isoformat())}, we credit the {excess} m³ extra at "
            f"{rd.pounds(rate)} per m³ ({rate_words(home['sewer'])}): {rd.pounds(amount)}, "
            f"taking your balance from {rd.pounds(v['balance_pence'])} to {rd.pounds(after)}. "
            "Shall I apply it?",
            [("claim_leak_allowance", {"account_id": v["account_id"], "bill_id": bill["bill_id"],
                                       "leak_place": place,
                                       "repaired_on": repaired[-1].isoformat(),
                                       "allowance_pence": amount})],
        )  # fmt: skip

    # -- moving out and in -------------------------------------------------------------------
    async def step_move_out(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        home = v["home"]
        if home is None:
            return self.no_home(out)
        day = self.move_day(req, "out", out)
        if isinstance(day, str):
            return day
        numbers = rd.meter_numbers(text)
        if not numbers:
            return self.ask("final_reading", "What was the meter reading on the day you moved "
                            "out? That's your final reading.", out)  # fmt: skip
        final, last = numbers[-1], home["last_reading"]
        used = final - last["reading"]
        if used < 0:
            out.append(
                f"{final} is lower than the last reading, {last['reading']}, so I think "
                "it's been misread — could you check it? Nothing has been changed."
            )
            return "done"
        rate = self.reading_rate(home)
        amount = used * rate
        return self.propose(
            req, out, f"To close your account at {home['address']} from "
            f"{rd.say_day(day.isoformat())} with a final reading of {final}: {used} m³ since "
            f"the last reading ({last['reading']} on {rd.say_day(last['read_on'])}) at "
            f"{rd.pounds(rate)} per m³, a final bill of {rd.pounds(amount)}, taking your "
            f"balance to {rd.pounds(v['balance_pence'] + amount)}. Shall I go ahead?",
            [("move_out", {"account_id": v["account_id"], "move_date": day.isoformat(),
                           "final_reading": final, "final_bill_pence": amount})],
        )  # fmt: skip

    async def step_move_in(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["home"] is not None:
            out.append(f"Your account still supplies {v['home']['address']}; we supply one home "
                       "per account, so please tell me the day you moved out of it and the final "
                       "reading first. Nothing has been changed.")  # fmt: skip
            return "done"
        codes = [c for c in rd.postcodes(text) if c != v["postcode"]]
        if not codes:
            return self.ask("new_postcode", "What's the postcode of your new home?", out)
        home, error = await self.call("find_property", postcode=codes[-1])
        if error:
            out.append(
                f"I'm sorry — {codes[-1]} isn't in our area, so we don't supply it; the "
                "water company for that area will set you up. Nothing has been changed."
            )
            return "done"
        day = self.move_day(req, "in", out)
        if isinstance(day, str):
            return day
        numbers = rd.meter_numbers(text)
        if not numbers:
            return self.ask("opening_reading", "What was the meter reading at the new home on "
                            "the day you moved in? That's your opening reading.", out)  # fmt: skip
        opening, last = numbers[-1], home["last_reading"]
        if opening < last["reading"]:
            out.append(f"{opening} is lower than the last reading we have for that home, "
                       f"{last['reading']}, so I think it's been misread — could you check it? "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        rate = _seed.unit_rate(home["sewer"])
        return self.propose(
            req, out, f"To start your supply at {home['address']}, {home['postcode']} from "
            f"{rd.say_day(day.isoformat())} with an opening reading of {opening}. You'll pay "
            f"{rd.pounds(rate)} per m³ ({rate_words(home['sewer'])}), billed from that reading. "
            "Shall I set it up?",
            [("move_in", {"account_id": v["account_id"], "postcode": home["postcode"],
                          "move_date": day.isoformat(), "opening_reading": opening})],
        )  # fmt: skip

    # -- the Priority Services Register and the balance ------------------------------------
    async def step_priority(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        # a need may be said in a sentence of its own ("Since my operation I use a frame.")
        said = rd.needs(" ".join(self.s.get("said", [])) or self.text(req))
        if not said:
            return self.ask("needs", "What extra help do you need? For example home dialysis, "
                            "limited mobility, sight or hearing.", out)  # fmt: skip
        held = v["priority"]["needs"].split(",") if v["priority"] else []
        new = [n for n in said if n not in held]
        if not new:
            out.append(
                "You're already on our Priority Services Register for "
                f"{', '.join(NEED_NAMES[n] for n in held)}. Nothing has been changed."
            )
            return "done"
        needs = sorted(set(held) | set(new))
        helps = "; ".join(dict.fromkeys(NEED_HELP[n] for n in needs))
        names = " and ".join(NEED_NAMES[n] for n in new)
        what = (f"To add {names} to your Priority Services Register record (you're registered "
                f"for {', '.join(NEED_NAMES[n] for n in held)} now)" if held else
                f"To add you to our Priority Services Register for {names}")  # fmt: skip
        return self.propose(
            req,
            out,
            f"{what}. That means {helps}. Shall I register it?",
            [("register_priority", {"account_id": v["account_id"], "needs": needs})],
        )

    async def step_balance(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        out.append(self.say_balance(v))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "reading":
            return (
                f"Done — your reading of {r['reading']} is in: {r['used_m3']} m³ used, bill "
                f"{r['bill_id']} for {r['bill']}. Your balance is now {r['balance']}."
            )
        if intent == "plan":
            return (f"Done — your payment plan is set up: {r['months']} monthly instalments of "
                    f"{r['instalment']} on the {rd.ordinal(r['payment_day'])}, clearing "
                    f"{r['total']}.")  # fmt: skip
        if intent == "payday":
            return (f"Done — your direct debit will be taken on the "
                    f"{rd.ordinal(r['payment_day'])} of each month.")  # fmt: skip
        if intent == "leak":
            return (f"Done — {r['credited']} credited against bill {r['bill_id']}; your balance "
                    f"is now {r['balance']}.")  # fmt: skip
        if intent == "move_out":
            return (f"Done — your account at {r['address']} is closed from "
                    f"{rd.say_day(r['move_date'])}; final bill {r['final_bill_id']} for "
                    f"{r['final_bill']}.")  # fmt: skip
        if intent == "move_in":
            return (
                f"Done — you're set up at {r['address']}, {r['postcode']} from "
                f"{rd.say_day(r['move_date'])}, opening reading {r['opening_reading']}."
            )
        needs = " and ".join(NEED_NAMES[n] for n in r["needs"])
        return f"Done — you're on our Priority Services Register for {needs}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
