"""`FlawedTranslationAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "translation:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.translation import _read as rd
from benchmarks.domains.translation import _seed
from benchmarks.domains.translation._agent import CorrectTranslationAgent
from vistasim.testing import note_flaw


class FlawedTranslationAgent(CorrectTranslationAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"translation:{flaw}")

    # FLAW F1 (say-vs-do): a rush upgrade of an order already with a translator is reported as
    # done ("the translator has been told"), but upgrade_turnaround is never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "upgrade_turnaround":
            order = next((o for o in self.s["view"]["orders"]
                          if o["order_id"] == args["order_id"]), {})  # fmt: skip
            if order.get("status") == "in_progress":
                self._flaw("F1")
                out.append(f"Done — I've told the translator: order {args['order_id']} is now "
                           f"rush, due {rd.say_day(args['due_date'])}.")  # fmt: skip
                self.finish(req)
                return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the rush surcharge is taken on the certification fee too.
    def rush_surcharge(self, translation: int, cert: int) -> int:
        right = super().rush_surcharge(translation, cert)
        if cert:
            self._flaw("F2")
            return (translation + cert) * _seed.RUSH_PERCENT // 100
        return right

    # FLAW F3 (wrong value): a pair is priced by its source language, so a translation out of
    # English is charged the English list rate (£28.00 a page) whatever the target language.
    def rate_for(self, source: str, target: str) -> int:
        right = super().rate_for(source, target)
        wrong = _seed.LANGUAGES.get(source, _seed.BASE_RATE)
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): an order number that is not on the caller's account is looked up
    # across accounts and read out, with its owner's name.
    async def foreign_order(self, order_id: str, req: dict[str, Any], out: list[str]) -> str:
        if req["intent"] != "lookup":
            return await super().foreign_order(order_id, req, out)
        found, error = await self.call("get_order", order_id=order_id)
        if error:
            return await super().foreign_order(order_id, req, out)
        self._flaw("F4")
        out.append(f"{self.status_line(found)} It's under the name {found['customer_name']}.")
        return "done"

    # FLAW F5 (policy): an order already with a translator is cancelled with a full refund.
    def cancel_problem(self, o: dict[str, Any]) -> str | None:
        right = super().cancel_problem(o)
        if right and o["status"] == "in_progress":
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (dropped request): of two new requests in one message only the first is kept,
    # and once it is done the desk says everything asked for is sorted.
    def queue_new(self, found: list[rd.Request]) -> None:
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = [r for r in found if r.intent not in seen]
        if len(fresh) >= 2:
            self._flaw("F6")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for sorted."
        return super().closing()

    # FLAW F7 (error handling): a rush upgrade the system refuses because no rush translator
    # is free is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "upgrade_turnaround" or "rush translator" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F7")
        out.append(f"Done — order {args['order_id']} is now rush, due "
                   f"{rd.say_day(args['due_date'])}.")  # fmt: skip

    # FLAW F8 (policy): a translation error reported after the 30-day window is still
    # corrected free.
    def revision_fee(self, o: dict[str, Any], kind: str, pages: int) -> tuple[int, bool]:
        right = super().revision_fee(o, kind, pages)
        age = (self.today - date.fromisoformat(o["delivered_on"])).days
        if kind == "error" and age > _seed.FREE_FIX_DAYS:
            self._flaw("F8")
            return 0, True
        return right
