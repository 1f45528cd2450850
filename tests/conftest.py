"""Shared fixtures: no network, a private VISTASIM_HOME, asyncio as the anyio backend."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Point VISTASIM_HOME at a temp dir and hide real keys, so no test touches the user's files."""
    home = tmp_path / "vistasim-home"
    monkeypatch.setenv("VISTASIM_HOME", str(home))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(autouse=True)
def no_real_requests(monkeypatch):
    """Refuse model calls to anything but loopback (vistasim.llm.ALLOW_REQUESTS)."""
    import vistasim.llm

    monkeypatch.setattr(vistasim.llm, "ALLOW_REQUESTS", False)


@pytest.fixture(scope="session")
def desk_runs(tmp_path_factory):
    """A store with two runs of known differences (tests/helpers.py `store_two_desk_runs`).

    Shared by the compare, gates and JUnit tests: read it, never add runs to it.
    """
    from tests.helpers import store_two_desk_runs

    path = tmp_path_factory.mktemp("desk-runs") / "vistasim.db"
    before, after = store_two_desk_runs(path)
    return path, before, after
