"""Mistakes a user can fix are found before the first episode: one line each, exit code 2."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from vistasim.cli import main
from vistasim.store import open_store
from vistasim.testing import FakeOpenAIServer

SCENARIOS = "- id: s\n  persona: {name: A}\n  goal: Check order W1001.\n  limits: {max_turns: 2}\n"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def write_config(tmp_path, agent: str, extra: str = "") -> None:
    (tmp_path / "s.yaml").write_text(SCENARIOS, encoding="utf-8")
    (tmp_path / "vistasim.toml").write_text(
        f'[run]\nscenarios = "s.yaml"\nstore = "v.db"\n[agent]\n{agent}\n{extra}',
        encoding="utf-8",
    )


def run_cli(tmp_path, monkeypatch, capsys, *flags: str) -> tuple[int, list[str]]:
    monkeypatch.chdir(tmp_path)
    try:
        main(["run", "vistasim.toml", *flags])
        code = 0
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, [line for line in err.splitlines() if line.startswith("error:")]


def assert_nothing_recorded(tmp_path):
    if (tmp_path / "v.db").exists():
        with open_store(tmp_path / "v.db") as store:
            assert store.list_runs() == []


def test_an_unreachable_agent_endpoint(tmp_path, monkeypatch, capsys):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    write_config(tmp_path, f'kind = "openai_chat"\nbase_url = "{url}"\nmodel = "m"')
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.base_url: cannot reach")
    assert repr(url) in lines[0] and "start the server or fix the URL" in lines[0]
    assert_nothing_recorded(tmp_path)


def test_no_preflight_skips_the_checks_and_the_run_records_agent_failures(
    tmp_path, monkeypatch, capsys
):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    write_config(tmp_path, f'kind = "openai_chat"\nbase_url = "{url}"\nmodel = "m"')
    code, lines = run_cli(tmp_path, monkeypatch, capsys, "--no-preflight")
    assert code == 0 and lines == []
    with open_store(tmp_path / "v.db") as store:
        assert len(store.list_runs()) == 1


def test_an_unset_header_variable(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SHOP_TOKEN", raising=False)
    write_config(
        tmp_path,
        'kind = "http_json"\nurl = "http://127.0.0.1:9/chat"\n'
        'headers = {Authorization = "Bearer ${SHOP_TOKEN}"}',
    )
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.headers.Authorization: environment variable")
    assert "'SHOP_TOKEN'" in lines[0] and "export SHOP_TOKEN=" in lines[0]


def test_an_unset_api_key_for_the_agent_and_a_user_model(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("AGENT_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # unset keys are found before any connect
    write_config(
        tmp_path,
        'kind = "openai_chat"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n'
        'api_key_env = "AGENT_KEY"',
        '[user]\npolicy = "llm"\n[models.user]\nmodel = "gpt-4.1-mini"\n'
        'base_url = "https://models.example.invalid/v1"\n',
    )
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 2
    assert lines[0].startswith("error: agent.api_key_env: environment variable 'AGENT_KEY'")
    assert lines[1].startswith("error: models.user.api_key_env: environment variable")
    assert "'OPENAI_API_KEY'" in lines[1] and "https://models.example.invalid/v1" in lines[1]


def test_an_agent_module_that_fails_to_import_shows_the_users_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "bot_fails_import.py").write_text(
        "import json\n\nDB = connect()\n\ndef bot(turn):\n    return 'hi'\n", encoding="utf-8"
    )
    write_config(tmp_path, 'kind = "python"\ntarget = "bot_fails_import:bot"')
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.target: cannot import module 'bot_fails_import'")
    assert "NameError: name 'connect' is not defined (at bot_fails_import.py:3" in lines[0]


def test_a_typo_in_the_agent_target_is_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "bot_typo.py").write_text("def support_bot(turn):\n    return 'hi'\n", "utf-8")
    write_config(tmp_path, 'kind = "python"\ntarget = "bot_typo:suport_bot"')
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert "has no attribute 'suport_bot'" in lines[0] and "support_bot" in lines[0]


def test_a_typo_in_the_agent_target_without_preflight_is_still_one_line(tmp_path):
    (tmp_path / "bot_typo2.py").write_text("def support_bot(turn):\n    return 'hi'\n", "utf-8")
    write_config(tmp_path, 'kind = "python"\ntarget = "bot_typo2:suport_bot"')
    result = subprocess.run(
        [sys.executable, "-m", "vistasim.cli", "run", "vistasim.toml", "--no-preflight"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "agent.target" in result.stderr and "ExceptionGroup" not in result.stderr


def test_a_class_that_needs_a_model_the_run_lacks(tmp_path, monkeypatch, capsys):
    (tmp_path / "bot_model.py").write_text(
        "class Bot:\n    def __init__(self, model):\n        self.model = model\n"
        "    def respond(self, turn):\n        return 'hi'\n",
        encoding="utf-8",
    )
    write_config(tmp_path, 'kind = "python"\ntarget = "bot_model:Bot"')
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: models.agent: 'bot_model:Bot' takes 'model'")


def hide_package(monkeypatch, package: str) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == package else real(name, *a)
    )


def test_a_missing_extra_names_the_pip_command(tmp_path, monkeypatch, capsys):
    hide_package(monkeypatch, "playwright")
    (tmp_path / "s.yaml").write_text(SCENARIOS, encoding="utf-8")
    (tmp_path / "vistasim.toml").write_text(
        '[run]\nscenarios = "s.yaml"\nstore = "v.db"\nmode = "ui"\n'
        '[environment]\ntarget = "shop"\n',
        encoding="utf-8",
    )
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2
    assert (
        "error: run.mode: 'ui' needs the 'playwright' package, which is not installed; "
        "install it with: pip install 'vistasim[browser]'"
    ) in lines


def test_model_roles_need_no_openai_package(tmp_path, monkeypatch, capsys):
    hide_package(monkeypatch, "openai")
    monkeypatch.setitem(sys.modules, "openai", None)  # `import openai` raises ImportError
    with FakeOpenAIServer(responder=lambda request: '{"action": "stop"}').in_thread() as server:
        write_config(
            tmp_path,
            'kind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"',
            '[environment]\ntarget = "vistasim.demo:OrderBook"\n[user]\npolicy = "llm"\n'
            f'[models.user]\nmodel = "local"\nbase_url = "{server.base_url}"\n'
            'api_key_env = ""\n',
        )
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert not [line for line in lines if line.startswith("error")], lines
    assert server.count >= 1  # the user's model was called, without the SDK


def test_environment_tools_without_an_environment(tmp_path, monkeypatch, capsys):
    write_config(
        tmp_path,
        'kind = "openai_chat"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n'
        'tools = "environment"',
    )
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.tools: agent.tools = 'environment' needs an")


def test_a_wrong_response_path_lists_where_the_text_is(tmp_path, monkeypatch, capsys):
    with FakeOpenAIServer(responder=lambda request: "Hi there").in_thread() as server:
        write_config(
            tmp_path,
            f'kind = "http_json"\nurl = "{server.base_url}/chat/completions"\n'
            'request_template = {messages = [{role = "user", content = "{{message}}"}]}\n'
            'response_path = "reply"',
        )
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
        probe = server.requests[0]
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.response_path: 'reply' is not in the probe reply")
    assert "choices.0.message.content" in lines[0]
    assert probe["messages"] == [{"role": "user", "content": "Hello"}]


def test_a_right_response_path_passes_the_probe(tmp_path, monkeypatch, capsys):
    answer = "Order W1001 is processing."
    with FakeOpenAIServer(responder=lambda request: answer).in_thread() as srv:
        write_config(
            tmp_path,
            f'kind = "http_json"\nurl = "{srv.base_url}/chat/completions"\n'
            'request_template = {messages = [{role = "user", content = "{{message}}"}]}\n'
            'response_path = "choices.0.message.content"',
        )
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 0 and lines == []


def test_every_problem_is_its_own_line(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("TOKEN_A", raising=False)
    monkeypatch.delenv("TOKEN_B", raising=False)
    write_config(
        tmp_path,
        'kind = "http_json"\nurl = "http://127.0.0.1:9/chat"\n'
        'headers = {A = "${TOKEN_A}", B = "x-${TOKEN_B}"}',
        '[environment]\ntarget = "shpo"\n',
    )
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 3
    assert [line.split(":")[1].strip() for line in lines] == [
        "agent.headers.A",
        "agent.headers.B",
        "environment.target",
    ]
    assert "'shpo' is neither a built-in domain (school, shop)" in lines[2]


def test_preflight_from_python_raises_one_error_listing_the_problems(tmp_path):
    from vistasim.config import RunConfig
    from vistasim.errors import PreflightError
    from vistasim.explore import run_sync
    from vistasim.scenario import Persona, Scenario

    config = RunConfig.model_validate(
        {"agent": {"kind": "openai_chat", "base_url": f"http://127.0.0.1:{closed_port()}/v1",
                   "model": "m"}}
    )  # fmt: skip
    scenario = Scenario(id="s", persona=Persona(name="A"), goal="g")
    with pytest.raises(PreflightError) as info:
        run_sync(config, scenarios=[scenario], store=tmp_path / "v.db")
    assert [p.key for p in info.value.problems] == ["agent.base_url"]
    assert json.dumps(str(info.value))


def test_a_busy_model_server_is_a_warning_and_a_silent_address_an_error(monkeypatch):
    # Found with a real llama.cpp server: one request at a time, so while a previous run's call
    # was still being generated the next run's reach check got no answer in 5 s and refused to
    # start. A server that takes the connection is there; only one that does not is an error.
    import anyio

    from vistasim.config import RunConfig
    from vistasim.explore import _reach

    monkeypatch.setattr(_reach, "TIMEOUT_S", 0.5)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)  # the kernel takes connections; nobody ever answers
        url = f"http://127.0.0.1:{busy.getsockname()[1]}/v1"
        config = RunConfig.model_validate({"models": {"user": {"model": "m", "base_url": url,
                                                               "api_key_env": ""}}})  # fmt: skip
        warnings: list[str] = []
        problems = anyio.run(
            lambda: _reach.check_endpoints(config, {}, ["user"], warnings=warnings)
        )
        assert problems == []
        assert len(warnings) == 1 and "busy or slow" in warnings[0] and repr(url) in warnings[0]
    gone = RunConfig.model_validate({"models": {"user": {
        "model": "m", "base_url": f"http://127.0.0.1:{closed_port()}/v1", "api_key_env": ""}}})
    problems = anyio.run(lambda: _reach.check_endpoints(gone, {}, ["user"], warnings=warnings))
    assert len(problems) == 1 and "cannot reach" in str(problems[0])
