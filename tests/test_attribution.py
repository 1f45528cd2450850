"""Errors point at the source: the flag, the variable, the file key, the user's own line."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from vistasim.agent import PythonAgent, Turn
from vistasim.cli import main
from vistasim.config import config_schema, load_config
from vistasim.errors import AgentError, ConfigError
from vistasim.scenario import load_scenarios, scenario_schema


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "vistasim.toml"
    path.write_text(text, encoding="utf-8")
    return path


def cli_error(tmp_path, monkeypatch, capsys, *args: str) -> str:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(list(args))
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    return err


def test_a_bad_flag_value_is_reported_as_the_flag(tmp_path, monkeypatch, capsys):
    write(tmp_path, '[agent]\nkind = "python"\ntarget = "vistasim.demo:OrderDeskAgent"\n')
    err = cli_error(tmp_path, monkeypatch, capsys, "run", "vistasim.toml", "--rollouts", "0")
    assert err.startswith("error: --rollouts: Input should be greater than or equal to 1 (got 0)")
    assert "vistasim.toml" not in err


def test_a_bad_model_flag_value_is_reported_as_the_model_flag(tmp_path):
    path = write(tmp_path, "")
    with pytest.raises(ConfigError) as info:
        load_config(
            path,
            environ={},
            overrides={"models": {"user": {"model": "m", "max_retries": 99}}},
            flags={"models": "--model"},
        )
    assert info.value.key == "--model" and info.value.path is None
    assert "(setting models.user.max_retries)" in str(info.value)


def test_a_bad_variable_value_is_reported_as_the_variable(tmp_path):
    path = write(tmp_path, "[run]\nrollouts = 2\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={"VISTASIM_RUN__ROLLOUTS": "many"})
    assert info.value.key == "VISTASIM_RUN__ROLLOUTS" and info.value.path is None
    assert "(got 'many')" in str(info.value) and "setting run.rollouts" in str(info.value)


def test_an_unknown_variable_suggests_the_variable_meant(tmp_path):
    path = write(tmp_path, "")
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={"VISTASIM_RUN__ROLOUTS": "3"})
    assert info.value.key == "VISTASIM_RUN__ROLOUTS"
    assert "did you mean 'VISTASIM_RUN__ROLLOUTS'?" in str(info.value)


def test_a_bad_file_value_is_still_the_file_and_key(tmp_path):
    path = write(tmp_path, "[run]\nrollouts = 0\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={"VISTASIM_RUN__SEED": "1"}, overrides={"run": {"seed": 2}})
    assert (info.value.path, info.value.key) == (str(path), "run.rollouts")


@pytest.mark.parametrize(
    ("toml", "key", "meant"),
    [
        ("[run]\nrolouts = 2\n", "run.rolouts", "rollouts"),
        ("[runn]\nrollouts = 2\n", "runn", "run"),
        ("[models.user]\nmodle = 'x'\n", "models.user.modle", "model"),
        (
            '[agent]\nkind = "openai_chat"\nbase_url = "u"\nmodel = "m"\nsytem_prompt = "p"\n',
            "agent.sytem_prompt",
            "system_prompt",
        ),
        ("[web.widget]\ninptu = '#q'\n", "web.widget.inptu", "input"),
    ],
)
def test_an_unknown_key_gets_did_you_mean(tmp_path, toml, key, meant):
    path = write(tmp_path, toml)
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={})
    assert info.value.key == key  # a typo is reported before what it makes missing
    assert f"did you mean {meant!r}?" in str(info.value)
    assert "vistasim schema --config" in str(info.value)


def test_a_scenario_typo_gets_did_you_mean_and_points_at_the_schema(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(
        "- id: s1\n  persona: {name: A, styel: {verbosity: low}}\n  goal: g\n"
        "  knowlege: {order_id: W1}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_scenarios(path)
    message = str(info.value)
    assert "s1.persona.styel: unknown field (did you mean 'style'?)" in message
    assert "s1.knowlege: unknown field (did you mean 'knowledge'?)" in message
    assert message.endswith("every field is described by `vistasim schema` (use it in your editor)")


def _undescribed(schema: dict) -> list[str]:
    roots = {"(root)": schema.get("items", schema)}
    roots.update(schema.get("items", schema).get("$defs", {}))
    roots.update(schema.get("$defs", {}))
    return [
        f"{name}.{prop}"
        for name, node in roots.items()
        for prop, spec in (node.get("properties") or {}).items()
        if not spec.get("description")
    ]


@pytest.mark.parametrize("which", ["scenario", "config"])
def test_every_schema_property_has_a_description(which):
    schema = scenario_schema() if which == "scenario" else config_schema()
    assert _undescribed(schema) == []
    assert len(_undescribed({"properties": {"x": {"type": "string"}}})) == 1  # the check bites


def _line_of(fn, text: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def _relative(path: str) -> str:
    return os.path.relpath(path, Path.cwd())


async def test_a_python_agents_exception_ends_with_the_users_own_line():
    from tests.explore import agents

    agent = PythonAgent(agents.crashing_agent)
    with pytest.raises(AgentError) as info:
        await agent.respond(Turn(episode_id="e", message="hi"))
    line = _line_of(agents.crashing_agent, "raise RuntimeError")
    assert str(info.value).endswith(f"(at {_relative(agents.__file__)}:{line})")


def _parses_the_order(turn):
    import json

    return json.loads(turn.message)  # the error is raised inside the json module


async def test_the_users_line_is_shown_even_when_a_library_raised():
    agent = PythonAgent(_parses_the_order)
    with pytest.raises(AgentError, match="raised JSONDecodeError") as info:
        await agent.respond(Turn(episode_id="e", message="not json"))
    line = _line_of(_parses_the_order, "json.loads")
    assert str(info.value).endswith(f"(at {_relative(__file__)}:{line})")


def test_a_failing_import_points_at_the_users_line(tmp_path, monkeypatch):
    from vistasim.agent import resolve_target

    (tmp_path / "agent_with_bad_import.py").write_text(
        "import os\nimport not_installed_pkg_xyz\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        resolve_target("agent_with_bad_import:Bot")
    expected = "No module named 'not_installed_pkg_xyz' (at agent_with_bad_import.py:2)"
    assert expected in str(info.value)


def test_a_syntax_error_points_at_the_line_that_does_not_parse(tmp_path, monkeypatch):
    from vistasim.agent import resolve_target

    (tmp_path / "agent_with_typo.py").write_text("def bot(turn)\n    return 'x'\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"SyntaxError: .* \(at agent_with_typo.py:1\)"):
        resolve_target("agent_with_typo:bot")
