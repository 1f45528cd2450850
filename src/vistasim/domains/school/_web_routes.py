"""The portal's pages and the form posts students send from them.

Form posts change the database through the same tools the agent uses (enroll, drop) or the
student-side APIs (reschedule, pay, request a waiver), so the policy is enforced once.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response

from vistasim.domains._site import BadRequest, redirect
from vistasim.domains.school._web import Portal, read_fields


def _student(portal: Portal, request: Request) -> str:
    _, session = portal.session(request)
    if not session["student_id"]:
        raise BadRequest(401, "Please log in with your student ID and email first.")
    student: str = session["student_id"]
    return student


def add_page_routes(app: FastAPI, portal: Portal) -> None:
    """Register the HTML pages and their form posts."""

    @app.get("/")
    async def home() -> Response:
        return RedirectResponse("/courses", status_code=303)

    @app.get("/login")
    async def login_page(request: Request) -> Response:
        return portal.page(request, "login.html", title="Log in")

    @app.post("/login")
    async def login(request: Request) -> Response:
        form = await read_fields(request)
        args = {"student_id": form.get("student_id", ""), "email": form.get("email", "")}
        result = portal.run("agent", "verify_student", args)
        sid, session = portal.session(request)
        session.update(student_id=result["student_id"], name=result["name"])
        response = redirect("/schedule", f"Welcome, {result['name']}.")
        portal.keep_session(response, sid)
        return response

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        _, session = portal.session(request)
        session.update(student_id=None, name=None)
        return redirect("/login", "You are logged out.")

    @app.get("/courses")
    async def courses(request: Request, q: str = "") -> Response:
        if len(q) > 100:
            raise BadRequest(422, "Search text is limited to 100 characters.")
        result = portal.run("agent", "list_courses", {"query": q or None})
        return portal.page(request, "courses.html", title="Courses", q=q, courses=result["courses"])

    @app.post("/courses/enroll")
    async def enroll(request: Request) -> Response:
        sid = _student(portal, request)
        form = await read_fields(request)
        args = {"student_id": sid, "section_id": form.get("section_id", "")}
        result = portal.run("agent", "enroll_student", args)
        return redirect("/schedule", f"Enrolled in {result['enrolled']}.")

    @app.get("/schedule")
    async def schedule(request: Request) -> Response:
        result = portal.run("agent", "get_schedule", {"student_id": _student(portal, request)})
        return portal.page(request, "schedule.html", title="My schedule", schedule=result)

    @app.post("/schedule/drop")
    async def drop(request: Request) -> Response:
        sid = _student(portal, request)
        form = await read_fields(request)
        result = portal.run(
            "agent", "drop_course", {"student_id": sid, "section_id": form.get("section_id", "")}
        )
        return redirect("/schedule", f"Dropped {result['dropped']}.")

    @app.get("/exams")
    async def exams(request: Request) -> Response:
        sid = _student(portal, request)
        result = portal.run("user", "view_exam_schedule", {"student_id": sid})
        return portal.page(request, "exams.html", title="My exams", exams=result["exams"])

    @app.post("/exams/reschedule")
    async def reschedule(request: Request) -> Response:
        sid = _student(portal, request)
        form = await read_fields(request)
        args: dict[str, Any] = {k: form.get(k, "") for k in ("exam_id", "session_id", "reason")}
        if form.get("note_id"):
            args["note_id"] = form["note_id"]
        result = portal.run("user", "reschedule_exam", {"student_id": sid, **args})
        fee = f" A fee of {result['fee_charged']} was added." if result["fee_charged"] else ""
        return redirect("/exams", f"{result['exam_id']} moved to {result['to']}.{fee}")

    _add_fee_routes(app, portal)


def _add_fee_routes(app: FastAPI, portal: Portal) -> None:
    @app.get("/fees")
    async def fees(request: Request) -> Response:
        result = portal.run("agent", "get_fee_status", {"student_id": _student(portal, request)})
        return portal.page(request, "fees.html", title="Fees", fees=result)

    @app.post("/fees/pay")
    async def pay(request: Request) -> Response:
        sid = _student(portal, request)
        form = await read_fields(request)
        result = portal.run("user", "pay_fee", {"student_id": sid, "fee_id": form.get("fee_id")})
        return redirect("/fees", f"Paid {result['paid']} ({result['amount']}).")

    @app.post("/fees/waiver")
    async def waiver(request: Request) -> Response:
        sid = _student(portal, request)
        form = await read_fields(request)
        args = {"student_id": sid, "fee_id": form.get("fee_id"), "reason": form.get("reason")}
        result = portal.run("user", "request_fee_waiver", args)
        return redirect("/fees", f"Waiver {result['status']}: {result['message']}")
