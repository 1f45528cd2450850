"""A tiny order book: the demo agent's environment (orders, items, a user-side tracking API)."""

from __future__ import annotations

import sqlite3
from typing import Any

from pydantic import BaseModel, Field

from vistasim.env import SqliteEnvironment, ToolFailure, tool

SCHEMA = """
CREATE TABLE customers (email TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE orders (
    id TEXT PRIMARY KEY, email TEXT NOT NULL REFERENCES customers(email),
    status TEXT NOT NULL, carrier TEXT, eta TEXT
);
CREATE TABLE order_items (
    order_id TEXT NOT NULL REFERENCES orders(id), sku TEXT NOT NULL, name TEXT NOT NULL,
    price REAL NOT NULL, status TEXT NOT NULL DEFAULT 'ok', PRIMARY KEY (order_id, sku)
);
"""

CUSTOMERS = [
    ("dana.reyes@example.com", "Dana Reyes"),
    ("sam.okafor@example.com", "Sam Okafor"),
    ("lee.chen@example.com", "Lee Chen"),
]
ORDERS = [
    ("W1001", "dana.reyes@example.com", "processing", None, None),
    ("W1002", "sam.okafor@example.com", "shipped", "UPS", "2026-12-03"),
    ("W1007", "dana.reyes@example.com", "delivered", "FedEx", None),
    ("W1010", "lee.chen@example.com", "delivered", "DHL", None),
]
ITEMS = [
    ("W1001", "LAMP-2", "desk lamp", 39.0),
    ("W1002", "KETTLE-1", "kettle", 29.5),
    ("W1007", "BLEND-1", "blender", 89.0),
    ("W1007", "TOAST-3", "toaster", 45.0),
    ("W1010", "MUG-4", "mug set", 24.0),
    ("W1010", "PAN-9", "frying pan", 55.0),
]


class OrderRef(BaseModel):
    """An order id."""

    order_id: str = Field(max_length=32, description="Order number, e.g. W1007")


class ItemRef(BaseModel):
    """An item of an order."""

    order_id: str = Field(max_length=32)
    sku: str = Field(max_length=32, description="Item SKU, e.g. BLEND-1")


class OrderBook(SqliteEnvironment):
    """Orders that can be looked up, cancelled (before shipping) and returned (after delivery)."""

    SCHEMA_SQL = SCHEMA
    LEXICON = {
        "order_id": ["order number", "order id", "order #", "which order"],
        "email": ["email", "e-mail"],
        "item": ["which item", "which product", "what item"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        """Insert the demo customers, orders and items."""
        db.executemany("INSERT INTO customers VALUES (?, ?)", CUSTOMERS)
        db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?)", ORDERS)
        db.executemany(
            "INSERT INTO order_items (order_id, sku, name, price) VALUES (?, ?, ?, ?)", ITEMS
        )

    def _order(self, order_id: str) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM orders WHERE id = ?", (order_id.upper(),)).fetchone()
        if row is None:
            raise ToolFailure(f"order {order_id!r} not found")
        items = self.db.execute(
            "SELECT sku, name, price, status FROM order_items WHERE order_id = ?", (row["id"],)
        )
        return {**dict(row), "items": [dict(item) for item in items]}

    @tool("Look up an order with its items and status.")
    def get_order(self, args: OrderRef) -> dict[str, Any]:
        """Return the order."""
        return self._order(args.order_id)

    @tool("Cancel an order that has not shipped yet.")
    def cancel_order(self, args: OrderRef) -> dict[str, Any]:
        """Cancel a processing order."""
        order = self._order(args.order_id)
        if order["status"] != "processing":
            raise ToolFailure(
                f"order {order['id']} is {order['status']} and can no longer be cancelled"
            )
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order["id"],))
        return {"order_id": order["id"], "status": "cancelled"}

    @tool("Start a return for one delivered item; the refund goes to the original payment.")
    def return_item(self, args: ItemRef) -> dict[str, Any]:
        """Mark a delivered item as return requested."""
        order = self._order(args.order_id)
        if order["status"] != "delivered":
            raise ToolFailure(
                f"order {order['id']} is {order['status']}; only delivered items can be returned"
            )
        item = next((i for i in order["items"] if i["sku"] == args.sku.upper()), None)
        if item is None:
            raise ToolFailure(f"order {order['id']} has no item {args.sku!r}")
        self.db.execute(
            "UPDATE order_items SET status = 'return_requested' WHERE order_id = ? AND sku = ?",
            (order["id"], item["sku"]),
        )
        return {"order_id": order["id"], "sku": item["sku"], "status": "return_requested"}

    @tool("Track the shipment of an order.", side="user")
    def track_shipment(self, args: OrderRef) -> dict[str, Any]:
        """Carrier and ETA of a shipped order."""
        order = self._order(args.order_id)
        if order["status"] != "shipped":
            raise ToolFailure(f"order {order['id']} is {order['status']}, not in transit")
        return {"order_id": order["id"], "carrier": order["carrier"], "eta": order["eta"]}
