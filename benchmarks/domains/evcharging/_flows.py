"""The desk's flows: plans, disputes, cards, vehicles, reservations, balance, contact, look-ups."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from benchmarks.domains.evcharging import _read as rd
from benchmarks.domains.evcharging import _seed

NAMES = _seed.PLAN_NAMES
CREDIT_WORDS = re.compile(r"\b(?:as|in|to) (?:account )?credit\b|\baccount credit\b|\b(?:on|to|"
                          r"onto|into) my (?:voltway )?balance\b", re.I)  # fmt: skip
REPLACE_WORDS = re.compile(r"\blost\b|\bstolen\b|\bbroken\b|\bdamaged\b|\breplac|\bsnapped\b|"
                           r"\bstopped working\b|\bdoesn'?t work\b", re.I)  # fmt: skip


class Flows:
    """The flows; `CorrectEvchargingAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    now: Any
    today: Any
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", account_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def say_session(s: dict[str, Any]) -> str:
        return (f"session {s['session_id']} ({rd.say_day(s['day'])} at {s['started']}, "
                f"{s['site']}, {s['kwh']:.1f} kWh, {rd.pounds(s['amount_pence'])})")  # fmt: skip

    def pick_sessions(self, v: dict[str, Any], text: str) -> tuple[list[dict[str, Any]], list[str]]:
        """The sessions meant (by number, else by day) and the numbers not on this account."""
        ids = rd.sessions(text)
        own = {s["session_id"]: s for s in v["sessions"]}
        if ids:
            return [own[i] for i in ids if i in own], [i for i in ids if i not in own]
        days = {d.isoformat() for d in rd.past_days(text, self.today)}
        return [s for s in v["sessions"] if s["day"] in days], []

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def plan_effective(self, v: dict[str, Any], plan: str) -> str:
        """A plan change starts on the next billing date."""
        return str(v["next_billing_date"])

    def refund_card(self, v: dict[str, Any], s: dict[str, Any]) -> str:
        """A session's refund goes back to the card that paid for it."""
        return str(s["card_last4"])

    def sessions_to_refund(self, found: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return found

    def may_share(self, v: dict[str, Any], s: dict[str, Any]) -> bool:
        """A driver sees only their own account's sessions."""
        return bool(s["account_id"] == v["account_id"])

    def may_reserve(self, v: dict[str, Any]) -> bool:
        return bool(v["plan"] == "plus")

    def may_refund_balance(self, v: dict[str, Any]) -> bool:
        """A balance is refunded only when the account is closed."""
        return False

    # -- plans -----------------------------------------------------------------------------
    async def step_plan(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if any(c["effective"] > self.today.isoformat() for c in v["plan_changes"]):
            c = next(c for c in v["plan_changes"] if c["effective"] > self.today.isoformat())
            out.append(f"There's already a change to {NAMES[c['to_plan']]} booked from "
                       f"{rd.say_day(c['effective'])}, so I haven't changed anything.")
            return "done"
        target = "payg" if v["plan"] == "plus" else "plus"
        effective = self.plan_effective(v, target)
        if target == "plus":
            text = (f"To switch you to Voltway Plus: £7.99 a month and 59p per kWh, starting "
                    f"from {rd.say_day(effective)}. Until then you stay on Pay As You Go at 79p "
                    "per kWh. The £7.99 is taken from your card ending "
                    f"{v['card_last4']} on each billing date. Shall I switch you?")
        else:
            text = (f"To cancel Voltway Plus: it runs to the end of your billing month, "
                    f"{rd.say_day(v['billing_month_ends'])}, and from "
                    f"{rd.say_day(effective)} you're on Pay As You Go at 79p per kWh with no "
                    "monthly fee. Shall I cancel Plus?")
        return self.propose(req, out, text, [("change_plan", {
            "account_id": v["account_id"], "plan": target, "effective": effective})])

    # -- disputes and look-ups -------------------------------------------------------------
    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        found, others = self.pick_sessions(v, text)
        for sid in others:
            out.append(f"I can't find session {sid} on your account.")
        if not found:
            if others:
                return "done"
            return self.ask("session_id", "Which session was it? The session number starts "
                            "VS (it's on your receipt), or tell me the day.", out)  # fmt: skip
        found = self.sessions_to_refund(found)
        calls, lines = [], []
        credit = bool(CREDIT_WORDS.search(text))
        for s in found:
            if s["status"] == "refunded":
                out.append(f"Session {s['session_id']} has already been refunded.")
                continue
            if s["days_ago"] > _seed.DISPUTE_DAYS:
                out.append(f"I'm sorry — {self.say_session(s)} was {s['days_ago']} days ago, and "
                           "sessions can only be refunded when reported within 14 days, so I "
                           "can't refund it.")  # fmt: skip
                continue
            to = "credit" if credit else self.refund_card(v, s)
            where = ("as credit on your Voltway balance" if to == "credit"
                     else f"to the card it was paid with, ending {to}")  # fmt: skip
            lines.append(f"a full refund of {rd.pounds(s['amount_pence'])} for "
                         f"{self.say_session(s)}, {where}")
            calls.append(("dispute_session", {
                "account_id": v["account_id"], "session_id": s["session_id"],
                "reason": "failed" if s["status"] == "failed" else "overcharged",
                "refund_pence": s["amount_pence"], "refund_to": to}))
        if not calls:
            out.append("Nothing has been changed.")
            return "done"
        return self.propose(req, out, "To refund " + "; and ".join(lines) + ". Shall I go ahead?",
                            calls)

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        found, others = self.pick_sessions(v, text)
        for sid in others:
            s, error = await self.call("get_session", session_id=sid)
            if error:
                out.append(f"I can't find a session {sid}.")
            elif self.may_share(v, s):
                found.append({**s, "days_ago": 0})
            else:
                out.append(f"Session {sid} isn't on your account, so I can't share anything "
                           "about it — only the account holder can ask us about it.")
        if not found and not others:
            if not v["sessions"]:
                out.append("I can't see any charging sessions on your account.")
                return "done"
            return self.ask("session_id", "Which session do you mean? Its number starts VS, "
                            "or tell me the day you charged.", out)  # fmt: skip
        for s in found:
            said = self.say_session(s)
            out.append(f"{said[0].upper()}{said[1:]}, paid with the card ending "
                       f"{s['card_last4']}; status: {s['status']}.")
        return "done"

    # -- charge cards ----------------------------------------------------------------------
    async def step_card(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        live = [c for c in v["charge_cards"] if c["status"] != "cancelled"]
        replaces = None
        if REPLACE_WORDS.search(text) and live:
            named = [c for c in live if c["card_id"] in rd.card_ids(text)]
            if not named and len(live) > 1:
                return self.ask("card_id", "Which card is it? Its number starts RF, on the back "
                                "of the card: " + ", ".join(c["card_id"] for c in live) + ".", out)
            replaces = (named or live)[0]["card_id"]
        elif len(live) >= _seed.MAX_CARDS:
            out.append(f"I'm sorry — an account can have at most {_seed.MAX_CARDS} charge cards, "
                       f"and yours has {len(live)}. I haven't ordered one; if one is lost, I can "
                       "replace it.")  # fmt: skip
            return "done"
        fee = 0 if not v["charge_cards"] else _seed.CARD_FEE_PENCE
        what = (f"a replacement for card {replaces} (which I'll cancel now)" if replaces
                else "your first charge card" if not fee else "an extra charge card")
        cost = ("free" if not fee else f"{rd.pounds(fee)}, taken from your card ending "
                f"{v['card_last4']}")  # fmt: skip
        return self.propose(
            req, out, f"To order {what}, posted to the address on your account: {cost}. "
            "Shall I order it?",
            [("order_card", {"account_id": v["account_id"],
                             "reason": "replacement" if replaces else "extra" if fee else "first",
                             "fee_pence": fee, "replaces": replaces})],
        )  # fmt: skip

    # -- vehicles --------------------------------------------------------------------------
    async def step_vehicle_add(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        regs = rd.registrations(self.text(req))
        if not regs:
            return self.ask("registration", "What's the vehicle's registration?", out)
        reg = regs[-1]
        return self.propose(req, out, f"To add {reg} to your account. Shall I add it?",
                            [("add_vehicle", {"account_id": v["account_id"],
                                              "registration": reg})])  # fmt: skip

    async def step_vehicle_remove(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        regs = rd.registrations(self.text(req))
        on = [x["registration"] for x in v["vehicles"]]
        if not regs:
            return self.ask("registration", "Which vehicle should come off? The registration, "
                            f"please — you have {', '.join(on) or 'none'}.", out)  # fmt: skip
        reg = next((r for r in regs if r in on), None)
        if reg is None:
            out.append(f"{regs[-1]} isn't on your account, so there's nothing to remove.")
            return "done"
        return self.propose(req, out, f"To remove {reg} from your account. Shall I remove it?",
                            [("remove_vehicle", {"account_id": v["account_id"],
                                                 "registration": reg})])  # fmt: skip

    # -- reservations ----------------------------------------------------------------------
    async def step_reserve(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if not self.may_reserve(v):
            out.append("I'm sorry — reserving a charger is for Voltway Plus members only, and "
                       "you're on Pay As You Go. I haven't reserved anything.")
            return "done"
        ids = rd.chargers(text)
        if not ids:
            return self.ask("charger_id", "Which charger? Its number starts CH and is on the "
                            "charger and in the app.", out)  # fmt: skip
        start = rd.start_time(text, self.now)
        if start is None:
            return self.ask("start_time", "What time will you get there? I can hold a charger "
                            "for up to 30 minutes from now.", out)  # fmt: skip
        latest = (self.now + timedelta(minutes=_seed.RESERVE_AHEAD_MINUTES)).strftime("%H:%M")
        if not self.now.strftime("%H:%M") <= start <= latest:
            out.append(f"I'm sorry — a charger can only be reserved up to 30 minutes ahead, so "
                       f"from now until {latest}; {start} is outside that. I haven't reserved "
                       "anything.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To reserve charger {ids[-1]} from {start} today: a £1.00 reservation fee "
            f"is taken from your card ending {v['card_last4']} and refunded once your session "
            "starts. Shall I reserve it?",
            [("reserve_charger", {"account_id": v["account_id"], "charger_id": ids[-1],
                                  "start": start, "fee_pence": _seed.RESERVE_FEE_PENCE})],
        )  # fmt: skip

    # -- balance ---------------------------------------------------------------------------
    async def step_topup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        said = rd.amounts(self.text(req))
        if not said:
            return self.ask("amount", "How much would you like to top up? Anything from £10 to "
                            "£100.", out)  # fmt: skip
        amount = said[-1]
        if not _seed.TOPUP_MIN_PENCE <= amount <= _seed.TOPUP_MAX_PENCE:
            return self.ask("amount", f"A top-up can be £10 to £100, so I can't add "
                            f"{rd.pounds(amount)}. How much would you like instead?", out)
        return self.propose(
            req, out, f"To top up your balance by {rd.pounds(amount)} from your card ending "
            f"{v['card_last4']}. Shall I go ahead?",
            [("top_up", {"account_id": v["account_id"], "amount_pence": amount})],
        )

    async def step_balance(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        bal = v["balance_pence"]
        if not bal:
            out.append("Your balance is £0.00, so there's nothing to refund.")
            return "done"
        if not self.may_refund_balance(v):
            out.append(f"Your balance is {rd.pounds(bal)}. I'm sorry — a balance is only "
                       "refunded when the account is closed; while it's open it stays on your "
                       "account for charging. I haven't changed anything.")
            return "done"
        return self.propose(
            req, out, f"To refund your {rd.pounds(bal)} balance to your card ending "
            f"{v['card_last4']}. Shall I go ahead?",
            [("refund_balance", {"account_id": v["account_id"], "amount_pence": bal})],
        )

    async def step_close(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        bal = v["balance_pence"]
        back = (f"your {rd.pounds(bal)} balance is refunded to your card ending "
                f"{v['card_last4']}" if bal else "there's no balance to refund")  # fmt: skip
        return self.propose(
            req, out, f"To close your Voltway account: {back}, and your charge cards stop "
            "working. Shall I close it?",
            [("close_account", {"account_id": v["account_id"], "balance_refund_pence": bal})],
        )

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        new_email = [e for e in rd.emails(text, new_only=True) if e != v["email"]] or [
            e for e in rd.emails(" ".join(req["chunks"][1:])) if e != v["email"]]
        numbers = rd.phones(text)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        said = []
        if new_email:
            args["email"] = new_email[-1]
            said.append(f"your email to {new_email[-1]}")
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your phone number to {numbers[-1]}")
        if not said:
            if re.search(r"\bemail\b", text, re.I):
                return self.ask("new_email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        return self.propose(req, out, "To change " + " and ".join(said) + ". Shall I update it?",
                            [("update_contact", args)])

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the driver's words."""
        if intent == "plan":
            return (f"Done — you're on {r['current_plan']} now, and {r['plan']} starts on "
                    f"{rd.say_day(r['effective'])}.")  # fmt: skip
        if intent == "dispute":
            return f"Done — {r['refunded']} refunded for session {r['session_id']} to {r['to']}."
        if intent == "card":
            gone = f"; card {r['cancelled']} is cancelled" if r["cancelled"] else ""
            return (f"Done — card {r['card_id']} is ordered and will arrive by post in 3–5 "
                    f"working days; fee {r['fee']}{gone}.")  # fmt: skip
        if intent == "vehicle_add":
            return f"Done — {r['registration']} is on your account."
        if intent == "vehicle_remove":
            return f"Done — {r['registration']} has been removed from your account."
        if intent == "reserve":
            return (f"Done — charger {r['charger_id']} at {r['site']} is held for you from "
                    f"{r['start'][11:]}; {r['fee']} taken from your card ending "
                    f"{r['card_last4']}, refunded when your session starts.")  # fmt: skip
        if intent == "topup":
            return (f"Done — {r['topped_up']} added from your card ending {r['card_last4']}; "
                    f"your balance is {r['balance']}.")  # fmt: skip
        if intent == "balance":
            return f"Done — {r['refunded']} refunded to your card ending {r['card_last4']}."
        if intent == "close":
            return (f"Done — your account is closed and {r['refunded']} is refunded to your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        return f"Done — your email is {r['email']} and your phone number is {r['phone']}."

    async def failed(self, req: dict[str, Any], call: tuple[str, dict[str, Any]], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        extra = (" Voltway Plus allows 4 vehicles, or you could remove one first."
                 if "vehicles" in error and "Pay As You Go" in error else "")  # fmt: skip
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been "
                   f"changed.{extra}")
