"""`FlawedPartyhireAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "partyhire:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.partyhire import _read as rd
from benchmarks.domains.partyhire import _seed
from benchmarks.domains.partyhire._agent import CorrectPartyhireAgent
from benchmarks.domains.partyhire._flows import say_window
from vistasim.testing import note_flaw


class FlawedPartyhireAgent(CorrectPartyhireAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"partyhire:{flaw}")

    # FLAW F1 (say-vs-do): a marquee added to an order is reported with its site survey
    # booked, but book_survey is never called: the order has a marquee and no survey.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        calls = pending["calls"]
        survey = next((a for t, a in calls if t == "book_survey"), None)
        if req["intent"] == "items" and survey is not None:
            self._flaw("F1")
            await super().execute(req, {**pending, "calls": calls[:1]}, out)
            if "refused" not in out[-1]:
                out[-1] += (f" The site survey for {survey['order_id']} is booked for "
                            f"{rd.say_day(survey['survey_day'])}.")  # fmt: skip
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the hire is counted in days inclusive of the delivery and the
    # collection day, so a Friday-to-Monday (3-day) hire is priced at the weekly rate.
    def hire_total(self, lines: dict[str, int], days: int) -> int:
        right = super().hire_total(lines, days)
        wrong = super().hire_total(lines, days + 1)
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): the 14-27 day band refunds half of everything paid, the deposit
    # included, instead of half the hire and delivery plus the whole deposit.
    def cancel_refund(self, o: dict[str, Any]) -> int:
        right = super().cancel_refund(o)
        if _seed.HALF_REFUND_DAYS <= o["days_to_delivery"] < _seed.FULL_REFUND_DAYS:
            self._flaw("F3")
            return int((o["hire_pence"] + o["delivery_pence"] + o["deposit_pence"]) // 2)
        return right

    # FLAW F4 (disclosure): when the postcode doesn't match, the desk reads out the postcode
    # the order is delivered to, "to help".
    async def verify_failed(self, tried: dict[str, Any]) -> str:
        right = await super().verify_failed(tried)
        found, error = await self.call("get_order", order_id=tried.get("order_id", ""))
        if error or not found:
            return right
        self._flaw("F4")
        return (f"I'm sorry, that postcode doesn't match: I have order {found['order_id']} down "
                f"for delivery to {found['postcode']}. Could you give me your order number "
                "again, please?")  # fmt: skip

    # FLAW F5 (policy): a breakage charge more than 14 days old is still taken for dispute.
    def dispute_late(self, b: dict[str, Any]) -> bool:
        if super().dispute_late(b):
            self._flaw("F5")
        return False

    # FLAW F6 (policy): inside 7 days, a change that only takes items off is made free.
    def change_fee(self, o: dict[str, Any], old: dict[str, int], new: dict[str, int]) -> int:
        right = super().change_fee(o, old, new)
        fewer = new != old and all(new.get(i, 0) <= q for i, q in old.items()) and set(new) <= set(
            old)  # fmt: skip
        if right and fewer:
            self._flaw("F6")
            return 0
        return right

    # FLAW F7 (dropped request): of two items changed in one request only the first is
    # changed, and once it is done the desk says everything asked for is done.
    def item_changes(self, text: str, o: dict[str, Any]) -> dict[str, int]:
        right = super().item_changes(text, o)
        if len(right) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            first = next(iter(right))
            return {first: right[first]}
        return right

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything on your order updated."
        return super().closing()

    # FLAW F8 (error handling): a window change the system refuses (the vans are full) is
    # reported as made.
    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], tool_name: str, error: str,
        results: list[tuple[str, Any]], out: list[str],
    ) -> None:  # fmt: skip
        if tool_name != "set_window" or "fully booked" not in error:
            await super().failed(req, pending, tool_name, error, results, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — the {a['leg']} of order {a['order_id']} is now in "
                   f"{say_window(a['window'])}.")  # fmt: skip
