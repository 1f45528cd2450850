"""The flows for extra work, warranty claims, invoices (payments, disputes) and contact details."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.garage import _read as rd
from benchmarks.domains.garage import _seed
from benchmarks.domains.garage._flows import Flows, result_error

WORD_STOP = {"front", "rear", "with", "change", "service", "full", "interim", "major", "engine"}
DECLINE_RE = re.compile(
    r"\b(?:decline|don'?t|do not|not|no to|skip|leave|defer|without|hold off|rather not|"
    r"no thanks)\b",
    re.I,
)
APPROVE_RE = re.compile(
    r"\b(?:approve|go ahead|do the|yes|fine|ok|okay|please do|want the|fit|replace|happy)\b", re.I
)


def keywords(description: str) -> set[str]:
    """The words a customer would name a line by ("air con" for air conditioning)."""
    words = {w for w in re.findall(r"[a-z]+", description.lower()) if len(w) >= 4}
    words -= WORD_STOP
    if "conditioning" in words:
        words |= {"aircon", "air con"}
    if "wiper" in words:
        words.add("wipers")
    if "tyres" in words:
        words.add("tyre")
    return words


def names_line(text: str, description: str) -> bool:
    low = text.lower()
    return any(re.search(rf"\b{re.escape(w)}s?\b", low) for w in keywords(description))


class Extras(Flows):
    """Extra work, warranty, invoice payments and disputes, and contact details."""

    # -- policy hooks ----------------------------------------------------------------------
    def may_decline(self, line: dict[str, Any]) -> bool:
        """Safety-critical work can't be declined at the desk."""
        return not line["safety"]

    def amount_due(self, inv: dict[str, Any]) -> int:
        """What paying an invoice takes: every line but the disputed ones (on hold)."""
        return sum(line["amount_pence"] for line in inv["lines"] if not line["disputed"])

    # -- extra work the mechanic found -----------------------------------------------------
    def decisions(self, text: str, lines: list[dict[str, Any]]) -> list[tuple[dict, str]]:
        """(line, approve/decline) for each line the customer named, the last word winning."""
        found: dict[int, tuple[dict, str]] = {}
        verdict: str | None = None
        for clause in re.split(r"\bbut\b|[,;.]|\band\b|\bthen\b", text, flags=re.I):
            if DECLINE_RE.search(clause):
                verdict = "decline"
            elif APPROVE_RE.search(clause):
                verdict = "approve"
            for line in lines:
                if verdict and names_line(clause, line["description"]):
                    found[line["line_id"]] = (line, verdict)
        return list(found.values())

    async def step_work(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = await self.pick_booking(req, v, out, "decide work on", status="in_workshop")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        lines = [q for q in b["quote"] if q["status"] == "pending"]
        if not lines:
            out.append(f"There's no extra work waiting for a decision on {b['booking_id']}.")
            return "done"
        chosen = self.decisions(self.text(req), lines)
        if not chosen:
            listed = "; ".join(
                f"{q['description']}, {rd.pounds(q['amount_pence'])}"
                + (" (safety-critical)" if q["safety"] else "")
                for q in lines
            )
            return self.ask("work", f"The mechanic found: {listed}. Which would you like us to "
                            "do, and which to leave?", out)  # fmt: skip
        for line, verdict in chosen:
            if verdict == "decline" and not self.may_decline(line):
                out.append(
                    f"I'm sorry — the {line['description'].lower()} is safety-critical, so it "
                    "can't be declined here: the car can't go back on the road without it. You "
                    "can approve it, or speak to the service manager on 01632 960 444. I "
                    "haven't recorded anything for it."
                )
        chosen = [(q, d) for q, d in chosen if d == "approve" or self.may_decline(q)]
        if not chosen:
            return "done"
        added = sum(q["amount_pence"] for q, d in chosen if d == "approve")
        said = "; ".join(
            f"{'approve' if d == 'approve' else 'decline'} {q['description'].lower()} "
            f"({rd.pounds(q['amount_pence'])})"
            for q, d in chosen
        )
        calls = [
            ("decide_work", {"customer_id": v["customer_id"], "line_id": q["line_id"],
                             "decision": d})
            for q, d in chosen
        ]  # fmt: skip
        return self.propose(
            req, out, f"On {b['booking_id']}, to {said}: your bill becomes "
            f"{rd.pounds(b['price_pence'] + added)}, paid on collection. Shall I go ahead?",
            calls,
        )  # fmt: skip

    async def done_work(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                        out: list[str]) -> None:  # fmt: skip
        done = [r for r, e in results if not e]
        if done:
            out.append("Done — " + "; ".join(
                f"{r['description'].lower()} {r['status']}" for r in done
            ) + f". Your bill is now {done[-1]['bill_now']}.")  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)

    # -- warranty --------------------------------------------------------------------------
    async def step_warranty(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.parts(text)
        mine = v["parts"]
        part = next((p for p in mine if p["part_id"] in ids), None) or next(
            (p for p in mine if names_line(text, p["description"])), None
        )
        if part is None and len(mine) == 1:
            part = mine[0]
        if part is None:
            out.append("I can't find a part we fitted that matches that on your account.")
            return "done"
        if any(w in part["description"].lower() for w in _seed.WEAR_ITEMS):
            out.append(f"I'm sorry — {part['description'].lower()} are a wear item, which the "
                       "parts warranty doesn't cover. I haven't opened a claim.")  # fmt: skip
            return "done"
        fitted = date.fromisoformat(part["fitted_on"])
        if (self.today - fitted).days > _seed.WARRANTY_DAYS:
            out.append(f"I'm sorry — the {part['description'].lower()} was fitted on "
                       f"{rd.say_day(part['fitted_on'])} {fitted.year}, more than 12 months ago, "
                       "so it's outside the parts warranty. I haven't opened a claim.")  # fmt: skip
            return "done"
        miles = rd.number(text)
        if miles is None or miles < part["fitted_miles"]:
            return self.ask("mileage", "What's the car's mileage now?", out)
        if miles - part["fitted_miles"] > _seed.WARRANTY_MILES:
            out.append(f"I'm sorry — the car has done {miles - part['fitted_miles']:,} miles since "
                       "the part was fitted, more than the 12,000 the warranty covers. I haven't "
                       "opened a claim.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To open a warranty claim for the {part['description'].lower()} "
            f"({part['part_id']}, fitted {rd.say_day(part['fitted_on'])} {fitted.year} at "
            f"{part['fitted_miles']:,} miles; {miles:,} now): the workshop inspects it free of "
            "charge and calls you within 2 working days. Shall I open it?",
            [("claim_warranty", {"customer_id": v["customer_id"], "part_id": part["part_id"],
                                 "mileage": miles, "fault": text})],
        )  # fmt: skip

    async def done_warranty(self, req: dict[str, Any], pending: dict[str, Any],
                            results: list[Any], out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        out.append(f"Done — a warranty claim is open for the {r['description'].lower()} "
                   f"({r['part_id']}).")  # fmt: skip

    # -- invoices --------------------------------------------------------------------------
    def pick_invoice(self, v: dict[str, Any], text: str, unpaid: bool) -> dict[str, Any] | None:
        ids = rd.invoices(text)
        invs = [i for i in v["invoices"] if not unpaid or i["status"] == "unpaid"]
        named = [i for i in invs if i["invoice_id"] in ids]
        if named:
            return named[0]
        by_line = [i for i in invs if any(names_line(text, ln["description"]) for ln in i["lines"])]
        return (by_line or invs)[0] if (by_line or len(invs) == 1) else None

    async def step_pay(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        inv = self.pick_invoice(v, self.text(req), unpaid=True)
        if inv is None:
            out.append("I can't see an unpaid invoice on your account.")
            return "done"
        due = self.amount_due(inv)
        held = [ln for ln in inv["lines"] if ln["disputed"]]
        note = (
            " (" + ", ".join(f"{ln['description']} {rd.pounds(ln['amount_pence'])}" for ln in held)
            + " is disputed and on hold, so it isn't taken)" if held else ""
        )  # fmt: skip
        return self.propose(
            req, out, f"To pay invoice {inv['invoice_id']}: {rd.pounds(due)}{note}, taken from "
            f"{self.card(v)}. Shall I take the payment?",
            [("pay_invoice", {"customer_id": v["customer_id"], "invoice_id": inv["invoice_id"],
                              "amount_pence": due})],
        )  # fmt: skip

    async def done_pay(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                       out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        out.append(f"Done — {r['paid']} paid on invoice {r['invoice_id']} from your card ending "
                   f"{r['card_last4']}.")  # fmt: skip

    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        inv = self.pick_invoice(v, text, unpaid=False)
        said = rd.amounts(text)
        lines = [ln for ln in (inv or {}).get("lines", [])
                 if ln["amount_pence"] in said or names_line(text, ln["description"])]  # fmt: skip
        if inv is None or not lines:
            return self.ask("line", "Which invoice line would you like to dispute?", out)
        line = lines[0]
        age = (self.today - date.fromisoformat(inv["issued"])).days
        if age > _seed.DISPUTE_DAYS:
            out.append(f"I'm sorry — invoice {inv['invoice_id']} is dated "
                       f"{rd.say_day(inv['issued'])}, {age} days ago, and a line can only be "
                       "disputed within 14 days of the invoice date. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To dispute {line['description'].lower()} "
            f"({rd.pounds(line['amount_pence'])}) on invoice {inv['invoice_id']}: it goes on hold "
            "and isn't collected while the service manager reviews it. Shall I raise it?",
            [("dispute_line", {"customer_id": v["customer_id"], "invoice_id": inv["invoice_id"],
                               "line_id": line["line_id"], "reason": text})],
        )  # fmt: skip

    async def done_dispute(self, req: dict[str, Any], pending: dict[str, Any],
                           results: list[Any], out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        out.append(f"Done — {r['line'].lower()} ({r['amount']}) on invoice {r['invoice_id']} is "
                   "disputed and on hold.")  # fmt: skip

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        phones, mails = rd.phones(text), rd.emails(text)
        if not phones and not mails:
            if re.search(r"\be-?mail", text, re.I):
                return self.ask("new_email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"customer_id": v["customer_id"]}
        said = []
        if phones:
            args["phone"] = phones[-1]
            said.append(f"your phone number to {phones[-1]}")
        if mails:
            args["email"] = mails[-1]
            said.append(f"your email to {mails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def done_contact(self, req: dict[str, Any], pending: dict[str, Any],
                           results: list[Any], out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        out.append(f"Done — your contact details are now {r['phone']} and {r['email']}.")
