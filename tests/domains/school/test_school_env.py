"""Every school tool: the success path and each policy refusal or error."""

from __future__ import annotations

import hashlib
import json

import pytest

from vistasim.domains.school import SchoolEnvironment
from vistasim.env import Environment


@pytest.fixture
def env() -> SchoolEnvironment:
    return SchoolEnvironment()


def ok(env: SchoolEnvironment, name: str, side: str = "agent", **args):
    outcome = env.run_tool(side, name, args)
    assert outcome.error is None, outcome.error
    return outcome.result


def fails(env: SchoolEnvironment, name: str, side: str = "agent", **args) -> str:
    outcome = env.run_tool(side, name, args)
    assert outcome.error is not None, outcome.result
    return outcome.error


def count(env: SchoolEnvironment, table: str, **where) -> int:
    return len(env.select(table, where))


def test_environment_satisfies_protocol(env):
    assert isinstance(env, Environment)


def test_seed_is_large_enough(env):
    assert count(env, "courses") >= 20
    assert count(env, "students") >= 30
    assert count(env, "enrollments", status="enrolled") >= 60
    assert count(env, "exam_sessions") >= 40
    assert count(env, "fees") >= 30


SEED_DIGESTS = {
    "enrollments": (229, "165849bb0c6d1412"),
    "fees": (75, "4eec1c19af221f4a"),
    "exam_bookings": (245, "31edb87925e3e3d1"),
}


@pytest.mark.parametrize("table", sorted(SEED_DIGESTS))
def test_seed_is_deterministic_across_processes(env, table):
    rows = env.select(table, {})
    digest = hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()[:16]
    assert (len(rows), digest) == SEED_DIGESTS[table]


def test_tool_lists_split_agent_and_user_sides(env):
    agent = {t.name for t in env.agent_tools()}
    user = {t.name for t in env.user_tools()}
    assert {"enroll_student", "drop_course", "reschedule_student_exam", "waive_fee"} <= agent
    assert user == {"view_exam_schedule", "reschedule_exam", "request_fee_waiver", "pay_fee"}
    assert all(t.parameters["type"] == "object" for t in env.agent_tools())


def test_look_up_student_by_id_and_email(env):
    by_id = ok(env, "look_up_student", student_id="s1001")
    by_email = ok(env, "look_up_student", email="MAYA.CHEN@uni.example.edu")
    assert by_id["name"] == by_email["name"] == "Maya Chen"
    assert by_id["credits_this_term"] == 10


def test_look_up_student_shows_financial_hold(env):
    assert "unpaid" in ok(env, "look_up_student", student_id="S1004")["financial_hold"]


def test_look_up_student_errors(env):
    assert "S9999" in fails(env, "look_up_student", student_id="S9999")
    assert "nobody@x.org" in fails(env, "look_up_student", email="nobody@x.org")
    assert "student_id" in fails(env, "look_up_student")


def test_verify_student_accepts_matching_email(env):
    assert ok(env, "verify_student", student_id="S1002", email="omar.haddad@uni.example.edu")[
        "verified"
    ]


def test_verify_student_rejects_other_email(env):
    assert "does not match" in fails(
        env, "verify_student", student_id="S1002", email="maya.chen@uni.example.edu"
    )


def test_list_courses_filters_by_query_and_open_seats(env):
    found = ok(env, "list_courses", query="data structures", only_open=True)["courses"]
    assert [c["code"] for c in found] == ["CS201"]
    assert [s["section_id"] for s in found[0]["sections"]] == ["CS201-B"]


def test_list_courses_treats_sql_text_as_plain_text(env):
    assert ok(env, "list_courses", query="' OR 1=1 --")["count"] == 0


def test_get_schedule_lists_current_sections(env):
    result = ok(env, "get_schedule", student_id="S1003")
    assert result["credits"] == 15
    assert len(result["sections"]) == 4


def test_enroll_student_books_exams(env):
    result = ok(env, "enroll_student", student_id="S1001", section_id="CS201-B")
    assert result["credits_this_term"] == 14
    assert count(env, "enrollments", student_id="S1001", section_id="CS201-B") == 1
    assert count(env, "exam_bookings", student_id="S1001", exam_id="EX-CS201-FIN") == 1


def test_enroll_in_lab_course_bills_lab_fee(env):
    result = ok(env, "enroll_student", student_id="S1001", section_id="CHEM101-B")
    assert result["lab_fee"] == "$110.00"
    assert count(env, "fees", student_id="S1001", kind="lab", course_code="CHEM101") == 1


@pytest.mark.parametrize(
    ("student_id", "section_id", "message"),
    [
        ("S1001", "CS201-A", "is full"),
        ("S1006", "CS201-B", "requires CS101"),
        ("S1004", "CS101-B", "financial hold"),
        ("S1007", "CS101-B", "on leave"),
        ("S1008", "BIO101-A", "max 18"),
        ("S1001", "MATH201-B", "already enrolled in MATH201"),
        ("S1001", "CS101-C", "already completed CS101"),
        ("S1001", "MATH210-A", "clashes with HIST110-A"),
        ("S1001", "ZZZ999-A", "No section"),
        ("S9999", "CS101-B", "No student"),
    ],
)
def test_enroll_student_enforces_policy(env, student_id, section_id, message):
    before = env.snapshot()
    assert message in fails(env, "enroll_student", student_id=student_id, section_id=section_id)
    assert env.snapshot() == before


