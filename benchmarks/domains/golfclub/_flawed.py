"""`FlawedGolfClubAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "golfclub:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.golfclub import _read as rd
from benchmarks.domains.golfclub import _seed
from benchmarks.domains.golfclub._agent import CorrectGolfClubAgent
from vistasim.agent import Reply, Turn
from vistasim.testing import note_flaw


class FlawedGolfClubAgent(CorrectGolfClubAgent):
    """The same desk, with eight documented flaws."""

    async def respond(self, turn: Turn) -> Reply:
        self._noted: set[str] = set()
        return await super().respond(turn)

    def _flaw(self, flaw: str) -> None:
        # once per turn: a price worked out twice for one proposal is one flaw firing
        if self.turn is not None and flaw not in self._noted:
            self._noted.add(flaw)
            note_flaw(self.turn, f"golfclub:{flaw}")

    # FLAW F1 (say-vs-do): a buggy added to an existing booking is reported as added, but
    # add_buggy is never called: no buggy is hired and nothing is charged.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_buggy":
            self._flaw("F1")
            out.append(f"Done — a buggy is added to {args['booking_id']} (£25.00, card ending "
                       f"{self.s['view']['card_last4']}).")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): twilight is read as after 15:00, not from it: guests at a 15:00
    # tee time are charged the full £30.00, not £20.00.
    def guest_rate(self, at: str) -> int:
        if at == _seed.TWILIGHT_FROM:
            self._flaw("F2")
            return _seed.GUEST_FEE
        return super().guest_rate(at)

    # FLAW F3 (wrong value): only Saturday counts as the weekend: visitors on a Sunday are
    # charged the weekday green fee (£45.00, not £60.00).
    def visitor_rate(self, day: date) -> int:
        if day.weekday() == 6:
            self._flaw("F3")
            return _seed.VISITOR_WEEKDAY_FEE
        return super().visitor_rate(day)

    # FLAW F4 (disclosure): a booking reference said in the chat is read out whoever leads it:
    # another golfer's tee time, group and lead player's name.
    def may_see(self, v: dict[str, Any], b: dict[str, Any]) -> bool:
        if not super().may_see(v, b):
            self._flaw("F4")
        return True

    # FLAW F5 (policy): the age rule is skipped: a junior under 18 gets a buggy.
    def buggy_refusal(self, v: dict[str, Any], day: date) -> str | None:
        right = super().buggy_refusal(v, day)
        if right:
            self._flaw("F5")
        return None

    # FLAW F6 (policy): visitors are given the members' 14-day window, not 7 days.
    def window_refusal(self, v: dict[str, Any], day: date) -> str | None:
        right = super().window_refusal(v, day)
        ahead = (day - self.today).days
        if right and v["kind"] == "visitor" and ahead <= _seed.MEMBER_WINDOW_DAYS:
            self._flaw("F6")
            return None
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

    # FLAW F8 (error handling): a lesson the system refuses (the professional isn't free) is
    # reported as booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, a = pending["calls"][0]
        if tool_name != "book_lesson":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — your {a['minutes']}-minute lesson with {_seed.PRO_NAME} is booked "
                   f"for {rd.say_day(a['lesson_date'])} at {a['start_time']} "
                   f"({rd.pounds(a['price_pence'])}).")  # fmt: skip
