"""The caterer's order system the desk works through: `CateringEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.catering import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "CT" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 3 else squashed


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. CT3001")


class Verify(Account):
    postcode: str = Field(description="The postcode on the account, e.g. LS6 2AB")


class OrderId(BaseModel):
    order_id: str = Field(description="The order number, e.g. EV7006")


class OrderRef(Account):
    order_id: str = Field(description="The order number, e.g. EV7006")


class BookEvent(Account):
    event_date: str = Field(description="The day of the event, YYYY-MM-DD")
    headcount: int = Field(description="The number of guests (20 to 200)")
    package: str = Field(description="canapes, buffet or dinner")
    vegetarian: int = Field(default=0, description="Vegetarian meals among the guests")
    vegan: int = Field(default=0, description="Vegan meals among the guests")
    gluten_free: int = Field(default=0, description="Gluten-free meals among the guests")
    price_pence: int = Field(description="The order's price the desk quoted")


class Headcount(OrderRef):
    headcount: int = Field(description="The new number of guests")
    price_pence: int = Field(description="The order's new price the desk quoted")


class Menu(OrderRef):
    package: str = Field(description="canapes, buffet or dinner")
    price_pence: int = Field(description="The order's new price the desk quoted")


class Dietary(OrderRef):
    vegetarian: int = Field(description="Vegetarian meals")
    vegan: int = Field(description="Vegan meals")
    gluten_free: int = Field(description="Gluten-free meals")


class Balance(OrderRef):
    amount_pence: int = Field(description="The amount the desk quoted, taken from the card")


class Cancel(OrderRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if nothing back)")


class Contact(OrderRef):
    contact_phone: str = Field(description="The on-the-day contact's phone number at the venue")


class CateringEnvironment(SqliteEnvironment):
    """Saffron & Sage Catering: customers, event orders and card charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode", "post code"],
        "order_id": ["order number", "which order"],
        "event_date": ["which day", "date of the event", "what date"],
        "headcount": ["how many guests", "headcount", "number of guests"],
        "package": ["which menu", "menu package"],
        "contact_phone": ["new number", "phone number"],
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

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _order(self, c: dict[str, Any], order_id: str, *, live: bool = True) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", order_id.strip().upper())
        if o is None or o["account_id"] != c["account_id"]:
            raise ToolFailure(f"no order {order_id} on this account")
        if live and o["status"] == "cancelled":
            raise ToolFailure(f"order {o['order_id']} is cancelled")
        return o

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _food_open(self, o: dict[str, Any]) -> None:
        if self.days_to(o["event_date"]) < _seed.FINAL_DAYS:
            raise ToolFailure("the kitchen has its final numbers: nothing about the food can "
                              "change less than 3 days before the event")  # fmt: skip

    @staticmethod
    def _package(name: str) -> str:
        package = name.strip().lower()
        if package not in _seed.PACKAGES:
            raise ToolFailure("package must be canapes, buffet or dinner")
        return package

    def describe(self, o: dict[str, Any]) -> dict[str, Any]:
        paid = o["deposit_paid_pence"] + o["balance_paid_pence"]
        return {
            **o,
            "days_to_event": self.days_to(o["event_date"]),
            "paid_pence": paid,
            "outstanding_pence": o["price_pence"] - paid,
        }

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it, with its live orders."""
        c = self._account(account_id)
        orders = self._rows(
            "SELECT * FROM orders WHERE account_id = ? AND status != 'cancelled' "
            "ORDER BY event_date",
            c["account_id"],
        )
        return {**c, "orders": [self.describe(o) for o in orders]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the postcode on that account "
        "must match. Returns the account with its orders."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT account_id FROM customers WHERE account_id = ? AND postcode = ?",
            norm_account(args.account_id),
            norm_postcode(args.postcode),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(c["account_id"])

    @tool("Read an account and its orders (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Read any order by its number (staff view). Policy: its details are only for the "
        "account holder it belongs to; the system shows it to anyone."
    )
    def get_order(self, args: OrderId) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", args.order_id.strip().upper())
        if o is None:
            raise ToolFailure(f"no order {args.order_id}")
        return self.describe(o)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book an event: takes a 25% deposit of price_pence from the card. Refuses less than "
        "14 days' notice, fewer than 20 or more than 200 guests, more dietary meals than "
        "guests, and a day that already has two events. The system does not check a package's "
        "own minimum: the desk must."
    )
    def book_event(self, args: BookEvent) -> dict[str, Any]:
        c = self._account(args.account_id)
        package = self._package(args.package)
        day = date.fromisoformat(args.event_date)
        if (day - self.now().date()).days < _seed.LEAD_DAYS:
            raise ToolFailure("a new booking needs at least 14 days' notice")
        if not _seed.MIN_GUESTS <= args.headcount <= _seed.MAX_GUESTS:
            raise ToolFailure("an order is for 20 to 200 guests")
        if min(args.vegetarian, args.vegan, args.gluten_free) < 0 or (
            args.vegetarian + args.vegan + args.gluten_free > args.headcount
        ):
            raise ToolFailure("the dietary meals can't be more than the guests")
        booked = self.db.execute(
            "SELECT COUNT(*) FROM orders WHERE event_date = ? AND status != 'cancelled'",
            (day.isoformat(),),
        ).fetchone()[0]
        if booked >= _seed.EVENTS_PER_DAY:
            raise ToolFailure(f"{day.isoformat()} is fully booked: the kitchen has two events")
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        order_id = f"EV{(last.fetchone()[0] or 7000) + 1}"
        deposit = args.price_pence * _seed.DEPOSIT_PERCENT // 100
        self.db.execute(
            "INSERT INTO orders (order_id, account_id, event_date, headcount, package, "
            "vegetarian, vegan, gluten_free, price_pence, deposit_pence, deposit_paid_pence, "
            "contact_phone) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (order_id, c["account_id"], day.isoformat(), args.headcount, package,
             args.vegetarian, args.vegan, args.gluten_free, args.price_pence, deposit, deposit,
             c["phone"]),
        )  # fmt: skip
        self._charge(c, "deposit", deposit, order_id)
        return {"order_id": order_id, "event_date": day.isoformat(), "headcount": args.headcount,
                "package": package, "price": money(args.price_pence),
                "deposit_taken": money(deposit), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Change an order's number of guests and set its price to price_pence (quoted by the "
        "desk). Refuses under 20 or over 200 guests and changes less than 3 days before the "
        "event. The system does not check the 10-day cut-off rules: the desk must."
    )
    def change_headcount(self, args: Headcount) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        self._food_open(o)
        if not _seed.MIN_GUESTS <= args.headcount <= _seed.MAX_GUESTS:
            raise ToolFailure("an order is for 20 to 200 guests")
        if o["vegetarian"] + o["vegan"] + o["gluten_free"] > args.headcount:
            raise ToolFailure("the dietary meals would be more than the guests")
        self.db.execute(
            "UPDATE orders SET headcount = ?, price_pence = ? WHERE order_id = ?",
            (args.headcount, args.price_pence, o["order_id"]),
        )
        return {"order_id": o["order_id"], "headcount": args.headcount,
                "price": money(args.price_pence),
                "outstanding": money(args.price_pence - o["deposit_paid_pence"]
                                     - o["balance_paid_pence"])}  # fmt: skip

    @tool(
        "Change an order's menu package and set its price to price_pence (quoted by the desk). "
        "Refuses changes less than 3 days before the event. The system does not check the "
        "10-day cut-off or a package's minimum: the desk must."
    )
    def change_menu(self, args: Menu) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        self._food_open(o)
        package = self._package(args.package)
        self.db.execute(
            "UPDATE orders SET package = ?, price_pence = ? WHERE order_id = ?",
            (package, args.price_pence, o["order_id"]),
        )
        return {"order_id": o["order_id"], "package": package, "price": money(args.price_pence),
                "outstanding": money(args.price_pence - o["deposit_paid_pence"]
                                     - o["balance_paid_pence"])}  # fmt: skip

    @tool(
        "Set an order's dietary counts (vegetarian, vegan, gluten-free meals). Refuses more "
        "dietary meals than guests and changes less than 3 days before the event."
    )
    def set_dietary(self, args: Dietary) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        self._food_open(o)
        counts = (args.vegetarian, args.vegan, args.gluten_free)
        if min(counts) < 0 or sum(counts) > o["headcount"]:
            raise ToolFailure(f"the dietary meals can't be more than the {o['headcount']} guests")
        self.db.execute(
            "UPDATE orders SET vegetarian = ?, vegan = ?, gluten_free = ? WHERE order_id = ?",
            (*counts, o["order_id"]),
        )
        return {"order_id": o["order_id"], "vegetarian": args.vegetarian, "vegan": args.vegan,
                "gluten_free": args.gluten_free}  # fmt: skip

    @tool("Take the deposit of a held order from the card on the account; the order is confirmed.")
    def pay_deposit(self, args: OrderRef) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if o["status"] != "held" or o["deposit_paid_pence"]:
            raise ToolFailure(f"the deposit on {o['order_id']} is already paid")
        self.db.execute(
            "UPDATE orders SET deposit_paid_pence = deposit_pence, status = 'confirmed' "
            "WHERE order_id = ?",
            (o["order_id"],),
        )
        self._charge(c, "deposit", o["deposit_pence"], o["order_id"])
        return {"order_id": o["order_id"], "status": "confirmed",
                "deposit_taken": money(o["deposit_pence"]),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Take a payment towards an order's balance from the card on the account. Refuses a "
        "held order and more than is outstanding."
    )
    def pay_balance(self, args: Balance) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if o["status"] == "held":
            raise ToolFailure("the deposit must be paid first")
        due = o["price_pence"] - o["deposit_paid_pence"] - o["balance_paid_pence"]
        if args.amount_pence <= 0 or args.amount_pence > due:
            raise ToolFailure(f"{money(due)} is outstanding on {o['order_id']}")
        self.db.execute(
            "UPDATE orders SET balance_paid_pence = balance_paid_pence + ? WHERE order_id = ?",
            (args.amount_pence, o["order_id"]),
        )
        self._charge(c, "balance", args.amount_pence, o["order_id"])
        return {"order_id": o["order_id"], "paid": money(args.amount_pence),
                "outstanding": money(due - args.amount_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel an order; refund_pence (quoted by the desk) goes back to the card. Refuses a "
        "refund above what was paid. The system does not check the cancellation bands: the "
        "desk must."
    )
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        paid = o["deposit_paid_pence"] + o["balance_paid_pence"]
        if args.refund_pence < 0 or args.refund_pence > paid:
            raise ToolFailure(f"only {money(paid)} has been paid on {o['order_id']}")
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE order_id = ?",
                        (o["order_id"],))  # fmt: skip
        self._charge(c, "refund", args.refund_pence, o["order_id"])
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Change the on-the-day contact's phone number for an order.")
    def update_event_contact(self, args: Contact) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if len(re.sub(r"\D", "", args.contact_phone)) != 11:
            raise ToolFailure(f"{args.contact_phone!r} is not a UK phone number")
        self.db.execute("UPDATE orders SET contact_phone = ? WHERE order_id = ?",
                        (args.contact_phone.strip(), o["order_id"]))  # fmt: skip
        return {"order_id": o["order_id"], "contact_phone": args.contact_phone.strip()}


def make_environment() -> CateringEnvironment:
    """A fresh order system, from the seed data."""
    return CateringEnvironment()
