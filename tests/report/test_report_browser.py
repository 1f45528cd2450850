"""The report in a real Chromium: offline, navigable, and inert to hostile text."""

import pytest

from vistasim.browser import find_chromium
from vistasim.errors import BrowserError

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # module scope: the browser and the tests share one event loop


@pytest.fixture(scope="module")
async def browser(branched_run, hostile_run):
    # The stored runs are made first: they run an event loop of their own, which cannot start
    # once this module's loop is running.
    playwright = pytest.importorskip("playwright.async_api")
    try:
        chromium = find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")
    async with playwright.async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        await launched.close()


async def _open(browser, report, hash_=""):
    """A page on the report, with every console message, page error and request recorded."""
    page = await (await browser.new_context()).new_page()
    page.set_default_timeout(10_000)
    seen = {"console": [], "requests": [], "dialogs": []}
    page.on("console", lambda m: seen["console"].append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: seen["console"].append(f"pageerror: {e}"))
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.on("dialog", lambda d: seen["dialogs"].append(d.message))
    await page.goto(report.as_uri() + hash_)
    await page.wait_for_selector("html[data-ready]", state="attached")
    return page, seen


async def test_a_failure_leads_to_its_episode_and_the_tree_to_transcripts(browser, branched_run):
    page, seen = await _open(browser, branched_run.report)
    link = page.locator(".cause .evidence a[href^='#ep-']").first
    target = (await link.get_attribute("href")).removeprefix("#")
    await link.click()
    episode = page.locator(f"[id='{target}']")
    await episode.locator(".transcript .line.agent").first.wait_for()
    assert await episode.get_attribute("open") is not None
    assert await episode.locator(".facts a[href^='#cause-']").count() > 0

    scenario = page.locator("details.scenario").last
    await scenario.locator("summary").first.click()
    node = scenario.locator("details.episode").first
    await node.locator("summary").click()
    lines = node.locator(".transcript .line")
    await lines.first.wait_for()  # drawn on the `toggle` event, which fires after the click
    assert await lines.count() > 0
    assert "user" in await lines.first.inner_text()

    assert seen["console"] == [] and seen["dialogs"] == []
    assert seen["requests"] == [branched_run.report.as_uri()]


async def test_a_branch_reads_its_parents_turns_then_its_own(browser, branched_run):
    branch = next(b for b in branched_run.view.branches if b.turn >= 1 and b.status != "abandoned")
    short = branch.episode_id.removeprefix(f"{branched_run.run_id}:")
    page, seen = await _open(browser, branched_run.report, f"#ep-{short}")
    node = page.locator(f"[id='ep-{short}']")
    assert await node.locator(".line.shared").count() > 0
    assert await node.locator(".fork").count() == 1
    assert "replaced" in await node.locator(".facts").inner_text()
    assert seen["console"] == []


async def test_hostile_agent_text_renders_as_text(browser, hostile_run):
    episode = hostile_run.view.episodes[0].episode_id.removeprefix(f"{hostile_run.run_id}:")
    page, seen = await _open(browser, hostile_run.report, f"#ep-{episode}")
    shown = await page.locator(f"[id='ep-{episode}'] .transcript").inner_text()
    assert "<script>window.pwned = 1</script>" in shown
    assert '"><img src=x onerror="window.pwned = 2">' in shown
    assert "</textarea><textarea autofocus" in shown
    assert await page.evaluate("window.pwned") is None
    assert await page.locator("img:not(.shot), textarea, a[href^='javascript:']").count() == 0
    summary = await page.locator("details.scenario summary").first.inner_text()
    assert "<img src=x" in summary
    assert seen["console"] == [] and seen["dialogs"] == []
    assert seen["requests"] == [hostile_run.report.as_uri()]
