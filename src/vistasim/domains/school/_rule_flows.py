"""The rule-based agent's dialogue flows: one function per task, asking one thing at a time.

Each flow looks at the task's slots, asks for the first missing one or proposes the change and
asks "Shall I proceed (yes/no)?"; the change runs only after a yes (except on the F3 path).
"""

from __future__ import annotations

import re
from typing import Any

from vistasim.domains.school import _rule_info as info
from vistasim.domains.school._parse import Facts
from vistasim.domains.school._rule_info import label
from vistasim.domains.school._rule_step import ANYTHING_ELSE, NEEDS_IDENTITY, PROCEED, Step


def advance(step: Step) -> None:
    """Move the current task one step: identity first, then the task's own flow."""
    task = step.task
    if task["intent"] in NEEDS_IDENTITY and not step.state["verified"] and not _identify(step):
        return
    FLOWS[task["intent"]](step)


def _identify(step: Step) -> bool:
    state = step.state
    if not state["student_id"]:
        step.ask("student_id", "What's your student ID?")
        return False
    if not state["email"]:
        step.ask("email", "Thanks. What's the email address on your student record?")
        return False
    result, error = step.call(
        "verify_student", student_id=state["student_id"], email=state["email"]
    )
    if error and "No student" in error:
        step.ask(
            "student_id",
            f"I can't find student ID {state['student_id']}. Could you check "
            "it? It looks like S1234.",
        )
        state["student_id"] = None
        return False
    if error:
        step.ask(
            "email",
            f"That email doesn't match our records for {state['student_id']}. Could you check it?",
        )
        state["email"] = None
        return False
    state["verified"] = True
    state["name"] = result["name"]
    step.say(f"Thanks, {result['name'].split()[0]}, you're verified.")
    return True


def _enroll(step: Step) -> None:
    task = step.task
    course = task["course"] or (task["section"] or "")[:-2] or None
    if course is None:
        step.ask("course", "Which course would you like to enroll in? (e.g. CS201)")
        return
    task["course"] = course
    if task["section"] is None or not task["section"].startswith(course + "-"):
        result, _ = step.call("list_courses", query=course, only_open=True)
        found = [c for c in (result or {}).get("courses", []) if c["code"] == course]
        if not found:
            step.offer_escalation(
                "enrollment",
                f"{course}: no open section",
                f"Sorry — there are no open sections of {course} right now.",
            )
            return
        task["section"] = found[0]["sections"][0]["section_id"]
        task["lab_fee_cents"] = int(found[0].get("lab_fee_cents") or 0)
        meets = found[0]["sections"][0]
        task["detail"] = (
            f"{meets['days']} {meets['start_time']}-{meets['end_time']}, " + meets["instructor"]
        )
    detail = f" ({task['detail']})" if task.get("detail") else ""
    _propose(
        step,
        "enroll_student",
        {"section_id": task["section"]},
        f"I can enroll you in section {task['section']}{detail}.{_lab_fee_note(step, course)}",
    )


def _lab_fee_note(step: Step, course: str) -> str:
    """The lab fee the enrollment adds, said before the yes (policy: state any fee)."""
    cents = step.task.get("lab_fee_cents")
    if cents is None:
        result, _ = step.call("list_courses", query=course)
        found = [c for c in (result or {}).get("courses", []) if c["code"] == course]
        cents = int(found[0].get("lab_fee_cents") or 0) if found else 0
        step.task["lab_fee_cents"] = cents
    return f" It adds a lab fee of ${cents / 100:.2f} (due in 14 days)." if cents else ""


