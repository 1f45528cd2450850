"""The shop's business rules, written once and used by agent tools, user APIs and the web site.

Each function reads or changes the database and raises `ToolFailure` with a message a support
agent could read to a customer when the written policy (policy.md) forbids the request.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from pydantic import JsonValue

from vistasim.domains.shop._seed import TODAY
from vistasim.env import ToolFailure

__all__ = [
    "RETURN_WINDOW_DAYS",
    "DEFECT_WINDOW_DAYS",
    "apply_coupon",
    "cancel_order",
    "customer_view",
    "dollars",
    "exchange_item",
    "load_order",
    "order_view",
    "request_return",
    "update_address",
]

RETURN_WINDOW_DAYS = 30
"""Days after delivery during which items can be returned or exchanged."""
DEFECT_WINDOW_DAYS = 90
"""Days after delivery during which defective or damaged items can be returned."""
_OPEN = ("pending", "processing")
_DEFECT_WORDS = ("defect", "broken", "damaged", "cracked", "faulty", "not working", "doesn't work")


def dollars(cents: int) -> str:
    """Format cents as dollars, e.g. `$89.99`."""
    return f"${cents / 100:,.2f}"


def load_order(db: sqlite3.Connection, order_id: str) -> sqlite3.Row:
    """The order row, or a ToolFailure naming the unknown id."""
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM orders WHERE id = ?", (order_id,)
    ).fetchone()
    if row is None:
        raise ToolFailure(f"Order {order_id!r} was not found. Order numbers look like 'W1001'.")
    return row


def customer_view(db: sqlite3.Connection, customer_id: str) -> dict[str, JsonValue]:
    """A customer's profile with payment methods and order summaries."""
    row = db.execute("SELECT * FROM customers WHERE id = ?", (customer_id,)).fetchone()
    if row is None:
        raise ToolFailure(f"Customer {customer_id!r} was not found.")
    payments = db.execute(
        "SELECT id, kind, label, balance_cents FROM payment_methods WHERE customer_id = ?",
        (customer_id,),
    ).fetchall()
    orders = db.execute(
        "SELECT id, status, placed_on FROM orders WHERE customer_id = ? ORDER BY placed_on DESC",
        (customer_id,),
    ).fetchall()
    return {
        **dict(row),
        "payment_methods": [dict(p) for p in payments],
        "orders": [dict(o) for o in orders],
    }


def order_view(db: sqlite3.Connection, order_id: str) -> dict[str, JsonValue]:
    """An order with its items, totals, payment method, shipment and refunds."""
    order = load_order(db, order_id)
    items = [dict(r) for r in db.execute(_ITEMS_SQL, (order_id,))]
    subtotal = _subtotal(db, order_id)
    email = db.execute("SELECT email FROM customers WHERE id = ?", (order["customer_id"],))
    payment = db.execute(
        "SELECT label FROM payment_methods WHERE id = ?", (order["payment_method_id"],)
    ).fetchone()
    shipment = db.execute(
        "SELECT tracking_number, carrier, status, last_update, eta FROM shipments"
        " WHERE order_id = ?",
        (order_id,),
    ).fetchone()
    refunds = db.execute(
        "SELECT amount_cents, method, status, reason, created_on FROM refunds WHERE order_id = ?",
        (order_id,),
    ).fetchall()
    return {
        **dict(order),
        "customer_email": email.fetchone()[0],
        "payment_label": payment[0] if payment else None,
        "items": items,
        "subtotal_cents": subtotal,
        "total_cents": max(subtotal - order["discount_cents"], 0),
        "shipment": dict(shipment) if shipment else None,
        "refunds": [dict(r) for r in refunds],
    }


_ITEMS_SQL = (
    "SELECT i.sku, i.product_name, v.option, i.quantity, i.unit_price_cents, i.status,"
    " p.final_sale FROM order_items i JOIN variants v ON v.sku = i.sku"
    " JOIN products p ON p.id = v.product_id WHERE i.order_id = ? ORDER BY i.rowid"
)


