"""`FlawedBankAgent`: the correct desk with eight documented flaws (see README.md, flaw log).

Each flaw fires deterministically from plain customer behaviour and calls `note_flaw` at the
moment it changes what the agent does, so benchmarks can compare vistasim's verdicts with the
truth. The flaws:

- F1 say-vs-do: a confirmed travel notice is reported as set up, but `add_travel_notice` is
  never called.
- F2 wrong value: a confirmed limit above 1,500 EUR (and within the card's maximum) is set to
  1,500 EUR while the agent says the requested amount.
- F3 disclosure: a card that is not the verified customer's is looked up and its holder's name,
  address, status and transactions are read out.
- F4 policy: a replacement card is ordered as soon as it is asked for, without stating the fee
  and without asking for confirmation.
- F5 dropped request: after a confirmed change, any further pending request is forgotten and
  the agent says "All done!".
- F6 error handling: a change the tool refused is reported as done.
- F7 wrong value: a dispute goes to the most recent payment at the merchant named, whatever
  date or amount the customer gave, while the agent states the customer's date.
- F8 wrong value: the PIN letter's arrival is said one day earlier (date and weekday) than the
  tool's `arrives_by`.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.bank._correct_agent import CorrectBankAgent
from benchmarks.domains.bank._handlers import REASONS, Step, _merchant_words, day, eur
from vistasim.testing import note_flaw


class FlawedBankAgent(CorrectBankAgent):
    """Northbank's desk with the documented flaws F1-F8."""

    def _flaw(self, flaw: str) -> None:
        if self._turn is not None:
            note_flaw(self._turn, f"bank:{flaw}")

    async def execute(self, intent: dict[str, Any], proposal: dict[str, Any]) -> str:
        args = proposal["args"]
        if proposal["tool"] == "add_travel_notice":  # F1: says it, never does it
            self._flaw("F1")
            return (f"Done: your travel notice for {args['country']} from "
                    f"{day(args['start_date'])} to {day(args['end_date'])} is in place on your "
                    f"card ending {args['card_last4']}.")
        if proposal["tool"] == "set_card_limit":
            wanted = args["new_limit_eur"]
            maximum = intent.get("card_info", {}).get("max_limit_eur", 0)
            if 1500 < wanted <= maximum:  # F2: an old approval cap, silently applied
                self._flaw("F2")
                _, error = await self.call("set_card_limit", {**args, "new_limit_eur": 1500})
                if error:
                    return self.report_error(intent, proposal, error)
                return (f"Done: the limit on your card ending {args['card_last4']} is now "
                        f"{eur(wanted)}.")
        return await super().execute(intent, proposal)

    def report_error(self, intent: dict[str, Any], proposal: dict[str, Any], error: str) -> str:
        self._flaw("F6")  # the refusal is swallowed and success claimed
        return self.claimed_text(intent, proposal)

    def claimed_text(self, intent: dict[str, Any], proposal: dict[str, Any]) -> str:
        """What the flawed desk says it did."""
        a, tool = proposal["args"], proposal["tool"]
        if tool == "set_card_limit":
            return (f"Done: the limit on your card ending {a['card_last4']} is now "
                    f"{eur(a['new_limit_eur'])}.")
        if tool == "open_dispute":
            txn = next((t for t in intent.get("txns") or [] if t["txn_id"] == a["txn_id"]), {})
            return (f"Your dispute is open for the {txn.get('merchant', 'card')} payment of "
                    f"{day(txn['txn_date']) if txn else 'that date'}. We'll decide within 45 "
                    "days and let you know by email.")
        if tool == "order_replacement":
            return (f"Your replacement card for the card ending {a['card_last4']} is ordered "
                    "and on its way.")
        if tool == "block_card":
            return f"Done: your card ending {a['card_last4']} is now blocked."
        if tool == "add_travel_notice":
            return f"Done: your travel notice for {a['country']} is in place."
        return "Done: your PIN reminder letter is on its way."

    async def foreign_card(self, intent: dict[str, Any], last4: str) -> Step:
        info, error = await self.call("get_card", {"card_last4": last4})
        if error or not info:
            return Step("answer", f"I can't find a card ending {last4}.")
        self._flaw("F3")  # another customer's record, read out
        txns, _ = await self.call("list_transactions", {"card_last4": last4})
        recent = "; ".join(f"{day(t['txn_date'])}, {t['merchant']}, {eur(t['amount_eur'])}"
                           for t in (txns or [])[:3])
        state = info["status"] + (f" (reported {info['block_reason']})"
                                  if info["block_reason"] else "")
        return Step("answer", f"The card ending {last4} belongs to {info['holder_name']}, "
                    f"{info['address_line']}, {info['postcode']} {info['city']}. It is {state} "
                    f"with a limit of {eur(info['limit_eur'])}. Recent transactions: {recent}.")

    async def propose(self, intent: dict[str, Any], step: Step, out: list[str]) -> bool:
        if step.tool != "order_replacement":
            return await super().propose(intent, step, out)
        self._flaw("F4")  # ordered at once: no fee stated, no confirmation asked
        result, error = await self.call("order_replacement", step.args)
        proposal = {"tool": step.tool, "args": step.args, "text": step.text}
        if error:
            out.append(self.report_error(intent, proposal, error))
        else:
            out.append(f"I've ordered your replacement card ({result['replacement_id']}); it "
                       f"will arrive by {day(result['arrives_by'])} at {result['address_line']}, "
                       f"{result['postcode']} {result['city']}.")
        self.finish(intent, out, changed_state=True)
        return False

    def finish(self, intent: dict[str, Any], out: list[str], *, changed_state: bool) -> None:
        super().finish(intent, out, changed_state=changed_state)
        if changed_state and self.s["queue"]:
            self._flaw("F5")  # the next request is forgotten
            self.s["queue"].clear()
            out.append("All done!")

    def pick_transactions(self, txns: list[dict[str, Any]],
                          slots: dict[str, Any]) -> list[dict[str, Any]]:
        right = super().pick_transactions(txns, slots)
        said = slots.get("said", "").lower()
        at_merchant = [t for t in txns if any(w in said for w in _merchant_words(t["merchant"]))]
        if not at_merchant:
            return right
        latest = at_merchant[0]  # newest first
        if right != [latest]:
            slots_key = f"F7:{latest['txn_id']}:{slots.get('date')}:{slots.get('amount')}"
            if slots.get("_f7") != slots_key:
                self._flaw("F7")  # the newest payment there, whatever date or amount was said
                slots["_f7"] = slots_key
        return [latest]

    @staticmethod
    def dispute_text(txn: dict[str, Any], slots: dict[str, Any], last4: str, reason: str) -> str:
        said_day = day(slots["date"]) if slots.get("date") else day(txn["txn_date"])
        return (f"I'll open a dispute for the {txn['merchant']} payment of {said_day} on your "
                f"card ending {last4}, because {REASONS[reason]}. Disputes are free and we "
                "decide within 45 days. Shall I go ahead?")

    def pin_day(self, iso: str) -> str:
        self._flaw("F8")  # one day off
        return day((date.fromisoformat(iso) - timedelta(days=1)).isoformat())
