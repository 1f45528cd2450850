"""The flows that end or close a hire, and the account's email: class, cancel, damage, email."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.carhire import _read as rd
from benchmarks.domains.carhire import _seed
from benchmarks.domains.carhire._flows import CLASS_WORDS, Flows


class AccountFlows(Flows):
    """More flows, mixed into the agent the same way."""

    # -- car class -------------------------------------------------------------------------
    async def _free(self, b: dict[str, Any], car_class: str) -> int:
        result, error = await self.call(
            "check_availability", branch=b["branch"], car_class=car_class,
            pickup_date=b["pickup_at"][:10], return_date=b["return_at"][:10])
        return 0 if error else int(result["free"])

    async def step_class(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None or self.not_open(b, out):
            return "done"
        target = rd.car_class(self.text_of(req).replace(CLASS_WORDS[b["car_class"]], " ", 1)) \
            or rd.car_class(self.text_of(req))
        if target is None:
            prices = ", ".join(f"{CLASS_WORDS[c]} {rd.pounds(p)}" for c, p in _seed.RATES.items())
            return self.ask("car_class", f"Which car class would you like? Daily rates: {prices}.",
                            out)
        if target == b["car_class"]:
            word = CLASS_WORDS[target]
            out.append(f"Booking {b['booking_ref']} is already {rd.article(word)} {word} car.")
            return "done"
        if not await self._free(b, target):
            free = [CLASS_WORDS[c] for c in _seed.RATES if c not in (target, b["car_class"])
                    and await self._free(b, c)]
            others = (f" Free on those dates: {', '.join(free)}." if free else "")
            out.append(f"I'm sorry, there are no {CLASS_WORDS[target]} cars free at {b['branch']} "
                       f"from {rd.say_date(b['pickup_at'])} to {rd.say_date(b['return_at'])}, "
                       f"so your booking stays as it is.{others}")
            return "done"
        diff = (_seed.RATES[target] - _seed.RATES[b["car_class"]]) * b["days"]
        money = (f"{rd.pounds(diff)} would be charged to your card" if diff >= 0 else
                 f"{rd.pounds(-diff)} would be refunded to your card")
        word = CLASS_WORDS[target]
        text = (f"{rd.article(word).capitalize()} {word} car is free at {b['branch']} on your "
                "dates. Switching "
                f"booking {b['booking_ref']} from {CLASS_WORDS[b['car_class']]} "
                f"({rd.pounds(_seed.RATES[b['car_class']])} a day) to {CLASS_WORDS[target]} "
                f"({rd.pounds(_seed.RATES[target])} a day) for {b['days']} days means {money}. "
                "Shall I go ahead?")
        return self.propose(req, out, text, tool="switch_class",
                            args={"booking_ref": b["booking_ref"], "car_class": target})

    async def done_class(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("switch the car", error, pending, out)
            return
        verb = "charged to" if result["charged_or_refunded"] == "charged" else "refunded to"
        word = CLASS_WORDS[result["car_class"]]
        out.append(f"Done — booking {result['booking_ref']} is now {rd.article(word)} {word} "
                   f"car. {result['difference'].lstrip('-')} "
                   f"has been {verb} your card; the new total is {result['new_total']}.")

    # -- cancel ----------------------------------------------------------------------------
    def free_to_cancel(self, b: dict[str, Any]) -> bool:
        """Hook: cancelling is free until 48 hours before pick-up."""
        return self.hours_to_pickup(b) >= 48

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None or self.not_open(b, out):
            return "done"
        total = rd.pence(b["total"])
        if self.free_to_cancel(b):
            terms = (f"As it's more than 48 hours before pick-up, cancelling is free: the full "
                     f"{b['total']} would be refunded to your card.")
        else:
            kept = total // b["days"]
            terms = (f"As pick-up ({rd.say_stamp(b['pickup_at'])}) is less than 48 hours away, "
                     f"one day's hire, {rd.pounds(kept)}, is kept and {rd.pounds(total - kept)} "
                     "would be refunded to your card.")
        text = f"I can cancel booking {b['booking_ref']}. {terms} Shall I cancel it?"
        return self.propose(req, out, text, tool="cancel_booking",
                            args={"booking_ref": b["booking_ref"]})

    async def done_cancel(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("cancel it", error, pending, out)
            return
        kept = f" ({result['kept']} kept for one day's hire)" if result["kept"] != "£0.00" else ""
        out.append(f"Done — booking {result['booking_ref']} is cancelled. {result['refund']} "
                   f"will be refunded to your card{kept}.")

    # -- damage ----------------------------------------------------------------------------
    def excess_waived(self, b: dict[str, Any]) -> bool:
        """Hook: full cover waives the damage excess."""
        return bool(b["cover"] == "full")

    async def step_damage(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None:
            return "done"
        if b["status"] != "completed":
            out.append(f"Damage can only be reported here once a hire has finished, and booking "
                       f"{b['booking_ref']} is {b['status']}. If something happens during a hire, "
                       "please call the branch on 0113 496 0550.")
            return "done"
        description = rd.without_identity(" ".join(c.strip() for c in req["chunks"]))
        if len(description.split()) < 6:
            return self.ask("description", "I'm sorry to hear that. What happened, and where on "
                            "the car is the damage?", out)
        already = any(r["excess_pence"] for r in b["damage_reports"])
        if self.excess_waived(b):
            excess, charge = "Your hire had full cover, so the £300.00 excess is waived.", False
        elif already:
            excess, charge = ("The £300.00 excess has already been charged for this hire, so "
                              "there is nothing more to pay."), False
        else:
            excess, charge = ("With basic cover, the £300.00 damage excess will be charged to "
                              "your card (once per hire)."), True
        text = (f"I'll log a damage report on booking {b['booking_ref']}: \"{description[:200]}\". "
                f"{excess} Shall I go ahead?")
        return self.propose(req, out, text, tool="report_damage",
                            args={"booking_ref": b["booking_ref"],
                                  "description": description[:480], "charge_excess": charge})

    async def done_damage(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("log the report", error, pending, out)
            return
        paid = (f"{result['excess_charged']} excess has been charged to your card."
                if result["excess_charged"] != "£0.00" else "No excess has been charged.")
        out.append(f"Done — damage report {result['report_id']} is logged on booking "
                   f"{result['booking_ref']}. {paid} Our claims team will be in touch.")

    # -- email -----------------------------------------------------------------------------
    async def step_email(self, req: dict[str, Any], out: list[str]) -> str:
        found = rd.emails(self.text_of(req))
        if not found:
            return self.ask("email", "What's the new email address?", out)
        text = (f"I'll change the email on your account from {self.s['email']} to {found[-1]}. "
                "Shall I go ahead?")
        return self.propose(req, out, text, tool="update_email",
                            args={"customer_id": self.s["customer"], "email": found[-1]})

    async def done_email(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("update the email", error, pending, out)
            return
        self.s["email"] = result["email"]
        out.append(f"Done — your email is now {result['email']}.")
