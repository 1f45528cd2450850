import anyio
import pytest

from vistasim.config import load_config
from vistasim.errors import ConfigError
from vistasim.metrics import (
    METRIC_KEYS,
    check_gates,
    metric_values,
    metrics_for_run,
    parse_gate,
    parse_gate_flag,
)
from vistasim.store import open_store


def _metrics(path, run_id):
    with open_store(path) as store:
        return anyio.run(lambda: metrics_for_run(store, run_id))


def test_a_gate_is_a_comparison_with_a_number():
    gate = parse_gate("unique_failures", "<=3")
    assert (gate.op, gate.threshold) == ("<=", 3.0)
    assert gate.holds(3) and not gate.holds(4)
    assert parse_gate("cost_usd", "< 1e-2").holds(0.001)
    assert parse_gate("failed", "== 0").holds(0.0) and not parse_gate("failed", "!= 0").holds(0)


@pytest.mark.parametrize("expression", ["0.9", ">= ninety", "=> 0.9", ">= 0.9 or so", ""])
def test_an_expression_without_a_comparison_is_refused_with_the_fix(expression):
    with pytest.raises(ValueError, match="is not a threshold; write a comparison"):
        parse_gate("success_rate", expression)


def test_an_unknown_key_names_the_closest_one():
    with pytest.raises(ValueError, match="key 'sucess_rate' .did you mean 'success_rate'"):
        parse_gate("sucess_rate", ">= 0.9")
    with pytest.raises(ValueError, match="the keys are episodes, .*pass_hat_K"):
        parse_gate("zzz", ">= 1")


def test_families_of_keys_are_accepted():
    assert parse_gate("pass_hat_3", ">= 0.5").key == "pass_hat_3"
    assert parse_gate("success_rate_hybrid", ">= 0.5").key == "success_rate_hybrid"


def test_a_gate_flag_splits_at_its_comparison():
    assert parse_gate_flag("success_rate>=0.9") == ("success_rate", ">=0.9")
    with pytest.raises(ValueError, match="is not KEY OP NUMBER"):
        parse_gate_flag("success_rate 0.9")


def test_every_metric_key_has_a_value_slot_in_a_report(desk_runs):
    path, before, _ = desk_runs
    values = metric_values(_metrics(path, before))
    assert set(METRIC_KEYS) <= set(values)
    assert {"pass_hat_1", "pass_hat_2", "success_rate_chat"} <= set(values)
    assert values["success_rate"] == pytest.approx(0.6) and values["unique_failures"] == 5
    assert (values["passed"], values["failed"]) == (6, 4)


def test_gates_are_checked_against_the_run_and_say_what_they_saw(desk_runs):
    path, before, _ = desk_runs
    results = check_gates(
        _metrics(path, before),
        {"success_rate": ">= 0.9", "unique_failures": "<= 5", "realism_coherence": ">= 2"},
    )
    assert [r.passed for r in results] == [False, True, False]
    assert results[0].explanation == "success_rate >= 0.9: FAILED (success_rate = 0.6)"
    assert results[1].explanation == "unique_failures <= 5: ok (unique_failures = 5)"
    # No judge ran: a gate on a number the run does not have fails, it never passes unseen.
    assert results[2].value is None
    assert "has no value for realism_coherence" in results[2].explanation


def test_a_gate_typo_in_the_config_names_the_file_the_key_and_the_fix(tmp_path):
    path = tmp_path / "vistasim.toml"
    path.write_text('[gates]\nsucess_rate = ">= 0.9"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path, environ={})
    assert str(err.value) == (
        f"{path}: gates.sucess_rate: unknown metric key 'sucess_rate' "
        "(did you mean 'success_rate'?)"
    )


def test_a_gate_that_is_no_comparison_in_the_config_is_refused(tmp_path):
    path = tmp_path / "vistasim.toml"
    path.write_text("[gates]\nunique_failures = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="gates.unique_failures: 3 is not a threshold"):
        load_config(path, environ={})
    config = load_config(None, environ={"VISTASIM_GATES__COST_USD": "<= 5"})
    assert config.gates == {"cost_usd": "<= 5"}
