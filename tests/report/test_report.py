from datetime import UTC, datetime

from tests.helpers import desk_config, desk_scenarios
from vistasim.explore import run
from vistasim.report import write_report
from vistasim.scenario import Persona, Scenario
from vistasim.store import open_store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def _report(tmp_path, config, scenarios):
    store = open_store(tmp_path / "v.db")
    result = await run(config, scenarios=scenarios, store=store)
    path = await write_report(store, result.run_id, tmp_path / "r.html", now=NOW)
    return result, path.read_text(encoding="utf-8"), store


async def test_report_shows_metrics_failures_and_transcripts(tmp_path):
    result, html, _ = await _report(tmp_path, desk_config(rollouts=2), desk_scenarios())
    assert f"vistasim run <code>{result.run_id}</code>" in html
    assert "TransitionEntropy" in html and "pass^2" in html
    assert "desk-return-two-items" in html  # the failing scenario is in the catalogue
    assert html.count("<details>") == 10
    assert "Generated 2026-11-30 12:00 UTC" in html


async def test_report_is_the_same_when_rendered_twice(tmp_path):
    result, html, store = await _report(tmp_path, desk_config(), desk_scenarios()[:2])
    again = await write_report(store, result.run_id, tmp_path / "again.html", now=NOW)
    assert again.read_text(encoding="utf-8") == html


async def test_agent_text_is_escaped_and_the_page_runs_no_script(tmp_path):
    config = desk_config(agent={"target": "tests.report.test_report:evil_agent"})
    scenario = Scenario(id="s", persona=Persona(name="A"), goal="Say hi.", limits={"max_turns": 1})
    _, html, _ = await _report(tmp_path, config, [scenario])
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html


def evil_agent(turn):
    return "<script>alert(1)</script><img src=x onerror=alert(2)>"
