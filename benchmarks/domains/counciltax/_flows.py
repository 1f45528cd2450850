"""The desk's flows: discount, payments, moves, refunds, arrears, occupancy, contacts, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.counciltax import _read as rd
from benchmarks.domains.counciltax import _seed

LEFT_MONTHS = {1: "January", 3: "January, February and March"}
ADDRESS_RE = re.compile(
    r"\b(?:flat\s+)?\d{1,3}[a-z]?,?\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*?\s+(?:Way|Road|Close|Grove|"
    r"Street|Lane|Avenue|Court|Drive|Place|Gardens|Crescent|House)\b",
    re.I,
)


def month_end(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1) - timedelta(days=1)


class Flows:
    """The flows; `CorrectCounciltaxAgent` supplies the state, the calls and the questions."""

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

    def dates_said(self, text: str, when: str) -> list[date]:
        found = rd.dates(text, self.today, when)
        if when == "past":
            return [d for d in found if d <= self.today]
        return found

    @staticmethod
    def spread(balance: int, left: int) -> int:
        return max(0, balance) // left if left else 0

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def discount_start(self, said: date) -> date:
        """The discount starts the day they became the only adult, at most 6 months back."""
        return max(said, _seed.BACKDATE_LIMIT)

    def spd_reduction(self, band_charge: int, start: date) -> int:
        """25% of this year's charge from the start day to 31 March, to the day."""
        return _seed.part_year(band_charge, start, _seed.YEAR_END, _seed.SPD_PERCENT)

    def charge_to(self, v: dict[str, Any], last: date) -> int:
        """This year's charge up to and including the last day at the property, to the day."""
        start = max(date.fromisoformat(v["start_date"]), _seed.YEAR_START)
        return int(v["annual_pence"]) * _seed.days_between(start, last) // _seed.days_between(
            start, _seed.YEAR_END)  # fmt: skip

    def arrangement_months(self, asked: int) -> int:
        return min(asked, _seed.MAX_ARRANGEMENT_MONTHS)

    def liable_waived(self, req: dict[str, Any]) -> bool:
        """Hook: whether a caller who is not liable may still be answered (never)."""
        return False

    # -- single person discount ------------------------------------------------------------
    async def step_discount(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if any(d["end_date"] is None for d in v["discounts"]):
            out.append("The single person discount is already on your account.")
            return "done"
        if v["property"]["occupancy"] != "occupied":
            out.append("The single person discount is only for someone's main home, and this "
                       "property is recorded as not lived in, so it can't be applied.")  # fmt: skip
            return "done"
        said = self.dates_said(self.text(req), "past")
        if not said:
            return self.ask("from_date", "From what date have you been the only adult (18 or "
                            f"over) living at {v['property']['address']}?", out)  # fmt: skip
        start = self.discount_start(said[0])
        note = (f" It can't be backdated more than 6 months, so it starts on "
                f"{rd.say_day(start.isoformat())} rather than {rd.say_day(said[0].isoformat())}."
                if start > said[0] else "")  # fmt: skip
        cut = self.spd_reduction(int(v["band_charge_pence"]), start)
        left = v["instalments_left"]
        each = self.spread(v["annual_pence"] - cut - v["paid_pence"], left)
        return self.propose(
            req, out, f"To apply the 25% single person discount from "
            f"{rd.say_day(start.isoformat())}.{note} That takes {rd.pounds(cut)} off this "
            f"year's bill, so your {left} instalment{'s' if left > 1 else ''} left "
            f"({LEFT_MONTHS.get(left, '')}) become{'' if left > 1 else 's'} {rd.pounds(each)}"
            f"{' each' if left > 1 else ''}. Shall I apply it?",
            [("apply_single_person_discount", {"account_id": v["account_id"],
                                               "from_date": start.isoformat(),
                                               "reduction_pence": cut})],
        )  # fmt: skip

    # -- how the account pays --------------------------------------------------------------
    def _dd_day(self, text: str, out: list[str]) -> tuple[int | None, str]:
        """The direct debit date asked for, and a note when the first one said can't be had."""
        days = rd.month_days(text)
        allowed = [d for d in days if d in _seed.DD_DAYS]
        current = self.s["view"]["dd_day"] if self.s.get("view") else None
        allowed = [d for d in allowed if d != current] or allowed
        note = ""
        if days and days[0] not in _seed.DD_DAYS:
            note = (f"We can only take direct debits on the 1st, 8th, 15th or 22nd, so not the "
                    f"{rd.ordinal(days[0])}. ")  # fmt: skip
        return (allowed[-1] if allowed else None), note

    async def step_payplan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        n, nxt = rd.plan(text), rd.next_year(text)
        dd, note = self._dd_day(text, out)
        if dd is None and (
            note
            or (
                n is None
                and re.search(
                    r"\bdate\b|\bday\b|\btaken\b|"
                    r"\bcome out\b",
                    text,
                    re.I,
                )
            )
        ):
            return self.ask("dd_day", f"{note}Which date would you like the direct debit taken: "
                            "the 1st, 8th, 15th or 22nd of the month?", out)  # fmt: skip
        if n is None and dd is None:
            return self.ask("plan", "Would you like 10 monthly instalments (April to January) "
                            "or 12 (April to March)?", out)  # fmt: skip
        parts, args = [], {"account_id": v["account_id"], "year": "next" if nxt else "this"}
        if n is not None and nxt:
            parts.append(f"from April 2027 your bill will be in {n} monthly instalments "
                         f"({'April to January' if n == 10 else 'April to March'}); this "
                         "year's instalments stay as they are")  # fmt: skip
            args["instalments"] = n
        elif n is not None and n != v["instalments"]:
            left = _seed.MONTHS_LEFT[n]
            balance = v["annual_pence"] - v["paid_pence"]
            each = self.spread(balance, left)
            parts.append(f"to pay the rest of this year in {n} instalments: the "
                         f"{rd.pounds(balance)} left is spread over {LEFT_MONTHS[left]} — "
                         f"{rd.pounds(each)}{' each' if left > 1 else ''}")  # fmt: skip
            args.update(instalments=n, instalment_pence=each)
        elif n is not None:
            out.append(f"You're already paying in {n} instalments this year.")
            if dd is None:
                return "done"
        if dd is not None and dd != v["dd_day"]:
            parts.append(f"to take your direct debit on the {rd.ordinal(dd)} of each month "
                         f"from January instead of the {rd.ordinal(v['dd_day'])}")  # fmt: skip
            args["dd_day"] = dd
        elif dd is not None:
            out.append(f"Your direct debit is already taken on the {rd.ordinal(dd)}.")
        if len(args) == 2:
            return "done"
        return self.propose(req, out, f"{note}To change how you pay: " + "; and ".join(parts)
                            + ". Shall I make the change?",
                            [("change_payment_plan", args)])  # fmt: skip

    # -- moving out and in -----------------------------------------------------------------
    async def step_moveout(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["end_date"]:
            out.append(f"A move-out on {rd.say_day(v['end_date'])} is already recorded.")
            return "done"
        said = [d for d in self.dates_said(self.text(req), "future")
                if d >= date.fromisoformat(v["start_date"])]  # fmt: skip
        if not said:
            return self.ask("move_out", f"What will be your last day at "
                            f"{v['property']['address']}? You pay up to and including that "
                            "day.", out)  # fmt: skip
        last = said[0]
        if last > _seed.YEAR_END:
            out.append("That's after 31 March, in next year's bill: please tell us again "
                       "nearer the time. Nothing has been changed.")  # fmt: skip
            return "done"
        charge = self.charge_to(v, last)
        final = charge - v["paid_pence"]
        end = (f"your final bill is {rd.pounds(final)}" if final >= 0 else
               f"that leaves a credit of {rd.pounds(-final)}, refunded to where it was paid "
               "from once the final bill is issued")  # fmt: skip
        return self.propose(
            req, out, f"To record that you move out of {v['property']['address']} on "
            f"{rd.say_day(last.isoformat())}: the bill is worked out to the day, up to and "
            f"including {rd.say_day(last.isoformat())}, which is {rd.pounds(charge)} for this "
            f"year. You've paid {rd.pounds(v['paid_pence'])}, so {end}. It replaces the "
            "instalments left. Shall I record it?",
            [("record_move_out", {"account_id": v["account_id"],
                                  "move_out_date": last.isoformat(), "final_bill_pence": final})],
        )  # fmt: skip

    async def step_movein(self, req: dict[str, Any], out: list[str]) -> str:
        text, facts = self.text(req), self.s["facts"]
        address = ADDRESS_RE.search(text)
        if not facts.get("postcode"):
            return self.ask("postcode", "Welcome to Hartfield. What's the postcode of your new "
                            "home?", out)  # fmt: skip
        if address is None:
            return self.ask("address", "And the house number and street?", out)
        said = [d for d in self.dates_said(text, "future") if d <= _seed.YEAR_END]
        if not said:
            return self.ask("move_in", "What date do you move in (or did you)?", out)
        if not facts.get("name"):
            return self.ask("name", "And your full name, please?", out)
        prop, error = await self.call("find_property", postcode=facts["postcode"],
                                      address=address.group(0))  # fmt: skip
        if error:
            req["chunks"] = [c for c in req["chunks"] if not ADDRESS_RE.search(c)]
            return self.ask("address", "I can't find that address at that postcode. Could you "
                            "give me the house number and street again?", out)  # fmt: skip
        day = said[0]
        until = prop["occupied_until"]
        if until and (until == "no end date" or until >= day.isoformat()):
            out.append(f"Our records show {prop['address']} is still occupied on that day, so I "
                       f"can't open an account from then. Please call us on {_seed.PHONE}; "
                       "nothing has been changed.")  # fmt: skip
            return "done"
        bill = _seed.part_year(prop["band_charge_pence"], day, _seed.YEAR_END)
        left = (_seed.YEAR_END.year - day.year) * 12 + _seed.YEAR_END.month - day.month + 1
        return self.propose(
            req, out, f"To open a council tax account for {facts['name']} at "
            f"{prop['address']}, {prop['postcode']}, from {rd.say_day(day.isoformat())}: it's "
            f"in band {prop['band']} ({rd.pounds(prop['band_charge_pence'])} a year), so this "
            f"year's bill, worked out to the day, is {rd.pounds(bill)} — {left} monthly "
            f"instalments of {rd.pounds(bill // left)}. Shall I set it up?",
            [("register_move_in", {"postcode": prop["postcode"], "address": prop["address"],
                                   "name": facts["name"], "move_in_date": day.isoformat(),
                                   "first_bill_pence": bill})],
        )  # fmt: skip

    # -- refunds, arrears, notices ---------------------------------------------------------
    async def step_refund(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] != "closed":
            out.append("Your account is still open, so any credit stays on it and comes off "
                       "your next instalments.")  # fmt: skip
            return "done"
        if v["credit_pence"] <= 0:
            out.append("There's no credit left on your closed account to refund.")
            return "done"
        source = v["refund_source"]
        other = re.search(r"\b(?:new|different|another|other)\s+(?:bank|account|card)\b|"
                          r"\bsort code\b", self.text(req), re.I)  # fmt: skip
        note = (f"Refunds only go back to where the money came from — your {source} — never to "
                "another account. " if other else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To refund the {rd.pounds(v['credit_pence'])} credit on your closed "
            f"account to your {source}. Shall I send it?",
            [("refund_credit", {"account_id": v["account_id"], "amount_pence": v["credit_pence"],
                                "paid_to": source})],
        )  # fmt: skip

    async def step_arrears(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        owed = v["arrears_pence"]
        if owed <= 0:
            out.append("There are no arrears on your account — your payments are up to date.")
            return "done"
        if v["arrangements"]:
            a = v["arrangements"][0]
            out.append(f"You already have an arrangement: {rd.pounds(a['monthly_pence'])} a "
                       f"month for {a['months']} months.")  # fmt: skip
            return "done"
        asked = rd.months(self.text(req))
        if not asked:
            return self.ask("months", f"You have {rd.pounds(owed)} in arrears. Over how many "
                            "months would you like to pay it? We can spread it over up to 6 "
                            "months.", out)  # fmt: skip
        use = self.arrangement_months(asked)
        monthly = -(-owed // use)
        note = ("We can spread arrears over at most 6 months, so that's 6 months rather than "
                f"{asked}. " if use < asked else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To set up a payment arrangement for your {rd.pounds(owed)} arrears: "
            f"{rd.pounds(monthly)} a month for {use} months from 1 January 2027, on top of your "
            "usual instalments. While you keep to it, no final notice is sent. Shall I set it up?",
            [("set_up_arrangement", {"account_id": v["account_id"], "months": use,
                                     "monthly_pence": monthly})],
        )  # fmt: skip

    async def step_notice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["reminder_on"] or v["arrears_pence"] <= 0:
            out.append("No reminder has been sent on your account, and nothing is overdue.")
            return "done"
        final = rd.plus_days(v["reminder_on"], _seed.FINAL_NOTICE_DAYS)
        when = "follows" if final > self.today.isoformat() else "was due"
        out.append(
            f"A reminder for {rd.pounds(v['arrears_pence'])} was sent on "
            f"{rd.say_day(v['reminder_on'])}. If it isn't paid, a final notice {when} 7 days "
            f"after the reminder: on {rd.say_day(final)}. A payment arrangement over up to 6 "
            "months stops it — I can set one up if you'd like."
        )
        return "done"

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] == "closed":
            out.append(f"Your account closed on {rd.say_day(v['end_date'])}; the credit on it "
                       f"is {rd.pounds(v['credit_pence'])}.")  # fmt: skip
            return "done"
        balance, left = v["balance_pence"], v["instalments_left"]
        nxt = (f", the next on {v['dd_day'] and rd.ordinal(v['dd_day'])} January 2027"
               if left and v["dd_day"] else "")  # fmt: skip
        arrears = (f" There are also {rd.pounds(v['arrears_pence'])} of arrears overdue."
                   if v["arrears_pence"] else "")  # fmt: skip
        out.append(
            f"This year's bill is {rd.pounds(v['annual_pence'])}; {rd.pounds(v['paid_pence'])} "
            f"has been paid, so {rd.pounds(balance)} is left to pay: {left} instalment"
            f"{'s' if left != 1 else ''} of {rd.pounds(v['instalment_pence'])}{nxt}.{arrears}"
        )
        return "done"

    # -- occupancy and contacts ------------------------------------------------------------
    async def step_occupancy(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = "second_home" if re.search(r"\bsecond home|\bholiday home", text, re.I) else "empty"
        what = "your second home" if kind == "second_home" else "empty"
        said = self.dates_said(text, "past")
        if not said:
            return self.ask("since", f"Since what date has it been {what}?", out)
        since, band = said[0], int(v["band_charge_pence"])
        spd = next((d for d in v["discounts"] if d["end_date"] is None), None)
        back = (_seed.part_year(band, max(since, date.fromisoformat(spd["from_date"])),
                                _seed.YEAR_END, _seed.SPD_PERCENT) if spd else 0)  # fmt: skip
        anniversary = _seed.one_year_on(since)
        premium = (_seed.part_year(band, anniversary, _seed.YEAR_END)
                   if kind == "empty" and anniversary <= _seed.YEAR_END else 0)  # fmt: skip
        left = v["instalments_left"]
        each = self.spread(v["annual_pence"] + back + premium - v["paid_pence"], left)
        lines = [f"To record {v['property']['address']} as {what} since "
                 f"{rd.say_day(since.isoformat())}. "
                 f"{'Second homes' if kind == 'second_home' else 'Empty homes'} get no "
                 "discount"]  # fmt: skip
        if spd:
            lines.append(f", so your single person discount ends: {rd.pounds(back)} is added "
                         "back to this year's bill")  # fmt: skip
        if premium:
            lines.append(f". It has been empty for over a year, so a 100% premium is charged "
                         f"from {rd.say_day(max(anniversary, _seed.YEAR_START).isoformat())}: "
                         f"{rd.pounds(premium)} more this year")  # fmt: skip
        elif kind == "empty":
            lines.append(f". If it's still empty on {rd.say_day(anniversary.isoformat())}, a "
                         "100% premium applies from then")  # fmt: skip
        change = (f" Your {left} instalments left become {rd.pounds(each)} each."
                  if back or premium else " Your bill doesn't change for now.")  # fmt: skip
        return self.propose(
            req, out, "".join(lines) + "." + change + " Shall I record it?",
            [("report_occupancy", {"account_id": v["account_id"], "occupancy": kind,
                                   "since": since.isoformat(), "premium_pence": premium,
                                   "discount_removed_pence": back})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        said = []
        if rd.emails(text):
            args["email"] = rd.emails(text)[-1]
            said.append(f"your email to {args['email']}")
        if rd.phones(text):
            args["phone"] = rd.phones(text)[-1]
            said.append(f"your phone number to {args['phone']}")
        if not said:
            if re.search(r"\bphone|\bmobile|\bnumber", text, re.I):
                return self.ask("phone", "What's the new phone number?", out)
            return self.ask("email", "What's the new email address?", out)
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contacts", args)])  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the resident's words."""
        if intent == "discount":
            return (f"Done — the single person discount is on from {rd.say_day(r['from_date'])}: "
                    f"{r['reduction']} off; {r['balance']} left to pay this year, "
                    f"{r['instalments_left']} instalment(s) of {r['instalment']}.")  # fmt: skip
        if intent == "payplan":
            dd = f" on the {rd.ordinal(r['dd_day'])}" if r["dd_day"] else ""
            nxt = (f"; from April 2027, {r['next_year_instalments']} instalments"
                   if r["next_year_instalments"] else "")  # fmt: skip
            return (f"Done — you pay {r['instalments_left']} instalment(s) of {r['instalment']} "
                    f"left this year{dd}{nxt}.")  # fmt: skip
        if intent == "moveout":
            return (f"Done — your account ends on {rd.say_day(r['end_date'])}; final bill "
                    f"{r['final_bill']}.")  # fmt: skip
        if intent == "movein":
            return (f"Done — your account number is {r['account_id']}, from "
                    f"{rd.say_day(r['start_date'])}: {r['first_bill']} this year, "
                    f"{r['instalments']} instalments of {r['instalment']}.")  # fmt: skip
        if intent == "refund":
            return f"Done — {r['refunded']} has been refunded to your {r['paid_to']}."
        if intent == "arrears":
            return (f"Done — your arrangement is set up: {r['monthly']} a month for "
                    f"{r['months']} months from {rd.say_day(r['first_date'])}.")  # fmt: skip
        if intent == "occupancy":
            return (f"Done — recorded as {r['occupancy'].replace('_', ' ')} since "
                    f"{rd.say_day(r['since'])}; this year's bill is {r['annual']}, "
                    f"{r['instalments_left']} instalment(s) of {r['instalment']} "
                    "left.")  # fmt: skip
        return f"Done — your email is {r['email']} and your phone number is {r['phone']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
