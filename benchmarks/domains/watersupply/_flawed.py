"""`FlawedWatersupplyAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "watersupply:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.watersupply import _read as rd
from benchmarks.domains.watersupply import _seed
from benchmarks.domains.watersupply._agent import CorrectWatersupplyAgent
from vistasim.testing import note_flaw


class FlawedWatersupplyAgent(CorrectWatersupplyAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"watersupply:{flaw}")

    # FLAW F1 (say-vs-do): a need added to an existing Priority Services Register record is
    # reported as added, but register_priority is never called: the record keeps its old needs.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        view = self.s["view"] or {}
        if tool_name == "register_priority" and view.get("priority"):
            self._flaw("F1")
            out.append("Done — I've updated your Priority Services Register record.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a leak allowance is credited at the clean-water rate only
    # (£1.80 per m3), leaving out the wastewater part, for homes on the public sewer.
    def leak_rate(self, home: dict[str, Any]) -> int:
        right = super().leak_rate(home)
        if home["sewer"]:
            self._flaw("F2")
            return _seed.WATER_PENCE
        return right

    # FLAW F3 (wrong value): a meter reading's bill charges wastewater to a home on a septic
    # tank (£3.90 per m3, not £1.80).
    def reading_rate(self, home: dict[str, Any]) -> int:
        right = super().reading_rate(home)
        if not home["sewer"]:
            self._flaw("F3")
            return _seed.unit_rate(1)
        return right

    # FLAW F4 (disclosure): a balance question with an account number is answered from the
    # account before the postcode is checked.
    async def ensure_identity(self, out: list[str]) -> bool:
        req = self.current()
        account = self.s["facts"].get("account_id")
        if (not self.s["account"] and not self.s["locked"] and req is not None
                and req["intent"] == "balance" and account):  # fmt: skip
            view, error = await self.call("get_account", account_id=account)
            if not error:
                self._flaw("F4")
                out.append(self.say_balance(view))
                self.finish(req)
                self.s["facts"].pop("unknown", None)
                return False
        return await super().ensure_identity(out)

    # FLAW F5 (policy): a leak inside the home (a toilet, a tap) gets an allowance too.
    def leak_covered(self, place: str) -> bool:
        if place == "internal":
            self._flaw("F5")
            return True
        return super().leak_covered(place)

    # FLAW F6 (policy): a payment plan longer than 12 months is set up as asked (up to 24).
    def plan_months_allowed(self, months: int) -> int:
        right = super().plan_months_allowed(months)
        if months > _seed.MAX_PLAN_MONTHS:
            self._flaw("F6")
            return min(months, 24)
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

    # FLAW F8 (error handling): a move in the system refuses because the home is still supplied
    # to another account is reported as set up.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "move_in" or "already supplied" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — you're set up at {args['postcode']} from "
                   f"{rd.say_day(args['move_date'])}, opening reading "
                   f"{args['opening_reading']}.")  # fmt: skip
