"""The shop as an environment: its database plus the tools a support agent calls.

Tools are thin: they validate arguments (pydantic), then call the business rules in `_rules`,
which enforce policy.md. User-side APIs (what a customer can do without the agent) live in
`_user_api` and join the same class.
"""

from __future__ import annotations

import sqlite3
from importlib import resources
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from vistasim.domains.shop import _rules
from vistasim.domains.shop._seed import TODAY, seed_shop
from vistasim.domains.shop._user_api import ShopUserApi
from vistasim.env import SqliteEnvironment, ToolFailure, tool

__all__ = ["ShopEnvironment"]

OrderId = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[Ww]\d{4}$")]
Sku = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Zip = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^\d{5}$")]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FindCustomerArgs(_Args):
    """Look a customer up by the email on their account."""

    email: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=254)]


class OrderArgs(_Args):
    """Name one order."""

    order_id: OrderId = Field(description="Order number, e.g. W1001.")


class SearchArgs(_Args):
    """Search the catalog."""

    query: Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)] = ""
    category: str | None = Field(default=None, max_length=40)
    max_price_cents: int | None = Field(default=None, ge=0)
    limit: int = Field(default=5, ge=1, le=20)


class ProductArgs(_Args):
    """Name one product."""

    product_id: Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^P\d{3}$")]


class CancelArgs(OrderArgs):
    """Cancel an order."""

    reason: Text


class ReturnArgs(OrderArgs):
    """Return items of a delivered order."""

    skus: list[Sku] = Field(min_length=1, max_length=10, description="SKUs of the items.")
    reason: Text
    refund_to: Literal["original_payment", "gift_card"] = "original_payment"


class ExchangeArgs(OrderArgs):
    """Exchange one item for another variant of the same product."""

    sku: Sku
    new_sku: Sku
    reason: Text


class AddressArgs(OrderArgs):
    """A new shipping address for an order."""

    address_line: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=3, max_length=120)
    ]
    city: Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=60)]
    zip: Zip


class CouponArgs(OrderArgs):
    """A coupon code for an order."""

    code: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=20)]


class EscalateArgs(_Args):
    """Hand the conversation to a human colleague."""

    summary: Text
    customer_id: str | None = Field(default=None, max_length=10)
    order_id: OrderId | None = None


