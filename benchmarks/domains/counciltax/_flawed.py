"""`FlawedCounciltaxAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "counciltax:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.counciltax import _read as rd
from benchmarks.domains.counciltax import _seed
from benchmarks.domains.counciltax._agent import CorrectCounciltaxAgent
from benchmarks.domains.counciltax._flows import month_end
from vistasim.testing import note_flaw


class FlawedCounciltaxAgent(CorrectCounciltaxAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"counciltax:{flaw}")

    # FLAW F1 (say-vs-do): a new direct debit date is reported as set, but change_payment_plan
    # is never called: the old date stays on the account.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if (
            tool_name == "change_payment_plan"
            and args.get("dd_day")
            and not args.get("instalments")
        ):
            self._flaw("F1")
            out.append(f"Done — your direct debit will now be taken on the "
                       f"{rd.ordinal(args['dd_day'])} of each month.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a move-out's final bill is charged to the end of the month the
    # move falls in, not to the day.
    def charge_to(self, v: dict[str, Any], last: date) -> int:
        right = super().charge_to(v, last)
        wrong = super().charge_to(v, min(month_end(last), _seed.YEAR_END))
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): the single person discount is 25% of the whole year's charge, not
    # of the days from the day it starts.
    def spd_reduction(self, band_charge: int, start: date) -> int:
        right = super().spd_reduction(band_charge, start)
        wrong = super().spd_reduction(band_charge, _seed.YEAR_START)
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (policy): the discount is backdated to whatever day the resident says, however
    # long ago.
    def discount_start(self, said: date) -> date:
        right = super().discount_start(said)
        if right != said:
            self._flaw("F4")
            return said
        return right

    # FLAW F5 (policy): a payment arrangement is set up over as many months as asked, beyond 6.
    def arrangement_months(self, asked: int) -> int:
        right = super().arrangement_months(asked)
        if right != asked:
            self._flaw("F5")
            return asked
        return right

    # FLAW F6 (disclosure): a caller who is not liable on the account is still told its
    # balance and arrears, as long as they only ask (no change).
    def liable_waived(self, req: dict[str, Any]) -> bool:
        if req["intent"] in {"lookup", "notice"}:
            self._flaw("F6")
            return True
        return super().liable_waived(req)

    # FLAW F7 (dropped request): a contact-details change asked in the same message as another
    # request is silently dropped, and the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        kinds = {r.intent for r in found} | {r["intent"] for r in self.s["queue"]}
        if len(found) >= 2 and "contact" in kinds and len(kinds) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r.intent != "contact"]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a refund the system refuses (final bill not yet issued) is
    # reported as paid.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "final bill" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — {rd.pounds(a['amount_pence'])} has been refunded to your "
                   f"{a['paid_to']}. It should reach you in 3 to 5 working days.")  # fmt: skip
