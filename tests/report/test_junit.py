import xml.etree.ElementTree as ET
from pathlib import Path

import anyio
import pytest
import xmlschema

from vistasim.metrics import check_gates, metrics_for_run
from vistasim.report import render_junit
from vistasim.store import open_store, read_run_view

SCHEMA = xmlschema.XMLSchema(Path(__file__).with_name("junit.xsd"))


def _run(path, run_id):
    with open_store(path) as store:
        return read_run_view(store, run_id), anyio.run(lambda: metrics_for_run(store, run_id))


def _cases(xml: str) -> dict[str, ET.Element]:
    return {c.get("name"): c for c in ET.fromstring(xml).iter("testcase")}


def test_the_junit_file_validates_and_has_one_case_per_scenario(desk_runs):
    path, before, _ = desk_runs
    view, metrics = _run(path, before)
    gates = check_gates(metrics, {"success_rate": ">= 0.9", "unique_failures": "<= 5"})
    xml = render_junit(view, metrics, gates=gates, hostname="ci")
    SCHEMA.validate(xml)
    root = ET.fromstring(xml)
    scenarios, gate_suite = root.findall("testsuite")
    assert [c.get("name") for c in scenarios.iter("testcase")] == list(view.scenarios)
    assert (scenarios.get("tests"), scenarios.get("failures"), scenarios.get("errors")) == (
        "5", "2", "0"
    )
    assert [c.get("name") for c in gate_suite] == ["success_rate >= 0.9", "unique_failures <= 5"]
    assert (root.get("tests"), root.get("failures")) == ("7", "3")


def test_a_failed_scenario_carries_its_cause_and_episode_ids(desk_runs):
    path, before, _ = desk_runs
    view, metrics = _run(path, before)
    failure = _cases(render_junit(view, metrics, hostname="ci"))["desk-return-two-items"][0]
    assert failure.tag == "failure" and failure.get("type") == "agent_failure"
    assert failure.get("message").startswith("2 of 2 episodes failed (2 failed): criteria not met")
    assert f"episode {before}:desk-return-two-items:0:" in failure.text
    assert f"episode {before}:desk-return-two-items:1:" in failure.text
    assert "(F0d37ca3cff)" in failure.text


def test_scenarios_without_a_verdict_are_errors_or_skips(desk_runs):
    path, before, _ = desk_runs
    view, metrics = _run(path, before)
    episodes = dict(metrics.success.episodes)
    for episode in episodes:
        if ":desk-cancel-processing:" in episode:
            episodes[episode] = "errored"
        if ":desk-return-blender:" in episode:
            episodes[episode] = "not_applicable"
    success = metrics.success.model_copy(update={"episodes": episodes})
    xml = render_junit(view, metrics.model_copy(update={"success": success}), hostname="ci")
    SCHEMA.validate(xml)
    cases = _cases(xml)
    assert cases["desk-cancel-processing"][0].tag == "error"
    assert cases["desk-return-blender"][0].tag == "skipped"
    assert cases["desk-status-shipped"][0].tag == "failure"


@pytest.mark.parametrize(
    "text",
    ["</failure><script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "nul\x00 \x1b[31m"],
)
def test_untrusted_text_stays_text_and_the_file_always_parses(desk_runs, text):
    path, before, _ = desk_runs
    view, metrics = _run(path, before)
    unique = [u.model_copy(update={"description": text}) for u in metrics.failures.unique]
    catalogue = metrics.failures.model_copy(update={"unique": unique})
    xml = render_junit(view, metrics.model_copy(update={"failures": catalogue}), hostname="ci")
    SCHEMA.validate(xml)
    failure = _cases(xml)["desk-return-two-items"][0]
    shown = text.replace("\x00", "\ufffd").replace("\x1b", "\ufffd")
    assert failure.get("message").endswith(shown) and shown in failure.text
    assert "<script>" not in xml and "<img" not in xml
