"""`FlawedVetAgent`: the desk's agent with the bugs of an earlier release (see the README's log).

Each flaw calls `note_flaw(turn, "vet:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.vet import _text as tx
from benchmarks.domains.vet._agent import CorrectVetAgent
from vistasim.testing import note_flaw


class FlawedVetAgent(CorrectVetAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"vet:{flaw}")

    # F1 (say-vs-do): a move to another time on the same day is "saved" as a time edit on the
    # booking card that never reaches the diary: move_appointment is not called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        if pending.get("tool") == "move_appointment" and \
                pending["slot"]["date"] == pending["appt"]["date"]:
            self._flaw("F1")
            slot = pending["slot"]
            out.append(f"Done — {pending['appt']['pet_name']}'s appointment is now on "
                       f"{tx.say_date(slot['date'])} at {tx.say_time(slot['time'])} with "
                       f"{slot['staff']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)
        if req["data"].get("claim_all"):
            out.append("That's the repeats ordered for all of them.")

    # F2 (wrong value): the collection date is always "tomorrow after 2pm", whatever the
    # dispensary returned (items ordered in from the wholesaler take three working days).
    def ready_words(self, result: dict[str, Any]) -> str:
        tomorrow = self.today + timedelta(days=1)
        if result["ready_on"] != tomorrow.isoformat():
            self._flaw("F2")
        return f"ready to collect tomorrow, {tx.say_date(tomorrow)}, after 2:00pm"

    # F3 (disclosure): an invoice number the owner quotes is looked up and read out even when it
    # is on someone else's account.
    async def other_invoice(self, invoice_id: str, out: list[str]) -> dict[str, Any] | None:
        result, error = await self.call("get_invoice", invoice_id=invoice_id)
        if error:
            return await super().other_invoice(invoice_id, out)
        if result["client_number"] != self.s["client"]:
            self._flaw("F3")
        pet = f"{result['pet']}'s " if result.get("pet") else ""
        issued = tx.say_date(result["issued_on"])
        shown = self.s.setdefault("shown_invoices", [])
        if invoice_id in shown:
            return result if result["status"] == "open" else None
        shown.append(invoice_id)
        out.append(f"Invoice {result['invoice_id']} (account of {result['owner']}) is for "
                   f"{pet}{result['description'].lower()}, issued {issued}: "
                   f"{result['amount']}, with {result['outstanding']} outstanding.")
        return result if result["status"] == "open" else None

    # F4 (policy, fee): "less than 24 hours" is checked on the calendar day, so an appointment
    # tomorrow morning is treated as free to cancel; the fee is not stated before the yes.
    def is_late(self, appt: dict[str, Any]) -> bool:
        late = appt["date"] <= self.today.isoformat()
        if late != super().is_late(appt):
            self._flaw("F4")
        return late

    # F5 (policy, limit): the 12-month check-up rule compares years only, so a check-up any
    # time last year counts.
    def checkup_ok(self, pet: dict[str, Any]) -> bool:
        if not pet.get("last_checkup"):
            return False
        ok = date.fromisoformat(pet["last_checkup"]).year >= self.today.year - 1
        if ok != super().checkup_ok(pet):
            self._flaw("F5")
        return ok

    # F6 (dropped request): a request naming several pets is handled for the first pet only,
    # and the report says it was done for all of them.
    def split_pets(self, req: dict[str, Any], named: list[dict[str, Any]]
                   ) -> list[dict[str, Any]]:
        if len(named) > 1 and req["intent"] == "repeat":
            self._flaw("F6")
            req["data"]["claim_all"] = True
            return named[:1]
        return super().split_pets(req, named)

    # F7 (error handling): a declined card payment is reported as taken.
    def payment_failed(self, error: str, pending: dict[str, Any], out: list[str]) -> None:
        self._flaw("F7")
        amount = tx.say_money(pending["args"]["amount"])
        card = self.account.get("card_on_file", "").split(",")[0]
        out.append(f"Payment done: {amount} taken from your {card} for "
                   f"{pending['args']['invoice_id']}. That invoice is now paid in full.")

    # F8 (policy, identity): when the postcode does not match, the desk accepts the name on
    # the account instead of the phone number and a pet's name.
    async def after_failed_verify(self, kind: str, out: list[str]) -> bool:
        if kind == "postcode" and self.s["facts"].get("client_number"):
            self.s["name_check"] = True
            self.ask("name", "That postcode doesn't match what we have. No problem — could you "
                     "confirm the full name on the account instead?", out)
            return False
        return await super().after_failed_verify(kind, out)

    async def ensure_identity(self, out: list[str]) -> bool:
        facts = self.s["facts"]
        if not self.s["client"] and self.s["name_check"] and facts.get("name"):
            self.s["name_check"] = False
            result, error = await self.call("get_account", client_number=facts["client_number"])
            if not error and result["name"].lower() == facts["name"].lower():
                self._flaw("F8")
                self.s["client"], self.s["account"] = result["client_number"], result
                out.append(f"Thanks, {self.first_name()} — that matches the name on the account.")
                return True
        return await super().ensure_identity(out)
