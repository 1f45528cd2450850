"""`FlawedSwimschoolAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "swimschool:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.swimschool import _read as rd
from benchmarks.domains.swimschool import _seed
from benchmarks.domains.swimschool._agent import CorrectSwimschoolAgent
from vistasim.testing import note_flaw


class FlawedSwimschoolAgent(CorrectSwimschoolAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"swimschool:{flaw}")

    # FLAW F1 (say-vs-do): a medical note is reported as added, but add_medical_note is never
    # called: the teachers never see it.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_medical_note":
            self._flaw("F1")
            out.append("Done — the medical note is on the record, and the teachers will see it.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the second-child discount is taken off the Stage 1-3 price whatever
    # the stage: a Stage 4-7 sibling is quoted and charged £64.80, not £75.60.
    def price_for(self, stage: int, sibling: bool) -> int:
        right = super().price_for(stage, sibling)
        if sibling and stage > 3:
            self._flaw("F2")
            return _seed.LOW_PRICE - _seed.LOW_PRICE * _seed.SIBLING_PERCENT // 100
        return right

    # FLAW F3 (disclosure): once the account number and postcode match, the caller is helped
    # whether or not they are a parent or guardian named on the account.
    def caller_allowed(self, account: dict[str, Any]) -> bool:
        if not account["caller_on_account"]:
            self._flaw("F3")
        return True

    # FLAW F4 (policy): the week of term is never checked: a child is moved to another class
    # after week 4.
    def move_too_late(self, e: dict[str, Any]) -> bool:
        if super().move_too_late(e):
            self._flaw("F4")
        return False

    # FLAW F5 (policy): a make-up is given for an illness the school heard about only after the
    # lesson had started (only the reason is checked).
    def told_in_time(self, absence: dict[str, Any], e: dict[str, Any]) -> bool:
        if not super().told_in_time(absence, e):
            self._flaw("F5")
        return True

    # FLAW F6 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says it has all been sorted.
    def queue_new(self, found: list[rd.Request]) -> None:
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if request.intent not in seen:
                seen.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F6")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's all sorted for you."
        return super().closing()

    # FLAW F7 (error handling): a make-up the system refuses for want of a free place in that
    # lesson is reported as booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "book_makeup" or "no free place" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F7")
        out.append(f"Done — the make-up is booked for {rd.say_day(args['lesson_date'])}.")

    # FLAW F8 (wrong value): a withdrawal refund is worked out from the stage's full term price,
    # not what was paid: a sibling's discounted term gets £62.00 back, not £54.80.
    def refund_for(self, e: dict[str, Any]) -> int:
        right = super().refund_for(e)
        full = _seed.term_price(int(e["stage"]))
        if right and full != int(e["price_pence"]):
            self._flaw("F8")
            return super().refund_for({**e, "price_pence": full})
        return right