def _drop(step: Step) -> None:
    task = step.task
    if task["course"] is None:
        step.ask("course", "Which course would you like to drop? (e.g. HIST110)")
        return
    result, _ = step.call("get_schedule", student_id=step.state["student_id"])
    sections = (result or {}).get("sections", [])
    match = next((s for s in sections if s["course_code"] == task["course"]), None)
    if match is None:
        names = ", ".join(s["course_code"] for s in sections) or "none"
        step.finish(f"You're not enrolled in {task['course']} this term (your courses: {names}).")
        return
    task["section"] = match["section_id"]
    _propose(
        step,
        "drop_course",
        {"section_id": match["section_id"]},
        f"I'll drop {match['section_id']} ({match['title']}); its exams will be cancelled.",
    )


def _reschedule(step: Step) -> None:
    task = step.task
    if task["course"] is None:
        step.ask("course", "Which course is the exam for? (e.g. CS101)")
        return
    exam = task["exam"] or _find_exam(step)
    if exam is None:
        return
    if not exam["can_reschedule"] and "once" in (exam["why_not"] or ""):
        step.offer_escalation(
            "exams",
            f"second move of {exam['exam_id']}",
            f"Your {label(exam)} was already rescheduled once, so another "
            "change needs the Exams Office.",
        )
        return
    upfront = _move_args(step, exam) if task["day_upfront"] else None
    if upfront is not None:
        # Flaw F3: a date given with the request takes the express path, which books at once
        # and skips the reason question, the fee notice and the confirmation.
        _note_flaw("school:F3")
        _execute(step, "reschedule_student_exam", upfront)
        return
    _reschedule_details(step, exam)


def _reschedule_details(step: Step, exam: dict[str, Any]) -> None:
    if not _notice_ok(step, exam):
        return
    slots = step.task["slots"]
    options = ", ".join(f"{s['date']} {s['start_time']}" for s in exam["other_sessions"])
    if not slots.get("day"):
        step.ask("day", f"Which date would you like to move it to? Available: {options}.")
    elif _move_args(step, exam) is None:
        missing = slots.pop("day")
        step.ask(
            "day",
            f"There's no open session of your {label(exam)} on {missing}. Available: {options}.",
        )
    elif not slots.get("reason"):
        step.ask(
            "reason", "What's the reason for the change: personal, medical, or an exam conflict?"
        )
    elif slots["reason"] == "medical" and not slots.get("note_id"):
        step.ask(
            "note_id",
            "What's the number of your medical note from the Health Centre "
            "(it looks like MN-1234)?",
        )
    else:
        _propose_move(step, exam)


def _notice_ok(step: Step, exam: dict[str, Any]) -> bool:
    """Whether the exam may be moved as far as the notice period goes; else say why."""
    reason = step.task["slots"].get("reason")
    if exam["can_reschedule"] or reason == "medical":
        return True
    if reason is not None:
        step.finish(
            f"I'm afraid your {label(exam)} on {exam['date']} can't be moved: it is less than "
            "3 days away, and then only a medical reason is accepted."
        )
        return False
    step.ask(
        "reason_medical",
        f"Your {label(exam)} is on {exam['date']}, less than 3 days away, so it can only be "
        "moved for a medical reason, with a Health Centre note. Is this for a medical reason?",
    )
    return False


FEE_NOTICE = {
    "personal": "Because this is for a personal reason, a $25.00 reschedule fee will be added to "
    "your account.",
    "conflict": "Exam-conflict moves are free.",
    "medical": "Medical moves are free.",
}


def _propose_move(step: Step, exam: dict[str, Any]) -> None:
    target = _move_args(step, exam) or {}
    _propose(
        step,
        "reschedule_student_exam",
        target,
        f"I'll move your {label(exam)} from {exam['date']} {exam['start_time']} to "
        f"{target['_when']}. {FEE_NOTICE[step.task['slots']['reason']]}",
    )


