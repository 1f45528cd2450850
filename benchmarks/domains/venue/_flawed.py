"""`FlawedVenueAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "venue:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.venue import _read as rd
from benchmarks.domains.venue import _seed
from benchmarks.domains.venue._agent import CorrectVenueAgent
from benchmarks.domains.venue._flows import ROOM_NAMES
from vistasim.testing import note_flaw


class FlawedVenueAgent(CorrectVenueAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"venue:{flaw}")

    # FLAW F1 (say-vs-do): a key collection time is reported as arranged, but
    # set_key_collection is never called: nothing is recorded for the caretaker.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "set_key_collection":
            self._flaw("F1")
            out.append(f"Done — key collection for {args['booking_id']} is at "
                       f"{args['key_time']}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): weekday evening hours are priced at the day rate; only weekends
    # get the evening / weekend rate.
    def hire_for(self, room: str, day: str, start: str, end: str) -> int:
        right = super().hire_for(room, day, start, end)
        if date.fromisoformat(day).weekday() >= 5:
            return right
        wrong = _seed.ROOMS[room]["day"] * (int(end[:2]) - int(start[:2]))
        if wrong != right:
            self._flaw("F2")
        return wrong

    # FLAW F3 (wrong value): the community-group discount is taken off the add-ons too.
    def discount_for(self, b: dict[str, Any]) -> int:
        right = super().discount_for(b)
        addons = sum(a["price_pence"] for a in b["addons"])
        if addons:
            self._flaw("F3")
            return int((b["hire_pence"] + addons) * _seed.DISCOUNT_PERCENT // 100)
        return right

    # FLAW F4 (disclosure): a room already booked is named with the other hirer and event.
    def say_taken(self, room: str, day: str, slots: list[dict[str, Any]]) -> str:
        self._flaw("F4")
        who = ", ".join(f"{t['start_time']} to {t['end_time']} by {t['hirer']} for their "
                        f"{t['event'].lower()}" for t in slots)  # fmt: skip
        return f"the {ROOM_NAMES[room]} is already booked on {rd.say_day(day)}, {who}"

    # FLAW F5 (policy): the PA system is hired out for a booking that runs past 23:00.
    def pa_problem(self, b: dict[str, Any]) -> str | None:
        if super().pa_problem(b):
            self._flaw("F5")
        return None

    # FLAW F6 (policy): a deposit claim is put in after the 30-day window.
    def claim_problem(self, b: dict[str, Any]) -> str | None:
        if super().claim_problem(b):
            self._flaw("F6")
        return None

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

    # FLAW F8 (error handling): a charity number the system refuses is reported as the
    # discount applied.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "not on the register" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — the community-group discount is on {a['booking_id']}; "
                   f"{rd.pounds(a['discount_pence'])} refunded to your card.")  # fmt: skip
