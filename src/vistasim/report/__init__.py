"""Reports: a self-contained HTML page per run, built from the store only.

`build_report_data` turns a stored run and its metrics into `ReportData`, the typed model every
reader of results can share (the HTML report renders it); `write_report` does it all for a run.
`render_comparison`, `render_junit` and `export_episode_test` serve CI.
"""

from vistasim.report._branches import BranchInfo, Candidate, action_text, branch_info
from vistasim.report._cards import Card
from vistasim.report._compare import format_comparison, render_comparison
from vistasim.report._data import CatalogueEntry, ReportData, agent_label, build_report_data
from vistasim.report._episode_test import export_episode_test, toml_text
from vistasim.report._junit import render_junit
from vistasim.report._render import render_report, script_json, write_report
from vistasim.report._spend import Spend
from vistasim.report._transcripts import EpisodeRow, Line, short_id
from vistasim.report._trees import ScenarioRow, TreeNode
from vistasim.report._why import failures_by_episode, why

__all__ = [
    "BranchInfo",
    "Candidate",
    "Card",
    "CatalogueEntry",
    "EpisodeRow",
    "Line",
    "ReportData",
    "ScenarioRow",
    "Spend",
    "TreeNode",
    "action_text",
    "agent_label",
    "branch_info",
    "build_report_data",
    "export_episode_test",
    "failures_by_episode",
    "format_comparison",
    "render_comparison",
    "render_junit",
    "render_report",
    "script_json",
    "short_id",
    "toml_text",
    "why",
    "write_report",
]
