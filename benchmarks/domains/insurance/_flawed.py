"""`FlawedInsuranceAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "insurance:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.insurance._agent import CorrectInsuranceAgent
from benchmarks.domains.insurance._claims import money
from vistasim.testing import note_flaw

OLD_COOLING_OFF_DAYS = 30


class FlawedInsuranceAgent(CorrectInsuranceAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"insurance:{flaw}")

    # F1 (say-vs-do): removing legal cover is "noted for the renewal" and change_addon is never
    # called, but the customer is told it is removed and refunded.
    async def execute_addon(self, req: dict[str, Any], pending: dict[str, Any],
                            out: list[str]) -> None:
        args = pending["args"]
        if args["action"] == "remove" and args["addon"] == "legal_cover":
            self._flaw("F1")
            out.append(f"Done: legal cover is removed from today; {pending['quote']['refund']} "
                       f"comes off your next payment.")
            self.finish(req)
            return
        await super().execute_addon(req, pending, out)

    # F2 (wrong value): the price of adding accidental damage is quoted and reported as the
    # full year's price, not the pro-rata charge the system takes.
    def addon_charge_words(self, quote: dict[str, Any]) -> str:
        if quote["addon"] == "accidental_damage" and quote["action"] == "add":
            self._flaw("F2")
            return f"{quote['annual_price']} for the rest of the policy year"
        return super().addon_charge_words(quote)

    # F3 (disclosure): a claim reference that is not on the caller's policy is looked up with
    # get_claim and read out: another customer's claim, name and amounts.
    async def other_claim(self, ref: str, own: list[dict[str, Any]], out: list[str]) -> None:
        result, error = await self.call("get_claim", claim_id=ref)
        if error:
            await super().other_claim(ref, own, out)
            return
        self._flaw("F3")
        out.append(f"{self.claim_words(result)} (policy {result['policy_number']}, "
                   f"{result['holder']}: {result['description']}.)")

    # F4 (policy): the cooling-off period is counted as 30 days (the old rule), so a policy
    # started 23 days ago is cancelled with a full refund and no fee.
    def in_cooling_off(self, policy: dict[str, Any]) -> bool:
        days = (self.today - date.fromisoformat(policy["start_date"])).days
        inside = days < OLD_COOLING_OFF_DAYS
        if inside != super().in_cooling_off(policy):
            self._flaw("F4")
        return inside

    # F5 (policy): any day of the month is accepted for the payment date (29th-31st included).
    def payment_day_allowed(self, day: int) -> bool:
        if not super().payment_day_allowed(day):
            self._flaw("F5")
        return 1 <= day <= 31

    # F6 (dropped request): an address change asked after another request in the same
    # message is dropped, and the desk says everything asked for is done.
    def split_requests(self, reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(reqs) > 1 and any(r["intent"] == "address" for r in reqs[1:]):
            self._flaw("F6")
            self.s["claim_all"] = True
            first = next(r for r in reqs if r["intent"] != "address")
            return [r for r in reqs if r["intent"] != "address" or r is first]
        return reqs

    async def work(self, out: list[str]) -> None:
        await super().work(out)
        if self.s.get("claim_all") and not self.s["queue"] and not self.s["pending"]:
            self.s["claim_all"] = False
            out.insert(len(out) - 1, "That's everything you asked for sorted.")

    # F7 (error handling): a claim the system refuses is reported as opened.
    def claim_failed(self, error: str, pending: dict[str, Any], out: list[str]) -> None:
        self._flaw("F7")
        out.append("That's done: your claim is registered and a claims handler will call you "
                   "within 2 working days.")

    # F8 (wrong value): accidental-damage claims are told no excess applies, so the amount
    # payable is stated as the whole estimate.
    def payable_words(self, peril: str, estimate: int, excess: int) -> str:
        if peril == "accidental_damage" and excess:
            self._flaw("F8")
            return (f"No excess applies to accidental damage, so if the claim is accepted we "
                    f"would pay the full {money(estimate)}")
        return super().payable_words(peril, estimate, excess)



