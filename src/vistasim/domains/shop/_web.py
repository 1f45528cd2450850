"""The shop's web site: server-rendered pages, a chat widget and the user-side APIs over HTTP.

The site and the support agent share one `ShopEnvironment`, so what a customer does in the UI and
what the agent does in chat change the same database under the same policy. Every interactive
control carries a `data-semantic-id` for the simulated user's browser. Text from the database and
from agents is escaped (Jinja2 autoescape; the widget sets `textContent`). Handlers are `async`, so
they run one at a time on the event loop and never race on the database. What all domain sites
share (input limits, sessions, chat, user APIs) is `vistasim.domains._site`; this module holds the
shop's own part: its session, its error page and which tool errors mean "not found".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response

from vistasim.domains._site import BadRequest, Site, create_site_app
from vistasim.domains.shop import _rules
from vistasim.domains.shop._env import ShopEnvironment
from vistasim.env import ToolFailure

__all__ = ["create_app"]

_NOT_FOUND = ("not found", "does not belong", "no product", "unknown tool")


class LoginNeeded(Exception):
    """A page for logged-in customers was asked for without a login; it redirects to /login."""


class ShopSite(Site[ShopEnvironment]):
    """The shop's state shared by the handlers; a session knows the logged-in customer."""

    cookie = "shop_session"
    package = "vistasim.domains.shop"

    def __init__(self, env: ShopEnvironment, agent_factory: Callable[[], Any]) -> None:
        super().__init__(env, agent_factory)
        # APIs that act on a customer's account; a logged-in customer need not repeat their id.
        self.needs_customer = {
            spec.name
            for spec in env.user_tools()
            if "customer_id" in (spec.parameters.get("properties") or {})  # type: ignore[operator]
        }

    def new_session(self) -> dict[str, Any]:
        """Return a session with nobody logged in."""
        return {"customer_id": None}

    def customer(self, session: dict[str, Any]) -> dict[str, Any] | None:
        """Return the logged-in customer's account view, or None."""
        if session["customer_id"] is None:
            return None
        return _rules.customer_view(self.env.db, session["customer_id"])

    def page_context(self, request: Request, session: dict[str, Any]) -> dict[str, Any]:
        """Render every page with the logged-in customer (for the header)."""
        return {"customer": self.customer(session)}

    def error_page(self, request: Request, exc: BadRequest) -> Response:
        """Show the error with a heading for its status and a link back to the page."""
        heading = {404: "Not found", 413: "Too large", 422: "Invalid input"}.get(
            exc.status, "Sorry"
        )
        return self.page(
            request,
            "error.html",
            exc.status,
            title=heading,
            heading=heading,
            message=str(exc),
            back=request.url.path,
        )

    def is_not_found(self, error: str) -> bool:
        """Say whether a tool error names an unknown or foreign customer, order or product."""
        lowered = error.lower()
        return any(s in lowered for s in _NOT_FOUND)

    def list_user_tools(self) -> Any:
        """Return the user-side APIs as a bare list (the shop's `GET /api/user` shape)."""
        return [spec.model_dump(mode="json") for spec in self.env.user_tools()]

    def user_api_args(self, request: Request, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Fill in the logged-in customer's id for APIs on their account, unless given."""
        customer_id = self.session(request)[1]["customer_id"]
        if customer_id is not None and "customer_id" not in args and name in self.needs_customer:
            args["customer_id"] = customer_id
        return args


def create_app(env: ShopEnvironment, agent_factory: Callable[[], Any] | None = None) -> FastAPI:
    """Build the shop's web app on `env`; `agent_factory()` makes one chat agent per session.

    Args:
        env: The shop environment the pages, the APIs and the agents share.
        agent_factory: Makes a support agent (`respond(turn) -> Reply`); default: the rule agent.
    """
    from vistasim.domains.shop._rule_agent import RuleShopAgent
    from vistasim.domains.shop._web_routes import add_page_routes

    site = ShopSite(env, agent_factory or (lambda: RuleShopAgent(env=env)))
    app = create_site_app(site, title="Northwind Goods", add_page_routes=add_page_routes)

    @app.exception_handler(ToolFailure)
    async def not_found(request: Request, exc: ToolFailure) -> Response:
        return site.refusal(request, BadRequest(404, str(exc)))

    @app.exception_handler(LoginNeeded)
    async def to_login(request: Request, exc: LoginNeeded) -> Response:
        return RedirectResponse("/login?error=Please+log+in+first.", status_code=303)

    return app
