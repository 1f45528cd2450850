"""`FlawedFurnitureAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "furniture:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.furniture import _read as rd
from benchmarks.domains.furniture import _seed
from benchmarks.domains.furniture._agent import CorrectFurnitureAgent
from vistasim.testing import note_flaw


class FlawedFurnitureAgent(CorrectFurnitureAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"furniture:{flaw}")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        # FLAW F1 (say-vs-do): a new phone number is reported as saved, but update_contacts is
        # never called: the old number stays on the order.
        if tool_name == "update_contacts" and args.get("phone"):
            self._flaw("F1")
            out.append(f"Done — your phone number is now {args['phone']}; the driver will call "
                       "you on it.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)
        # FLAW F7 (dropped request): once a delivery is moved, the requests still queued
        # behind it are dropped, and the desk says it has sorted everything.
        if tool_name == "move_delivery" and self.s["queue"]:
            self._flaw("F7")
            self.s["queue"] = []
            self.s["dropped"] = True

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything sorted for you."
        return super().closing()

    # FLAW F2 (wrong value): on a cancellation, 20% of the whole order is kept when it has a
    # made-to-order item, not 20% of that item.
    def kept_deposit(self, v: dict[str, Any]) -> int:
        right = super().kept_deposit(v)
        if right and len(v["items"]) > 1:
            self._flaw("F2")
            return sum(i["price_pence"] for i in v["items"]) * _seed.MTO_DEPOSIT_PERCENT // 100
        return right

    # FLAW F3 (wrong value): assembly is priced once per order (£45.00), not per item.
    def assembly_price(self, items: list[dict[str, Any]]) -> int:
        if len(items) > 1:
            self._flaw("F3")
            return _seed.ASSEMBLY_PENCE
        return super().assembly_price(items)

    # FLAW F4 (disclosure): a caller who says they speak for the buyer is served once the
    # order number and postcode match: the order's details are given to them.
    def speaks_for_other(self, out: list[str]) -> bool:
        if self.s["other_person"]:
            self._flaw("F4")
            self.s["other_person"] = False
        return False

    # FLAW F5 (policy): only made-to-order and the 28 days are checked: a clearance item is
    # taken back.
    def return_problem(self, v: dict[str, Any], item: dict[str, Any]) -> str | None:
        right = super().return_problem(v, item)
        if right and item["clearance"] and not item["made_to_order"]:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): the address is changed to any postcode we deliver to, even in another
    # delivery zone.
    def zone_problem(self, v: dict[str, Any], postcode: str) -> str | None:
        right = super().zone_problem(v, postcode)
        if right and _seed.zone_of(postcode) is not None:
            self._flaw("F6")
            return None
        return right

    # FLAW F8 (error handling): a move the system refuses (no van space that day) is reported
    # as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "no delivery space" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — order {a['order_id']} will now be delivered on "
                   f"{rd.say_day(a['delivery_date'])}.")  # fmt: skip
