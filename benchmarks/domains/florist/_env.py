"""The florist's order system the desk works through: `FloristEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.florist import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    sign = "-" if pence < 0 else ""
    return f"{sign}£{abs(pence) / 100:,.2f}"


def norm_customer(text: str) -> str:
    return "BB" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    """'ba15dy' or 'BA1  5DY' -> 'BA1 5DY'."""
    raw = re.sub(r"\s+", "", text).upper()
    return f"{raw[:-3]} {raw[-3:]}" if len(raw) > 4 else raw


def slot_start(day: str, slot: str) -> datetime:
    hour, minute = (int(x) for x in _seed.SLOTS[slot][0].split(":"))
    return datetime.fromisoformat(day).replace(hour=hour, minute=minute, tzinfo=_seed.UK)


class Customer(BaseModel):
    customer_id: str = Field(description="The customer number, e.g. BB3001")


class Verify(Customer):
    postcode: str = Field(description="The postcode on the customer's account")


class OrderRef(BaseModel):
    order_id: str = Field(description="e.g. OR6107")


class OwnOrder(Customer):
    order_id: str = Field(description="e.g. OR6107")


class NoArgs(BaseModel):
    pass


class Line(BaseModel):
    product_id: str = Field(description="e.g. roses")
    size: str = Field(description="standard, large or luxe")
    qty: int = Field(default=1, ge=1, description="How many")
    price_pence: int = Field(description="The line's price the desk quoted (unit x qty)")


class PlaceOrder(Customer):
    items: list[Line] = Field(description="The flowers ordered")
    delivery_date: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="morning (09:00-13:00) or afternoon (13:00-17:00)")
    recipient: str = Field(description="Who the flowers are for")
    address_line: str = Field(description="House number and street")
    postcode: str = Field(description="The delivery postcode")
    card_message: str = Field(default="", description="The card's words (may be empty)")
    occasion: str = Field(default="", description="'', 'wedding' or 'funeral'")
    delivery_fee_pence: int = Field(description="The delivery fee the desk quoted")
    paid_pence: int = Field(description="Taken from the card now (in full, or the deposit)")


class ChangeDelivery(OwnOrder):
    delivery_date: str = Field(description="The new day, YYYY-MM-DD")
    slot: str = Field(description="morning or afternoon")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 48+ hours out)")


class ChangeAddress(OwnOrder):
    address_line: str = Field(description="House number and street")
    postcode: str = Field(description="The new delivery postcode")
    fee_difference_pence: int = Field(
        description="The delivery fee difference the desk quoted (negative: refunded)"
    )
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 48+ hours out)")


class CardMessage(OwnOrder):
    message: str = Field(description="The new words on the card")


class SwapItem(OwnOrder):
    line_id: int = Field(description="The order line swapped")
    product_id: str = Field(description="The product it becomes")
    size: str = Field(description="standard, large or luxe")
    difference_pence: int = Field(
        description="The price difference the desk quoted (negative: refunded)"
    )
    fee_pence: int = Field(description="The change fee the desk quoted (0 for out-of-stock)")


class CancelOrder(OwnOrder):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class Complaint(OwnOrder):
    reason: str = Field(description="What was wrong, e.g. wilted")
    resolution: str = Field(description="replacement or refund")
    refund_pence: int = Field(default=0, description="The refund the desk quoted")
    replacement_date: str | None = Field(default=None, description="YYYY-MM-DD")
    replacement_slot: str | None = Field(default=None, description="morning or afternoon")


class FloristEnvironment(SqliteEnvironment):
    """Bloom & Bough Florists: customers, products, zones, orders, charges and complaints."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "customer_id": ["customer number"],
        "postcode": ["postcode on your account"],
        "order_id": ["which order is it", "order number"],
        "items": ["what would you like to send"],
        "size": ["which size"],
        "delivery_date": ["which day should they be delivered"],
        "slot": ["morning (09:00", "morning or afternoon"],
        "address": ["full delivery address", "full address"],
        "recipient": ["who are the flowers for"],
        "card_message": ["card to say"],
        "new_date": ["delivered instead"],
        "new_address": ["full delivery address"],
        "resolution": ["replacement delivered, or a refund"],
        "replacement_date": ["replacement be delivered"],
        "replacement_slot": ["morning (09:00"],
        "delivery_postcode": ["which postcode would the flowers go to"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same moment."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM customers WHERE customer_id = ?", norm_customer(customer_id)
        )
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _order(self, c: dict[str, Any], order_id: str, *, open_only: bool = True) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", order_id.strip().upper())
        if o is None or o["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no order {order_id} on this account")
        if open_only and o["status"] == "made_up":
            raise ToolFailure(f"order {o['order_id']} has been made up: it can't be changed now")
        if open_only and o["status"] != "placed":
            raise ToolFailure(f"order {o['order_id']} is {o['status']}")
        return o

    def _price(self, product_id: str, size: str) -> int:
        p = self._one("SELECT * FROM products WHERE product_id = ?", product_id.strip().lower())
        if p is None:
            raise ToolFailure(f"no product {product_id}")
        if not p["in_stock"]:
            raise ToolFailure(f"{p['name']} is out of stock")
        row = self._one(
            "SELECT price_pence FROM prices WHERE product_id = ? AND size = ?",
            p["product_id"],
            size.strip().lower(),
        )
        if row is None:
            raise ToolFailure(f"{p['name']} doesn't come in size {size}")
        return int(row["price_pence"])

    def _zone_fee(self, postcode: str) -> int:
        z = self._one("SELECT * FROM zones WHERE district = ?", _seed.district(postcode))
        if z is None:
            raise ToolFailure(f"we don't deliver to {norm_postcode(postcode)}")
        return int(z["fee_pence"])

    def _check_slot(self, day: str, slot: str, *, skip: str = "") -> None:
        """Refuse what can't happen: a past or closed day, an unknown or full slot."""
        if slot not in _seed.SLOTS:
            raise ToolFailure("slot must be morning or afternoon")
        when = date.fromisoformat(day)
        if when < self.now().date():
            raise ToolFailure("the delivery day is in the past")
        if _seed.is_closed(when):
            raise ToolFailure(f"no deliveries on {when.strftime('%A %d %B')}")
        end = slot_start(day, slot) + timedelta(hours=4)
        if end <= self.now():
            raise ToolFailure(f"the {slot} slot on {day} is over")
        cap = self._one("SELECT capacity FROM slot_capacity WHERE day = ? AND slot = ?", day, slot)
        limit = cap["capacity"] if cap else _seed.SLOT_CAPACITY
        taken = self.db.execute(
            "SELECT COUNT(*) FROM orders WHERE delivery_date = ? AND slot = ? AND status != "
            "'cancelled' AND order_id != ?",
            (day, slot, skip),
        ).fetchone()[0]
        if taken >= limit:
            raise ToolFailure(f"the {slot} slot on {when.strftime('%A %d %B')} is full")

    def _charge(self, c: dict[str, Any], order_id: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, order_id, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["customer_id"], order_id, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def _signed(self, c: dict[str, Any], order_id: str, kind: str, pence: int) -> None:
        """A difference: charged when positive, refunded when negative."""
        if pence > 0:
            self._charge(c, order_id, kind, pence)
        elif pence < 0:
            self._charge(c, order_id, "refund", -pence)
        self.db.execute(
            "UPDATE orders SET paid_pence = paid_pence + ? WHERE order_id = ?", (pence, order_id)
        )

    def _next_order_id(self) -> str:
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        return f"OR{(last.fetchone()[0] or 6100) + 1}"

    def order_view(self, o: dict[str, Any]) -> dict[str, Any]:
        items = self._rows(
            "SELECT i.line_id, i.product_id, p.name, i.size, i.qty, i.price_pence, p.in_stock "
            "FROM order_items i JOIN products p USING (product_id) WHERE i.order_id = ? "
            "ORDER BY i.line_id",
            o["order_id"],
        )
        hours = (slot_start(o["delivery_date"], o["slot"]) - self.now()).total_seconds() / 3600
        return {**o, "items": items, "hours_to_delivery": round(hours, 1)}

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: the customer, their orders and complaints."""
        c = self._customer(customer_id)
        orders = self._rows(
            "SELECT * FROM orders WHERE customer_id = ? ORDER BY delivery_date", c["customer_id"]
        )
        return {
            **c,
            "orders": [self.order_view(o) for o in orders],
            "complaints": self._rows(
                "SELECT * FROM complaints WHERE customer_id = ?", c["customer_id"]
            ),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the customer number and the postcode on that account "
        "must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT customer_id FROM customers WHERE customer_id = ? AND postcode = ?",
            norm_customer(args.customer_id),
            norm_postcode(args.postcode),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(c["customer_id"])

    @tool("Read an account with its orders (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Read any order by its number. Policy: an order's details go only to the customer "
        "who placed it; the system does not check who is asking."
    )
    def get_order(self, args: OrderRef) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", args.order_id.strip().upper())
        if o is None:
            raise ToolFailure(f"no order {args.order_id}")
        return self.order_view(o)

    @tool("The price list with sizes and stock, and the delivery zones with their fees.")
    def get_catalogue(self, args: NoArgs) -> dict[str, Any]:
        products = self._rows("SELECT * FROM products ORDER BY rowid")
        for p in products:
            p["sizes"] = {
                r["size"]: r["price_pence"]
                for r in self._rows(
                    "SELECT * FROM prices WHERE product_id = ? ORDER BY price_pence",
                    p["product_id"],
                )
            }
        return {
            "products": products,
            "zones": self._rows("SELECT * FROM zones"),
            "slots": _seed.SLOTS,
            "same_day_cutoff": _seed.SAME_DAY_CUTOFF,
        }

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Place an order and take paid_pence from the card on the account. Refuses products "
        "out of stock, postcodes not served, closed days and full slots. The system does not "
        "check prices, deposits or the same-day cut-off: the desk must."
    )
    def place_order(self, args: PlaceOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        if not args.items:
            raise ToolFailure("an order needs at least one item")
        for line in args.items:
            self._price(line.product_id, line.size)
        self._zone_fee(args.postcode)
        self._check_slot(args.delivery_date, args.slot)
        if len(args.card_message) > _seed.CARD_MAX:
            raise ToolFailure(f"a card takes at most {_seed.CARD_MAX} characters")
        if args.occasion not in {"", *_seed.DEPOSIT_OCCASIONS}:
            raise ToolFailure("occasion must be '', wedding or funeral")
        order_id = self._next_order_id()
        total = sum(line.price_pence for line in args.items) + args.delivery_fee_pence
        self.db.execute(
            "INSERT INTO orders (order_id, customer_id, recipient, address_line, postcode, "
            "delivery_date, slot, card_message, occasion, delivery_fee_pence, total_pence, "
            "paid_pence, placed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                order_id,
                c["customer_id"],
                args.recipient.strip(),
                args.address_line.strip(),
                norm_postcode(args.postcode),
                args.delivery_date,
                args.slot,
                args.card_message.strip(),
                args.occasion,
                args.delivery_fee_pence,
                total,
                args.paid_pence,
                self.now().strftime(_seed.STAMP),
            ),
        )
        for line in args.items:
            self.db.execute(
                "INSERT INTO order_items (order_id, product_id, size, qty, price_pence) "
                "VALUES (?,?,?,?,?)",
                (order_id, line.product_id, line.size, line.qty, line.price_pence),
            )
        kind = "deposit" if args.paid_pence < total else "payment"
        self._charge(c, order_id, kind, args.paid_pence)
        return {
            "order_id": order_id,
            "delivery_date": args.delivery_date,
            "slot": args.slot,
            "total": money(total),
            "paid_now": money(args.paid_pence),
            "balance": money(total - args.paid_pence),
            "card_last4": c["card_last4"],
        }

    @tool(
        "Move an order to another day and/or slot; fee_pence (quoted by the desk) is charged. "
        "Refuses a made-up order, a closed day and a full slot."
    )
    def change_delivery(self, args: ChangeDelivery) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._check_slot(args.delivery_date, args.slot, skip=o["order_id"])
        self.db.execute(
            "UPDATE orders SET delivery_date = ?, slot = ? WHERE order_id = ?",
            (args.delivery_date, args.slot, o["order_id"]),
        )
        self._signed(c, o["order_id"], "change_fee", args.fee_pence)
        return {
            "order_id": o["order_id"],
            "delivery_date": args.delivery_date,
            "slot": args.slot,
            "fee": money(args.fee_pence),
        }

    @tool(
        "Change an order's delivery address to one in a served zone; the fee difference and "
        "fee_pence (both quoted by the desk) are charged or refunded. Refuses a made-up order "
        "and a postcode not served."
    )
    def change_address(self, args: ChangeAddress) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        fee = self._zone_fee(args.postcode)
        flowers = o["total_pence"] - o["delivery_fee_pence"]
        self.db.execute(
            "UPDATE orders SET address_line = ?, postcode = ?, delivery_fee_pence = ?, "
            "total_pence = ? WHERE order_id = ?",
            (
                args.address_line.strip(),
                norm_postcode(args.postcode),
                fee,
                flowers + fee,
                o["order_id"],
            ),
        )
        self._signed(c, o["order_id"], "delivery_difference", args.fee_difference_pence)
        self._signed(c, o["order_id"], "change_fee", args.fee_pence)
        return {
            "order_id": o["order_id"],
            "address_line": args.address_line.strip(),
            "postcode": norm_postcode(args.postcode),
            "difference": money(args.fee_difference_pence),
            "fee": money(args.fee_pence),
            "card_last4": c["card_last4"],
        }

    @tool("Change the words on an order's card (at most 200 characters); not once made up.")
    def set_card_message(self, args: CardMessage) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        if len(args.message) > _seed.CARD_MAX:
            raise ToolFailure(f"a card takes at most {_seed.CARD_MAX} characters")
        self.db.execute(
            "UPDATE orders SET card_message = ? WHERE order_id = ?",
            (args.message.strip(), o["order_id"]),
        )
        return {"order_id": o["order_id"], "card_message": args.message.strip()}

    @tool(
        "Swap one line of an order for another product in stock; difference_pence and "
        "fee_pence (quoted by the desk) are charged or refunded. Refuses a made-up order and "
        "a product out of stock."
    )
    def swap_item(self, args: SwapItem) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        line = self._one(
            "SELECT * FROM order_items WHERE line_id = ? AND order_id = ?",
            args.line_id,
            o["order_id"],
        )
        if line is None:
            raise ToolFailure(f"no line {args.line_id} on order {o['order_id']}")
        unit = self._price(args.product_id, args.size)
        new_price = unit * line["qty"]
        self.db.execute(
            "UPDATE order_items SET product_id = ?, size = ?, price_pence = ? WHERE line_id = ?",
            (
                args.product_id.strip().lower(),
                args.size.strip().lower(),
                new_price,
                line["line_id"],
            ),
        )
        self.db.execute(
            "UPDATE orders SET total_pence = total_pence + ? WHERE order_id = ?",
            (new_price - line["price_pence"], o["order_id"]),
        )
        self._signed(c, o["order_id"], "swap_difference", args.difference_pence)
        self._signed(c, o["order_id"], "change_fee", args.fee_pence)
        name = self._one(
            "SELECT name FROM products WHERE product_id = ?", args.product_id.strip().lower()
        )
        return {
            "order_id": o["order_id"],
            "product_id": args.product_id,
            "product": name["name"] if name else args.product_id,
            "size": args.size,
            "difference": money(args.difference_pence),
            "fee": money(args.fee_pence),
            "card_last4": c["card_last4"],
        }

    @tool(
        "Cancel an order (placed or made up); refund_pence (quoted by the desk) goes back to "
        "the card. The system does not check the refund rules: the desk must."
    )
    def cancel_order(self, args: CancelOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id, open_only=False)
        if o["status"] not in {"placed", "made_up"}:
            raise ToolFailure(f"order {o['order_id']} is {o['status']}")
        self.db.execute(
            "UPDATE orders SET status = 'cancelled' WHERE order_id = ?", (o["order_id"],)
        )
        self._charge(c, o["order_id"], "refund", args.refund_pence)
        return {
            "order_id": o["order_id"],
            "status": "cancelled",
            "refunded": money(args.refund_pence),
            "card_last4": c["card_last4"],
        }

    @tool(
        "Log a complaint about a delivered order with a free replacement (a new delivery of "
        "the same flowers) or a refund. One complaint per order. The system does not check "
        "how long ago it was delivered: the desk must."
    )
    def log_complaint(self, args: Complaint) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id, open_only=False)
        if o["status"] != "delivered":
            raise ToolFailure(f"order {o['order_id']} hasn't been delivered")
        if self._one("SELECT 1 AS x FROM complaints WHERE order_id = ?", o["order_id"]):
            raise ToolFailure(f"a complaint about {o['order_id']} is already logged")
        replacement = None
        if args.resolution == "replacement":
            if not args.replacement_date or not args.replacement_slot:
                raise ToolFailure("a replacement needs a day and a slot")
            self._check_slot(args.replacement_date, args.replacement_slot)
            replacement = self._replace(o, args.replacement_date, args.replacement_slot)
        elif args.resolution == "refund":
            self._charge(c, o["order_id"], "refund", args.refund_pence)
        else:
            raise ToolFailure("resolution must be replacement or refund")
        self.db.execute(
            "INSERT INTO complaints (order_id, customer_id, reason, resolution, refund_pence, "
            "replacement_order, logged_at) VALUES (?,?,?,?,?,?,?)",
            (
                o["order_id"],
                c["customer_id"],
                args.reason.strip(),
                args.resolution,
                args.refund_pence if args.resolution == "refund" else 0,
                replacement,
                self.now().strftime(_seed.STAMP),
            ),
        )
        return {
            "order_id": o["order_id"],
            "resolution": args.resolution,
            "replacement_order": replacement,
            "delivery_date": args.replacement_date,
            "slot": args.replacement_slot,
            "refunded": money(args.refund_pence if args.resolution == "refund" else 0),
            "card_last4": c["card_last4"],
        }

    def _replace(self, o: dict[str, Any], day: str, slot: str) -> str:
        new_id = self._next_order_id()
        self.db.execute(
            "INSERT INTO orders (order_id, customer_id, recipient, address_line, postcode, "
            "delivery_date, slot, card_message, occasion, delivery_fee_pence, total_pence, "
            "paid_pence, replacement_for, placed_at) VALUES (?,?,?,?,?,?,?,?,?,0,0,0,?,?)",
            (
                new_id,
                o["customer_id"],
                o["recipient"],
                o["address_line"],
                o["postcode"],
                day,
                slot,
                o["card_message"],
                o["occasion"],
                o["order_id"],
                self.now().strftime(_seed.STAMP),
            ),
        )
        self.db.execute(
            "INSERT INTO order_items (order_id, product_id, size, qty, price_pence) "
            "SELECT ?, product_id, size, qty, 0 FROM order_items WHERE order_id = ?",
            (new_id, o["order_id"]),
        )
        return new_id


def make_environment() -> FloristEnvironment:
    """A fresh order system, from the seed data."""
    return FloristEnvironment()
