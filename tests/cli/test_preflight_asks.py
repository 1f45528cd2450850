"""The preflight asks an `openai_chat` agent before the run, and blames the right source."""

from __future__ import annotations

import pytest

from tests.cli.test_preflight import assert_nothing_recorded, closed_port, run_cli, write_config
from vistasim.cli import main
from vistasim.testing import FakeOpenAIServer

OPENAI_AGENT = 'kind = "openai_chat"\nbase_url = "{url}"\nmodel = "m"\n'
DESK = '[environment]\ntarget = "vistasim.demo:OrderBook"\n'


def test_a_base_url_without_v1_is_told_to_add_it(tmp_path, monkeypatch, capsys):
    with FakeOpenAIServer().in_thread() as server:
        root = server.base_url.removesuffix("/v1")
        write_config(tmp_path, OPENAI_AGENT.format(url=root))
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.base_url: POST ")
    assert f"set agent.base_url = '{root}/v1'" in lines[0]
    assert_nothing_recorded(tmp_path)


def test_a_model_the_server_does_not_serve_names_agent_model(tmp_path, monkeypatch, capsys):
    missing = {"error_status": 404, "body": "The model `m` does not exist."}
    with FakeOpenAIServer(responder=lambda request: missing).in_thread() as server:
        write_config(tmp_path, OPENAI_AGENT.format(url=server.base_url))
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.model: ") and "does not serve model 'm'" in lines[0]


def test_a_refused_key_names_agent_api_key_env(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PROBE_AGENT_KEY", "sk-probe-agent-key-123456")
    refused = {"error_status": 401, "body": "invalid key sk-probe-agent-key-123456"}
    with FakeOpenAIServer(responder=lambda request: refused).in_thread() as server:
        agent = OPENAI_AGENT.format(url=server.base_url) + 'api_key_env = "PROBE_AGENT_KEY"\n'
        write_config(tmp_path, agent)
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: agent.api_key_env: ") and "refused the key" in lines[0]
    assert "sk-probe-agent-key-123456" not in lines[0]  # the echoed key is masked


@pytest.mark.parametrize("ignores", [True, False])
def test_a_server_that_ignores_tools_is_a_warning_and_the_run_goes_on(
    tmp_path, monkeypatch, capsys, ignores
):
    with FakeOpenAIServer(ignore_tools=ignores).in_thread() as server:
        agent = OPENAI_AGENT.format(url=server.base_url) + 'tools = "environment"\n'
        write_config(tmp_path, agent, DESK)
        monkeypatch.chdir(tmp_path)
        main(["run", "vistasim.toml", "--max-turns", "1"])
        probe = next(r for r in server.requests if r.get("tool_choice") == "required")
    err = capsys.readouterr().err
    assert {t["function"]["name"] for t in probe["tools"]} >= {"get_order", "cancel_order"}
    warned = [line for line in err.splitlines() if "ignored `tools`" in line]
    assert bool(warned) is ignores


def test_an_unset_key_of_a_local_model_is_an_error_unless_it_takes_none(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.delenv("LOCAL_MODEL_KEY", raising=False)
    with FakeOpenAIServer().in_thread() as server:
        user = (f'[user]\npolicy = "llm"\n[models.user]\nmodel = "u"\n'
                f'base_url = "{server.base_url}"\napi_key_env = "{{key}}"\n')  # fmt: skip
        agent = 'kind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"\n'
        write_config(tmp_path, agent, DESK + user.format(key="LOCAL_MODEL_KEY"))
        code, lines = run_cli(tmp_path, monkeypatch, capsys)
        assert code == 2 and len(lines) == 1
        assert lines[0].startswith("error: models.user.api_key_env: environment variable")
        assert 'set models.user.api_key_env = ""' in lines[0]
        write_config(tmp_path, agent, DESK + user.format(key=""))
        code, lines = run_cli(tmp_path, monkeypatch, capsys, "--max-turns", "1")
    assert code in (0, 1) and lines == []  # it ran (1: the fake user's episodes say nothing)


def test_a_bad_url_from_a_variable_is_blamed_on_the_variable(tmp_path, monkeypatch, capsys):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    write_config(tmp_path, OPENAI_AGENT.format(url="http://127.0.0.1:9/v1"))
    monkeypatch.setenv("VISTASIM_AGENT__BASE_URL", url)
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: VISTASIM_AGENT__BASE_URL: cannot reach")
    assert lines[0].endswith("(setting agent.base_url)")


def test_a_base_url_from_openai_base_url_is_blamed_on_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{closed_port()}/v1")
    agent = 'kind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"\n'
    write_config(tmp_path, agent, DESK + '[models.judge]\nmodel = "j"\napi_key_env = ""\n')
    code, lines = run_cli(tmp_path, monkeypatch, capsys)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: OPENAI_BASE_URL: cannot reach")


def test_a_key_a_model_flag_asks_for_is_blamed_on_the_flag(tmp_path, monkeypatch, capsys):
    agent = 'kind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"\n'
    write_config(tmp_path, agent, DESK)
    code, lines = run_cli(tmp_path, monkeypatch, capsys, "--model", "judge=openai/gpt-4.1-mini")
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith("error: --model: environment variable 'OPENAI_API_KEY'")
    assert lines[0].endswith("(setting models.judge.api_key_env)")


async def test_ui_mode_with_a_start_page_neither_imports_nor_checks_the_agent(tmp_path):
    from vistasim.config import RunConfig
    from vistasim.explore._preflight import preflight
    from vistasim.explore._setup import build_parts

    async with FakeOpenAIServer() as server:  # any page that answers will do
        config = RunConfig.model_validate({
            "run": {"mode": "ui"},
            "web": {"start_url": server.base_url},
            "agent": {"kind": "python", "target": "no_such_module_anywhere:Bot"},
            "cache": {"mode": "off"},
        })  # fmt: skip
        warnings = await preflight(config, environ={})
    assert [w for w in warnings if "[agent] section is not used" in w]
    parts = build_parts(config, store_path=tmp_path / "v.db")
    assert parts.make_agent is None
    await parts.clients.aclose()
