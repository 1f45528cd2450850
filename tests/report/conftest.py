"""Stored runs the report tests share: a branched order-desk run and one with hostile replies."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest

from tests.helpers import desk_config, desk_scenarios
from vistasim.explore import run_sync
from vistasim.metrics import MetricsReport, metrics_for_run
from vistasim.report import write_report
from vistasim.scenario import Scenario
from vistasim.store import RunView, open_store, read_run_view

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

HOSTILE = [
    "<script>window.pwned = 1</script> Hello!",
    '"><img src=x onerror="window.pwned = 2"> What is your order number?',
    '[your receipt](javascript:window.pwned=3) <a href="javascript:window.pwned=4">here</a>',
    '</textarea><textarea autofocus onfocus="window.pwned=5"> done </script><!--',
]
"""Agent replies that would run script if a report ever put them in the page as markup."""


def hostile_agent(turn):
    return "\n".join(HOSTILE)


@dataclass(frozen=True)
class StoredRun:
    store: Path
    run_id: str
    report: Path
    view: RunView
    metrics: MetricsReport


def _stored(tmp: Path, config, scenarios) -> StoredRun:
    store_path = tmp / "v.db"
    result = run_sync(config, scenarios=scenarios, store=store_path)
    with open_store(store_path) as store:
        out = anyio.run(lambda: write_report(store, result.run_id, tmp / "r.html", now=NOW))
        metrics = anyio.run(lambda: metrics_for_run(store, result.run_id))
        view = read_run_view(store, result.run_id)
    return StoredRun(store_path, result.run_id, out, view, metrics)


@pytest.fixture(scope="session")
def branched_run(tmp_path_factory) -> StoredRun:
    """The order desk's five scenarios, one rollout each and one branch per scenario."""
    config = desk_config(explore={"branches": 1})
    return _stored(tmp_path_factory.mktemp("branched"), config, desk_scenarios())


@pytest.fixture(scope="session")
def hostile_run(tmp_path_factory) -> StoredRun:
    """An agent whose every reply is markup, on a scenario whose goal is markup too."""
    config = desk_config(agent={"target": "tests.report.conftest:hostile_agent"})
    scenario = Scenario.model_validate(
        {
            "id": "hostile",
            "persona": {"name": "<b>Ann</b>", "profile": "likes <i>tags</i>"},
            "goal": 'Get a refund for order W1001. <img src=x onerror="window.pwned=9">',
            "knowledge": {"order_id": "W1001"},
            "criteria": {"statements": [{"contains_any": ["refunded"]}]},
            "limits": {"max_turns": 4},
        }
    )
    return _stored(tmp_path_factory.mktemp("hostile"), config, [scenario])
