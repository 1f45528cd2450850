"""The browser channel of an episode: the product's site, a browser context on it, the widget.

In `ui` and `hybrid` modes each episode gets its own browser context. A built-in domain's site is
served per episode on loopback, bound to that episode's environment, so what the user does in the
UI and what the agent does in chat change the same state; an external product is reached at
`web.start_url`. The agent under test is then reached through the page's chat widget, found once
per episode (`browser.find_widget`); the page view, the snapshots and the widget adapter all read
the transcript through the selectors found. Before a run, `check_widget` opens `web.start_url`
once, so a page without a findable widget stops the run before it starts.

Snapshots (`WebChannel.snapshot`) are the browser's (`PageSession.snapshot`: URL, cookies and
storage, changed form fields, history, a form post's answer, the widget transcript) plus, on a
built-in domain's site, the site's per-session server state under the key `site`: who is logged
in, the chat history and the chat agent's state, per session cookie (`Site.snapshot_sessions`).
That state lives in the browser blob, not in the environment's: it belongs to the page's cookie
and to the site served for this episode, and the environment blob stays the domain's data alone,
the same in every mode. `WebChannel.restore` runs after the resume restored the environment; it
puts the site's sessions back first (so the page's cookie finds its session), then the page, and
rebinds the widget adapter to the new page. Since the snapshot brings the whole conversation
back, the adapter on a built-in site has the `stateless` restore strategy (nothing is re-sent).
An external product's server state is its own and in no snapshot: its adapter keeps `replay`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import anyio

from vistasim.agent import AgentAdapter, Reply, Turn
from vistasim.browser._types import PageView, WebStep
from vistasim.config import RunConfig
from vistasim.env._types import Environment
from vistasim.errors import BrowserError, ConfigError, MissingExtraError

if TYPE_CHECKING:
    from vistasim.agent import HttpTraceSource, WebChatAgent
    from vistasim.browser import BrowserPool, FoundWidget, PageSession, StepResult

__all__ = ["WebChannel", "check_widget", "open_pool", "serve_app", "web_channel"]


class SiteSessions(Protocol):
    """A built-in domain's site, whose per-session state (logins, chats) snapshots carry."""

    def snapshot_sessions(self) -> dict[str, Any]:
        """Every session's state, as JSON."""
        ...

    def restore_sessions(self, state: dict[str, Any]) -> None:
        """Bring back what `snapshot_sessions` returned."""
        ...


@dataclass(kw_only=True)
class WebChannel:
    """One episode's page: observe it, act on it, snapshot it."""

    session: PageSession
    """The episode's page (its `widget` is the one found on the page)."""
    budget_tokens: int
    screenshots: bool
    site_origin: str
    """Origin of the site the episode started on."""
    site: SiteSessions | None = None
    """The built-in domain's `Site` serving the page, whose sessions the snapshots carry."""
    widget_agent: WebChatAgent | None = None
    """The chat widget's adapter on the page, moved to the new page after a restore."""

    async def observe(self) -> PageView:
        """The current page, trimmed to the token budget."""
        view: PageView = await self.session.observe(budget_tokens=self.budget_tokens)
        return view

    async def act(self, step: WebStep) -> StepResult:
        """Carry out one web action; errors come back in the result."""
        return await self.session.act(step)

    async def snapshot(self) -> bytes:
        """The page's snapshot, with the built-in site's sessions under `site` (JSON)."""
        state: bytes = await self.session.snapshot()
        if self.site is None:
            return state
        data = json.loads(state)
        data["site"] = self.site.snapshot_sessions()
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()

    async def restore(self, state: bytes) -> None:
        """Restore a `snapshot()`: the site's sessions, then the page; rebind the widget adapter.

        A built-in domain's site is served on a new port when a run resumes, so stored URLs on
        the old origin are moved to the new one (cookies are per host, not per port).

        Raises:
            BrowserError: The snapshot cannot be brought back exactly (see
                `PageSession.restore`), or it lacks the built-in site's sessions.
        """
        try:
            data = json.loads(state)
            assert isinstance(data, dict)
        except (ValueError, AssertionError):
            raise BrowserError("not a browser snapshot (not a JSON object)") from None
        old = _origin(data.get("url", ""))
        if old and old != self.site_origin and old.startswith("http://127.0.0.1:"):
            data["url"] = self._moved(old, data["url"])
            for entry in data.get("history", []):
                entry["url"] = self._moved(old, entry["url"])
            storage = data.get("session_storage") or {}
            if storage.get("origin") == old:
                storage["origin"] = self.site_origin
        site = data.pop("site", None)
        if self.site is not None:
            if site is None:
                raise BrowserError(
                    "cannot restore the built-in site's sessions (login, chat history, chat "
                    "agent): this browser snapshot has none (it was taken by an older vistasim)"
                )
            self.site.restore_sessions(site)
        await self.session.restore(json.dumps(data).encode())
        if self.widget_agent is not None:
            self.widget_agent.rebind(self.session.page)

    def _moved(self, old: str, url: str) -> str:
        return self.site_origin + url[len(old) :] if url.startswith(old) else url


