"""Defect 10: a run that fails in set-up is never left `running`; an HTTP status is said once."""

import pytest

from tests.agent.conftest import server  # noqa: F401 - the loopback HTTP server fixture
from tests.helpers import desk_config, desk_scenarios
from vistasim.config import RunConfig
from vistasim.errors import ConfigError
from vistasim.events import StopReason
from vistasim.explore import run
from vistasim.store import open_store, read_run_view


async def test_a_run_that_fails_in_set_up_is_not_left_running(tmp_path):
    config = desk_config(user={"policy": "llm"})  # and no [models.user]
    with open_store(tmp_path / "store.db") as store:
        with pytest.raises(ConfigError, match="models.user"):
            await run(config, scenarios=desk_scenarios(), store=store)
        assert [row.status for row in store.list_runs() if row.status == "running"] == []


async def test_an_http_500_is_named_once(tmp_path, server):  # noqa: F811
    server.handler = lambda request: (500, {"error": "boom"})
    config = RunConfig.model_validate(
        {
            "agent": {"kind": "http_json", "url": f"{server.url}/chat"},
            "cache": {"mode": "off"},
        }
    )
    with open_store(tmp_path / "store.db") as store:
        result = await run(config, scenarios=desk_scenarios()[:1], store=store)
        [episode] = read_run_view(store, result.run_id).episodes
    assert episode.stop.reason is StopReason.AGENT_ERROR
    assert episode.stop.detail.count("HTTP 500") == 1, episode.stop.detail


def test_runs_lists_a_failed_run_with_its_reason(tmp_path, capsys):
    from vistasim.cli import main

    with open_store(tmp_path / "store.db") as store:
        store.create_run("r1", config={}, scenarios=desk_scenarios()[:1], rollouts=1, mode="chat")
        store.finish_run("r1", "failed", failure="interrupted (Ctrl-C or cancelled)")
    main(["runs", "--store", str(tmp_path / "store.db")])
    assert "failed: interrupted" in capsys.readouterr().out
