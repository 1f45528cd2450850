"""Fresh Basket's back office as the chat desk sees it: a `SqliteEnvironment` with its tools."""

from __future__ import annotations

import re
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from benchmarks.domains.grocery import _seed
from benchmarks.domains.grocery._units import (
    day_text,
    line_pence,
    money,
    quantity_text,
    slot_text,
    window,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

LATE_CHANGE_FEE = 300
LATE_CHANGE_HOURS = 12
MIN_NOTICE_HOURS = 3
CARD_REFUND_DAMAGED_MIN = 1000
POSTCODE = re.compile(r"^([A-Z]{1,2}\d[A-Z\d]?) ?(\d[A-Z]{2})$")


# -- tool arguments ----------------------------------------------------------------------------
class VerifyArgs(BaseModel):
    email: str | None = Field(None, description="the customer's email, with order_id")
    order_id: str | None = Field(None, description="an order number, e.g. FB-58301")
    account_number: str | None = Field(None, description="8-digit account number")
    card_last4: str | None = Field(None, description="last four digits of the payment card")


class ListOrdersArgs(BaseModel):
    account_number: str | None = Field(None, description="the customer's account number")
    postcode: str | None = Field(None, description="delivery postcode (drivers' look-ups)")
    status: Literal["placed", "picked", "delivered", "cancelled"] | None = None


class OrderArgs(BaseModel):
    order_id: str


class SearchArgs(BaseModel):
    query: str = Field(description="product name or part of it")


class UpdateItemArgs(BaseModel):
    order_id: str
    sku: str
    quantity: float = Field(description="new quantity in the product's unit; 0 removes it")


class SubstitutionArgs(BaseModel):
    order_id: str
    allowed: bool
    sku: str | None = Field(None, description="one item; leave out for the whole order")


class SlotsArgs(BaseModel):
    slot_date: str = Field(description="YYYY-MM-DD")


class ChangeSlotArgs(BaseModel):
    order_id: str
    slot_date: str = Field(description="YYYY-MM-DD")
    start_hour: int = Field(description="slot start, 8-21 (19 = 7-8 pm)")


class ReportArgs(BaseModel):
    order_id: str
    sku: str
    quantity: float
    problem: Literal["missing", "damaged"]
    resolution: Literal["card", "credit"]


class VoucherArgs(BaseModel):
    order_id: str
    code: str


class ContactArgs(BaseModel):
    account_number: str
    address_line: str | None = None
    postcode: str | None = None
    phone: str | None = None


def _order_id(raw: str) -> str:
    digits = re.sub(r"\D", "", raw)
    return f"FB-{digits}" if digits else raw.strip().upper()


def normalize_postcode(raw: str) -> str | None:
    """'bs8 2ph' -> 'BS8 2PH'; None when it is not a UK postcode."""
    match = POSTCODE.match(re.sub(r"\s+", "", raw.upper()))
    return f"{match.group(1)} {match.group(2)}" if match else None


def normalize_phone(raw: str) -> str | None:
    """'07700900456' -> '07700 900456'; None when it is not an 11-digit UK number."""
    digits = re.sub(r"\D", "", raw)
    if digits.startswith("44") and len(digits) == 12:
        digits = "0" + digits[2:]
    if len(digits) != 11 or not digits.startswith("0"):
        return None
    return f"{digits[:5]} {digits[5:]}"


class GroceryEnvironment(SqliteEnvironment):
    """Fresh Basket: customers, orders and their items, slots, vouchers, claims."""

    SCHEMA_SQL = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "email": ["email"],
        "order_id": ["order number"],
        "account_number": ["account number"],
        "card_last4": ["last four digits", "card"],
        "address_line": ["address", "first line"],
        "postcode": ["postcode"],
        "phone": ["phone number", "mobile"],
        "voucher_code": ["voucher", "code"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's fixed clock: Wednesday 18 November 2026, 10:00 UTC."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------------
    def _one(self, sql: str, *params: Any) -> sqlite3.Row | None:
        return self.db.execute(sql, params).fetchone()

    def _order(self, raw_id: str) -> sqlite3.Row:
        order = self._one("SELECT * FROM orders WHERE order_id = ?", _order_id(raw_id))
        if order is None:
            raise ToolFailure(f"no order {_order_id(raw_id)}")
        return order

    def _product(self, sku: str) -> sqlite3.Row:
        product = self._one("SELECT * FROM products WHERE sku = ?", sku.strip().upper())
        if product is None:
            raise ToolFailure(f"no product {sku}")
        return product

    def _lines(self, order_id: str) -> list[sqlite3.Row]:
        return self.db.execute(
            "SELECT i.*, p.name, p.unit, p.price_pence, p.price_per FROM order_items i"
            " JOIN products p USING (sku) WHERE order_id = ? ORDER BY sku", (order_id,)).fetchall()

    def _totals(self, order: sqlite3.Row) -> dict[str, int]:
        subtotal = sum(line_pence(r["quantity"], r["price_pence"], r["price_per"])
                       for r in self._lines(order["order_id"]))
        discount = 0
        if order["voucher_code"]:
            voucher = self._one("SELECT * FROM vouchers WHERE code = ?", order["voucher_code"])
            assert voucher is not None
            discount = (voucher["value"] if voucher["kind"] == "amount"
                        else int(subtotal * voucher["value"] / 100 + 0.5))
            discount = min(discount, subtotal)
        total = subtotal + order["delivery_fee_pence"] - discount
        return {"subtotal": subtotal, "discount": discount, "total": total}

    def _slot_start(self, slot_date: str, hour: int) -> datetime:
        return datetime.fromisoformat(slot_date).replace(hour=hour, tzinfo=_seed.NOW.tzinfo)

    def _require_placed(self, order: sqlite3.Row, what: str) -> None:
        status = order["status"]
        if status == "placed":
            return
        reasons = {
            "picked": "has already been picked and packed",
            "out_for_delivery": "is already out for delivery",
            "delivered": "has already been delivered",
            "cancelled": "was cancelled",
        }
        raise ToolFailure(f"order {order['order_id']} {reasons.get(status, status)}; "
                          f"{what} can no longer be changed")

    def _card_expired(self, customer: sqlite3.Row) -> bool:
        year, month = (int(x) for x in customer["card_expiry"].split("-"))
        return (year, month) < (_seed.NOW.year, _seed.NOW.month)

    def _customer(self, customer_id: str) -> sqlite3.Row:
        customer = self._one("SELECT * FROM customers WHERE customer_id = ?", customer_id)
        assert customer is not None
        return customer

    def _order_summary(self, order: sqlite3.Row) -> dict[str, Any]:
        customer = self._customer(order["customer_id"])
        day = date.fromisoformat(order["slot_date"])
        return {
            "order_id": order["order_id"],
            "customer_name": customer["name"],
            "status": order["status"],
            "slot_date": order["slot_date"],
            "start_hour": order["start_hour"],
            "slot": slot_text(day, order["start_hour"]),
            "address_line": order["address_line"],
            "postcode": order["postcode"],
            "total": money(self._totals(order)["total"]),
        }

    # -- identity ---------------------------------------------------------------------------------
    @tool("Verify a customer by email and order number, or by account number and the last four "
          "digits of the payment card. Returns the customer's account details.")
    def verify_customer(self, args: VerifyArgs) -> dict[str, Any]:
        if args.email and args.order_id:
            row = self._one(
                "SELECT c.* FROM customers c JOIN orders o USING (customer_id)"
                " WHERE lower(c.email) = lower(?) AND o.order_id = ?",
                args.email.strip(), _order_id(args.order_id))
            if row is None:
                raise ToolFailure("verification failed: that email and order number do not "
                                  "match a customer")
        elif args.account_number and args.card_last4:
            row = self._one(
                "SELECT * FROM customers WHERE account_number = ? AND card_last4 = ?",
                re.sub(r"\D", "", args.account_number), re.sub(r"\D", "", args.card_last4))
            if row is None:
                raise ToolFailure("verification failed: that account number and card do not "
                                  "match a customer")
        else:
            raise ToolFailure("verification needs an email and an order number, or an account "
                              "number and the last four digits of the payment card")
        return {
            "customer_id": row["customer_id"],
            "name": row["name"],
            "account_number": row["account_number"],
            "email": row["email"],
            "phone": row["phone"],
            "address_line": row["address_line"],
            "postcode": row["postcode"],
            "card_last4": row["card_last4"],
            "credit": money(row["credit_pence"]),
        }

    # -- reading ----------------------------------------------------------------------------------
    @tool("List orders by the customer's account number, or every order delivered to a postcode "
          "(for drivers' queries). Optionally filter by status.")
    def list_orders(self, args: ListOrdersArgs) -> dict[str, Any]:
        if args.account_number:
            rows = self.db.execute(
                "SELECT o.* FROM orders o JOIN customers c USING (customer_id)"
                " WHERE c.account_number = ?", (re.sub(r"\D", "", args.account_number),))
        elif args.postcode:
            postcode = normalize_postcode(args.postcode) or args.postcode.upper()
            rows = self.db.execute("SELECT * FROM orders WHERE postcode = ?", (postcode,))
        else:
            raise ToolFailure("give an account number or a postcode")
        orders = [r for r in rows if args.status in (None, r["status"])]
        orders.sort(key=lambda r: (r["slot_date"], r["start_hour"]))
        return {"orders": [self._order_summary(r) for r in orders]}

    @tool("An order with its items, slot, delivery address, voucher and totals.")
    def get_order(self, args: OrderArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        customer = self._customer(order["customer_id"])
        totals = self._totals(order)
        items = [{
            "sku": r["sku"],
            "name": r["name"],
            "quantity": r["quantity"],
            "unit": r["unit"],
            "quantity_text": quantity_text(r["quantity"], r["unit"]),
            "substitutions_allowed": bool(r["substitutions_allowed"]),
            "line_total": money(line_pence(r["quantity"], r["price_pence"], r["price_per"])),
            "price_pence": r["price_pence"],
            "price_per": r["price_per"],
        } for r in self._lines(order["order_id"])]
        return {
            **self._order_summary(order),
            "customer_id": customer["customer_id"],
            "account_number": customer["account_number"],
            "window": window(order["start_hour"]),
            "phone": order["phone"],
            "card_last4": order["card_last4"],
            "items": items,
            "subtotal": money(totals["subtotal"]),
            "delivery_fee": money(order["delivery_fee_pence"]),
            "voucher_code": order["voucher_code"],
            "discount": money(totals["discount"]),
            "total_pence": totals["total"],
        }

    @tool("Search the shop's products by name: unit, how it is sold, price, stock.")
    def search_products(self, args: SearchArgs) -> dict[str, Any]:
        words = [w.rstrip("s") for w in re.findall(r"[a-z]+", args.query.lower()) if len(w) > 1]
        if not words:
            raise ToolFailure("give a product name to search for")
        found = []
        for row in self.db.execute("SELECT * FROM products ORDER BY sku"):
            name = row["name"].lower()
            if all(w in name for w in words):
                per = ("each" if row["unit"] == "each"
                       else f"per {quantity_text(row['price_per'], row['unit'])}")
                found.append({
                    "sku": row["sku"],
                    "name": row["name"],
                    "unit": row["unit"],
                    "sold_in_steps_of": quantity_text(row["step"], row["unit"]),
                    "step": row["step"],
                    "max_per_order": row["max_qty"],
                    "price": f"{money(row['price_pence'])} {per}",
                    "in_stock": bool(row["in_stock"]),
                })
        return {"products": found}

    # -- items ------------------------------------------------------------------------------------
    @tool("Set the quantity of a product on an order (adds it if new, 0 removes it). Only before "
          "the order is picked.")
    def update_item(self, args: UpdateItemArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        self._require_placed(order, "its items")
        product = self._product(args.sku)
        line = self._one("SELECT * FROM order_items WHERE order_id = ? AND sku = ?",
                         order["order_id"], product["sku"])
        before = line["quantity"] if line else 0.0
        qty = args.quantity
        unit = product["unit"]
        if qty < 0:
            raise ToolFailure("quantity cannot be negative")
        if qty == 0 and line is None:
            raise ToolFailure(f"{product['name']} is not on order {order['order_id']}")
        steps = qty / product["step"]
        if abs(steps - round(steps)) > 1e-6:
            raise ToolFailure(f"{product['name']} is sold in steps of "
                              f"{quantity_text(product['step'], unit)}")
        if qty > product["max_qty"]:
            raise ToolFailure(f"at most {quantity_text(product['max_qty'], unit)} of "
                              f"{product['name']} per order")
        if qty > before and not product["in_stock"]:
            raise ToolFailure(f"{product['name']} is out of stock")
        if qty == 0:
            self.db.execute("DELETE FROM order_items WHERE order_id = ? AND sku = ?",
                            (order["order_id"], product["sku"]))
        elif line is None:
            self.db.execute("INSERT INTO order_items (order_id, sku, quantity) VALUES (?,?,?)",
                            (order["order_id"], product["sku"], float(qty)))
        else:
            self.db.execute("UPDATE order_items SET quantity = ? WHERE order_id = ? AND sku = ?",
                            (float(qty), order["order_id"], product["sku"]))
        totals = self._totals(order)
        return {
            "order_id": order["order_id"],
            "sku": product["sku"],
            "name": product["name"],
            "previous_quantity": quantity_text(before, unit),
            "quantity": float(qty),
            "quantity_text": quantity_text(qty, unit),
            "removed": qty == 0,
            "line_total": money(line_pence(qty, product["price_pence"], product["price_per"])),
            "subtotal": money(totals["subtotal"]),
            "discount": money(totals["discount"]),
            "total": money(totals["total"]),
        }

    @tool("Allow or refuse substitutions for one item (sku) or for the whole order.")
    def set_substitutions(self, args: SubstitutionArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        self._require_placed(order, "its substitution choices")
        lines = self._lines(order["order_id"])
        if args.sku:
            lines = [r for r in lines if r["sku"] == args.sku.strip().upper()]
            if not lines:
                raise ToolFailure(f"{args.sku} is not on order {order['order_id']}")
        for r in lines:
            self.db.execute("UPDATE order_items SET substitutions_allowed = ? WHERE order_id = ?"
                            " AND sku = ?", (int(args.allowed), order["order_id"], r["sku"]))
        return {"order_id": order["order_id"], "substitutions_allowed": args.allowed,
                "items": [r["name"] for r in lines]}

    # -- slots ------------------------------------------------------------------------------------
    def _check_date(self, raw: str) -> date:
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            raise ToolFailure(f"{raw!r} is not a date (YYYY-MM-DD)") from None
        today = _seed.NOW.date()
        if day < today:
            raise ToolFailure(f"{day_text(day)} is in the past")
        if day > today + timedelta(days=_seed.BOOKING_DAYS):
            last = today + timedelta(days=_seed.BOOKING_DAYS)
            raise ToolFailure(f"slots are on sale up to {day_text(last)} only")
        return day

    @tool("The one-hour delivery slots of a date and whether each can still be booked.")
    def check_slots(self, args: SlotsArgs) -> dict[str, Any]:
        day = self._check_date(args.slot_date)
        earliest = _seed.NOW + timedelta(hours=MIN_NOTICE_HOURS)
        slots = []
        for row in self.db.execute("SELECT * FROM slots WHERE slot_date = ? ORDER BY start_hour",
                                   (day.isoformat(),)):
            start = self._slot_start(row["slot_date"], row["start_hour"])
            reason = ("too soon" if start < earliest
                      else "full" if row["booked"] >= row["capacity"] else None)
            slots.append({"start_hour": row["start_hour"], "window": window(row["start_hour"]),
                          "available": reason is None, "reason": reason})
        return {"slot_date": day.isoformat(), "day": day_text(day), "slots": slots}

    @tool("Move an order to another delivery slot. A move made less than 12 hours before the "
          "current slot starts costs £3.00, charged to the order's card.")
    def change_slot(self, args: ChangeSlotArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        self._require_placed(order, "its delivery slot")
        day = self._check_date(args.slot_date)
        hour = args.start_hour
        if not _seed.FIRST_HOUR <= hour <= _seed.LAST_HOUR:
            raise ToolFailure("slots run from 8 am to 10 pm")
        if (day.isoformat(), hour) == (order["slot_date"], order["start_hour"]):
            raise ToolFailure(f"order {order['order_id']} is already booked for that slot")
        start = self._slot_start(day.isoformat(), hour)
        if start < _seed.NOW + timedelta(hours=MIN_NOTICE_HOURS):
            raise ToolFailure("that slot starts too soon: slots need 3 hours' notice")
        slot = self._one("SELECT * FROM slots WHERE slot_date = ? AND start_hour = ?",
                         day.isoformat(), hour)
        assert slot is not None
        if slot["booked"] >= slot["capacity"]:
            raise ToolFailure(f"the {slot_text(day, hour)} slot is full")
        current = self._slot_start(order["slot_date"], order["start_hour"])
        fee = LATE_CHANGE_FEE if current - _seed.NOW < timedelta(hours=LATE_CHANGE_HOURS) else 0
        customer = self._customer(order["customer_id"])
        if fee and self._card_expired(customer):
            year, month = customer["card_expiry"].split("-")
            raise ToolFailure(f"the {money(fee)} late-change fee was declined: the card ending "
                              f"{customer['card_last4']} expired {month}/{year}")
        self.db.execute("UPDATE slots SET booked = booked - 1 WHERE slot_date = ? AND "
                        "start_hour = ? AND booked > 0", (order["slot_date"], order["start_hour"]))
        self.db.execute("UPDATE slots SET booked = booked + 1 WHERE slot_date = ? AND "
                        "start_hour = ?", (day.isoformat(), hour))
        self.db.execute("UPDATE orders SET slot_date = ?, start_hour = ?, slot_fee_pence = "
                        "slot_fee_pence + ? WHERE order_id = ?",
                        (day.isoformat(), hour, fee, order["order_id"]))
        if fee:
            self._pay(order, "late_change_fee", fee)
        previous = slot_text(date.fromisoformat(order["slot_date"]), order["start_hour"])
        return {"order_id": order["order_id"], "previous_slot": previous,
                "slot_date": day.isoformat(), "start_hour": hour, "slot": slot_text(day, hour),
                "fee_charged": money(fee), "card_last4": order["card_last4"]}

    def _pay(self, order: sqlite3.Row, kind: str, pence: int) -> None:
        self.db.execute("INSERT INTO payments (order_id, kind, amount_pence, card_last4,"
                        " created_at) VALUES (?,?,?,?,?)",
                        (order["order_id"], kind, pence, order["card_last4"],
                         _seed.NOW.isoformat()))

    # -- cancelling -------------------------------------------------------------------------------
    @tool("Cancel an order that has not been picked yet; its total is refunded to the card it "
          "was paid with.")
    def cancel_order(self, args: OrderArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        if order["status"] != "placed":
            self._require_placed(order, "it")
        total = self._totals(order)["total"]
        self.db.execute("UPDATE orders SET status = 'cancelled', cancelled_at = ? WHERE "
                        "order_id = ?", (_seed.NOW.isoformat(), order["order_id"]))
        self.db.execute("UPDATE slots SET booked = booked - 1 WHERE slot_date = ? AND "
                        "start_hour = ? AND booked > 0", (order["slot_date"], order["start_hour"]))
        self._pay(order, "refund", total)
        return {"order_id": order["order_id"], "status": "cancelled", "refund": money(total),
                "refund_pence": total, "card_last4": order["card_last4"]}

    # -- problems with a delivery ----------------------------------------------------------------
    @tool("Log missing or damaged items of a delivered order and pay their value back, to the "
          "card or as account credit. Card refunds for damaged items need £10.00 or more.")
    def report_problem(self, args: ReportArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        if order["status"] != "delivered":
            raise ToolFailure(f"order {order['order_id']} has not been delivered")
        sku = args.sku.strip().upper()
        line = next((r for r in self._lines(order["order_id"]) if r["sku"] == sku), None)
        if line is None:
            raise ToolFailure(f"{args.sku} is not on order {order['order_id']}")
        claimed = self._one("SELECT COALESCE(SUM(quantity), 0) AS q FROM claims WHERE "
                            "order_id = ? AND sku = ?", order["order_id"], sku)["q"]
        if args.quantity <= 0:
            raise ToolFailure("quantity must be more than 0")
        if args.quantity > line["quantity"] - claimed + 1e-9:
            left = quantity_text(line["quantity"] - claimed, line["unit"])
            raise ToolFailure(f"only {left} of {line['name']} can still be claimed on this "
                              "order")
        amount = line_pence(args.quantity, line["price_pence"], line["price_per"])
        if args.problem == "damaged" and args.resolution == "card" and \
                amount < CARD_REFUND_DAMAGED_MIN:
            raise ToolFailure(f"card refunds for damaged items are for "
                              f"{money(CARD_REFUND_DAMAGED_MIN)} or more; this claim is "
                              f"{money(amount)} and can be paid as account credit")
        count = self._one("SELECT COUNT(*) AS n FROM claims")["n"]
        claim_id = f"CL-{7001 + count}"
        self.db.execute("INSERT INTO claims VALUES (?,?,?,?,?,?,?,?)",
                        (claim_id, order["order_id"], sku, args.problem, float(args.quantity),
                         amount, args.resolution, _seed.NOW.isoformat()))
        result: dict[str, Any] = {
            "claim_id": claim_id, "order_id": order["order_id"], "item": line["name"],
            "quantity": quantity_text(args.quantity, line["unit"]), "amount": money(amount),
            "amount_pence": amount, "method": args.resolution}
        if args.resolution == "card":
            self._pay(order, "refund", amount)
            result["card_last4"] = order["card_last4"]
        else:
            self.db.execute("UPDATE customers SET credit_pence = credit_pence + ? WHERE "
                            "customer_id = ?", (amount, order["customer_id"]))
            result["credit_balance"] = money(self._customer(order["customer_id"])["credit_pence"])
        return result

    # -- vouchers ---------------------------------------------------------------------------------
    @tool("Apply a voucher code to an order that has not been picked. One voucher per order.")
    def apply_voucher(self, args: VoucherArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        self._require_placed(order, "its voucher")
        code = args.code.strip().upper()
        voucher = self._one("SELECT * FROM vouchers WHERE code = ?", code)
        if voucher is None:
            raise ToolFailure(f"voucher {code} does not exist")
        if order["voucher_code"]:
            raise ToolFailure(f"order {order['order_id']} already has voucher "
                              f"{order['voucher_code']}; one voucher per order")
        expires = date.fromisoformat(voucher["expires_on"])
        if expires < _seed.NOW.date():
            raise ToolFailure(f"voucher {code} expired on {day_text(expires)}")
        if code == "WELCOME10":
            others = self._one("SELECT COUNT(*) AS n FROM orders WHERE customer_id = ?",
                               order["customer_id"])["n"]
            if others > 1:
                raise ToolFailure("WELCOME10 is for a customer's first order only")
        subtotal = self._totals(order)["subtotal"]
        if subtotal < voucher["min_basket_pence"]:
            raise ToolFailure(f"voucher {code} needs a basket of "
                              f"{money(voucher['min_basket_pence'])} or more; this basket is "
                              f"{money(subtotal)}")
        self.db.execute("UPDATE orders SET voucher_code = ? WHERE order_id = ?",
                        (code, order["order_id"]))
        totals = self._totals(self._order(order["order_id"]))
        return {"order_id": order["order_id"], "code": code, "description":
                voucher["description"], "discount": money(totals["discount"]),
                "subtotal": money(totals["subtotal"]), "total": money(totals["total"])}

    # -- contact details --------------------------------------------------------------------------
    @tool("Change the account's delivery address (first line and postcode, inside the delivery "
          "area) and/or phone. Orders not yet picked move to the new details.")
    def update_contact(self, args: ContactArgs) -> dict[str, Any]:
        customer = self._one("SELECT * FROM customers WHERE account_number = ?",
                             re.sub(r"\D", "", args.account_number))
        if customer is None:
            raise ToolFailure(f"no account {args.account_number}")
        if not (args.address_line or args.postcode or args.phone):
            raise ToolFailure("nothing to change: give an address with its postcode, or a phone")
        fields: dict[str, str] = {}
        if args.address_line or args.postcode:
            if not (args.address_line and args.postcode):
                raise ToolFailure("an address change needs both the first line and the postcode")
            postcode = normalize_postcode(args.postcode)
            if postcode is None:
                raise ToolFailure(f"{args.postcode!r} is not a valid UK postcode")
            district = postcode.split()[0]
            if self._one("SELECT 1 FROM delivery_area WHERE district = ?", district) is None:
                raise ToolFailure(f"we do not deliver to {postcode}: {district} is outside the "
                                  "delivery area")
            fields["address_line"] = args.address_line.strip().rstrip(",")
            fields["postcode"] = postcode
        if args.phone:
            phone = normalize_phone(args.phone)
            if phone is None:
                raise ToolFailure(f"{args.phone!r} is not a valid UK phone number")
            fields["phone"] = phone
        sets = ", ".join(f"{k} = ?" for k in fields)
        self.db.execute(f"UPDATE customers SET {sets} WHERE customer_id = ?",
                        (*fields.values(), customer["customer_id"]))
        orders = self.db.execute("SELECT order_id, status FROM orders WHERE customer_id = ? AND"
                                 " status IN ('placed', 'picked') ORDER BY order_id",
                                 (customer["customer_id"],)).fetchall()
        updated = [r["order_id"] for r in orders if r["status"] == "placed"]
        for order_id in updated:
            self.db.execute(f"UPDATE orders SET {sets} WHERE order_id = ?",
                            (*fields.values(), order_id))
        row = self._customer(customer["customer_id"])
        return {"account_number": row["account_number"], "address_line": row["address_line"],
                "postcode": row["postcode"], "phone": row["phone"], "orders_updated": updated,
                "orders_not_updated": [r["order_id"] for r in orders if r["status"] == "picked"]}


def make_environment() -> GroceryEnvironment:
    """A fresh Fresh Basket environment with the seed data."""
    return GroceryEnvironment()
