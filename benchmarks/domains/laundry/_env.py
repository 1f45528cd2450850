"""The laundry's order system the desk's agent works through: `LaundryEnvironment`."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.laundry import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_ref(text: str) -> str:
    return f"PC{re.sub(r'[^0-9]', '', text)}"


def outward(postcode: str) -> str:
    """The outward code of a postcode ("SW4 7HJ" -> "SW4")."""
    squashed = re.sub(r"\s+", "", postcode).upper()
    return squashed[:-3]


def in_area(postcode: str) -> bool:
    return outward(postcode) in _seed.SERVICE_AREA


class Ref(BaseModel):
    order_ref: str = Field(description="The order number, e.g. PC20114")


class Verify(Ref):
    email: str = Field(description="The email address on the customer's account")


class Slot(Ref):
    which: str = Field(description="collection or delivery")
    new_slot: str = Field(description="The new window's start, 'YYYY-MM-DD HH:00'")


class Express(Ref):
    pass


class Items(Ref):
    item: str = Field(description="shirt, trousers, dress, suit, coat, duvet, leather jacket, wash")
    qty_change: int = Field(description="Items (or kg of wash) added (positive) or removed")


class Cancel(Ref):
    fee_pence: int = Field(description="The handling fee the policy sets: 0 or 1500")


class Claim(Ref):
    item: str = Field(description="The item damaged or lost, as named on the order")
    kind: str = Field(description="damaged or lost")
    value_pence: int = Field(description="The item's value in pence")


class Promo(Ref):
    code: str = Field(description="The promo code")


class Email(BaseModel):
    email: str = Field(description="The customer's account email")


class Address(Ref):
    address: str = Field(description="The new delivery address's street line")
    postcode: str = Field(description="The new delivery address's postcode")


class LaundryEnvironment(SqliteEnvironment):
    """Pressed & Co.: customers, orders and their items, slots, promo codes, claims, payments."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_ref": ["order number", "order reference"],
        "email": ["email address", "email on the account"],
        "new_slot": ["which slot", "which time", "what time", "new slot"],
        "other_slot": ["another slot", "other slot"],
        "item": ["which item", "what was damaged", "what was lost"],
        "qty": ["how many"],
        "value": ["worth", "value"],
        "code": ["promo code", "which code"],
        "address": ["new address", "delivery address"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _order(self, ref: str, *, status: str | None = "booked") -> dict[str, Any]:
        found = self.db.execute(
            "SELECT * FROM orders WHERE order_ref = ?", (norm_ref(ref),)
        ).fetchone()
        if found is None:
            raise ToolFailure(f"no order {ref}")
        if status and found["status"] != status:
            raise ToolFailure(f"order {found['order_ref']} is {found['status']}")
        return dict(found)

    def _customer(self, email: str) -> dict[str, Any]:
        found = self.db.execute(
            "SELECT * FROM customers WHERE email = ?", (email.strip().lower(),)
        ).fetchone()
        if found is None:
            raise ToolFailure(f"no account {email}")
        return dict(found)

    def _pay(self, order: dict[str, Any], kind: str, pence: int) -> None:
        card = self._customer(order["email"])["card_last4"]
        self.db.execute(
            "INSERT INTO payments (email, order_ref, kind, amount_pence, card_last4, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (order["email"], order["order_ref"], kind, pence, card, self._stamp()),
        )

    def _items(self, ref: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT item, qty, unit_pence, declared_pence FROM order_items WHERE order_ref = ? "
            "ORDER BY line_id",
            (ref,),
        )
        return [dict(r) for r in rows]

    def _retotal(self, ref: str) -> None:
        order = self._order(ref, status=None)
        subtotal = sum(i["qty"] * i["unit_pence"] for i in self._items(ref))
        express = _seed.EXPRESS_PENCE if order["express"] else 0
        total = max(0, subtotal + express - order["discount_pence"])
        self.db.execute("UPDATE orders SET total_pence = ? WHERE order_ref = ?", (total, ref))

    def _slot_time(self, slot: str) -> datetime:
        return datetime.strptime(slot, _seed.STAMP).replace(tzinfo=_seed.UK)

    def hours_to(self, slot: str) -> float:
        return (self._slot_time(slot) - self.now()).total_seconds() / 3600

    def view(self, ref: str) -> dict[str, Any]:
        order = self._order(ref, status=None)
        customer = self._customer(order["email"])
        order["name"] = customer["name"]
        order["plus"] = bool(customer["plus"])
        order["card_last4"] = customer["card_last4"]
        order["items"] = self._items(order["order_ref"])
        order["express"] = bool(order["express"])
        order["total"] = money(order["total_pence"])
        order["hours_to_collection"] = round(self.hours_to(order["collection_slot"]), 1)
        order["hours_to_delivery"] = round(self.hours_to(order["delivery_slot"]), 1)
        return order

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the order number and the email on the account must "
        "match. Returns the order."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        found = self.db.execute(
            "SELECT order_ref, email FROM orders WHERE order_ref = ?", (norm_ref(args.order_ref),)
        ).fetchone()
        if found is None or found["email"] != args.email.strip().lower():
            raise ToolFailure("verification failed: no order matches that number and email")
        return self.view(found["order_ref"])

    @tool("Read an order by number alone (staff view). Only for a verified customer.")
    def get_order(self, args: Ref) -> dict[str, Any]:
        return self.view(args.order_ref)

    # -- changes ---------------------------------------------------------------------------
    @tool(
        "Move the collection (before collection) or delivery (after collection) to another "
        "2-hour slot. Refused within 6 hours of the current slot or for a new slot fewer than "
        "6 hours away, outside 08:00-20:00, or with no van free. Free of charge."
    )
    def change_slot(self, args: Slot) -> dict[str, Any]:
        which = args.which.strip().lower()
        if which not in ("collection", "delivery"):
            raise ToolFailure("which must be collection or delivery")
        order = self._order(args.order_ref, status="booked" if which == "collection" else None)
        if order["status"] not in ("booked", "collected"):
            raise ToolFailure(f"order {order['order_ref']} is {order['status']}")
        current = order[f"{which}_slot"]
        if self.hours_to(current) < _seed.SLOT_CUTOFF_HOURS:
            raise ToolFailure(f"the {which} slot starts within 6 hours: it can no longer change")
        try:
            new = datetime.strptime(args.new_slot.strip(), _seed.STAMP).replace(tzinfo=_seed.UK)
        except ValueError as exc:
            raise ToolFailure(f"{args.new_slot!r} is not a slot (YYYY-MM-DD HH:00)") from exc
        slot = new.strftime(_seed.STAMP)
        if new.hour not in _seed.SLOT_STARTS or new.minute:
            raise ToolFailure("slots are 2-hour windows starting 08:00, 10:00, ... 18:00")
        if self.hours_to(slot) < _seed.SLOT_CUTOFF_HOURS:
            raise ToolFailure("the new slot must start at least 6 hours from now")
        if which == "delivery" and new < self._slot_time(order["collection_slot"]) + timedelta(
            days=1
        ):
            raise ToolFailure("delivery must be at least a day after collection")
        if self.db.execute("SELECT 1 FROM full_slots WHERE slot = ?", (slot,)).fetchone():
            raise ToolFailure(f"no van is free at {slot}: that slot is fully booked")
        self.db.execute(
            f"UPDATE orders SET {which}_slot = ? WHERE order_ref = ?",  # noqa: S608
            (slot, order["order_ref"]),
        )
        return self.view(order["order_ref"])

    @tool(
        "Add express 24-hour turnaround (£9.95) to an order before collection: delivery moves "
        "to the same time the day after collection."
    )
    def add_express(self, args: Express) -> dict[str, Any]:
        order = self._order(args.order_ref)
        if order["express"]:
            raise ToolFailure("the order is already express")
        delivery = self._slot_time(order["collection_slot"]) + timedelta(days=1)
        self.db.execute(
            "UPDATE orders SET express = 1, delivery_slot = ? WHERE order_ref = ?",
            (delivery.strftime(_seed.STAMP), order["order_ref"]),
        )
        self._retotal(order["order_ref"])
        return {**self.view(order["order_ref"]), "added": money(_seed.EXPRESS_PENCE)}

    @tool("Add or remove items (or kg of wash) on an order before collection; re-priced.")
    def change_items(self, args: Items) -> dict[str, Any]:
        order = self._order(args.order_ref)
        item = args.item.strip().lower()
        if item not in _seed.PRICES:
            raise ToolFailure(f"we don't clean {item!r}")
        line = self.db.execute(
            "SELECT line_id, qty FROM order_items WHERE order_ref = ? AND item = ?",
            (order["order_ref"], item),
        ).fetchone()
        qty = (line["qty"] if line else 0) + args.qty_change
        if qty < 0:
            raise ToolFailure(f"the order has only {line['qty'] if line else 0} {item}")
        if line and qty == 0:
            self.db.execute("DELETE FROM order_items WHERE line_id = ?", (line["line_id"],))
        elif line:
            self.db.execute(
                "UPDATE order_items SET qty = ? WHERE line_id = ?", (qty, line["line_id"])
            )
        else:
            self.db.execute(
                "INSERT INTO order_items (order_ref, item, qty, unit_pence) VALUES (?,?,?,?)",
                (order["order_ref"], item, qty, _seed.PRICES[item]),
            )
        if not self._items(order["order_ref"]):
            raise ToolFailure("the order would have no items left: cancel it instead")
        self._retotal(order["order_ref"])
        change = args.qty_change * _seed.PRICES[item]
        return {**self.view(order["order_ref"]), "price_change": money(change)}

    @tool("Cancel an order before delivery; the handling fee given is charged to the card.")
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        order = self._order(args.order_ref, status=None)
        if order["status"] not in ("booked", "collected"):
            raise ToolFailure(f"order {order['order_ref']} is {order['status']}")
        self.db.execute(
            "UPDATE orders SET status = 'cancelled' WHERE order_ref = ?", (order["order_ref"],)
        )
        if args.fee_pence:
            self._pay(order, "cancel_fee", args.fee_pence)
        return {
            "order_ref": order["order_ref"],
            "status": "cancelled",
            "fee_charged": money(args.fee_pence),
        }

    @tool(
        "Register a damage or lost-item claim within 14 days of delivery. Pays the value up to "
        "10x the item's cleaning price, or up to the value declared at booking."
    )
    def file_claim(self, args: Claim) -> dict[str, Any]:
        order = self._order(args.order_ref, status="delivered")
        if self.hours_to(order["delivery_slot"]) < -24 * _seed.CLAIM_DAYS:
            raise ToolFailure(
                f"claims close 14 days after delivery; it was on {order['delivery_slot'][:10]}"
            )
        kind = args.kind.strip().lower()
        if kind not in ("damaged", "lost"):
            raise ToolFailure("kind must be damaged or lost")
        item = args.item.strip().lower()
        line = next((i for i in self._items(order["order_ref"]) if i["item"] == item), None)
        if line is None:
            raise ToolFailure(f"order {order['order_ref']} has no {item}")
        cap = line["declared_pence"] or line["unit_pence"] * _seed.CLAIM_MULTIPLE
        payable = min(args.value_pence, cap)
        cur = self.db.execute(
            "INSERT INTO claims (order_ref, item, kind, value_pence, payable_pence, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (order["order_ref"], item, kind, args.value_pence, payable, self._stamp()),
        )
        return {
            "claim_id": cur.lastrowid,
            "item": item,
            "kind": kind,
            "value": money(args.value_pence),
            "payable": money(payable),
        }

    @tool(
        "Apply a promo code to an order before collection. Refused for an unknown code, an "
        "order below the code's minimum, or a code this customer has used before."
    )
    def apply_promo(self, args: Promo) -> dict[str, Any]:
        order = self._order(args.order_ref)
        code = args.code.strip().upper()
        promo = self.db.execute("SELECT * FROM promo_codes WHERE code = ?", (code,)).fetchone()
        if promo is None:
            raise ToolFailure(f"{code} is not a valid promo code")
        if order["promo_code"]:
            raise ToolFailure(f"order {order['order_ref']} already has {order['promo_code']}")
        used = self.db.execute(
            "SELECT order_ref FROM promo_uses WHERE email = ? AND code = ?", (order["email"], code)
        ).fetchone()
        if used:
            raise ToolFailure(f"{code} has already been used on order {used['order_ref']}")
        if order["total_pence"] < promo["min_order_pence"]:
            raise ToolFailure(f"{code} needs an order of {money(promo['min_order_pence'])}")
        self.db.execute(
            "UPDATE orders SET promo_code = ?, discount_pence = ? WHERE order_ref = ?",
            (code, promo["off_pence"], order["order_ref"]),
        )
        self.db.execute(
            "INSERT INTO promo_uses VALUES (?,?,?)", (order["email"], code, order["order_ref"])
        )
        self._retotal(order["order_ref"])
        return {**self.view(order["order_ref"]), "discount": money(promo["off_pence"])}

    @tool(
        "Join Pressed Plus: £7.99 a month charged now, 20% off the cleaning of orders booked "
        "from now on."
    )
    def join_plus(self, args: Email) -> dict[str, Any]:
        customer = self._customer(args.email)
        if customer["plus"]:
            raise ToolFailure("already a Pressed Plus member")
        self.db.execute("UPDATE customers SET plus = 1 WHERE email = ?", (customer["email"],))
        self.db.execute(
            "INSERT INTO payments (email, order_ref, kind, amount_pence, card_last4, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (customer["email"], "", "plus_fee", _seed.PLUS_MONTH_PENCE, customer["card_last4"],
             self._stamp()),
        )  # fmt: skip
        return {"email": customer["email"], "plus": True, "charged": money(_seed.PLUS_MONTH_PENCE)}

    @tool("Change an order's collection and delivery address. Only in the service area.")
    def change_address(self, args: Address) -> dict[str, Any]:
        order = self._order(args.order_ref, status=None)
        if order["status"] not in ("booked", "collected"):
            raise ToolFailure(f"order {order['order_ref']} is {order['status']}")
        postcode = re.sub(r"\s+", "", args.postcode).upper()
        postcode = f"{postcode[:-3]} {postcode[-3:]}"
        if not in_area(postcode):
            raise ToolFailure(f"{postcode} is outside our service area")
        self.db.execute(
            "UPDATE orders SET address = ?, postcode = ? WHERE order_ref = ?",
            (args.address.strip(), postcode, order["order_ref"]),
        )
        return self.view(order["order_ref"])


def make_environment() -> LaundryEnvironment:
    """A fresh desk environment, seeded."""
    return LaundryEnvironment()
