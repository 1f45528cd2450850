"""On an offline run of each built-in domain, the failure catalogue names each documented flaw of
the rule agent that the run triggered exactly once, and names nothing on passing common paths.

The flaw tables of the domains' README files are the ground truth: which scenarios trigger which
flaw. They are read here only, never by the detectors.
"""

import re
from importlib import resources

import anyio
import pytest

import vistasim.llm
from vistasim.config import RunConfig
from vistasim.domains import DOMAINS, get_domain
from vistasim.events import ToolCall
from vistasim.explore import run
from vistasim.metrics import compute_metrics, load_domain_rules
from vistasim.store import open_store, read_run_view

AGENTS = {
    "shop": "vistasim.domains.shop:RuleShopAgent",
    "school": "vistasim.domains.school:RuleSchoolAgent",
}
COMMON_PATH = re.compile(r"^(?:path:)?common$|^policy(?::|$)")
"""Tags of the scenarios that exercise the normal paths and policy refusals (no flaw)."""


def documented_flaws(domain: str) -> dict[str, tuple[list[str], bool]]:
    """Flaw id -> (its scenarios, whether the offline agenda user triggers it), from the README."""
    readme = (resources.files(DOMAINS[domain]) / "README.md").read_text(encoding="utf-8")
    known = {s.id for s in get_domain(domain).scenarios()}
    flaws = {}
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| F") and len(cells) >= 4:
            scenarios = [s for s in re.findall(r"`([^`]+)`", cells[-1]) if s in known]
            # The README marks flaws that only an LLM or perturbed user triggers with "needs".
            flaws[cells[0]] = (scenarios, "needs" not in cells[-1])
    return flaws


async def _play(domain: str, store_path):
    config = RunConfig.model_validate(
        {
            "run": {"name": domain, "rollouts": 1, "mode": "chat", "concurrency": 4},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python", "target": AGENTS[domain]},
            "environment": {"target": domain},
            "cache": {"mode": "off"},
        }
    )
    store = open_store(store_path)
    try:
        result = await run(config, scenarios=get_domain(domain).scenarios(), store=store)
        view = read_run_view(store, result.run_id)
    finally:
        store.close()
    return view, await compute_metrics(view)


@pytest.fixture(scope="module", params=sorted(AGENTS))
def played(request, tmp_path_factory):
    """One offline run of a domain and its metrics, shared by the tests of that domain."""
    domain = request.param
    home = tmp_path_factory.mktemp(f"{domain}-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("VISTASIM_HOME", str(home))
        patch.setattr(vistasim.llm, "ALLOW_REQUESTS", False)
        view, report = anyio.run(_play, domain, home / "store.db")
    return domain, view, report


def _episodes(view, scenario_ids):
    return {e.episode_id for e in view.episodes if e.scenario_id in scenario_ids}


def test_the_readme_tables_give_flaws_with_scenarios(played):
    domain, _, _ = played
    flaws = documented_flaws(domain)
    assert {"F1", "F2", "F3"} <= {f for f, (_, offline) in flaws.items() if offline}
    assert all(scenarios for scenarios, _ in flaws.values())


def test_each_triggered_flaw_is_named_once_as_a_cause(played):
    domain, view, report = played
    catalogue = report.failures
    causes = [u for u in catalogue.unique if u.id in catalogue.causes]
    triggered = {f: s for f, (s, offline) in documented_flaws(domain).items() if offline}
    for flaw, scenarios in triggered.items():
        flawed = _episodes(view, scenarios)
        outcomes = {e: report.success.episodes[e] for e in flawed}
        assert set(outcomes.values()) == {"failed"}, outcomes
        naming = [c for c in causes if flawed & set(c.episodes)]
        assert len(naming) == 1, (flaw, [(c.label, c.scenarios) for c in naming])
        assert flawed <= set(naming[0].episodes), (flaw, naming[0].label)
    assert len(causes) == len(triggered), [(c.label, c.scenarios) for c in causes]


def test_flaws_the_offline_user_cannot_trigger_are_not_named(played):
    domain, view, report = played
    untriggered = [s for s, offline in documented_flaws(domain).values() if not offline]
    if not untriggered:
        pytest.skip(f"the agenda user triggers every documented flaw of {domain}")
    quiet = _episodes(view, [s for scenarios in untriggered for s in scenarios])
    named = {
        e for u in report.failures.unique if u.id in report.failures.causes for e in u.episodes
    }
    assert quiet and not quiet & named


def test_passing_common_path_episodes_have_no_named_cause(played):
    _, view, report = played
    common = {
        e.episode_id
        for e in view.episodes
        if report.success.episodes[e.episode_id] == "passed"
        and any(COMMON_PATH.match(t) for t in view.scenarios[e.scenario_id].tags)
    }
    named = {
        e for u in report.failures.unique if u.id in report.failures.causes for e in u.episodes
    }
    assert len(common) >= 15
    assert not common & named


def test_symptoms_of_one_flaw_link_to_its_cause(played):
    _, _, report = played
    catalogue = report.failures
    assert catalogue.explained_by
    assert set(catalogue.explained_by.values()) <= set(catalogue.causes)


def test_every_call_of_a_built_in_tool_is_a_write_exactly_when_its_state_changed(played):
    """The state digests agree with the domain's hand-written list of write tools, tool by tool:
    a listed tool's successful calls change a record, an unlisted tool's never do."""
    domain, view, _ = played
    listed = set(load_domain_rules(domain).behaviour.write_tools or ())
    changed: dict[str, set[bool]] = {}
    for episode in view.episodes:
        for stored in episode.events:
            call = stored.event
            if isinstance(call, ToolCall) and call.error is None:
                assert call.changes is not None, call.name
                changed.setdefault(call.name, set()).add(bool(call.changes))
    assert len(changed) >= 5
    for name, seen in changed.items():
        assert seen == {name in listed}, (name, seen)


WRITES = {
    "shop": {"apply_coupon", "cancel_order", "escalate_to_human", "exchange_item",
             "return_items", "update_address"},
    "school": {"drop_course", "enroll_student", "escalate_to_human", "reschedule_student_exam",
               "waive_fee"},
}  # fmt: skip
READS = {
    "shop": {"find_customer", "get_order", "get_product", "search_products"},
    "school": {"get_exam_schedule", "get_fee_status", "get_schedule", "list_courses",
               "verify_student"},
}  # fmt: skip


def test_each_built_in_tool_is_a_write_exactly_where_its_state_digest_changed(played):
    """Every successful call of a tool that changes the database carries the changes the
    environment saw (table, record, fields); a read never does, whatever its name says."""
    domain, view, _ = played
    changed: dict[str, set[bool]] = {}
    for episode in view.episodes:
        for stored in episode.events:
            call = stored.event
            if isinstance(call, ToolCall) and call.error is None:
                changed.setdefault(call.name, set()).add(bool(call.changes))
    assert set(changed) == WRITES[domain] | READS[domain]
    assert {t for t, seen in changed.items() if seen == {True}} == WRITES[domain]
    assert {t for t, seen in changed.items() if seen == {False}} == READS[domain]
