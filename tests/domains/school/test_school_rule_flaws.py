"""The rule agent's documented flaws (README: F1-F4) fail under their trigger behaviour.

Each test pairs the trigger with the control conversation that does not trigger it, so the
flaw is shown to depend on the user behaviour and not on the task.
"""

from __future__ import annotations

from .helpers import HANNAH, MAYA, chat, make_agent, tools_called


def enrolled(env, student_id: str, section_id: str) -> bool:
    rows = env.select("enrollments", {"student_id": student_id, "section_id": section_id})
    return any(r["status"] == "enrolled" for r in rows)


async def test_f1_correction_during_identity_is_ignored():
    env, agent = make_agent()
    await chat(
        agent,
        "I'd like to enroll in ECON102",
        f"{MAYA[0]} - oh sorry, I meant PHIL101, not ECON102",
        MAYA[1],
        "yes",
    )
    assert enrolled(env, "S1001", "ECON102-A")
    assert not enrolled(env, "S1001", "PHIL101-A")


async def test_f1_control_without_correction_enrolls_requested_course():
    env, agent = make_agent()
    await chat(agent, "I'd like to enroll in PHIL101", *MAYA, "yes")
    assert enrolled(env, "S1001", "PHIL101-A")


async def test_f2_two_courses_in_one_request_only_first_dropped():
    env, agent = make_agent()
    replies = await chat(agent, "Please drop MATH201 and HIST110", *MAYA, "yes")
    assert not enrolled(env, "S1001", "MATH201-A")
    assert enrolled(env, "S1001", "HIST110-A")
    assert "HIST110" not in replies[-1].text


async def test_f2_control_one_course_per_request_drops_both():
    env, agent = make_agent()
    await chat(agent, "Please drop MATH201", *MAYA, "yes", "Please drop HIST110", "yes")
    assert not enrolled(env, "S1001", "MATH201-A")
    assert not enrolled(env, "S1001", "HIST110-A")


async def test_f3_date_given_up_front_skips_reason_fee_notice_and_confirmation():
    env, agent = make_agent()
    replies = await chat(agent, "Can I move my PSYC250 final to December 16?", *HANNAH)
    assert tools_called(replies)[-1] == "reschedule_student_exam"
    assert "Shall I proceed" not in " ".join(r.text for r in replies)
    booking = env.select("exam_bookings", {"student_id": "S1005", "exam_id": "EX-PSYC250-FIN"})
    # Her PSYC250 and STAT200 finals clash: a free "conflict" move, but she was charged $25.
    assert booking[0]["reschedule_reason"] == "personal"
    assert len(env.select("fees", {"student_id": "S1005", "kind": "reschedule"})) == 1


async def test_f3_control_date_given_when_asked_gets_reason_question():
    env, agent = make_agent()
    replies = await chat(
        agent,
        "Can I move my PSYC250 final?",
        *HANNAH,
        "December 16",
        "it clashes with my STAT200 final",
        "yes",
    )
    assert "reason" in replies[3].text
    assert not env.select("fees", {"student_id": "S1005", "kind": "reschedule"})


async def test_f4_yes_but_change_runs_the_original_proposal():
    env, agent = make_agent()
    await chat(
        agent, "enroll me in BIO101", *MAYA, "yes, but please make it BIO101-B, I work mornings"
    )
    assert enrolled(env, "S1001", "BIO101-A")
    assert not enrolled(env, "S1001", "BIO101-B")


async def test_f4_control_no_with_change_gets_the_change():
    env, agent = make_agent()
    await chat(agent, "enroll me in BIO101", *MAYA, "no, please make it BIO101-B", "yes")
    assert enrolled(env, "S1001", "BIO101-B")
    assert not enrolled(env, "S1001", "BIO101-A")