def _subtotal(db: sqlite3.Connection, order_id: str) -> int:
    row = db.execute(
        "SELECT COALESCE(SUM(quantity * unit_price_cents), 0) FROM order_items"
        " WHERE order_id = ? AND status != 'cancelled'",
        (order_id,),
    ).fetchone()
    return int(row[0])


def _require_open(order: sqlite3.Row, action: str, hint: str) -> None:
    if order["status"] not in _OPEN:
        raise ToolFailure(
            f"Order {order['id']} is {order['status']}; {action} is only possible while an order"
            f" is pending or processing. {hint}"
        )


def cancel_order(db: sqlite3.Connection, order_id: str, reason: str) -> dict[str, JsonValue]:
    """Cancel a pending/processing order and refund it in full to the original payment."""
    order = load_order(db, order_id)
    _require_open(order, "cancellation", "Delivered items can be returned instead.")
    amount = max(_subtotal(db, order_id) - order["discount_cents"], 0)
    db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order_id,))
    db.execute("UPDATE order_items SET status = 'cancelled' WHERE order_id = ?", (order_id,))
    db.execute("DELETE FROM shipments WHERE order_id = ?", (order_id,))
    _add_refund(db, order_id, amount, "original_payment", "issued", f"order cancelled: {reason}")
    return {
        "order_id": order_id,
        "status": "cancelled",
        "refund_cents": amount,
        "refund_method": "original_payment",
    }


def _add_refund(
    db: sqlite3.Connection, order_id: str, amount: int, method: str, status: str, reason: str
) -> None:
    db.execute(
        "INSERT INTO refunds (order_id, amount_cents, method, status, reason, created_on)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (order_id, amount, method, status, reason, TODAY.isoformat()),
    )


def _returnable_item(
    db: sqlite3.Connection, order: sqlite3.Row, sku: str, reason: str
) -> sqlite3.Row:
    """Check one item against the return rules; return its row."""
    item = db.execute(_ITEMS_SQL.replace("WHERE", "WHERE i.sku = ? AND"), (sku, order["id"]))
    row: sqlite3.Row | None = item.fetchone()
    if row is None:
        raise ToolFailure(f"Order {order['id']} has no item with SKU {sku!r}.")
    if row["status"] != "ordered":
        raise ToolFailure(f"{row['product_name']} ({sku}) is already {row['status']}.")
    if row["final_sale"]:
        raise ToolFailure(f"{row['product_name']} was a final-sale item and cannot be returned.")
    age = (TODAY - date.fromisoformat(order["delivered_on"])).days
    defective = any(word in reason.lower() for word in _DEFECT_WORDS)
    window = DEFECT_WINDOW_DAYS if defective else RETURN_WINDOW_DAYS
    if age > window:
        raise ToolFailure(
            f"Order {order['id']} was delivered {age} days ago; the return window is"
            f" {window} days{' for defective items' if defective else ''}."
        )
    return row


def _require_delivered(order: sqlite3.Row, action: str) -> None:
    if order["status"] != "delivered":
        raise ToolFailure(
            f"Order {order['id']} is {order['status']}; {action} is only possible after delivery."
        )


def request_return(
    db: sqlite3.Connection, order_id: str, skus: list[str], reason: str, refund_to: str
) -> dict[str, JsonValue]:
    """Open a return for items of a delivered order; the refund is pending until they arrive."""
    order = load_order(db, order_id)
    _require_delivered(order, "a return")
    if len(set(skus)) != len(skus):
        raise ToolFailure(f"Each SKU may appear once per return request; got {skus!r}.")
    rows = [_returnable_item(db, order, sku, reason) for sku in skus]
    subtotal = _subtotal(db, order_id) or 1
    amount = 0
    for row in rows:
        line = row["quantity"] * row["unit_price_cents"]
        # The coupon discount is shared across items in proportion to their price.
        amount += line - order["discount_cents"] * line // subtotal
        db.execute(
            "UPDATE order_items SET status = 'return_requested' WHERE order_id = ? AND sku = ?",
            (order_id, row["sku"]),
        )
    _add_refund(db, order_id, amount, refund_to, "pending", f"return: {reason}")
    return {
        "order_id": order_id,
        "returned_skus": [*skus],
        "refund_cents": amount,
        "refund_method": refund_to,
        "refund_status": "pending",
        "instructions": "A prepaid return label has been emailed; refunds are issued when the"
        " items arrive at our warehouse.",
    }


