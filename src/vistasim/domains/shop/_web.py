"""The shop's web site: server-rendered pages, a chat widget and the user-side APIs over HTTP.

The site and the support agent share one `ShopEnvironment`, so what a customer does in the UI and
what the agent does in chat change the same database under the same policy. Every interactive
control carries a `data-semantic-id` for the simulated user's browser. Text from the database and
from agents is escaped (Jinja2 autoescape; the widget sets `textContent`). Handlers are `async`, so
they run one at a time on the event loop and never race on the database.
"""

from __future__ import annotations

import inspect
import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader

from vistasim.agent._types import Turn
from vistasim.domains.shop import _rules
from vistasim.domains.shop._env import ShopEnvironment
from vistasim.env import ToolFailure

__all__ = ["create_app"]

COOKIE = "shop_session"
MAX_BODY = 64 * 1024
"""Largest accepted request body; bigger ones get 413 before parsing."""
MAX_MESSAGE = 4000
MAX_SESSIONS = 500


class BadRequest(Exception):
    """Input the site refuses, with the HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


class _Site:
    """State shared by the handlers: the environment, templates and chat sessions."""

    def __init__(self, env: ShopEnvironment, agent_factory: Callable[[], Any]) -> None:
        self.env = env
        self.agent_factory = agent_factory
        self.templates = Environment(
            loader=PackageLoader("vistasim.domains.shop", "templates"), autoescape=True
        )
        self.sessions: dict[str, dict[str, Any]] = {}

    def session(self, request: Request) -> tuple[str, dict[str, Any]]:
        sid = request.cookies.get(COOKIE, "")
        if sid not in self.sessions:
            sid = secrets.token_urlsafe(16)
            if len(self.sessions) >= MAX_SESSIONS:  # forget the oldest session
                self.sessions.pop(next(iter(self.sessions)))
            self.sessions[sid] = {"customer_id": None, "agent": None}
        return sid, self.sessions[sid]

    def customer(self, session: dict[str, Any]) -> dict[str, Any] | None:
        if session["customer_id"] is None:
            return None
        return _rules.customer_view(self.env.db, session["customer_id"])

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        sid, session = self.session(request)
        html = self.templates.get_template(name).render(
            customer=self.customer(session),
            msg=request.query_params.get("msg", "")[:300],
            error=request.query_params.get("error", "")[:300],
            **context,
        )
        response = HTMLResponse(html, status_code=status)
        response.set_cookie(COOKIE, sid, httponly=True, samesite="lax")
        return response

    def error_page(self, request: Request, status: int, message: str, back: str = "/") -> Response:
        heading = {404: "Not found", 413: "Too large", 422: "Invalid input"}.get(status, "Sorry")
        return self.page(
            request,
            "error.html",
            status,
            title=heading,
            heading=heading,
            message=message,
            back=back,
        )

    def run(self, name: str, args: dict[str, Any]) -> Any:
        outcome = self.env.run_tool("user", name, args)
        if outcome.error is not None:
            raise BadRequest(_status_for(outcome.error), outcome.error)
        return outcome.result


def _status_for(error: str) -> int:
    if error.startswith("invalid arguments"):
        return 422
    lowered = error.lower()
    if any(s in lowered for s in ("not found", "does not belong", "no product", "unknown tool")):
        return 404
    return 409


async def _body(request: Request) -> bytes:
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    return body


async def _form(request: Request) -> dict[str, list[str]]:
    body = await _body(request)
    try:
        return parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(400, f"the form could not be read ({exc})") from None


async def _json_object(request: Request) -> dict[str, Any]:
    body = await _body(request)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(400, f"the body must be a JSON object ({exc})") from None
    if not isinstance(data, dict):
        raise BadRequest(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def _first(form: dict[str, list[str]], key: str, default: str = "") -> str:
    return (form.get(key) or [default])[0]


def _redirect(url: str, msg: str | None = None) -> RedirectResponse:
    target = f"{url}?msg={quote(msg)}" if msg else url
    return RedirectResponse(target, status_code=303)


def create_app(env: ShopEnvironment, agent_factory: Callable[[], Any] | None = None) -> FastAPI:
    """Build the shop's web app on `env`; `agent_factory()` makes one chat agent per session.

    Args:
        env: The shop environment the pages, the APIs and the agents share.
        agent_factory: Makes a support agent (`respond(turn) -> Reply`); default: the rule agent.
    """
    from vistasim.domains.shop._rule_agent import RuleShopAgent
    from vistasim.domains.shop._web_routes import add_api_routes, add_page_routes

    site = _Site(env, agent_factory or (lambda: RuleShopAgent(env=env)))
    app = FastAPI(title="Northwind Goods", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.site = site
    app.mount("/static", StaticFiles(packages=[("vistasim.domains.shop", "static")]), name="static")

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        return site.error_page(request, exc.status, str(exc), back=request.url.path)

    @app.exception_handler(ToolFailure)
    async def not_found(request: Request, exc: ToolFailure) -> Response:
        return await bad_request(request, BadRequest(404, str(exc)))

    add_page_routes(app, site)
    add_api_routes(app, site)
    return app


async def chat(site: _Site, request: Request) -> JSONResponse:
    """Answer one chat message with the session's agent; report its tool calls."""
    data = await _json_object(request)
    message = data.get("message")
    if not isinstance(message, str) or not message.strip():
        raise BadRequest(422, "'message' must be a non-empty string")
    if len(message) > MAX_MESSAGE:
        raise BadRequest(413, f"'message' is longer than {MAX_MESSAGE} characters")
    sid, session = site.session(request)
    if session["agent"] is None:
        session["agent"] = site.agent_factory()
    answer = session["agent"].respond(Turn(episode_id=sid, message=message))
    reply = await answer if inspect.isawaitable(answer) else answer
    calls = [c.model_dump(exclude={"kind"}) for c in reply.tool_calls]
    response = JSONResponse({"reply": reply.text, "tool_calls": calls})
    response.set_cookie(COOKIE, sid, httponly=True, samesite="lax")
    return response
