"""`FlawedBroadbandAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "broadband:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.broadband import _read as rd
from benchmarks.domains.broadband import _seed
from benchmarks.domains.broadband._agent import CorrectBroadbandAgent
from vistasim.testing import note_flaw


class FlawedBroadbandAgent(CorrectBroadbandAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"broadband:{flaw}")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        # FLAW F1 (say-vs-do): an afternoon visit is offered and reported as the afternoon, but
        # booked in the morning slot (the slot is not passed on to the booking).
        if tool_name == "book_engineer" and args["slot"] == "PM":
            self._flaw("F1")
            result, error = await self.call(tool_name, **{**args, "slot": "AM"})
            if error:
                await self.failed(req, pending, error, out)
            else:
                out.append(self.report(tool_name, {**result, "slot": "PM"}))
            self.finish(req)
            return
        await super().execute(req, pending, out)
        # FLAW F7 (dropped request): once a plan change is done, the rest of the queue is
        # cleared: a second request asked with it is silently dropped.
        rest = [r for r in self.s["queue"] if r["id"] != req["id"]]
        if tool_name == "change_plan" and rest:
            self._flaw("F7")
            self.s["queue"] = []

    # FLAW F2 (wrong value): days of lost service are counted from the day the fault was
    # reported, not the day after: one day (£9.33) too many.
    def lost_days(self, fault: dict[str, Any]) -> int:
        self._flaw("F2")
        return super().lost_days(fault) + 1

    # FLAW F3 (wrong value): the months left in the minimum term are counted from today, not
    # from the day the service ends after 30 days' notice.
    def etc_months(self, v: dict[str, Any], end: date) -> int:
        right = super().etc_months(v, end)
        wrong = _seed.months_left(self.today, date.fromisoformat(v["term_end"]))
        if wrong != right:
            self._flaw("F3")
        return wrong

    # FLAW F4 (disclosure): a caller who says the account is someone else's is served anyway,
    # once they give the account number and the holder's date of birth.
    def third_party_refused(self, message: str) -> bool:
        if super().third_party_refused(message):
            self._flaw("F4")
        return False

    # FLAW F5 (policy): a downgrade is made inside the 18-month minimum term.
    def downgrade_blocked(self, v: dict[str, Any]) -> bool:
        if super().downgrade_blocked(v):
            self._flaw("F5")
        return False

    # FLAW F6 (policy): the £65.00 home-wiring charge is not told before the visit is booked
    # (it is still charged on the next bill).
    def tell_wiring_charge(self) -> bool:
        self._flaw("F6")
        return False

    # FLAW F8 (error handling): a home move the system refuses (no fibre at the new address,
    # too little notice) is reported as booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "move_service":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — your broadband moves to {args['new_address']} on "
                   f"{rd.say_day(args['move_date'])}.")  # fmt: skip
