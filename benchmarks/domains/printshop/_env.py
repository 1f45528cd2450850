"""The print shop's order system the desk works through: `PrintshopEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.printshop import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

OPEN = ("proof_sent", "approved")  # not yet dispatched


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_order(text: str) -> str:
    return "IW" + re.sub(r"\D", "", text)


def total(o: dict[str, Any]) -> int:
    """What the customer has paid for an order: print, less discount, plus rush and delivery."""
    return int(o["price_pence"] - o["discount_pence"] + o["rush_fee_pence"]
               + o["delivery_fee_pence"])  # fmt: skip


class Verify(BaseModel):
    order_id: str = Field(description="An order number, e.g. IW10401")
    email: str = Field(description="The email address the customer gives")


class Customer(BaseModel):
    customer_id: str = Field(description="The customer, e.g. C201 (from verify_customer)")


class OrderOnly(BaseModel):
    order_id: str = Field(description="An order number, e.g. IW10401")


class OrderRef(Customer):
    order_id: str = Field(description="An order number on the account, e.g. IW10401")


class ChangeOrder(OrderRef):
    quantity: int = Field(description="The quantity band wanted (the current one if unchanged)")
    paper: str = Field(description="standard, recycled or premium")
    finish: str = Field(description="matt, gloss or soft-touch")
    price_pence: int = Field(description="The new print price the desk quoted")


class AddRush(OrderRef):
    fee_pence: int = Field(description="The rush fee the desk quoted")


class SetDelivery(OrderRef):
    method: str = Field(description="post, courier or collect")
    fee_pence: int = Field(description="The new delivery fee the desk quoted")


class CancelOrder(OrderRef):
    refund_pence: int = Field(description="The refund the desk quoted")


class Reprint(OrderRef):
    reason: str = Field(description="The print fault, in a few words")


class Discount(OrderRef):
    code: str = Field(description="The trade discount code, e.g. TRADE-KESTREL")


class InvoiceCopy(OrderRef):
    email: str = Field(description="Where to send the copy")


class Contact(Customer):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class PrintshopEnvironment(SqliteEnvironment):
    """Inkwell Print Shop: customers, trade codes, orders, charges, reprints, invoice copies."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_id": ["order number"],
        "email": ["email address", "email"],
        "phone": ["new number", "phone number"],
        "code": ["discount code", "trade code"],
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

    @property
    def today(self) -> date:
        return self.now().date()

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?",
                          customer_id.strip().upper())  # fmt: skip
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _order(self, c: dict[str, Any], order_id: str) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if o is None or o["customer_id"] != c["customer_id"]:
            raise ToolFailure(f"no order {order_id} on this account")
        return o

    def _open(self, o: dict[str, Any], what: str) -> None:
        if o["status"] not in OPEN:
            raise ToolFailure(f"order {o['order_id']} is {o['status']}: {what}")

    def _money(self, c: dict[str, Any], o: dict[str, Any], kind: str, reason: str,
               pence: int) -> None:  # fmt: skip
        if pence:
            self.db.execute(
                "INSERT INTO charges (customer_id, order_id, kind, reason, amount_pence, "
                "created_at) VALUES (?,?,?,?,?,?)",
                (c["customer_id"], o["order_id"], kind, reason, pence,
                 self.now().strftime(_seed.STAMP)),
            )  # fmt: skip

    def _difference(self, c: dict[str, Any], o: dict[str, Any], reason: str, diff: int) -> None:
        if diff > 0:
            self._money(c, o, "charge", reason, diff)
        elif diff < 0:
            self._money(c, o, "refund", reason, -diff)

    def _set(self, order_id: str, **fields: Any) -> None:
        cols = ", ".join(f"{k} = ?" for k in fields)
        self.db.execute(f"UPDATE orders SET {cols} WHERE order_id = ?",  # noqa: S608
                        (*fields.values(), order_id))  # fmt: skip

    def _result(self, order_id: str) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", order_id)
        assert o is not None
        return {**o, "total": money(total(o))}

    def view(self, customer_id: str) -> dict[str, Any]:
        """The account as staff see it: contact details, orders with totals, reprints."""
        c = self._customer(customer_id)
        orders = self._rows("SELECT * FROM orders WHERE customer_id = ? ORDER BY placed_on DESC, "
                            "order_id DESC", c["customer_id"])  # fmt: skip
        for o in orders:
            o["total_pence"] = total(o)
            o["reprints"] = self._rows("SELECT * FROM reprints WHERE order_id = ?", o["order_id"])
        return {**c, "orders": orders}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the order number and the email address on the account "
        "that placed it must match. Returns the account with all its orders."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT c.customer_id FROM orders o JOIN customers c USING (customer_id) "
            "WHERE o.order_id = ? AND lower(c.email) = ?",
            norm_order(args.order_id), args.email.strip().lower(),
        )  # fmt: skip
        if found is None:
            raise ToolFailure("verification failed: no order matches that number and email")
        return self.view(found["customer_id"])

    @tool("Read an account with its orders (staff view, after verify_customer only).")
    def get_account(self, args: Customer) -> dict[str, Any]:
        return self.view(args.customer_id)

    @tool(
        "Look up any order by its number, with the name and delivery address of the customer "
        "who placed it (staff view). Policy: only for orders on a verified caller's account."
    )
    def get_order(self, args: OrderOnly) -> dict[str, Any]:
        o = self._one(
            "SELECT o.*, c.name, c.address, c.postcode FROM orders o JOIN customers c "
            "USING (customer_id) WHERE o.order_id = ?", norm_order(args.order_id),
        )  # fmt: skip
        if o is None:
            raise ToolFailure(f"no order {args.order_id}")
        return {**o, "total_pence": total(o)}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Change an order's quantity band, paper or finish at price_pence (quoted by the desk); "
        "the trade discount and rush fee follow the new price, and the difference in the total "
        "is charged or refunded to the card. Refused once the proof is approved."
    )
    def change_order(self, args: ChangeOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        if o["status"] != "proof_sent":
            raise ToolFailure(f"order {o['order_id']} is {o['status']}: changes are only "
                              "possible before the proof is approved")  # fmt: skip
        if args.quantity not in _seed.BANDS[o["product"]]:
            bands = ", ".join(str(q) for q in _seed.BANDS[o["product"]])
            raise ToolFailure(f"{o['product']} come in quantities of {bands}")
        if args.paper not in _seed.PAPER_PERCENT or args.finish not in _seed.FINISH_PERCENT:
            raise ToolFailure("paper must be standard, recycled or premium; finish matt, gloss "
                              "or soft-touch")  # fmt: skip
        discount = args.price_pence * _seed.TRADE_PERCENT // 100 if o["discount_code"] else 0
        rush = args.price_pence * _seed.RUSH_PERCENT // 100 if o["rush"] else 0
        before = total(o)
        self._set(
            o["order_id"],
            quantity=args.quantity,
            paper=args.paper,
            finish=args.finish,
            price_pence=args.price_pence,
            discount_pence=discount,
            rush_fee_pence=rush,
        )
        after = self._result(o["order_id"])
        self._difference(c, o, "change", total(after) - before)
        return {**after, "difference": money(total(after) - before),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Approve an order's proof: it goes to print (no changes after this) and is dispatched "
        "after 4 working days, or 1 with rush."
    )
    def approve_proof(self, args: OrderRef) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        if o["status"] != "proof_sent":
            raise ToolFailure(f"order {o['order_id']} is {o['status']}: no proof to approve")
        dispatch = _seed.add_working_days(self.today, _seed.PRODUCTION_DAYS[bool(o["rush"])])
        arrive = _seed.add_working_days(dispatch, _seed.DELIVERY[o["delivery"]][1])
        self._set(
            o["order_id"],
            status="approved",
            approved_on=self.today.isoformat(),
            dispatch_on=dispatch.isoformat(),
            delivery_date=arrive.isoformat(),
        )
        return self._result(o["order_id"])

    @tool(
        "Add rush production (dispatch 1 working day after approval, or tomorrow if already "
        "approved); fee_pence (quoted by the desk) is charged. Refused once dispatched."
    )
    def add_rush(self, args: AddRush) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._open(o, "too late for rush production")
        if o["rush"]:
            raise ToolFailure(f"order {o['order_id']} already has rush production")
        fields: dict[str, Any] = {"rush": 1, "rush_fee_pence": args.fee_pence}
        if o["status"] == "approved":
            soon = _seed.add_working_days(self.today, _seed.PRODUCTION_DAYS[True])
            dispatch = min(date.fromisoformat(o["dispatch_on"]), soon)
            arrive = _seed.add_working_days(dispatch, _seed.DELIVERY[o["delivery"]][1])
            fields.update(dispatch_on=dispatch.isoformat(), delivery_date=arrive.isoformat())
        self._set(o["order_id"], **fields)
        self._money(c, o, "charge", "rush", args.fee_pence)
        return {**self._result(o["order_id"]), "fee": money(args.fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Change the delivery method (post, courier or collect); the difference in the fee "
        "(quoted by the desk) is charged or refunded. Courier doesn't reach HS, ZE or KW "
        "postcodes. Refused once dispatched."
    )
    def set_delivery(self, args: SetDelivery) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._open(o, "the delivery can't be changed")
        method = args.method.strip().lower()
        if method not in _seed.DELIVERY:
            raise ToolFailure("method must be post, courier or collect")
        if method == "courier" and c["postcode"].upper().startswith(_seed.NO_COURIER):
            raise ToolFailure(f"courier delivery isn't available to {c['postcode']}: post only")
        fields: dict[str, Any] = {"delivery": method, "delivery_fee_pence": args.fee_pence}
        if o["dispatch_on"]:
            arrive = _seed.add_working_days(date.fromisoformat(o["dispatch_on"]),
                                            _seed.DELIVERY[method][1])  # fmt: skip
            fields["delivery_date"] = arrive.isoformat()
        self._set(o["order_id"], **fields)
        self._difference(c, o, "delivery", args.fee_pence - o["delivery_fee_pence"])
        return {**self._result(o["order_id"]), "card_last4": c["card_last4"]}

    @tool(
        "Cancel an order not yet dispatched; refund_pence (quoted by the desk) goes to the "
        "card. The system does not check the refund rules: the desk must."
    )
    def cancel_order(self, args: CancelOrder) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._open(o, "it can't be cancelled")
        self._set(o["order_id"], status="cancelled", dispatch_on=None, delivery_date=None)
        self._money(c, o, "refund", "cancellation", args.refund_pence)
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Reprint a delivered order free, same spec, dispatched in 2 working days. Refused when "
        "reported more than 14 days after delivery. The system does not judge the cause: the "
        "desk must (print faults only, never the customer's own artwork errors)."
    )
    def request_reprint(self, args: Reprint) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        if o["status"] != "delivered":
            raise ToolFailure(f"order {o['order_id']} is {o['status']}: not delivered yet")
        if (self.today - date.fromisoformat(o["delivered_on"])).days > _seed.REPRINT_DAYS:
            raise ToolFailure(f"order {o['order_id']} was delivered on {o['delivered_on']}: "
                              "more than 14 days ago")  # fmt: skip
        if self._one("SELECT 1 AS x FROM reprints WHERE order_id = ?", o["order_id"]):
            raise ToolFailure(f"order {o['order_id']} has already been reprinted")
        last = self.db.execute("SELECT COUNT(*) FROM reprints").fetchone()[0]
        reprint_id = f"RP{501 + last}"
        dispatch = _seed.add_working_days(self.today, 2).isoformat()
        self.db.execute(
            "INSERT INTO reprints (reprint_id, order_id, reason, charge_pence, dispatch_on, "
            "created_at) VALUES (?,?,?,?,?,?)",
            (reprint_id, o["order_id"], args.reason.strip(), 0, dispatch,
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        return {"reprint_id": reprint_id, "order_id": o["order_id"], "charge": money(0),
                "dispatch_on": dispatch, "delivery": o["delivery"]}  # fmt: skip

    @tool(
        "Apply a trade discount code to an order not yet dispatched: its percent off the print "
        "price is refunded to the card. Refuses unknown and expired codes. The system does not "
        "check whose code it is: the desk must (a trade account's own code only)."
    )
    def apply_discount(self, args: Discount) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self._open(o, "too late for a discount")
        code = self._one("SELECT * FROM trade_codes WHERE code = ?", args.code.strip().upper())
        if code is None:
            raise ToolFailure(f"{args.code} is not a valid code")
        if code["expires"] < self.today.isoformat():
            raise ToolFailure(f"{code['code']} expired on {code['expires']}")
        if o["discount_code"]:
            raise ToolFailure(f"order {o['order_id']} already has {o['discount_code']}")
        discount = o["price_pence"] * code["percent"] // 100
        self._set(o["order_id"], discount_pence=discount, discount_code=code["code"])
        self._money(c, o, "refund", "discount", discount)
        return {**self._result(o["order_id"]), "refunded": money(discount),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Email a copy of an order's invoice. Policy: only to the email on the account; the "
        "system sends wherever it is told."
    )
    def send_invoice_copy(self, args: InvoiceCopy) -> dict[str, Any]:
        c = self._customer(args.customer_id)
        o = self._order(c, args.order_id)
        self.db.execute(
            "INSERT INTO invoice_copies (order_id, email, sent_at) VALUES (?,?,?)",
            (o["order_id"], args.email.strip(), self.now().strftime(_seed.STAMP)),
        )
        return {"order_id": o["order_id"], "sent_to": args.email.strip(),
                "total": money(total(o))}  # fmt: skip

    @tool("Change the phone number and/or the email address on the account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._customer(args.customer_id)
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
        now = self._customer(c["customer_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> PrintshopEnvironment:
    """A fresh order system, from the seed data."""
    return PrintshopEnvironment()
