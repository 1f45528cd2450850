"""The shop site's routes: catalog, product, cart, checkout, orders, account, chat and user APIs.

Pages read the database directly (read-only) or through tools; every change goes through a
user-side API of `ShopEnvironment`, so the site enforces exactly the policy the agent's tools do.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from vistasim.domains.shop import _rules
from vistasim.domains.shop._web import (
    BadRequest,
    _first,
    _form,
    _json_object,
    _redirect,
    _Site,
    _status_for,
    chat,
)

__all__ = ["add_api_routes", "add_page_routes"]


def _login(site: _Site, request: Request) -> str | None:
    return site.session(request)[1]["customer_id"]


def _to_login() -> RedirectResponse:
    return RedirectResponse("/login?error=Please+log+in+first.", status_code=303)


def _priced(row: dict[str, Any], key: str = "price_cents", as_: str = "price") -> dict[str, Any]:
    return {**row, as_: _rules.dollars(int(row[key]))}


def _agent_read(site: _Site, name: str, args: dict[str, Any]) -> Any:
    outcome = site.env.run_tool("agent", name, args)
    if outcome.error is not None:
        status = 404 if "not found" in outcome.error else 422
        raise BadRequest(status, outcome.error)
    return outcome.result


def _cart(site: _Site, customer_id: str) -> tuple[list[dict[str, Any]], str]:
    rows = site.env.db.execute(
        "SELECT c.sku, c.quantity, v.option, v.price_cents, p.name FROM cart_items c"
        " JOIN variants v ON v.sku = c.sku JOIN products p ON p.id = v.product_id"
        " WHERE c.customer_id = ? ORDER BY p.name",
        (customer_id,),
    ).fetchall()
    items = [_priced(dict(r)) for r in rows]
    subtotal = sum(r["quantity"] * r["price_cents"] for r in rows)
    return items, _rules.dollars(subtotal)


def _own_order(site: _Site, customer_id: str, order_id: str) -> dict[str, Any]:
    if not re.fullmatch(r"[Ww]\d{4}", order_id):
        raise BadRequest(404, f"Order {order_id[:20]!r} was not found.")
    order = _rules.order_view(site.env.db, order_id.upper())
    if order["customer_id"] != customer_id:
        raise BadRequest(404, f"Order {order_id!r} was not found on your account.")
    return order


def add_page_routes(app: FastAPI, site: _Site) -> None:
    """Register the HTML pages and their form posts."""
    _add_catalog_routes(app, site)
    _add_cart_routes(app, site)
    _add_order_routes(app, site)


def _add_catalog_routes(app: FastAPI, site: _Site) -> None:

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
        email = _first(await _form(request), "email").strip()
        found = site.env.run_tool("agent", "find_customer", {"email": email})
        if found.error is not None:
            raise BadRequest(404 if "No customer" in found.error else 422, found.error)
        response = _redirect("/orders", f"Welcome back, {found.result['name']}.")
        sid, session = site.session(request)
        session["customer_id"] = found.result["id"]
        response.set_cookie("shop_session", sid, httponly=True, samesite="lax")
        return response

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        site.session(request)[1]["customer_id"] = None
        return _redirect("/", "You are logged out.")

    @app.get("/account")
    async def account(request: Request) -> Response:
        if _login(site, request) is None:
            return _to_login()
        return site.page(request, "account.html", title="Account")


def _add_cart_routes(app: FastAPI, site: _Site) -> None:
    @app.get("/cart")
    async def cart(request: Request) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        items, subtotal = _cart(site, customer_id)
        return site.page(request, "cart.html", title="Cart", items=items, subtotal=subtotal)

    @app.post("/cart/add")
    async def cart_add(request: Request) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        form = await _form(request)
        site.run(
            "add_to_cart",
            {
                "customer_id": customer_id,
                "sku": _first(form, "sku"),
                "quantity": _first(form, "quantity", "1"),
            },
        )
        return _redirect("/cart", "Added to your cart.")

    @app.post("/cart/remove")
    async def cart_remove(request: Request) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        form = await _form(request)
        site.run("remove_from_cart", {"customer_id": customer_id, "sku": _first(form, "sku")})
        return _redirect("/cart", "Removed from your cart.")

    @app.get("/checkout")
    async def checkout_page(request: Request) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
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
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        form = await _form(request)
        placed = site.run(
            "checkout",
            {"customer_id": customer_id, "payment_method_id": _first(form, "payment_method_id")},
        )
        return _redirect(f"/orders/{placed['order_id']}", "Thank you! Your order is placed.")


def _add_order_routes(app: FastAPI, site: _Site) -> None:
    @app.get("/orders")
    async def orders(request: Request) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        view = _rules.customer_view(site.env.db, customer_id)
        return site.page(request, "orders.html", title="Orders", orders=view["orders"])

    @app.get("/orders/{order_id}")
    async def order(request: Request, order_id: str) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
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
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        view = _own_order(site, customer_id, order_id)
        site.run("cancel_my_order", {"customer_id": customer_id, "order_id": view["id"]})
        return _redirect(f"/orders/{view['id']}", f"Order {view['id']} has been cancelled.")

    @app.post("/orders/{order_id}/return")
    async def return_items(request: Request, order_id: str) -> Response:
        customer_id = _login(site, request)
        if customer_id is None:
            return _to_login()
        view = _own_order(site, customer_id, order_id)
        form = await _form(request)
        site.run(
            "return_my_items",
            {
                "customer_id": customer_id,
                "order_id": view["id"],
                "skus": form.get("sku", []),
                "reason": _first(form, "reason"),
                "refund_to": _first(form, "refund_to", "original_payment"),
            },
        )
        return _redirect(f"/orders/{view['id']}", "Your return is open; a label has been emailed.")


def add_api_routes(app: FastAPI, site: _Site) -> None:
    """Register the chat endpoint and the user-side APIs (JSON)."""
    needs_customer = {
        spec.name
        for spec in site.env.user_tools()
        if "customer_id" in (spec.parameters.get("properties") or {})  # type: ignore[operator]
    }

    @app.post("/api/chat")
    async def chat_endpoint(request: Request) -> Response:
        return await chat(site, request)

    @app.get("/api/user")
    async def user_tools() -> Response:
        return JSONResponse([spec.model_dump() for spec in site.env.user_tools()])

    @app.post("/api/user/{name}")
    async def user_api(request: Request, name: str) -> Response:
        args = await _json_object(request)
        customer_id = _login(site, request)
        # A logged-in customer acts on their own account without repeating their id.
        if customer_id is not None and "customer_id" not in args and name in needs_customer:
            args["customer_id"] = customer_id
        outcome = site.env.run_tool("user", name[:60], args)
        if outcome.error is not None:
            return JSONResponse({"error": outcome.error}, status_code=_status_for(outcome.error))
        return JSONResponse({"result": outcome.result})
