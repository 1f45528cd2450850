"""`FlawedBakeryAgent`: the cake desk with the bugs of an earlier release (the README's log).

Each flaw calls `note_flaw(turn, "bakery:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.bakery import _read as rd
from benchmarks.domains.bakery import _seed
from benchmarks.domains.bakery._agent import CorrectBakeryAgent
from vistasim.testing import note_flaw  # type: ignore[import-untyped]  # no py.typed


class FlawedBakeryAgent(CorrectBakeryAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"bakery:{flaw}")

    # FLAW F1 (say-vs-do): a new collection time is reported as set, but set_slot is never
    # called: the order keeps its old time.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "set_slot":
            self._flaw("F1")
            out.append(f"Done — order {args['order_id']} is now for {args['slot']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the gluten-free surcharge is charged once per cake, not per tier.
    def diet_pence(self, tiers: list[int], diet: str) -> int:
        right = super().diet_pence(tiers, diet)
        if diet == "gluten_free" and len(tiers) > 1:
            self._flaw("F2")
            return _seed.DIET_PENCE[diet]
        return right

    # FLAW F3 (wrong value): the full-refund band starts a day early: a cancellation 13 days
    # before collection gets the whole deposit back, not half.
    def refund_for(self, o: dict[str, Any]) -> int:
        right = super().refund_for(o)
        if o["days_to_collection"] == _seed.FULL_REFUND_DAYS - 1:
            self._flaw("F3")
            return int(o["deposit_pence"])
        return right

    # FLAW F4 (disclosure): an order number that is not on the caller's account is looked up
    # and read out, with the name of the customer who placed it.
    async def not_yours(self, req: dict[str, Any], order_id: str, out: list[str]) -> str:
        if req["intent"] != "lookup":
            return await super().not_yours(req, order_id, out)
        self._flaw("F4")
        r, error = await self.call("get_order", order_id=order_id)
        if error:
            return await super().not_yours(req, order_id, out)
        out.append(f"That's {r['customer_name']}'s order. " + self.describe(r))
        return "done"

    # FLAW F5 (policy): every cake is held to the one-tier lead time: a tiered cake is taken
    # with 5 to 9 days' notice, not 10.
    def lead_problem(self, tiers: list[int], day: date) -> str | None:
        right = super().lead_problem(tiers, day)
        if right and len(tiers) > 1 and (day - self.today).days >= _seed.LEAD_SINGLE:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): the writing is changed even when it has already been piped (less than
    # two days before collection).
    def inscription_problem(self, o: dict[str, Any]) -> str | None:
        right = super().inscription_problem(o)
        if right:
            self._flaw("F6")
            return None
        return right

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        kinds = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if request.intent not in kinds:
                kinds.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r.intent != fresh[1].intent]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for sorted."
        return super().closing()

    # FLAW F8 (error handling): a move the order book refuses because the day is fully booked
    # is reported as made.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "fully booked" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        args = pending["calls"][0][1]
        day = args.get("new_date") or args.get("collection_date")
        out.append(f"Done — your cake is now booked for {rd.say_day(day)}.")
