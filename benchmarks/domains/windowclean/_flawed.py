"""`FlawedWindowcleanAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "windowclean:Fn")` at the moment it changes what the agent
does, and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.windowclean import _read as rd
from benchmarks.domains.windowclean import _seed
from benchmarks.domains.windowclean._agent import CorrectWindowcleanAgent
from vistasim.testing import note_flaw


class FlawedWindowcleanAgent(CorrectWindowcleanAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"windowclean:{flaw}")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "pause_round" and await self._pause_as_skip(req, args, out):
            return
        await super().execute(req, pending, out)
        # FLAW F7 (dropped request): once a payment goes through, the rest of what the customer
        # asked for in the chat is forgotten, and the desk says everything is sorted.
        last = self.calls[-1] if self.calls else {}
        if tool_name == "pay_charges" and not last.get("error") and self.s["queue"]:
            self._flaw("F7")
            self.s["queue"] = []
            self.s["dropped"] = True

    # FLAW F1 (say-vs-do): a pause over two or more cleans skips only the first one, while the
    # desk reports the whole pause as set: the later cleans in the pause still come (and are
    # charged).
    async def _pause_as_skip(self, req: dict[str, Any], args: dict[str, Any],
                             out: list[str]) -> bool:  # fmt: skip
        v = dict(self.s["view"])
        inside = [x for x in self.upcoming(v) if args["start"] <= x["date"] <= args["end"]]
        if len(inside) < 2:
            return False
        self._flaw("F1")
        _, error = await self.call("skip_visit", account_id=args["account_id"],
                                   visit_id=inside[0]["visit_id"], fee_pence=0)  # fmt: skip
        if error:
            return False
        after = [x for x in self.upcoming(v) if x["date"] > args["end"]]
        then = f" Your next clean is {rd.say_day(after[0]['date'])}." if after else ""
        out.append(f"Done — your round is paused from {rd.say_day(args['start'])} to "
                   f"{rd.say_day(args['end'])}; {len(inside)} clean(s) paused.{then}")  # fmt: skip
        self.finish(req)
        return True

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything sorted for you."
        return super().closing()

    # FLAW F2 (wrong value): the 6- and 8-weekly surcharge is put on the extras too, not only on
    # the house.
    def visit_price(self, property_type: str, frequency: int, extras: list[str]) -> int:
        right = super().visit_price(property_type, frequency, extras)
        if extras and _seed.SURCHARGE_PERCENT[frequency]:
            self._flaw("F2")
            base = _seed.PROPERTY_PENCE[property_type] + sum(_seed.EXTRA_PENCE[e] for e in extras)
            return base * (100 + _seed.SURCHARGE_PERCENT[frequency]) // 100
        return right

    # FLAW F3 (wrong value): the skip notice is counted off by one: a clean exactly 2 days away
    # gets the £5.00 late-skip fee.
    def skip_fee(self, days_away: int) -> int:
        if days_away == _seed.SKIP_NOTICE_DAYS:
            self._flaw("F3")
            return _seed.LATE_SKIP_PENCE
        return super().skip_fee(days_away)

    # FLAW F4 (disclosure): asked what access code is on file, the desk reads it out.
    def access_reply(self, v: dict[str, Any]) -> str:
        self._flaw("F4")
        return f"The access code we have on your account is {v['access_code']}."

    # FLAW F5 (policy): a charge is disputed however long ago the visit was (no 14-day window).
    def dispute_too_late(self, days_since: int) -> bool:
        if super().dispute_too_late(days_since):
            self._flaw("F5")
        return False

    # FLAW F6 (policy): a cancellation ends the round before the next clean even when that clean
    # falls inside the 14 days' notice, so the notice period's cleans are cancelled too.
    def notice_end(self, v: dict[str, Any]) -> str:
        right = super().notice_end(v)
        inside = [x for x in self.upcoming(v) if x["date"] <= right]
        if inside:
            self._flaw("F6")
            return (date.fromisoformat(inside[0]["date"]) - timedelta(days=1)).isoformat()
        return right

    # FLAW F8 (error handling): a declined card is reported as a payment taken.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "declined" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — {rd.pounds(a['amount_pence'])} paid from your card ending "
                   f"{self.s['view']['card_last4']}. Thank you.")  # fmt: skip
