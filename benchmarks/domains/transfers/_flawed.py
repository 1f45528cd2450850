"""`FlawedTransfersAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "transfers:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.transfers import _read as rd
from benchmarks.domains.transfers import _seed
from benchmarks.domains.transfers._agent import CorrectTransfersAgent
from vistasim.testing import note_flaw


class FlawedTransfersAgent(CorrectTransfersAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"transfers:{flaw}")

    # FLAW F1 (say-vs-do): a new flight number is reported as tracked, but update_flight is
    # never called: the driver still tracks the old flight.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_flight":
            self._flaw("F1")
            out.append(f"Done — {args['booking_ref']} now tracks flight {args['flight_no']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the 10% return discount is worked out on both legs and all taken
    # off the return leg: it costs 80% of its fare, not 90%.
    def return_fare(self, full: int) -> int:
        self._flaw("F2")
        return full - 2 * (full * _seed.RETURN_DISCOUNT_PERCENT // 100)

    # FLAW F3 (wrong value): a cancellation 24-48 hours out refunds half of the fare only,
    # leaving the extras (meet-and-greet, child seats) out of the half.
    def refund_for(self, b: dict[str, Any]) -> int:
        right = super().refund_for(b)
        hours = b["hours_to_pickup"]
        if _seed.REFUND_HALF_HOURS <= hours < _seed.REFUND_FULL_HOURS and b["extras_pence"]:
            self._flaw("F3")
            return int(b["fare_pence"]) // 2
        return right

    # FLAW F4 (disclosure): after a lost-property report the desk reads out the driver's name
    # and personal mobile number "to save time".
    def lost_followup(self, b: dict[str, Any]) -> str:
        if b.get("driver_mobile"):
            self._flaw("F4")
            return (f"To save time you can ring your driver, {b['driver_name']}, directly on "
                    f"{b['driver_mobile']}. Our office will also call you back within 24 "
                    "hours.")  # fmt: skip
        return super().lost_followup(b)

    # FLAW F5 (policy): a promo code is checked only for being valid, not for having been used
    # on the account already.
    def promo_allowed(self, v: dict[str, Any], code: str) -> bool:
        if not super().promo_allowed(v, code):
            self._flaw("F5")
        return True

    # FLAW F6 (policy): the car is chosen by the passengers only; the luggage limit per class
    # is not checked, so four large cases go in a saloon that takes two.
    def pick_class(self, passengers: int, bags: int, named: str | None) -> str | None:
        right = super().pick_class(passengers, bags, named)
        by_people = next((c for c in _seed.CLASSES if passengers <= _seed.CAPACITY[c][0]), None)
        if named is None and by_people is not None and by_people != right:
            self._flaw("F6")
            return by_people
        return right

    # FLAW F7 (dropped request): a child seat asked for in the message that books a transfer
    # is silently left off the booking (and its price), and the booking is reported as all done.
    def booking_child_seats(self, text: str) -> int:
        asked = super().booking_child_seats(text)
        if asked:
            self._flaw("F7")
            self.s["dropped"] = True
        return 0

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for booked."
        return super().closing()

    # FLAW F8 (error handling): a pickup change the system refuses (the class is fully booked
    # that day) is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "change_pickup" or "fully booked" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — {args['booking_ref']} now picks up {rd.say_when(args['pickup_at'])}.")
