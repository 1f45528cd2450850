"""Reports: a self-contained HTML page per run, built from the store only.

`build_report_data` turns a stored run and its metrics into `ReportData`, the typed model every
reader of results can share (the HTML report renders it); `write_report` does it all for a run.
"""

from vistasim.report._branches import BranchInfo, Candidate, action_text, branch_info
from vistasim.report._cards import Card
from vistasim.report._data import CatalogueEntry, ReportData, agent_label, build_report_data
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
    "failures_by_episode",
    "render_report",
    "script_json",
    "short_id",
    "why",
    "write_report",
]
