"""The flows' shared helpers, and the flows for plans, pauses, email, lockers and invoices."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.cowork import _read as rd
from benchmarks.domains.cowork import _seed

WORD_STOP = {
    "invoice", "charge", "charged", "dispute", "line", "please", "would", "like", "from",
    "that", "this", "with", "have", "didn't", "dont", "don't", "never", "there", "which",
    "december", "november", "october", "month", "what", "your", "mine", "they", "them",
}  # fmt: skip


class FlowBase:
    """Helpers and seven flows; `CorrectCoworkAgent` supplies the state and the tool calls."""

    s: dict[str, Any]
    now: datetime
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_member", member_id=self.s["member"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def failed(error: str, out: list[str]) -> None:
        out.append(
            f"I'm sorry — the system refused that: {error}. Nothing has been changed or charged."
        )

    # -- hooks the flawed agent overrides --------------------------------------------------
    def upgrade_charge(self, old: dict[str, Any], new_plan: str) -> int:
        diff = _seed.PLANS[new_plan][1] - _seed.PLANS[old["plan"]][1]
        return _seed.prorata(diff, self.today)

    # -- plans -----------------------------------------------------------------------------
    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        said = [p for p in rd.plans(self.text(req)) if p != v["plan"]]
        if not said:
            if rd.plans(self.text(req)) == [v["plan"]]:
                out.append(f"You're already on the {v['plan_name']} plan.")
                return "done"
            options = ", ".join(
                f"{name} ({rd.pounds(price)} a month, {hrs} room-credit hours)"
                for key, (name, price, hrs) in _seed.PLANS.items()
                if key != v["plan"]
            )
            return self.ask(
                "plan",
                f"You're on {v['plan_name']}. Which plan would you like instead: {options}?",
                out,
            )
        new = said[-1]
        name, price, hrs = _seed.PLANS[new]
        if v["pause_start"]:
            out.append(
                "Your membership has a pause booked, so the plan can't be changed until it "
                "ends — nothing has been changed."
            )
            return "done"
        if v["pending_plan"] == new:
            out.append(f"A move to {name} is already booked from {self.say_billing()}.")
            return "done"
        if price > v["monthly_pence"]:
            charge = self.upgrade_charge(v, new)
            days = self._days_in_month()
            left = days - self.today.day + 1
            extra = hrs - _seed.PLANS[v["plan"]][2]
            text = (
                f"Upgrading from {v['plan_name']} to {name} takes effect today. For the rest "
                f"of {self.today:%B} ({left} of {days} days) you pay the pro-rata difference "
                f"of {rd.pounds(charge)}, charged to {self.card(v)}, and you get {extra} more "
                f"room-credit hours this month. From {self.say_billing()} the plan is "
                f"{rd.pounds(price)} a month. Shall I go ahead?"
            )
        else:
            charge = 0
            text = (
                f"Moving from {v['plan_name']} to {name} takes effect from your next billing "
                f"date, {self.say_billing()}: you keep {v['plan_name']} until then and there's "
                f"nothing to pay now. From then it's {rd.pounds(price)} a month with {hrs} "
                "room-credit hours. Shall I book the change?"
            )
        return self.propose(
            req,
            out,
            text,
            tool="change_plan",
            args={"member_id": v["member_id"], "plan": new, "upgrade_charge_pence": charge},
        )

    def _days_in_month(self) -> int:
        import calendar

        return calendar.monthrange(self.today.year, self.today.month)[1]

    def say_billing(self) -> str:
        return rd.say_day(_seed.NEXT_BILLING) + " " + _seed.NEXT_BILLING[:4]

    async def done_plan(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        if result.get("current_plan_until"):
            out.append(
                f"Done — your plan changes to {result['plan']} on "
                f"{rd.say_day(result['effective'])}; nothing has been charged."
            )
        else:
            out.append(
                f"Done — you're now on {result['plan']}: {result['charged']} charged to your "
                f"card ending {result['card_last4']}, and {result['credit_hours_added']} "
                "room-credit hours added."
            )

    # -- pauses ----------------------------------------------------------------------------
    async def step_pause(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["pause_start"]:
            out.append(f"A pause from {rd.say_day(v['pause_start'])} is already booked.")
            return "done"
        first = date.fromisoformat(_seed.NEXT_BILLING)
        start = first
        for month in rd.month_names(text) + [d.month for d in rd.dates(text, self.today)]:
            year = first.year if month >= first.month else first.year + 1
            if month == 12:
                continue
            start = date(year, month, 1)
        last = v["last_pause_start"]
        if last and (start - date.fromisoformat(last)).days < _seed.PAUSE_EVERY_DAYS:
            out.append(
                f"I'm sorry — your membership was last paused from {rd.say_day(last)} "
                f"{last[:4]}, and a membership can be paused at most once in any 12 months, so "
                "I can't book a pause from then. Nothing has been changed."
            )
            return "done"
        months = rd.months(text)
        if months is None or months < 1:
            return self.ask(
                "months", "How many months would you like to pause for — 1, 2 or 3?", out
            )
        if months > _seed.MAX_PAUSE_MONTHS:
            req["chunks"] = [c for c in req["chunks"] if rd.months(c) is None]
            return self.ask(
                "months",
                f"A pause can be at most {_seed.MAX_PAUSE_MONTHS} months. How many months "
                "would you like — 1, 2 or 3?",
                out,
            )
        month = start.month - 1 + months
        back = date(start.year + month // 12, month % 12 + 1, 1)
        return self.propose(
            req,
            out,
            f"I'll pause your membership from {rd.say_day(start.isoformat())} {start.year} "
            f"for {months} month{'s' if months > 1 else ''}, resuming on "
            f"{rd.say_day(back.isoformat())} {back.year}. There's no plan fee while paused, "
            "and no desk access or room credit. It's free, and it's your one pause for the "
            "next 12 months. Shall I book it?",
            tool="pause_membership",
            args={"member_id": v["member_id"], "start_month": start.isoformat(), "months": months},
        )

    async def done_pause(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — your membership is paused from {rd.say_day(result['pause_start'])} for "
            f"{result['months']} month{'s' if result['months'] > 1 else ''} and resumes on "
            f"{rd.say_day(result['resumes'])}."
        )

    # -- email -----------------------------------------------------------------------------
    async def step_email(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        found = [e for e in rd.emails(self.text(req)) if e.lower() != v["email"].lower()]
        if not found:
            return self.ask("new_email", "What's the new email address?", out)
        return self.propose(
            req,
            out,
            f"I'll change the email on your account from {v['email']} to {found[-1]}. "
            "Shall I go ahead?",
            tool="update_email",
            args={"member_id": v["member_id"], "email": found[-1]},
        )

    async def done_email(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(f"Done — the email on your account is now {result['email']}.")

    # -- lockers ---------------------------------------------------------------------------
    async def step_locker(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["locker"]:
            out.append(f"You already rent locker {v['locker']}; it's one locker per member.")
            return "done"
        total = _seed.LOCKER_PENCE + _seed.LOCKER_DEPOSIT_PENCE
        return self.propose(
            req,
            out,
            f"A locker is {rd.pounds(_seed.LOCKER_PENCE)} a month plus a "
            f"{rd.pounds(_seed.LOCKER_DEPOSIT_PENCE)} deposit, refunded when you return it "
            f"(less {rd.pounds(_seed.LOST_KEY_PENCE)} if the key is lost): "
            f"{rd.pounds(total)} today, charged to {self.card(v)}. Shall I go ahead?",
            tool="rent_locker",
            args={"member_id": v["member_id"]},
        )

    async def done_locker(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — locker {result['locker_id']} is yours; {result['charged']} charged to "
            f"your card ending {result['card_last4']}. Pick up the key at reception."
        )

    async def step_locker_return(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["locker"]:
            out.append("You don't rent a locker at the moment, so there's nothing to return.")
            return "done"
        lost = rd.key_lost(self.text(req))
        if req.get("asked_key") and req["chunks"]:
            reply = rd.answer(req["chunks"][-1])
            said = rd.key_lost(req["chunks"][-1])
            lost = said if said is not None else {"yes": False, "no": True}.get(reply or "", lost)
        if lost is None:
            req["asked_key"] = True
            return self.ask(
                "key_lost",
                f"Can you hand back the key to locker {v['locker']}? If it's lost, "
                f"{rd.pounds(_seed.LOST_KEY_PENCE)} is kept from your "
                f"{rd.pounds(v['locker_deposit_pence'])} deposit.",
                out,
            )
        deposit = v["locker_deposit_pence"]
        back = max(0, deposit - (_seed.LOST_KEY_PENCE if lost else 0))
        why = f" (the {rd.pounds(_seed.LOST_KEY_PENCE)} lost-key fee is kept)" if lost else ""
        return self.propose(
            req,
            out,
            f"Returning locker {v['locker']}: {rd.pounds(back)} of your {rd.pounds(deposit)} "
            f"deposit goes back to {self.card(v)}{why}, and the locker is released. Shall I "
            "go ahead?",
            tool="return_locker",
            args={"member_id": v["member_id"], "key_lost": bool(lost)},
            refund=rd.pounds(back),
        )

    async def done_locker_return(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — locker {result['locker_id']} is returned, and {result['refund']} is "
            f"refunded to your card ending {result['card_last4']}."
        )

    # -- invoices --------------------------------------------------------------------------
    def _pick_invoice(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        invs = v["invoices"]
        ids = rd.invoices(text)
        for inv in invs:
            if inv["invoice_id"] in ids:
                return inv
        months = rd.month_names(text) + [d.month for d in rd.dates(text, self.today, all_said=True)]
        for month in reversed(months):
            for inv in invs:
                if int(inv["issued"][5:7]) == month:
                    return inv
        return invs[0] if invs else None

    @staticmethod
    def _pick_line(inv: dict[str, Any], text: str) -> dict[str, Any] | None:
        said = rd.amounts(text)
        for line in inv["lines"]:
            if line["amount_pence"] in said:
                return line
        words = {w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in WORD_STOP}
        scored = []
        for line in inv["lines"]:
            desc = set(re.findall(r"[a-z]{4,}", line["description"].lower())) - WORD_STOP
            hits = len({w for w in words if any(d.startswith(w[:5]) for d in desc)})
            scored.append((hits, line))
        best = max((h for h, _ in scored), default=0)
        top = [line for h, line in scored if h == best]
        return top[0] if best and len(top) == 1 else None

    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        inv = self._pick_invoice(v, text)
        if inv is None:
            out.append("There are no invoices on your account.")
            return "done"
        line = self._pick_line(inv, text)
        if line is None:
            lines = "; ".join(
                f"{x['description']} {rd.pounds(x['amount_pence'])}" for x in inv["lines"]
            )
            return self.ask(
                "line",
                f"Which charge on invoice {inv['invoice_id']} ({rd.say_day(inv['issued'])}) "
                f"would you like to dispute? It has: {lines}.",
                out,
            )
        age = (self.today - date.fromisoformat(inv["issued"])).days
        if age > _seed.DISPUTE_DAYS:
            out.append(
                f"I'm sorry — invoice {inv['invoice_id']} is dated "
                f"{rd.say_day(inv['issued'])} {inv['issued'][:4]}, {age} days ago, and a charge "
                f"can only be disputed within {_seed.DISPUTE_DAYS} days of the invoice date, so "
                "I can't raise a dispute on it. Nothing has been changed."
            )
            return "done"
        if line["disputed"]:
            out.append(f"'{line['description']}' is already under dispute.")
            return "done"
        reason = req["chunks"][0].strip()
        return self.propose(
            req,
            out,
            f"I'll dispute '{line['description']}' ({rd.pounds(line['amount_pence'])}) on "
            f"invoice {inv['invoice_id']} of {rd.say_day(inv['issued'])}. The charge is put on "
            "hold while our billing team reviews it, usually within 10 working days. Shall I "
            "raise it?",
            tool="dispute_invoice_line",
            args={
                "member_id": v["member_id"],
                "invoice_id": inv["invoice_id"],
                "line_id": line["line_id"],
                "reason": reason,
            },
        )

    async def done_dispute(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — '{result['description']}' ({result['amount']}) on invoice "
            f"{result['invoice_id']} is now disputed and on hold; billing will email you."
        )

    async def step_invoice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        inv = self._pick_invoice(v, self.text(req))
        if inv is None:
            out.append("There are no invoices on your account.")
            return "done"
        lines = "; ".join(
            f"{x['description']} {rd.pounds(x['amount_pence'])}"
            + (" (disputed)" if x["disputed"] else "")
            for x in inv["lines"]
        )
        out.append(
            f"Invoice {inv['invoice_id']} of {rd.say_day(inv['issued'])} {inv['issued'][:4]}: "
            f"{lines}. Total {inv['total']}."
        )
        return "done"
