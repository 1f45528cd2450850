"""What every built-in domain's web site needs, written once: input limits, sessions, chat, APIs.

A domain site is a few server-rendered pages over the domain's environment, plus a chat widget
backed by a support agent and the user-side APIs as JSON. The pages are the domain's own; the
rest is the same everywhere and lives here: request bodies are capped before parsing, forms and
JSON bodies are parsed strictly (bad input is a `BadRequest` with a 4xx and a readable message),
sessions live in a cookie-keyed dict that forgets its oldest entry past a cap, `/api/chat` keeps
one agent and its history per session, and `/api/user` lists and runs the user-side APIs. A
domain subclasses `Site` for its templates, its session fields and how a tool error maps to an
HTTP status.

The sessions are the site's only state besides the environment, and a browser snapshot of a run
carries them (`snapshot_sessions`, `restore_sessions`): who is logged in, the chat history and the
chat agent's own state, per session cookie. An agent that cannot snapshot its state (restore
strategy `replay`) cannot be brought back without calling it again, which would change the
environment; restoring a session with one is a `BrowserError` naming it.
"""

from __future__ import annotations

import inspect
import json
import secrets
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar
from urllib.parse import parse_qs, quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader

from vistasim.agent._types import Reply, Turn, Utterance
from vistasim.env import SqliteEnvironment
from vistasim.errors import BrowserError

__all__ = [
    "MAX_BODY",
    "MAX_MESSAGE",
    "MAX_SESSIONS",
    "BadRequest",
    "Site",
    "chat",
    "create_site_app",
    "read_form",
    "read_json",
    "redirect",
]

MAX_BODY = 64 * 1024
"""Largest accepted request body; bigger ones get 413 before parsing."""
MAX_MESSAGE = 4000
"""Longest chat message the widget accepts."""
MAX_SESSIONS = 500
"""Sessions kept at once; a new one past this forgets the oldest."""

EnvT = TypeVar("EnvT", bound=SqliteEnvironment)


