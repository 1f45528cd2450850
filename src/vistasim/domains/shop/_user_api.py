"""What a shop customer can do without the support agent: self-service APIs.

These are the user-side APIs of the simulated user (api and hybrid modes) and the actions behind
the web site's buttons, so chat, web and API all change the same database under the same policy.
A customer acts only on their own account: each call names the customer and is checked against it.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from vistasim.domains.shop import _rules
from vistasim.domains.shop._seed import TODAY
from vistasim.env import ToolFailure, tool

__all__ = ["ShopUserApi"]

CustomerId = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^C\d{4}$")]
OrderId = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[Ww]\d{4}$")]
Sku = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TrackArgs(_Args):
    """Track the parcel of an order."""

    order_id: OrderId


class RefundStatusArgs(_Args):
    """Check refunds of an order; the email must be the account's."""

    order_id: OrderId
    email: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=254)]


class CartArgs(_Args):
    """Put a product variant in the customer's cart."""

    customer_id: CustomerId
    sku: Sku
    quantity: int = Field(default=1, ge=1, le=10)


class CartItemArgs(_Args):
    """Name an item in the customer's cart."""

    customer_id: CustomerId
    sku: Sku


class CheckoutArgs(_Args):
    """Place an order for everything in the cart."""

    customer_id: CustomerId
    payment_method_id: Annotated[str, StringConstraints(pattern=r"^PM\d{4}$")]


class MyOrderArgs(_Args):
    """Cancel one of the customer's own orders."""

    customer_id: CustomerId
    order_id: OrderId
    reason: Text = "cancelled online"


class MyReturnArgs(_Args):
    """Return items of one of the customer's own orders."""

    customer_id: CustomerId
    order_id: OrderId
    skus: list[Sku] = Field(min_length=1, max_length=10)
    reason: Text
    refund_to: Literal["original_payment", "gift_card"] = "original_payment"


