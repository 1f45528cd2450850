"""Browser sessions: allowed origins, snapshots, crashes and closing."""

from __future__ import annotations

import json
import signal
import socket

import anyio
import psutil
import pytest

from tests.browser.conftest import log_in
from vistasim.browser import BrowserPool, Click, Navigate, TypeText, launch_chromium
from vistasim.errors import BrowserError, ConfigError

pytestmark = pytest.mark.browser


async def test_navigation_to_a_disallowed_origin_is_an_action_error(session, shop):
    await session.goto(f"{shop}/")
    result = await session.act(Navigate(url="https://elsewhere.example.com/steal"))
    assert not result.ok
    assert "'https://elsewhere.example.com/steal' is blocked" in result.error
    assert shop in result.error  # names the allowed origins
    assert session.page.url == f"{shop}/"


async def test_clicking_a_link_off_site_is_blocked_and_stays_on_the_site(session, site):
    await session.goto(f"{site}/links")
    await session.observe()
    result = await session.act(Click(target="away"))
    assert not result.ok and "elsewhere.example.com" in result.error
    assert session.page.url == f"{site}/links"


async def test_subresources_from_other_origins_are_not_fetched(session, site):
    requested: list[str] = []
    session.page.on("requestfailed", lambda request: requested.append(request.url))
    await session.goto(f"{site}/links")
    await anyio.sleep(0.05)
    assert requested == ["https://tracker.example.com/pixel.png"]


async def test_goto_a_disallowed_origin_does_not_raise(session):
    result = await session.goto("http://127.0.0.1:9/")
    assert not result.ok and "not an origin this run allows" in result.error


async def test_data_urls_are_always_allowed(session):
    result = await session.goto("data:text/html,<title>inline</title>")
    assert result.ok
    assert (await session.observe()).title == "inline"


async def test_snapshot_restore_brings_back_url_cookies_and_widget_transcript(session, shop):
    await log_in(session, shop)
    await session.goto(f"{shop}/orders/W1007")
    await session.observe()
    await session.act(TypeText(target="chat-input", text="Hello there", enter=True))
    state = await session.snapshot()
    saved = json.loads(state)
    assert saved["url"] == f"{shop}/orders/W1007"
    assert saved["chat"][0] == {"role": "user", "text": "Hello there"}

    await session.goto(f"{shop}/")
    await session.page.context.clear_cookies()
    await session.restore(state)

    view = await session.observe()
    assert view.url == f"{shop}/orders/W1007"
    assert "Order W1007" in view.text  # still logged in: the session cookie came back
    assert [m.text for m in view.chat][:1] == ["Hello there"]
    assert await session.snapshot() == state


async def test_restore_isolates_from_the_cookies_set_after_the_snapshot(session, site):
    await session.goto(f"{site}/plain")
    state = await session.snapshot()
    await session.goto(f"{site}/cookie")
    assert [c["name"] for c in await session.page.context.cookies()] == ["flavour"]
    await session.restore(state)
    assert await session.page.context.cookies() == []


async def test_restore_rejects_bytes_that_are_not_a_snapshot(session):
    with pytest.raises(BrowserError, match="not a browser snapshot"):
        await session.restore(b'{"hello": 1}')


async def test_screenshot_is_a_small_jpeg_thumbnail(session, shop):
    await session.goto(f"{shop}/")
    image = await session.screenshot()
    assert image.startswith(b"\xff\xd8\xff") and len(image) < 60_000
    frame = image.index(b"\xff\xc0")  # baseline frame header: length, precision, height, width
    height, width = (
        int.from_bytes(image[frame + 5 : frame + 7]),
        int.from_bytes(image[frame + 7 : frame + 9]),
    )
    assert (width, height) == (512, 320)  # 40 % of the 1280 x 800 viewport


async def test_close_is_idempotent_and_later_calls_raise(pool, shop):
    session = await pool.new_session(allowed_origins=[shop])
    await session.close()
    await session.close()
    with pytest.raises(BrowserError, match="session is closed"):
        await session.observe()


async def test_allowed_origins_must_be_http_urls(pool):
    with pytest.raises(ConfigError, match="'example.com'"):
        await pool.new_session(allowed_origins=["example.com"])


def chromium_main_pids() -> set[int]:
    pids = set()
    for proc in psutil.Process().children(recursive=True):
        try:
            cmdline = proc.cmdline()
        except psutil.NoSuchProcess:
            continue
        if cmdline and "chrom" in proc.name() and not any(a.startswith("--type=") for a in cmdline):
            pids.add(proc.pid)
    return pids


async def test_browser_crash_raises_and_the_next_session_relaunches(chromium, shop):
    launched: list[set[int]] = []

    async def launcher(browser_type, **options):
        before = chromium_main_pids()
        browser = await launch_chromium(browser_type, **options)
        launched.append(chromium_main_pids() - before)
        return browser

    async with BrowserPool(executable=chromium, launcher=launcher) as pool:
        session = await pool.new_session(allowed_origins=[shop])
        await session.goto(f"{shop}/")
        (pid,) = launched[0]
        psutil.Process(pid).send_signal(signal.SIGKILL)
        with pytest.raises(BrowserError, match="browser") as caught:
            for _ in range(50):  # the driver notices the dead pipe within a few ms
                await session.observe()
                await anyio.sleep(0.02)
        assert "the browser process died" in str(caught.value)
        await session.close()

        fresh = await pool.new_session(allowed_origins=[shop])
        assert (await fresh.goto(f"{shop}/")).ok
        assert pool.launches == 2


async def test_another_port_on_the_same_host_is_another_origin(pool, shop, site):
    from playwright.async_api import Error

    session = await pool.new_session(allowed_origins=[shop])
    try:
        assert (await session.goto(f"{shop}/")).ok
        # Past the action check the route answers 204, so the browser stays where it was.
        with pytest.raises(Error, match="ERR_ABORTED"):
            await session.page.goto(f"{site}/plain")
        assert session.page.url == f"{shop}/"
    finally:
        await session.close()


async def test_pool_launches_once_lazily_for_concurrent_sessions(chromium, shop):
    async with BrowserPool(executable=chromium) as pool:
        assert pool.launches == 0
        sessions = []

        async def open_one():
            sessions.append(await pool.new_session(allowed_origins=[shop]))

        async with anyio.create_task_group() as group:
            for _ in range(3):
                group.start_soon(open_one)
        assert pool.launches == 1
        results = [await s.goto(f"{shop}/cart") for s in sessions]
        assert all(r.ok for r in results)
    assert all(s.closed for s in sessions)


async def test_unreachable_allowed_site_is_an_action_error(pool):
    with socket.socket() as probe:  # a port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{probe.getsockname()[1]}"
    session = await pool.new_session(allowed_origins=[base])
    try:
        result = await session.goto(f"{base}/")
    finally:
        await session.close()
    assert not result.ok and "ERR_CONNECTION_REFUSED" in result.error
