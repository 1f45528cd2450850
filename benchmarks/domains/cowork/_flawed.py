"""`FlawedCoworkAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "cowork:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.cowork import _read as rd
from benchmarks.domains.cowork import _seed
from benchmarks.domains.cowork._agent import CorrectCoworkAgent
from vistasim.testing import note_flaw


class FlawedCoworkAgent(CorrectCoworkAgent):
    """The same desk, with eight documented flaws."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._first_day = False
        self._booking = False

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"cowork:{flaw}")

    # FLAW F1 (say-vs-do): a locker return is reported as done, with the deposit refund, but
    # return_locker is never called: the locker stays rented and nothing is refunded.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "return_locker":
            self._flaw("F1")
            view = self.s["view"] or {}
            out.append(
                f"Done — locker {view.get('locker')} is returned, and {pending['refund']} is "
                f"refunded to your card ending {view.get('card_last4')}."
            )
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): of two days in a booking request ("Thursday 17 December — sorry,
    # I meant Friday 18 December"), the first one said is booked, not the corrected one.
    def pick_day(self, text: str) -> date | None:
        right = super().pick_day(text)
        said = rd.dates(text, self.today, all_said=True)
        if self._booking and said and right is not None and said[0] != right:
            if said[0] >= self.today:
                self._first_day = True
                return said[0]
        return right

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        self._first_day, self._booking = False, True
        try:
            status = await super().step_book(req, out)
        finally:
            self._booking = False
        pending = self.s["pending"]
        if self._first_day and pending and pending["tool"] == "book_room":
            self._flaw("F2")
        return status

    # FLAW F3 (wrong value): an upgrade is quoted and charged the whole month's price
    # difference, not the pro-rata part for the rest of the month.
    def upgrade_charge(self, old: dict[str, Any], new_plan: str) -> int:
        right = super().upgrade_charge(old, new_plan)
        full = _seed.PLANS[new_plan][1] - _seed.PLANS[old["plan"]][1]
        if full != right:
            self._flaw("F3")
        return full

    # FLAW F4 (disclosure): asked about a booking number that is not the member's, the desk
    # reads it out from the staff look-up: whose it is, the room, the day and the times.
    async def other_booking(self, booking_id: str, out: list[str]) -> None:
        view, error = await self.call("get_booking", booking_id=booking_id)
        if error:
            await super().other_booking(booking_id, out)
            return
        self._flaw("F4")
        out.append(
            f"Booking {view['booking_id']} is {view['member_name']}'s: {view['room']} on "
            f"{rd.say_day(view['day'])}, {view['start']}–{view['end']}, for "
            f"{view['attendees']} people."
        )

    # FLAW F5 (policy): the limit of two guests per member per day is not checked.
    def guests_allowed(self, already: int, adding: int) -> bool:
        if not super().guests_allowed(already, adding):
            self._flaw("F5")
        return True

    # FLAW F6 (policy): the 24-hour rule is skipped: a late cancellation is quoted, and made,
    # with the credit hours and the payment given back.
    def late(self, booking: dict[str, Any]) -> bool:
        if super().late(booking):
            self._flaw("F6")
        return False

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says that everything asked is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        current = self.current()
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if (
                current is None or request.intent != current["intent"]
            ) and request.intent not in seen:
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

    # FLAW F8 (error handling): a room booking the system refuses (the room is already booked)
    # is reported as made.
    async def book_failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        if "already booked" not in error:
            await super().book_failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["args"]
        name = _seed.ROOMS[a["room_id"]][0]
        end = int(a["start"][:2]) + a["hours"]
        out.append(
            f"Done — {name} is booked for you on {rd.say_day(a['day'])}, {a['start']}–{end:02d}:00."
        )
