import pytest

from vistasim.config import load_config, merge, parse_model_flag
from vistasim.errors import ConfigError


def _write(tmp_path, text):
    path = tmp_path / "vistasim.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_layers_apply_in_order_file_env_flags(tmp_path):
    path = _write(tmp_path, "[run]\nrollouts = 2\nseed = 1\nconcurrency = 3\n")
    config = load_config(
        path,
        environ={"VISTASIM_RUN__SEED": "5", "VISTASIM_RUN__CONCURRENCY": "4"},
        overrides={"run": {"concurrency": 9, "rollouts": None}},
    )
    assert (config.run.rollouts, config.run.seed, config.run.concurrency) == (2, 5, 9)


def test_relative_paths_resolve_against_the_config_file(tmp_path):
    path = _write(tmp_path, '[run]\nscenarios = "s.yaml"\n')
    config = load_config(path, environ={})
    assert config.resolve(config.run.scenarios) == tmp_path / "s.yaml"


def test_unknown_key_names_file_key_and_fix(tmp_path):
    path = _write(tmp_path, "[run]\nrolouts = 2\n")
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    message = str(err.value)
    assert str(path) in message and "run.rolouts" in message
    assert "vistasim schema --config" in message


def test_wrong_type_shows_the_bad_value(tmp_path):
    path = _write(tmp_path, '[run]\nrollouts = "many"\n')
    with pytest.raises(ConfigError, match="run.rollouts.*'many'"):
        load_config(path, environ={})


def test_invalid_toml_is_a_config_error(tmp_path):
    path = _write(tmp_path, "[run\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path, environ={})


def test_unknown_agent_kind_lists_the_kinds(tmp_path):
    path = _write(tmp_path, '[agent]\nkind = "grpc"\n')
    with pytest.raises(ConfigError, match="python.*openai_chat.*http_json"):
        load_config(path, environ={})


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "nope.toml", environ={})


def test_merge_drops_none_and_merges_deeply():
    assert merge({"a": {"b": 1, "c": 2}}, {"a": {"b": None, "c": 3}}) == {"a": {"b": 1, "c": 3}}


def test_model_flag_with_provider_sets_url_and_key_env():
    role, spec = parse_model_flag("judge=openrouter/some/model")
    assert role == "judge"
    assert spec["model"] == "some/model"
    assert spec["api_key_env"] == "OPENROUTER_API_KEY"


def test_model_flag_with_unknown_role_lists_roles():
    with pytest.raises(ConfigError, match="known roles: user, agent"):
        parse_model_flag("critic=gpt")
