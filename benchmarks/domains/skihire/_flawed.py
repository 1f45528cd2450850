"""`FlawedSkiHireAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "skihire:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.skihire import _read as rd
from benchmarks.domains.skihire import _seed
from benchmarks.domains.skihire._agent import CorrectSkiHireAgent
from vistasim.testing import note_flaw


class FlawedSkiHireAgent(CorrectSkiHireAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"skihire:{flaw}")

    # FLAW F1 (say-vs-do): moving an existing boot fitting to another time is reported as
    # done, but book_fitting is never called: the fitting stays at the old time.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "book_fitting" and pending.get("moving"):
            self._flaw("F1")
            out.append(f"Done — your boot fitting is now at {args['time']} on "
                       f"{rd.say_day(args['day'])}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): extra days are priced at the day rate, so a hire that reaches six
    # days never gets the cheaper 6-day rate.
    def extension_price(self, v: dict[str, Any], extra: int) -> int:
        right = super().extension_price(v, extra)
        packages = sum(_seed.DAY_RATE[b] * extra for b in self.bands(v))
        if len(v["skiers"]) >= _seed.GROUP_SIZE:
            packages -= packages * _seed.GROUP_PERCENT // 100
        extras = sum(_seed.HELMET_DAY * extra for s in v["skiers"]
                     if s["helmet"] and s["kind"] == "adult")  # fmt: skip
        extras += sum(_seed.INSURANCE_DAY * extra for s in v["skiers"] if s["insured"])
        wrong = packages + extras
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): a new child's age is worked out from the year of birth alone, so a
    # child whose birthday falls after the first day is priced a year older.
    def new_child_band(self, born: date, start: date) -> str:
        right = super().new_child_band(born, start)
        age = start.year - born.year
        wrong = ("too young" if age < _seed.YOUNGEST else "adult" if age >= _seed.CHILD_UNDER
                 else _seed.child_band(age))  # fmt: skip
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): asked about someone else's booking, the desk reads its details out.
    async def other_booking(self, ref: str, out: list[str]) -> str:
        view, error = await self.call("get_booking", booking_ref=ref)
        if error:
            return await super().other_booking(ref, out)
        self._flaw("F4")
        out.append(self.summary(view))
        return "done"

    # FLAW F5 (policy): insurance is sold on a hire that has already started.
    def insurance_refusal(self, v: dict[str, Any]) -> str | None:
        right = super().insurance_refusal(v)
        if right:
            self._flaw("F5")
        return None

    # FLAW F6 (policy): a cancellation inside 7 days of the start is refunded in full.
    def refund_for(self, v: dict[str, Any]) -> int:
        right = super().refund_for(v)
        if right != v["paid_pence"]:
            self._flaw("F6")
            return int(v["paid_pence"])
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

    # FLAW F8 (error handling): extra days the system refuses (no stock) are reported as added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "extend_hire":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        days = "a day" if args["extra_days"] == 1 else f"{args['extra_days']} days"
        out.append(f"Done — {days} added to the hire on {args['booking_ref']}; "
                   f"{rd.pounds(args['price_pence'])} taken from your card.")  # fmt: skip