def test_drop_course_cancels_exams_and_unpaid_lab_fee(env):
    unpaid_lab = env.select("fees", {"student_id": "S1011", "kind": "lab"})[0]["status"]
    result = ok(env, "drop_course", student_id="S1011", section_id="ART120-A")
    assert result["credits_this_term"] == 9
    assert result["lab_fee_cancelled"] == (unpaid_lab == "unpaid")
    assert (
        env.select("exam_bookings", {"student_id": "S1011", "exam_id": "EX-ART120-FIN"})[0][
            "status"
        ]
        == "cancelled"
    )
    assert count(env, "enrollments", student_id="S1011", section_id="ART120-A", status="dropped")


def test_drop_course_not_enrolled(env):
    assert "not enrolled in CS101-A" in fails(
        env, "drop_course", student_id="S1001", section_id="CS101-A"
    )


def test_drop_course_keeps_international_minimum(env):
    assert "international" in fails(env, "drop_course", student_id="S1012", section_id="STAT200-B")


def test_exam_schedule_marks_near_exam_unmovable(env):
    exams = ok(env, "get_exam_schedule", student_id="S1003")["exams"]
    placement = next(e for e in exams if e["exam_id"] == "EX-MATH101-PLA")
    assert placement["can_reschedule"] is False
    assert placement["other_sessions"][0]["session_id"] == "EX-MATH101-PLA-2"


def test_reschedule_personal_charges_fee(env):
    result = ok(
        env,
        "reschedule_student_exam",
        student_id="S1001",
        exam_id="ex-math201-fin",
        session_id="EX-MATH201-FIN-2",
        reason="personal",
    )
    assert result["fee_charged"].startswith("$25.00")
    booking = env.select("exam_bookings", {"student_id": "S1001", "exam_id": "EX-MATH201-FIN"})[0]
    assert (booking["session_id"], booking["reschedule_count"]) == ("EX-MATH201-FIN-2", 1)
    assert count(env, "fees", student_id="S1001", kind="reschedule", status="unpaid") == 1


def test_reschedule_conflict_is_free_when_exams_clash(env):
    result = ok(
        env,
        "reschedule_student_exam",
        student_id="S1005",
        exam_id="EX-PSYC250-FIN",
        session_id="EX-PSYC250-FIN-2",
        reason="conflict",
    )
    assert result["fee_charged"] is None


def test_reschedule_medical_overrides_notice_period(env):
    result = ok(
        env,
        "reschedule_student_exam",
        student_id="S1003",
        exam_id="EX-MATH101-PLA",
        session_id="EX-MATH101-PLA-2",
        reason="medical",
        note_id="MN-4821",
    )
    assert result["to"].startswith("2026-09-25")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {
                "student_id": "S1003",
                "exam_id": "EX-MATH101-PLA",
                "session_id": "EX-MATH101-PLA-2",
                "reason": "personal",
            },
            "2 day(s) away",
        ),
        (
            {
                "student_id": "S1003",
                "exam_id": "EX-MATH101-PLA",
                "session_id": "EX-MATH101-PLA-2",
                "reason": "medical",
            },
            "note number",
        ),
        (
            {
                "student_id": "S1005",
                "exam_id": "EX-PHIL101-FIN",
                "session_id": "EX-PHIL101-FIN-2",
                "reason": "medical",
                "note_id": "MN-3307",
            },
            "more than 14 days",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-MATH201-FIN",
                "session_id": "EX-MATH201-FIN-2",
                "reason": "medical",
                "note_id": "MN-4821",
            },
            "No medical note",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-MATH201-FIN",
                "session_id": "EX-MATH201-FIN-2",
                "reason": "conflict",
            },
            "not an exam conflict",
        ),
        (
            {
                "student_id": "S1010",
                "exam_id": "EX-MATH210-FIN",
                "session_id": "EX-MATH210-FIN-3",
                "reason": "personal",
            },
            "already rescheduled once",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-HIST110-FIN",
                "session_id": "EX-HIST110-FIN-2",
                "reason": "personal",
            },
            "is full",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-MATH201-FIN",
                "session_id": "EX-STAT200-FIN-2",
                "reason": "personal",
            },
            "not a session of",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-MATH201-FIN",
                "session_id": "EX-MATH201-FIN-1",
                "reason": "personal",
            },
            "already booked",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-CS101-FIN",
                "session_id": "EX-CS101-FIN-2",
                "reason": "personal",
            },
            "no scheduled booking",
        ),
        (
            {
                "student_id": "S1001",
                "exam_id": "EX-MATH201-FIN",
                "session_id": "EX-MATH201-FIN-2",
                "reason": "boredom",
            },
            "invalid arguments",
        ),
    ],
)
def test_reschedule_enforces_policy(env, args, message):
    before = env.snapshot()
    assert message in fails(env, "reschedule_student_exam", **args)
    assert env.snapshot() == before


