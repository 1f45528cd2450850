"""Fines, the card and contact details: planning, and what the bot says about results."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.library import _text as tx
from benchmarks.domains.library._match import channel, fine_matches, waive_reason

_FULL = r"\b(?:all of it|all|full|in full|whole|everything|entire|the lot|total|whole thing)\b"
_CHANNEL = {"email": "email", "sms": "text message (SMS)", "post": "post"}


class AccountFlows:
    """Fines, cards and contact details for `CorrectLibraryAgent` (a mixin)."""

    state: dict[str, Any]

    async def open_fines(self) -> tuple[list[dict], dict]:
        res, _ = await self.call("get_fines", card_number=self.state["card"])
        res = res or {"fines": [], "balance": "£0.00"}
        return [f for f in res["fines"] if f["status"] == "open"], res

    async def pick_fines(self, intent: dict, fines: list[dict]) -> list[dict] | None:
        for text in self.texts(intent):
            hits = fine_matches(text, fines)
            if hits:
                return hits
        if len(fines) == 1:
            return fines
        return None

    async def plan_pay(self, intent: dict) -> tuple[str, bool]:
        fines, res = await self.open_fines()
        earlier = [d["text"] for d in self.state.get("completed", []) if d["kind"] == "pay"]
        if not fines:
            if earlier:
                return "There's nothing more to pay: " + " ".join(earlier), True
            return "You have no outstanding fines, so there's nothing to pay.", True
        chosen = await self.pick_fines(intent, fines)
        repeat = [self.already("pay", f["fine_id"]) for f in chosen or []]
        if repeat and all(repeat) and len(self.texts(intent)) == 1:
            return ("Just to let you know, " + " ".join(repeat) +
                    " If you'd like to pay more, just tell me the amount."), True
        texts = self.texts(intent)
        amount = next((a for a in (tx.amount_pence(t) for t in texts) if a is not None), None)
        full = any(re.search(_FULL, tx.norm(t)) for t in texts)
        balance = tx.to_pence(res["balance"])
        if chosen is None and (full or amount == balance):
            chosen, full = fines, True
        if chosen is None:
            listing = "; ".join(f"{f['fine_id']} ({f['description']}, {f['outstanding']})"
                                for f in fines)
            return self.ask("fine", f"You have these fines: {listing}. Which would you like to "
                            "pay, or all of them?")
        owed = sum(tx.to_pence(f["outstanding"]) for f in chosen)
        if amount is None and not full:
            names = "; ".join(f"{f['description']}: {f['outstanding']}" for f in chosen)
            return self.ask("amount", f"You owe {names}. Would you like to pay all of it or "
                            "part? Just tell me the amount.")
        if amount is None or full and amount is None:
            amount = owed
        if amount > owed:
            return self.ask("amount", f"That's more than the {tx.pounds(owed)} owed. How much "
                            "would you like to pay?")
        if len(chosen) > 1 and amount != owed:
            return self.ask("fine", "Which fine should the payment go towards: " +
                            "; ".join(f"{f['fine_id']} ({f['description']})" for f in chosen)
                            + "?")
        account, _ = await self.call("get_account", card_number=self.state["card"])
        card = (account or {}).get("payment_card", "the card on file")
        calls = [("pay_fine", {"fine_id": f["fine_id"],
                               "amount": (tx.to_pence(f["outstanding"]) if len(chosen) > 1
                                          else amount) / 100}) for f in chosen]
        remain = owed - amount
        what = "; ".join(f"{f['fine_id']} ({f['description']}, {f['outstanding']} outstanding)"
                         for f in chosen)
        return self.confirm(intent, calls, f"I'll charge {tx.pounds(amount)} to your {card} "
                            f"towards {what}. That would leave {tx.pounds(remain)} on "
                            f"{'those fines' if len(chosen) > 1 else 'that fine'}. Shall I go "
                            "ahead?", obj=intent, amount=amount,
                            fines={f["fine_id"]: f for f in chosen})

    async def plan_waive(self, intent: dict) -> tuple[str, bool]:
        fines, _ = await self.open_fines()
        earlier = [d["text"] for d in self.state.get("completed", [])
                   if d["kind"] in ("waive", "pay")]
        if earlier and not fines:
            return "There's nothing outstanding now: " + " ".join(earlier), True
        if not fines:
            return "You have no outstanding fines to waive.", True
        chosen = await self.pick_fines(intent, fines)
        if chosen is None:
            listing = "; ".join(f"{f['fine_id']} ({f['description']}, {f['outstanding']})"
                                for f in fines)
            return self.ask("fine", f"Which fine do you mean? You have: {listing}.")
        fine = chosen[0]
        reason = next((r for r in (waive_reason(t) for t in self.texts(intent)) if r), None)
        if reason == "invalid":
            reason = self.invalid_reason(intent)
        if reason is None:
            return self.ask("reason", f"Fine {fine['fine_id']} is {fine['outstanding']} for "
                            f"{fine['description']}. We can waive a fine when it was a library "
                            "error or because of a hospital stay. Could you tell me what "
                            "happened?")
        if reason == "invalid":
            self.state["refused"] = True
            return (f"I'm sorry, we can only waive fines for a library error or a hospital stay, "
                    f"so I can't waive {fine['fine_id']} ({fine['outstanding']}). You can pay "
                    "all or part of it with the card on file, here or at any branch."), True
        why = "a library error" if reason == "library_error" else "your hospital stay"
        calls = [("waive_fine", {"fine_id": fine["fine_id"], "reason": reason})]
        return self.confirm(intent, calls, f"I can waive fine {fine['fine_id']} "
                            f"({fine['description']}, {fine['outstanding']}) because of {why}. "
                            "Shall I go ahead?", obj=intent, fine=fine)

    def invalid_reason(self, intent: dict) -> str:
        return "invalid"

    async def plan_replace_card(self, intent: dict) -> tuple[str, bool]:
        earlier = self.already("replace_card", "card")
        if earlier:
            return "Just to let you know, " + earlier, True
        calls = [("replace_card", {"card_number": self.state["card"]})]
        return self.confirm(intent, calls, self.replace_question(intent), obj=intent)

    def replace_question(self, intent: dict) -> str:
        return (f"A replacement card costs £2.00, which will be added to your account, and your "
                f"old card {self.state['card']} will stop working straight away. Shall I go "
                "ahead and issue a new card?")

    async def plan_update_contact(self, intent: dict) -> tuple[str, bool]:
        old = self.state["facts"].get("email")
        new_email = new_phone = None
        for text in self.texts(intent):
            mails = [m for m in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)
                     if m.lower().rstrip(".") != (old or "")]
            new_email = new_email or (mails[-1].rstrip(".").lower() if mails else None)
            new_phone = new_phone or tx.phone(text)
        if not new_email and not new_phone:
            return self.ask("email", "What's the new email address or phone number you'd like "
                            "on your account?")
        account, _ = await self.call("get_account", card_number=self.state["card"])
        change = []
        if new_email:
            change.append(f"your email from {account['email']} to {new_email}")
        if new_phone:
            change.append(f"your phone number from {account['phone']} to {new_phone}")
        calls = [("update_contact", {"card_number": self.state["card"], "email": new_email,
                                     "phone": new_phone})]
        return self.confirm(intent, calls, "I'll change " + " and ".join(change) +
                            ". Is that right?", obj=intent)

    async def plan_notice(self, intent: dict) -> tuple[str, bool]:
        chosen = None
        for text in self.texts(intent):
            chosen = channel(re.sub(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", " ", text))
            if chosen:
                break
        if not chosen:
            return self.ask("channel", "How would you like to get your notices: by email, text "
                            "message (SMS) or post?")
        account, _ = await self.call("get_account", card_number=self.state["card"])
        if account and account["notice_channel"] == chosen:
            return (f"Your notices already come by {_CHANNEL[chosen]}, so nothing needs "
                    "changing."), True
        calls = [("set_notice_preference", {"card_number": self.state["card"],
                                            "channel": chosen})]
        return self.confirm(intent, calls, f"I'll switch your notices (due-date reminders and "
                            f"hold-ready messages) to {_CHANNEL[chosen]}. Shall I go ahead?",
                            obj=intent)

    # -- results -----------------------------------------------------------------------------
    def report(self, pending: dict, name: str, args: dict, res: Any) -> str:
        text = self.describe(pending, name, args, res)
        key = args.get("loan_id") or args.get("fine_id") or args.get("hold_id") or "card"
        self.remember(pending["intent"], key, self.past(name, args, res))
        self.state["completed"][-1]["title"] = pending.get("title")
        if name == "replace_card":
            self.state.setdefault("own_cards", []).append(res["new_card_number"])
            self.state["card"] = res["new_card_number"]
        return text

    def past(self, name: str, args: dict, res: Any) -> str:
        """What a change did, told afterwards (for a patron who asks again)."""
        if name == "pay_fine":
            return (f"earlier in this chat I charged {res['charged']} to the card "
                    f"{res['card']} towards fine {res['fine_id']}, which left "
                    f"{res['remaining_on_fine']} on it. I haven't charged anything again.")
        if name == "waive_fine":
            return f"fine {res['fine_id']} was waived earlier in this chat."
        if name == "replace_card":
            return (f"your replacement card, {res['new_card_number']}, was issued earlier in "
                    f"this chat (with the {res['fee']} fee). I haven't issued another.")
        return "that was done earlier in this chat."

    def describe(self, pending: dict, name: str, args: dict, res: Any) -> str:
        if name == "renew_loan":
            title = pending.get("titles", {}).get(args["loan_id"], "Your book")
            new_due = tx.long_date(res["new_due_date"])
            return f"Done: {title} is renewed. The new due date is {new_due}."
        if name == "place_hold":
            return (f"Your hold on {pending.get('title')} is placed (hold {res['hold_id']}), for "
                    f"pickup at {tx.BRANCH_NAMES[res['pickup_branch']]}. We'll let you know "
                    "when it's ready.")
        if name == "cancel_hold":
            resume = self.state.pop("resume", None)
            if resume:
                resume.pop("refused", None)
                self.state["queue"].insert(0, resume)
            return f"Your hold on {pending.get('title')} is cancelled."
        if name == "change_pickup_branch":
            return (f"Done: your hold on {pending.get('title')} will now be ready for pickup at "
                    f"{tx.BRANCH_NAMES[res['pickup_branch']]}.")
        if name == "pay_fine":
            return self.pay_text(pending, args, res)
        if name == "waive_fine":
            return f"Fine {res['fine_id']} ({res['waived']}) has been waived."
        if name == "replace_card":
            return self.replace_text(res)
        if name == "update_contact":
            changed = [f"your email is now {res['email']}" if args.get("email") else "",
                       f"your phone number is now {res['phone']}" if args.get("phone") else ""]
            return "Updated: " + " and ".join(c for c in changed if c) + "."
        if name == "set_notice_preference":
            return f"Done: your notices will now come by {_CHANNEL[res['notice_channel']]}."
        return "Done."

    def pay_text(self, pending: dict, args: dict, res: dict) -> str:
        return (f"Payment taken: {res['charged']} charged to the card {res['card']}. "
                f"{res['remaining_on_fine']} remains on fine {res['fine_id']}; your account "
                f"balance is now {res['account_balance']}.")

    def replace_text(self, res: dict) -> str:
        return (f"Your new card number is {res['new_card_number']}; the old card no longer "
                f"works. The {res['fee']} replacement fee has been added to your account "
                f"(balance {res['account_balance']}). You can collect the card at any branch.")

    def explain_error(self, pending: dict, name: str, err: str) -> str:
        if name == "renew_loan":
            return (f"I'm sorry, I couldn't renew it: {err}. The due date hasn't changed. "
                    "Please return it by then to avoid fines of £0.25 a day.")
        if name == "pay_fine":
            return (f"I'm sorry, the payment didn't go through: {err}. Nothing was charged, and "
                    "the fine is still outstanding. You can pay with another card or cash at "
                    "any branch desk.")
        if name == "waive_fine":
            fine = pending.get("fine", {})
            return (f"I'm sorry, I can't waive it: {err}. The fine of "
                    f"{fine.get('outstanding', 'the full amount')} is still outstanding. You can "
                    "pay all or part of it with the card on file if you'd like.")
        if name == "place_hold":
            return f"I'm sorry, the hold couldn't be placed: {err}."
        return f"I'm sorry, that didn't work: {err}. Nothing was changed."
