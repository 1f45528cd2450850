"""`FlawedFloristAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "florist:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.florist import _read as rd
from benchmarks.domains.florist._agent import CorrectFloristAgent
from vistasim.testing import note_flaw


class FlawedFloristAgent(CorrectFloristAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"florist:{flaw}")

    # FLAW F1 (say-vs-do): a new card message is reported as saved, but set_card_message is
    # never called: the old words stay on the card.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "set_card_message":
            self._flaw("F1")
            out.append(f"Done — the card on {args['order_id']} now says: '{args['message']}'.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a line of several items is priced as one (six buttonholes at
    # £8.50 each come to £8.50, not £51.00), and the deposit follows the wrong total.
    def line_price(self, unit: int, qty: int) -> int:
        if qty > 1:
            self._flaw("F2")
            return unit
        return super().line_price(unit, qty)

    # FLAW F3 (wrong value): a new address in another zone is charged the new zone's whole
    # delivery fee, not the difference between the two zones' fees.
    def delivery_difference(self, old_fee: int, new_fee: int) -> int:
        if new_fee != old_fee:
            self._flaw("F3")
            return new_fee
        return super().delivery_difference(old_fee, new_fee)

    # FLAW F4 (disclosure): an order that isn't on the caller's account is looked up and read
    # out: recipient, address, day and the card's words.
    async def other_order(self, req: dict[str, Any], order_id: str, out: list[str]) -> str:
        self._flaw("F4")
        r, error = await self.call("get_order", order_id=order_id)
        if error:
            out.append(f"I'm sorry — I couldn't find order {order_id}.")
            return "done"
        out.append(self.describe(r))
        return "done"

    # FLAW F5 (policy): the same-day cut-off isn't checked: an order for this afternoon is
    # taken after 12:00.
    def same_day_problem(self, day: date) -> str | None:
        right = super().same_day_problem(day)
        if right:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): the 2-day window for wilted flowers isn't checked: a complaint days
    # later still gets a replacement or a refund.
    def complaint_problem(self, o: dict[str, Any]) -> str | None:
        right = super().complaint_problem(o)
        if right:
            self._flaw("F6")
            return None
        return right

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

    # FLAW F8 (error handling): a delivery change the system refuses (a full slot) is reported
    # as done.
    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        tool_name, a = pending["calls"][0]
        if tool_name != "change_delivery":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(
            f"Done — order {a['order_id']} is now due {rd.say_day(a['delivery_date'])} in "
            f"the {a['slot']}."
        )
