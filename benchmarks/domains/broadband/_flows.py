"""The desk's flows: plans, engineer visits, compensation, routers, moves, cancelling, contacts."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.broadband import _read as rd
from benchmarks.domains.broadband import _seed


class Flows:
    """The flows; `CorrectBroadbandAgent` supplies the state, the calls and the questions."""

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

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The customer said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you said you didn't want it if "
                       "there was a charge, so I haven't booked or changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def downgrade_blocked(self, v: dict[str, Any]) -> bool:
        """A downgrade is only made outside the 18-month minimum term."""
        return self.today < date.fromisoformat(v["term_end"])

    def tell_wiring_charge(self) -> bool:
        """The £65.00 home-wiring charge is told before a visit is booked."""
        return True

    def lost_days(self, fault: dict[str, Any]) -> int:
        """Days of lost service: from the day after the report until the day it was fixed."""
        fixed, reported = fault["fixed_on"], fault["reported_on"]
        return (date.fromisoformat(fixed) - date.fromisoformat(reported)).days

    def etc_months(self, v: dict[str, Any], end: date) -> int:
        """Months of the minimum term left once the service ends (a part month is whole)."""
        return _seed.months_left(end, date.fromisoformat(v["term_end"]))

    def third_party_refused(self, message: str) -> bool:
        """Someone other than the account holder: nothing is told or changed."""
        return bool(rd.THIRD_PARTY.search(message))

    # -- plans -----------------------------------------------------------------------------
    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        wanted = rd.plans(self.text(req))
        if not wanted:
            return self.ask("plan", "Which plan would you like: Fibre 100 (£28.00 a month), "
                            "Fibre 500 (£38.00) or Fibre 900 (£48.00)?", out)  # fmt: skip
        plan, now = wanted[-1], v["plan"]
        name = _seed.PLAN_NAMES[plan]
        if plan == now:
            out.append(f"You're already on {name}, so there's nothing to change.")
            return "done"
        price, old = _seed.PLANS[plan], _seed.PLANS[now]
        if price < old and self.downgrade_blocked(v):
            out.append(f"I'm sorry — you're in your 18-month minimum term until "
                       f"{rd.say_date(v['term_end'])}, and a move to a cheaper plan can only be "
                       "made after it ends. Nothing has been changed.")  # fmt: skip
            return "done"
        how = "upgrade" if price > old else "move"
        return self.propose(
            req, out, f"To {how} you from {v['plan_name']} ({rd.pounds(old)} a month) to {name} "
            f"({rd.pounds(price)} a month) from your next bill date, "
            f"{rd.say_date(v['next_bill'])}. Shall I make the change?",
            [("change_plan", {"account_id": v["account_id"], "plan": plan,
                              "effective_date": v["next_bill"]})],
        )  # fmt: skip

    # -- engineer visits -------------------------------------------------------------------
    async def step_engineer(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if "fault" not in req:
            result, error = await self.call("run_line_test", account_id=v["account_id"])
            if error:
                out.append(f"I'm sorry — I couldn't run a line test: {error}. Nothing has been "
                           "booked.")  # fmt: skip
                return "done"
            req["fault"] = result
        fault, text = req["fault"], self.text(req)
        wiring = fault["location"] == "home_wiring"
        charge = _seed.WIRING_PENCE if wiring else 0
        told = self.tell_wiring_charge() if wiring else True
        what = "An engineer visit for a fault in your home's own wiring"
        if wiring and told and self.free_only(req, charge, what, out):
            return "done"
        earliest = _seed.add_working_days(self.today, _seed.VISIT_MIN_DAYS)
        days = rd.dates(text, self.today)
        if not days:
            first = rd.say_day(earliest.isoformat())
            return self.ask("visit_date", "Which weekday would you like the engineer to come? "
                            f"The earliest is {first}.", out)  # fmt: skip
        day = days[-1]
        if not _seed.working_day(day) or day < earliest:
            return self.ask("visit_date", "Engineers visit on working days (Monday to Friday), "
                            "at least 2 working days from today, so the earliest is "
                            f"{rd.say_day(earliest.isoformat())}. Which day would suit you?",
                            out)  # fmt: skip
        slot = rd.slot(text)
        if slot is None:
            return self.ask("slot", "Would you like the morning slot (8am to 1pm) or the "
                            "afternoon (1pm to 6pm)?", out)  # fmt: skip
        if not wiring:
            cost = "Our line test shows the fault is on our network, so the visit is free."
        elif told:
            cost = ("Our line test shows the fault is in your home's own wiring, not on our "
                    f"network, so the visit costs {rd.pounds(charge)}, added to your next bill.")
        else:
            cost = "The engineer will find and fix the fault."
        return self.propose(
            req, out, f"To book an engineer visit on {rd.say_day(day.isoformat())}, "
            f"{_seed.SLOTS[slot]}. {cost} Someone over 18 needs to be home. Shall I book it?",
            [("book_engineer", {"account_id": v["account_id"], "fault_id": fault["fault_id"],
                                "visit_date": day.isoformat(), "slot": slot,
                                "charge_pence": charge})],
        )  # fmt: skip

    # -- compensation ----------------------------------------------------------------------
    async def step_compensation(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        claimed = {c["fault_id"] for c in v["credits"]}
        fixed = [f for f in v["faults"] if f["fixed_on"] and f["fault_id"] not in claimed]
        open_ = [f for f in v["faults"] if not f["fixed_on"]]
        if not fixed:
            if open_:
                out.append(f"The fault you reported on {rd.say_day(open_[-1]['reported_on'])} "
                           "is still open. Compensation is credited once it's fixed: £9.33 for "
                           "each day from the day after it was reported until the day it's "
                           "fixed. Nothing has been credited yet.")  # fmt: skip
            else:
                out.append("I can't see a fixed fault on your account that hasn't already had "
                           "its compensation credited, so there's nothing to claim.")  # fmt: skip
            return "done"
        said = {d.isoformat() for d in rd.past_dates(self.text(req), self.today)}
        fault = next((f for f in fixed if said & {f["reported_on"], f["fixed_on"]}), fixed[-1])
        days = self.lost_days(fault)
        amount = days * _seed.COMPENSATION_PENCE
        return self.propose(
            req, out, f"The fault you reported on {rd.say_day(fault['reported_on'])} was fixed "
            f"on {rd.say_day(fault['fixed_on'])}: that's {days} day{'s' * (days != 1)} without "
            f"service, counted from the day after it was reported, at £9.33 a day: "
            f"{rd.pounds(amount)}, credited to your next bill on {rd.say_date(v['next_bill'])}. "
            "Shall I claim it?",
            [("claim_compensation", {"account_id": v["account_id"],
                                     "fault_id": fault["fault_id"], "days": days,
                                     "amount_pence": amount})],
        )  # fmt: skip

    # -- routers ---------------------------------------------------------------------------
    async def step_router(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        start = date.fromisoformat(v["contract_start"])
        free_until = _seed.add_months(start, _seed.ROUTER_FREE_MONTHS)
        charge = 0 if self.today < free_until else _seed.ROUTER_PENCE
        delivery = _seed.add_working_days(self.today, _seed.ROUTER_DAYS).isoformat()
        if charge:
            cost = (f"Your contract started on {rd.say_date(v['contract_start'])}, more than 24 "
                    f"months ago, so the router costs {rd.pounds(charge)}, added to your next "
                    "bill.")  # fmt: skip
            if self.free_only(req, charge, "A replacement router", out):
                return "done"
        else:
            cost = "It's free, as your contract started less than 24 months ago."
        return self.propose(
            req, out, f"To send a replacement router to {v['address']}, arriving by "
            f"{rd.say_day(delivery)} (3 working days). {cost} Shall I order it?",
            [("order_router", {"account_id": v["account_id"], "charge_pence": charge})],
        )  # fmt: skip

    # -- moving home -----------------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        where = rd.address(text)
        if where is None:
            return self.ask("new_address", "What's the new address, with its postcode?", out)
        days = rd.dates(text, self.today)
        if not days:
            return self.ask("move_date", "What date are you moving? We need 10 working days' "
                            "notice.", out)  # fmt: skip
        day = days[-1]
        earliest = _seed.add_working_days(self.today, _seed.MOVE_NOTICE_DAYS)
        if day < earliest:
            out.append(f"A home move needs 10 working days' notice, so the earliest we can move "
                       f"your service is {rd.say_day(earliest.isoformat())}. I haven't changed "
                       "anything; if a date from then suits, just tell me.")  # fmt: skip
            return "done"
        if req.get("new_term") is None:
            said = " ".join([text, *self.s.get("said", [])])
            if rd.NEW_TERM_NO.search(said):
                req["new_term"] = False
            elif rd.NEW_TERM_YES.search(said):
                req["new_term"] = True
        if req.get("new_term") is None:
            return self.ask("new_term", "Moving home has a £50.00 fee, waived if you sign a new "
                            "18-month minimum term from the move date. Would you like to sign "
                            "a new 18-month term?", out)  # fmt: skip
        term = bool(req["new_term"])
        fee = 0 if term else _seed.MOVE_FEE_PENCE
        how = ("with a new 18-month minimum term from that day, so there's no home-move fee"
               if term else f"keeping your current term, with the {rd.pounds(fee)} home-move "
               "fee on your next bill")  # fmt: skip
        return self.propose(
            req, out, f"To move your broadband to {where} on {rd.say_day(day.isoformat())}, "
            f"{how}. Shall I go ahead?",
            [("move_service", {"account_id": v["account_id"], "new_address": where,
                               "move_date": day.isoformat(), "new_term": term,
                               "fee_pence": fee})],
        )  # fmt: skip

    # -- cancelling ------------------------------------------------------------------------
    def leaving_terms(self, v: dict[str, Any]) -> tuple[str, int, str]:
        """The end date with 30 days' notice, the early termination charge, and why."""
        end = date.fromordinal(self.today.toordinal() + _seed.NOTICE_DAYS)
        start = date.fromisoformat(v["contract_start"])
        if (self.today - start).days < _seed.COOLING_OFF_DAYS:
            return end.isoformat(), 0, ("you're within the 14-day cooling-off period, so "
                                        "there's no early termination charge")  # fmt: skip
        months = self.etc_months(v, end)
        if not months:
            return end.isoformat(), 0, (f"your minimum term ended on {rd.say_date(v['term_end'])}"
                                        ", so there's no early termination charge")  # fmt: skip
        charge = months * int(v["monthly_pence"])
        return end.isoformat(), charge, (
            f"you're in your minimum term until {rd.say_date(v['term_end'])}: {months} "
            f"month{'s' * (months != 1)} left after the service ends, at "
            f"{rd.pounds(v['monthly_pence'])} a month, so there's an early termination charge "
            f"of {rd.pounds(charge)} on your final bill")  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        end, charge, why = self.leaving_terms(v)
        if self.free_only(req, charge, "Cancelling now", out):
            return "done"
        return self.propose(
            req, out, f"To cancel your broadband with 30 days' notice: the service ends on "
            f"{rd.say_date(end)}, and {why}. Shall I cancel it?",
            [("cancel_service", {"account_id": v["account_id"], "end_date": end,
                                 "charge_pence": charge})],
        )  # fmt: skip

    # -- contact details and questions -----------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        email, phone = rd.emails(text), rd.mobiles(text)
        if not email and not phone:
            if re.search(r"\be-?mail", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new mobile number?", out)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        parts = []
        if email:
            args["email"] = email[-1]
            parts.append(f"your email address to {email[-1]}")
        if phone:
            args["phone"] = phone[-1]
            parts.append(f"your mobile number to {phone[-1]}")
        return self.propose(req, out, f"To change {' and '.join(parts)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        end, charge, why = self.leaving_terms(v)
        out.append(f"You're on {v['plan_name']} at {rd.pounds(v['monthly_pence'])} a month, and "
                   f"your 18-month minimum term ends on {rd.say_date(v['term_end'])}. If you "
                   f"gave notice today, your service would end on {rd.say_date(end)}, and {why}."
                   " I haven't changed anything.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if tool_name == "change_plan":
            return (f"Done — you'll be on {r['plan']} ({r['monthly']} a month) from "
                    f"{rd.say_date(r['effective'])}.")  # fmt: skip
        if tool_name == "book_engineer":
            return (f"Done — an engineer is booked for {rd.say_day(r['visit_date'])}, "
                    f"{_seed.SLOTS[r['slot']]}; charge {r['charge']}.")  # fmt: skip
        if tool_name == "claim_compensation":
            return (f"Done — {r['credited']} for {r['days']} days is credited to your bill of "
                    f"{rd.say_date(r['bill_date'])}.")  # fmt: skip
        if tool_name == "order_router":
            return (f"Done — your replacement router is on its way to {r['address']}, arriving "
                    f"by {rd.say_day(r['delivery_date'])}; charge {r['charge']}.")  # fmt: skip
        if tool_name == "move_service":
            return (f"Done — your broadband moves to {r['new_address']} on "
                    f"{rd.say_day(r['move_date'])}; move fee {r['fee']}.")  # fmt: skip
        if tool_name == "cancel_service":
            return (f"Done — your broadband is cancelled and ends on {rd.say_date(r['end_date'])}"
                    f"; early termination charge {r['charge']}.")  # fmt: skip
        return f"Done — your email address is {r['email']} and your mobile is {r['phone']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
