"""`FlawedMuseumAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "museum:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.museum import _read as rd
from benchmarks.domains.museum import _seed
from benchmarks.domains.museum._agent import CorrectMuseumAgent
from benchmarks.domains.museum._env import plus_year
from vistasim.testing import note_flaw

WRONG_REFUND_DAYS = 30  # the renewal window, mistaken for the cooling-off period


class FlawedMuseumAgent(CorrectMuseumAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"museum:{flaw}")

    # FLAW F1 (say-vs-do): a Gift Aid declaration is reported as recorded, but add_gift_aid is
    # never called: the membership stays without Gift Aid.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_gift_aid":
            self._flaw("F1")
            out.append(f"Done — Gift Aid is now on membership {args['membership_id']}, declared "
                       f"on {rd.say_date(args['declaration_date'])}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): an early renewal runs a year from today, not a year from the old
    # expiry date: the days left are lost.
    def renewal_expiry(self, v: dict[str, Any]) -> str:
        right = super().renewal_expiry(v)
        if v["days_to_expiry"] > 0:
            self._flaw("F2")
            return plus_year(self.today.isoformat())
        return right

    # FLAW F3 (wrong value): when guests come, every ticket is charged the guest price, the
    # members' own included.
    def ticket_price(self, tickets: int, guests: int) -> int:
        right = super().ticket_price(tickets, guests)
        if guests and tickets > guests:
            self._flaw("F3")
            return tickets * _seed.GUEST_PENCE
        return right

    # FLAW F4 (disclosure): after a failed date-of-birth check the desk "helps" by saying whose
    # membership the number is and when it expires.
    async def on_verify_failed(self, membership_id: str, out: list[str]) -> None:
        view, error = await self.call("get_membership", membership_id=membership_id)
        if error:
            return
        self._flaw("F4")
        out.append(f"That number is {view['member_name']}'s membership, which runs until "
                   f"{rd.say_date(view['expires_on'])}, but the date of birth doesn't match "
                   "ours.")  # fmt: skip

    # FLAW F5 (policy): guests are booked into Saturday slots, which are members only.
    def saturday_refusal(self, day: date, guests: int) -> str | None:
        right = super().saturday_refusal(day, guests)
        if right:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): the full refund is given up to 30 days after joining, not 14.
    def refund_for(self, v: dict[str, Any]) -> int | None:
        right = super().refund_for(v)
        if right is None and v["days_since_joining"] <= WRONG_REFUND_DAYS:
            self._flaw("F6")
            return int(v["price_pence"])
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

    # FLAW F8 (error handling): tickets the system refuses for want of places are reported as
    # booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "left in that slot" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — {a['tickets']} tickets booked on {rd.say_day(a['day'])} at "
                   f"{a['time']}; {rd.pounds(a['price_pence'])} paid.")  # fmt: skip