class ShopEnvironment(ShopUserApi, SqliteEnvironment):
    """An online shop: 54 products, 32 customers with orders in every state, written policy."""

    SCHEMA_SQL: ClassVar[str] = (
        resources.files("vistasim.domains.shop").joinpath("_schema.sql").read_text("utf-8")
    )
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_id": ["order number", "order id", "order #"],
        "email": ["email", "e-mail"],
        "item": ["which item", "which product", "items would you like"],
        "reason": ["reason", "why", "what's wrong"],
        "refund_to": ["refund to", "original payment", "store credit", "gift card"],
        "new_option": ["which size", "which color", "size or color", "instead"],
        "address": ["new address", "shipping address", "street"],
        "coupon_code": ["coupon", "promo code", "discount code"],
        "confirm": ["shall i proceed", "yes/no", "confirm"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill the database with the deterministic catalog, customers and orders."""
        seed_shop(db)

    @property
    def today(self) -> str:
        """The shop's fixed date (ISO), against which windows and expiry are measured."""
        return TODAY.isoformat()

    @tool(
        "Find a customer by the email on their account; returns profile, payment methods and"
        " order numbers. Use it to verify identity before acting on an order."
    )
    def find_customer(self, args: FindCustomerArgs) -> JsonValue:
        """Return the customer whose account email matches."""
        row = self.db.execute(
            "SELECT id FROM customers WHERE email = ? COLLATE NOCASE", (args.email,)
        ).fetchone()
        if row is None:
            raise ToolFailure(f"No customer account uses the email {args.email!r}.")
        return _rules.customer_view(self.db, row[0])

    @tool("Get an order: status, items (with SKUs), totals, payment, shipment and refunds.")
    def get_order(self, args: OrderArgs) -> JsonValue:
        """Return the order's details."""
        return _rules.order_view(self.db, args.order_id.upper())

    @tool("Search the catalog by words in the name/category; optional category and max price.")
    def search_products(self, args: SearchArgs) -> JsonValue:
        """Return matching products with their variants, cheapest first."""
        words = [w for w in args.query.lower().split() if len(w) > 1] or [""]
        rows = self.db.execute(
            "SELECT p.id, p.name, p.category, p.final_sale, MIN(v.price_cents) AS price_cents,"
            " SUM(v.stock) AS stock FROM products p JOIN variants v ON v.product_id = p.id"
            " GROUP BY p.id ORDER BY price_cents, p.id"
        ).fetchall()
        hits: list[JsonValue] = [
            dict(r)
            for r in rows
            if any(w in f"{r['name']} {r['category']}".lower() for w in words)
            and (args.category is None or r["category"] == args.category.lower())
            and (args.max_price_cents is None or r["price_cents"] <= args.max_price_cents)
        ]
        return {"count": len(hits), "products": hits[: args.limit]}

    @tool("Get a product with all its variants (SKU, option, price, stock).")
    def get_product(self, args: ProductArgs) -> JsonValue:
        """Return one product and its variants."""
        row = self.db.execute("SELECT * FROM products WHERE id = ?", (args.product_id,))
        product = row.fetchone()
        if product is None:
            raise ToolFailure(f"Product {args.product_id!r} was not found.")
        variants = self.db.execute(
            "SELECT sku, option, price_cents, stock FROM variants WHERE product_id = ?",
            (args.product_id,),
        )
        return {**dict(product), "variants": [dict(v) for v in variants]}

    @tool(
        "Cancel a pending or processing order; refunds the full amount to the original"
        " payment. Confirm with the customer first."
    )
    def cancel_order(self, args: CancelArgs) -> JsonValue:
        """Cancel the order."""
        return _rules.cancel_order(self.db, args.order_id.upper(), args.reason)

    @tool(
        "Return items of a delivered order (within 30 days, 90 if defective; not final sale)."
        " Refund goes to the original payment or a store gift card once items arrive."
    )
    def return_items(self, args: ReturnArgs) -> JsonValue:
        """Open a return for the items."""
        skus = [s.upper() for s in args.skus]
        return _rules.request_return(
            self.db, args.order_id.upper(), skus, args.reason, args.refund_to
        )

    @tool("Exchange a delivered item for another size/color of the same product (in stock).")
    def exchange_item(self, args: ExchangeArgs) -> JsonValue:
        """Open an exchange."""
        return _rules.exchange_item(
            self.db, args.order_id.upper(), args.sku.upper(), args.new_sku.upper(), args.reason
        )

    @tool("Change the shipping address of a pending or processing order.")
    def update_address(self, args: AddressArgs) -> JsonValue:
        """Change the address."""
        return _rules.update_address(
            self.db, args.order_id.upper(), args.address_line, args.city, args.zip
        )

    @tool("Apply a coupon code to a pending or processing order (one coupon per order).")
    def apply_coupon(self, args: CouponArgs) -> JsonValue:
        """Apply the coupon."""
        return _rules.apply_coupon(self.db, args.order_id.upper(), args.code)

    @tool("Hand the conversation to a human colleague with a short summary; returns a ticket.")
    def escalate_to_human(self, args: EscalateArgs) -> JsonValue:
        """Open an escalation ticket."""
        for table, key in (("customers", args.customer_id), ("orders", args.order_id)):
            if (
                key
                and not self.db.execute(
                    f"SELECT 1 FROM {table} WHERE id = ?", (key.upper(),)
                ).fetchone()
            ):
                raise ToolFailure(f"Unknown {table[:-1]} {key!r}; leave it empty if unknown.")
        cursor = self.db.execute(
            "INSERT INTO escalations (customer_id, order_id, summary, created_on)"
            " VALUES (?, ?, ?, ?)",
            (
                args.customer_id and args.customer_id.upper(),
                args.order_id and args.order_id.upper(),
                args.summary,
                self.today,
            ),
        )
        return {"ticket": f"E{cursor.lastrowid:04d}", "wait": "a colleague replies within 24h"}
