"""The desk's money and account requests: quotes, payment plans, refunds, the email address."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.dental import _read as rd
from benchmarks.domains.dental import _seed
from benchmarks.domains.dental._flows import Flows

BANDS = {"nhs_band_1": "NHS band 1", "nhs_band_2": "NHS band 2", "nhs_band_3": "NHS band 3",
         "private": "private"}
_TREATMENTS = ("implant", "crown", "root canal", "filling", "whitening", "bridge", "denture")
PRICE_LIST = ("Our prices: NHS check-up (band 1) £27.40, NHS band 2 treatment £75.30, NHS band 3 "
              "treatment £326.70, NHS urgent care £27.40; private check-up £55.00, private "
              "emergency visit £95.00; hygienist visit £75.00 (private for everyone).")


class MoneyFlows(Flows):
    """More flows, mixed into the agent the same way."""

    def choose_plan(self, req: dict[str, Any], plans: list[dict[str, Any]]) -> list[dict]:
        text = self.text_of(req)
        named = rd.plan_refs(text)
        if named:
            return [p for p in plans if p["plan_id"] in named]
        words = [w for w in _TREATMENTS if re.search(w, text, re.I)]
        picked = [p for p in plans if any(re.search(w, p["description"], re.I) for w in words)]
        return picked or plans

    # -- quotes ----------------------------------------------------------------------------
    def say_plan(self, p: dict[str, Any]) -> str:
        line = (f"{p['description']} ({p['plan_id']}): {BANDS[p['band']]}, "
                f"{rd.pounds(p['total_pence'])}")
        if p["status"] == "payment_plan":
            return (f"{line}, on a payment plan: {p['months']} monthly payments of "
                    f"{rd.pounds(p['monthly_pence'])} after a {rd.pounds(p['deposit_pence'])} "
                    "deposit")
        if p["band"] != "private":
            return f"{line} — an NHS charge, paid in full (it can't go on a payment plan)"
        if p["total_pence"] >= _seed.PLAN_MINIMUM_PENCE:
            return (f"{line} — it can be spread over 3, 6 or 10 months with a 20% deposit")
        return line

    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        record = await self.record()
        plans = self.choose_plan(req, record["treatment_plans"])
        if not plans:
            out.append("You don't have a treatment plan with us at the moment. " + PRICE_LIST)
            return "done"
        out.append("Your treatment plan: " + "; ".join(self.say_plan(p) for p in plans) + ".")
        return "done"

    # -- payment plans ---------------------------------------------------------------------
    def plan_terms(self, total: int, months: int) -> tuple[int, int]:
        """Hook: the deposit today and each monthly payment, in pence."""
        deposit = round(total * _seed.DEPOSIT_SHARE)
        return deposit, -(-(total - deposit) // months)

    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        record = await self.record()
        quoted = [p for p in record["treatment_plans"] if p["status"] == "quoted"]
        plans = self.choose_plan(req, quoted)
        if not plans:
            out.append("I can't see a quoted treatment plan on your record to set a payment "
                       "plan up for.")
            return "done"
        if len(plans) > 1:
            listed = "; ".join(self.say_plan(p) for p in plans)
            return self.ask("plan_id", f"You have more than one treatment plan: {listed}. Which "
                            "one would you like to pay monthly?", out)
        plan = plans[0]
        total = plan["total_pence"]
        if plan["band"] != "private":
            out.append(f"I'm sorry, {plan['description']} is NHS treatment ({BANDS[plan['band']]}"
                       f", {rd.pounds(total)}). NHS charges are paid in full and can't go on a "
                       "payment plan; payment plans are for private treatment of £300.00 or "
                       "more.")
            return "done"
        if total < _seed.PLAN_MINIMUM_PENCE:
            out.append(f"I'm sorry, payment plans are for private treatment of £300.00 or more, "
                       f"and {plan['description']} is {rd.pounds(total)}.")
            return "done"
        # the latest number of months named: "over 11 months" ... "10 months then"
        months = next((m for m in (rd.months(c) for c in reversed(req["chunks"])) if m), None)
        if months is None:
            return self.ask("months", f"{plan['description']} is {rd.pounds(total)}. Over how "
                            "many months would you like to pay — 3, 6 or 10?", out)
        if months not in _seed.PLAN_MONTHS:
            return self.ask("months", f"I'm sorry, a payment plan can run over 3, 6 or 10 "
                            f"months, not {months}. Which would you like?", out)
        deposit, monthly = self.plan_terms(total, months)
        text = (f"For {plan['description']} ({plan['plan_id']}, {rd.pounds(total)}): a 20% "
                f"deposit of {rd.pounds(deposit)} charged today to your card ending "
                f"{self.s['card']}, then {months} monthly payments of {rd.pounds(monthly)} from "
                "1 January 2027. Shall I set that up?")
        return self.propose(req, out, text, tool="start_payment_plan",
                            args={"plan_id": plan["plan_id"], "months": months},
                            stated=rd.pounds(monthly))

    async def done_plan(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("set up the payment plan", error, pending, out)
            return
        out.append(f"Done — your payment plan for {result['plan_id']} is set up. The deposit of "
                   f"{result['deposit_charged']} has been charged to your card ending "
                   f"{result['card_last4']}; then {result['months']} monthly payments of "
                   f"{result['monthly']}, the first on {rd.say_date(result['first_payment'])}.")

    # -- refunds ---------------------------------------------------------------------------
    async def step_refund(self, req: dict[str, Any], out: list[str]) -> str:
        record = await self.record()
        credit = [i for i in record["invoices"]
                  if i["paid_pence"] - i["amount_pence"] - i["refunded_pence"] > 0]
        named = rd.invoice_refs(self.text_of(req))
        credit = [i for i in credit if i["invoice_id"] in named] if named else credit
        if not credit:
            out.append("I can't see any overpayment on your account, so there's nothing to "
                       "refund.")
            return "done"
        inv = credit[0]
        amount = inv["paid_pence"] - inv["amount_pence"] - inv["refunded_pence"]
        other = re.search(r"\b(new|different|another|other|current) (?:debit |credit |bank )?"
                          r"card\b|\bbank account\b|\bcash\b", self.text_of(req), re.I)
        lead = ("Refunds can only go back to the card the payment was made with, not to "
                "another card or account. " if other else "")
        text = (f"{lead}Invoice {inv['invoice_id']} ({inv['description']}) was "
                f"{rd.pounds(inv['amount_pence'])} and {rd.pounds(inv['paid_pence'])} was "
                f"paid, so {rd.pounds(amount)} is owed back to you. I can refund "
                f"{rd.pounds(amount)} to the original card, ending {inv['card_last4']}. Shall I "
                "go ahead?")
        return self.propose(req, out, text, tool="refund_credit",
                            args={"invoice_id": inv["invoice_id"]},
                            amount=rd.pounds(amount), card=inv["card_last4"])

    async def done_refund(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("refund it", error, pending, out)
            out.append("Our practice manager arranges refunds when the original card has "
                       "expired: please call 0117 496 0321 or email accounts@brightsmile.example "
                       "and they'll sort it out with you.")
            return
        out.append(f"Done — {result['refunded']} has been refunded to your card ending "
                   f"{result['card_last4']}; it should arrive {result['arrives']}.")

    # -- email -----------------------------------------------------------------------------
    async def step_email(self, req: dict[str, Any], out: list[str]) -> str:
        found = rd.emails(self.text_of(req))
        if not found:
            return self.ask("email", "What's the new email address?", out)
        text = (f"I'll change the email on your record from {self.s['email']} to {found[-1]}. "
                "Shall I go ahead?")
        return self.propose(req, out, text, tool="update_email",
                            args={"patient_id": self.s["patient"], "email": found[-1]})

    async def done_email(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("update the email", error, pending, out)
            return
        self.s["email"] = result["email"]
        out.append(f"Done — your email is now {result['email']}.")