class ShopUserApi:
    """Self-service operations; mixed into `ShopEnvironment` (needs its `db`)."""

    db: sqlite3.Connection

    @tool(
        "Track the shipment of an order: carrier, status, last update and expected delivery.",
        side="user",
    )
    def track_shipment(self, args: TrackArgs) -> JsonValue:
        """Return the order's shipment."""
        order = _rules.load_order(self.db, args.order_id.upper())
        row = self.db.execute(
            "SELECT tracking_number, carrier, status, last_update, eta FROM shipments"
            " WHERE order_id = ?",
            (order["id"],),
        ).fetchone()
        if row is None:
            raise ToolFailure(
                f"Order {order['id']} is {order['status']} and has no shipment to track yet."
            )
        return dict(row)

    @tool(
        "Check the refunds of an order (amount, method, pending/issued); needs the account's"
        " email.",
        side="user",
    )
    def check_refund_status(self, args: RefundStatusArgs) -> JsonValue:
        """Return the order's refunds, if the email owns the order."""
        view = _rules.order_view(self.db, args.order_id.upper())
        if str(view["customer_email"]).lower() != args.email.lower():
            raise ToolFailure(f"The email {args.email!r} does not match order {view['id']}.")
        if not view["refunds"]:
            raise ToolFailure(f"Order {view['id']} has no refunds.")
        return {"order_id": view["id"], "refunds": view["refunds"]}

    @tool("Add a product variant to the customer's cart.", side="user")
    def add_to_cart(self, args: CartArgs) -> JsonValue:
        """Add to the cart (quantities add up, at most 10 per item)."""
        self._customer(args.customer_id)
        variant = self.db.execute(
            "SELECT stock FROM variants WHERE sku = ?", (args.sku.upper(),)
        ).fetchone()
        if variant is None:
            raise ToolFailure(f"No product variant with SKU {args.sku!r}.")
        row = self.db.execute(
            "SELECT quantity FROM cart_items WHERE customer_id = ? AND sku = ?",
            (args.customer_id, args.sku.upper()),
        ).fetchone()
        quantity = args.quantity + (row[0] if row else 0)
        if quantity > min(variant[0], 10):
            raise ToolFailure(f"Only {min(variant[0], 10)} of {args.sku.upper()} can be ordered.")
        self.db.execute(
            "INSERT OR REPLACE INTO cart_items VALUES (?, ?, ?)",
            (args.customer_id, args.sku.upper(), quantity),
        )
        return {"sku": args.sku.upper(), "quantity": quantity}

    @tool("Remove an item from the customer's cart.", side="user")
    def remove_from_cart(self, args: CartItemArgs) -> JsonValue:
        """Remove the item."""
        cursor = self.db.execute(
            "DELETE FROM cart_items WHERE customer_id = ? AND sku = ?",
            (args.customer_id, args.sku.upper()),
        )
        if cursor.rowcount == 0:
            raise ToolFailure(f"{args.sku!r} is not in the cart.")
        return {"removed": args.sku.upper()}

    @tool("Place an order for the cart with one of the customer's payment methods.", side="user")
    def checkout(self, args: CheckoutArgs) -> JsonValue:
        """Create a pending order from the cart and empty it."""
        customer = self._customer(args.customer_id)
        payment = self.db.execute(
            "SELECT id FROM payment_methods WHERE id = ? AND customer_id = ?",
            (args.payment_method_id, args.customer_id),
        ).fetchone()
        if payment is None:
            raise ToolFailure(f"Payment method {args.payment_method_id!r} is not on this account.")
        cart = self.db.execute(
            "SELECT c.sku, c.quantity, v.price_cents, v.stock, p.name FROM cart_items c"
            " JOIN variants v ON v.sku = c.sku JOIN products p ON p.id = v.product_id"
            " WHERE c.customer_id = ?",
            (args.customer_id,),
        ).fetchall()
        if not cart:
            raise ToolFailure("The cart is empty.")
        order_id = self._next_order_id()
        self.db.execute(
            "INSERT INTO orders VALUES (?, ?, 'pending', ?, NULL, ?, ?, ?, ?, NULL, 0)",
            (
                order_id,
                args.customer_id,
                TODAY.isoformat(),
                args.payment_method_id,
                customer["address_line"],
                customer["city"],
                customer["zip"],
            ),
        )
        for item in cart:
            if item["quantity"] > item["stock"]:
                raise ToolFailure(f"{item['name']} ({item['sku']}) is out of stock.")
            self.db.execute(
                "INSERT INTO order_items VALUES (?, ?, ?, ?, ?, 'ordered')",
                (order_id, item["sku"], item["name"], item["quantity"], item["price_cents"]),
            )
            self.db.execute(
                "UPDATE variants SET stock = stock - ? WHERE sku = ?",
                (item["quantity"], item["sku"]),
            )
        self.db.execute("DELETE FROM cart_items WHERE customer_id = ?", (args.customer_id,))
        return {"order_id": order_id, "status": "pending"}

    @tool("Cancel one of the customer's own orders (pending or processing only).", side="user")
    def cancel_my_order(self, args: MyOrderArgs) -> JsonValue:
        """Cancel the order if it belongs to the customer."""
        self._own_order(args.customer_id, args.order_id)
        return _rules.cancel_order(self.db, args.order_id.upper(), args.reason)

    @tool("Return items of one of the customer's own delivered orders.", side="user")
    def return_my_items(self, args: MyReturnArgs) -> JsonValue:
        """Open a return if the order belongs to the customer."""
        self._own_order(args.customer_id, args.order_id)
        skus = [s.upper() for s in args.skus]
        return _rules.request_return(
            self.db, args.order_id.upper(), skus, args.reason, args.refund_to
        )

    def _customer(self, customer_id: str) -> sqlite3.Row:
        query = "SELECT * FROM customers WHERE id = ?"
        row: sqlite3.Row | None = self.db.execute(query, (customer_id,)).fetchone()
        if row is None:
            raise ToolFailure(f"Customer {customer_id!r} was not found.")
        return row

    def _own_order(self, customer_id: str, order_id: str) -> None:
        order = _rules.load_order(self.db, order_id.upper())
        if order["customer_id"] != customer_id:
            raise ToolFailure(f"Order {order['id']} does not belong to customer {customer_id}.")

    def _next_order_id(self) -> str:
        row = self.db.execute("SELECT MAX(CAST(SUBSTR(id, 2) AS INTEGER)) FROM orders")
        return f"W{row.fetchone()[0] + 1}"
