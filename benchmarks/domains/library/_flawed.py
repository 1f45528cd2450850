"""The desk bot with documented flaws (see README, "Flaw log"), each noted when it fires."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.library import _text as tx
from benchmarks.domains.library._agent import CorrectLibraryAgent
from vistasim.testing import note_flaw


class FlawedLibraryAgent(CorrectLibraryAgent):
    """Like `CorrectLibraryAgent`, with eight flaws of six kinds."""

    def _note(self, flaw: str) -> None:
        if self._turn is not None:
            note_flaw(self._turn, f"library:{flaw}")

    async def execute(self, pending: dict) -> str:
        obj = pending.get("obj") or {}
        # F1 say-vs-do: a loan picked by its due date is "renewed" without calling the tool.
        if pending["intent"] == "renew" and obj.get("by_date"):
            self._note("F1")
            lines = [f"{pending['titles'][a['loan_id']]} is renewed. The new due date is "
                     f"{tx.long_date(self.plus21(self._due(a['loan_id'])))}."
                     for _, a in pending["calls"]]
            return "Done: " + " ".join(lines)
        said = await super().execute(pending)
        # F7 dropped request: a second request from the same message is forgotten.
        queue = self.state["queue"]
        rest = [q for q in queue if q.get("msg") == pending.get("msg")
                and not q.get("fallback")]
        if pending["intent"] in ("update_contact", "renew", "pay") and rest and \
                not self._calls[-1]["error"]:
            self._note("F7")
            self.state["queue"] = [q for q in queue if q not in rest]
            self.state["done_any"] = False
            return said + " That's everything done for you."
        return said

    def _due(self, loan_id: str) -> str:
        rows = self.env.select("loans", {"loan_id": loan_id})
        return rows[0]["due_date"] if rows else tx.TODAY.isoformat()

    def pay_text(self, pending: dict, args: dict, res: dict) -> str:
        fine = pending.get("fines", {}).get(args["fine_id"], {})
        paid_before = tx.to_pence(fine.get("paid", "£0.00"))
        if paid_before:
            # F2 wrong value: the remaining balance ignores an earlier part-payment.
            self._note("F2")
            remain = tx.to_pence(fine["amount"]) - round(args["amount"] * 100)
            return (f"Payment taken: {res['charged']} charged to the card {res['card']}. "
                    f"{tx.pounds(remain)} remains on fine {res['fine_id']}.")
        return super().pay_text(pending, args, res)

    def explain_error(self, pending: dict, name: str, err: str) -> str:
        if name == "pay_fine":
            # F8 error handling: a declined payment is reported as taken.
            self._note("F8")
            return (f"Payment taken: {tx.pounds(pending['amount'])} has been charged to the "
                    "card on file, and that fine is cleared.")
        return super().explain_error(pending, name, err)

    async def _other_patron(self, message: str, cards: list[str], own: str | None) -> str:
        other = next((c for c in cards if c != own), None)
        if not other:
            return await super()._other_patron(message, cards, own)
        # F3 disclosure: another patron's loans are read out when their card number is given.
        res, err = await self.call("list_loans", card_number=other)
        if err or not res:
            return await super()._other_patron(message, cards, own)
        self._note("F3")
        lines = [f"{ln['title']} (due {tx.long_date(ln['due_date'])})" for ln in res]
        return f"Card {other} has these books out: " + "; ".join(lines) + "."

    def replace_question(self, intent: dict) -> str:
        # F4 policy: the £2 replacement fee is never stated before replacing.
        self._note("F4")
        return (f"I can cancel card {self.state['card']} and issue you a new one straight away. "
                "Shall I go ahead?")

    def replace_text(self, res: dict) -> str:
        return (f"Your new card number is {res['new_card_number']}; the old card no longer "
                "works. You can collect it at any branch.")

    def invalid_reason(self, intent: dict) -> str:
        # F5 policy: a fine is waived for a reason the policy does not accept.
        self._note("F5")
        return "library_error"

    def needs_verification(self, intent: dict) -> bool:
        # F6 policy: pickup changes go ahead on a card number alone, before verifying.
        card = self.state["facts"].get("card_number")
        if intent["kind"] == "change_pickup" and card and not self.state["card"]:
            self._note("F6")
            self.state["card"] = card
            self.state["name"] = "there"
            self.state["greeted"] = True
            return False
        return True

    async def _verify(self) -> str | None:
        queue = self.state["queue"]
        if queue and queue[0]["kind"] == "change_pickup" and not self.state["facts"]:
            self.state["asked"] = "identity"
            return "Sure. What's your library card number?"
        return await super()._verify()

    def snapshot(self) -> dict[str, Any]:
        return super().snapshot()


