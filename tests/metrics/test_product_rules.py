"""A product's own rules: given in the config or on the environment class, checked before the
run, stored with it, applied to every episode."""

import anyio
import pytest

import vistasim.llm
from vistasim.config import RunConfig
from vistasim.errors import ConfigError
from vistasim.explore import run
from vistasim.metrics import compute_metrics, rules_for_run
from vistasim.scenario import Persona, Scenario
from vistasim.store import open_store, read_run_view

RULES = """\
rules:
  - id: lockers-confirm
    description: freed a locker without a yes
    tool: free_locker
    requires_agent_said: ['shall i']
"""
SCENARIO = Scenario(
    id="free-l12", persona=Persona(name="Ola"), goal="Free my locker L12.",
    knowledge={"locker": "L12"},
    criteria={"state": [
        {"table": "lockers", "where": {"id": "L12"}, "expect": {"status": "free"}},
    ]},
)  # fmt: skip


def _config(tmp_path, environment):
    return RunConfig.model_validate({
        "run": {"rollouts": 1, "mode": "chat"},
        "user": {"policy": "agenda"},
        "agent": {"kind": "python", "target": "tests.metrics.rules_app:HastyDesk"},
        "environment": environment,
        "cache": {"mode": "off"},
        "base_dir": str(tmp_path),
    })  # fmt: skip


def _play(tmp_path, environment, monkeypatch):
    monkeypatch.setattr(vistasim.llm, "ALLOW_REQUESTS", False)

    async def go():
        store = open_store(tmp_path / "store.db")
        try:
            result = await run(_config(tmp_path, environment), scenarios=[SCENARIO], store=store)
            view = read_run_view(store, result.run_id)
        finally:
            store.close()
        return view, await compute_metrics(view)

    return anyio.run(go)


def test_a_rules_file_named_in_the_config_is_stored_with_the_run_and_applied(
    tmp_path, monkeypatch
):
    (tmp_path / "rules.yaml").write_text(RULES, encoding="utf-8")
    view, report = _play(
        tmp_path, {"target": "tests.metrics.rules_app:Lockers", "rules": "rules.yaml"}, monkeypatch
    )
    assert [r.id for r in rules_for_run(view).rules] == ["lockers-confirm"]
    assert "lockers-confirm" in {u.label for u in report.failures.unique}
    assert report.success.episodes == {view.episodes[0].episode_id: "failed"}


def test_rules_declared_on_the_environment_class_apply_without_config(tmp_path, monkeypatch):
    view, report = _play(tmp_path, {"target": "tests.metrics.rules_app:RuledLockers"}, monkeypatch)
    assert "lockers-confirm" in {u.label for u in report.failures.unique}


def test_without_rules_the_same_run_passes(tmp_path, monkeypatch):
    view, report = _play(tmp_path, {"target": "tests.metrics.rules_app:Lockers"}, monkeypatch)
    assert set(report.success.episodes.values()) == {"passed"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("rules:\n  - id: x\n    tool: free_locker\n", "invalid rules at rules.0.description"),
        ("rules: [\n", "cannot read the rules"),
        ("- just a list\n", "must be a mapping"),
        ("rules:\n  - {id: x, description: d, tool: t, requires_agent_said: ['(']}\n",
         "invalid rules at rules.0.requires_agent_said"),
    ],
)
def test_bad_rules_stop_the_run_before_it_is_recorded_with_one_line(
    tmp_path, monkeypatch, text, says
):
    (tmp_path / "rules.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        _play(tmp_path, {"target": "tests.metrics.rules_app:Lockers", "rules": "rules.yaml"},
              monkeypatch)  # fmt: skip
    message = str(caught.value)
    assert says in message and "rules.yaml" in message and "environment.rules" in message
    assert "\n" not in message
    store = open_store(tmp_path / "store.db")
    try:
        assert store.db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
    finally:
        store.close()


def test_a_missing_rules_file_names_the_key(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="environment.rules.*no such rules file"):
        _play(tmp_path, {"target": "tests.metrics.rules_app:Lockers", "rules": "nope.yaml"},
              monkeypatch)  # fmt: skip
