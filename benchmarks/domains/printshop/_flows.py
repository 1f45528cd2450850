"""The desk's flows: proofs, changes, rush, delivery, cancellations, reprints, codes, look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.printshop import _read as rd
from benchmarks.domains.printshop import _seed

OPEN = ("proof_sent", "approved")
PREFER = {  # which of the account's orders a request means when it names none
    "approve": ("proof_sent",), "change": ("proof_sent",), "rush": OPEN, "delivery": OPEN,
    "cancel": OPEN, "discount": OPEN, "reprint": ("delivered",), "invoice": (),
    "lookup": (), "contact": (),
}  # fmt: skip


def spec(o: dict[str, Any]) -> str:
    return (f"{o['quantity']:,} {_seed.PRODUCT_NAMES[o['product']]}, {o['paper']} paper, "
            f"{o['finish']} finish")  # fmt: skip


def arrival_phrase(method: str, day: str) -> str:
    if method == "collect":
        return f"ready to collect from our shop on {rd.say_day(day)}"
    return f"delivered by {_seed.DELIVERY_NAMES[method]} on {rd.say_day(day)}"


def price_move(old: int, new: int) -> str:
    if old == new:
        return f"the print price stays {rd.pounds(new)}"
    return f"the print price goes from {rd.pounds(old)} to {rd.pounds(new)}"


class Flows:
    """The flows; `CorrectPrintshopAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def all_said(self, req: dict[str, Any]) -> str:
        return " ".join([self.text(req), *self.s.get("said", [])])

    def pick_order(self, v: dict[str, Any], req: dict[str, Any],
                   out: list[str]) -> dict[str, Any] | None:  # fmt: skip
        """The order meant: named by number, else the one verified with, else the only fit."""
        ids = rd.orders(self.text(req))
        if ids:
            named = [o for o in v["orders"] if o["order_id"] == ids[-1]]
            if not named:
                out.append(f"I can't find order {ids[-1]} on your account, so I can't look at "
                           "or change it — only the person who placed it can.")  # fmt: skip
                return None
            return named[0]
        mine = next((o for o in v["orders"] if o["order_id"] == self.s["ident_order"]), None)
        prefer = PREFER[req["intent"]]
        if mine is not None and (not prefer or mine["status"] in prefer):
            return mine
        fits = [o for o in v["orders"] if o["status"] in prefer]
        if len(fits) == 1:
            return fits[0]
        if mine is not None:
            return mine
        out.append("I can't find an order on your account that matches that.")
        return None

    def card(self, v: dict[str, Any]) -> str:
        return f"your card ending {v['card_last4']}"

    def money_move(self, v: dict[str, Any], diff: int) -> str:
        if diff > 0:
            return f"{rd.pounds(diff)} more is taken from {self.card(v)}"
        if diff < 0:
            return f"{rd.pounds(-diff)} is refunded to {self.card(v)}"
        return "the total stays the same"

    def not_open(self, o: dict[str, Any], what: str, out: list[str]) -> str:
        status = {"dispatched": f"was dispatched on {rd.say_day(o['dispatch_on'])}"
                  if o["dispatch_on"] else "has been dispatched",
                  "delivered": f"was delivered on {rd.say_day(o['delivered_on'])}"
                  if o["delivered_on"] else "has been delivered",
                  "cancelled": "is cancelled"}.get(o["status"], f"is {o['status']}")  # fmt: skip
        out.append(f"I'm sorry — order {o['order_id']} {status}, so {what}. Nothing has been "
                   "changed.")  # fmt: skip
        return "done"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def new_price(self, o: dict[str, Any], quantity: int, paper: str, finish: str) -> int:
        """The print price of the changed spec: the new band's price with paper and finish."""
        return _seed.price(o["product"], quantity, paper, finish)

    def rush_fee(self, o: dict[str, Any]) -> int:
        """Rush production: 25% of the print price (never of delivery)."""
        return int(o["price_pence"]) * _seed.RUSH_PERCENT // 100

    def reprint_cause(self, text: str) -> str | None:
        """'artwork' (the customer's own error: no free reprint), 'print', or None (unclear)."""
        if rd.ARTWORK.search(text):
            return "artwork"
        if rd.PRINT_FAULT.search(text):
            return "print"
        return None

    def code_problem(self, v: dict[str, Any], code: str) -> str | None:
        """Why a trade code can't go on this account's orders, or None."""
        if not v["trade_code"]:
            return ("trade codes can only be used by the trade account they were issued to, "
                    "and this isn't a trade account")  # fmt: skip
        if v["trade_code"].upper() != code.upper():
            return "a trade code can only be used by the trade account it was issued to"
        return None

    def invoice_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    # -- proofs and changes ----------------------------------------------------------------
    async def step_approve(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] == "approved":
            out.append(f"The proof for order {o['order_id']} was already approved on "
                       f"{rd.say_day(o['approved_on'])}: it will be dispatched on "
                       f"{rd.say_day(o['dispatch_on'])} and "
                       f"{arrival_phrase(o['delivery'], o['delivery_date'])}.")  # fmt: skip
            return "done"
        if o["status"] != "proof_sent":
            return self.not_open(o, "there's no proof waiting for approval", out)
        dispatch = _seed.add_working_days(self.today, _seed.PRODUCTION_DAYS[bool(o["rush"])])
        arrive = _seed.add_working_days(dispatch, _seed.DELIVERY[o["delivery"]][1])
        return self.propose(
            req, out, f"To approve the proof for order {o['order_id']} ({spec(o)}): it goes "
            "to print, and after that the order can't be changed. It will be dispatched on "
            f"{rd.say_day(dispatch.isoformat())} and "
            f"{arrival_phrase(o['delivery'], arrive.isoformat())}. Shall I approve it?",
            [("approve_proof", {"customer_id": v["customer_id"], "order_id": o["order_id"]})],
        )  # fmt: skip

    async def step_change(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] == "approved":
            out.append(f"I'm sorry — the proof for order {o['order_id']} was approved on "
                       f"{rd.say_day(o['approved_on'])}, so it's in production and can't be "
                       "changed. The only way would be to cancel it (refunded less the "
                       f"{rd.pounds(_seed.SETUP_FEE_PENCE)} set-up fee) and order again. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        if o["status"] != "proof_sent":
            return self.not_open(o, "it can't be changed", out)
        text = self.text(req)
        qtys = [q for q in rd.quantities(text) if q != o["quantity"]]
        papers = [p for p in rd.said_options(rd.PAPERS, text) if p != o["paper"]]
        finishes = [f for f in rd.said_options(rd.FINISHES, text) if f != o["finish"]]
        if not (qtys or papers or finishes):
            return self.ask("change", f"Your order is {spec(o)}. What would you like to change "
                            "— the quantity, the paper (standard, recycled or premium) or the "
                            "finish (matt, gloss or soft-touch)?", out)  # fmt: skip
        bands = _seed.BANDS[o["product"]]
        quantity = qtys[-1] if qtys else o["quantity"]
        if quantity not in bands:
            return self.ask("quantity", f"{_seed.PRODUCT_NAMES[o['product']].capitalize()} "
                            f"come in quantities of {', '.join(f'{q:,}' for q in bands)} — "
                            "which would you like?", out)  # fmt: skip
        paper = papers[-1] if papers else o["paper"]
        finish = finishes[-1] if finishes else o["finish"]
        new = self.new_price(o, quantity, paper, finish)
        after = (new - (new * _seed.TRADE_PERCENT // 100 if o["discount_code"] else 0)
                 + (new * _seed.RUSH_PERCENT // 100 if o["rush"] else 0)
                 + o["delivery_fee_pence"])  # fmt: skip
        changed = {**o, "quantity": quantity, "paper": paper, "finish": finish}
        return self.propose(
            req, out, f"To change order {o['order_id']} to {spec(changed)}: "
            f"{price_move(o['price_pence'], new)}, so "
            f"{self.money_move(v, after - o['total_pence'])}. The proof is updated for you to "
            "approve. Shall I change it?",
            [("change_order", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                               "quantity": quantity, "paper": paper, "finish": finish,
                               "price_pence": new})],
        )  # fmt: skip

    # -- rush and delivery -----------------------------------------------------------------
    async def step_rush(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] not in OPEN:
            return self.not_open(o, "it's too late for rush production", out)
        if o["rush"]:
            out.append(f"Order {o['order_id']} already has rush production.")
            return "done"
        fee = self.rush_fee(o)
        soon = _seed.add_working_days(self.today, _seed.PRODUCTION_DAYS[True])
        if o["status"] == "approved":
            dispatch = min(date.fromisoformat(o["dispatch_on"]), soon)
            when = ""
        else:
            dispatch = soon
            when = " if you approve the proof today"
        arrive = _seed.add_working_days(dispatch, _seed.DELIVERY[o["delivery"]][1]).isoformat()
        by = rd.dates(self.text(req), self.today)
        if by and rd.BY_DAY_ONLY.search(self.all_said(req)) and arrive > by[-1].isoformat():
            out.append(f"With rush production order {o['order_id']} would be "
                       f"{arrival_phrase(o['delivery'], arrive)}, which is after "
                       f"{rd.say_day(by[-1].isoformat())}, so as you asked I haven't added it. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        before = f" instead of {rd.say_day(o['delivery_date'])}" if o["delivery_date"] else ""
        return self.propose(
            req, out, f"To add rush production to order {o['order_id']}: a rush fee of "
            f"{rd.pounds(fee)}, taken from {self.card(v)}. It would be dispatched on "
            f"{rd.say_day(dispatch.isoformat())}{when} and "
            f"{arrival_phrase(o['delivery'], arrive)}{before}. Shall I add it?",
            [("add_rush", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                           "fee_pence": fee})],
        )  # fmt: skip

    async def step_delivery(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] not in OPEN:
            return self.not_open(o, "the delivery can't be changed", out)
        said = rd.said_options(rd.METHODS, self.text(req))
        methods = [m for m in said if m != o["delivery"]]
        if not methods:
            if said:
                out.append(f"Order {o['order_id']} is already set for "
                           f"{_seed.DELIVERY_NAMES[o['delivery']]}.")  # fmt: skip
                return "done"
            return self.ask("method", "How would you like it to come — standard post "
                            "(£4.95), next-day courier (£9.95) or collection from our shop "
                            "(free)?", out)  # fmt: skip
        method = methods[-1]
        fee = _seed.DELIVERY[method][0]
        when = ""
        if o["dispatch_on"]:
            arrive = _seed.add_working_days(date.fromisoformat(o["dispatch_on"]),
                                            _seed.DELIVERY[method][1]).isoformat()  # fmt: skip
            when = f" It will be {arrival_phrase(method, arrive)}."
        where = f" at {_seed.SHOP_ADDRESS.split(', ', 1)[1]} (free)" if method == "collect" else (
            f" ({rd.pounds(fee)})")  # fmt: skip
        return self.propose(
            req, out, f"To switch order {o['order_id']} from "
            f"{_seed.DELIVERY_NAMES[o['delivery']]} ({rd.pounds(o['delivery_fee_pence'])}) to "
            f"{_seed.DELIVERY_NAMES[method]}{where}: "
            f"{self.money_move(v, fee - o['delivery_fee_pence'])}.{when} Shall I switch it?",
            [("set_delivery", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                               "method": method, "fee_pence": fee})],
        )  # fmt: skip

    # -- cancelling and reprints -----------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] not in OPEN:
            what = "it can't be cancelled"
            if o["status"] in {"dispatched", "delivered"}:
                what += (" — if there's a print fault, tell us within 14 days of delivery and "
                         "we'll reprint it free")  # fmt: skip
            return self.not_open(o, what, out)
        paid = int(o["total_pence"])
        if o["status"] == "approved":
            refund = paid - _seed.SETUP_FEE_PENCE
            what = (
                f"its proof was approved on {rd.say_day(o['approved_on'])}, so the "
                f"{rd.pounds(_seed.SETUP_FEE_PENCE)} set-up fee is kept and "
                f"{rd.pounds(refund)} of the {rd.pounds(paid)} you paid is refunded"
            )
        else:
            refund = paid
            what = (f"the proof hasn't been approved, so the full {rd.pounds(paid)} is "
                    "refunded")  # fmt: skip
        return self.propose(
            req, out, f"To cancel order {o['order_id']} ({spec(o)}): {what} to "
            f"{self.card(v)}. Shall I cancel it?",
            [("cancel_order", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    async def step_reprint(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        if o["status"] != "delivered":
            out.append(f"Order {o['order_id']} hasn't been delivered yet, so there's nothing "
                       "to reprint. If there's a print fault when it arrives, tell us within "
                       "14 days.")  # fmt: skip
            return "done"
        text = self.text(req)
        cause = self.reprint_cause(text)
        if cause is None:
            return self.ask("fault", "I'm sorry to hear that. What's wrong with them — for "
                            "example smudged ink, streaks, faded colours, a bad trim or the "
                            "wrong paper, or something in the design itself?", out)  # fmt: skip
        if cause == "artwork":
            out.append(
                "I'm sorry — that's in the artwork itself, and the proof you approved on "
                f"{rd.say_day(o['approved_on'])} showed it, so it isn't a print fault "
                "and we can't reprint it free. You're welcome to place a new order with "
                "corrected artwork at the usual price. Nothing has been changed."
            )
            return "done"
        if (self.today - date.fromisoformat(o["delivered_on"])).days > _seed.REPRINT_DAYS:
            out.append(f"I'm sorry — order {o['order_id']} was delivered on "
                       f"{rd.say_day(o['delivered_on'])}, more than 14 days ago, and free "
                       "reprints are for print faults reported within 14 days of delivery. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        fault = rd.PRINT_FAULT.search(text)
        reason = f"print fault: {fault.group(0) if fault else 'reported by the customer'}"
        dispatch = _seed.add_working_days(self.today, 2).isoformat()
        return self.propose(
            req, out, f"I'm sorry about that. To reprint order {o['order_id']} ({spec(o)}) "
            f"free of charge, as a print fault: dispatched on {rd.say_day(dispatch)} by "
            f"{_seed.DELIVERY_NAMES[o['delivery']]}, at no cost to you. Shall I arrange it?",
            [("request_reprint", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                                  "reason": reason})],
        )  # fmt: skip

    # -- codes, invoices, contact details, look-ups ----------------------------------------
    async def step_discount(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        said = rd.codes(self.text(req))
        if not said:
            return self.ask("code", "What's the trade code? It starts TRADE-.", out)
        code = said[-1]
        problem = self.code_problem(v, code)
        if problem:
            out.append(f"I'm sorry — {problem}, so I can't apply {code}. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        if o["status"] not in OPEN:
            return self.not_open(o, "it's too late to apply a code", out)
        if o["discount_code"]:
            out.append(f"Order {o['order_id']} already has {o['discount_code']} applied.")
            return "done"
        amount = o["price_pence"] * _seed.TRADE_PERCENT // 100
        return self.propose(
            req, out, f"To apply trade code {code} to order {o['order_id']}: "
            f"{_seed.TRADE_PERCENT}% off the {rd.pounds(o['price_pence'])} print price, so "
            f"{rd.pounds(amount)} is refunded to {self.card(v)}. Shall I apply it?",
            [("apply_discount", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                                 "code": code})],
        )  # fmt: skip

    async def step_invoice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        text = self.text(req)
        email = self.invoice_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"For your security, invoice copies only go to the email address on your "
                f"account, not to {said[0]}; you're welcome to forward it. "
                if said else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To email a copy of the invoice for order {o['order_id']} "
            f"({rd.pounds(o['total_pence'])}) to {email}. Shall I send it?",
            [("send_invoice_copy", {"customer_id": v["customer_id"], "order_id": o["order_id"],
                                    "email": email})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, addresses = rd.phones(text), rd.emails(text)
        if re.search(r"\bemail\b", text, re.I) and addresses and not numbers:
            return self.propose(
                req, out, f"To change the email address on your account from {v['email']} to "
                f"{addresses[-1]}. Shall I update it?",
                [("update_contact", {"customer_id": v["customer_id"], "email": addresses[-1]})],
            )  # fmt: skip
        if not numbers:
            return self.ask("phone", "What's the new phone number?", out)
        return self.propose(
            req,
            out,
            f"To change the phone number on your account to {numbers[-1]}. Shall I update it?",
            [("update_contact", {"customer_id": v["customer_id"], "phone": numbers[-1]})],
        )

    def describe(self, o: dict[str, Any]) -> str:
        """Where an order is, in the customer's words."""
        head = f"Order {o['order_id']} ({spec(o)})"
        if o["status"] == "proof_sent":
            where = ("has its proof waiting for your approval; printing starts once you "
                     "approve it")  # fmt: skip
        elif o["status"] == "approved":
            where = (f"is in production (proof approved on {rd.say_day(o['approved_on'])}): it "
                     f"will be dispatched on {rd.say_day(o['dispatch_on'])} and "
                     f"{arrival_phrase(o['delivery'], o['delivery_date'])}")  # fmt: skip
        elif o["status"] == "dispatched":
            where = (f"was dispatched on {rd.say_day(o['dispatch_on'])} by "
                     f"{_seed.DELIVERY_NAMES[o['delivery']]} and is due on "
                     f"{rd.say_day(o['delivery_date'])}")  # fmt: skip
        elif o["status"] == "delivered":
            where = f"was delivered on {rd.say_day(o['delivered_on'])}"
        else:
            where = "is cancelled"
        return f"{head} {where}. The order total is {rd.pounds(o['total_pence'])}."

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, req, out)
        if o is None:
            return "done"
        fresh, error = await self.call("get_order", order_id=o["order_id"])
        out.append(self.describe(fresh if not error else o))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the order system returned, in the customer's words."""
        if intent == "approve":
            return (f"Done — the proof for order {r['order_id']} is approved and it's gone to "
                    f"print: dispatch on {rd.say_day(r['dispatch_on'])}, "
                    f"{arrival_phrase(r['delivery'], r['delivery_date'])}.")  # fmt: skip
        if intent == "change":
            return (
                f"Done — order {r['order_id']} is now {spec(r)}, print price "
                f"{rd.pounds(r['price_pence'])}; difference {r['difference']}."
            )
        if intent == "rush":
            when = (f"; dispatch on {rd.say_day(r['dispatch_on'])}, "
                    f"{arrival_phrase(r['delivery'], r['delivery_date'])}"
                    if r["status"] == "approved" else "")  # fmt: skip
            return (f"Done — rush production is on order {r['order_id']}; {r['fee']} taken "
                    f"from your card ending {r['card_last4']}{when}.")  # fmt: skip
        if intent == "delivery":
            when = (f": {arrival_phrase(r['delivery'], r['delivery_date'])}"
                    if r["delivery_date"] else "")  # fmt: skip
            return (f"Done — order {r['order_id']} is now set for "
                    f"{_seed.DELIVERY_NAMES[r['delivery']]}{when}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — order {r['order_id']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "reprint":
            return (f"Done — reprint {r['reprint_id']} of order {r['order_id']} is booked, free "
                    f"of charge, for dispatch on {rd.say_day(r['dispatch_on'])}.")  # fmt: skip
        if intent == "discount":
            return (f"Done — {r['discount_code']} is on order {r['order_id']}; {r['refunded']} "
                    f"refunded to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "contact":
            return f"Done — your phone number is {r['phone']} and your email is {r['email']}."
        return (f"Done — a copy of the invoice for order {r['order_id']} has been sent to "
                f"{r['sent_to']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
