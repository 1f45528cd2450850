"""`FlawedGarageAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "garage:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.garage import _read as rd
from benchmarks.domains.garage import _seed
from benchmarks.domains.garage._agent import CorrectGarageAgent
from benchmarks.domains.garage._flows import KIND_NAMES
from vistasim.testing import note_flaw


class FlawedGarageAgent(CorrectGarageAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"garage:{flaw}")

    # FLAW F1 (say-vs-do): a new phone number is reported as saved, but update_contact is
    # never called: the old number stays on the account.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contact" and args.get("phone"):
            self._flaw("F1")
            out.append(f"Done — your phone number is now {args['phone']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the engine band's upper edge is read as "under 2,000cc", so a
    # 2,000cc car is quoted and booked at the large-engine price.
    def price_for(self, kind: str, engine_cc: int) -> int:
        right = super().price_for(kind, engine_cc)
        if kind != "mot" and engine_cc == 2000:
            self._flaw("F2")
            return _seed.SERVICES[kind][1][2]
        return right

    # FLAW F3 (wrong value): paying an invoice takes the whole total, disputed lines included.
    def amount_due(self, inv: dict[str, Any]) -> int:
        right = super().amount_due(inv)
        total = sum(line["amount_pence"] for line in inv["lines"])
        if total != right:
            self._flaw("F3")
        return total

    # FLAW F4 (disclosure): asked about a car not on the caller's account, the desk reads out
    # the staff look-up: the keeper's name and the car's bookings.
    async def other_vehicle(self, reg: str, out: list[str]) -> None:
        car, error = await self.call("find_vehicle", registration=reg)
        if error:
            await super().other_vehicle(reg, out)
            return
        self._flaw("F4")
        booked = "; ".join(f"{KIND_NAMES[b['kind']]} on {rd.say_day(b['day'])}"
                           for b in car["bookings"]) or "nothing booked"  # fmt: skip
        out.append(f"{reg} is {car['owner']}'s {car['model']}: {booked}.")

    # FLAW F5 (policy): the courtesy car's licence rule (3 years held) is not checked.
    def car_refusal(self, view: dict[str, Any], kind: str) -> str | None:
        right = super().car_refusal(view, kind)
        if right and kind in {"full", "major"}:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): a safety-critical line of extra work can be declined like any other.
    def may_decline(self, line: dict[str, Any]) -> bool:
        if line["safety"]:
            self._flaw("F6")
        return True

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        current = self.current()
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if (current is None or request.intent != current["intent"]) and (
                request.intent not in seen
            ):
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

    # FLAW F8 (error handling): a booking the system refuses because the day is fully booked
    # is reported as made.
    async def book_failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        if "fully booked" not in error:
            await super().book_failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(
            f"Done — {KIND_NAMES[a['kind']]} for {a['registration']} is booked on "
            f"{rd.say_day(a['day'])}, drop-off 08:00; {rd.pounds(a['price_pence'])}, paid on "
            "collection."
        )
