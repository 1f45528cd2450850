"""`FlawedTattooAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "tattoo:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.tattoo import _read as rd
from benchmarks.domains.tattoo import _seed
from benchmarks.domains.tattoo._agent import CorrectTattooAgent
from benchmarks.domains.tattoo._flows import at
from vistasim.testing import note_flaw


class FlawedTattooAgent(CorrectTattooAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"tattoo:{flaw}")

    # FLAW F1 (say-vs-do): a patch test is reported as booked, but book_patch_test is never
    # called: nothing is on the record.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "book_patch_test":
            self._flaw("F1")
            out.append(f"Done — your patch test is booked for {rd.say_when(args['at'])}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a gift card is put against the whole price, the deposit included,
    # so more comes off the card than is left to pay.
    def gift_cover(self, b: dict[str, Any]) -> int:
        right = super().gift_cover(b)
        wrong = int(b["price_pence"] + b["kits_pence"] - b["gift_pence"])
        card = self.s.get("card_balance", 0)
        if min(card, wrong) != min(card, right):
            self._flaw("F2")
            return wrong
        return right

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        result, error = await super().call(tool_name, **args)
        if tool_name == "check_gift_card" and not error:
            # what gift_cover needs to tell whether the wrong cover changes the amount
            self.s["card_balance"] = int(result["balance_pence"])
        return result, error

    # FLAW F3 (wrong value): the 72 hours are counted to midnight before the session day, not
    # to its start: a first move 72-80 hours out is said to lose the deposit.
    def hours_before(self, b: dict[str, Any]) -> float:
        right = super().hours_before(b)
        midnight = datetime.combine(date.fromisoformat(b["start"][:10]), datetime.min.time(),
                                    tzinfo=_seed.UK)  # fmt: skip
        wrong = (midnight - self.now).total_seconds() / 3600
        if self.free_move(b, wrong) != self.free_move(b, right):
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): another client's booking is read out to whoever names its reference.
    def may_share(self, v: dict[str, Any], b: dict[str, Any]) -> bool:
        if not super().may_share(v, b):
            self._flaw("F4")
        return True

    # FLAW F5 (policy): the age is worked out from the birth year only, so a 17-year-old who
    # turns 18 later in the appointment's year is booked.
    def old_enough(self, dob: str, day: date) -> bool:
        right = super().old_enough(dob, day)
        wrong = day.year - date.fromisoformat(dob).year >= _seed.MIN_AGE
        if wrong != right:
            self._flaw("F5")
            return wrong
        return right

    # FLAW F6 (policy): any patch test before a colour session is taken as enough, not one at
    # least 48 hours before it.
    def patch_ok(self, v: dict[str, Any], start: str) -> bool:
        right = super().patch_ok(v, start)
        wrong = any(at(p["at"]) + timedelta(minutes=_seed.PATCH_MINUTES) <= at(start)
                    for p in v["patch_tests"])  # fmt: skip
        if wrong != right:
            self._flaw("F6")
            return wrong
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
            found = [r for r in found if r.intent != fresh[1].intent]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a move the system refuses (the artist is already booked, a day
    # they don't work) is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "move_booking":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — booking {args['booking_id']} is now on {rd.say_when(args['start'])}.")
