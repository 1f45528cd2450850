"""Render a stored run as one self-contained HTML file: offline, escaped, under a strict CSP.

The page loads nothing: styles and one small script are inline, allowed by their SHA-256 hashes
in the Content-Security-Policy (no `unsafe-inline`), charts are inline SVG and screenshots `data:`
URIs. Every text from agents, users and pages is escaped by the template (autoescape), and the
transcripts the script shows are JSON in a data block, with `<`, `>` and `&` escaped so no text
can close it; the script only ever sets `textContent`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from vistasim.errors import MissingExtraError
from vistasim.metrics import MetricsReport, metrics_for_run
from vistasim.report._data import ReportData, build_report_data
from vistasim.report._transcripts import EpisodeRow
from vistasim.report._trees import ScenarioRow, TreeNode
from vistasim.store import Store, paused_gc, read_run_view

__all__ = ["render_report", "write_report"]


OUTCOME_MEANINGS = {
    "passed": "criteria met and no agent failure found",
    "failed": "an agent failure: it errored, missed the criteria, or did something wrong",
    "errored": "infrastructure failed (model provider, browser): nothing is known",
    "invalid": "the simulated user failed or decided the result: not counted for the agent",
    "not_applicable": "the user policy cannot play the scenario; never played",
    "unjudged": "still running or interrupted",
}
"""What each outcome means, as the report explains it."""


def render_report(data: ReportData) -> str:
    """The report as HTML. Text from agents and pages is escaped (autoescape on)."""
    try:
        import jinja2
    except ImportError:  # a dependency of vistasim; only a broken install lacks it
        raise MissingExtraError("jinja2", "web") from None
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("vistasim.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["fmt"] = _fmt
    env.filters["secs"] = _secs
    css, script = _asset("report.css"), _asset("report.js")
    policy = (
        f"default-src 'none'; img-src data:; style-src '{_hash(css)}'; "
        f"script-src '{_hash(script)}'; base-uri 'none'; form-action 'none'"
    )
    return env.get_template("report.html.j2").render(
        data=data,
        outcome_meanings=OUTCOME_MEANINGS,
        csp=policy,
        css=_markup(css),
        script=_markup(script),
        payload=_markup(script_json(_payload(data))),
    )


async def write_report(
    store: Store, run_id: str, out: str | Path, *, now: datetime | None = None
) -> Path:
    """Write a run's report (computing and storing its metrics if needed); return the path."""
    metrics: MetricsReport = await metrics_for_run(store, run_id)
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    view = read_run_view(store, run_id, snapshots=False)
    with paused_gc():  # a large run's report is a few hundred thousand small objects, no cycle
        data = build_report_data(view, metrics, generated_at=stamp, load_blob=store.get_blob)
        html = render_report(data)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


def script_json(value: object) -> str:
    r"""JSON safe to put inside a `<script>` data block: no text in it can end the block.

    >>> print(script_json({"t": "</script><b>&"}))
    {"t":"\u003c/script\u003e\u003cb\u003e\u0026"}
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                          ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):  # fmt: skip
        text = text.replace(char, escaped)
    return text


def _payload(data: ReportData) -> dict[str, Any]:
    """What the script shows when an episode is opened: its facts and, if embedded, its lines."""
    return {
        "run": data.run_id,
        "scenarios": {s.id: _scenario_payload(s) for s in data.scenarios},
        "episodes": {row.id: _episode_payload(row) for row in data.episodes.values()},
        "failures": data.failure_names,
        "images": data.screenshots,
    }


def _scenario_payload(row: ScenarioRow) -> dict[str, Any]:
    return {
        "goal": row.goal,
        "persona": row.persona,
        "profile": row.profile,
        "criteria": list(row.criteria),
        "tags": list(row.tags),
        "passed": row.passed,
        "judged": row.judged,
        "branches": row.branches,
        "tree": _tree_payload(row.tree),
    }


def _tree_payload(nodes: tuple[TreeNode, ...]) -> list[list[Any]]:
    # [episode id, children] for an episode, [null, note] for an abandoned branch.
    return [
        [None, node.note] if node.episode is None
        else [node.episode, _tree_payload(node.children)]
        for node in nodes
    ]  # fmt: skip


def _episode_payload(row: EpisodeRow) -> dict[str, Any]:
    branch = row.branch
    realism = row.realism
    return {
        "scenario": row.scenario_id,
        "verdict": row.verdict,
        "mode": row.mode,
        "turns": row.turns,
        # A failed episode's reason is its failures' descriptions, which the script shows.
        "why": row.reason if row.verdict != "failed" else "",
        "failures": list(row.failures),
        "stop": row.stop,
        "detail": row.stop_detail,
        "branch": None if branch is None else {
            "parent": branch.parent, "turn": branch.turn, "chooser": branch.chooser,
            "rationale": branch.rationale, "replaced": branch.replaced, "status": branch.status,
            "played": branch.played, "source": branch.source, "cosine": branch.cosine,
            "detail": branch.detail,
            "candidates": [[c.text, c.source, c.cosine, c.chosen] for c in branch.candidates],
        },
        "realism": None if realism is None else [
            [rubric, score, realism.reasons.get(rubric, "")]
            for rubric, score in sorted(realism.scores.items())
        ],
        "spent": [row.tokens, round(row.cost_usd, 6), row.wall_s and round(row.wall_s, 2)],
        "parent": row.parent,
        "prefix": row.prefix,
        # Positional lines keep the JSON small: [who, turn, text, ok, effect, event, shot].
        "lines": [
            [line.who, line.turn, line.text, int(line.ok), line.effect, line.event_id,
             line.screenshot]
            for line in row.lines
        ] if row.transcript else None,
    }  # fmt: skip


def _asset(name: str) -> str:
    return (resources.files("vistasim.report") / "templates" / name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _markup(text: str) -> Any:
    from markupsafe import Markup

    return Markup(text)  # our own files and escaped JSON, never untrusted text


def _fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _secs(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"
