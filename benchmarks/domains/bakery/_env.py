# mypy: allow-subclassing-any, allow-untyped-decorators
"""Pennywell Bakery's order book the desk works through: `BakeryEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.bakery import _seed
from vistasim.env import (  # type: ignore[import-untyped]  # vistasim ships no py.typed
    SqliteEnvironment,
    ToolFailure,
    tool,
)

SLOT_RE = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")
POSTCODE_RE = re.compile(r"([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "PW" + re.sub(r"\D", "", text)


def norm_order(text: str) -> str:
    return "PC-" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str | None:
    m = POSTCODE_RE.fullmatch(text.strip().upper())
    return f"{m.group(1)} {m.group(2)}" if m else None


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. PW3101")


class Verify(Customer):
    postcode: str = Field(description="The postcode on the customer's account, e.g. LS6 1PL")


class OrderRef(BaseModel):
    order_id: str = Field(description="The cake order number, e.g. PC-7008")


class OwnOrder(Customer):
    order_id: str = Field(description="The cake order number, e.g. PC-7008")


class PlaceOrder(Customer):
    collection_date: str = Field(description="The day it is collected or delivered, YYYY-MM-DD")
    slot: str = Field(description="HH:MM, the collection (or delivery) time")
    tiers: list[int] = Field(description="Each tier's diameter in inches, bottom first: [10, 8]")
    flavour: str = Field(
        description="vanilla, chocolate, lemon, carrot, red velvet or salted caramel"
    )
    diet: str = Field(default="none", description="none, vegan or gluten_free")
    inscription: str = Field(default="", description="The writing piped on top ('' for none)")
    price_pence: int = Field(description="The cake's price the desk quoted, delivery apart")
    fulfilment: str = Field(default="collection", description="collection or delivery")
    delivery_postcode: str | None = Field(default=None, description="For a delivery")
    delivery_fee_pence: int = Field(default=0, description="The delivery fee the desk quoted")


class MoveOrder(OwnOrder):
    new_date: str = Field(description="The new collection day, YYYY-MM-DD (same time)")


class ChangeCake(OwnOrder):
    flavour: str = Field(description="The flavour the cake will be")
    diet: str = Field(description="none, vegan or gluten_free")
    price_pence: int = Field(description="The new price the desk quoted")


class Inscription(OwnOrder):
    inscription: str = Field(description="The new writing ('' for none)")


class Slot(OwnOrder):
    slot: str = Field(description="HH:MM, the new collection time on the same day")


class Delivery(OwnOrder):
    delivery_postcode: str = Field(description="Where the cake is delivered")
    delivery_fee_pence: int = Field(description="The delivery fee the desk quoted")


class Cancel(OwnOrder):
    refund_pence: int = Field(description="The deposit refund the desk quoted (0 if kept)")


class Contact(Customer):
    phone: str | None = Field(default=None, description="A new mobile number")
    email: str | None = Field(default=None, description="A new email address")


class BakeryEnvironment(SqliteEnvironment):
    """Pennywell Bakery: customers, cake orders, payments and the kitchen's calendar."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode on your account"],
        "tiers": ["what size", "each tier's size"],
        "flavour": ["which flavour"],
        "collection_date": ["which day is the cake for"],
        "new_date": ["which day would you like it moved to"],
        "slot": ["what time"],
        "inscription": ["piped on top", "writing"],
        "delivery_postcode": ["postcode for the delivery"],
        "phone": ["new mobile number"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?",
                          norm_customer(customer_id))  # fmt: skip
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _order(self, c: dict[str, Any], order_id: str) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if o is None or o["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no order {order_id} for this customer")
        if o["status"] != "confirmed":
            raise ToolFailure(f"order {o['order_id']} is {o['status']}")
        return o

    def _pay(self, c: dict[str, Any], order_id: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO payments (customer_id, order_id, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], order_id, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _kitchen_can_take(self, day_text: str, *, moving: str | None = None) -> None:
        """Refuse a day the kitchen cannot make a cake for: past, closed or fully booked."""
        try:
            day = date.fromisoformat(day_text)
        except ValueError:
            raise ToolFailure(f"{day_text!r} is not a date (YYYY-MM-DD)") from None
        if day <= self.now().date():
            raise ToolFailure("cakes can only be ordered for a day after today")
        closed = _seed.closed_reason(day)
        if closed:
            raise ToolFailure(f"the bakery is closed on {day_text}: {closed}")
        limit = self._one("SELECT capacity FROM kitchen_days WHERE day = ?", day_text)
        capacity = limit["capacity"] if limit else _seed.DEFAULT_CAPACITY
        taken = self.db.execute(
            "SELECT COUNT(*) FROM orders WHERE collection_date = ? AND status = 'confirmed' "
            "AND order_id != ?",
            (day_text, moving or ""),
        ).fetchone()[0]
        if taken >= capacity:
            raise ToolFailure(f"{day.strftime('%A')} {day.day} {day.strftime('%B')} is fully "
                              "booked: the kitchen has no space left that day")  # fmt: skip

    @staticmethod
    def _check_slot(slot: str) -> None:
        if not SLOT_RE.fullmatch(slot):
            raise ToolFailure("slot must be HH:MM")
        if not _seed.OPEN_FROM <= slot <= _seed.LAST_SLOT:
            raise ToolFailure(f"collections are between {_seed.OPEN_FROM} and {_seed.LAST_SLOT}")

    @staticmethod
    def _check_inscription(text: str) -> None:
        if len(text.strip()) > _seed.INSCRIPTION_MAX:
            raise ToolFailure(f"an inscription fits {_seed.INSCRIPTION_MAX} characters at most")

    def with_terms(self, o: dict[str, Any]) -> dict[str, Any]:
        """An order with what the desk needs to see: days to go and the balance due."""
        return {**o, "days_to_collection": self.days_to(o["collection_date"]),
                "balance_pence": o["price_pence"] - o["deposit_pence"]
                + o["delivery_fee_pence"]}  # fmt: skip

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer as staff see them: details and confirmed orders, soonest first."""
        c = self._customer(customer_id)
        orders = self._rows(
            "SELECT * FROM orders WHERE customer_id = ? AND status = 'confirmed' "
            "ORDER BY collection_date",
            c["customer_id"],
        )
        return {**c, "orders": [self.with_terms(o) for o in orders]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode on that account "
        "must match. Returns the customer and their orders."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT * FROM customers WHERE customer_id = ?",
                      norm_customer(args.customer_id))  # fmt: skip
        if c is None or c["postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no customer matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read a customer and their confirmed orders (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Read one cake order by its number, whoever placed it (staff view). Policy: details are "
        "shared only with the customer who placed the order; the system does not check."
    )
    def get_order(self, args: OrderRef) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(args.order_id))
        if o is None:
            raise ToolFailure(f"no order {args.order_id}")
        c = self._customer(o["customer_id"])
        return {**self.with_terms(o), "customer_name": c["name"], "customer_phone": c["phone"]}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Place a cake order and take a 30% deposit of price_pence on the card. Refuses a day "
        "the bakery is closed or fully booked, and a cake the kitchen cannot make. Lead times, "
        "the gluten-free days and delivery areas are the desk's to check."
    )
    def place_order(self, args: PlaceOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        self._kitchen_can_take(args.collection_date)
        self._check_slot(args.slot)
        self._check_inscription(args.inscription)
        tiers = args.tiers
        if not 1 <= len(tiers) <= _seed.MAX_TIERS or any(t not in _seed.SIZE_PENCE for t in tiers):
            raise ToolFailure("a cake has 1 to 3 tiers of 6, 8, 10 or 12 inches")
        if any(upper >= lower for lower, upper in zip(tiers, tiers[1:], strict=False)):
            raise ToolFailure("each tier must be smaller than the one below it")
        flavour, diet = args.flavour.strip().lower(), args.diet.strip().lower()
        if flavour not in _seed.FLAVOURS or diet not in _seed.DIET_PENCE:
            raise ToolFailure(f"unknown flavour {flavour!r} or diet {diet!r}")
        postcode = None
        if args.fulfilment == "delivery":
            postcode = norm_postcode(args.delivery_postcode or "")
            if postcode is None:
                raise ToolFailure("a delivery needs a postcode")
        elif args.fulfilment != "collection":
            raise ToolFailure("fulfilment must be collection or delivery")
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 4) AS INTEGER)) FROM orders")
        order_id = f"PC-{(last.fetchone()[0] or 7000) + 1}"
        deposit = _seed.deposit_for(args.price_pence)
        self.db.execute(
            "INSERT INTO orders (order_id, customer_id, collection_date, slot, tiers, flavour, "
            "diet, inscription, price_pence, deposit_pence, fulfilment, delivery_postcode, "
            "delivery_fee_pence, placed_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (order_id, c["customer_id"], args.collection_date, args.slot,
             "+".join(str(t) for t in tiers), flavour, diet, args.inscription.strip(),
             args.price_pence, deposit, args.fulfilment, postcode,
             args.delivery_fee_pence if postcode else 0, self.now().date().isoformat()),
        )  # fmt: skip
        self._pay(c, order_id, "deposit", deposit)
        return {**self.with_terms(self._order(c, order_id)), "deposit_taken": money(deposit),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move an order to another collection day, same time. Refuses a day the bakery is "
        "closed or fully booked. The 7-day rule and lead times are the desk's to check."
    )
    def move_order(self, args: MoveOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._kitchen_can_take(args.new_date, moving=o["order_id"])
        self.db.execute("UPDATE orders SET collection_date = ? WHERE order_id = ?",
                        (args.new_date, o["order_id"]))  # fmt: skip
        return self.with_terms(self._order(c, o["order_id"]))

    @tool(
        "Change an order's flavour and/or diet (vegan, gluten-free) at the price the desk "
        "quoted; the deposit already paid stays as it is."
    )
    def change_cake(self, args: ChangeCake) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        flavour, diet = args.flavour.strip().lower(), args.diet.strip().lower()
        if flavour not in _seed.FLAVOURS or diet not in _seed.DIET_PENCE:
            raise ToolFailure(f"unknown flavour {flavour!r} or diet {diet!r}")
        self.db.execute(
            "UPDATE orders SET flavour = ?, diet = ?, price_pence = ? WHERE order_id = ?",
            (flavour, diet, args.price_pence, o["order_id"]),
        )
        return self.with_terms(self._order(c, o["order_id"]))

    @tool(
        "Change the writing piped on an order (40 characters at most). The system takes it "
        "until the cake is collected; when the writing can still change is the desk's rule."
    )
    def change_inscription(self, args: Inscription) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._check_inscription(args.inscription)
        self.db.execute("UPDATE orders SET inscription = ? WHERE order_id = ?",
                        (args.inscription.strip(), o["order_id"]))  # fmt: skip
        return self.with_terms(self._order(c, o["order_id"]))

    @tool("Change the collection (or delivery) time of an order, on the same day.")
    def set_slot(self, args: Slot) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._check_slot(args.slot)
        self.db.execute("UPDATE orders SET slot = ? WHERE order_id = ?",
                        (args.slot, o["order_id"]))  # fmt: skip
        return self.with_terms(self._order(c, o["order_id"]))

    @tool(
        "Deliver an order instead of it being collected, for the fee the desk quoted (added "
        "to the balance). The system delivers anywhere: the delivery areas are the desk's."
    )
    def arrange_delivery(self, args: Delivery) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        postcode = norm_postcode(args.delivery_postcode)
        if postcode is None:
            raise ToolFailure(f"{args.delivery_postcode!r} is not a postcode")
        self.db.execute(
            "UPDATE orders SET fulfilment = 'delivery', delivery_postcode = ?, "
            "delivery_fee_pence = ? WHERE order_id = ?",
            (postcode, args.delivery_fee_pence, o["order_id"]),
        )
        return self.with_terms(self._order(c, o["order_id"]))

    @tool(
        "Cancel an order; refund_pence (up to the deposit paid) goes back to the card. The "
        "refund rules are the desk's to apply."
    )
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        if not 0 <= args.refund_pence <= o["deposit_pence"]:
            raise ToolFailure(f"a refund can't be more than the {money(o['deposit_pence'])} paid")
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE order_id = ?",
                        (o["order_id"],))  # fmt: skip
        self._pay(c, o["order_id"], "refund", args.refund_pence)
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Change the mobile number and/or the email address on the account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        if args.phone is not None:
            digits = re.sub(r"\D", "", args.phone)
            if len(digits) != 11 or not digits.startswith("07"):
                raise ToolFailure(f"{args.phone!r} is not a UK mobile number")
            self.db.execute("UPDATE customers SET phone = ? WHERE customer_id = ?",
                            (f"{digits[:5]} {digits[5:]}", c["customer_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                            (args.email.strip(), c["customer_id"]))  # fmt: skip
        now = self._customer(c["customer_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> BakeryEnvironment:
    """A fresh order book, from the seed data."""
    return BakeryEnvironment()
