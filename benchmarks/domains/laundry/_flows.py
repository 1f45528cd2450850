"""The desk's flows, one per request: work out the change, state its cost, report the result.

Each `step_<intent>` returns "wait" (a question or a proposal is out) or "done"; each
`done_<intent>` reports what the system returned for the agreed call, and returns True when it
asked for another value (the request then stays open).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.laundry import _read as rd
from benchmarks.domains.laundry import _seed
from benchmarks.domains.laundry._env import in_area

PLURAL = {
    "shirt": "shirts", "dress": "dresses", "suit": "suits", "coat": "coats", "duvet": "duvets",
    "leather jacket": "leather jackets", "trousers": "pairs of trousers",
}  # fmt: skip
SINGULAR = {"trousers": "pair of trousers"}


def count(item: str, n: int) -> str:
    if item == "wash":
        return f"{n} kg of service wash"
    return f"{n} {SINGULAR.get(item, item) if n == 1 else PLURAL.get(item, item)}"


class Flows:
    """Mixin: the flows of `CorrectLaundryAgent` (which supplies the state and helpers)."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    # -- hooks the flawed agent overrides --------------------------------------------------
    def pick_hour(self, text: str) -> int | None:
        said = rd.slot_hours(text)
        return said[-1] if said else None

    def cancel_fee(self, status: str) -> int:
        return _seed.CANCEL_FEE_PENCE if status == "collected" else 0

    def express_blocked(self, view: dict[str, Any]) -> list[str]:
        return [i["item"] for i in view["items"] if i["item"] in _seed.NO_EXPRESS]

    def claim_payable(self, line: dict[str, Any], value: int) -> int:
        cap = line["declared_pence"] or line["unit_pence"] * _seed.CLAIM_MULTIPLE
        return min(value, cap)

    # -- helpers ---------------------------------------------------------------------------
    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_order", order_ref=self.s["ref"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def failed(error: str, out: list[str]) -> None:
        out.append(
            f"I'm sorry — the system refused that: {error}. Nothing has been changed or charged."
        )

    def args(self, **more: Any) -> dict[str, Any]:
        return {"order_ref": self.s["ref"], **more}

    def before_collection(self, view: dict[str, Any], what: str, out: list[str]) -> bool:
        if view["status"] == "booked":
            return True
        out.append(
            f"I'm sorry — {what} only before collection, and order {view['order_ref']} is "
            f"{view['status']}. Nothing has been changed."
        )
        return False

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        items = ", ".join(count(i["item"], i["qty"]) for i in v["items"])
        express = " with express 24-hour turnaround" if v["express"] else ""
        promo = f", after {v['promo_code']}" if v["promo_code"] else ""
        out.append(
            f"Your order {v['order_ref']} is {v['status']}{express}: collection "
            f"{rd.say_slot(v['collection_slot'])}, delivery {rd.say_slot(v['delivery_slot'])}, "
            f"to {v['address']}, {v['postcode']}. Items: {items}. Total {v['total']}{promo}."
        )
        return "done"

    # -- slot change -----------------------------------------------------------------------
    async def step_slot(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["status"] not in ("booked", "collected"):
            out.append(f"Order {v['order_ref']} is {v['status']}, so its slots can't change.")
            return "done"
        wants_delivery = bool(rd.re.search(r"\bdeliver", text, rd.re.I))
        which = "delivery" if v["status"] == "collected" or wants_delivery else "collection"
        current = v[f"{which}_slot"]
        if v[f"hours_to_{which}"] < _seed.SLOT_CUTOFF_HOURS:
            out.append(
                f"I'm sorry — your {which} is {rd.say_slot(current)}, which starts within 6 "
                "hours, so it can no longer be changed. Nothing has been changed."
            )
            return "done"
        hour = self.pick_hour(text)
        said = rd.days(text, self.today)
        day = said[-1] if said else date.fromisoformat(current[:10])
        if hour is None:
            return self.ask(
                "new_slot",
                f"Your {which} is {rd.say_slot(current)}. Which day and 2-hour slot would you "
                "like instead? Slots start at 08:00, 10:00, 12:00, 14:00, 16:00 and 18:00.",
                out,
            )
        if hour not in _seed.SLOT_STARTS:
            req["chunks"] = []
            return self.ask(
                "new_slot",
                "Our slots are 2-hour windows starting at 08:00, 10:00, 12:00, 14:00, 16:00 or "
                "18:00. Which slot would you like?",
                out,
            )
        new = f"{day.isoformat()} {hour:02d}:00"
        start = datetime.fromisoformat(new).replace(tzinfo=_seed.UK)
        if start - self.now < timedelta(hours=_seed.SLOT_CUTOFF_HOURS) or new == current:
            req["chunks"] = []
            return self.ask(
                "new_slot",
                f"{rd.say_slot(new)} isn't possible: a new slot must start at least 6 hours from "
                "now and differ from the one booked. Which other slot would you like?",
                out,
            )
        text_out = (
            f"I'll move your {which} from {rd.say_slot(current)} to {rd.say_slot(new)}. Slot "
            "changes are free until 6 hours before the slot. Shall I go ahead?"
        )
        args = self.args(which=which, new_slot=new)
        return self.propose(req, out, text_out, tool="change_slot", args=args)

    async def done_slot(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error and "fully booked" in error:
            req["chunks"] = [f"change my {pending['args']['which']}"]
            self.ask(
                "new_slot",
                f"I'm sorry — the system refused that: {error}. Nothing has been changed. Which "
                "other slot would you like?",
                out,
            )
            return True
        if error:
            self.failed(error, out)
            return False
        which = pending["args"]["which"]
        out.append(f"Done — your {which} is now {rd.say_slot(result[f'{which}_slot'])}.")
        return False

    # -- express ---------------------------------------------------------------------------
    async def step_express(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.before_collection(v, "express can be added", out):
            return "done"
        if v["express"]:
            out.append("Your order is already on express 24-hour turnaround.")
            return "done"
        blocked = self.express_blocked(v)
        if blocked:
            out.append(
                f"I'm sorry — express isn't available for duvets or leather, and your order has "
                f"{' and '.join(sorted(set(blocked)))}, so it stays on our standard turnaround. "
                "Nothing has been changed."
            )
            return "done"
        delivery = datetime.fromisoformat(v["collection_slot"]) + timedelta(days=1)
        total = v["total_pence"] + _seed.EXPRESS_PENCE
        text_out = (
            f"I'll add express 24-hour turnaround for £9.95: your delivery moves to "
            f"{rd.say_slot(delivery.strftime(_seed.STAMP))} and your total becomes "
            f"{rd.pounds(total)}. Shall I add it?"
        )
        return self.propose(req, out, text_out, tool="add_express", args=self.args())

    async def done_express(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — express is added ({result['added']}); delivery is "
            f"{rd.say_slot(result['delivery_slot'])} and your total is {result['total']}."
        )
        return False

    # -- items -----------------------------------------------------------------------------
    async def step_items(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.before_collection(v, "items can change", out):
            return "done"
        text = self.text(req)
        # The last message that names items says what is meant: "no, make it 4 kg" replaces.
        said = next((f for c in reversed(req["chunks"]) if (f := rd.items(c))), [])
        if not said:
            return self.ask(
                "items", "Which items would you like to add or remove, and how many?", out
            )
        sign = -1 if rd.removing(text) else 1
        have = {i["item"]: i["qty"] for i in v["items"]}
        batch, parts, cost = [], [], 0
        for item, n in said:
            if sign < 0 and have.get(item, 0) < n:
                out.append(
                    f"Your order has {count(item, have.get(item, 0))}, so I can't remove "
                    f"{count(item, n)}. Nothing has been changed."
                )
                return "done"
            batch.append(self.args(item=item, qty_change=sign * n))
            parts.append(count(item, n))
            cost += sign * n * _seed.PRICES[item]
        change = f"{rd.pounds(cost)} added" if cost >= 0 else f"{rd.pounds(-cost)} taken off"
        verb = "add" if sign > 0 else "remove"
        text_out = (
            f"I'll {verb} {' and '.join(parts)} — {change}, making your total "
            f"{rd.pounds(v['total_pence'] + cost)}. Shall I go ahead?"
        )
        return self.propose(req, out, text_out, tool="change_items", args=batch[0], batch=batch)

    async def done_items(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        items = ", ".join(count(i["item"], i["qty"]) for i in result["items"])
        out.append(f"Done — your order is now {items}; your total is {result['total']}.")
        return False

    # -- cancellation ----------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] not in ("booked", "collected"):
            out.append(f"Order {v['order_ref']} is {v['status']}, so it can't be cancelled.")
            return "done"
        fee = self.cancel_fee(v["status"])
        money = (
            f"As we've already collected it, there's a {rd.pounds(fee)} handling fee, charged "
            f"to {self.card(v)}, and your items come back on the delivery slot."
            if fee
            else "As it hasn't been collected yet, there's no charge."
        )
        text_out = f"I'll cancel order {v['order_ref']}. {money} Shall I cancel it?"
        return self.propose(req, out, text_out, tool="cancel_order", args=self.args(fee_pence=fee))

    async def done_cancel(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        fee = pending["args"]["fee_pence"]
        money = f" The {result['fee_charged']} handling fee is charged." if fee else ""
        out.append(f"Done — order {result['order_ref']} is cancelled.{money}")
        return False

    # -- claims ----------------------------------------------------------------------------
    async def step_claim(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] != "delivered":
            out.append("Claims are for orders we've delivered; this one hasn't been yet.")
            return "done"
        if v["hours_to_delivery"] < -24 * _seed.CLAIM_DAYS:
            out.append(
                "I'm sorry — claims must be made within 14 days of delivery, and yours was "
                f"delivered on {rd.say_slot(v['delivery_slot']).split(',')[0]}, so I can't "
                "register one. Nothing has been changed."
            )
            return "done"
        text = self.text(req)
        item = rd.named_item(text)
        if not item:
            return self.ask("item", "I'm sorry to hear that. Which item was it?", out)
        line = next((i for i in v["items"] if i["item"] == item), None)
        if line is None:
            out.append(f"Order {v['order_ref']} had no {item} on it, so I can't claim for one.")
            return "done"
        value = rd.value_pence(text)
        if value is None:
            verb = "are" if item == "trousers" else "is"
            return self.ask("value", f"What {verb} the {item} worth, in pounds?", out)
        kind = "lost" if rd.lost(text) else "damaged"
        pay = self.claim_payable(line, value)
        cap = (
            f"You declared {rd.pounds(line['declared_pence'])} for it at booking, so we pay up "
            "to that"
            if line["declared_pence"]
            else "Compensation is capped at 10 times its cleaning price "
            f"({rd.pounds(line['unit_pence'] * _seed.CLAIM_MULTIPLE)})"
        )
        text_out = (
            f"I'll register a claim for your {kind} {item}, valued at {rd.pounds(value)}. "
            f"{cap}, so {rd.pounds(pay)} is payable. Shall I register it?"
        )
        args = self.args(item=item, kind=kind, value_pence=value)
        return self.propose(req, out, text_out, tool="file_claim", args=args, stated=rd.pounds(pay))

    async def done_claim(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — claim {result['claim_id']} for your {result['item']} is registered: "
            f"{result['payable']} is payable to your card within 10 working days."
        )
        return False

    # -- promo codes -----------------------------------------------------------------------
    async def step_promo(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.before_collection(v, "a promo code can be applied", out):
            return "done"
        code = rd.promo(self.text(req))
        if not code:
            return self.ask("code", "Which promo code would you like to use?", out)
        known = {c: off for c, off, _ in _seed.PROMOS}
        if code not in known:
            out.append(f"I'm sorry — {code} isn't a code we recognise. Nothing has been changed.")
            return "done"
        off = known[code]
        text_out = (
            f"I'll apply {code} to order {v['order_ref']}: {rd.pounds(off)} off, making your "
            f"total {rd.pounds(max(0, v['total_pence'] - off))}. Each code can be used once. "
            "Shall I apply it?"
        )
        return self.propose(req, out, text_out, tool="apply_promo", args=self.args(code=code))

    async def done_promo(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — {result['promo_code']} is applied ({result['discount']} off); your total is "
            f"{result['total']}."
        )
        return False

    # -- Pressed Plus ----------------------------------------------------------------------
    async def step_plus(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["plus"]:
            out.append("You're already a Pressed Plus member.")
            return "done"
        text_out = (
            "I'll sign you up to Pressed Plus: £7.99 a month, the first month charged today to "
            f"{self.card(v)}, with 20% off the cleaning on orders you book from now on (not on "
            "orders already booked). Shall I sign you up?"
        )
        args = {"email": v["email"]}
        return self.propose(req, out, text_out, tool="join_plus", args=args)

    async def done_plus(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(f"Done — you're a Pressed Plus member; {result['charged']} is charged today.")
        return False

    # -- address ---------------------------------------------------------------------------
    async def step_address(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] not in ("booked", "collected"):
            out.append(f"Order {v['order_ref']} is {v['status']}, so its address can't change.")
            return "done"
        text = self.text(req)
        street, code = rd.address(text), rd.postcode(text)
        if not street or not code:
            return self.ask("address", "What's the new address, with its postcode?", out)
        if not in_area(code):
            out.append(
                f"I'm sorry — {code} is outside our service area ({', '.join(_seed.SERVICE_AREA)}"
                "), so I can't deliver there. Nothing has been changed."
            )
            return "done"
        text_out = (
            f"I'll change the address on order {v['order_ref']} to {street}, {code}, for "
            "collection and delivery. Shall I update it?"
        )
        args = self.args(address=street, postcode=code)
        return self.propose(req, out, text_out, tool="change_address", args=args)

    async def done_address(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(f"Done — we'll now collect from and deliver to {result['address']}, "
                   f"{result['postcode']}.")  # fmt: skip
        return False
