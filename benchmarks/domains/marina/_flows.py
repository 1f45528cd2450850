"""The desk's flows: visitors, berths, notice, lifts, power, gate, crew, insurance, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.marina import _read as rd
from benchmarks.domains.marina import _seed
from benchmarks.domains.marina._env import first_of_next_month, months_between

SIZES = sorted(_seed.BERTH_ANNUAL)
FULL_NAME = re.compile(r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){1,2}")


def metres(cm: int) -> str:
    return f"{cm / 100:.1f} m"


def lift_days_after(day: date, count: int = 2) -> list[str]:
    """The next lift days (Tuesdays and Thursdays) on or after `day`."""
    out = []
    while len(out) < count:
        if day.weekday() in _seed.LIFT_WEEKDAYS:
            out.append(rd.say_day(day.isoformat()))
        day += timedelta(days=1)
    return out


class Flows:
    """The flows; `CorrectMarinaAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", holder_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def boat(v: dict[str, Any], text: str = "") -> dict[str, Any]:
        named = [b for b in v["boats"] if re.search(rf"\b{b['name']}\b", text, re.I)]
        return (named or v["boats"])[0]

    @staticmethod
    def contract(v: dict[str, Any]) -> dict[str, Any] | None:
        return v["contracts"][0] if v["contracts"] else None

    def no_contract(self, out: list[str]) -> str:
        out.append("I can't see an annual berth contract on your account, so there's nothing to "
                   "change there. Nothing has been changed.")  # fmt: skip
        return "done"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def visit_nights(self, boat: dict[str, Any], arrival: date, departure: date) -> list[int]:
        """Each night's visitor rate, by the boat's length band and that night's season."""
        nights, night = [], arrival
        while night < departure:
            nights.append(_seed.night_rate(boat["length_cm"], night))
            night += timedelta(days=1)
        return nights

    def berth_difference(self, c: dict[str, Any], size: int, months: int) -> int:
        """The pro-rata difference for the whole months left of the contract year."""
        return (_seed.BERTH_ANNUAL[size] - c["annual_pence"]) * months // 12

    def insurance_problem(self, boat: dict[str, Any], day: date) -> str | None:
        """Why the boat's insurance won't be in date on `day`, or None."""
        if boat["insurance_expiry"] < day.isoformat():
            return (f"{boat['name']}'s insurance on record ({boat['insurer']}) expires on "
                    f"{rd.say_full(boat['insurance_expiry'])}, before "
                    f"{rd.say_day(day.isoformat())}")  # fmt: skip
        return None

    def crew_cap_reached(self, boat: dict[str, Any]) -> bool:
        return len(boat["crew_passes"]) >= _seed.CREW_PASS_CAP

    # -- visitor berths --------------------------------------------------------------------
    async def step_visit(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        boat = self.boat(v, text)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if len(days) < 2 or days[1] <= days[0]:
            return self.ask("dates", "Which day will you arrive, and which day will you leave?",
                            out)  # fmt: skip
        arrival, departure = days[0], days[1]
        if boat["length_cm"] > _seed.VISITOR_MAX_CM:
            out.append(f"I'm sorry — visitor berths take boats up to 15 m, and {boat['name']} is "
                       f"{metres(boat['length_cm'])}. I haven't booked anything.")  # fmt: skip
            return "done"
        found, error = await self.call(
            "check_visitor_berths", holder_id=v["holder_id"], boat_id=boat["boat_id"],
            arrival=arrival.isoformat(), departure=departure.isoformat())  # fmt: skip
        if error:
            out.append(f"I'm sorry — the system couldn't check that: {error}. Nothing is booked.")
            return "done"
        fits = [p for p in found["pontoons"] if p["fits"]]
        free = [p for p in fits if not p["full_nights"]]
        if not fits:
            out.append(f"I'm sorry — {boat['name']} ({metres(boat['length_cm'])} long, "
                       f"{metres(boat['draught_cm'])} draught) is too big for our visitor "
                       "pontoons. I haven't booked anything.")  # fmt: skip
            return "done"
        if not free:
            full = sorted({n for p in fits for n in p["full_nights"]})
            out.append(f"I'm sorry — every visitor berth that takes {boat['name']} is taken on "
                       f"the night of {', '.join(rd.say_day(n) for n in full)}, so I can't book "
                       f"{rd.say_day(arrival.isoformat())} to "
                       f"{rd.say_day(departure.isoformat())}. I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        rates = self.visit_nights(boat, arrival, departure)
        price = sum(rates)
        parts = [f"{rates.count(r)} night{'s' if rates.count(r) > 1 else ''} at {rd.pounds(r)}"
                 for r in sorted(set(rates))]  # fmt: skip
        peak = (" Nights from 1 June to 31 August are peak-season nights."
                if any(_seed.season(arrival + timedelta(days=i)) == "peak"
                       for i in range(len(rates))) else "")  # fmt: skip
        return self.propose(
            req, out,
            f"To book a visitor berth on pontoon {free[0]['pontoon']} for {boat['name']} "
            f"({metres(boat['length_cm'])}) from {rd.say_day(arrival.isoformat())} to "
            f"{rd.say_day(departure.isoformat())} ({len(rates)} nights): "
            f"{' and '.join(parts)}, {rd.pounds(price)} in all, paid now in full from your card "
            f"ending {v['card_last4']}.{peak} Shall I book it?",
            [("book_visitor_berth", {"holder_id": v["holder_id"], "boat_id": boat["boat_id"],
                                     "pontoon": free[0]["pontoon"],
                                     "arrival": arrival.isoformat(),
                                     "departure": departure.isoformat(), "price_pence": price})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.bookings(text)
        visits = [b for b in v["visits"] if b["booking_id"] in ids] or v["visits"]
        if not visits:
            out.append("I can't find a visitor booking on your account to cancel.")
            return "done"
        b = visits[0]
        boat = self.boat(v)
        if b["days_to_arrival"] >= _seed.VISITOR_FREE_CANCEL_DAYS:
            refund = b["price_pence"]
            why = "in full, as it's 7 or more days before arrival"
        else:
            first = self.visit_nights(
                boat,
                date.fromisoformat(b["arrival"]),
                date.fromisoformat(b["arrival"]) + timedelta(days=1),
            )[0]
            refund = b["price_pence"] - first
            why = (f"less the first night ({rd.pounds(first)}), as it's less than 7 days before "
                   "arrival")  # fmt: skip
        return self.propose(
            req, out,
            f"To cancel visitor booking {b['booking_id']} ({rd.say_day(b['arrival'])} to "
            f"{rd.say_day(b['departure'])}, {rd.pounds(b['price_pence'])} paid): "
            f"{rd.pounds(refund)} goes back to your card ending {v['card_last4']} — {why}. "
            "Shall I cancel it?",
            [("cancel_visitor_berth", {"holder_id": v["holder_id"],
                                       "booking_id": b["booking_id"], "refund_pence": refund})],
        )  # fmt: skip

    # -- annual berth contracts ------------------------------------------------------------
    def wanted_size(self, c: dict[str, Any], text: str) -> int | None:
        size = rd.berth_size(text)
        if size is not None:
            return size
        now = SIZES.index(c["size_m"])
        if re.search(r"\b(?:bigger|larger|longer|upsize|up to)\b", text, re.I):
            return SIZES[min(now + 1, len(SIZES) - 1)]
        if re.search(r"\b(?:smaller|shorter|cheaper|downsize|down to)\b", text, re.I):
            return SIZES[max(now - 1, 0)]
        return None

    async def step_berth(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        c = self.contract(v)
        if c is None:
            return self.no_contract(out)
        boat = next(b for b in v["boats"] if b["boat_id"] == c["boat_id"])
        size = self.wanted_size(c, self.text(req))
        if size is None:
            return self.ask("berth_size", "Which berth size would you like: 8, 10, 12 or 15 "
                            "metres?", out)  # fmt: skip
        if size == c["size_m"]:
            out.append(f"Your berth {c['berth_id']} is already a {size} m berth, so there's "
                       "nothing to change.")  # fmt: skip
            return "done"
        if boat["length_cm"] > size * 100:
            out.append(f"I'm sorry — {boat['name']} is {metres(boat['length_cm'])} long, so she "
                       f"won't fit a {size} m berth. Your berth stays as it is; nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        move_day = first_of_next_month(self.today)
        why = self.insurance_problem(boat, move_day)
        if why:
            out.append(f"I'm sorry — {why}, and a berth can only change with insurance in date. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        months = months_between(move_day, date.fromisoformat(c["ends"]))
        new_annual = _seed.BERTH_ANNUAL[size]
        if c["payment"] == "monthly":
            charge = 0
            money = (f"Your monthly payment changes from {rd.pounds(c['monthly_pence'])} to "
                     f"{rd.pounds(new_annual // 12)} from {rd.say_full(move_day.isoformat())}; "
                     "nothing is charged now.")  # fmt: skip
        else:
            charge = self.berth_difference(c, size, months)
            sign = "charged to" if charge > 0 else "refunded to"
            money = (f"You paid for the year, so the difference for the {months} months left of "
                     f"the contract year is {rd.pounds(abs(charge))}, {sign} your card ending "
                     f"{v['card_last4']}.")  # fmt: skip
        return self.propose(
            req, out,
            f"To move you from your {c['size_m']} m berth {c['berth_id']} to a {size} m berth "
            f"from {rd.say_full(move_day.isoformat())} ({rd.pounds(new_annual)} a year). "
            f"{money} Shall I make the change?",
            [("change_berth", {"holder_id": v["holder_id"], "contract_id": c["contract_id"],
                               "size_m": size, "charge_pence": charge})],
        )  # fmt: skip

    async def step_notice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        c = self.contract(v)
        if c is None:
            return self.no_contract(out)
        end = first_of_next_month(first_of_next_month(self.today)) - timedelta(days=1)
        if c["payment"] == "annual":
            months = months_between(end + timedelta(days=1), date.fromisoformat(c["ends"]))
            refund = c["annual_pence"] // 12 * months
            money = (f"You paid for the year, so the {months} whole months after that, "
                     f"{rd.pounds(refund)}, are refunded to your card ending "
                     f"{v['card_last4']}.")  # fmt: skip
        else:
            refund = 0
            money = (f"Your monthly payments of {rd.pounds(c['monthly_pence'])} continue until "
                     f"then and stop after {end.strftime('%B')}; there's no refund.")  # fmt: skip
        return self.propose(
            req, out,
            f"Notice is one full calendar month, so your contract for berth {c['berth_id']} "
            f"would end on {rd.say_full(end.isoformat())}. {money} Shall I record your "
            "notice?",
            [("give_notice", {"holder_id": v["holder_id"], "contract_id": c["contract_id"],
                              "end_date": end.isoformat(), "refund_pence": refund})],
        )  # fmt: skip

    # -- lift-out and storage ashore -------------------------------------------------------
    def lift_day(self, req: dict[str, Any], text: str, out: list[str], what: str,
                 skip: str = "") -> date | str:  # fmt: skip
        """The lift day asked for, or the question status when there isn't a valid one."""
        days = [d for d in rd.dates(text, self.today) if d > self.today and d.isoformat() != skip]
        if not days:
            return self.ask(what, "Which lift day would you like? We lift on Tuesdays and "
                            "Thursdays.", out)  # fmt: skip
        day = days[-1]
        if day.weekday() not in _seed.LIFT_WEEKDAYS:
            nearest = " or ".join(lift_days_after(day))
            return self.ask(what, f"{rd.say_day(day.isoformat())} isn't a lift day — we lift on "
                            f"Tuesdays and Thursdays. Would {nearest} suit?", out)  # fmt: skip
        return day

    async def step_lift(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        boat = self.boat(v, text)
        day = self.lift_day(req, text, out, "lift_day")
        if isinstance(day, str):
            return day
        weeks = rd.weeks(text)
        if weeks is None or not 1 <= weeks <= 26:
            return self.ask("storage_weeks", "How many weeks would you like her ashore? "
                            "Storage is 1 to 26 weeks.", out)  # fmt: skip
        why = self.insurance_problem(boat, day)
        if why:
            out.append(f"I'm sorry — {why}, and we can only lift a boat with insurance in date "
                       "on the lift day. I haven't booked anything; once the new certificate is "
                       "on record we'd be glad to.")  # fmt: skip
            return "done"
        lift = _seed.LIFT_FIXED_PENCE + boat["length_cm"] * _seed.LIFT_PER_METRE_PENCE // 100
        store = weeks * boat["length_cm"] * _seed.STORAGE_PER_METRE_WEEK_PENCE // 100
        return self.propose(
            req, out,
            f"To lift {boat['name']} ({metres(boat['length_cm'])}) out on "
            f"{rd.say_day(day.isoformat())} with {weeks} weeks' storage ashore: the lift is "
            f"{rd.pounds(lift)} (£120.00 plus £10.00 a metre) and storage {rd.pounds(store)} "
            f"(£3.00 a metre a week), {rd.pounds(lift + store)} in all, paid on the lift day. "
            "Shall I book it?",
            [("book_lift", {"holder_id": v["holder_id"], "boat_id": boat["boat_id"],
                            "lift_date": day.isoformat(), "storage_weeks": weeks,
                            "price_pence": lift + store})],
        )  # fmt: skip

    async def step_liftmove(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.lifts(text)
        booked = [x for x in v["lifts"] if x["lift_id"] in ids] or v["lifts"]
        if not booked:
            out.append("I can't find a booked lift-out on your account.")
            return "done"
        lift = booked[0]
        day = self.lift_day(req, text, out, "new_lift_day", skip=lift["lift_date"])
        if isinstance(day, str):
            return day
        boat = next(b for b in v["boats"] if b["boat_id"] == lift["boat_id"])
        why = self.insurance_problem(boat, day)
        if why:
            out.append(f"I'm sorry — {why}, and we can only lift a boat with insurance in date. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        late = lift["days_to_lift"] < _seed.LIFT_FREE_CHANGE_DAYS
        fee = _seed.LIFT_CHANGE_FEE_PENCE if late else 0
        if self.free_only(req, fee, "Moving the lift less than 7 days before it", out):
            return "done"
        charge = (f"Your lift is less than 7 days away, so there's a {rd.pounds(fee)} change "
                  f"fee, taken from your card ending {v['card_last4']}." if fee else
                  "There's no charge, as it's 7 or more days away.")  # fmt: skip
        return self.propose(
            req, out,
            f"To move lift-out {lift['lift_id']} from {rd.say_day(lift['lift_date'])} to "
            f"{rd.say_day(day.isoformat())}, same price and storage. {charge} Shall I move it?",
            [("move_lift", {"holder_id": v["holder_id"], "lift_id": lift["lift_id"],
                            "lift_date": day.isoformat(), "fee_pence": fee})],
        )  # fmt: skip

    # -- electricity, gate code, crew passes -----------------------------------------------
    async def step_power(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        c = self.contract(v)
        if c is None:
            out.append("Electricity on visitor berths is included in the nightly fee, so there's "
                       "no meter to top up. Nothing has been changed.")  # fmt: skip
            return "done"
        boat = next(b for b in v["boats"] if b["boat_id"] == c["boat_id"])
        said = rd.amounts(self.text(req))
        amount = said[-1] if said else None
        if (
            amount is None
            or amount % 100
            or not (_seed.TOPUP_MIN_PENCE <= amount <= _seed.TOPUP_MAX_PENCE)
        ):
            return self.ask("amount", "How much would you like to add? Top-ups are £10 to £100, "
                            "in whole pounds.", out)  # fmt: skip
        return self.propose(
            req, out,
            f"To add {rd.pounds(amount)} of electricity to the pedestal on berth "
            f"{c['berth_id']} (credit now {rd.pounds(boat['meter_pence'])}), charged to your "
            f"card ending {v['card_last4']}. Shall I top it up?",
            [("top_up_electricity", {"holder_id": v["holder_id"], "boat_id": boat["boat_id"],
                                     "amount_pence": amount})],
        )  # fmt: skip

    async def step_gate(self, req: dict[str, Any], out: list[str]) -> str:
        """The code is never said: it is texted to the mobile on record."""
        v = await self.refresh()
        result, error = await self.call("send_gate_code", holder_id=v["holder_id"])
        if error:
            out.append(f"I'm sorry — the system couldn't send the code: {error}.")
            return "done"
        out.append(f"I've texted this month's gate code to your mobile ending "
                   f"{result['sent_to'][-3:]}. For security we never read gate codes out in a "
                   "chat.")  # fmt: skip
        return "done"

    def crew_name(self, req: dict[str, Any], v: dict[str, Any], boat: dict[str, Any]) -> str:
        exclude = {boat["name"].lower()}
        name = rd.person(self.text(req), exclude)
        if name:
            return name
        for chunk in reversed(req["chunks"]):
            m = FULL_NAME.fullmatch(chunk.strip().rstrip(".!"))
            if m and boat["name"].lower() not in chunk.lower():
                return m.group(0)
        return ""

    async def step_crew(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        boat = self.boat(v, self.text(req))
        if self.crew_cap_reached(boat):
            names = ", ".join(p["name"] for p in boat["crew_passes"])
            out.append(f"I'm sorry — {boat['name']} already has the most crew passes we issue, "
                       f"four ({names}). One would need to be cancelled at the office first; "
                       "I haven't added a pass.")  # fmt: skip
            return "done"
        name = self.crew_name(req, v, boat)
        if not name:
            return self.ask("crew_name", "What's the full name of the person the pass is for?",
                            out)  # fmt: skip
        return self.propose(
            req, out,
            f"To issue a crew pass for {name} on {boat['name']} (free; "
            f"{len(boat['crew_passes']) + 1} of the 4 a boat can have). Shall I add it?",
            [("add_crew_pass", {"holder_id": v["holder_id"], "boat_id": boat["boat_id"],
                                "name": name})],
        )  # fmt: skip

    # -- insurance and contacts ------------------------------------------------------------
    async def step_insurance(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        boat = self.boat(v, text)
        insurer = rd.insurer(text)
        if insurer is None and self.s["repeat"][0] == "insurer":
            # the answer to "who is the insurer?" is the name, however it is written
            insurer = req["chunks"][-1].strip().rstrip(".")
        if not insurer:
            return self.ask("insurer", "Who is the insurer on the new certificate?", out)
        policy = [p for p in rd.policy_numbers(text) if p != boat["policy_no"]]
        if not policy:
            return self.ask("policy_number", "And the policy number on the certificate?", out)
        expiry = rd.dates(text, self.today, all_said=True)
        if not expiry:
            return self.ask("expiry", "And the date the certificate expires?", out)
        return self.propose(
            req, out,
            f"To record {boat['name']}'s insurance: {insurer}, policy {policy[-1]}, valid until "
            f"{rd.say_full(expiry[-1].isoformat())}. Shall I record it?",
            [("update_insurance", {"holder_id": v["holder_id"], "boat_id": boat["boat_id"],
                                   "insurer": insurer, "policy_no": policy[-1],
                                   "expiry": expiry[-1].isoformat()})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, addresses = rd.phones(text), rd.emails(text)
        if not numbers and not addresses:
            return self.ask("phone", "What's the new mobile number or email address?", out)
        args: dict[str, Any] = {"holder_id": v["holder_id"]}
        said = []
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your mobile number to {numbers[-1]}")
        if addresses:
            args["email"] = addresses[-1]
            said.append(f"your email address to {addresses[-1]}")
        return self.propose(
            req,
            out,
            f"To change {' and '.join(said)}. Shall I update it?",
            [("update_contacts", args)],
        )

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh() if self.s["account"] else {"contracts": []}
        text = self.text(req)
        said = []
        if re.search(r"\bfuel\b", text, re.I):
            day = next(iter(rd.dates(text, self.today)), self.today)
            hours, error = await self.call("fuel_berth_hours", day=day.isoformat())
            if error:
                said.append(f"I couldn't look up the fuel berth's hours: {error}.")
            elif hours["open"]:
                said.append(f"On {rd.say_day(day.isoformat())} the fuel berth is open from "
                            f"{hours['opens']} to {hours['closes']}.")  # fmt: skip
            else:
                said.append(f"The fuel berth is closed on {rd.say_day(day.isoformat())}.")
        c = self.contract(v)
        if c is not None and (not said or re.search(r"\bcontract|\bpay", text, re.I)):
            pay = (f"you pay {rd.pounds(c['monthly_pence'])} a month by direct debit"
                   if c["payment"] == "monthly" else
                   f"you paid {rd.pounds(c['annual_pence'])} for the year")  # fmt: skip
            said.append(
                f"Your contract for the {c['size_m']} m berth {c['berth_id']} runs from "
                f"{rd.say_full(c['starts'])} to {rd.say_full(c['ends'])}, and {pay}."
            )
        if not said:
            said.append("I can't see an annual berth contract on your account.")
        out.append(" ".join(said))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the customer's words."""
        if intent == "visit":
            return (f"Done — visitor booking {r['booking_id']} on pontoon {r['pontoon']}, "
                    f"{rd.say_day(r['arrival'])} to {rd.say_day(r['departure'])}; {r['paid']} "
                    f"taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — booking {r['booking_id']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "berth":
            money = (
                f"; {r['charged']} charged"
                if r["charged"] != "£0.00"
                else f"; {r['refunded']} refunded"
                if r["refunded"] != "£0.00"
                else ""
            )
            monthly = f"; your monthly payment is now {r['monthly']}" if r["monthly"] else ""
            return (f"Done — from {rd.say_full(r['from'])} your berth is {r['berth_id']} "
                    f"({r['size_m']} m){money}{monthly}.")  # fmt: skip
        if intent == "notice":
            return (f"Done — your notice is recorded; the contract ends on "
                    f"{rd.say_full(r['ends'])}; {r['refunded']} refunded.")  # fmt: skip
        if intent == "lift":
            return (f"Done — lift-out {r['lift_id']} for {r['boat']} is booked on "
                    f"{rd.say_day(r['lift_date'])} with {r['storage_weeks']} weeks ashore, "
                    f"{r['price']} payable on the day.")  # fmt: skip
        if intent == "liftmove":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return f"Done — lift-out {r['lift_id']} is now on {rd.say_day(r['lift_date'])}{fee}."
        if intent == "power":
            return (f"Done — {r['added']} added; the pedestal's credit is now {r['credit']}, "
                    f"charged to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "crew":
            return (f"Done — a crew pass for {r['name']} is issued on {r['boat']} "
                    f"({r['active_passes']} active).")  # fmt: skip
        if intent == "insurance":
            return (f"Done — {r['boat']}'s insurance is on record: {r['insurer']}, policy "
                    f"{r['policy_no']}, valid until {rd.say_full(r['expiry'])}.")  # fmt: skip
        return f"Done — your mobile number is {r['phone']} and your email is {r['email']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
