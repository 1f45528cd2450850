"""Snapshots restore every table exactly, and bad input never changes the database."""

from __future__ import annotations

import random

import pytest

from vistasim.domains.school import SchoolEnvironment

TABLES = (
    "students",
    "courses",
    "sections",
    "enrollments",
    "exams",
    "exam_sessions",
    "exam_bookings",
    "fees",
    "fee_waivers",
    "medical_notes",
    "escalations",
)


def dump(env: SchoolEnvironment) -> dict[str, list[dict]]:
    return {table: env.select(table, {}) for table in TABLES}


def random_calls(env: SchoolEnvironment, rng: random.Random, n: int) -> int:
    students = [r["student_id"] for r in env.select("students", {})]
    sections = [r["section_id"] for r in env.select("sections", {})]
    sessions = [r["session_id"] for r in env.select("exam_sessions", {})]
    fees = [r["fee_id"] for r in env.select("fees", {})]
    changed = 0
    for _ in range(n):
        sid = rng.choice(students)
        name, args = rng.choice(
            [
                ("enroll_student", {"student_id": sid, "section_id": rng.choice(sections)}),
                ("drop_course", {"student_id": sid, "section_id": rng.choice(sections)}),
                (
                    "waive_fee",
                    {"student_id": sid, "fee_id": rng.choice(fees), "reason": "goodwill x"},
                ),
                ("escalate_to_human", {"student_id": sid, "topic": "other", "summary": "help me"}),
                ("reschedule_student_exam", _reschedule(rng, sid, sessions)),
            ]
        )
        changed += env.run_tool("agent", name, args).error is None
    return changed


def _reschedule(rng: random.Random, sid: str, sessions: list[str]) -> dict:
    session = rng.choice(sessions)
    return {
        "student_id": sid,
        "exam_id": session.rsplit("-", 1)[0],
        "session_id": session,
        "reason": rng.choice(["personal", "conflict"]),
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_restore_after_random_operations_equals_every_table(seed):
    env = SchoolEnvironment()
    random_calls(env, random.Random(seed), 20)
    before = dump(env)
    snap = env.snapshot()
    changed = random_calls(env, random.Random(seed + 100), 200)
    assert changed > 0
    assert dump(env) != before
    env.restore(snap)
    assert dump(env) == before
    assert env.snapshot() == snap


def test_restore_into_a_fresh_environment():
    env = SchoolEnvironment()
    random_calls(env, random.Random(7), 100)
    other = SchoolEnvironment()
    other.restore(env.snapshot())
    assert dump(other) == dump(env)


def test_environments_do_not_share_state():
    a, b = SchoolEnvironment(), SchoolEnvironment()
    a.run_tool("agent", "escalate_to_human", {"topic": "other", "summary": "only in a"})
    assert b.select("escalations", {}) == []


BAD_INPUTS = [
    ("enroll_student", {"student_id": "S1001'; DROP TABLE students; --", "section_id": "CS201-B"}),
    ("enroll_student", {"student_id": "S1001", "section_id": "CS201-B' OR '1'='1"}),
    ("enroll_student", {"student_id": "S1001"}),
    ("enroll_student", {"student_id": "S1001", "section_id": "CS201-B", "force": True}),
    ("enroll_student", {"student_id": 1001, "section_id": ["CS201-B"]}),
    ("drop_course", {"student_id": "S1001", "section_id": "A" * 100_000}),
    ("escalate_to_human", {"topic": "other", "summary": "x" * 100_000}),
    ("waive_fee", {"student_id": "S1002", "fee_id": "F-1001", "reason": "x" * 5000}),
    ("list_courses", {"query": "q" * 500}),
    ("reschedule_student_exam", {"student_id": "S1001", "exam_id": "EX-MATH201-FIN"}),
    ("look_up_student", {"email": "not an email"}),
    ("no_such_tool", {}),
]


@pytest.mark.parametrize(("name", "args"), BAD_INPUTS)
def test_bad_input_gives_clear_error_and_changes_nothing(name, args):
    env = SchoolEnvironment()
    before = env.snapshot()
    outcome = env.run_tool("agent", name, args)
    assert outcome.error
    assert len(outcome.error) < 2000
    assert env.snapshot() == before


def test_bad_args_error_names_the_field():
    outcome = SchoolEnvironment().run_tool("agent", "enroll_student", {"student_id": "S1001"})
    assert "section_id" in outcome.error


def test_non_dict_args_are_rejected():
    outcome = SchoolEnvironment().run_tool("agent", "get_schedule", "S1001")  # type: ignore[arg-type]
    assert "student_id" in outcome.error
