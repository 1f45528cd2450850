import importlib
import json

import click
import pytest
from click.testing import CliRunner

from tests.domains.fake_generator import batch, good_batch, good_item, prompt_of, slots_of
from vistasim.cli.scenarios import command as scenarios
from vistasim.domains import get_domain
from vistasim.errors import ConfigError
from vistasim.scenario import load_scenarios
from vistasim.testing import FakeOpenAIServer

# `vistasim.cli.main` the attribute is the entry-point function; the module holds `cli`.
cli_main = importlib.import_module("vistasim.cli.main")


def _invoke(*args):
    return CliRunner().invoke(scenarios, list(args), catch_exceptions=False)


def _with_one_bad_item(body):
    good = json.loads(good_batch(body))["scenarios"]
    slot = slots_of(prompt_of(body))[0]
    bad = dict(good_item(slot), goal="Refund all.", criteria={"actions": [{"tool": "refund_all"}]})
    return batch([*good, bad])


def test_generate_writes_loadable_yaml_through_an_openai_compatible_server(tmp_path):
    out = tmp_path / "new.yaml"
    with FakeOpenAIServer(responder=good_batch).in_thread() as server:
        result = _invoke(
            "generate", "shop", "--model", "generator=openai/gpt-4.1-mini",
            "--base-url", server.base_url, "--count", "3", "--out", str(out),
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "generated 3 of 3 scenarios in 1 model call\n" in result.output
    assert "invalid: 0\nduplicates: 0" in result.output
    assert f"wrote 3 new scenarios to {out}" in result.output
    assert out.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")
    assert len(load_scenarios(out)) == 3
    assert server.requests[0]["model"] == "gpt-4.1-mini"
    assert server.requests[0]["response_format"]["type"] == "json_schema"


def test_generate_prints_invalid_items_by_reason(tmp_path):
    out = tmp_path / "new.yaml"
    with FakeOpenAIServer(responder=_with_one_bad_item).in_thread() as server:
        result = _invoke(
            "generate", "school", "--model", "generator=m", "--base-url", server.base_url,
            "--count", "2", "--out", str(out),
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "invalid: 1 (unknown tool: 1)" in result.output
    assert len(load_scenarios(out)) == 2


def test_generate_reads_the_base_url_from_the_environment(tmp_path, monkeypatch):
    out = tmp_path / "new.yaml"
    with FakeOpenAIServer(responder=good_batch).in_thread() as server:
        monkeypatch.setenv("VISTASIM_MODELS__GENERATOR__BASE_URL", server.base_url)
        result = _invoke(
            "generate", "school", "--model", "generator=local-model", "--count", "2",
            "--out", str(out),
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert server.requests[0]["model"] == "local-model"
    assert [s.domain for s in load_scenarios(out)] == ["school", "school"]


def test_a_second_run_appends_new_scenarios_to_the_file(tmp_path):
    out = tmp_path / "new.yaml"
    with FakeOpenAIServer(responder=good_batch).in_thread() as server:
        flags = ["--model", "generator=m", "--base-url", server.base_url, "--out", str(out)]
        _invoke("generate", "shop", *flags, "--count", "2")
        result = _invoke("generate", "shop", *flags, "--count", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert len({s.id for s in load_scenarios(out)}) == 4


def test_generate_without_a_generator_model_is_a_config_error():
    with pytest.raises(ConfigError, match="no generator model: give one with --model generator="):
        _invoke("generate", "shop")


def test_generate_without_a_generator_model_exits_with_code_2(monkeypatch, capsys):
    # The real entry point (one-line errors, exit code 2) over a group holding this command.
    group = click.Group("vistasim", commands={"scenarios": scenarios})
    monkeypatch.setattr(cli_main, "cli", group)
    with pytest.raises(SystemExit) as exit_info:
        cli_main.main(["scenarios", "generate", "shop"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --model: no generator model") and "Traceback" not in err


def test_base_url_without_a_generator_model_is_a_config_error():
    with pytest.raises(ConfigError, match="--base-url needs a generator model"):
        _invoke("generate", "shop", "--base-url", "http://127.0.0.1:9/v1")


def test_list_prints_the_bundled_ids_and_goals():
    result = _invoke("list", "school")
    assert result.exit_code == 0
    bundled = get_domain("school").scenarios()
    for scenario in bundled:
        assert scenario.id in result.output and scenario.goal in result.output
    assert result.output.endswith(f"{len(bundled)} scenarios in school\n")


def test_list_of_an_unknown_domain_names_the_known_ones():
    with pytest.raises(ConfigError, match="unknown domain 'mall'; known domains: school, shop"):
        _invoke("list", "mall")
