"""The hire company's order system the desk works through: `PartyhireEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.partyhire import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_order(text: str) -> str:
    return "BP" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    """'gl526pl' -> 'GL52 6PL'."""
    raw = re.sub(r"\s", "", text).upper()
    return f"{raw[:-3]} {raw[-3:]}" if len(raw) > 3 else raw


def zone_of(postcode: str) -> str | None:
    return _seed.ZONES.get(norm_postcode(postcode).split(" ")[0])


def hire_days(delivery: str, collection: str) -> int:
    """Days of hire: from the delivery day to the collection day (1 for the next day)."""
    return (date.fromisoformat(collection) - date.fromisoformat(delivery)).days


def item_price(item: dict[str, Any], days: int) -> int:
    """One item for `days`: the hire price up to 3 days, else the weekly rate per week or part."""
    if days <= _seed.SHORT_HIRE_DAYS:
        return int(item["hire_pence"])
    return int(item["week_pence"]) * -(-days // 7)


class NoArgs(BaseModel):
    pass


class OrderRef(BaseModel):
    order_id: str = Field(description="The order number, e.g. BP7001")


class CustomerRef(BaseModel):
    customer_id: str = Field(description="e.g. C301")


class Verify(OrderRef):
    postcode: str = Field(description="The delivery postcode on that order")


class BookHire(BaseModel):
    customer_id: str = Field(description="The verified customer, e.g. C301")
    postcode: str = Field(description="Where to deliver")
    delivery_date: str = Field(description="YYYY-MM-DD")
    delivery_window: str = Field(description="AM (08:00-12:00) or PM (12:00-17:00)")
    collection_date: str = Field(description="YYYY-MM-DD")
    collection_window: str = Field(description="AM or PM")
    items: dict[str, int] = Field(description="Quantities by item id, e.g. {'CH-F': 30}")
    hire_pence: int = Field(description="The hire price the desk quoted")
    delivery_pence: int = Field(description="The delivery and collection price quoted")
    deposit_pence: int = Field(description="The damage deposit quoted")


class ChangeItems(OrderRef):
    items: dict[str, int] = Field(description="New quantities by item id; 0 takes an item off")
    hire_pence: int = Field(description="The new hire price the desk quoted")
    deposit_pence: int = Field(description="The deposit the order needs after the change")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 7+ days ahead)")


class ChangeDates(OrderRef):
    delivery_date: str = Field(description="YYYY-MM-DD")
    collection_date: str = Field(description="YYYY-MM-DD")
    hire_pence: int = Field(description="The hire price for the new dates, as quoted")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 7+ days ahead)")


class SetWindow(OrderRef):
    leg: str = Field(description="delivery or collection")
    window: str = Field(description="AM or PM")


class Survey(OrderRef):
    survey_day: str = Field(description="YYYY-MM-DD, a weekday")


class Cancel(OrderRef):
    refund_pence: int = Field(description="Everything going back to the card, deposit included")


class Dispute(OrderRef):
    breakage_id: str = Field(description="e.g. BR-601")
    reason: str = Field(description="The customer's reason, in their words")


class Contact(BaseModel):
    customer_id: str = Field(description="e.g. C301")
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class PartyhireEnvironment(SqliteEnvironment):
    """Bunting & Co. Party Hire: items, customers, orders, lines, charges and breakages."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_id": ["order number"],
        "postcode": ["postcode"],
        "dates": ["which day", "deliver", "collect"],
        "items": ["what would you like", "how many"],
        "window": ["morning or afternoon"],
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

    def _order(self, order_id: str, *, open_only: bool = True) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if o is None:
            raise ToolFailure(f"no order {order_id}")
        if open_only and o["status"] == "cancelled":
            raise ToolFailure(f"order {o['order_id']} is cancelled")
        return o

    def _not_dispatched(self, o: dict[str, Any]) -> None:
        if o["status"] in {"dispatched", "collected"}:
            raise ToolFailure(f"order {o['order_id']} has been dispatched: it can't be changed")

    def _items(self, wanted: dict[str, int]) -> dict[str, dict[str, Any]]:
        found = {}
        for item_id, qty in wanted.items():
            item = self._one("SELECT * FROM items WHERE item_id = ? AND hireable = 1",
                             item_id.strip().upper())  # fmt: skip
            if item is None:
                raise ToolFailure(f"no item {item_id} in the catalogue")
            if qty < 0:
                raise ToolFailure("quantities can't be negative")
            found[item["item_id"]] = item
        return found

    def _window_free(self, day: str, window: str) -> None:
        if window not in _seed.WINDOWS:
            raise ToolFailure("a window is AM or PM")
        if self._one("SELECT 1 AS x FROM full_windows WHERE day = ? AND window = ?", day, window):
            raise ToolFailure(f"the {window} window on {day} is fully booked")

    def _charge(self, order_id: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (order_id, kind, amount_pence, created_at) VALUES (?,?,?,?)",
                (order_id, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def order_view(self, o: dict[str, Any]) -> dict[str, Any]:
        lines = self._rows(
            "SELECT l.item_id, l.qty, i.name, i.hire_pence, i.week_pence, i.replace_pence, "
            "i.marquee FROM order_lines l JOIN items i USING (item_id) WHERE l.order_id = ? "
            "ORDER BY l.rowid",
            o["order_id"],
        )
        breakages = self._rows("SELECT * FROM breakages WHERE order_id = ?", o["order_id"])
        for b in breakages:
            b["days_since_charged"] = -self.days_to(b["charged_on"])
        return {
            **o,
            "lines": lines,
            "hire_days": hire_days(o["delivery_date"], o["collection_date"]),
            "days_to_delivery": self.days_to(o["delivery_date"]),
            "breakages": breakages,
        }

    def view(self, customer_id: str) -> dict[str, Any]:
        """The customer as staff see them: contact details and every order."""
        c = self._one("SELECT * FROM customers WHERE customer_id = ?", customer_id.strip().upper())
        if c is None:
            raise ToolFailure(f"no customer {customer_id}")
        orders = self._rows(
            "SELECT * FROM orders WHERE customer_id = ? ORDER BY delivery_date", c["customer_id"]
        )
        return {**c, "orders": [self.order_view(o) for o in orders]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the order number and that order's delivery postcode must "
        "match. Returns the customer with all their orders."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(args.order_id))
        if o is None or o["postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no order matches that number and postcode")
        return {**self.view(o["customer_id"]), "verified_order": o["order_id"]}

    @tool("Read a customer and all their orders (staff view, after verify_customer only).")
    def get_customer(self, args: CustomerRef) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool("Read one order (staff view, after verify_customer only).")
    def get_order(self, args: OrderRef) -> dict[str, Any]:
        return self.order_view(self._order(args.order_id, open_only=False))

    @tool("The catalogue: items with hire, weekly and replacement prices; zone delivery prices.")
    def get_catalogue(self, args: NoArgs) -> dict[str, Any]:
        items = self._rows("SELECT * FROM items ORDER BY rowid")
        return {"items": items, "zones": {z: money(p) for z, p in _seed.ZONE_PENCE.items()}}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a new hire for a verified customer: takes the hire and delivery price and the "
        "damage deposit from the card. Refuses a postcode outside the delivery zones and a "
        "fully booked window. The system does not check prices or site surveys: the desk must."
    )
    def book_hire(self, args: BookHire) -> dict[str, Any]:
        c = self.view(args.customer_id)
        postcode = norm_postcode(args.postcode)
        zone = zone_of(postcode)
        if zone is None:
            raise ToolFailure(f"{postcode} is outside our delivery area")
        start = date.fromisoformat(args.delivery_date)
        end = date.fromisoformat(args.collection_date)
        if start <= self.now().date() or end <= start:
            raise ToolFailure("the delivery must be a future day and before the collection")
        if not args.items or not any(args.items.values()):
            raise ToolFailure("an order needs at least one item")
        self._items(args.items)
        self._window_free(args.delivery_date, args.delivery_window)
        self._window_free(args.collection_date, args.collection_window)
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        order_id = f"BP{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO orders (order_id, customer_id, postcode, zone, delivery_date, "
            "delivery_window, collection_date, collection_window, hire_pence, delivery_pence, "
            "deposit_pence) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (order_id, c["customer_id"], postcode, zone, args.delivery_date, args.delivery_window,
             args.collection_date, args.collection_window, args.hire_pence, args.delivery_pence,
             args.deposit_pence),
        )  # fmt: skip
        self.db.executemany(
            "INSERT INTO order_lines VALUES (?,?,?)",
            [(order_id, i.upper(), q) for i, q in args.items.items() if q],
        )
        self._charge(order_id, "payment", args.hire_pence + args.delivery_pence)
        self._charge(order_id, "deposit", args.deposit_pence)
        return {"order_id": order_id, "postcode": postcode, "delivery_date": args.delivery_date,
                "delivery_window": args.delivery_window, "collection_date": args.collection_date,
                "collection_window": args.collection_window,
                "hire": money(args.hire_pence), "delivery_charge": money(args.delivery_pence),
                "deposit": money(args.deposit_pence)}  # fmt: skip

    @tool(
        "Change the quantities on an order (0 takes an item off): the hire difference is taken "
        "or refunded, the deposit topped up or returned, and fee_pence charged. Refuses an "
        "order that has been dispatched."
    )
    def change_items(self, args: ChangeItems) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._not_dispatched(o)
        self._items(args.items)
        for item_id, qty in args.items.items():
            self.db.execute(
                "DELETE FROM order_lines WHERE order_id = ? AND item_id = ?",
                (o["order_id"], item_id.upper()),
            )
            if qty:
                self.db.execute(
                    "INSERT INTO order_lines VALUES (?,?,?)", (o["order_id"], item_id.upper(), qty)
                )
        if not self._one("SELECT 1 AS x FROM order_lines WHERE order_id = ?", o["order_id"]):
            raise ToolFailure("that would leave nothing on the order: cancel it instead")
        self.db.execute(
            "UPDATE orders SET hire_pence = ?, deposit_pence = ? WHERE order_id = ?",
            (args.hire_pence, args.deposit_pence, o["order_id"]),
        )
        self._charge(o["order_id"], "adjustment", args.hire_pence - o["hire_pence"])
        self._charge(o["order_id"], "deposit", args.deposit_pence - o["deposit_pence"])
        self._charge(o["order_id"], "change_fee", args.fee_pence)
        lines = self._rows("SELECT item_id, qty FROM order_lines WHERE order_id = ?", o["order_id"])
        return {"order_id": o["order_id"], "lines": {r["item_id"]: r["qty"] for r in lines},
                "hire": money(args.hire_pence), "deposit": money(args.deposit_pence),
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Move an order's delivery and collection days (windows kept): the hire difference is "
        "taken or refunded and fee_pence charged. Refuses a dispatched order and a fully "
        "booked window."
    )
    def change_dates(self, args: ChangeDates) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._not_dispatched(o)
        start = date.fromisoformat(args.delivery_date)
        end = date.fromisoformat(args.collection_date)
        if start <= self.now().date() or end <= start:
            raise ToolFailure("the delivery must be a future day and before the collection")
        self._window_free(args.delivery_date, o["delivery_window"])
        self._window_free(args.collection_date, o["collection_window"])
        self.db.execute(
            "UPDATE orders SET delivery_date = ?, collection_date = ?, hire_pence = ? "
            "WHERE order_id = ?",
            (args.delivery_date, args.collection_date, args.hire_pence, o["order_id"]),
        )
        self._charge(o["order_id"], "adjustment", args.hire_pence - o["hire_pence"])
        self._charge(o["order_id"], "change_fee", args.fee_pence)
        return {"order_id": o["order_id"], "delivery_date": args.delivery_date,
                "collection_date": args.collection_date, "hire": money(args.hire_pence),
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Set the delivery or collection window (AM or PM) on the same day; free. Refuses a "
        "fully booked window, and a delivery window once the order is dispatched."
    )
    def set_window(self, args: SetWindow) -> dict[str, Any]:
        o = self._order(args.order_id)
        leg = args.leg.strip().lower()
        if leg not in {"delivery", "collection"}:
            raise ToolFailure("leg is delivery or collection")
        if o["status"] == "collected" or (leg == "delivery" and o["status"] == "dispatched"):
            raise ToolFailure(f"the {leg} of order {o['order_id']} can't be changed now")
        window = args.window.strip().upper()
        self._window_free(o[f"{leg}_date"], window)
        self.db.execute(
            f"UPDATE orders SET {leg}_window = ? WHERE order_id = ?",  # noqa: S608
            (window, o["order_id"]),
        )
        return {"order_id": o["order_id"], "leg": leg, "day": o[f"{leg}_date"],
                "window": window, "times": _seed.WINDOWS[window]}  # fmt: skip

    @tool(
        "Book the free site survey a marquee needs: a weekday from two days ahead, at least 3 "
        "days before delivery."
    )
    def book_survey(self, args: Survey) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._not_dispatched(o)
        day = date.fromisoformat(args.survey_day)
        if day.weekday() > 4:
            raise ToolFailure("surveys are on weekdays")
        if self.days_to(args.survey_day) < _seed.SURVEY_LEAD_DAYS:
            raise ToolFailure("the surveyor's first free day is two days from today")
        if (date.fromisoformat(o["delivery_date"]) - day).days < _seed.SURVEY_BEFORE_DAYS:
            raise ToolFailure("a survey must be at least 3 days before delivery")
        self.db.execute(
            "UPDATE orders SET survey_on = ? WHERE order_id = ?", (args.survey_day, o["order_id"])
        )
        return {"order_id": o["order_id"], "survey_on": args.survey_day}

    @tool(
        "Cancel an order; refund_pence (as quoted: the refund band's share of hire and delivery "
        "plus the deposit) goes to the card. Refuses a dispatched order. The system does not "
        "check the refund bands: the desk must."
    )
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._not_dispatched(o)
        self.db.execute(
            "UPDATE orders SET status = 'cancelled' WHERE order_id = ?", (o["order_id"],)
        )
        self._charge(o["order_id"], "refund", args.refund_pence)
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence)}  # fmt: skip

    @tool(
        "Log a dispute of a breakage charge for review. Policy: within 14 days of the charge; "
        "the system logs whatever it is given."
    )
    def dispute_breakage(self, args: Dispute) -> dict[str, Any]:
        o = self._order(args.order_id, open_only=False)
        b = self._one("SELECT * FROM breakages WHERE breakage_id = ? AND order_id = ?",
                      args.breakage_id.strip().upper(), o["order_id"])  # fmt: skip
        if b is None:
            raise ToolFailure(f"no breakage {args.breakage_id} on order {o['order_id']}")
        if b["status"] == "disputed":
            raise ToolFailure(f"{b['breakage_id']} is already disputed")
        self.db.execute(
            "INSERT INTO disputes (breakage_id, reason, logged_at) VALUES (?,?,?)",
            (b["breakage_id"], args.reason.strip(), self.now().strftime(_seed.STAMP)),
        )
        self.db.execute(
            "UPDATE breakages SET status = 'disputed' WHERE breakage_id = ?", (b["breakage_id"],)
        )
        return {"breakage_id": b["breakage_id"], "status": "disputed",
                "amount": money(b["amount_pence"])}  # fmt: skip

    @tool("Change the customer's phone number and/or email address.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self.view(args.customer_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE customers SET phone = ? WHERE customer_id = ?",
                            (args.phone.strip(), c["customer_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                            (args.email.strip(), c["customer_id"]))  # fmt: skip
        now = self.view(c["customer_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> PartyhireEnvironment:
    """A fresh order system, from the seed data."""
    return PartyhireEnvironment()
