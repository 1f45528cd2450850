"""The claim and cancellation flows of the insurance desk (reporting a claim with its excess,
claim status on the caller's own policy only, cancellation with or without cooling-off)."""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.insurance import _seed
from benchmarks.domains.insurance import _text as tx


def say_day(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day.strftime('%A')} {day.day} {day.strftime('%B %Y')}"


def pence(text: str) -> int:
    return round(float(text.replace("£", "").replace(",", "")) * 100)


def money(amount: int) -> str:
    return f"£{amount / 100:,.2f}"


class ClaimFlows:
    """Claims and cancellation; `Flows` and the agent supply state, tools and the turn loop."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    finish: Any
    propose: Any
    read: Any
    policy: Any

    # -- reporting a claim ---------------------------------------------------------------------
    def payable_words(self, peril: str, estimate: int, excess: int) -> str:
        return (f"Your excess is {money(excess)}, so if the claim is accepted we would pay up "
                f"to {money(max(0, estimate - excess))}")

    async def claim_report(self, req: dict[str, Any], out: list[str]) -> None:
        perils = self.read(req, tx.perils)
        if not perils:
            self.ask("description", "I'm sorry to hear that. Could you tell me what happened "
                     "and what was damaged?", out)
            return
        when = self.read(req, lambda t: tx.incident_date(t, self.today))
        if when is None:
            self.ask("incident_date", "When did it happen?", out)
            return
        estimate = self.read(req, tx.amount)
        if estimate is None:
            self.ask("estimate", "Roughly how much do you think the repair or replacement "
                     "will cost? An estimate is fine.", out)
            return
        peril, p = perils[0], await self.policy()
        said = tx.PERIL_SAY[peril]
        if p["status"] != "active" or not p["start_date"] <= when.isoformat() <= p["end_date"]:
            out.append(f"I'm sorry, I can't open a claim: your policy was not in force on "
                       f"{say_day(when.isoformat())} (it is {p['status']}, cover "
                       f"{say_day(p['start_date'])} to {say_day(p['end_date'])}).")
            self.finish(req)
            return
        if peril == "accidental_damage" and not p["addons"]["accidental_damage"]:
            out.append("I'm sorry, your policy doesn't include accidental damage cover, so "
                       "this can't be claimed. Adding the cover now would not cover damage "
                       "that has already happened.")
            self.finish(req)
            return
        cost, excess = round(estimate * 100), pence(p["excess"])
        description = " ".join(
            [req["text"], *req.get("answers", [])])[:400] or f"{said} damage"
        self.propose(req, "report_claim", {
            "policy_number": self.s["policy"], "peril": peril,
            "incident_date": when.isoformat(), "description": description,
            "estimate": estimate},
            f"I'll open a claim for {said} on {say_day(when.isoformat())}, estimated at "
            f"{money(cost)}. {self.payable_words(peril, cost, excess)}. Shall I open the "
            f"claim?", out, excess=excess, cost=cost)

    def claim_failed(self, error: str, pending: dict[str, Any], out: list[str]) -> None:
        if "already open" in error:
            out.append(f"I haven't opened a new claim: {error}. One claim per type of damage "
                       f"can be open at a time, so please tell your claims handler about the "
                       f"new damage and they'll add it to that claim.")
        else:
            out.append(f"I couldn't open the claim: {error}.")

    async def execute_claim(self, req: dict[str, Any], pending: dict[str, Any],
                            out: list[str]) -> None:
        result, error = await self.call("report_claim", **pending["args"])
        if error:
            self.claim_failed(error, pending, out)
        else:
            words = self.payable_words(result["peril"], pending["cost"], pending["excess"])
            out.append(f"Your claim is open, reference {result['claim_id']}. {words}. Next, "
                       f"{result['next_step']}.")
        self.finish(req)

    # -- claim status --------------------------------------------------------------------------
    @staticmethod
    def claim_words(claim: dict[str, Any]) -> str:
        return (f"Claim {claim['claim_id']} ({tx.PERIL_SAY[claim['peril']]}, "
                f"{say_day(claim['incident_date'])}) is {claim['status']}: "
                f"{claim['next_step']}. Estimate {claim['estimate']}, excess "
                f"{claim['excess']}, payable {claim['payable']} if accepted.")

    async def other_claim(self, ref: str, own: list[dict[str, Any]], out: list[str]) -> None:
        """A reference the caller quotes that is not on their policy: say so, show nothing."""
        out.append(f"I can't find a claim {ref} on your policy, so I can't give details of it.")

    async def claim_status(self, req: dict[str, Any], out: list[str]) -> None:
        listed, _ = await self.call("list_claims", policy_number=self.s["policy"])
        claims = listed["claims"]
        refs = self.read(req, tx.claim_refs) or []
        mine = {c["claim_id"]: c for c in claims}
        shown = [mine[r] for r in refs if r in mine]
        for ref in refs:
            if ref not in mine:
                await self.other_claim(ref, claims, out)
        if not shown:
            shown = [c for c in claims if c["status"] == "open"]
            if refs and shown:
                out.append("The open claims on your policy are:")
        if shown:
            out.extend(self.claim_words(c) for c in shown)
        elif not refs:
            out.append("There are no open claims on your policy.")
        self.finish(req)

    # -- cancellation --------------------------------------------------------------------------
    def in_cooling_off(self, policy: dict[str, Any]) -> bool:
        started = date.fromisoformat(policy["start_date"])
        return (self.today - started).days < _seed.COOLING_OFF_DAYS

    async def cancel(self, req: dict[str, Any], out: list[str]) -> None:
        p = await self.policy()
        if p["status"] != "active":
            out.append(f"Your policy is already {p['status']} (cover ended "
                       f"{say_day(p['end_date'])}), so there is nothing to cancel.")
            self.finish(req)
            return
        cooling = self.in_cooling_off(p)
        quote, _ = await self.call("quote_cancellation", policy_number=self.s["policy"],
                                   cooling_off=cooling)
        if cooling:
            why = (f"Your policy started on {say_day(p['start_date'])}, inside the 14-day "
                   f"cooling-off period, so you'd get a full refund of {quote['refund']} "
                   f"with no fee.")
        else:
            why = (f"Your policy started on {say_day(p['start_date'])}, so the 14-day "
                   f"cooling-off period has ended: you'd get back the unused part of the "
                   f"{quote['paid_this_year']} paid, less the {quote['fee']} cancellation fee, "
                   f"which is {quote['refund']}.")
        self.propose(req, "cancel_policy", {"policy_number": self.s["policy"],
                                            "cooling_off": cooling},
                     f"{why} Your home would not be insured from today. Shall I cancel the "
                     f"policy?", out)

    async def execute_cancel(self, req: dict[str, Any], pending: dict[str, Any],
                             out: list[str]) -> None:
        result, error = await self.call("cancel_policy", **pending["args"])
        if error:
            out.append(f"Sorry, the policy wasn't cancelled: {error}.")
        else:
            out.append(f"Done: policy {result['policy_number']} is cancelled from today and "
                       f"{result['refund']} will be refunded to {result['refund_to']}.")
        self.finish(req)