def _find_exam(step: Step) -> dict[str, Any] | None:
    task = step.task
    result, _ = step.call("get_exam_schedule", student_id=step.state["student_id"])
    exams = [e for e in (result or {}).get("exams", []) if e["course_code"] == task["course"]]
    kind = task["slots"].get("exam_kind")
    if kind:
        exams = [e for e in exams if e["kind"] == kind]
    if not exams:
        what = f"{task['course']} {kind or 'exam'}"
        step.finish(f"I don't see a booked {what} on your schedule.")
        return None
    if len(exams) > 1:
        kinds = " or ".join(f"the {e['kind']}" for e in exams)
        step.ask("exam_kind", f"Is that {kinds}?")
        return None
    exam: dict[str, Any] = exams[0]
    task["exam"] = exam
    return exam


def _move_args(step: Step, exam: dict[str, Any]) -> dict[str, Any] | None:
    slots = step.task["slots"]
    session = next((s for s in exam["other_sessions"] if s["date"] == slots.get("day")), None)
    if session is None:
        return None
    args = {
        "exam_id": exam["exam_id"],
        "session_id": session["session_id"],
        "reason": slots.get("reason") or "personal",
        "_when": f"{session['date']} {session['start_time']}",
    }
    if slots.get("note_id"):
        args["note_id"] = slots["note_id"]
    return args


def _waive(step: Step) -> None:
    task, slots = step.task, step.task["slots"]
    result, _ = step.call("get_fee_status", student_id=step.state["student_id"])
    unpaid = [f for f in (result or {}).get("fees", []) if f["status"] == "unpaid"]
    fee = next((f for f in unpaid if f["fee_id"] == slots.get("fee_id")), None)
    fee = fee or next((f for f in unpaid if f["kind"] == slots.get("fee_kind")), None)
    if fee is None and len(unpaid) == 1:
        fee = unpaid[0]
    if fee is None:
        if not unpaid:
            step.finish("You have no unpaid fees, so there's nothing to waive.")
            return
        listing = "; ".join(f"{f['fee_id']} ({f['description']}, {f['amount']})" for f in unpaid)
        slots["fee_id"] = slots["fee_kind"] = None
        step.ask("fee", f"Which fee would you like waived? Your unpaid fees: {listing}.")
        return
    if fee["kind"] in ("tuition", "lab"):
        step.offer_escalation(
            "fees",
            f"waiver request for {fee['fee_id']}",
            f"{fee['description']} can't be waived by Student Services; you can "
            "request a waiver from Financial Aid in the portal.",
        )
        return
    task["section"] = fee["fee_id"]
    _propose(
        step,
        "waive_fee",
        {"fee_id": fee["fee_id"], "reason": "Goodwill waiver via chat"},
        f"I can waive {fee['fee_id']} ({fee['description']}, {fee['amount']}) as a one-time "
        "goodwill gesture.",
    )


def _propose(step: Step, tool: str, args: dict[str, Any], text: str) -> None:
    step.task["pending"] = {"tool": tool, "args": args}
    step.ask("confirm", f"{text} {PROCEED}")


def answer_confirmation(step: Step, facts: Facts) -> None:
    """Act on a yes, or cancel (or take a correction) on a no.

    Flaw F4: a reply that starts with "yes" runs the proposed change as it stands, even when
    the same message changes a detail ("yes, but make it section B") or takes the yes back
    ("okay, hmm, wait, no, not yet").
    """
    task = step.task
    if facts.yes:
        if _amends(task, facts) or _takes_back(facts.text):
            _note_flaw("school:F4")
        _execute(step, task["pending"]["tool"], task["pending"]["args"])
        return
    if facts.courses or facts.sections or facts.day or facts.reason:
        # In "no, not X — it's Y" the value being corrected is the one just proposed.
        courses = [c for c in facts.courses if c != task["course"]]
        sections = [s for s in facts.sections if s != task["section"]]
        task["course"] = sections[0][:-2] if sections else (courses or [task["course"]])[0]
        task["section"] = sections[0] if sections else None
        task["exam"], task["detail"], task["day_upfront"] = None, None, False
        for key in ("day", "reason"):
            task["slots"][key] = getattr(facts, key) or task["slots"].get(key)
        advance(step)
        return
    step.finish("No problem — I haven't changed anything.")


