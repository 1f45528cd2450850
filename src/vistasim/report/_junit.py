"""JUnit XML of a stored run, the test-result format every CI system reads.

One test case per scenario: it fails when any of its episodes (rollouts or branches) failed, and
the failure says why (the unique failures found in each failed episode, with their ids) and names
the episode ids to open with `vistasim show RUN --episode ID`. A scenario whose episodes say
nothing of the agent (infrastructure errors, a spoiled simulated user) is an *error*, one that
was never played is *skipped*. Gates, when given, form a second suite with one case per gate.

Agent text is untrusted: ElementTree escapes markup, and characters XML 1.0 cannot hold at all
(NUL, most control characters) are replaced, so the file always parses.
"""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from vistasim.metrics import GateResult, MetricsReport, UniqueFailure
from vistasim.store import EpisodeView, RunView

__all__ = ["render_junit"]

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_MESSAGE_LIMIT = 500


def render_junit(
    run: RunView,
    metrics: MetricsReport,
    *,
    gates: Sequence[GateResult] = (),
    hostname: str | None = None,
) -> str:
    """The run as a JUnit XML document (`<testsuites>`), one test case per scenario."""
    causes = _causes_by_episode(metrics.failures.unique)
    suites = ET.Element("testsuites", name=f"vistasim run {run.run_id}")
    suite = _suite(suites, f"vistasim.{run.name or run.run_id}", run, hostname)
    ET.SubElement(ET.SubElement(suite, "properties"), "property", name="run_id", value=run.run_id)
    by_scenario: dict[str, list[EpisodeView]] = defaultdict(list)
    for episode in run.episodes:
        by_scenario[episode.scenario_id].append(episode)
    for scenario_id in [*run.scenarios, *(s for s in by_scenario if s not in run.scenarios)]:
        _scenario_case(suite, scenario_id, by_scenario[scenario_id], metrics, causes)
    if gates:
        gate_suite = _suite(suites, "vistasim.gates", run, hostname)
        for result in gates:
            case = ET.SubElement(
                gate_suite, "testcase", name=str(result.gate), classname="vistasim.gates", time="0"
            )
            if not result.passed:
                _child(case, "failure", result.explanation, type="gate", message=result.explanation)
    _count(suites)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _suite(parent: ET.Element, name: str, run: RunView, hostname: str | None) -> ET.Element:
    stamp = datetime.fromtimestamp(run.created_at, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    host = hostname if hostname is not None else socket.gethostname()
    return ET.SubElement(parent, "testsuite", name=name, timestamp=stamp, hostname=host or "-")


def _scenario_case(
    suite: ET.Element,
    scenario_id: str,
    episodes: Sequence[EpisodeView],
    metrics: MetricsReport,
    causes: dict[str, list[UniqueFailure]],
) -> None:
    outcomes = {
        e.episode_id: metrics.success.episodes.get(e.episode_id, "unjudged") for e in episodes
    }
    case = ET.SubElement(
        suite,
        "testcase",
        name=scenario_id,
        classname=suite.get("name", "vistasim"),
        time=f"{sum(_duration(e) for e in episodes):.3f}",
    )
    _verdict(case, episodes, outcomes, metrics, causes)


def _verdict(
    case: ET.Element,
    episodes: Sequence[EpisodeView],
    outcomes: Mapping[str, str],
    metrics: MetricsReport,
    causes: dict[str, list[UniqueFailure]],
) -> None:
    """Add the case's failure, error or skip (or, when it passed, its episodes' outcomes)."""
    tally = Counter(outcomes.values())
    summary = ", ".join(f"{n} {outcome}" for outcome, n in sorted(tally.items()))
    failed = [e for e in episodes if outcomes[e.episode_id] == "failed"]
    if failed:
        lines = [_failed_lines(e, causes.get(e.episode_id, [])) for e in failed]
        first = causes.get(failed[0].episode_id)
        why = first[0].description if first else "criteria not met"
        message = f"{len(failed)} of {len(episodes)} episodes failed ({summary}): {why}"
        _child(case, "failure", "\n".join(lines), type="agent_failure", message=message)
    elif not tally["passed"] and (tally["errored"] or tally["invalid"]):
        reasons = metrics.success.reasons
        lines = [f"{e}: {outcome}: {reasons.get(e, '')}" for e, outcome in outcomes.items()]
        _child(
            case, "error", "\n".join(lines), type="not_judged", message=f"no verdict ({summary})"
        )
    elif not tally["passed"]:
        _child(case, "skipped", "", message=f"not played ({summary})")
    else:
        lines = [f"{episode}: {outcome}" for episode, outcome in outcomes.items()]
        _child(case, "system-out", "\n".join([summary, *lines]))


def _failed_lines(episode: EpisodeView, found: Sequence[UniqueFailure]) -> str:
    head = f"episode {episode.episode_id}" + (" (a branch)" if episode.branch_of else "")
    if not found:
        return f"{head}: failed"
    return head + ":\n" + "\n".join(f"  - [{u.kind}] {u.description} ({u.id})" for u in found)


def _causes_by_episode(unique: Sequence[UniqueFailure]) -> dict[str, list[UniqueFailure]]:
    by_episode: dict[str, list[UniqueFailure]] = defaultdict(list)
    for item in unique:  # named causes come first in the catalogue, so they lead each list
        for episode in item.episodes:
            by_episode[episode].append(item)
    return by_episode


def _duration(episode: EpisodeView) -> float:
    if episode.started_at is None or episode.ended_at is None:
        return 0.0
    return max(0.0, episode.ended_at - episode.started_at)


def _child(parent: ET.Element, tag: str, text: str, **attributes: str) -> None:
    clean = {
        k: _clean(v, limit=_MESSAGE_LIMIT if k == "message" else None)
        for k, v in attributes.items()
    }
    element = ET.SubElement(parent, tag, clean)
    if text:
        element.text = _clean(text)


def _clean(text: str, *, limit: int | None = None) -> str:
    text = _NOT_XML.sub("\ufffd", text)
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def _count(suites: ET.Element) -> None:
    """Fill in the counts and times every CI system reads from the suite elements."""
    totals: Counter[str] = Counter()
    time = 0.0
    for suite in suites.iter("testsuite"):
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases),
            "skipped": sum(c.find("skipped") is not None for c in cases),
        }
        suite_time = sum(float(c.get("time", "0")) for c in cases)
        suite.attrib.update({k: str(v) for k, v in counts.items()}, time=f"{suite_time:.3f}")
        totals.update(counts)
        time += suite_time
    # The root has no `skipped` in the Jenkins schema: skips are counted per suite only.
    suites.attrib.update(
        {k: str(totals[k]) for k in ("tests", "failures", "errors")}, time=f"{time:.3f}"
    )
