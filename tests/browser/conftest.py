"""Browser fixtures: one Chromium for all browser tests, one context per test, loopback sites."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.browser.sites import fixture_app, school_app, serve, shop_app
from vistasim.browser import BrowserPool, PageSession, find_chromium
from vistasim.errors import BrowserError


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    # Module scope: one browser per test module; a session-scoped async fixture would keep an
    # event loop running for the rest of the session and break later code that calls anyio.run.
    return "asyncio"


@pytest.fixture(scope="module")
def chromium() -> str:
    try:
        return find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium for the browser tests: {exc}")


@pytest.fixture(scope="module")
async def pool(chromium) -> AsyncIterator[BrowserPool]:
    async with BrowserPool(executable=chromium) as pool:
        yield pool


@pytest.fixture(scope="module")
def shop() -> Iterator[str]:
    with serve(shop_app()) as base:
        yield base


@pytest.fixture(scope="module")
def school() -> Iterator[str]:
    with serve(school_app()) as base:
        yield base


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve(fixture_app()) as base:
        yield base


@pytest.fixture
async def session(pool, shop, site) -> AsyncIterator[PageSession]:
    session = await pool.new_session(allowed_origins=[shop, site])
    yield session
    await session.close()


async def log_in(session: PageSession, shop: str, email: str = "priya.shah@example.com") -> None:
    """Log the session's browser context in to the shop (a form post the browser itself sends).

    Not `page.request`: that client is not the browser, and the origin guard's proxy, which
    only the browser knows how to bypass for the allowed origins, refuses it.
    """
    await session.page.goto(f"{shop}/login")
    status = await session.page.evaluate(
        """(email) => fetch("/login", {method: "POST", body: new URLSearchParams({email})})
            .then((response) => response.status)""",
        email,
    )
    assert status == 200, status
