"""The school's student portal: server-rendered pages, a chat widget and user-side APIs.

The portal and the support agent share one `SchoolEnvironment`, so what a student does in the
UI and what the agent does in chat change the same rows under the same policy. Every control
carries a `data-semantic-id` for the simulated user's browser; database and agent text is
escaped (Jinja2 autoescape, and the widget sets `textContent`). Bad input gets a 4xx with a
readable message and never reaches the database unvalidated. What all domain sites share (input
limits, sessions, chat, user APIs) is `vistasim.domains._site`; this module holds the portal's
own part: the student in the session and which tool errors mean "not found".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request

from vistasim.domains._site import Site, create_site_app, read_form
from vistasim.domains.school._env import SchoolEnvironment

__all__ = ["create_app"]

_NOT_FOUND_PREFIXES = ("No student", "No section", "No fee", "unknown tool")
_NOT_FOUND_PARTS = ("has no scheduled booking", "is not a session of")


class Portal(Site[SchoolEnvironment]):
    """What the handlers share: the environment, templates, and sessions (student + agent)."""

    cookie = "school_session"
    package = "vistasim.domains.school"

    def new_session(self) -> dict[str, Any]:
        """Return a session with no student logged in."""
        return {"student_id": None, "name": None}

    def page_context(self, request: Request, session: dict[str, Any]) -> dict[str, Any]:
        """Render every page with the logged-in student and the current path (for the nav)."""
        return {"student": session if session["student_id"] else None, "path": request.url.path}

    def is_not_found(self, error: str) -> bool:
        """Say whether a tool error names an unknown student, section, fee or exam session."""
        return error.startswith(_NOT_FOUND_PREFIXES) or any(s in error for s in _NOT_FOUND_PARTS)


async def read_fields(request: Request) -> dict[str, str]:
    """Parse a small url-encoded form (first value of each field)."""
    form = await read_form(request, max_fields=20)
    return {key: values[0] for key, values in form.items()}


def create_app(env: SchoolEnvironment, agent_factory: Callable[[], Any] | None = None) -> FastAPI:
    """Build the student portal on `env`; `agent_factory()` makes one chat agent per session.

    Args:
        env: The school environment the pages, the APIs and the agents share.
        agent_factory: Makes a support agent (`respond(turn) -> Reply`); default: the rule agent.
    """
    from vistasim.domains.school._rule_agent import RuleSchoolAgent
    from vistasim.domains.school._web_routes import add_page_routes

    portal = Portal(env, agent_factory or (lambda: RuleSchoolAgent(env=env)))
    app = create_site_app(portal, title="Northgate Student Portal", add_page_routes=add_page_routes)
    app.state.portal = portal
    return app
