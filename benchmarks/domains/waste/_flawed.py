"""`FlawedWasteAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "waste:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.waste import _read as rd
from benchmarks.domains.waste import _seed
from benchmarks.domains.waste._agent import CorrectWasteAgent
from vistasim.testing import note_flaw


class FlawedWasteAgent(CorrectWasteAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"waste:{flaw}")

    # FLAW F1 (say-vs-do): a bulky collection's move is reported as done, but move_bulky is
    # never called: the booking keeps its old day.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "move_bulky":
            self._flaw("F1")
            out.append(f"Done — bulky collection {args['booking_id']} is now on "
                       f"{rd.say_day(args['collect_on'])}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a fridge or freezer is priced as a large item (£22.00, not £38.00).
    def band_price(self, item: str) -> int:
        if _seed.ITEMS[item] == "fridge":
            self._flaw("F2")
            return _seed.BANDS["large"]
        return super().band_price(item)

    # FLAW F3 (wrong value): the concession is applied to a second garden bin too (£17.50, not
    # £35.00).
    def garden_prices(self, have: int, count: int, concession: bool) -> list[int]:
        right = super().garden_prices(have, count, concession)
        if concession and have + count >= 2:
            self._flaw("F3")
            return [p if p != _seed.GARDEN_SECOND_PENCE else p // 2 for p in right]
        return right

    # FLAW F4 (disclosure): a caller who says the account is someone else's (a parent's, a
    # neighbour's) is served anyway once the number and postcode match.
    def refuses_third_party(self, out: list[str]) -> bool:
        if self.s["third_party"]:
            self._flaw("F4")
            return False
        return super().refuses_third_party(out)

    # FLAW F5 (policy): a missed bin is logged whenever it is reported, after the 2-working-day
    # window too.
    def missed_in_window(self, c: dict[str, Any]) -> bool:
        if not super().missed_in_window(c):
            self._flaw("F5")
        return True

    # FLAW F6 (policy): a bulky collection cancelled inside the 2 working days is refunded in
    # full.
    def refund_for(self, b: dict[str, Any]) -> int:
        right = super().refund_for(b)
        if right == 0:
            self._flaw("F6")
            return int(b["price_pence"])
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

    # FLAW F8 (error handling): a missed-bin report the system refuses (the crew flagged the
    # bin "not presented") is reported as logged.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "not presented" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        back = _seed.add_working_days(self.today, _seed.RETURN_DAYS).isoformat()
        out.append(f"Done — your missed bin is reported; the crew will return by "
                   f"{rd.say_day(back)}.")  # fmt: skip
