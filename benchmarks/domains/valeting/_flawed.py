"""`FlawedValetingAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "valeting:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from benchmarks.domains.valeting import _read as rd
from benchmarks.domains.valeting import _seed
from benchmarks.domains.valeting._agent import CorrectValetingAgent
from benchmarks.domains.valeting._flows import total_of
from vistasim.testing import note_flaw


class FlawedValetingAgent(CorrectValetingAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"valeting:{flaw}")

    # FLAW F1 (say-vs-do): pet-hair removal is reported as added, but add_addon is never
    # called: nothing is added or charged.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_addon" and args.get("kind") == "pet_hair":
            self._flaw("F1")
            out.append(f"Done — pet-hair removal is on {args['booking_id']} "
                       f"({rd.pounds(args['price_pence'])}).")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a half refund is worked out on the package price only, leaving
    # the add-ons paid for out of it.
    def refund_for(self, b: dict[str, Any]) -> int:
        right = super().refund_for(b)
        if b["addons"] and 0 < right < total_of(b):
            self._flaw("F2")
            return int(b["price_pence"]) // 2
        return right

    # FLAW F3 (wrong value): the 24 hours before a visit are counted to midnight at the start
    # of the visit day, not to the visit's start (08:00 or 13:00).
    def move_fee(self, b: dict[str, Any]) -> int:
        right = super().move_fee(b)
        midnight = datetime.fromisoformat(b["day"]).replace(tzinfo=_seed.UK)
        hours = (midnight - self.now).total_seconds() / 3600
        wrong = 0 if hours >= _seed.FREE_MOVE_HOURS else _seed.MOVE_FEE_PENCE
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): a booking reference that is not on the caller's account is looked
    # up and read out.
    async def foreign_booking(self, ref: str, out: list[str]) -> str:
        result, error = await self.call("get_booking", booking_id=ref)
        if error:
            return str(await super().foreign_booking(ref, out))
        self._flaw("F4")
        out.append(self.describe(result))
        return "done"

    # FLAW F5 (policy): a ceramic coating is allowed with an exterior wash.
    def ceramic_allowed(self, package: str) -> bool:
        right = super().ceramic_allowed(package)
        if not right:
            self._flaw("F5")
            return True
        return right

    # FLAW F6 (policy): a free re-clean is booked however long ago the visit was.
    def reclean_allowed(self, b: dict[str, Any]) -> bool:
        right = super().reclean_allowed(b)
        if not right:
            self._flaw("F6")
            return True
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

    # FLAW F8 (error handling): a move the system refuses (no valeter free in that slot) is
    # reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "move_booking" or "no valeter is free" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — {args['booking_id']} is now {rd.say_day(args['day'])}, "
                   f"{args['slot']}.")  # fmt: skip
