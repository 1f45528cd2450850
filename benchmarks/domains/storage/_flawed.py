"""`FlawedStorageAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "storage:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.storage import _read as rd
from benchmarks.domains.storage._agent import CorrectStorageAgent
from vistasim.testing import note_flaw


class FlawedStorageAgent(CorrectStorageAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"storage:{flaw}")

    # FLAW F1 (identity): a caller who cannot give the account number is taken to be the holder
    # of the unit number they named: the unit is looked up and its renter treated as verified.
    async def no_identity(self, message: str, out: list[str]) -> bool:
        named = [u for text in self.s["said"] for _, u in rd.units(text)]
        if named:
            result, error = await self.call("get_unit", unit_id=named[-1])
            if not error and result.get("rental"):
                self._flaw("F1")
                self.s["asked"] = None
                await self.become(result["rental"]["customer_id"], out)
                return False
        return await super().no_identity(message, out)

    # FLAW F2 (wrong value): the move-out refund is quoted without deducting unpaid late fees,
    # and the quoted figure is repeated after the system deducted them.
    def refund_terms(self, rental: dict[str, Any], day: date,
                     fees: list[dict[str, Any]]) -> tuple[int, int, int, int]:
        days, gross, deducted, refund = super().refund_terms(rental, day, fees)
        if deducted:
            self._flaw("F2")
            return days, gross, 0, gross
        return days, gross, deducted, refund

    async def done_notice(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error or pending.get("stated") in (None, result["refund"]):
            await super().done_notice(req, pending, result, error, out)
            return
        out.append(f"Done — your notice on unit {result['unit_id']} is in: you move out on "
                   f"{rd.say_date(result['move_out_date'])}, and {pending['stated']} is "
                   f"refunded to your card ending {result['card_last4']} within 5 working days.")

    # FLAW F3 (no confirmation): a move to another unit is made as soon as it is worked out,
    # without waiting for a yes — even when the customer only asked what it would cost.
    async def step_resize(self, req: dict[str, Any], out: list[str]) -> str:
        status = await super().step_resize(req, out)
        pending = self.s["pending"]
        if status == "wait" and pending and pending["tool"] == "change_unit":
            self._flaw("F3")
            self.s["pending"] = None
            out[-1] = out[-1].replace(" Shall I go ahead?", "")
            await self.execute(req, pending, out)
            return "done"
        return status

    # FLAW F4 (disclosure): a unit that is not the customer's is looked up and read out: the
    # renter's name and their gate PIN.
    async def other_unit(self, unit: str, req: dict[str, Any], out: list[str]) -> None:
        result, error = await self.call("get_unit", unit_id=unit)
        if error or not result.get("rental"):
            await super().other_unit(unit, req, out)
            return
        self._flaw("F4")
        out.append(f"Unit {unit} ({result['size_sqft']} sq ft) is rented by "
                   f"{result['customer_name']}; the gate PIN on that account is "
                   f"{result['gate_pin']}.")

    # FLAW F5 (ignores a correction): of two PINs or two dates in a request, the first one said
    # is used, not the corrected one.
    def new_pin(self, text: str, current: str) -> str | None:
        right = super().new_pin(text, current)
        found = [p for p in rd.pins(text) if p != current]
        if found and found[0] != right:
            self._flaw("F5")
            return found[0]
        return right

    def pick_date(self, text: str) -> date | None:
        right = super().pick_date(text)
        days = rd.visit_dates(text, self.today)
        if days and days[0] != right:
            self._flaw("F5")
            return days[0]
        return right

    # FLAW F6 (silent fee): the free move-in van is offered free but booked as a paid slot; the
    # £25.00 charge is never mentioned.
    def van_flag(self, free: bool) -> bool:
        if free:
            self._flaw("F6")
        return False

    async def done_van(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                       error: str | None, out: list[str]) -> None:
        if error or not pending.get("free"):
            await super().done_van(req, pending, result, error, out)
            return
        out.append(f"Done — the van is booked for {rd.say_date(result['day'])} at "
                   f"{result['slot']} (booking {result['booking_id']}), free of charge as your "
                   "move-in van. Please collect the keys from the office 10 minutes before.")

    # FLAW F7 (say-vs-do): a late-fee dispute is reported as recorded, but dispute_late_fee is
    # never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        if pending["tool"] == "dispute_late_fee":
            self._flaw("F7")
            out.append(f"Done — your dispute of late fee {pending['args']['fee_id']} is "
                       "recorded; the Store Manager replies within 5 working days. The fee is "
                       "on hold until then.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F8 (wrong unit): with two or more units on the account, the first one is always
    # acted on, whichever unit the customer named.
    def pick_rental(self, text: str, live: list[dict[str, Any]]) -> dict[str, Any] | None:
        right = super().pick_rental(text, live)
        if right is None or right["rental_id"] != live[0]["rental_id"]:
            self._flaw("F8")
        return live[0]