def exchange_item(
    db: sqlite3.Connection, order_id: str, sku: str, new_sku: str, reason: str
) -> dict[str, JsonValue]:
    """Exchange a delivered item for another variant of the same product."""
    order = load_order(db, order_id)
    _require_delivered(order, "an exchange")
    row = _returnable_item(db, order, sku, reason)
    new = db.execute("SELECT * FROM variants WHERE sku = ?", (new_sku,)).fetchone()
    old = db.execute("SELECT product_id FROM variants WHERE sku = ?", (sku,)).fetchone()
    if new is None:
        raise ToolFailure(f"No product variant with SKU {new_sku!r}.")
    if new["product_id"] != old["product_id"] or new_sku == sku:
        raise ToolFailure(
            f"{new_sku} is not another variant of {row['product_name']}; exchanges must be for a"
            " different size or color of the same product. Return the item for a refund instead."
        )
    if new["stock"] < row["quantity"]:
        raise ToolFailure(f"{row['product_name']} in {new['option']} is out of stock.")
    db.execute("UPDATE variants SET stock = stock - ? WHERE sku = ?", (row["quantity"], new_sku))
    db.execute(
        "UPDATE order_items SET status = 'exchange_requested' WHERE order_id = ? AND sku = ?",
        (order_id, sku),
    )
    db.execute(
        "INSERT INTO exchanges (order_id, old_sku, new_sku, reason, created_on)"
        " VALUES (?, ?, ?, ?, ?)",
        (order_id, sku, new_sku, reason, TODAY.isoformat()),
    )
    return {
        "order_id": order_id,
        "old_sku": sku,
        "new_sku": new_sku,
        "new_option": new["option"],
        "status": "exchange_requested",
    }


def update_address(
    db: sqlite3.Connection, order_id: str, address_line: str, city: str, zip_code: str
) -> dict[str, JsonValue]:
    """Change the shipping address of an order that has not shipped."""
    order = load_order(db, order_id)
    _require_open(order, "an address change", "Contact the carrier to redirect a shipped parcel.")
    db.execute(
        "UPDATE orders SET address_line = ?, city = ?, zip = ? WHERE id = ?",
        (address_line, city, zip_code, order_id),
    )
    return {"order_id": order_id, "address_line": address_line, "city": city, "zip": zip_code}


def apply_coupon(db: sqlite3.Connection, order_id: str, code: str) -> dict[str, JsonValue]:
    """Apply a coupon to an order that has not shipped (one coupon per order)."""
    order = load_order(db, order_id)
    _require_open(order, "applying a coupon", "")
    coupon = db.execute("SELECT * FROM coupons WHERE code = ?", (code.upper(),)).fetchone()
    if coupon is None:
        raise ToolFailure(f"Coupon code {code!r} does not exist.")
    if order["coupon_code"]:
        raise ToolFailure(
            f"Order {order_id} already uses coupon {order['coupon_code']}; one coupon per order."
        )
    if date.fromisoformat(coupon["expires_on"]) < TODAY:
        raise ToolFailure(f"Coupon {coupon['code']} expired on {coupon['expires_on']}.")
    subtotal = _subtotal(db, order_id)
    if subtotal < coupon["min_subtotal_cents"]:
        raise ToolFailure(
            f"Coupon {coupon['code']} needs a subtotal of at least"
            f" {dollars(coupon['min_subtotal_cents'])}; this order is {dollars(subtotal)}."
        )
    discount = subtotal * coupon["percent_off"] // 100
    db.execute(
        "UPDATE orders SET coupon_code = ?, discount_cents = ? WHERE id = ?",
        (coupon["code"], discount, order_id),
    )
    return {
        "order_id": order_id,
        "coupon_code": coupon["code"],
        "discount_cents": discount,
        "new_total_cents": subtotal - discount,
    }
