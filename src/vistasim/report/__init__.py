"""Reports: a self-contained HTML page per run, built from the store only."""

from vistasim.report._compare import format_comparison, render_comparison
from vistasim.report._data import EpisodeRow, Line, ReportData, build_report_data
from vistasim.report._episode_test import export_episode_test, toml_text
from vistasim.report._junit import render_junit
from vistasim.report._render import render_report, write_report

__all__ = [
    "EpisodeRow",
    "Line",
    "ReportData",
    "build_report_data",
    "export_episode_test",
    "format_comparison",
    "render_comparison",
    "render_junit",
    "render_report",
    "toml_text",
    "write_report",
]