def open_pool(config: RunConfig) -> BrowserPool:
    """The run's browser pool (one browser, one context per episode), not yet launched."""
    from vistasim.browser import BrowserPool, find_chromium

    return BrowserPool(executable=find_chromium(config.web.chromium), headless=config.web.headless)


@asynccontextmanager
async def web_channel(
    config: RunConfig,
    pool: BrowserPool,
    env: Environment | None,
    make_agent: Callable[[], AgentAdapter] | None,
) -> AsyncIterator[tuple[WebChannel, AgentAdapter]]:
    """Open the episode's site and page; yield the channel and the widget agent adapter.

    Raises:
        BrowserError: The page did not open, or shows no chat widget (the episode is errored).
    """
    from vistasim.agent import WebChatAgent

    async with _site(config, env, make_agent) as (start_url, site):
        origins = config.web.allowed_origins or [_origin(start_url)]
        session = await pool.new_session(allowed_origins=origins)
        try:
            result = await session.goto(start_url)
            if not result.ok:
                raise BrowserError(f"cannot open {start_url}: {result.error}", url=start_url)
            session.widget = (await _find_widget(config, session.page)).selectors
            agent = WebChatAgent(
                session.page,
                widget=session.widget,
                settle_ms=_settle_ms(config),
                timeout_s=config.web.widget.timeout_s,
                trace=_trace(config),
                # The built-in site's sessions are in the browser snapshot: nothing to replay.
                restore_strategy="replay" if site is None else "stateless",
            )
            yield (
                WebChannel(
                    session=session,
                    budget_tokens=config.web.observation_tokens,
                    screenshots=config.web.screenshots,
                    site_origin=_origin(start_url),
                    site=site,
                    widget_agent=agent,
                ),
                agent,
            )
        finally:
            await session.close()


async def check_widget(config: RunConfig, pool: BrowserPool) -> str:
    """Open `web.start_url` once and find its chat widget; return the framework that drew it.

    Raises:
        ConfigError: The page does not open, or no widget shows on it within
            `web.widget.find_timeout_s` (the message lists the selectors tried).
    """
    url = config.web.start_url
    assert url is not None
    session = await pool.new_session(allowed_origins=config.web.allowed_origins or [_origin(url)])
    try:
        result = await session.goto(url)
        if not result.ok:
            error = result.error or ""
            fix = (
                "the server took the connection but did not answer; check that it is not stuck"
                if "Timeout" in error
                else "start the app, or fix web.start_url"
            )
            raise ConfigError(f"cannot open {url!r}: {error}; {fix}", key="web.start_url")
        try:
            found = await _find_widget(config, session.page)
            framework: str = found.framework
            return framework
        except BrowserError as exc:
            status = re.search(r"\(HTTP (\d+)\)", result.summary)
            answered = f"the page answered HTTP {status.group(1)}; " if status else ""
            raise ConfigError(f"{answered}{exc}", key="web.widget") from None
    finally:
        await session.close()


async def _find_widget(config: RunConfig, page: Any) -> FoundWidget:
    from vistasim.browser import find_widget

    spec = config.web.widget
    overrides = spec.model_dump(include=_SELECTOR_KEYS)
    return await find_widget(
        page,
        framework=spec.framework,
        overrides={**overrides, "reply_url": config.web.reply_url_pattern},
        timeout_s=spec.find_timeout_s,
    )


