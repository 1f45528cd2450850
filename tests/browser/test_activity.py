"""Waits measured by the page's progress: slow pages are waited for, settled pages are read."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from vistasim.browser import Click, Patience, patiently


class Quiet:
    """A page that has done nothing for `seconds` (what `patiently` asks of its activity)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def quiet_for(self) -> float:
        return self.seconds


def failing(times: int):
    tries: list[float] = []

    async def step(timeout_ms: float) -> str:
        tries.append(timeout_ms)
        if len(tries) <= times:
            raise PlaywrightTimeout(f"Timeout {timeout_ms}ms exceeded.")
        return "done"

    return step, tries


async def test_a_step_is_tried_again_with_longer_waits_while_the_page_works():
    step, tries = failing(2)
    patience = Patience(first_s=1.0, quiet_s=10.0, cap_s=10.0)
    assert await patiently(step, Quiet(0.0), patience) == "done"
    assert tries == [1000, 2000, 4000]


async def test_a_quiet_page_gets_one_try():
    step, tries = failing(5)
    with pytest.raises(PlaywrightTimeout):
        await patiently(step, Quiet(10.0), Patience(first_s=1.0, quiet_s=5.0, cap_s=10.0))
    assert tries == [1000]


async def test_a_click_waits_out_a_veil_while_the_page_talks_to_its_server(session, site):
    await session.goto(f"{site}/veiled")
    await session.observe()
    result = await session.act(Click(target="go"))  # covered for 3 s; one try used to be 2 s
    assert result.ok, result
    assert "clicked" in (await session.observe()).text


async def test_a_snapshot_waits_for_a_navigation_under_way_and_is_of_its_page(session, site):
    await session.goto(f"{site}/plain")
    async with session.page.expect_request(f"{site}/slow-page"):
        await session.page.evaluate("location.href = '/slow-page'")  # answers after 1.5 s
    state = json.loads(await session.snapshot())
    assert state["url"] == f"{site}/slow-page"
    assert "the slow page" in (await session.observe()).text
