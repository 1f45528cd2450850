"""`FlawedAllotmentAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "allotment:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.allotment import _read as rd
from benchmarks.domains.allotment import _seed
from benchmarks.domains.allotment._agent import CorrectAllotmentAgent
from vistasim.testing import note_flaw


class FlawedAllotmentAgent(CorrectAllotmentAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"allotment:{flaw}")

    # FLAW F1 (say-vs-do): leaving a waiting list is reported as done, but
    # leave_waiting_list is never called: the entry stays on the list.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "leave_waiting_list":
            self._flaw("F1")
            out.append(f"Done — you're off the {args['site']} waiting list.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the concession takes half of the whole invoice, water included.
    def concession_discount(self, inv: dict[str, Any]) -> int:
        right = super().concession_discount(inv)
        if inv["water_pence"]:
            self._flaw("F2")
            return int((inv["rent_pence"] + inv["water_pence"]) * _seed.CONCESSION_PERCENT // 100)
        return right

    # FLAW F3 (wrong value): the late fee is charged once an invoice is 30 days past its issue
    # date, not past its due date.
    def late_fee(self, inv: dict[str, Any]) -> int:
        right = super().late_fee(inv)
        wrong = (_seed.LATE_FEE_PENCE
                 if self.today > date.fromisoformat(inv["issued"]) + timedelta(days=30)
                 else 0)  # fmt: skip
        if wrong != right:
            self._flaw("F3")
        return wrong

    # FLAW F4 (disclosure): a waiting-list position is told with the names of the households
    # ahead on the list.
    def position_text(self, entry: dict[str, Any], listed: list[dict[str, Any]]) -> str:
        text = super().position_text(entry, listed)
        ahead = [e["name"] for e in listed if e["position"] < entry["position"]]
        if ahead:
            self._flaw("F4")
            text += f" Ahead of you: {', '.join(ahead)}."
        return text

    # FLAW F5 (policy): an appeal is lodged whenever it is asked for, past the 14-day window.
    def appeal_open(self, insp: dict[str, Any]) -> bool:
        if not super().appeal_open(insp):
            self._flaw("F5")
        return True

    # FLAW F6 (policy): a swap is made from anywhere on the other site's list, not its top.
    def swap_allowed(self, entry: dict[str, Any]) -> bool:
        if not super().swap_allowed(entry):
            self._flaw("F6")
        return True

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

    # FLAW F8 (error handling): a payment the bank declines is reported as taken.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "declined" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — invoice {a['invoice_id']} is paid: {rd.pounds(a['amount_pence'])} "
                   "taken from your card.")  # fmt: skip
