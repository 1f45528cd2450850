"""Requests around the stay: breakfast, late check-out and cancellation."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from benchmarks.domains.hotel._desk import DeskCore
from benchmarks.domains.hotel._desk_base import Task, set_slot
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._say import count, day, eur, span
from benchmarks.domains.hotel._times import find_time


class ExtraTasks(DeskCore):
    """Breakfast, late check-out and cancellation: each quoted before it is done."""

    # -- breakfast ------------------------------------------------------------------------------

    def fill_breakfast(self, task: Task, msg: Message) -> bool:
        return False

    async def step_breakfast(self, task: Task) -> bool:
        info, ref = self.info, self.ref
        if info["breakfast"]:
            self.say(f"Breakfast is already included in booking {ref}.")
            return True
        if info["rate_plan"] == "saver":
            self.say(
                f"I'm sorry — booking {ref} is on the Advance Saver rate, which is room only, "
                "so breakfast can't be added."
            )
            return True
        price = info["hotel"]["breakfast_eur_per_guest_night"]
        guests, nights = info["adults"] + info["children"], info["nights"]
        quote = round(price * guests * nights, 2)
        return self.confirm(
            task,
            f"Breakfast at {info['hotel']['name']} is {eur(price)} per guest per night, so for "
            f"{count(guests, 'guest')} and {count(nights, 'night')} it comes to {eur(quote)}. "
            f"Shall I add it to booking {ref}?",
            {"quote": quote, "guests": guests, "nights": nights},
        )

    async def do_breakfast(self, task: Task) -> bool:
        ref = self.ref
        result, error = await self.tool("add_breakfast", booking_ref=ref)
        if error:
            return self.breakfast_failed(task, error)
        self.info.update(breakfast=True, total_eur=result["total_eur"])
        self.say(
            f"Done — breakfast is now included for {count(result['guests'], 'guest')} for "
            f"{count(result['nights'], 'night')}: {eur(result['breakfast_total_eur'])}. The "
            f"new total for booking {ref} is {eur(result['total_eur'])}."
        )
        return True

    def breakfast_failed(self, task: Task, error: str) -> bool:
        """Say honestly that breakfast was not added."""
        self.say(
            f"I'm sorry — I couldn't add breakfast: {error}. Nothing has been charged, and "
            f"booking {self.ref} is unchanged."
        )
        return True

    # -- late check-out -------------------------------------------------------------------------

    def read_time(self, msg: Message) -> tuple[str, str] | None:
        """The time asked for: how the desk says it, and what it books."""
        clock = find_time(msg.text)
        return (clock.hhmm, clock.hhmm) if clock else None

    def fill_late(self, task: Task, msg: Message) -> bool:
        found = self.read_time(msg)
        if found is None:
            return False
        task["slots"]["call"] = found[1]
        return set_slot(task, "time", found[0])

    async def step_late(self, task: Task) -> bool:
        info, ref = self.info, self.ref
        hotel, checkout = info["hotel"], info["check_out"]
        fee, standard = hotel["late_checkout_fee_eur"], hotel["check_out_time"]
        free, latest = hotel["late_checkout_free_until"], hotel["late_checkout_latest"]
        wanted = task["slots"].get("time")
        if not wanted:
            return self.ask(
                task,
                f"What time would you like to check out on {day(checkout)}? Standard check-out "
                f"is {standard}; a late check-out is free until {free} and costs {eur(fee)} after "
                f"that, up to {latest} at the latest.",
                "time",
            )
        if wanted <= standard:
            self.say(
                f"Standard check-out is {standard}, so you don't need a late check-out to "
                f"leave at {wanted}."
            )
            return True
        if wanted > latest:
            task["slots"].update(time=latest, call=latest)
            return self.confirm(
                task,
                f"I'm sorry — late check-out is possible until {latest} at the latest, so I can't "
                f"offer {wanted}. I can book {latest} on {day(checkout)} for {eur(fee)}. Would "
                "you like that?",
                {"time": latest, "call": latest, "fee": fee},
                offer=True,
            )
        charge = 0.0 if wanted <= free else fee
        cost = "There's no charge for that." if charge == 0 else f"The fee is {eur(charge)}."
        return self.confirm(
            task,
            f"I can book a late check-out at {wanted} on {day(checkout)} for booking {ref}. "
            f"{cost} Shall I book it?",
            {"time": wanted, "call": task["slots"].get("call", wanted), "fee": charge},
        )

    async def do_late(self, task: Task) -> bool:
        p, ref = task["proposal"], self.ref
        result, error = await self.tool(
            "request_late_checkout", booking_ref=ref, checkout_time=p["call"]
        )
        if error:
            self.say(f"I'm sorry — I couldn't book the late check-out: {error}.")
            return True
        self.info["total_eur"] = result["total_eur"]
        self.say(self.late_done(result, p))
        return True

    def late_done(self, result: dict[str, Any], proposal: dict[str, Any]) -> str:
        """Report the late check-out the hotel booked."""
        when = f"{result['checkout_time']} on {day(result['check_out'])}"
        if result["fee_eur"] == 0:
            return f"Done — your late check-out at {when} is booked, at no charge."
        return (
            f"Done — your late check-out at {when} is booked. The fee of "
            f"{eur(result['fee_eur'])} has been added; the new total is "
            f"{eur(result['total_eur'])}."
        )

    # -- cancellation ---------------------------------------------------------------------------

    def fill_cancel(self, task: Task, msg: Message) -> bool:
        return False

    async def step_cancel(self, task: Task) -> bool:
        info, ref = self.info, self.ref
        terms = info["cancellation"]
        fee = terms["fee_if_cancelled_now_eur"]
        stay = f"{info['hotel']['name']}, {span(info['check_in'], info['check_out'])}"
        question, accept = self.cancel_question(ref, stay, terms)
        return self.confirm(task, question, {"fee": fee, "accept_fee": accept})

    def cancel_question(self, ref: str, stay: str, terms: dict[str, Any]) -> tuple[str, bool]:
        """The question before cancelling, with the fee stated; and whether it accepts a fee."""
        fee = terms["fee_if_cancelled_now_eur"]
        if fee == 0:
            until = datetime.fromisoformat(terms["free_until"])
            return (
                f"Booking {ref} ({stay}) can be cancelled free of charge until "
                f"{day(until.date())}, {until:%H:%M}. Shall I cancel it?",
                False,
            )
        if terms["non_refundable"]:
            return (
                f"Booking {ref} ({stay}) is on the Advance Saver rate, which is "
                f"non-refundable: cancelling it would cost the full {eur(fee)}. Do you want "
                f"me to cancel it and charge {eur(fee)}?",
                True,
            )
        return (
            f"Booking {ref} ({stay}) starts less than 48 hours from now, so cancelling it "
            f"costs the first night: {eur(fee)}. Do you want me to cancel it and charge the "
            f"{eur(fee)} fee?",
            True,
        )

    async def do_cancel(self, task: Task) -> bool:
        p, ref = task["proposal"], self.ref
        result, error = await self.tool(
            "cancel_reservation", booking_ref=ref, accept_fee=p["accept_fee"]
        )
        if error:
            self.say(
                f"I'm sorry — the cancellation didn't go through: {error}. The booking is "
                "still active."
            )
            return True
        self.info["status"] = "cancelled"
        fee = result["fee_eur"]
        charged = (
            "There's no cancellation fee."
            if fee == 0
            else f"A cancellation fee of {eur(fee)} has been charged."
        )
        self.say(f"Done — booking {ref} is cancelled. {charged}")
        self.state["tasks"] = [t for t in self.state["tasks"] if t is task]
        return True
