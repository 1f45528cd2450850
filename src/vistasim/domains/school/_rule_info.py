"""The rule-based agent's read-only answers (fees, exams, schedule, catalog) and escalation.

These need no confirmation: they read the record, answer in one message and end the task.
"""

from __future__ import annotations

from typing import Any

from vistasim.domains.school._rule_step import Step


def label(exam: dict[str, Any]) -> str:
    """Name an exam the way students do, e.g. "CS101 final"."""
    return f"{exam['course_code']} {exam['kind']}"


def fee_status(step: Step) -> None:
    result, _ = step.call("get_fee_status", student_id=step.state["student_id"])
    unpaid = [f for f in result["fees"] if f["status"] == "unpaid"]
    lines = "; ".join(
        f"{f['fee_id']} {f['description']} {f['amount']} due {f['due_date']}" for f in unpaid
    )
    hold = (
        " You have a financial hold: " + result["financial_hold"] + "."
        if result["financial_hold"]
        else ""
    )
    step.finish(
        f"Your balance due is {result['balance_due']}."
        + (f" Unpaid: {lines}." if lines else "")
        + hold
    )


def exam_schedule(step: Step) -> None:
    result, _ = step.call("get_exam_schedule", student_id=step.state["student_id"])
    exams = [e for e in result["exams"] if step.task["course"] in (None, e["course_code"])]
    lines = "; ".join(
        f"{label(e)} on {e['date']} at {e['start_time']} ({e['room']})" for e in exams
    )
    step.finish(f"Your exams: {lines}." if lines else "You have no exams booked.")


def schedule(step: Step) -> None:
    result, _ = step.call("get_schedule", student_id=step.state["student_id"])
    lines = "; ".join(
        f"{s['section_id']} {s['title']} ({s['days']} {s['start_time']})"
        for s in result["sections"]
    )
    step.finish(
        f"You're enrolled in: {lines} — {result['credits']} credits."
        if lines
        else "You're not enrolled in any course this term."
    )


def course_info(step: Step) -> None:
    course = step.task["course"]
    if course is None:
        step.ask("course", "Which course would you like to know about? (e.g. CS201)")
        return
    result, _ = step.call("list_courses", query=course)
    found = [c for c in result["courses"] if c["code"] == course]
    if not found:
        step.finish(f"I couldn't find {course} in this term's catalog.")
        return
    sections = "; ".join(
        f"{s['section_id']} {s['days']} {s['start_time']} ({s['seats_left']} seats left)"
        for s in found[0]["sections"]
    )
    prereq = f" Prerequisite: {found[0]['prerequisite']}." if found[0]["prerequisite"] else ""
    step.finish(f"{course} {found[0]['title']}: {sections}.{prereq}")


def escalate(step: Step) -> None:
    summary = " / ".join(step.state["messages"])[:1500] or "Student asked for an advisor."
    open_ticket(step, "other", summary)


def open_ticket(step: Step, topic: str, summary: str) -> None:
    args: dict[str, Any] = {"topic": topic, "summary": summary}
    if step.state["verified"]:
        args["student_id"] = step.state["student_id"]
    result, error = step.call("escalate_to_human", **args)
    step.state["offer"] = None
    if error:
        step.finish(f"I couldn't reach an advisor: {error}")
        return
    step.finish(
        f"Done — I've passed your case to an advisor (ticket #{result['ticket_id']}). "
        "They'll contact you within one business day."
    )
