"""The student portal: pages with semantic ids, forms, chat widget, user APIs, bad input."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from vistasim.domains.school import DOMAIN, SchoolEnvironment
from vistasim.domains.school._web import create_app

from .helpers import MAYA


@pytest.fixture
def env() -> SchoolEnvironment:
    return SchoolEnvironment()


@pytest.fixture
def client(env) -> TestClient:
    return TestClient(create_app(env))


@pytest.fixture
def maya(client) -> TestClient:
    response = client.post("/login", data={"student_id": MAYA[0], "email": MAYA[1]})
    assert response.status_code == 200 and "Welcome, Maya Chen" in response.text
    return client


def semantic_ids(html: str) -> set[str]:
    return set(re.findall(r'data-semantic-id="([^"]+)"', html))


def test_domain_builds_the_web_app(env):
    assert DOMAIN.make_web_app(env).title == "Northgate Student Portal"


@pytest.mark.parametrize("path", ["/courses", "/schedule", "/exams", "/fees"])
def test_pages_render_with_chat_widget_and_nav(maya, path):
    response = maya.get(path)
    assert response.status_code == 200
    ids = semantic_ids(response.text)
    assert {"chat-input", "chat-send", "chat-log", "nav-courses", "nav-exams"} <= ids


def test_every_control_has_a_semantic_id(maya):
    for path in ("/courses", "/schedule", "/exams", "/fees", "/login"):
        html = maya.get(path).text
        controls = re.findall(r"<(button|input|select|a)\b([^>]*)>", html)
        for tag, attrs in controls:
            if 'type="hidden"' in attrs:
                continue
            assert "data-semantic-id" in attrs, (path, tag, attrs)


def test_course_page_lists_sections_with_enroll_buttons(client):
    response = client.get("/courses", params={"q": "CS201"})
    ids = semantic_ids(response.text)
    assert {"enroll-CS201-A", "enroll-CS201-B"} <= ids
    assert re.search(r'data-semantic-id="enroll-CS201-A"\s+disabled', response.text)


def test_private_pages_need_login(client):
    response = client.get("/schedule")
    assert response.status_code == 401
    assert "log in" in response.text


def test_login_with_wrong_email_is_refused(client):
    response = client.post("/login", data={"student_id": "S1001", "email": "x@y.org"})
    assert response.status_code == 409
    assert "does not match" in response.text


def test_enroll_form_changes_the_shared_database(maya, env):
    response = maya.post("/courses/enroll", data={"section_id": "CS201-B"})
    assert response.status_code == 200 and "Enrolled in CS201-B" in response.text
    assert env.select("enrollments", {"student_id": "S1001", "section_id": "CS201-B"})
    assert "drop-CS201-B" in semantic_ids(response.text)


def test_drop_form(maya, env):
    response = maya.post("/schedule/drop", data={"section_id": "HIST110-A"})
    assert "Dropped HIST110-A" in response.text
    rows = env.select("enrollments", {"student_id": "S1001", "section_id": "HIST110-A"})
    assert rows[0]["status"] == "dropped"


def test_exam_page_has_reschedule_form_and_it_works(maya, env):
    page = maya.get("/exams")
    assert "reschedule-submit-EX-MATH201-FIN" in semantic_ids(page.text)
    response = maya.post(
        "/exams/reschedule",
        data={"exam_id": "EX-MATH201-FIN", "session_id": "EX-MATH201-FIN-2", "reason": "personal"},
    )
    assert "moved to 2026-12-17" in response.text and "$25.00" in response.text


def test_fee_page_pay_and_waiver(client, env):
    client.post("/login", data={"student_id": "S1002", "email": "omar.haddad@uni.example.edu"})
    page = client.get("/fees")
    assert {"pay-F-1003", "waiver-submit-F-1003"} <= semantic_ids(page.text)
    response = client.post("/fees/waiver", data={"fee_id": "F-1003", "reason": "bank delay, first"})
    assert "Waiver approved" in response.text
    assert env.select("fees", {"fee_id": "F-1003"})[0]["status"] == "waived"


def test_policy_refusal_in_a_form_is_a_409_page(maya, env):
    before = env.snapshot()
    response = maya.post("/courses/enroll", data={"section_id": "CS201-A"})
    assert response.status_code == 409 and "is full" in response.text
    assert env.snapshot() == before


def test_chat_endpoint_keeps_one_agent_per_session(client, env):
    first = client.post("/api/chat", json={"message": "enroll me in CS201"})
    assert first.json()["reply"] == "What's your student ID?"
    client.post("/api/chat", json={"message": MAYA[0]})
    proposal = client.post("/api/chat", json={"message": MAYA[1]}).json()
    assert [c["name"] for c in proposal["tool_calls"]] == ["verify_student", "list_courses"]
    done = client.post("/api/chat", json={"message": "yes"}).json()
    assert done["reply"].startswith("Done")
    assert done["tool_calls"][0]["result"]["enrolled"] == "CS201-B"
    assert env.select("enrollments", {"student_id": "S1001", "section_id": "CS201-B"})


def test_chat_sessions_are_separate(env):
    a, b = TestClient(create_app(env)), TestClient(create_app(env))
    a.post("/api/chat", json={"message": "enroll me in CS201"})
    reply = b.post("/api/chat", json={"message": "S1001"}).json()["reply"]
    assert "What would you like" in reply or "help" in reply


def test_user_api_lists_tools_with_schemas(client):
    tools = {t["name"]: t for t in client.get("/api/user").json()["tools"]}
    assert "session_id" in tools["reschedule_exam"]["parameters"]["properties"]


def test_user_api_reschedule_succeeds_and_fails_realistically(client, env):
    ok = client.post(
        "/api/user/reschedule_exam",
        json={
            "student_id": "S1002",
            "exam_id": "EX-ECON301-FIN",
            "session_id": "EX-ECON301-FIN-2",
            "reason": "personal",
        },
    )
    assert ok.status_code == 200 and ok.json()["result"]["fee_charged"]
    late = client.post(
        "/api/user/reschedule_exam",
        json={
            "student_id": "S1006",
            "exam_id": "EX-ENGL101-PLA",
            "session_id": "EX-ENGL101-PLA-2",
            "reason": "personal",
        },
    )
    assert late.status_code == 409 and "day(s) away" in late.json()["error"]


BAD_REQUESTS = [
    ("post", "/api/chat", {"content": b"{not json"}, 400),
    ("post", "/api/chat", {"json": ["a list"]}, 400),
    ("post", "/api/chat", {"json": {"message": ""}}, 422),
    ("post", "/api/chat", {"json": {"message": "x" * 5000}}, 413),
    ("post", "/api/chat", {"content": b"x" * 70_000}, 413),
    ("post", "/api/user/drop_everything", {"json": {}}, 404),
    ("post", "/api/user/pay_fee", {"json": {"student_id": "S1001'; DROP TABLE fees;--"}}, 422),
    ("post", "/api/user/pay_fee", {"json": {"student_id": "S1001", "fee_id": "F-9999"}}, 404),
    ("post", "/courses/enroll", {"data": {"section_id": "' OR 1=1 --"}}, 422),
    ("post", "/courses/enroll", {"data": {"section_id": "ZZZ999-A"}}, 404),
    ("post", "/schedule/drop", {"data": {"section_id": "A" * 10_000}}, 422),
    ("post", "/exams/reschedule", {"data": {"exam_id": "EX-CS101-FIN"}}, 422),
    ("post", "/fees/pay", {"data": {"fee_id": "F-1002"}}, 404),
    ("get", "/courses?q=" + "q" * 500, {}, 422),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status"), BAD_REQUESTS)
def test_bad_input_gets_clear_4xx_and_changes_nothing(maya, env, method, path, kwargs, status):
    before = env.snapshot()
    response = getattr(maya, method)(path, **kwargs)
    assert response.status_code == status, response.text[:300]
    assert env.snapshot() == before


def test_untrusted_text_is_escaped(client):
    response = client.get("/courses", params={"q": "<script>x</script>"})
    assert "<script>x</script>" not in response.text
    assert "&lt;script&gt;x&lt;/script&gt;" in response.text


def test_widget_renders_replies_as_text_not_html(client):
    script = client.get("/static/chat.js").text
    assert "textContent" in script and "innerHTML" not in script
    assert "data-tool-calls" in script
