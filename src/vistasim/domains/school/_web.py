"""The school's student portal: server-rendered pages, a chat widget and user-side APIs.

The portal and the support agent share one `SchoolEnvironment`, so what a student does in the
UI and what the agent does in chat change the same rows under the same policy. Every control
carries a `data-semantic-id` for the simulated user's browser; database and agent text is
escaped (Jinja2 autoescape, and the widget sets `textContent`). Bad input gets a 4xx with a
readable message and never reaches the database unvalidated.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader

from vistasim.domains.school._env import SchoolEnvironment
from vistasim.env import ToolOutcome

__all__ = ["create_app"]

COOKIE = "school_session"
MAX_BODY = 64 * 1024
"""Largest accepted request body; bigger ones get 413 before parsing."""
MAX_MESSAGE = 4000
"""Longest chat message the widget accepts."""
MAX_SESSIONS = 500


class BadRequest(Exception):
    """Input the portal refuses, with the HTTP status and a message for the student."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


class Portal:
    """What the handlers share: the environment, templates, and sessions (student + agent)."""

    def __init__(self, env: SchoolEnvironment, agent_factory: Callable[[], Any]) -> None:
        self.env = env
        self.agent_factory = agent_factory
        self.templates = Environment(
            loader=PackageLoader("vistasim.domains.school", "templates"), autoescape=True
        )
        self.sessions: dict[str, dict[str, Any]] = {}

    def session(self, request: Request) -> tuple[str, dict[str, Any]]:
        """Return the request's session, creating one (and forgetting the oldest) if needed."""
        sid = request.cookies.get(COOKIE, "")
        if sid not in self.sessions:
            sid = secrets.token_urlsafe(16)
            if len(self.sessions) >= MAX_SESSIONS:
                self.sessions.pop(next(iter(self.sessions)))
            self.sessions[sid] = {"student_id": None, "name": None, "agent": None}
        return sid, self.sessions[sid]

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render a template with the session's student and any message, and set the cookie."""
        sid, session = self.session(request)
        html = self.templates.get_template(name).render(
            student=session if session["student_id"] else None,
            msg=request.query_params.get("msg", "")[:300],
            error=request.query_params.get("error", "")[:300],
            path=request.url.path,
            **context,
        )
        response = HTMLResponse(html, status_code=status)
        response.set_cookie(COOKIE, sid, httponly=True, samesite="lax")
        return response

    def run(self, side: str, name: str, args: dict[str, Any]) -> Any:
        """Run a tool; a refusal becomes a `BadRequest` with a fitting status."""
        outcome: ToolOutcome = self.env.run_tool(side, name, args)  # type: ignore[arg-type]
        if outcome.error is not None:
            raise BadRequest(status_for(outcome.error), outcome.error)
        return outcome.result


def status_for(error: str) -> int:
    """Map a tool error to an HTTP status: 422 bad input, 404 unknown id, 409 policy refusal."""
    if error.startswith("invalid arguments"):
        return 422
    if error.startswith(("No student", "No section", "No fee", "unknown tool")) or any(
        s in error for s in ("has no scheduled booking", "is not a session of")
    ):
        return 404
    return 409


async def read_form(request: Request) -> dict[str, str]:
    """Parse a small url-encoded form (first value of each field)."""
    body = await _body(request)
    try:
        form = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(400, f"the form could not be read ({exc})") from None
    return {key: values[0] for key, values in form.items()}


async def read_json(request: Request) -> dict[str, Any]:
    """Parse a JSON object body, or refuse with 400."""
    body = await _body(request)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(400, f"the body must be a JSON object ({exc})") from None
    if not isinstance(data, dict):
        raise BadRequest(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


async def _body(request: Request) -> bytes:
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    return body


def redirect(url: str, msg: str | None = None) -> RedirectResponse:
    """Redirect after a successful form post (303), with a message to show."""
    return RedirectResponse(f"{url}?msg={quote(msg)}" if msg else url, status_code=303)


def create_app(env: SchoolEnvironment, agent_factory: Callable[[], Any] | None = None) -> FastAPI:
    """Build the student portal on `env`; `agent_factory()` makes one chat agent per session.

    Args:
        env: The school environment the pages, the APIs and the agents share.
        agent_factory: Makes a support agent (`respond(turn) -> Reply`); default: the rule agent.
    """
    from vistasim.domains.school._rule_agent import RuleSchoolAgent
    from vistasim.domains.school._web_routes import add_api_routes, add_page_routes

    portal = Portal(env, agent_factory or (lambda: RuleSchoolAgent(env=env)))
    app = FastAPI(title="Northgate Student Portal", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.portal = portal
    app.mount(
        "/static", StaticFiles(packages=[("vistasim.domains.school", "static")]), name="static"
    )

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        return portal.page(request, "error.html", exc.status, title="Sorry", message=str(exc))

    add_page_routes(app, portal)
    add_api_routes(app, portal)
    return app
