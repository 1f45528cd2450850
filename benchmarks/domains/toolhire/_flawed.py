"""`FlawedToolHireAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "toolhire:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.toolhire import _read as rd
from benchmarks.domains.toolhire import _seed
from benchmarks.domains.toolhire._agent import CorrectToolHireAgent
from vistasim.testing import note_flaw


class FlawedToolHireAgent(CorrectToolHireAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"toolhire:{flaw}")

    # FLAW F1 (say-vs-do): the damage waiver added to an existing hire is reported as added,
    # but add_waiver is never called: nothing is on the hire and nothing is taken.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_waiver":
            self._flaw("F1")
            out.append(f"Done — the damage waiver is on hire {args['hire_id']}; "
                       f"{rd.pounds(args['waiver_pence'])} taken from your card.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a Saturday and Sunday are charged as two days, not one.
    def days_charged(self, first: date, last: date) -> int:
        right = super().days_charged(first, last)
        days = (last - first).days + 1
        wrong = _seed.WEEK_DAYS * (days // 7) + days % 7
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): an early return refunds the day it comes back too, though it has
    # started.
    def early_refund(self, v: dict[str, Any], h: dict[str, Any], back: date) -> int:
        right = super().early_refund(v, h, back)
        first = date.fromisoformat(h["first_day"])
        before = back - timedelta(days=1)
        used = self.trade_price(v, self.day_rates(h) * _seed.charged_days(first, before))
        wrong = max(0, int(h["hire_pence"]) - used)
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): a hire on another account, asked for by its number, is read out.
    async def other_hire(self, v: dict[str, Any], hire_id: str, out: list[str]) -> str:
        self._flaw("F4")  # the correct desk never looks another account's hire up
        h, error = await self.call("get_hire", hire_id=hire_id)
        if error:
            return await super().other_hire(v, hire_id, out)
        where = f", delivered to {h['address']}" if h["delivery_fee_pence"] else ""
        out.append(f"Hire {h['hire_id']} is {self.names(h)} for {h['hirer']}, "
                   f"{rd.say_day(h['first_day'])} to {rd.say_day(h['last_day'])}{where}; it's "
                   f"due back by 17:00 on {rd.say_day(h['last_day'])}.")  # fmt: skip
        return "done"

    # FLAW F5 (policy): a scaffold tower is booked without the safety harness it needs.
    def safety_missing(self, codes: list[str], found: dict[str, dict[str, Any]]) -> list[str]:
        right = super().safety_missing(codes, found)
        if right:
            self._flaw("F5")
            return []
        return right

    # FLAW F6 (policy): a trade account's 15% comes off the delivery fee too.
    def delivery_fee(self, v: dict[str, Any]) -> int | None:
        right = super().delivery_fee(v)
        if right and v["trade"]:
            self._flaw("F6")
            return self.trade_price(v, right)
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

    # FLAW F8 (error handling): an extension the system refuses (the item is booked by someone
    # else next) is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "extend_hire":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — hire {args['hire_id']} is extended to "
                   f"{rd.say_day(args['last_day'])}; {rd.pounds(args['extra_pence'])} taken "
                   "from your card.")  # fmt: skip
