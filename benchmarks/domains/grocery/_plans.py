"""Planning a request: which order, what exactly changes, whether policy allows it, the proposal.

Planning makes read-only calls only (orders, products, slots). A change is proposed with its
values and fees and waits for the customer's yes in `state["pending"]`; a missing detail is
asked for in `state["awaiting"]`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from benchmarks.domains.grocery._intents import Request, product_mentions, slot_fields
from benchmarks.domains.grocery._text import (
    convert,
    find_address_line,
    find_order_ids,
    normalize,
    quantities,
)
from benchmarks.domains.grocery._units import (
    day_text,
    line_pence,
    money,
    quantity_text,
    slot_text,
    window,
)

if TYPE_CHECKING:
    from vistasim.env import ToolOutcome

DELIVERY_DISTRICTS = {"BS1", "BS2", "BS3", "BS4", "BS5", "BS6", "BS7", "BS8", "BS9", "BS16"}
LATE_CHANGE_FEE = 300
DAMAGED_CARD_MINIMUM = 1000
CLAIM_HOURS = 48


def pence(text: str) -> int:
    """'£41.40' -> 4140."""
    digits = re.sub(r"[^\d.-]", "", text)
    return round(float(digits) * 100) if digits else 0


def item_phrase(qty: float, unit: str, name: str) -> str:
    return f"{quantity_text(qty, unit)} {name}" if unit != "each" else \
        f"{quantity_text(qty, unit)} × {name}"


class Plans:
    """Mixin: the planning half of the agent (needs `call`, `say`, `state`, `now`)."""

    state: dict[str, Any]
    customer: dict[str, Any] | None

    async def call(self, name: str, **args: Any) -> ToolOutcome:
        raise NotImplementedError

    def say(self, text: str) -> None:
        raise NotImplementedError

    def now(self) -> datetime:
        raise NotImplementedError

    # -- pending and awaiting ----------------------------------------------------------------------
    def propose(self, actions: list[dict[str, Any]], text: str) -> None:
        question = f"{text} Shall I go ahead?"
        self.state["pending"] = {"actions": actions, "question": question}
        self.state["context"] = actions[0]["req"]["kind"]
        self.say(question)

    def ask(self, need: str, req: Request, question: str,
            options: list[str] | None = None) -> None:
        self.state["awaiting"] = {"need": need, "req": req, "question": question,
                                  "options": options}
        self.state["context"] = req["kind"]
        self.say(question)

    async def plan(self, req: Request) -> None:
        handlers = {
            "item": self.plan_items, "subs": self.plan_items, "slot": self.plan_slot,
            "cancel": self.plan_cancel, "claim": self.plan_claim, "voucher": self.plan_voucher,
            "address": self.plan_address, "phone": self.plan_phone, "view": self.plan_view,
        }
        await handlers[req["kind"]](req)

    # -- which order -------------------------------------------------------------------------------
    async def my_orders(self, status: str | None = None) -> list[dict[str, Any]]:
        assert self.customer is not None
        out = await self.call("list_orders", account_number=self.customer["account_number"],
                              status=status)
        return list(out.result["orders"]) if isinstance(out.result, dict) else []

    async def candidates(self, req: Request) -> list[dict[str, Any]]:
        """The customer's own orders a request may be about."""
        if req["kind"] == "claim":
            return await self.my_orders("delivered")
        return [o for o in await self.my_orders() if o["status"] in ("placed", "picked")]

    async def order_detail(self, order_id: str) -> dict[str, Any] | None:
        out = await self.call("get_order", order_id=order_id)
        return out.result if isinstance(out.result, dict) else None

    async def target(self, req: Request) -> dict[str, Any] | None:
        ref = req.get("order_ref")
        if ref:
            mine = {o["order_id"] for o in await self.my_orders()}
            if ref not in mine:
                self.say(f"I can't find order {ref} on your account, so I can't look at it or "
                         "change it. Could you check the order number?")
                return None
            return await self.order_detail(ref)
        orders = await self.candidates(req)
        chosen = await self._choose(req, orders)
        if chosen is None:
            return None
        return await self.order_detail(chosen)

    async def _choose(self, req: Request, orders: list[dict[str, Any]]) -> str | None:
        if not orders:
            what = "recent deliveries" if req["kind"] == "claim" else "upcoming orders"
            self.say(f"I can't see any {what} on your account.")
            return None
        narrowed = orders
        day = req.get("order_date") or (req.get("when") if req["kind"] == "claim" else None)
        if day:
            narrowed = [o for o in orders if o["slot_date"] == day] or orders
        if len(narrowed) > 1 and req["kind"] == "claim" and req.get("product"):
            narrowed = await self._with_product(narrowed, str(req["product"])) or narrowed
        focus = self.state["focus"]
        if len(narrowed) > 1 and any(o["order_id"] == focus for o in narrowed):
            return str(focus)
        if len(narrowed) == 1:
            return str(narrowed[0]["order_id"])
        listing = " or ".join(f"{o['order_id']} ({o['slot']})" for o in narrowed)
        self.ask("order", req, f"Which order do you mean: {listing}?",
                 [o["order_id"] for o in narrowed])
        return None

    async def _with_product(self, orders: list[dict[str, Any]], query: str) -> list[Any]:
        found = []
        for o in orders:
            detail = await self.order_detail(o["order_id"])
            if detail and self.match_line(detail, query):
                found.append(o)
        return found

    @staticmethod
    def match_line(order: dict[str, Any], query: str) -> dict[str, Any] | None:
        words = [w.rstrip("s") for w in re.findall(r"[a-z]+", query.lower())]
        lines = [i for i in order["items"] if all(w in i["name"].lower() for w in words)]
        return lines[0] if len(lines) == 1 else None

    def focus_on(self, order: dict[str, Any]) -> None:
        self.state["focus"] = order["order_id"]

    @staticmethod
    def refuse_status(order: dict[str, Any], what: str) -> str:
        status = order["status"]
        if status == "picked":
            return (f"Order {order['order_id']} has already been picked and packed, so {what} "
                    "can't be changed any more.")
        if status == "delivered":
            return f"Order {order['order_id']} has already been delivered."
        return f"Order {order['order_id']} is {status}, so {what} can't be changed."

    # -- items and substitutions ------------------------------------------------------------------
    async def plan_items(self, req: Request) -> None:
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        if order["status"] != "placed":
            self.say(self.refuse_status(order, "its items") + " If there's something you don't "
                     "want, you can refuse it at the door and you'll be refunded for it.")
            self._drop_same_order(order)
            return
        actions: list[dict[str, Any]] = []
        current: Request | None = req
        while current is not None:
            action = await self._plan_one_item(current, order)
            if action is None:
                break
            actions.append(action)
            current = self._next_item_request(order)
        if actions:
            labels = "; ".join(a["label"] for a in actions)
            intro = "Here's the change" if len(actions) == 1 else "Here are the changes"
            self.propose(actions, f"{intro} to order {order['order_id']} ({order['slot']}): "
                                  f"{labels}.")

    def _next_item_request(self, order: dict[str, Any]) -> Request | None:
        queue = self.state["queue"]
        if queue and queue[0]["kind"] in ("item", "subs") and \
                queue[0].get("order_ref") in (None, order["order_id"]):
            return queue.pop(0)  # type: ignore[no-any-return]
        return None

    def _drop_same_order(self, order: dict[str, Any]) -> None:
        queue = self.state["queue"]
        while queue and queue[0]["kind"] in ("item", "subs"):
            queue.pop(0)

    async def _plan_one_item(self, req: Request, order: dict[str, Any]) -> dict[str, Any] | None:
        self.state["last_order"] = order
        if req["kind"] == "subs":
            return self._plan_subs(req, order)
        product = await self._product(req, order)
        if product is None:
            return None
        line = next((i for i in order["items"] if i["sku"] == product["sku"]), None)
        have = float(line["quantity"]) if line else 0.0
        new = self._new_quantity(req, product, have)
        if new is None:
            return None
        return self._check_item(req, order, product, have, new)

    async def _product(self, req: Request, order: dict[str, Any]) -> dict[str, Any] | None:
        query = str(req["product"])
        out = await self.call("search_products", query=query)
        products = out.result["products"] if isinstance(out.result, dict) else []
        if not products:
            self.say(f"Sorry, I can't find {query} in our shop.")
            return None
        if len(products) == 1:
            return dict(products[0])
        skus = {i["sku"] for i in order["items"]}
        on_order = [p for p in products if p["sku"] in skus]
        if len(on_order) == 1:
            return dict(on_order[0])
        names = [p["name"] for p in products]
        self.ask("product", req, f"Which {query} would you like: {', '.join(names[:-1])} or "
                                 f"{names[-1]}?", names)
        return None

    def _new_quantity(self, req: Request, product: dict[str, Any], have: float) -> float | None:
        op, unit = req["op"], product["unit"]
        if op == "remove":
            if have == 0:
                self.say(f"{product['name']} isn't on this order, so there's nothing to remove.")
                return None
            return 0.0
        qty = req.get("qty")
        if qty is None and req.get("like"):
            line = self._like_line(req)
            if line is not None and line["unit"] == unit:
                return float(line["quantity"])
        if qty is None:
            if op in ("add", "increase") and unit == "each":
                qty = 1.0
            else:
                now_text = f" (you have {quantity_text(have, unit)} now)" if have else ""
                self.ask("qty", req, f"How much {product['name']} would you like{now_text}? "
                                     f"It's sold in steps of {product['sold_in_steps_of']}.")
                return None
        said = convert(float(qty), req.get("unit"), unit, float(product["step"]))
        if said is None:
            self.ask("qty", req, f"{product['name']} is sold by "
                                 f"{'the item' if unit == 'each' else unit}. How much would you "
                                 "like?")
            return None
        return have + said if op in ("add", "increase") and have else said

    def _like_line(self, req: Request) -> dict[str, Any] | None:
        """The order line a swapped-in product replaces ('swap the X for Y')."""
        order = self.state.get("last_order")
        return self.match_line(order, str(req["like"])) if order else None

    def _check_item(self, req: Request, order: dict[str, Any], product: dict[str, Any],
                    have: float, new: float) -> dict[str, Any] | None:
        unit, name, step = product["unit"], product["name"], float(product["step"])
        if new > have and not product["in_stock"]:
            self._out_of_stock(req, order, product)
            return None
        if abs(new / step - round(new / step)) > 1e-6:
            lower, upper = (new // step) * step, (new // step + 1) * step
            options = [quantity_text(q, unit) for q in (lower, upper) if q > 0]
            self.ask("qty", req, f"{name} is sold in steps of {product['sold_in_steps_of']}, "
                                 f"so I can't do {quantity_text(new, unit)}. Would "
                                 f"{' or '.join(options)} suit you?")
            return None
        if new > float(product["max_per_order"]):
            self.say(f"Sorry, {name} is limited to "
                     f"{quantity_text(float(product['max_per_order']), unit)} per order, so I "
                     f"can't make it {quantity_text(new, unit)}.")
            return None
        if abs(new - have) < 1e-9:
            self.say(f"Your order already has {item_phrase(have, unit, name)}.")
            return None
        if new == 0:
            label = f"remove {item_phrase(have, unit, name)}"
        elif have:
            label = (f"change {name} from {quantity_text(have, unit)} to "
                     f"{quantity_text(new, unit)}")
        else:
            label = f"add {item_phrase(new, unit, name)} ({product['price']})"
        return {"tool": "update_item", "args": {"order_id": order["order_id"],
                                                "sku": product["sku"], "quantity": new},
                "req": req, "label": label, "unit": unit, "name": name}

    def _out_of_stock(self, req: Request, order: dict[str, Any], product: dict[str, Any]) -> None:
        fallback = req.get("fallback")
        if fallback:
            self.say(f"Sorry, {product['name']} is out of stock, so I can't add it. You said "
                     f"that in that case you'd like {fallback['product']} instead.")
            self.state["queue"].insert(0, {**fallback, "order_ref": order["order_id"]})
            return
        self.say(f"Sorry, {product['name']} is out of stock at the moment, so I can't add it. "
                 "Is there something else you'd like instead?")
        self.state["context"] = "item"

    def _plan_subs(self, req: Request, order: dict[str, Any]) -> dict[str, Any] | None:
        sku = None
        scope = "every item on the order"
        if req.get("product"):
            line = self.match_line(order, str(req["product"]))
            if line is None:
                self.say(f"I can't see {req['product']} on order {order['order_id']}.")
                return None
            sku, scope = line["sku"], line["name"]
        state = "allow substitutions" if req["allowed"] else "turn substitutions off"
        return {"tool": "set_substitutions", "args": {"order_id": order["order_id"],
                                                      "allowed": bool(req["allowed"]),
                                                      "sku": sku},
                "req": req, "label": f"{state} for {scope}"}

    # -- slots -------------------------------------------------------------------------------------
    def slot_fee(self, order: dict[str, Any], new_date: str, new_hour: int) -> int:
        """The late-change fee: due when the order's *current* slot starts within 12 hours."""
        start = datetime.fromisoformat(order["slot_date"]).replace(
            hour=int(order["start_hour"]), tzinfo=self.now().tzinfo)
        return LATE_CHANGE_FEE if start - self.now() < timedelta(hours=12) else 0

    async def plan_slot(self, req: Request) -> None:
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        if order["status"] != "placed":
            self.say(self.refuse_status(order, "its delivery slot"))
            return
        if not req.get("date"):
            self.ask("date", req, "Which day would you like the delivery moved to?")
            return
        day = date.fromisoformat(req["date"])
        if req.get("hour") is None:
            await self._ask_hour(req, day)
            return
        checked = await self.call("check_slots", slot_date=req["date"])
        if checked.error or not isinstance(checked.result, dict):
            self.say(f"Sorry, I can't book {day_text(day)}: {checked.error}.")
            return
        await self._slot_choice(req, order, day, checked.result["slots"])

    async def _ask_hour(self, req: Request, day: date) -> None:
        if req.get("ambiguous_hour") is not None:
            h = int(req["ambiguous_hour"])
            self.ask("ampm", req, f"Would that be {window(h)[:-3] if h < 11 else h} in the "
                                  f"morning ({window(h)}) or the evening ({window(h + 12)})?")
            return
        checked = await self.call("check_slots", slot_date=day.isoformat())
        hours = {"morning": range(8, 12), "afternoon": range(12, 17), "evening": range(17, 22)}
        wanted = hours.get(str(req.get("part")), range(8, 22))
        free = [s["window"] for s in (checked.result or {}).get("slots", [])
                if s["available"] and s["start_hour"] in wanted]
        if checked.error or not free:
            self.ask("date", req, f"Sorry, there are no free slots on {day_text(day)}. Which "
                                  "other day would suit you?")
            return
        part = f" in the {req['part']}" if req.get("part") else ""
        self.ask("time", req, f"On {day_text(day)}{part} these one-hour slots are free: "
                              f"{', '.join(free)}. Which would you like?")

    async def _slot_choice(self, req: Request, order: dict[str, Any], day: date,
                           slots: list[dict[str, Any]]) -> None:
        hour = int(req["hour"])
        by_hour = {s["start_hour"]: s for s in slots}
        if req.get("range_end"):
            end = int(req["range_end"]) + (12 if hour >= 12 else 0)
            free = [h for h in range(hour, end) if by_hour.get(h, {}).get("available")]
            hour = free[0] if free else hour
        slot = by_hour.get(hour)
        if slot is None:
            self.ask("time", {**req, "hour": None}, "Our slots run from 8–9 am to 9–10 pm. "
                                                    "Which one would you like?")
            return
        if (day.isoformat(), hour) == (order["slot_date"], order["start_hour"]):
            self.say(f"Order {order['order_id']} is already booked for {slot_text(day, hour)}.")
            return
        if not slot["available"]:
            await self._slot_unavailable(req, order, day, hour, slot, slots)
            return
        fee = self.slot_fee(order, day.isoformat(), hour)
        note = ""
        if req.get("half"):
            note = f"Slots start on the hour, so the closest one is {window(hour)}. "
        charge = (f"Your current slot starts in less than 12 hours, so this move costs "
                  f"{money(fee)}, charged to your card ending {order['card_last4']}."
                  if fee else "There's no charge for this move.")
        action = {"tool": "change_slot", "args": {"order_id": order["order_id"],
                                                  "slot_date": day.isoformat(),
                                                  "start_hour": hour},
                  "req": req, "label": slot_text(day, hour), "fee": fee,
                  "current": order["slot"],
                  "asked_for": req.get("asked_for")}
        self.propose([action], f"{note}I'll move order {order['order_id']} from {order['slot']} "
                               f"to {slot_text(day, hour)}. {charge}")

    async def _slot_unavailable(self, req: Request, order: dict[str, Any], day: date, hour: int,
                                slot: dict[str, Any], slots: list[dict[str, Any]]) -> None:
        why = "is full" if slot["reason"] == "full" else "starts too soon (we need 3 hours' notice)"
        fallback = req.get("fallback")
        if fallback:
            self.say(f"Sorry, {slot_text(day, hour)} {why}. You said {self._fb_text(fallback)} "
                     "would also do.")
            new = {k: v for k, v in req.items() if k not in ("fallback", "hour",
                                                             "ambiguous_hour", "half")}
            new.update({k: v for k, v in fallback.items() if v is not None})
            new["asked_for"] = {"date": day.isoformat(), "hour": hour}
            await self.plan_slot(new)
            return
        free = sorted((s for s in slots if s["available"]),
                      key=lambda s: (abs(s["start_hour"] - hour), s["start_hour"]))[:3]
        if not free:
            self.ask("date", {**req, "date": None, "hour": None},
                     f"Sorry, {slot_text(day, hour)} {why}, and there are no other free slots "
                     f"on {day_text(day)}. Would another day suit you?")
            return
        options = ", ".join(s["window"] for s in sorted(free, key=lambda s: s["start_hour"]))
        first_ask = req.get("asked_for") or {"date": day.isoformat(), "hour": hour}
        self.ask("slot_alt", {**req, "hour": None, "asked_for": first_ask},
                 f"Sorry, {slot_text(day, hour)} {why}. The "
                 f"nearest free slots that day are {options}. Would one of those suit you?")

    @staticmethod
    def _fb_text(fallback: dict[str, Any]) -> str:
        parts = []
        if fallback.get("date"):
            parts.append(day_text(date.fromisoformat(fallback["date"])))
        if fallback.get("hour") is not None:
            parts.append(window(int(fallback["hour"])))
        return ", ".join(parts) or "another slot"

    # -- cancelling --------------------------------------------------------------------------------
    def refund_estimate(self, order: dict[str, Any]) -> int:
        """What a cancellation refunds: the order total (items + delivery - voucher)."""
        return int(order["total_pence"])

    async def plan_cancel(self, req: Request) -> None:
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        if order["status"] == "picked":
            self.say(f"Order {order['order_id']} has already been picked and packed, so it "
                     "can't be cancelled any more. If you don't want it, you can refuse the "
                     "delivery at the door: the driver takes it back and you're refunded for "
                     "what you refuse.")
            return
        if order["status"] != "placed":
            self.say(self.refuse_status(order, "it"))
            return
        refund = self.refund_estimate(order)
        detail = ""
        if order.get("voucher_code"):
            detail = (f" (items {order['subtotal']} + delivery {order['delivery_fee']}, less "
                      f"the {order['voucher_code']} discount of {order['discount']})")
        action = {"tool": "cancel_order", "args": {"order_id": order["order_id"]}, "req": req,
                  "label": "cancel", "estimate": refund}
        self.propose([action], f"I'll cancel order {order['order_id']} ({order['slot']}). "
                               f"{money(refund)}{detail} will be refunded to your card ending "
                               f"{order['card_last4']} within 3–5 working days.")

    # -- missing and damaged items -----------------------------------------------------------------
    def claim_too_late(self, order: dict[str, Any]) -> bool:
        """Claims close 48 hours after the end of the delivery slot."""
        end = datetime.fromisoformat(order["slot_date"]).replace(
            hour=int(order["start_hour"]), tzinfo=self.now().tzinfo) + timedelta(hours=1)
        return self.now() - end > timedelta(hours=CLAIM_HOURS)

    async def plan_claim(self, req: Request) -> None:
        if not req.get("product"):
            self.ask("product", req, "I'm sorry about that. Which item was "
                                     f"{req.get('problem', 'missing')}?")
            return
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        line = self.match_line(order, str(req["product"]))
        if line is None:
            items = ", ".join(item_phrase(i["quantity"], i["unit"], i["name"])
                              for i in order["items"])
            self.say(f"I can't see {req['product']} on order {order['order_id']} "
                     f"({order['slot']}). That delivery had: {items}.")
            return
        if self.claim_too_late(order):
            self.say(f"I'm sorry, but order {order['order_id']} was delivered on "
                     f"{order['slot']}, more than 48 hours ago. Missing or damaged items have "
                     "to be reported within 48 hours of the delivery, so I can't log a claim "
                     "for it now.")
            return
        qty = self._claim_quantity(req, line)
        if qty is None:
            return
        self._propose_claim(req, order, line, qty)

    def _claim_quantity(self, req: Request, line: dict[str, Any]) -> float | None:
        have, unit = float(line["quantity"]), line["unit"]
        if req.get("qty") is None:
            if have == 1 or unit != "each":
                return have
            self.ask("qty", req, f"How many of the {quantity_text(have, unit)} {line['name']} "
                                 f"were {req['problem']}?")
            return None
        if req["qty"] == "all":
            return have
        qty = convert(float(req["qty"]), req.get("unit"), unit, 1.0)
        if qty is None or qty > have:
            self.ask("qty", {**req, "qty": None},
                     f"Your order had {item_phrase(have, unit, line['name'])}. How many were "
                     f"{req['problem']}?")
            return None
        return qty

    def _propose_claim(self, req: Request, order: dict[str, Any], line: dict[str, Any],
                       qty: float) -> None:
        amount = line_pence(qty, int(line["price_pence"]), float(line["price_per"]))
        problem = req["problem"]
        wanted = req.get("resolution")
        note = ""
        if problem == "damaged":
            if wanted == "card" and amount < DAMAGED_CARD_MINIMUM:
                note = (f"Refunds to the card for damaged items are only for "
                        f"{money(DAMAGED_CARD_MINIMUM)} or more, so I can't refund "
                        f"{money(amount)} to your card, but I can add it as account credit. ")
                method = "credit"
            else:
                method = wanted or "credit"
        else:
            method = wanted or "card"
        where = (f"refunded to your card ending {order['card_last4']} (3–5 working days)"
                 if method == "card" else "added to your account as credit, used "
                 "automatically on your next order")
        action = {"tool": "report_problem",
                  "args": {"order_id": order["order_id"], "sku": line["sku"], "quantity": qty,
                           "problem": problem, "resolution": method},
                  "req": req, "label": "claim"}
        self.propose([action], f"{note}I'll log {item_phrase(qty, line['unit'], line['name'])} "
                               f"as {problem} from order {order['order_id']} ({order['slot']}): "
                               f"{money(amount)} {where}.")

    # -- vouchers ----------------------------------------------------------------------------------
    async def plan_voucher(self, req: Request) -> None:
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        if order["status"] != "placed":
            self.say(self.refuse_status(order, "its voucher"))
            return
        if order.get("voucher_code"):
            self.say(f"Order {order['order_id']} already has voucher {order['voucher_code']}, "
                     "and only one voucher can be used per order.")
            return
        code = req["codes"][0]
        action = {"tool": "apply_voucher", "args": {"order_id": order["order_id"], "code": code},
                  "req": req, "label": code}
        self.propose([action], f"I'll apply voucher {code} to order {order['order_id']} "
                               f"({order['slot']}, items {order['subtotal']}).")

    # -- address and phone -------------------------------------------------------------------------
    async def plan_address(self, req: Request) -> None:
        assert self.customer is not None
        if not req.get("address_line"):
            self.ask("address_line", req, f"What's the first line of the address at "
                                          f"{req['postcode']}?")
            return
        district = str(req["postcode"]).split()[0]
        current = f"{self.customer['address_line']}, {self.customer['postcode']}"
        if district not in DELIVERY_DISTRICTS:
            self.say(f"I'm sorry, we don't deliver to {req['postcode']}: {district} is outside "
                     "our delivery area (BS1–BS9 and BS16), so I can't change your address to "
                     f"it. Your account keeps {current}.")
            return
        upcoming = [o["order_id"] for o in await self.my_orders("placed")]
        also = f" and on your upcoming order{'s' if len(upcoming) > 1 else ''} " \
               f"{', '.join(upcoming)}" if upcoming else ""
        action = {"tool": "update_contact",
                  "args": {"account_number": self.customer["account_number"],
                           "address_line": req["address_line"], "postcode": req["postcode"]},
                  "req": req, "label": "address"}
        self.propose([action], f"I'll change your delivery address from {current} to "
                               f"{req['address_line']}, {req['postcode']} on your account{also}.")

    async def plan_phone(self, req: Request) -> None:
        assert self.customer is not None
        upcoming = [o["order_id"] for o in await self.my_orders("placed")]
        also = f" and your upcoming order{'s' if len(upcoming) > 1 else ''} " \
               f"{', '.join(upcoming)}" if upcoming else ""
        action = {"tool": "update_contact",
                  "args": {"account_number": self.customer["account_number"],
                           "phone": req["phone"]},
                  "req": req, "label": "phone"}
        self.propose([action], f"I'll change the phone number on your account{also} from "
                               f"{self.customer['phone']} to {req['phone']}.")

    async def plan_view(self, req: Request) -> None:
        order = await self.target(req)
        if order is None:
            return
        self.focus_on(order)
        items = ", ".join(item_phrase(i["quantity"], i["unit"], i["name"])
                          for i in order["items"])
        self.say(f"Order {order['order_id']} is {order['status']} for {order['slot']}, to "
                 f"{order['address_line']}, {order['postcode']}. Items: {items}. Total "
                 f"{order['total']}.")

    # -- filling in a missing detail ---------------------------------------------------------------
    def fill(self, need: str, req: Request, message: str, new: list[Request],
             options: list[str] | None) -> Request | None:
        low = normalize(message)
        same = next((r for r in new if r["kind"] == req["kind"]), None)
        if need == "order":
            return self._fill_order(req, message, low, options or [])
        if need in ("ampm", "time", "slot_alt", "date"):
            return self._fill_slot(need, req, low, same)
        if need == "qty":
            if same and same.get("qty") is not None:
                return {**req, "qty": same["qty"], "unit": same.get("unit")}
            found = quantities(low)
            if not found and re.search(r"\b(both|all|every|the lot|whole)\b", low):
                return {**req, "qty": "all", "unit": None}
            return {**req, "qty": found[0][0], "unit": found[0][1]} if found else None
        if need == "product":
            return self._fill_product(req, low, same, options)
        if need == "address_line":
            line = find_address_line(f"{message} {req['postcode']}") or message.strip(" .")
            return {**req, "address_line": line} if re.search(r"\d", line) else None
        return None

    def _fill_order(self, req: Request, message: str, low: str,
                    options: list[str]) -> Request | None:
        for order_id in find_order_ids(message):
            if order_id in options:
                return {**req, "order_ref": order_id}
        fields = slot_fields(low, self.now().date())
        for key in ("date", "order_date"):
            if fields.get(key):
                return {**req, "order_date": fields[key], "when": fields[key]}
        for word, index in (("first", 0), ("second", 1), ("last", -1)):
            if re.search(rf"\b{word}\b", low):
                return {**req, "order_ref": options[index]}
        return None

    def _fill_slot(self, need: str, req: Request, low: str,
                   same: Request | None) -> Request | None:
        fields = dict(same) if same else slot_fields(low, self.now().date())
        fields.pop("kind", None)
        if need == "ampm":
            raw = int(req["ambiguous_hour"])
            if re.search(r"\b(pm|evening|night|afternoon)\b", low):
                return {**req, "hour": raw % 12 + 12, "ambiguous_hour": None}
            if re.search(r"\b(am|morning)\b", low):
                return {**req, "hour": raw % 12, "ambiguous_hour": None}
        merged = {**req}
        for key in ("date", "hour", "ambiguous_hour", "half", "range_end"):
            if fields.get(key) is not None:
                merged[key] = fields[key]
        if fields.get("hour") is not None:
            merged.pop("ambiguous_hour", None)
        merged.pop("fallback", None)
        return merged if merged != req else None

    @staticmethod
    def _fill_product(req: Request, low: str, same: Request | None,
                      options: list[str] | None) -> Request | None:
        if options:
            for name in options:
                words = [w for w in re.findall(r"[a-z]+", name.lower()) if len(w) > 2]
                if any(re.search(rf"\b{w}\b", low) for w in words[:1]):
                    return {**req, "product": name.lower()}
        if same and same.get("product"):
            return {**req, **{k: v for k, v in same.items() if v is not None and k != "kind"}}
        mentions = product_mentions(low)
        if mentions:
            return {**req, "product": mentions[0][0]}
        return None