class BadRequest(Exception):
    """Input the site refuses, with the HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


class Site(Generic[EnvT]):
    """What a site's handlers share: the environment, templates, sessions and the chat agents.

    Subclasses set `cookie` and `package` (whose `templates/` and `static/` folders the site
    serves) and say how a tool error maps to an HTTP status and how an error page looks.

    Args:
        env: The environment the pages, the APIs and the agents share.
        agent_factory: Makes one support agent (`respond(turn) -> Reply`) per chat session.
    """

    cookie: ClassVar[str]
    """Name of the session cookie."""
    package: ClassVar[str]
    """The domain package holding `templates/` and `static/`."""

    def __init__(self, env: EnvT, agent_factory: Callable[[], Any]) -> None:
        self.env = env
        self.agent_factory = agent_factory
        self.templates = Environment(
            loader=PackageLoader(self.package, "templates"), autoescape=True
        )
        self.sessions: dict[str, dict[str, Any]] = {}

    def new_session(self) -> dict[str, Any]:
        """Return the domain's fields of a fresh session (who is logged in)."""
        return {}

    def session(self, request: Request) -> tuple[str, dict[str, Any]]:
        """Return the request's session, creating one (and forgetting the oldest) if needed."""
        sid = request.cookies.get(self.cookie, "")
        if sid not in self.sessions:
            sid = secrets.token_urlsafe(16)
            if len(self.sessions) >= MAX_SESSIONS:
                self.sessions.pop(next(iter(self.sessions)))
            self.sessions[sid] = {**self.new_session(), "agent": None, "history": []}
        return sid, self.sessions[sid]

    def snapshot_sessions(self) -> dict[str, Any]:
        """Every session as JSON: its domain fields, chat history and chat agent's state.

        Raises:
            AgentError: A session's agent failed to snapshot (its own `snapshot()` raised).
        """
        return {
            "sessions": [
                {
                    "sid": sid,
                    "fields": {k: v for k, v in session.items() if k not in ("agent", "history")},
                    "history": [[u.role, u.text] for u in session["history"]],
                    "agent": None if session["agent"] is None else _agent_state(session["agent"]),
                }
                for sid, session in self.sessions.items()
            ]
        }

    def restore_sessions(self, state: dict[str, Any]) -> None:
        """Replace every session with those of a `snapshot_sessions()` state.

        Raises:
            BrowserError: The state is not a session snapshot, or a session's chat agent cannot
                be brought back (it has no snapshot of its own).
        """
        sessions: dict[str, dict[str, Any]] = {}
        try:
            for entry in state["sessions"]:
                history = [Utterance(role=role, text=text) for role, text in entry["history"]]
                agent = self._restore_agent(entry["sid"], entry["agent"])
                sessions[entry["sid"]] = {**entry["fields"], "agent": agent, "history": history}
        except (KeyError, TypeError, ValueError) as exc:
            raise BrowserError(f"not a snapshot of the site's sessions ({exc!r})") from None
        self.sessions = sessions

    def _restore_agent(self, sid: str, state: dict[str, Any] | None) -> Any:
        if state is None:
            return None
        strategy = state["strategy"]
        if strategy not in ("state", "stateless"):
            raise BrowserError(
                f"cannot restore the site's chat session {sid[:6]}...: its agent's restore "
                f"strategy is {strategy!r}, so its state is in no snapshot (give the agent "
                "snapshot() and restore())"
            )
        agent = self.agent_factory()
        if strategy == "state":
            agent.restore(state["state"])
        return agent

    def keep_session(self, response: Response, sid: str) -> None:
        """Set the session cookie on `response`."""
        response.set_cookie(self.cookie, sid, httponly=True, samesite="lax")

    def page_context(self, request: Request, session: dict[str, Any]) -> dict[str, Any]:
        """Return what every page of the domain renders with (e.g. the logged-in user)."""
        return {}

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """Render a template with the session's context and any message, and set the cookie."""
        sid, session = self.session(request)
        html = self.templates.get_template(name).render(
            msg=request.query_params.get("msg", "")[:300],
            error=request.query_params.get("error", "")[:300],
            **self.page_context(request, session),
            **context,
        )
        response = HTMLResponse(html, status_code=status)
        self.keep_session(response, sid)
        return response

    def error_page(self, request: Request, exc: BadRequest) -> Response:
        """Render a refused page request; subclasses show their own error template."""
        return self.page(request, "error.html", exc.status, title="Sorry", message=str(exc))

    def refusal(self, request: Request, exc: BadRequest) -> Response:
        """Answer a refused request: JSON under `/api/`, else the error page."""
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        return self.error_page(request, exc)

    def status_for(self, error: str) -> int:
        """Map a tool error to an HTTP status: 422 bad input, 404 unknown id, 409 refusal."""
        if error.startswith("invalid arguments"):
            return 422
        return 404 if self.is_not_found(error) else 409

    def is_not_found(self, error: str) -> bool:
        """Say whether a tool error names something that does not exist (each domain words it)."""
        return error.startswith("unknown tool")

    def run(self, side: str, name: str, args: dict[str, Any]) -> Any:
        """Run a tool; a refusal becomes a `BadRequest` with the status `status_for` gives."""
        outcome = self.env.run_tool(side, name, args)  # type: ignore[arg-type]
        if outcome.error is not None:
            raise BadRequest(self.status_for(outcome.error), outcome.error)
        return outcome.result

    def list_user_tools(self) -> Any:
        """Return the body of `GET /api/user`: the user-side APIs with their schemas."""
        return {"tools": [spec.model_dump(mode="json") for spec in self.env.user_tools()]}

    def user_api_args(self, request: Request, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Return the arguments a user-side API call runs with (domains fill in the session's)."""
        return args


def _agent_state(agent: Any) -> dict[str, Any]:
    """How to bring a session's agent back: its state, or nothing when it keeps none."""
    strategy = getattr(agent, "restore_strategy", None)
    if strategy == "stateless":
        return {"strategy": "stateless"}
    if strategy in ("state", None):
        as_bytes = getattr(agent, "snapshot_bytes", None)  # the run's adapters (GuardedAgent)
        if callable(as_bytes):
            return {"strategy": "state", "state": json.loads(as_bytes())}
        if callable(getattr(agent, "snapshot", None)) and callable(getattr(agent, "restore", None)):
            return {"strategy": "state", "state": agent.snapshot()}
    return {"strategy": strategy or "none"}


async def read_body(request: Request) -> bytes:
    """Return the request body, refusing one larger than `MAX_BODY` with 413."""
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BadRequest(413, f"request body is larger than {MAX_BODY} bytes")
    return body


async def read_form(request: Request, *, max_fields: int = 50) -> dict[str, list[str]]:
    """Parse a small url-encoded form, or refuse with 400."""
    body = await read_body(request)
    try:
        return parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=max_fields)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(400, f"the form could not be read ({exc})") from None


async def read_json(request: Request) -> dict[str, Any]:
    """Parse a JSON object body, or refuse with 400."""
    body = await read_body(request)
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(400, f"the body must be a JSON object ({exc})") from None
    if not isinstance(data, dict):
        raise BadRequest(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def redirect(url: str, msg: str | None = None) -> RedirectResponse:
    """Redirect after a successful form post (303), with a message to show."""
    return RedirectResponse(f"{url}?msg={quote(msg)}" if msg else url, status_code=303)


def create_site_app(
    site: Site[Any], *, title: str, add_page_routes: Callable[[FastAPI, Any], None]
) -> FastAPI:
    """Make the app of `site`: static files, the domain's pages, then chat and user APIs.

    Args:
        site: The domain's site.
        title: The app's title.
        add_page_routes: Registers the domain's pages and form posts on the app.
    """
    app = FastAPI(title=title, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.site = site
    app.mount("/static", StaticFiles(packages=[(site.package, "static")]), name="static")

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> Response:
        return site.refusal(request, exc)

    add_page_routes(app, site)
    _add_api_routes(app, site)
    return app


def _add_api_routes(app: FastAPI, site: Site[Any]) -> None:
    """Register `POST /api/chat` and the user-side APIs (`GET /api/user`, `POST /api/user/x`)."""

    @app.post("/api/chat")
    async def chat_endpoint(request: Request) -> Response:
        return await chat(site, request)

    @app.get("/api/user")
    async def user_tools() -> Response:
        return JSONResponse(site.list_user_tools())

    @app.post("/api/user/{name}")
    async def user_api(request: Request, name: str) -> Response:
        args = site.user_api_args(request, name, await read_json(request))
        outcome = await site.env.call_user_api(name[:60], args)
        if outcome.error is not None:
            return JSONResponse(
                {"error": outcome.error}, status_code=site.status_for(outcome.error)
            )
        return JSONResponse({"result": outcome.result})


async def chat(site: Site[Any], request: Request) -> JSONResponse:
    """Answer one chat message with the session's agent, given the session's history so far."""
    message = (await read_json(request)).get("message")
    if not isinstance(message, str) or not message.strip():
        raise BadRequest(422, 'Send {"message": "..."} with a non-empty text.')
    if len(message) > MAX_MESSAGE:
        raise BadRequest(413, f"Messages are limited to {MAX_MESSAGE} characters.")
    sid, session = site.session(request)
    if session["agent"] is None:
        session["agent"] = site.agent_factory()
    turn = Turn(episode_id=sid, message=message, history=tuple(session["history"]))
    answer = session["agent"].respond(turn)
    # A factory may give a plain (synchronous) agent.
    reply: Reply = await answer if inspect.isawaitable(answer) else answer
    session["history"] += [
        Utterance(role="user", text=message),
        Utterance(role="agent", text=reply.text),
    ]
    calls = [call.model_dump(mode="json", exclude={"kind"}) for call in reply.tool_calls]
    response = JSONResponse({"reply": reply.text, "tool_calls": calls})
    site.keep_session(response, sid)
    return response