def _amends(task: dict[str, Any], facts: Facts) -> bool:
    """Whether a yes also changes the proposal ("yes, but make it section B")."""
    proposed = {str(v) for v in task["pending"]["args"].values()}
    named = [*facts.courses, *facts.sections]
    return any(not any(value in p for p in proposed) for value in named)


def _takes_back(text: str) -> bool:
    """Whether a reply that starts with yes goes on to hold or refuse ("okay... wait, no")."""
    return bool(_TAKE_BACK.search(text))


_TAKE_BACK = re.compile(
    r"\b(no|not yet|wait|hold on|don'?t|do not|let me think|not sure)\b", re.IGNORECASE
)


def _note_flaw(flaw: str) -> None:
    from vistasim.testing import note_flaw_now  # ground truth for benchmarks only

    note_flaw_now(flaw)


def _execute(step: Step, tool: str, args: dict[str, Any]) -> None:
    clean = {k: v for k, v in args.items() if not k.startswith("_")}
    result, error = step.call(tool, student_id=step.state["student_id"], **clean)
    if error:
        if "escalate" in error.lower():
            step.offer_escalation(_TOPICS[tool], error, f"I couldn't do that: {error}")
        else:
            step.finish(f"I couldn't do that: {error}")
        return
    step.finish(DONE[tool](result))


def answer_medical(step: Step, facts: Facts) -> None:
    """Take a yes/no to "is this for a medical reason?" for an exam inside the notice period."""
    if facts.yes or facts.reason == "medical":
        step.task["slots"]["reason"] = "medical"
        step.task["slots"]["note_id"] = step.task["slots"].get("note_id") or facts.note_id
        advance(step)
        return
    step.finish(
        "Then I'm afraid it can't be moved: exams less than 3 days away can only be moved for "
        "a medical reason."
    )


def answer_offer(step: Step, facts: Facts) -> None:
    """Escalate on yes to the offer of an advisor; drop the offer on no."""
    offer = step.state["offer"]
    step.state["offer"] = None
    if facts.yes:
        if _takes_back(facts.text):  # F4 again: the yes at the start wins
            _note_flaw("school:F4")
        info.open_ticket(step, offer["topic"], offer["summary"])
    else:
        step.say("Okay.", ANYTHING_ELSE)


def course_hint(facts: Facts) -> str:
    """Answer a bare course mention: ask what to do with it."""
    return f"What would you like to do with {facts.courses[0]}: enroll, drop, or its exams?"


_TOPICS = {
    "enroll_student": "enrollment",
    "drop_course": "enrollment",
    "reschedule_student_exam": "exams",
    "waive_fee": "fees",
}
DONE = {
    "enroll_student": lambda r: (
        f"Done — you're enrolled in {r['enrolled']} ({r['course']}, "
        f"{r['meets']})."
        + (f" A lab fee of {r['lab_fee']} has been added." if r["lab_fee"] else "")
    ),
    "drop_course": lambda r: (
        f"Done — {r['dropped']} has been dropped. You now have {r['credits_this_term']} credits."
    ),
    "reschedule_student_exam": lambda r: (
        f"Done — your exam {r['exam_id']} is now on {r['to']} in "
        f"{r['room']}."
        + (
            f" A reschedule fee of {r['fee_charged']} has been added to your account."
            if r["fee_charged"]
            else ""
        )
    ),
    "waive_fee": lambda r: f"Done — fee {r['waived']} ({r['amount']}) has been waived.",
}
FLOWS = {
    "enroll": _enroll,
    "drop": _drop,
    "reschedule_exam": _reschedule,
    "waive_fee": _waive,
    "fee_status": info.fee_status,
    "exam_schedule": info.exam_schedule,
    "schedule": info.schedule,
    "course_info": info.course_info,
    "escalate": info.escalate,
}
