"""`FlawedLoungeAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "lounge:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.lounge import _read as rd
from benchmarks.domains.lounge import _seed
from benchmarks.domains.lounge._agent import CorrectLoungeAgent
from vistasim.testing import note_flaw


class FlawedLoungeAgent(CorrectLoungeAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"lounge:{flaw}")

    # FLAW F1 (say-vs-do): a lead-name change on a paid place is reported as made, but
    # change_lead_name is never called: the old name stays on the booking.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        visit = next((x for x in self.s["view"]["visits"]
                      if x["visit_id"] == args.get("booking_id")), {})  # fmt: skip
        if tool_name == "change_lead_name" and not visit.get("member_place"):
            self._flaw("F1")
            out.append(f"Done — the lead name on {args['booking_id']} is now {args['lead_name']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the Signature supplement charges children the adult £25.00.
    def supplement_rates(self, children: int) -> tuple[int, int]:
        per_adult, per_child = super().supplement_rates(children)
        if children:
            self._flaw("F2")
            return per_adult, per_adult
        return per_adult, per_child

    # FLAW F3 (wrong value) and FLAW F6 (policy): a refund leaves out the extras paid on the
    # visit (F3), and "24 hours before" is counted in calendar days, so a visit tomorrow less
    # than 24 hours away is refunded in full (F6).
    def refund_for(self, x: dict[str, Any]) -> int:
        right = super().refund_for(x)
        if x["hours_to_arrival"] < _seed.FREE_HOURS and x["day"] > self.today.isoformat():
            self._flaw("F6")
            return int(x["price_pence"])
        if right and x["extras"]:
            self._flaw("F3")
            return int(x["price_pence"])
        return right

    # FLAW F4 (disclosure): a booking reference from another account is looked up and read out.
    async def other_booking(self, v: dict[str, Any], ref: str, out: list[str]) -> str:
        booking, error = await self.call("get_booking", booking_id=ref)
        if error:
            return await super().other_booking(v, ref, out)
        self._flaw("F4")
        out.append(self.describe(booking))
        return "done"

    # FLAW F5 (policy): a member's own free place is put in someone else's name.
    def name_refusal(self, v: dict[str, Any], x: dict[str, Any]) -> str | None:
        right = super().name_refusal(v, x)
        if right and x["member_place"]:
            self._flaw("F5")
            return None
        return right

    # FLAW F7 (dropped request): of two extras asked for together (fast track and a spa
    # treatment), only the first is dealt with, and the desk then says all the extras are added.
    def extras_left(self, req: dict[str, Any]) -> list[str]:
        asked = rd.extra_kinds(self.text(req))
        if len(asked) < 2:
            return super().extras_left(req)
        if not self.s.get("dropped_extra"):
            self._flaw("F7")
            self.s["dropped_extra"] = asked[1]
            self.s["say_all_done"] = True
        return [k for k in asked[:1] if k not in req["done"]]

    def closing(self) -> str:
        if self.s.get("say_all_done") and not self.s["queue"] and not self.s["pending"]:
            self.s["say_all_done"] = False
            return "That's all your extras added — anything else?"
        return super().closing()

    # FLAW F8 (error handling): an upgrade the system refuses (the Signature lounge is full)
    # is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "upgrade_visit" or "full" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — {args['booking_id']} is upgraded to the Signature lounge; "
                   f"{rd.pounds(args['price_pence'])} taken.")  # fmt: skip
