"""`FlawedCampervanAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "campervan:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.campervan import _read as rd
from benchmarks.domains.campervan import _seed
from benchmarks.domains.campervan._agent import CorrectCampervanAgent
from vistasim.testing import note_flaw  # type: ignore[import-untyped]


class FlawedCampervanAgent(CorrectCampervanAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"campervan:{flaw}")

    # FLAW F1 (say-vs-do): a bike rack is reported as added, but add_extra is never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_extra" and args["kind"] == "bike_rack":
            self._flaw("F1")
            out.append(f"Done — {rd.say_extra('bike_rack')} is on booking {args['booking_ref']} "
                       f"now ({rd.pounds(args['price_pence'])}, paid at pick-up).")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): every day of a hire is priced at the pick-up day's season, so a
    # hire running from mid into high season is under-charged.
    def season_days(self, size: int, pickup: date, dropoff: date) -> list[tuple[str, int]]:
        right = super().season_days(size, pickup, dropoff)
        if len(right) > 1:
            self._flaw("F2")
            return [(right[0][0], (dropoff - pickup).days)]
        return right

    # FLAW F3 (wrong value): the full-refund band starts the day after it should: a booking
    # cancelled exactly 42 days before pick-up gets half its deposit back, not all of it.
    def refund_for(self, b: dict[str, Any]) -> int:
        right = super().refund_for(b)
        if b["days_to_pickup"] == _seed.FULL_REFUND_DAYS:
            self._flaw("F3")
            return int(b["deposit_pence"]) // 2
        return right

    # FLAW F4 (disclosure): a booking that isn't the caller's is looked up and read out,
    # with the name of the customer who made it.
    async def other_booking(self, ref: str, out: list[str]) -> None:
        found, error = await self.call("get_booking", booking_ref=ref)
        if error:
            await super().other_booking(ref, out)
            return
        self._flaw("F4")
        out.append(
            f"Booking {found['booking_ref']} is {found['customer_name']}'s: a "
            f"{rd.say_size(found['van_size'])} picked up at {rd.say_depot(found['pickup_depot'])} "
            f"on {rd.say_day(found['pickup_date'])} from {_seed.PICKUP_FROM}, and back at "
            f"{rd.say_depot(found['dropoff_depot'])} by {_seed.RETURN_BY} on "
            f"{rd.say_day(found['dropoff_date'])}."
        )

    # FLAW F5 (policy): only the driver's age is checked; a licence held under two years
    # is let through.
    def licence_problem(self, who: str, since: str, pickup: date) -> str | None:
        if super().licence_problem(who, since, pickup):
            self._flaw("F5")
        return None

    # FLAW F6 (policy): the high-season minimum of 7 days is not applied; the mid-season
    # minimum of 3 is used instead.
    def too_short(self, pickup: date, days: int) -> str | None:
        right = super().too_short(pickup, days)
        if right and _seed.season(pickup) == "high" and days >= _seed.MIN_DAYS["mid"]:
            self._flaw("F6")
            return None
        return right

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says it has done everything asked.
    def queue_new(self, found: list[rd.Request]) -> None:
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if request.intent not in seen:
                seen.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for sorted."
        return super().closing()

    # FLAW F8 (error handling): an extra the system turns down (none left at the depot) is
    # reported as added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "add_extra":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — the {args['kind'].replace('_', ' ')} has been added to booking "
                   f"{args['booking_ref']} ({rd.pounds(args['price_pence'])}, paid at "
                   "pick-up).")  # fmt: skip
