from __future__ import annotations

import pytest

import vistasim.agent
from vistasim.agent import (
    AgentAdapter,
    HttpJsonAgent,
    OpenAIChatAgent,
    PythonAgent,
    Turn,
    open_agent,
    resolve_target,
)
from vistasim.config import HttpJsonAgentSpec, OpenAIChatAgentSpec, PythonAgentSpec
from vistasim.errors import ConfigError


async def test_python_spec_opens_a_python_agent_with_options():
    spec = PythonAgentSpec(target="tests.agent.targets:Greeter", options={"greeting": "yo"})
    agent = open_agent(spec)
    assert isinstance(agent, PythonAgent)
    assert isinstance(agent, AgentAdapter)
    reply = await agent.respond(Turn(episode_id="e", message="hi"))
    assert reply.text == "yo #1: hi"


async def test_python_spec_passes_the_environment():
    env = object()
    agent = open_agent(PythonAgentSpec(target="tests.agent.targets:NeedsEnv"), env=env)
    reply = await agent.respond(Turn(episode_id="e", message="hi"))
    assert reply.text == "env is object"


def test_http_specs_open_their_adapters():
    chat = open_agent(OpenAIChatAgentSpec(base_url="http://127.0.0.1:9/v1", model="m"))
    generic = open_agent(HttpJsonAgentSpec(url="http://127.0.0.1:9/chat"))
    assert isinstance(chat, OpenAIChatAgent)
    assert isinstance(generic, HttpJsonAgent)


def test_resolve_target_imports_a_dotted_attribute():
    assert resolve_target("tests.agent.targets:Counter.respond").__name__ == "respond"


def test_missing_module_is_a_config_error_naming_module_and_fix():
    with pytest.raises(ConfigError) as info:
        resolve_target("no_such_agent_module:Bot")
    message = str(info.value)
    assert info.value.key == "agent.target"
    assert "'no_such_agent_module'" in message
    assert "ModuleNotFoundError" in message
    assert "PYTHONPATH" in message


def test_module_failing_at_import_is_a_config_error_with_the_error(tmp_path, monkeypatch):
    (tmp_path / "broken_agent_mod.py").write_text("raise RuntimeError('db url unset')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError, match="RuntimeError: db url unset") as info:
        resolve_target("broken_agent_mod:Bot")
    assert info.value.key == "agent.target"


def test_missing_attribute_is_a_config_error_listing_what_exists():
    with pytest.raises(ConfigError, match="has no attribute 'Missing'.*Greeter"):
        resolve_target("tests.agent.targets:Missing")


@pytest.mark.parametrize("target", ["tests.agent.targets", ":Greeter", "tests.agent.targets:"])
def test_malformed_target_is_a_config_error(target):
    with pytest.raises(ConfigError, match="is not 'module:attr'"):
        resolve_target(target)


def test_target_that_is_not_callable_is_a_config_error_at_open():
    with pytest.raises(ConfigError, match="not a class or function"):
        open_agent(PythonAgentSpec(target="tests.agent.targets:NOT_CALLABLE"))


def test_exports_are_sorted_and_importable():
    assert vistasim.agent.__all__ == sorted(vistasim.agent.__all__)
    assert all(hasattr(vistasim.agent, name) for name in vistasim.agent.__all__)


def test_resolve_target_errors_name_the_given_config_key():
    with pytest.raises(ConfigError) as info:
        resolve_target("no_such_env_module:make", key="environment.target")
    assert info.value.key == "environment.target"
