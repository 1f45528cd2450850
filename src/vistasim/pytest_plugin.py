"""The pytest plugin: a `vistasim` fixture to simulate users from a test, and a session report.

Installed with vistasim (entry point `pytest11`), so any test can write::

    async def test_refund(vistasim):
        result = await vistasim.simulate(scenario, agent=MyAgent, environment=make_env)
        assert result.passed, result.explain()

The fixture is a `vistasim.testing.Simulator` writing into one store per session; async tests
run on anyio (the fixture asks for `anyio_backend`, so they need no marker). With
`--vistasim-report DIR`, the session ends by writing the HTML report of every run it made into
DIR, with an `index.html` listing them by test. Importing this module imports nothing of
vistasim: pytest loads it in every session, so collection stays as fast as without it.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from vistasim.testing import Simulator

__all__ = ["pytest_addoption", "vistasim"]


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """Add `--vistasim-report DIR`; keep vistasim's own modules out of assertion rewriting."""
    # pytest marks every package of a plugin's distribution for assertion rewriting, which would
    # recompile all of vistasim under the test session and add its helpers to our modules'
    # namespaces. Only the tests' asserts need rewriting, so the mark is taken back (pytest has
    # no public call for it; without the private set nothing happens).
    marked = getattr(getattr(pluginmanager, "rewrite_hook", None), "_must_rewrite", None)
    if isinstance(marked, set):
        marked.discard("vistasim")
    group = parser.getgroup("vistasim")
    group.addoption(
        "--vistasim-report",
        metavar="DIR",
        default=None,
        help="Write the HTML report of every vistasim run of the session into DIR.",
    )


class _Session:
    """The session's store and the runs each test made."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.store_path = root / "vistasim.db"
        self.runs: list[tuple[str, str]] = []
        """(test id, run id), in the order they ran."""


@pytest.fixture(scope="session")
def _vistasim_session(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[_Session]:
    session = _Session(tmp_path_factory.mktemp("vistasim"))
    yield session
    report_dir = pytestconfig.getoption("--vistasim-report")
    if report_dir and session.runs:
        _write_reports(session, Path(report_dir))


@pytest.fixture
def vistasim(
    _vistasim_session: _Session, request: pytest.FixtureRequest, anyio_backend: Any
) -> Iterator[Simulator]:
    """Simulate users against an agent: `await vistasim.simulate(scenario, agent=...)`."""
    from vistasim.testing import Simulator

    work = _vistasim_session.root / f"test-{len(_vistasim_session.runs)}-{id(request)}"
    work.mkdir(parents=True, exist_ok=True)
    simulator = Simulator(_vistasim_session.store_path, work, name=request.node.nodeid)
    yield simulator
    _vistasim_session.runs.extend((request.node.nodeid, run_id) for run_id in simulator.runs)


def _write_reports(session: _Session, out: Path) -> None:
    import anyio

    anyio.run(_write_all, session, out)


async def _write_all(session: _Session, out: Path) -> None:
    from vistasim.metrics import metrics_for_run
    from vistasim.report import write_report
    from vistasim.store import open_store

    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open_store(session.store_path) as store:
        for test, run_id in session.runs:
            path = await write_report(store, run_id, out / f"{run_id}.html")
            counts = (await metrics_for_run(store, run_id)).success.outcomes
            outcomes = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
            rows.append((test, run_id, path.name, outcomes))
    (out / "index.html").write_text(_index(rows), encoding="utf-8")


def _index(rows: list[tuple[str, str, str, str]]) -> str:
    """A page linking each test's runs (test ids and outcomes escaped; no script)."""
    body = "\n".join(
        f"<tr><td><code>{html.escape(test)}</code></td>"
        f'<td><a href="{html.escape(name)}">{html.escape(run_id)}</a></td>'
        f"<td>{html.escape(outcomes)}</td></tr>"
        for test, run_id, name, outcomes in rows
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\"><title>vistasim test session</title>"
        "<style>body{font:14px system-ui,sans-serif;margin:2rem}td,th{padding:.2rem .6rem;"
        "text-align:left}</style></head><body><h1>vistasim runs of this test session</h1>"
        f"<table><tr><th>test</th><th>run</th><th>outcomes</th></tr>\n{body}\n</table>"
        "</body></html>\n"
    )