def test_fee_status_reports_balance(env):
    result = ok(env, "get_fee_status", student_id="S1004")
    unpaid = sum(f["amount_cents"] for f in result["fees"] if f["status"] == "unpaid")
    assert unpaid >= 480000
    assert result["balance_due"] == f"${unpaid / 100:,.2f}"
    assert result["financial_hold"]


def test_waive_fee_waives_late_fee_once(env):
    late = env.select("fees", {"student_id": "S1002", "kind": "late_payment"})[0]["fee_id"]
    ok(env, "waive_fee", student_id="S1002", fee_id=late, reason="first time I was late")
    assert env.select("fees", {"fee_id": late})[0]["status"] == "waived"
    assert count(env, "fee_waivers", student_id="S1002", status="approved") == 1


def test_waive_fee_refuses_second_goodwill_waiver(env):
    fee = env.select("fees", {"student_id": "S1009", "kind": "reschedule"})[0]["fee_id"]
    assert "already received a goodwill waiver" in fails(
        env, "waive_fee", student_id="S1009", fee_id=fee, reason="please waive this one"
    )


def test_waive_fee_refuses_tuition(env):
    tuition = env.select("fees", {"student_id": "S1004", "kind": "tuition"})[0]["fee_id"]
    assert "cannot be waived" in fails(
        env, "waive_fee", student_id="S1004", fee_id=tuition, reason="cannot afford it now"
    )


def test_waive_fee_refuses_paid_and_foreign_fees(env):
    paid = env.select("fees", {"student_id": "S1001", "kind": "tuition"})[0]["fee_id"]
    assert "already paid" in fails(
        env, "waive_fee", student_id="S1001", fee_id=paid, reason="refund me please"
    )
    assert "No fee" in fails(env, "waive_fee", student_id="S1002", fee_id=paid, reason="x" * 12)


def test_escalate_to_human_opens_ticket(env):
    result = ok(env, "escalate_to_human", student_id="S1010", topic="exams", summary="2nd move")
    assert result["ticket_id"] == 1
    assert count(env, "escalations", student_id="S1010", topic="exams") == 1


def test_escalate_rejects_unknown_topic(env):
    assert "topic" in fails(env, "escalate_to_human", topic="gossip", summary="hello there")


def test_user_api_reschedule_exam(env):
    result = ok(
        env,
        "reschedule_exam",
        side="user",
        student_id="S1002",
        exam_id="EX-ECON301-FIN",
        session_id="EX-ECON301-FIN-3",
        reason="personal",
    )
    assert result["session_id"] == "EX-ECON301-FIN-3"


def test_user_api_reschedule_fails_inside_notice_period(env):
    assert "day(s) away" in fails(
        env,
        "reschedule_exam",
        side="user",
        student_id="S1006",
        exam_id="EX-ENGL101-PLA",
        session_id="EX-ENGL101-PLA-2",
        reason="personal",
    )


def test_user_api_view_exam_schedule(env):
    assert ok(env, "view_exam_schedule", side="user", student_id="S1005")["exams"]


def test_user_api_waiver_request_decisions(env):
    late = env.select("fees", {"student_id": "S1002", "kind": "late_payment"})[0]["fee_id"]
    tuition = env.select("fees", {"student_id": "S1004", "kind": "tuition"})[0]["fee_id"]
    resched = env.select("fees", {"student_id": "S1009", "kind": "reschedule"})[0]["fee_id"]
    reason = "I was in hospital that week"
    args = {"side": "user", "reason": reason}
    assert (
        ok(env, "request_fee_waiver", student_id="S1002", fee_id=late, **args)["status"]
        == "approved"
    )
    assert (
        ok(env, "request_fee_waiver", student_id="S1004", fee_id=tuition, **args)["status"]
        == "pending"
    )
    assert (
        ok(env, "request_fee_waiver", student_id="S1009", fee_id=resched, **args)["status"]
        == "denied"
    )
    assert "already pending" in fails(
        env, "request_fee_waiver", student_id="S1004", fee_id=tuition, **args
    )


def test_user_api_pay_fee_then_pay_again_fails(env):
    tuition = env.select("fees", {"student_id": "S1004", "kind": "tuition"})[0]["fee_id"]
    ok(env, "pay_fee", side="user", student_id="S1004", fee_id=tuition)
    assert "already paid" in fails(env, "pay_fee", side="user", student_id="S1004", fee_id=tuition)
    assert ok(env, "look_up_student", student_id="S1004")["financial_hold"] is None


def test_agent_cannot_call_user_api(env):
    assert "unknown tool" in fails(env, "pay_fee", student_id="S1004", fee_id="F-1001")


async def test_call_tool_is_async_entry_point(env):
    outcome = await env.call_tool("get_schedule", {"student_id": "S1001"})
    assert outcome.result["credits"] == 10
    outcome = await env.call_user_api("view_exam_schedule", {"student_id": "S1001"})
    assert outcome.error is None
