"""The rule-based agent handles the common paths well, one question at a time."""

from __future__ import annotations

from vistasim.agent import AgentAdapter

from .helpers import HANNAH, JONAS, MAYA, OMAR, PRIYA, chat, make_agent, tools_called


def test_rule_agent_is_an_agent_adapter():
    _, agent = make_agent()
    assert isinstance(agent, AgentAdapter)
    assert agent.restore_strategy == "state"


async def test_asks_for_id_then_email_one_at_a_time():
    _, agent = make_agent()
    first, second = await chat(agent, "I'd like to enroll in CS201", MAYA[0])
    assert first.text == "What's your student ID?"
    assert "email" in second.text
    assert first.tool_calls == second.tool_calls == ()


async def test_enroll_common_path_picks_open_section_and_confirms():
    env, agent = make_agent()
    replies = await chat(agent, "Hi, please enroll me in Data Structures", *MAYA, "yes")
    assert "CS201-B" in replies[2].text and "Shall I proceed (yes/no)?" in replies[2].text
    assert replies[3].text.startswith("Done — you're enrolled in CS201-B")
    assert env.select("enrollments", {"student_id": "S1001", "section_id": "CS201-B"})
    assert tools_called(replies) == ["verify_student", "list_courses", "enroll_student"]


async def test_no_at_confirmation_changes_nothing():
    env, agent = make_agent()
    before = env.snapshot()
    replies = await chat(agent, "enroll me in CS201", *MAYA, "no thanks")
    assert "haven't changed anything" in replies[-1].text
    assert env.snapshot() == before


async def test_no_with_a_correction_reproposes_the_corrected_course():
    env, agent = make_agent()
    replies = await chat(agent, "enroll me in CS201", *MAYA, "no, I meant PHIL101", "yes")
    assert "PHIL101-A" in replies[-2].text
    assert env.select("enrollments", {"student_id": "S1001", "section_id": "PHIL101-A"})


async def test_tool_refusal_is_explained():
    env, agent = make_agent()
    replies = await chat(agent, "enroll me in CS201", "S1006", "daniel.okafor@uni.example.edu")
    replies += await chat(agent, "yes")
    assert "requires CS101" in replies[-1].text
    assert replies[-1].tool_calls[0].error


async def test_wrong_email_is_not_verified_and_nothing_is_shared():
    _, agent = make_agent()
    replies = await chat(agent, "what do I owe?", MAYA[0], OMAR[1])
    assert "doesn't match" in replies[-1].text
    assert tools_called(replies) == ["verify_student"]
    assert "$" not in replies[-1].text


async def test_unknown_student_id_is_reported():
    _, agent = make_agent()
    replies = await chat(agent, "what do I owe?", "S9999", "x@uni.example.edu")
    assert "can't find student ID S9999" in replies[-1].text


async def test_drop_common_path():
    env, agent = make_agent()
    replies = await chat(agent, "I want to drop a course", f"{OMAR[0]}, {OMAR[1]}", "HIST240")
    replies += await chat(agent, "yes")
    assert "HIST240-A" in replies[-2].text
    assert replies[-1].text.startswith("Done — HIST240-A has been dropped")
    assert (
        env.select("enrollments", {"student_id": "S1002", "section_id": "HIST240-A"})[0]["status"]
        == "dropped"
    )


async def test_drop_course_not_taken():
    _, agent = make_agent()
    replies = await chat(agent, "drop CHEM201 please", *MAYA)
    assert "not enrolled in CHEM201" in replies[-1].text


async def test_reschedule_asks_date_reason_and_discloses_fee():
    env, agent = make_agent()
    replies = await chat(
        agent,
        "I need to reschedule my Calculus II final",
        *MAYA,
        "December 18",
        "a family wedding",
        "yes",
    )
    assert "Which date" in replies[2].text and "2026-12-18 14:00" in replies[2].text
    assert "reason" in replies[3].text
    assert "$25.00" in replies[4].text and "Shall I proceed" in replies[4].text
    assert replies[5].text.startswith("Done")
    booking = env.select("exam_bookings", {"student_id": "S1001", "exam_id": "EX-MATH201-FIN"})
    assert booking[0]["session_id"] == "EX-MATH201-FIN-3"


