"""The shop site's pages: catalog, product, cart, checkout, orders and account.

Pages read the database directly (read-only) or through tools; every change goes through a
user-side API of `ShopEnvironment`, so the site enforces exactly the policy the agent's tools do.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from vistasim.domains._site import BadRequest, read_form, redirect
from vistasim.domains.shop import _rules
from vistasim.domains.shop._web import LoginNeeded, ShopSite

__all__ = ["add_page_routes"]


def _first(form: dict[str, list[str]], key: str, default: str = "") -> str:
    return (form.get(key) or [default])[0]


def _customer_id(site: ShopSite, request: Request) -> str:
    customer_id: str | None = site.session(request)[1]["customer_id"]
    if customer_id is None:
        raise LoginNeeded
    return customer_id


def _priced(row: dict[str, Any], key: str = "price_cents", as_: str = "price") -> dict[str, Any]:
    return {**row, as_: _rules.dollars(int(row[key]))}


def _agent_read(site: ShopSite, name: str, args: dict[str, Any]) -> Any:
    outcome = site.env.run_tool("agent", name, args)
    if outcome.error is not None:
        status = 404 if "not found" in outcome.error else 422
        raise BadRequest(status, outcome.error)
    return outcome.result


def _cart(site: ShopSite, customer_id: str) -> tuple[list[dict[str, Any]], str]:
    rows = site.env.db.execute(
        "SELECT c.sku, c.quantity, v.option, v.price_cents, p.name FROM cart_items c"
        " JOIN variants v ON v.sku = c.sku JOIN products p ON p.id = v.product_id"
        " WHERE c.customer_id = ? ORDER BY p.name",
        (customer_id,),
    ).fetchall()
    items = [_priced(dict(r)) for r in rows]
    subtotal = sum(r["quantity"] * r["price_cents"] for r in rows)
    return items, _rules.dollars(subtotal)


def _own_order(site: ShopSite, customer_id: str, order_id: str) -> dict[str, Any]:
    if not re.fullmatch(r"[Ww]\d{4}", order_id):
        raise BadRequest(404, f"Order {order_id[:20]!r} was not found.")
    order = _rules.order_view(site.env.db, order_id.upper())
    if order["customer_id"] != customer_id:
        raise BadRequest(404, f"Order {order_id!r} was not found on your account.")
    return order


def add_page_routes(app: FastAPI, site: ShopSite) -> None:
    """Register the HTML pages and their form posts."""
    _add_catalog_routes(app, site)
    _add_cart_routes(app, site)
    _add_order_routes(app, site)


def _add_catalog_routes(app: FastAPI, site: ShopSite) -> None:

    @app.get("/")
    async def catalog(request: Request, q: str = "", category: str = "") -> Response:
        args: dict[str, Any] = {"query": q, "limit": 20}
        if category:
            args["category"] = category
        found = _agent_read(site, "search_products", args)
        categories = [
            r[0]
            for r in site.env.db.execute("SELECT DISTINCT category FROM products ORDER BY category")
        ]
        products = [_priced(p) for p in found["products"]]
        return site.page(
            request,
            "catalog.html",
            title="Catalog",
            q=q,
            category=category,
            categories=categories,
            products=products,
            count=found["count"],
        )

    @app.get("/product/{product_id}")
    async def product(request: Request, product_id: str) -> Response:
        found = _agent_read(site, "get_product", {"product_id": product_id[:10]})
        variants = [_priced(v) for v in found["variants"]]
        return site.page(
            request, "product.html", title=found["name"], product=found, variants=variants
        )

    @app.get("/login")
    async def login_page(request: Request) -> Response:
        return site.page(request, "login.html", title="Log in")

    @app.post("/login")
    async def login(request: Request) -> Response:
        email = _first(await read_form(request), "email").strip()
        found = site.env.run_tool("agent", "find_customer", {"email": email})
        if found.error is not None:
            raise BadRequest(404 if "No customer" in found.error else 422, found.error)
        customer = found.result
        assert isinstance(customer, dict)  # find_customer answers a customer record
        response = redirect("/orders", f"Welcome back, {customer['name']}.")
        sid, session = site.session(request)
        session["customer_id"] = customer["id"]
        site.keep_session(response, sid)
        return response

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        site.session(request)[1]["customer_id"] = None
        return redirect("/", "You are logged out.")

    @app.get("/account")
    async def account(request: Request) -> Response:
        _customer_id(site, request)
        return site.page(request, "account.html", title="Account")


def _add_cart_routes(app: FastAPI, site: ShopSite) -> None:
    @app.get("/cart")
    async def cart(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        items, subtotal = _cart(site, customer_id)
        return site.page(request, "cart.html", title="Cart", items=items, subtotal=subtotal)

    @app.post("/cart/add")
    async def cart_add(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        form = await read_form(request)
        site.run(
            "user",
            "add_to_cart",
            {
                "customer_id": customer_id,
                "sku": _first(form, "sku"),
                "quantity": _first(form, "quantity", "1"),
            },
        )
        return redirect("/cart", "Added to your cart.")

    @app.post("/cart/remove")
    async def cart_remove(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        form = await read_form(request)
        site.run(
            "user", "remove_from_cart", {"customer_id": customer_id, "sku": _first(form, "sku")}
        )
        return redirect("/cart", "Removed from your cart.")

    @app.get("/checkout")
    async def checkout_page(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        _, subtotal = _cart(site, customer_id)
        customer = site.customer(site.session(request)[1])
        return site.page(
            request,
            "checkout.html",
            title="Checkout",
            subtotal=subtotal,
            payments=customer["payment_methods"] if customer else [],
        )

    @app.post("/checkout")
    async def checkout(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        form = await read_form(request)
        placed = site.run(
            "user",
            "checkout",
            {"customer_id": customer_id, "payment_method_id": _first(form, "payment_method_id")},
        )
        return redirect(f"/orders/{placed['order_id']}", "Thank you! Your order is placed.")


def _add_order_routes(app: FastAPI, site: ShopSite) -> None:
    @app.get("/orders")
    async def orders(request: Request) -> Response:
        customer_id = _customer_id(site, request)
        view = _rules.customer_view(site.env.db, customer_id)
        return site.page(request, "orders.html", title="Orders", orders=view["orders"])

    @app.get("/orders/{order_id}")
    async def order(request: Request, order_id: str) -> Response:
        customer_id = _customer_id(site, request)
        view = _own_order(site, customer_id, order_id)
        view["items"] = [_priced(i, "unit_price_cents") for i in view["items"]]
        view["refunds"] = [_priced(r, "amount_cents", "amount") for r in view["refunds"]]
        return site.page(
            request,
            "order.html",
            title=f"Order {view['id']}",
            order=view,
            total=_rules.dollars(view["total_cents"]),
            returnable=view["status"] == "delivered",
            cancellable=view["status"] in ("pending", "processing"),
        )

    @app.post("/orders/{order_id}/cancel")
    async def cancel(request: Request, order_id: str) -> Response:
        customer_id = _customer_id(site, request)
        view = _own_order(site, customer_id, order_id)
        site.run("user", "cancel_my_order", {"customer_id": customer_id, "order_id": view["id"]})
        return redirect(f"/orders/{view['id']}", f"Order {view['id']} has been cancelled.")

    @app.post("/orders/{order_id}/return")
    async def return_items(request: Request, order_id: str) -> Response:
        customer_id = _customer_id(site, request)
        view = _own_order(site, customer_id, order_id)
        form = await read_form(request)
        site.run(
            "user",
            "return_my_items",
            {
                "customer_id": customer_id,
                "order_id": view["id"],
                "skus": form.get("sku", []),
                "reason": _first(form, "reason"),
                "refund_to": _first(form, "refund_to", "original_payment"),
            },
        )
        return redirect(f"/orders/{view['id']}", "Your return is open; a label has been emailed.")
