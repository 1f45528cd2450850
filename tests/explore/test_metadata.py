"""What a run records of its setup: the environment's clock, for reading relative dates later."""

from vistasim.config import RunConfig
from vistasim.explore._metadata import run_metadata


def _config(target):
    return RunConfig.model_validate({
        "run": {"rollouts": 1, "mode": "chat"},
        "user": {"policy": "agenda"},
        "agent": {"kind": "python", "target": "tests.metrics.rules_app:HastyDesk"},
        "environment": {"target": target},
        "cache": {"mode": "off"},
    })  # fmt: skip


def test_the_environments_clock_is_recorded_when_it_has_one():
    recorded = run_metadata(_config("benchmarks.domains.hotel:make_environment"))
    assert recorded["environment_now"].startswith("2026-06-09T10:00:00")


def test_no_clock_is_recorded_for_an_environment_without_one():
    assert "environment_now" not in run_metadata(_config("tests.metrics.rules_app:Lockers"))