async def test_reschedule_conflict_is_free():
    env, agent = make_agent()
    replies = await chat(
        agent,
        "I have to move my PSYC250 final",
        *HANNAH,
        "december 16",
        "it clashes with my STAT200 final, same time",
        "yes",
    )
    assert "free" in replies[-2].text
    assert not env.select("fees", {"student_id": "S1005", "kind": "reschedule"})


async def test_reschedule_inside_notice_needs_medical_note():
    env, agent = make_agent()
    replies = await chat(
        agent,
        "I need to reschedule my placement exam",
        *PRIYA,
        "MATH101",
        "yes, I have the flu",
        "September 25",
        "MN-4821",
        "yes",
    )
    assert "less than 3 days" in replies[3].text
    assert "medical note" in replies[5].text
    assert replies[-1].text.startswith("Done")
    booking = env.select("exam_bookings", {"student_id": "S1003", "exam_id": "EX-MATH101-PLA"})
    assert booking[0]["session_id"] == "EX-MATH101-PLA-2"


async def test_reschedule_refused_after_first_move_offers_advisor():
    env, agent = make_agent()
    replies = await chat(agent, "can I reschedule my MATH210 final?", *JONAS, "yes")
    assert "already rescheduled once" in replies[2].text
    assert "ticket #1" in replies[-1].text
    assert env.select("escalations", {"student_id": "S1010", "topic": "exams"})


async def test_waive_late_fee_common_path():
    env, agent = make_agent()
    replies = await chat(agent, "Could you waive my late fee?", *OMAR, "yes")
    assert "goodwill" in replies[2].text
    assert replies[3].text.startswith("Done — fee")
    assert (
        env.select("fees", {"student_id": "S1002", "kind": "late_payment"})[0]["status"] == "waived"
    )


async def test_tuition_waiver_is_redirected_not_waived():
    env, agent = make_agent()
    replies = await chat(agent, "please waive my tuition", "S1004", "lucas.silva@uni.example.edu")
    assert "Financial Aid" in replies[-1].text
    assert "waive_fee" not in tools_called(replies)


async def test_fee_status_reports_balance_and_hold():
    _, agent = make_agent()
    replies = await chat(agent, "What do I owe?", "S1004", "lucas.silva@uni.example.edu")
    assert "balance due is $4,800.00" in replies[-1].text
    assert "financial hold" in replies[-1].text


async def test_exam_dates_for_one_course():
    _, agent = make_agent()
    replies = await chat(agent, "when is my HIST110 exam?", *MAYA)
    assert "HIST110 final on 2026-12-" in replies[-1].text


async def test_course_info_needs_no_identity():
    _, agent = make_agent()
    (reply,) = await chat(agent, "how many seats are left in CS201?")
    assert "CS201-A" in reply.text and "0 seats left" in reply.text
    assert [c.name for c in reply.tool_calls] == ["list_courses"]


async def test_human_request_opens_ticket():
    env, agent = make_agent()
    (reply,) = await chat(agent, "I want to talk to a real person")
    assert "ticket #1" in reply.text
    assert len(env.select("escalations", {})) == 1


async def test_unrecognized_message_gets_help():
    _, agent = make_agent()
    (reply,) = await chat(agent, "hello there")
    assert "enrolling" in reply.text and reply.tool_calls == ()


async def test_snapshot_restore_resumes_the_conversation():
    env, agent = make_agent()
    await chat(agent, "enroll me in CS201", *MAYA)
    saved_agent, saved_env = agent.snapshot(), env.snapshot()
    first = await chat(agent, "yes")
    agent.restore(saved_agent)
    env.restore(saved_env)
    again = await chat(agent, "yes")
    assert again[0].text == first[0].text
    assert len(env.select("enrollments", {"student_id": "S1001", "section_id": "CS201-B"})) == 1


async def test_tool_calls_carry_results_and_ids():
    _, agent = make_agent()
    replies = await chat(agent, "what do I owe?", *MAYA)
    call = replies[-1].tool_calls[-1]
    assert call.kind == "tool_call" and call.call_id
    assert call.result["student_id"] == "S1001"
