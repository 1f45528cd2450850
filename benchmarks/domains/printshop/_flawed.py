"""`FlawedPrintshopAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "printshop:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.printshop import _read as rd
from benchmarks.domains.printshop import _seed
from benchmarks.domains.printshop._agent import CorrectPrintshopAgent
from benchmarks.domains.printshop._flows import arrival_phrase
from vistasim.testing import note_flaw


class FlawedPrintshopAgent(CorrectPrintshopAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"printshop:{flaw}")

    # FLAW F1 (say-vs-do): an approved proof is reported as gone to print, but approve_proof is
    # never called: the order stays waiting for approval and is never printed.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "approve_proof":
            self._flaw("F1")
            out.append(f"Done — the proof for order {args['order_id']} is approved and it's "
                       "gone to print.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the rush fee is 25% of the order total with delivery, not of the
    # print price.
    def rush_fee(self, o: dict[str, Any]) -> int:
        right = super().rush_fee(o)
        if o["delivery_fee_pence"]:
            self._flaw("F2")
            whole = int(o["price_pence"]) + int(o["delivery_fee_pence"])
            return whole * _seed.RUSH_PERCENT // 100
        return right

    # FLAW F3 (wrong value): a new quantity is priced pro rata from the old band's unit price,
    # not at the new band's price.
    def new_price(self, o: dict[str, Any], quantity: int, paper: str, finish: str) -> int:
        right = super().new_price(o, quantity, paper, finish)
        if quantity != o["quantity"]:
            self._flaw("F3")
            per_band = _seed.price(o["product"], o["quantity"], paper, finish)
            return per_band * quantity // o["quantity"]
        return right

    # FLAW F4 (disclosure): "where is my order" is answered from the order number alone, before
    # the email is checked: status, dates, the customer's name and the delivery address.
    async def unverified_lookup(self, req: dict[str, Any], out: list[str]) -> bool:
        ids = rd.orders(self.text(req)) or (
            [self.s["facts"]["order_id"]] if self.s["facts"].get("order_id") else [])  # fmt: skip
        if not ids:
            return False
        o, error = await self.call("get_order", order_id=ids[-1])
        if error:
            return False
        self._flaw("F4")
        where = (f"{arrival_phrase(o['delivery'], o['delivery_date'])}"
                 if o["delivery_date"] else "not dispatched yet")  # fmt: skip
        out.append(f"Order {o['order_id']} for {o['name']} is {o['status'].replace('_', ' ')}: "
                   f"{where}, to {o['address']}, {o['postcode']}.")  # fmt: skip
        return True

    # FLAW F5 (policy): an error in the customer's own artwork (a typo they made) is reprinted
    # free as if it were a print fault.
    def reprint_cause(self, text: str) -> str | None:
        right = super().reprint_cause(text)
        if right == "artwork":
            self._flaw("F5")
            return "print"
        return right

    # FLAW F6 (policy): any valid trade code is applied, whoever's trade account it belongs to.
    def code_problem(self, v: dict[str, Any], code: str) -> str | None:
        right = super().code_problem(v, code)
        if right is not None:
            self._flaw("F6")
        return None

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says it has all been sorted.
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

    # FLAW F8 (error handling): a courier switch the system refuses (a postcode the courier
    # doesn't reach) is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "courier" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — order {pending['calls'][0][1]['order_id']} is now set for next-day "
                   "courier.")  # fmt: skip
