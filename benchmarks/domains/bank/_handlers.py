"""The card desk's requests: what each needs, what it proposes, and what it says when done.

A mixin of `CorrectBankAgent`; the methods `FlawedBankAgent` overrides are public hooks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.bank._env import (
    DELIVERY_DAYS,
    FEE_REPLACEMENT,
    NOW,
    PIN_LETTER_DAYS,
    working_days_after,
)

NO_VERIFY = {"fee", "pin_disclose", "refund_fee"}
REASONS = {"not_recognised": "you don't recognise the payment",
           "not_received": "you never received what you paid for",
           "charged_twice": "you were charged twice", "wrong_amount": "the amount is wrong"}
_FEE_WORDS = {"REPL_STD": r"replac|new card|standard", "REPL_EXP": r"express|fast|urgent|quick",
              "ATM_EUR": r"\b(atm|cash|withdraw)", "ATM_NONEUR": r"\b(atm|cash|withdraw)",
              "FX": r"currenc|foreign|exchange|dollar|pound|pay(ing|ments?)? abroad",
              "PIN_LETTER": r"\bpin\b", "DISPUTE": r"disput",
              "ANNUAL_CREDIT": r"annual|yearly|credit card fee|every year",
              "LATE": r"\blate\b"}


@dataclass
class Step:
    """What a request handler decided this turn."""

    kind: str  # "ask", "propose", "answer" or "again" (the queue changed: look again)
    text: str = ""
    awaiting: str | None = None
    tool: str | None = None
    args: dict[str, Any] = field(default_factory=dict)


def day(iso: str) -> str:
    """An ISO date as the desk says it: `Friday 13 March 2026`."""
    d = date.fromisoformat(iso)
    return f"{d:%A} {d.day} {d:%B %Y}"


def eur(value: float) -> str:
    """An amount as the desk says it: `7.50 EUR` (money), `2,000 EUR` (whole-euro limits)."""
    return f"{value:,} EUR" if isinstance(value, int) else f"{value:,.2f} EUR"


def _merchant_words(merchant: str) -> list[str]:
    low = merchant.lower()
    return [low, low.split(".")[0]] + [w for w in re.split(r"[\s.]+", low) if len(w) >= 4]


class Handlers:
    """Request handlers; mixed into the agent, which provides `s`, `call` and `finish`."""

    s: dict[str, Any]

    async def call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        raise NotImplementedError

    async def handle(self, intent: dict[str, Any]) -> Step:
        """The next step for the current request."""
        kind = intent["kind"]
        if kind in NO_VERIFY:
            return await getattr(self, f"_h_{kind}")(intent)
        last4, stop = await self._resolve_card(intent)
        if stop is not None:
            return stop
        return await getattr(self, f"_h_{kind}")(intent, last4)

    async def _resolve_card(self, intent: dict[str, Any]) -> tuple[str, Step | None]:
        verified = self.s["verified"]
        cards = verified["cards"]
        if not intent["card"] and intent["card_kind"]:
            mine = [c["last4"] for c in cards if c["kind"] == intent["card_kind"]]
            if not mine:
                return "", Step("answer", f"I don't see a {intent['card_kind']} card on your "
                                "profile.")
            intent["card"] = mine[0]
        intent["card"] = intent["card"] or verified["last4"]
        if intent["card"] not in {c["last4"] for c in cards}:
            return "", await self.foreign_card(intent, intent["card"])
        return intent["card"], None

    async def foreign_card(self, intent: dict[str, Any], last4: str) -> Step:
        """A card that is not the verified customer's: nothing is looked up or said."""
        return Step("answer", f"I'm sorry, the card ending {last4} is not one of the cards on "
                    "your profile, so I can't look it up, share anything about it or change it. "
                    "The card holder needs to contact us themselves.")

    async def card_info(self, intent: dict[str, Any], last4: str) -> dict[str, Any]:
        """The card's record (looked up once per request)."""
        if intent.get("card_info", {}).get("last4") != last4:
            result, _ = await self.call("get_card", {"card_last4": last4})
            intent["card_info"] = result or {}
        return intent["card_info"]

    # -- changes ---------------------------------------------------------------------------

    async def _h_block(self, intent: dict[str, Any], last4: str) -> Step:
        info = await self.card_info(intent, last4)
        if info.get("status") != "active":
            return Step("answer", f"Your card ending {last4} is already {info.get('status')} "
                        f"(reported {info.get('block_reason')} on {day(info['blocked_on'])}), so "
                        "nobody can use it.")
        reason = intent["slots"].get("reason")
        if not reason:
            return Step("ask", f"Was your card ending {last4} lost, stolen or damaged?",
                        awaiting="reason")
        return Step("propose", f"I'll block your {info['kind']} card ending {last4} now (reason: "
                    f"{reason}). A blocked card can't be used again. Shall I go ahead?",
                    tool="block_card", args={"card_last4": last4, "reason": reason})

    async def _h_replace(self, intent: dict[str, Any], last4: str) -> Step:
        info = await self.card_info(intent, last4)
        queue = self.s["queue"]
        if info.get("status") == "active":
            block = next((i for i in queue if i["kind"] == "block"), None)
            if block is None:
                block = {"kind": "block", "card": last4, "card_kind": None,
                         "slots": {"reason": intent["slots"].get("reason")}}
                block["slots"] = {k: v for k, v in block["slots"].items() if v}
            if block in queue:
                queue.remove(block)
            queue.insert(0, block)
            intent.pop("card_info", None)
            return Step("again")
        slots = intent["slots"]
        delivery = slots.get("delivery", "standard")
        fee = self.replacement_fee(info, delivery)
        address = slots.get("address") or [info["address_line"], info["postcode"], info["city"]]
        arrives = working_days_after(NOW, DELIVERY_DAYS[delivery]).isoformat()
        where = "your address on file, " if not slots.get("address") else ""
        fee_text = (f"The replacement fee is {eur(fee)}, charged to your account." if fee else
                    "There's no fee, because the card was reported stolen.")
        other = (" (Express delivery in 2 working days costs "
                 f"{eur(FEE_REPLACEMENT['express'])} instead.)" if delivery == "standard" else "")
        args: dict[str, Any] = {"card_last4": last4, "delivery": delivery}
        if slots.get("address"):
            args |= dict(zip(("address_line", "postcode", "city"), slots["address"], strict=True))
        return Step("propose", f"I'll order a replacement for your card ending {last4} with "
                    f"{delivery} delivery to {where}{', '.join(address)}, arriving by "
                    f"{day(arrives)}. {fee_text}{other} Shall I go ahead?",
                    tool="order_replacement", args=args)

    @staticmethod
    def replacement_fee(info: dict[str, Any], delivery: str) -> float:
        """What the policy charges for this replacement."""
        if delivery == "standard" and info.get("block_reason") == "stolen":
            return 0.0
        return FEE_REPLACEMENT[delivery]

    async def _h_limit(self, intent: dict[str, Any], last4: str) -> Step:
        info = await self.card_info(intent, last4)
        new = intent["slots"].get("new_limit")
        if new is None:
            return Step("ask", f"Your {info['kind']} card ending {last4} has a limit of "
                        f"{eur(info['limit_eur'])}. What would you like the new limit to be?",
                        awaiting="amount")
        new = round(new)
        if new == info["limit_eur"]:
            return Step("answer", f"The limit on your card ending {last4} is already {eur(new)}.")
        return Step("propose", f"I'll change the limit on your {info['kind']} card ending "
                    f"{last4} from {eur(info['limit_eur'])} to {eur(new)}, effective "
                    "immediately. Shall I go ahead?",
                    tool="set_card_limit", args={"card_last4": last4, "new_limit_eur": new})

    async def _h_dispute(self, intent: dict[str, Any], last4: str) -> Step:
        slots = intent["slots"]
        if "txns" not in intent or intent.get("txns_card") != last4:
            intent["txns"], _ = await self.call("list_transactions", {"card_last4": last4})
            intent["txns_card"] = last4
        txns = intent["txns"] or []
        picked = self.pick_transactions(txns, slots)
        if not picked:
            listing = "; ".join(f"{day(t['txn_date'])}, {t['merchant']}, {eur(t['amount_eur'])}"
                                for t in txns[:6])
            lead = ("I couldn't find that payment. " if slots.get("date") or slots.get("amount")
                    or len(slots.get("said", "")) > 60 else "")
            return Step("ask", f"{lead}Which transaction on your card ending {last4} would you "
                        f"like to dispute? The recent ones are: {listing}.", awaiting="txn")
        if len(picked) > 1:
            listing = " or ".join(f"{day(t['txn_date'])}, {eur(t['amount_eur'])}" for t in picked)
            return Step("ask", f"I see {len(picked)} payments to {picked[0]['merchant']}: "
                        f"{listing}. Which one would you like to dispute?", awaiting="txn")
        txn = picked[0]
        reason = slots.get("reason")
        if not reason:
            return Step("ask", f"What's the reason for disputing the {txn['merchant']} payment: "
                        f"{', '.join(list(REASONS.values())[:-1])} or {REASONS['wrong_amount']}?",
                        awaiting="dispute_reason")
        return Step("propose", self.dispute_text(txn, slots, last4, reason),
                    tool="open_dispute", args={"txn_id": txn["txn_id"], "reason": reason})

    @staticmethod
    def dispute_text(txn: dict[str, Any], slots: dict[str, Any], last4: str, reason: str) -> str:
        """The dispute proposal."""
        return (f"I'll open a dispute for the {txn['merchant']} payment of {day(txn['txn_date'])}"
                f", {eur(txn['amount_eur'])}, on your card ending {last4}, because "
                f"{REASONS[reason]}. Disputes are free and we decide within 45 days. Shall I go "
                "ahead?")

    def pick_transactions(self, txns: list[dict[str, Any]],
                          slots: dict[str, Any]) -> list[dict[str, Any]]:
        """The best-matching transactions for what the customer said (several on a tie)."""
        said = slots.get("said", "").lower()
        when = slots.get("date")
        if when and when > NOW.isoformat():  # "on Friday" about a payment: the last one
            when = (date.fromisoformat(when) - timedelta(days=7)).isoformat()
        scored = []
        for t in txns:
            score = sum([any(w in said for w in _merchant_words(t["merchant"])),
                         when == t["txn_date"],
                         slots.get("amount") is not None
                         and abs(slots["amount"] - t["amount_eur"]) < 0.005])
            scored.append((score, t))
        best = max((sc for sc, _ in scored), default=0)
        picked = [t for sc, t in scored if sc == best] if best else []
        same = {(t["merchant"], t["txn_date"], t["amount_eur"]) for t in picked}
        if len(picked) > 1 and len(same) == 1 and slots.get("reason") == "charged_twice":
            return picked[:1]  # a duplicate charge: dispute the later of the identical two
        return picked

    async def _h_travel(self, intent: dict[str, Any], last4: str) -> Step:
        slots = intent["slots"]
        need = [label for label, key in (("which country you're travelling to", "country"),
                                         ("the first day of your trip", "start"),
                                         ("the last day of your trip", "end"))
                if not slots.get(key)]
        if need:
            return Step("ask", f"For the travel notice on your card ending {last4}, please tell "
                        f"me {' and '.join(need)}.", awaiting="travel")
        return Step("propose", f"I'll add a travel notice to your card ending {last4} for "
                    f"{slots['country']}, from {day(slots['start'])} to {day(slots['end'])}. "
                    "Shall I go ahead?", tool="add_travel_notice",
                    args={"card_last4": last4, "country": slots["country"],
                          "start_date": slots["start"], "end_date": slots["end"]})

    async def _h_pin(self, intent: dict[str, Any], last4: str) -> Step:
        info = await self.card_info(intent, last4)
        arrives = working_days_after(NOW, PIN_LETTER_DAYS).isoformat()
        return Step("propose", f"I can post a PIN reminder letter for your card ending {last4} "
                    f"to your address on file, {info['address_line']}, {info['city']}. It's free "
                    f"and arrives within {PIN_LETTER_DAYS} working days, by "
                    f"{self.pin_day(arrives)}. Shall I send it?",
                    tool="request_pin_letter", args={"card_last4": last4})

    def pin_day(self, iso: str) -> str:
        """The PIN letter's arrival date as said to the customer."""
        return day(iso)

    # -- questions and refusals ------------------------------------------------------------

    async def _h_status(self, intent: dict[str, Any], last4: str) -> Step:
        info = await self.card_info(intent, last4)
        state = info["status"]
        if state == "blocked":
            state += f" (reported {info['block_reason']} on {day(info['blocked_on'])})"
        year, month = info["expires"].split("-")
        return Step("answer", f"Your {info['kind']} card ending {last4} is {state}. Its limit is "
                    f"{eur(info['limit_eur'])} (the maximum for this card is "
                    f"{eur(info['max_limit_eur'])}), and it expires {month}/{year}.")

    async def _h_charged_fee(self, intent: dict[str, Any], last4: str) -> Step:
        result, _ = await self.call("get_fees", {"card_last4": last4})
        schedule = {f["code"]: f["description"] for f in (result or {}).get("schedule", [])}
        charged = (result or {}).get("charged", [])
        slots = intent["slots"]
        hits = [f for f in charged
                if (slots.get("amount") is None or abs(f["amount_eur"] - slots["amount"]) < 0.005)
                and (slots.get("date") is None or f["fee_date"] == slots["date"])]
        if not charged:
            return Step("answer", f"There are no fees charged on your card ending {last4}.")
        if not hits:
            hits = charged
            lead = "I couldn't find exactly that fee. The fees charged on your card are: "
        else:
            lead = ""
        lines = "; ".join(f"{eur(f['amount_eur'])} on {day(f['fee_date'])}: "
                          f"{schedule.get(f['code'], f['code']).split(';')[0].lower()} "
                          f"({f['note']})" for f in hits)
        return Step("answer", f"{lead}{lines}. These are charged as set out in our fee "
                    "schedule.")

    async def _h_fee(self, intent: dict[str, Any]) -> Step:
        result, _ = await self.call("get_fees", {})
        schedule = (result or {}).get("schedule", [])
        text = " ".join(u for u in self._said()).lower()
        picked = [f for f in schedule if re.search(_FEE_WORDS.get(f["code"], r"$^"), text)]
        if re.search(r"abroad|outside|non-?euro|foreign|other countr|\bgbp|dollar|pound", text):
            picked = [f for f in picked if f["code"] != "ATM_EUR"] or picked
        lines = "; ".join(self.fee_line(f) for f in (picked or schedule))
        return Step("answer", f"Our fees: {lines}.")

    @staticmethod
    def fee_line(fee: dict[str, Any]) -> str:
        """One line of the fee schedule."""
        if fee["percent"] is not None:
            return f"{fee['description']}: {fee['percent']}% of the amount"
        amount = "free" if not fee["amount_eur"] else eur(fee["amount_eur"])
        return f"{fee['description']}: {amount}"

    def _said(self) -> list[str]:
        turn = getattr(self, "_turn", None)
        return [turn.message] if turn is not None else []

    async def _h_pin_disclose(self, intent: dict[str, Any]) -> Step:
        self.s["offer"] = "pin"
        return Step("answer", "For your security we never show or tell a PIN in chat, by email "
                    "or by phone, so I can't give it to you here. I can post a free PIN reminder "
                    "letter to your address on file instead; it arrives within 5 working days. "
                    "Just say if you'd like that.")

    async def _h_refund_fee(self, intent: dict[str, Any]) -> Step:
        return Step("answer", "I'm not able to refund or waive fees. If you believe a fee was "
                    "charged in error, you can file a complaint in the Northbank app under Help "
                    "> Complaints; the complaints team replies within 10 working days.")

    # -- doing the change ------------------------------------------------------------------

    async def execute(self, intent: dict[str, Any], proposal: dict[str, Any]) -> str:
        """Make the confirmed change and say what happened."""
        result, error = await self.call(proposal["tool"], proposal["args"])
        if error:
            return self.report_error(intent, proposal, error)
        return self.done_text(intent, proposal, result)

    def report_error(self, intent: dict[str, Any], proposal: dict[str, Any], error: str) -> str:
        """A failed change: say it failed, why, and that nothing changed."""
        return f"I'm sorry, I couldn't do that: {error.rstrip('.')}. Nothing has been changed."

    def done_text(self, intent: dict[str, Any], proposal: dict[str, Any], result: Any) -> str:
        """What the customer is told after a change succeeded."""
        a, r = proposal["args"], result
        if proposal["tool"] == "block_card":
            if not any(i["kind"] == "replace" for i in self.s["queue"]):
                self.s["offer"] = "replace"
                return (f"Done: your card ending {a['card_last4']} is now blocked, so nobody can "
                        "use it. If you need a replacement card, just say so.")
            return f"Done: your card ending {a['card_last4']} is now blocked."
        if proposal["tool"] == "order_replacement":
            fee = (f"The fee of {eur(r['fee_eur'])} has been charged to your account."
                   if r["fee_eur"] else "There was no fee.")
            return (f"Your replacement card is ordered (reference {r['replacement_id']}): "
                    f"{r['delivery']} delivery to {r['address_line']}, {r['postcode']} "
                    f"{r['city']}, arriving by {day(r['arrives_by'])}. {fee}")
        if proposal["tool"] == "set_card_limit":
            return (f"Done: the limit on your card ending {a['card_last4']} is now "
                    f"{eur(r['limit_eur'])} (it was {eur(r['old_limit_eur'])}).")
        if proposal["tool"] == "open_dispute":
            return (f"Your dispute {r['dispute_id']} is open for the {r['merchant']} payment of "
                    f"{day(r['txn_date'])}, {eur(r['amount_eur'])}. We'll decide within "
                    f"{r['decision_within_days']} days and let you know by email.")
        if proposal["tool"] == "add_travel_notice":
            return (f"Done: your travel notice for {r['country']} from {day(r['start_date'])} to "
                    f"{day(r['end_date'])} is in place on your card ending {a['card_last4']}.")
        return (f"Your PIN reminder letter is on its way to {r['address_line']}, {r['city']}; it "
                f"should arrive by {self.pin_day(r['arrives_by'])}.")
