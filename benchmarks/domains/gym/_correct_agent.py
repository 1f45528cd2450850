"""The correct Pulse Fitness desk agent: rule-based, verifies, quotes, asks, reports what it got."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.gym._desk import fmt_date, fmt_when, money
from benchmarks.domains.gym._tasks import CLUB_NAMES, TaskHandlers


class CorrectGymAgent(TaskHandlers):
    """Guest passes, card, contact details and the read-only requests, on top of the tasks."""

    async def h_guest_pass(self, task: dict[str, Any]) -> tuple[str, bool]:
        acct = await self.acct()
        if acct["plan_id"] != "premium":
            return (f"I'm sorry, guest passes come with the Premium plan only, and you're on "
                    f"{acct['plan']}, so I can't issue one. If you'd like, you could upgrade to "
                    "Premium (£50 a month), which includes 2 guest passes a month."), True
        if not task.get("guest"):
            return self.ask("guest", "What's your guest's full name?")
        if not task.get("date"):
            return self.ask("date", "Which day is the pass for?")
        return self.propose(task, f"I'll issue a guest pass for {task['guest']} on "
                                  f"{fmt_date(task['date'])} at {CLUB_NAMES[acct['home_club']]}. "
                                  "Shall I go ahead?")

    async def x_guest_pass(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        result, error = await self.call("issue_guest_pass", member_id=self.s["member"],
                                        guest_name=task["guest"], date=task["date"])
        self.finish_task()
        if error:
            return self.guest_error(task, error)
        return (f"Done: your guest pass for {result['guest_name']} on "
                f"{fmt_date(result['date'])} is issued (pass {result['pass_id']}); they just "
                "show it at reception.")

    def guest_error(self, task: dict[str, Any], error: str) -> str:
        return f"I'm sorry, I couldn't issue the guest pass: {error}."

    async def h_card(self, task: dict[str, Any]) -> tuple[str, bool]:
        if not task.get("last4") or not task.get("expiry"):
            return self.ask("card", "What are the last four digits of the new card, and its "
                                    "expiry date (MM/YY)?")
        acct = await self.acct()
        return self.propose(task, f"I'll replace the card on file ({acct['card']}) with the card "
                                  f"ending {task['last4']}, expiring {task['expiry']}. Shall I "
                                  "go ahead?")

    async def x_card(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        result, error = await self.call("update_payment_card", member_id=self.s["member"],
                                        last4=task["last4"], expiry=task["expiry"])
        self.finish_task()
        if error:
            task.pop("last4", None)
            task.pop("expiry", None)
            return f"I'm sorry, I couldn't update the card: {error}."
        return f"Your payment card is updated: {result['card']}."

    async def h_contact(self, task: dict[str, Any]) -> tuple[str, bool]:
        if not task.get("email") and not task.get("phone"):
            return self.ask("contact", "What's the new email address or phone number?")
        parts = [f"email to {task['email']}"] if task.get("email") else []
        parts += [f"phone to {task['phone']}"] if task.get("phone") else []
        return self.propose(task, f"I'll change your {' and '.join(parts)}. Shall I go ahead?")

    async def x_contact(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        args = {k: task[k] for k in ("email", "phone") if task.get(k)}
        result, error = await self.call("update_contact", member_id=self.s["member"], **args)
        self.finish_task()
        if error:
            return f"I'm sorry, I couldn't update your details: {error}."
        return (f"Your contact details are updated: email {result['email']}, "
                f"phone {result['phone']}.")

    async def h_payments(self, task: dict[str, Any]) -> tuple[str, bool]:
        rows, error = await self.call("get_payments", member_id=self.s["member"])
        if error or not rows:
            return "I can't see any payments on your account.", True
        listed = "; ".join(f"{fmt_date(p['date'])}: {money(p['amount'])} ({p['description']})"
                           for p in rows[:5])
        return f"Your recent payments: {listed}.", True

    async def h_bookings(self, task: dict[str, Any]) -> tuple[str, bool]:
        rows, _ = await self.call("get_bookings", member_id=self.s["member"])
        if not rows:
            return "You have no upcoming bookings.", True
        listed = "; ".join(f"{b['name']} at {CLUB_NAMES[b['club_id']]} on "
                           f"{fmt_when(b['starts_at'])} ({b['booking_id']})" for b in rows)
        return f"Your upcoming bookings: {listed}.", True

    async def h_membership(self, task: dict[str, Any]) -> tuple[str, bool]:
        a = await self.acct()
        extra = f", changing to {a['pending_plan_id']} from {a['pending_from']}" \
            if a.get("pending_plan_id") else ""
        return (f"You're on {a['plan']} ({money(a['monthly_fee'])} a month, {a['contract']} "
                f"contract){extra}; your next billing date is "
                f"{fmt_date(a['next_billing_date'])}."), True
