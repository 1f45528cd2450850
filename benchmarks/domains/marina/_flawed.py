"""`FlawedMarinaAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "marina:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.marina import _read as rd
from benchmarks.domains.marina import _seed
from benchmarks.domains.marina._agent import CorrectMarinaAgent
from vistasim.testing import note_flaw


class FlawedMarinaAgent(CorrectMarinaAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"marina:{flaw}")

    # FLAW F1 (say-vs-do): a new mobile number or email is reported as saved, but
    # update_contacts is never called: the old details stay on record.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contacts":
            self._flaw("F1")
            said = " and ".join(v for k, v in args.items() if k != "holder_id")
            out.append(f"Done — your contact details are updated to {said}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): every night of a visitor stay is priced at the arrival night's
    # season, so a stay running into June is charged off-peak throughout.
    def visit_nights(self, boat: dict[str, Any], arrival: date, departure: date) -> list[int]:
        right = super().visit_nights(boat, arrival, departure)
        first = _seed.night_rate(boat["length_cm"], arrival)
        if any(r != first for r in right):
            self._flaw("F2")
            return [first] * len(right)
        return right

    # FLAW F3 (wrong value): a berth-size change for an annual payer is charged (or refunded)
    # the whole year's difference, not the months left of the contract year.
    def berth_difference(self, c: dict[str, Any], size: int, months: int) -> int:
        if months != 12:
            self._flaw("F3")
        return super().berth_difference(c, size, 12)

    # FLAW F4 (disclosure): the gate code is read out in the chat instead of being texted to the
    # mobile on record.
    async def step_gate(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        self._flaw("F4")
        out.append(f"This month's gate code is {v['gate_code']} — it opens every pontoon gate.")
        return "done"

    # FLAW F5 (policy): insurance is not checked before a lift-out is booked or moved.
    def insurance_problem(self, boat: dict[str, Any], day: date) -> str | None:
        right = super().insurance_problem(boat, day)
        if right and self.current() and self.current()["intent"] in {"lift", "liftmove"}:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): the cap of four crew passes per boat is not checked.
    def crew_cap_reached(self, boat: dict[str, Any]) -> bool:
        if super().crew_cap_reached(boat):
            self._flaw("F6")
        return False

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

    # FLAW F8 (error handling): an insurance certificate the system refuses (already expired)
    # is reported as recorded.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, a = pending["calls"][0]
        if tool_name != "update_insurance":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — your insurance is on record: {a['insurer']}, policy "
                   f"{a['policy_no']}, valid until {rd.say_full(a['expiry'])}.")  # fmt: skip
