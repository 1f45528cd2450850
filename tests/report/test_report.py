import base64
import hashlib
import json
import re
from html import unescape

import anyio

from tests.report.conftest import HOSTILE, NOW
from vistasim.report import build_report_data, render_report, write_report
from vistasim.store import open_store


def _html(stored):
    return stored.report.read_text(encoding="utf-8")


def _payload(html):
    block = re.search(
        r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S
    )
    return json.loads(block.group(1))


def _data(stored, **options):
    return build_report_data(stored.view, stored.metrics, generated_at="now", **options)


def test_every_failure_scenario_and_episode_has_a_stable_anchor(branched_run):
    html, run = _html(branched_run), branched_run
    assert run.metrics.failures.unique, "the desk run has failures"
    for failure in run.metrics.failures.unique:
        assert f'id="cause-{failure.id}"' in html
        for episode in failure.episodes:
            assert f'href="#ep-{episode.removeprefix(run.run_id + ":")}"' in html
    for scenario in run.view.scenarios:
        assert f'id="sc-{scenario}"' in html
    episodes = _payload(html)["episodes"]
    assert set(episodes) == {e.episode_id.removeprefix(run.run_id + ":") for e in run.view.episodes}


def test_summary_counts_include_branches_and_trees_hang_them_under_their_parent(branched_run):
    data = _data(branched_run)
    branches = [e for e in data.episodes.values() if e.branch is not None]
    assert branches, "the run made branches"
    assert sum(data.outcomes.values()) == len(branched_run.view.episodes)
    episodes_card = next(c for c in data.cards if c.label == "episodes")
    assert episodes_card.value == str(len(data.episodes))
    assert f"{len(branches)} branches" in episodes_card.note
    for scenario in data.scenarios:
        for node in scenario.tree:
            for child in node.children:
                assert data.episodes[child.episode].parent == node.episode
        assert scenario.branches == sum(
            data.episodes[e].branch is not None for e in scenario.episodes
        )
    branch = branches[0].branch
    assert branch.replaced and branch.played and branch.turn >= 0
    assert any(c.chosen for c in branch.candidates)


def test_scenarios_show_goal_criteria_and_k_of_n_failed_first(branched_run):
    data = _data(branched_run)
    failed = [s.failed for s in data.scenarios]
    assert failed == sorted(failed, reverse=True)
    two_items = next(s for s in data.scenarios if s.id == "desk-return-two-items")
    assert two_items.failed and two_items.goal and two_items.criteria
    assert two_items.judged == 1 and two_items.passed == 0


def test_transcripts_are_embedded_in_triage_order_within_the_budget(branched_run):
    whole = _data(branched_run)
    assert whole.omitted == 0
    assert _data(branched_run, transcript_budget=0).omitted == len(whole.episodes)
    half = sum(len(line.text) + 40 for e in whole.episodes.values() for line in e.lines) // 2
    part = _data(branched_run, transcript_budget=half)
    kept = [e for e in part.episodes.values() if e.transcript]
    assert 0 < len(kept) < len(part.episodes)
    for episode in kept:  # a branch's transcript starts with its parent's lines
        assert episode.parent is None or part.episodes[episode.parent].transcript
    parents = {e.parent for e in kept}
    if any(e.verdict == "passed" and e.id not in parents for e in kept):
        assert all(e.transcript for e in part.episodes.values() if e.verdict == "failed")


def test_the_report_is_the_same_when_rendered_twice(branched_run, tmp_path):
    with open_store(branched_run.store) as store:
        again = anyio.run(
            lambda: write_report(store, branched_run.run_id, tmp_path / "again.html", now=NOW)
        )
    assert again.read_text(encoding="utf-8") == _html(branched_run)


def test_the_page_allows_only_its_own_style_and_script(branched_run):
    html = _html(branched_run)
    found = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    policy = unescape(found)
    assert "unsafe" not in policy and "default-src 'none'" in policy

    def allowed(tag):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", html, re.S).group(1)
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        return f"'sha256-{digest}'" in policy

    assert allowed("style") and allowed("script")
    assert "http://" not in html.split("<body>")[0] and "https://" not in html
    assert " style=" not in html  # inline style attributes would break the policy


def test_agent_and_scenario_text_is_escaped_everywhere(hostile_run):
    html = _html(hostile_run)
    assert html.count("<script") == 2  # the data block and the report's own script
    for raw in ("<img src=x onerror", "<textarea", 'href="javascript:', "<b>Ann</b>", "<!--"):
        assert raw not in html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html or "\\u003cb\\u003eAnn" in html
    lines = [line for e in _payload(html)["episodes"].values() for line in e["lines"]]
    said = "\n".join(line[2] for line in lines if line[0] == "agent")
    assert all(reply in said for reply in HOSTILE)


def test_render_report_renders_without_a_store(branched_run):
    html = render_report(_data(branched_run))
    assert html.startswith("<!doctype html>") and "Failures by cause" in html


def test_realism_shows_the_judges_reasons(branched_run):
    from vistasim.metrics import compute_metrics
    from vistasim.testing import FunctionLLM

    verdict = {"score": 2, "reason": "stiff <b>phrasing</b>"}
    rubrics = ("human_likeness", "coherence", "goal_consistency")
    judge = FunctionLLM(lambda _request: json.dumps(dict.fromkeys(rubrics, verdict)))
    metrics = anyio.run(lambda: compute_metrics(branched_run.view, judge=judge))
    data = build_report_data(branched_run.view, metrics, generated_at="now")
    html = render_report(data)
    assert data.realism_lowest and data.realism_lowest[0].reasons["coherence"]
    assert "stiff &lt;b&gt;phrasing&lt;/b&gt;" in html  # in the lowest-rated table, escaped
    card = next(c for c in data.cards if c.label == "realism")
    assert card.value == "2.00 / 2.00 / 2.00"
    realism = _payload(html)["episodes"][next(iter(data.episodes))]["realism"]
    assert ["coherence", 2, "stiff <b>phrasing</b>"] in realism