_SELECTOR_KEYS = {
    "input", "send", "messages", "agent_message", "author", "open_button", "container", "busy",
    "ready",
}  # fmt: skip
_BUILTIN_SETTLE_MS = 300
"""The built-in domains' widgets show a reply in one piece, so a short settle is enough."""


def _settle_ms(config: RunConfig) -> int | None:
    """The configured settle time; else a short one on built-in sites, else the adapter's."""
    if config.web.widget.settle_ms is not None or config.web.start_url:
        return config.web.widget.settle_ms
    return _BUILTIN_SETTLE_MS


@asynccontextmanager
async def _site(
    config: RunConfig, env: Environment | None, make_agent: Callable[[], AgentAdapter] | None
) -> AsyncIterator[tuple[str, SiteSessions | None]]:
    """The start URL, and the built-in domain's `Site` when vistasim serves it (else None)."""
    if config.web.start_url:
        yield config.web.start_url, None
        return
    from vistasim.explore._settings import builtin_domain

    domain = builtin_domain(config)
    if domain is None or env is None:
        raise ConfigError(
            f"mode {config.run.mode!r} needs a web page: set web.start_url to your product's "
            "page, or use a built-in domain as the environment (target = 'shop' or 'school')",
            key="web.start_url",
        )
    assert domain.make_web_app is not None
    app = domain.make_web_app(env, make_agent)
    async with serve_app(app) as url:
        yield url, app.state.site


@asynccontextmanager
async def serve_app(
    app: Any, *, host: str = "127.0.0.1", startup_timeout_s: float = 10.0
) -> AsyncIterator[str]:
    """Serve an ASGI app on `host` (a free port) for the duration of the block.

    Raises:
        BrowserError: the site could not be served (no loopback, no free port): the episode
            that needed it is errored.
    """
    server = _quiet_server(app, host)
    failed: list[BaseException] = []

    async def serve() -> None:
        try:
            await server.serve()
        except (OSError, SystemExit) as exc:  # uvicorn exits the process when it cannot bind
            failed.append(exc)

    body_error: Exception | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(serve)
        with anyio.move_on_after(startup_timeout_s):
            while not server.started and not failed:
                await anyio.sleep(0.005)
        started = server.started
        if started:
            port = server.servers[0].sockets[0].getsockname()[1]
            try:
                yield f"http://{host}:{port}/"
            except Exception as exc:  # re-raised below, outside the task group
                body_error = exc
            finally:
                server.should_exit = True
        else:
            server.should_exit = True
            tg.cancel_scope.cancel()
    # Errors are raised outside the task group, so the caller sees them, not a group of one.
    if body_error is not None:
        raise body_error
    if started:
        return
    why = f"({failed[0]!r})" if failed else f"(not started within {startup_timeout_s:g} s)"
    raise BrowserError(f"could not serve the site on {host} {why}; is the loopback interface up?")


def _quiet_server(app: Any, host: str) -> Any:
    try:
        import uvicorn
    except ImportError:
        raise MissingExtraError("uvicorn", "web") from None

    class _Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            # Several sites run at once inside a run: Ctrl-C must stop the run, not one site,
            # and overlapping handler swaps must not leave a dead server's handler installed.
            yield

    return _Server(uvicorn.Config(app, host=host, port=0, log_level="critical", lifespan="off"))


def _trace(config: RunConfig) -> HttpTraceSource | None:
    if config.web.trace_url is None:
        return None
    from vistasim.agent import HttpTraceSource

    return HttpTraceSource(config.web.trace_url)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class EpisodeAgent:
    """An agent behind the built-in site, told the episode it serves (not the site's session).

    Everything but `respond` is the wrapped agent's own (snapshot, restore, restore strategy).
    """

    def __init__(self, agent: AgentAdapter, *, episode_id: str) -> None:
        self._agent = agent
        self._episode_id = episode_id
        self.restore_strategy = agent.restore_strategy

    async def respond(self, turn: Turn) -> Reply:
        """Answer the site's turn as a turn of this episode."""
        return await self._agent.respond(dataclasses.replace(turn, episode_id=self._episode_id))

    async def aclose(self) -> None:
        """Close the wrapped agent."""
        await self._agent.aclose()

    def __getattr__(self, name: str) -> object:
        return getattr(self._agent, name)
