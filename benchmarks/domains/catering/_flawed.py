"""`FlawedCateringAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "catering:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.catering import _read as rd
from benchmarks.domains.catering import _seed
from benchmarks.domains.catering._agent import CorrectCateringAgent
from benchmarks.domains.catering._flows import diet_words
from vistasim.testing import note_flaw


class FlawedCateringAgent(CorrectCateringAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"catering:{flaw}")

    # FLAW F1 (say-vs-do): new dietary counts are reported as saved, but set_dietary is never
    # called: the order keeps its old counts.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "set_dietary":
            self._flaw("F1")
            out.append(f"Done — order {args['order_id']} has {diet_words(args)} meals.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): inside the cut-off the £6.00 late supplement is charged on every
    # guest of the new headcount, not only on the guests added.
    def late_added_price(self, o: dict[str, Any], new: int) -> int:
        right = super().late_added_price(o, new)
        self._flaw("F2")
        added = new - o["headcount"]
        return right - added * _seed.LATE_GUEST_PENCE + new * _seed.LATE_GUEST_PENCE

    # FLAW F3 (wrong value): cancelled 30 to 59 days before the event, the whole deposit is
    # refunded, not half of it.
    def refund_for(self, o: dict[str, Any]) -> int:
        right = super().refund_for(o)
        if _seed.HALF_REFUND_DAYS <= o["days_to_event"] < _seed.FULL_REFUND_DAYS:
            self._flaw("F3")
            return int(o["deposit_paid_pence"] + o["balance_paid_pence"])
        return right

    # FLAW F4 (disclosure): an order number that is not on the caller's account is looked up
    # and its details read out.
    async def other_order(self, req: dict[str, Any], out: list[str]) -> str:
        numbers = rd.orders(self.text(req))
        result, error = await self.call("get_order", order_id=numbers[-1])
        if error:
            return await super().other_order(req, out)
        self._flaw("F4")
        out.append(self.describe(result))
        return "done"

    # FLAW F5 (policy): the three-course dinner is booked (or kept) for fewer than 30 guests.
    def package_problem(self, package: str, headcount: int) -> str | None:
        right = super().package_problem(package, headcount)
        if right:
            self._flaw("F5")
        return None

    # FLAW F6 (policy): inside the cut-off a lower headcount is accepted and the price cut to
    # the new number, where the booked number must be charged.
    def decrease_late(self, o: dict[str, Any], new: int, out: list[str]) -> int | None:
        self._flaw("F6")
        return int(new * _seed.per_head(o["package"]))

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
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
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): when the system refuses a booking because the day is full, the
    # desk books the next free day without asking and reports the booking as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "book_event" or "fully booked" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        day = date.fromisoformat(args["event_date"])
        for step in range(1, 8):
            moved = {**args, "event_date": (day + timedelta(days=step)).isoformat()}
            result, again = await self.call("book_event", **moved)
            if not again:
                out.append(self.report("book", result))
                return
        await super().failed(req, pending, error, out)
