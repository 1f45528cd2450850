"""The desk's flows: book, change dates or drop-off, cancel, extras, drivers, look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.campervan import _read as rd
from benchmarks.domains.campervan import _seed

EXTRA_WORDS = (("awning", r"\bawning"), ("bike_rack", r"\bbike|\bcycle"),
               ("outdoor_kit", r"\boutdoor kit|\btable|\bchairs"))  # fmt: skip
MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december"]  # fmt: skip


def days_of(b: dict[str, Any]) -> int:
    return (date.fromisoformat(b["dropoff_date"]) - date.fromisoformat(b["pickup_date"])).days


def first_name(name: str) -> str:
    return name.split()[0]


class Flows:
    """The flows; `CorrectCampervanAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    env: Any

    # -- supplied by the agent -------------------------------------------------------------
    @property
    def now(self) -> datetime:
        clock = getattr(self.env, "now", None)
        return clock() if callable(clock) else _seed.NOW

    @property
    def today(self) -> date:
        return self.now.date()

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: list[str]) -> str:
        raise NotImplementedError

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[tuple[str, dict[str, Any]]]) -> str:  # fmt: skip
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------
    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def latest_dates(self, req: dict[str, Any]) -> list[date]:
        """Future days of the latest message that names any: a later one reworks an earlier."""
        for chunk in reversed(req["chunks"]):
            found = [d for d in rd.dates(chunk, self.today) if d > self.today]
            if found:
                return found
        return []

    def said_date(self, req: dict[str, Any], slot: str) -> date | None:
        """The first day in the answer to the desk's question `slot`, if it was asked."""
        days = rd.dates(req["answers"].get(slot, ""), self.today, all_said=True)
        return days[0] if days else None

    async def booking_for(self, req: dict[str, Any], out: list[str],
                          v: dict[str, Any] | None = None) -> dict[str, Any] | str:  # fmt: skip
        """The customer's booking meant, or the step's status when there is none to act on."""
        v = v or await self.refresh()
        text = self.text(req)
        refs = rd.booking_refs(text)
        if not v["bookings"]:
            out.append("I can't see any upcoming bookings on your account.")
            return "done"
        found = [b for b in v["bookings"] if b["booking_ref"] in refs]
        if refs and not found:
            out.append(f"Booking {refs[0]} isn't one of the bookings on your account, so I "
                       "can't look at it or change it here.")  # fmt: skip
            return "done"
        if not found:
            said = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            found = [b for b in v["bookings"] if {b["pickup_date"], b["dropoff_date"]} & said]
        if not found:
            months = {
                i + 1 for i, m in enumerate(MONTH_NAMES) if re.search(rf"\b{m}\b", text, re.I)
            }
            found = [b for b in v["bookings"] if int(b["pickup_date"][5:7]) in months]
        if not found and len(v["bookings"]) == 1:
            found = v["bookings"]
        if len(found) != 1:
            return self.ask("booking_ref", "Which booking is it? The reference starts VB and is "
                            "on your confirmation email.", out)  # fmt: skip
        return dict(found[0])

    def say_booking(self, b: dict[str, Any]) -> str:
        return (f"booking {b['booking_ref']} ({rd.say_size(b['van_size'])}, "
                f"{rd.say_day(b['pickup_date'])} to {rd.say_day(b['dropoff_date'])})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The customer said to go ahead only if it's free: a fee ends it, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(
                f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                "there was a charge, so I've left your booking exactly as it is."
            )
            return True
        return False

    def amend_fee(self, b: dict[str, Any]) -> int:
        return _seed.AMEND_FEE_PENCE if b["days_to_pickup"] < _seed.AMEND_FREE_DAYS else 0

    def say_fee(self, fee: int, card: str) -> str:
        if fee:
            return (
                f"Pick-up is less than {_seed.AMEND_FREE_DAYS} days away, so there's a "
                f"{rd.pounds(fee)} amendment fee, taken now from your card ending {card}."
            )
        return f"There's no amendment fee, as pick-up is {_seed.AMEND_FREE_DAYS} or more days away."

    async def trip_closed_or_full(self, trip: dict[str, Any], exclude: str | None) -> str | None:
        """Why the van can't go on those days (a closed depot, no van free), or None."""
        result, error = await self.call("check_availability", exclude_booking=exclude, **trip)
        if error:
            return str(error)
        if result["closed"]:
            return re.sub(
                r"\b\d{4}-\d\d-\d\d\b", lambda m: rd.say_day(m.group(0)), str(result["closed"][0])
            )
        if result["vans_free"] < 1:
            return (f"there's no {rd.say_size(trip['van_size'])} van free at "
                    f"{rd.say_depot(trip['pickup_depot'])} for those days")  # fmt: skip
        return None

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def season_days(self, size: int, pickup: date, dropoff: date) -> list[tuple[str, int]]:
        """The hire's days, season by season in order: each day at its own season's rate."""
        parts: list[tuple[str, int]] = []
        day = pickup
        while day < dropoff:
            name = _seed.season(day)
            if parts and parts[-1][0] == name:
                parts[-1] = (name, parts[-1][1] + 1)
            else:
                parts.append((name, 1))
            day += timedelta(days=1)
        return parts

    def too_short(self, pickup: date, days: int) -> str | None:
        """Why a hire is shorter than its pick-up season allows, or None."""
        name = _seed.season(pickup)
        least = _seed.MIN_DAYS[name]
        if days < least:
            return (f"a hire picked up in {name} season has to be at least {least} days, and "
                    f"this one is {days}")  # fmt: skip
        return None

    def age_problem(self, who: str, born: str, pickup: date, size: int) -> str | None:
        age = rd.age_on(born, pickup)
        least = _seed.SIX_BERTH_AGE if size == 6 else _seed.MIN_AGE
        if age < least or age > _seed.MAX_AGE:
            return (f"{who} will be {age} on the pick-up day, and drivers of a "
                    f"{rd.say_size(size)} must be {least} to {_seed.MAX_AGE}")  # fmt: skip
        return None

    def licence_problem(self, who: str, since: str, pickup: date) -> str | None:
        if rd.age_on(since, pickup) < _seed.LICENCE_YEARS:
            return (f"{who} has held a full licence only since {rd.say_date(since)}, and every "
                    f"driver needs {_seed.LICENCE_YEARS} years by the pick-up day")  # fmt: skip
        return None

    def driver_problem(self, who: str, born: str, since: str, pickup: date,
                       size: int) -> str | None:  # fmt: skip
        return self.age_problem(who, born, pickup, size) or self.licence_problem(who, since, pickup)

    def refund_for(self, b: dict[str, Any]) -> int:
        days, deposit = b["days_to_pickup"], int(b["deposit_pence"])
        if days >= _seed.FULL_REFUND_DAYS:
            return deposit
        if days >= _seed.HALF_REFUND_DAYS:
            return deposit // 2
        return 0

    async def other_booking(self, ref: str, out: list[str]) -> None:
        """Hook: a booking that isn't the caller's is not discussed."""
        out.append(f"Booking {ref} isn't on your account, so I can't share anything about it — "
                   "we only discuss a booking with the customer who made it. They're welcome "
                   "to contact us themselves.")  # fmt: skip

    # -- booking a van ---------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        size = rd.van_size(text)
        if size is None:
            return self.ask("van_size", "Which size of van would you like: a 2-berth, a "
                            "4-berth or a 6-berth?", out)  # fmt: skip
        named, back = rd.depots(text), rd.dropoff_depot(text)
        if not named:
            return self.ask("pickup_depot", "Which depot would you like to pick the van up "
                            f"from: {rd.depots_listed()}?", out)  # fmt: skip
        start = next((d for d in named if d != back), named[0])
        end = back or (named[1] if len(named) > 1 else start)
        days = self.latest_dates(req)
        if len(days) < 2:  # the two days said in separate messages
            days = [d for d in rd.dates(text, self.today) if d > self.today][-2:]
        if len(days) < 2 or days[1] <= days[0]:
            return self.ask("dates", "Which day would you like to pick the van up, and which "
                            "day will you bring it back?", out)  # fmt: skip
        pickup, dropoff = days[0], days[1]
        why = self.too_short(pickup, (dropoff - pickup).days) or self.driver_problem(
            "you", v["date_of_birth"], v["licence_since"], pickup, size)  # fmt: skip
        trip = {"van_size": size, "pickup_depot": start, "dropoff_depot": end,
                "pickup_date": pickup.isoformat(), "dropoff_date": dropoff.isoformat()}  # fmt: skip
        why = why or await self.trip_closed_or_full(trip, None)
        if why:
            out.append(f"I'm sorry — {why}, so I haven't booked anything.")
            return "done"
        return self.propose_booking(req, v, trip, out)

    def priced(self, size: int, pickup: date, dropoff: date) -> tuple[int, str]:
        parts = self.season_days(size, pickup, dropoff)
        hire = sum(_seed.RATES[size][name] * n for name, n in parts)
        words = " and ".join(f"{n} day{'s' if n > 1 else ''} at "
                             f"{rd.pounds(_seed.RATES[size][name])} ({name} season)"
                             for name, n in parts)  # fmt: skip
        if len(parts) > 1:
            words = f"{(dropoff - pickup).days} days: {words}"
        return hire, words

    def propose_booking(self, req: dict[str, Any], v: dict[str, Any], trip: dict[str, Any],
                        out: list[str]) -> str:  # fmt: skip
        size, start, end = trip["van_size"], trip["pickup_depot"], trip["dropoff_depot"]
        pickup, dropoff = date.fromisoformat(trip["pickup_date"]), date.fromisoformat(
            trip["dropoff_date"])  # fmt: skip
        hire, words = self.priced(size, pickup, dropoff)
        oneway = _seed.one_way_fee(start, end)
        total = hire + oneway
        deposit = total * _seed.DEPOSIT_PERCENT // 100
        route = (f", plus a one-way fee of {rd.pounds(oneway)} for bringing it back to "
                 f"{rd.say_depot(end)}" if oneway else "")  # fmt: skip
        return self.propose(
            req, out,
            f"Here's the booking: a {rd.say_size(size)} van picked up at {rd.say_depot(start)} "
            f"on {rd.say_day(trip['pickup_date'])} (from {_seed.PICKUP_FROM}) and brought back "
            f"to {rd.say_depot(end)} by {_seed.RETURN_BY} on {rd.say_day(trip['dropoff_date'])}"
            f" — {words}{route}; {rd.pounds(total)} in all. A "
            f"{_seed.DEPOSIT_PERCENT}% booking deposit of {rd.pounds(deposit)} is taken now "
            f"from your card ending {v['card_last4']}; the other {rd.pounds(total - deposit)} "
            f"is paid at pick-up, when a {rd.pounds(_seed.SECURITY_PENCE[size])} security "
            "deposit is also held on your card. Shall I book it?",
            [("book_hire", {"customer_id": v["customer_id"], **trip, "hire_pence": hire,
                            "oneway_pence": oneway})],
        )  # fmt: skip

    # -- changing dates or the drop-off depot ----------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if isinstance(b, str):
            return b
        said = [d for d in self.latest_dates(req) if d.isoformat() != b["pickup_date"]]
        if not said:
            return self.ask("new_dates", "Which day would you like to pick up instead, and "
                            "which day will you bring it back? If you give me only the pick-up "
                            "day, I'll keep the same number of days.", out)  # fmt: skip
        pickup = said[0]
        keep = pickup + timedelta(days=days_of(b))
        dropoff = said[1] if len(said) > 1 and said[1] > pickup else keep
        fee = self.amend_fee(b)
        trip = {"van_size": b["van_size"], "pickup_depot": b["pickup_depot"],
                "dropoff_depot": b["dropoff_depot"], "pickup_date": pickup.isoformat(),
                "dropoff_date": dropoff.isoformat()}  # fmt: skip
        why = self.too_short(pickup, (dropoff - pickup).days)
        why = why or await self.trip_closed_or_full(trip, b["booking_ref"])
        if why:
            out.append(f"I'm sorry — {why}, so I've left {b['booking_ref']} as it is.")
            return "done"
        if self.free_only(req, fee, "Changing the dates now", out):
            return "done"
        hire, words = self.priced(b["van_size"], pickup, dropoff)
        balance = hire + b["oneway_pence"] - b["deposit_pence"]
        was = (f"stays at {rd.pounds(hire)}" if hire == b["hire_pence"] else
               f"becomes {rd.pounds(hire)} (it was {rd.pounds(b['hire_pence'])})")  # fmt: skip
        return self.propose(
            req, out,
            f"To move {self.say_booking(b)} to {rd.say_day(trip['pickup_date'])} to "
            f"{rd.say_day(trip['dropoff_date'])}: {words}, so the hire {was}. Your "
            f"{rd.pounds(b['deposit_pence'])} deposit stays as paid, and the balance at pick-up "
            f"becomes {rd.pounds(balance)} before extras. {self.say_fee(fee, self.card())} "
            "Shall I make the change?",
            [("change_dates", {"customer_id": self.s["customer"], "booking_ref": b["booking_ref"],
                               "pickup_date": trip["pickup_date"],
                               "dropoff_date": trip["dropoff_date"], "hire_pence": hire,
                               "fee_pence": fee})],
        )  # fmt: skip

    def card(self) -> str:
        return str(self.s["view"]["card_last4"])

    async def step_dropoff(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if isinstance(b, str):
            return b
        text = self.text(req)
        back = rd.dropoff_depot(text)
        others = [d for d in rd.depots(text) if d != b["dropoff_depot"]]
        new = back if back and back != b["dropoff_depot"] else next(iter(others), None)
        if new is None and back == b["dropoff_depot"]:
            out.append(
                f"{b['booking_ref']} is already due back at {rd.say_depot(b['dropoff_depot'])}."
            )
            return "done"
        if new is None:
            return self.ask("dropoff_depot", "Which depot would you like to bring the van back "
                            f"to: {rd.depots_listed()}?", out)  # fmt: skip
        trip = {"van_size": b["van_size"], "pickup_depot": b["pickup_depot"], "dropoff_depot": new,
                "pickup_date": b["pickup_date"], "dropoff_date": b["dropoff_date"]}  # fmt: skip
        why = await self.trip_closed_or_full(trip, b["booking_ref"])
        if why:
            out.append(f"I'm sorry — {why}, so I've left {b['booking_ref']} as it is.")
            return "done"
        fee = self.amend_fee(b)
        if self.free_only(req, fee, "Changing the drop-off now", out):
            return "done"
        oneway = _seed.one_way_fee(b["pickup_depot"], new)
        route = (f"the one-way fee from {rd.say_depot(b['pickup_depot'])} to "
                 f"{rd.say_depot(new)} is {rd.pounds(oneway)}, paid at pick-up" if oneway
                 else "as that's where it starts, there's no one-way fee")  # fmt: skip
        return self.propose(
            req, out,
            f"To have the van on {self.say_booking(b)} brought back to {rd.say_depot(new)} "
            f"instead of {rd.say_depot(b['dropoff_depot'])}: {route}. "
            f"{self.say_fee(fee, self.card())} Shall I change it?",
            [("change_dropoff", {"customer_id": self.s["customer"],
                                 "booking_ref": b["booking_ref"], "dropoff_depot": new,
                                 "oneway_pence": oneway, "fee_pence": fee})],
        )  # fmt: skip

    # -- cancelling ------------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if isinstance(b, str):
            return b
        refund, deposit = self.refund_for(b), int(b["deposit_pence"])
        away = f"pick-up is {b['days_to_pickup']} days away"
        if refund == deposit:
            what = (f"your {rd.pounds(deposit)} booking deposit comes back in full to your card "
                    f"ending {self.card()}, as {away}")  # fmt: skip
        elif refund:
            what = (f"half of your {rd.pounds(deposit)} booking deposit, {rd.pounds(refund)}, "
                    f"comes back to your card ending {self.card()}, as {away}")  # fmt: skip
        else:
            what = (f"your {rd.pounds(deposit)} booking deposit is kept, as {away} — nothing "
                    "is refunded inside 14 days")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_booking", {"customer_id": self.s["customer"],
                                 "booking_ref": b["booking_ref"], "refund_pence": refund})],
        )  # fmt: skip

    # -- extras and drivers ----------------------------------------------------------------
    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if isinstance(b, str):
            return b
        text = self.text(req)
        kind = next((k for k, pattern in EXTRA_WORDS if re.search(pattern, text, re.I)), "awning")
        if kind == "bike_rack" and b["van_size"] == 2:
            out.append("I'm sorry — our 2-berth vans have no tow bar, so they can't take a bike "
                       "rack. Nothing has been changed.")  # fmt: skip
            return "done"
        if any(e["kind"] == kind for e in b["extras"]):
            out.append(f"{rd.say_extra(kind).capitalize()} is already on {b['booking_ref']}.")
            return "done"
        unit = _seed.EXTRA_PENCE[kind]
        if kind in _seed.PER_DAY_EXTRAS:
            price = unit * days_of(b)
            how = f"{rd.pounds(unit)} a day for {days_of(b)} days, {rd.pounds(price)}"
        else:
            price, how = unit, f"{rd.pounds(unit)} for the hire"
        if self.free_only(req, price, rd.say_extra(kind).capitalize(), out):
            return "done"
        return self.propose(
            req, out, f"To add {rd.say_extra(kind)} to {self.say_booking(b)}: {how}, paid at "
            "pick-up. Shall I add it?",
            [("add_extra", {"customer_id": self.s["customer"], "booking_ref": b["booking_ref"],
                            "kind": kind, "price_pence": price})],
        )  # fmt: skip

    async def step_driver(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if isinstance(b, str):
            return b
        text = self.text(req)
        name = rd.person_name(text) or req["answers"].get("driver_name", "").strip()
        if not name:
            return self.ask("driver_name", "What's the additional driver's full name?", out)
        born = self.said_date(req, "driver_dob") or rd.dated(text, self.today, r"\b(?:born|birth)")
        if born is None:
            return self.ask("driver_dob", f"And {first_name(name)}'s date of birth?", out)
        since = self.said_date(req, "licence_since") or rd.dated(
            text, self.today, r"\b(?:licen[cs]e|test|passed)")  # fmt: skip
        if since is None:
            return self.ask("licence_since", f"Since when has {first_name(name)} held a full "
                            "driving licence? The date is on the licence card.", out)  # fmt: skip
        if len(b["drivers"]) >= _seed.MAX_EXTRA_DRIVERS:
            out.append(f"{b['booking_ref']} already has two additional drivers, the most a "
                       "booking can have, so I can't add another.")  # fmt: skip
            return "done"
        pickup = date.fromisoformat(b["pickup_date"])
        why = self.driver_problem(first_name(name), born.isoformat(), since.isoformat(), pickup,
                                  b["van_size"])  # fmt: skip
        if why:
            out.append(f"I'm sorry — {why}, so I can't name {first_name(name)} as a driver on "
                       f"{b['booking_ref']}. Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To name {name} (born {rd.say_date(born.isoformat())}, full licence since "
            f"{rd.say_date(since.isoformat())}) as an additional driver on "
            f"{self.say_booking(b)}: {rd.pounds(_seed.DRIVER_FEE_PENCE)} for the hire, paid at "
            "pick-up. They'll need to bring their licence. Shall I add them?",
            [("add_driver", {"customer_id": self.s["customer"], "booking_ref": b["booking_ref"],
                             "name": name, "date_of_birth": born.isoformat(),
                             "licence_since": since.isoformat(),
                             "fee_pence": _seed.DRIVER_FEE_PENCE})],
        )  # fmt: skip

    # -- questions -------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        mine = {b["booking_ref"] for b in v["bookings"]}
        foreign = [r for r in rd.booking_refs(self.text(req)) if r not in mine]
        if foreign:
            await self.other_booking(foreign[0], out)
            return "done"
        b = await self.booking_for(req, out, v)
        if isinstance(b, str):
            return b
        extras = sum(e["price_pence"] for e in b["extras"])
        drivers = sum(d["fee_pence"] for d in b["drivers"])
        balance = b["hire_pence"] + b["oneway_pence"] + extras + drivers - b["deposit_pence"]
        parts = [f"hire {rd.pounds(b['hire_pence'])}"]
        parts += [f"one-way fee {rd.pounds(b['oneway_pence'])}"] if b["oneway_pence"] else []
        parts += [f"extras {rd.pounds(extras)}"] if extras else []
        parts += [f"additional drivers {rd.pounds(drivers)}"] if drivers else []
        out.append(
            f"Booking {b['booking_ref']}: a {rd.say_size(b['van_size'])} picked up at "
            f"{rd.say_depot(b['pickup_depot'])} on {rd.say_day(b['pickup_date'])}, from "
            f"{_seed.PICKUP_FROM}, and brought back to {rd.say_depot(b['dropoff_depot'])} by "
            f"{_seed.RETURN_BY} on {rd.say_day(b['dropoff_date'])}. That's "
            f"{', '.join(parts)}; you've paid a {rd.pounds(b['deposit_pence'])} booking deposit, "
            f"so {rd.pounds(balance)} is left to pay at pick-up. When you collect the van a "
            f"{rd.pounds(_seed.SECURITY_PENCE[b['van_size']])} security deposit is held on your "
            f"card and released within {_seed.SECURITY_RELEASE_DAYS} days of the van coming back "
            "undamaged."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Booked — your reference is {r['booking_ref']}: a "
                    f"{rd.say_size(r['van_size'])} from {rd.say_depot(r['pickup_depot'])} "
                    f"({rd.say_day(r['pickup_date'])}) to {rd.say_depot(r['dropoff_depot'])} "
                    f"({rd.say_day(r['dropoff_date'])}), {r['total']} in all; "
                    f"{r['deposit_taken']} deposit taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        fee = f"; {r['fee_taken']} amendment fee taken" if r.get("fee_taken", "£0.00") != (
            "£0.00") else ""  # fmt: skip
        if intent == "move":
            return (
                f"Done — {r['booking_ref']} now runs {rd.say_day(r['pickup_date'])} to "
                f"{rd.say_day(r['dropoff_date'])}, and the hire is {r['hire']}{fee}."
            )
        if intent == "dropoff":
            return (
                f"Done — the van on {r['booking_ref']} now comes back to "
                f"{rd.say_depot(r['dropoff_depot'])}; one-way fee {r['oneway_fee']}{fee}."
            )
        if intent == "cancel":
            back = (f"{r['refunded']} has gone back to your card ending {r['card_last4']}"
                    if r["refunded"] != "£0.00" else "no refund is due")  # fmt: skip
            return f"Done — {r['booking_ref']} is cancelled, and {back}."
        if intent == "extra":
            return (f"Done — {rd.say_extra(r['kind'])} is on booking {r['booking_ref']} now "
                    f"({r['price']}, paid at pick-up).")  # fmt: skip
        return (
            f"Done — {r['driver']} is named as a driver on {r['booking_ref']} ({r['fee']}, "
            "paid at pick-up)."
        )

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system turned that down: {error}. Nothing has been changed.")
