"""Episodes as a report shows them: outcome and why, branch facts, and transcript lines.

A report of a large run cannot carry every transcript whole and stay a file a browser opens in
a few seconds, so transcripts are embedded in the order a reader triages them until
`TRANSCRIPT_BUDGET` characters: first one episode showing each unique failure, then the other
failed episodes, then errored, invalid and unjudged ones, then passed ones. A branch's shared
prefix is its parent's lines, never stored twice (its parent comes with it). Each line is cut at
`LINE_LIMIT` characters (`vistasim show` prints it whole). Screenshots follow the same order,
within `SCREENSHOT_BUDGET` bytes.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, replace

from vistasim.errors import StoreError
from vistasim.events import ApiCall, UserMessage, WebAction, describe_event
from vistasim.metrics import EpisodeRealism, MetricsReport, UniqueFailure
from vistasim.report._branches import BranchInfo, branch_info
from vistasim.report._why import failures_by_episode, why
from vistasim.store import EpisodeView, RunView, StoredEvent

__all__ = [
    "LINE_LIMIT",
    "SCREENSHOT_BUDGET",
    "TRANSCRIPT_BUDGET",
    "EpisodeRow",
    "Line",
    "embed_screenshots",
    "episode_rows",
    "short_id",
]

LINE_LIMIT = 2_000
"""Characters of one transcript line kept in a report."""
VALUE_LIMIT = 200
"""Characters of each JSON value (arguments, results) quoted in a line."""
TRANSCRIPT_BUDGET = 8_000_000
"""Characters of transcript lines embedded in one report."""
SCREENSHOT_BUDGET = 6_000_000
"""Bytes of screenshots embedded in one report."""
SCREENSHOT_LIMIT = 250_000
"""A screenshot larger than this (a full-size PNG of an older run) is not embedded."""

_PRIORITY = {"failed": 1, "errored": 2, "invalid": 3, "unjudged": 4, "not_applicable": 5}


@dataclass(frozen=True, kw_only=True)
class Line:
    """One line of a transcript."""

    who: str
    """`user`, `agent`, `tool`, `api`, `web`, `verdict`, `note` or `stop`."""
    text: str
    turn: int
    ok: bool = True
    """False for failed tool calls, web actions and checks, shown in red."""
    effect: str = ""
    """What the call or web action changed in the environment."""
    event_id: int | None = None
    screenshot: str | None = None
    """Blob hash of the screenshot taken after a web action."""


@dataclass(frozen=True, kw_only=True)
class EpisodeRow:
    """An episode in the report."""

    id: str
    """The episode id without the run's prefix (`scenario:rollout`, `scenario:0.b1`)."""
    scenario_id: str
    rollout: int
    mode: str
    status: str
    stop: str
    stop_detail: str = ""
    verdict: str
    """The episode's outcome: `passed`, `failed`, `errored`, `invalid`, `not_applicable`..."""
    reason: str = ""
    """Why it has that outcome: the verdict's reason, or the failures found in it."""
    failures: tuple[str, ...] = ()
    """Ids of the unique failures this episode shows, causes first."""
    turns: int
    """User actions in the whole conversation (a branch's prefix included)."""
    branch: BranchInfo | None = None
    lines: tuple[Line, ...] = ()
    """The episode's own lines (a branch's after its fork); empty when not embedded."""
    prefix: int = 0
    """For a branch: how many of its parent's lines come before its own."""
    transcript: bool = False
    """Whether the transcript is embedded in the report (`lines` and `prefix` are set)."""
    realism: EpisodeRealism | None = None
    tokens: int = 0
    """Model tokens (input + output) the episode's calls spent."""
    cost_usd: float = 0.0
    wall_s: float | None = None

    @property
    def parent(self) -> str | None:
        """Short id of the episode this branch forked from."""
        return self.branch.parent if self.branch else None


def short_id(run_id: str, episode_id: str) -> str:
    """An episode id without its run's prefix, as reports and `vistasim show` print it."""
    return episode_id.removeprefix(f"{run_id}:")


def episode_rows(
    view: RunView, metrics: MetricsReport, *, budget: int = TRANSCRIPT_BUDGET
) -> dict[str, EpisodeRow]:
    """Every episode of the run as a report row, transcripts chosen within the budget."""
    found = failures_by_episode(metrics)
    realism = (
        {e.episode_id: e for e in metrics.realism.episodes} if metrics.realism.computed else {}
    )
    branches = {b.episode_id: b for b in view.branches}
    rows = {}
    for episode in view.episodes:
        failures = found.get(episode.episode_id, [])
        branch = branches.get(episode.episode_id)
        row = _row(view.run_id, episode, metrics, failures)
        rows[row.id] = replace(
            row,
            branch=branch_info(branch, view.run_id) if branch else None,
            realism=realism.get(episode.episode_id),
        )
    witnesses = {
        short_id(view.run_id, u.episodes[0]) for u in metrics.failures.unique if u.episodes
    }
    episodes = {short_id(view.run_id, e.episode_id): e for e in view.episodes}
    return _embed(rows, episodes, witnesses, budget)


def _row(
    run_id: str,
    episode: EpisodeView,
    metrics: MetricsReport,
    failures: list[UniqueFailure],
) -> EpisodeRow:
    calls = [c for c in episode.model_calls if not c.cache_hit]
    stop = episode.stop
    verdict = metrics.success.episodes.get(episode.episode_id, "unjudged")
    return EpisodeRow(
        id=short_id(run_id, episode.episode_id),
        scenario_id=episode.scenario_id,
        rollout=episode.rollout,
        mode=episode.mode,
        status=episode.status,
        stop=stop.reason.value if stop else "-",
        stop_detail=stop.detail if stop else "",
        verdict=verdict,
        reason=why(metrics, episode.episode_id, failures),
        failures=tuple(f.id for f in failures),
        turns=sum(isinstance(e.event, UserMessage | ApiCall | WebAction) for e in episode.events),
        transcript=False,
        tokens=sum(c.usage.input_tokens + c.usage.output_tokens for c in calls),
        cost_usd=sum(c.cost_usd for c in episode.model_calls),
        wall_s=(
            episode.ended_at - episode.started_at
            if episode.ended_at is not None and episode.started_at is not None
            else None
        ),
    )


class _Lines:
    """Transcript lines by event: a branch's prefix events are its parent's, read once."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[Line, ...]] = {}

    def of(self, stored: StoredEvent) -> tuple[Line, ...]:
        lines = self._seen.get(stored.id)
        if lines is None:
            lines = self._seen[stored.id] = tuple(lines_of(stored))
        return lines

    def with_transcript(self, row: EpisodeRow, episode: EpisodeView) -> EpisodeRow:
        """`row` with its own lines and the count of the lines it shares with its parent."""
        own = {e.id for e in episode.own_events}
        return replace(
            row,
            lines=tuple(line for e in episode.events if e.id in own for line in self.of(e)),
            prefix=sum(len(self.of(e)) for e in episode.events if e.id not in own),
            transcript=True,
        )


def lines_of(stored: StoredEvent) -> Iterator[Line]:
    """The transcript lines of a stored event, each cut at `LINE_LIMIT` characters."""
    event = stored.event
    shot = event.screenshot_ref if isinstance(event, WebAction) else None
    for line in describe_event(event, limit=VALUE_LIMIT):
        yield Line(
            who=line.who,
            text=_cut(line.text),
            turn=stored.turn,
            ok=line.ok,
            effect=_cut(line.effect),
            event_id=stored.id,
            screenshot=shot,
        )


def _cut(text: str) -> str:
    if len(text) <= LINE_LIMIT:
        return text
    return f"{text[:LINE_LIMIT]}… (cut at {LINE_LIMIT} of {len(text)} characters)"


def _size(row: EpisodeRow) -> int:
    return sum(len(line.text) + len(line.effect) + 40 for line in row.lines)


def _order(rows: Mapping[str, EpisodeRow], first: Collection[str] = ()) -> list[EpisodeRow]:
    """The episodes in `first`, then failed, errored, invalid, unjudged, passed; else run order."""
    return sorted(rows.values(), key=lambda r: 0 if r.id in first else _PRIORITY.get(r.verdict, 9))


def _embed(
    rows: dict[str, EpisodeRow],
    episodes: Mapping[str, EpisodeView],
    first: Collection[str],
    budget: int,
) -> dict[str, EpisodeRow]:
    """Give rows their transcripts in triage order until the budget is spent.

    Lines are made only for the episodes embedded: on a large run most are never drawn.
    """
    lines = _Lines()
    spent = 0
    for row in _order(rows, first):
        chain = [
            lines.with_transcript(r, episodes[r.id])
            for r in _with_ancestors(rows[row.id], rows)
            if not rows[r.id].transcript
        ]
        cost = sum(_size(r) for r in chain)
        if spent + cost > budget:
            break  # strictly in triage order: nothing after the first that does not fit
        spent += cost
        rows.update((r.id, r) for r in chain)
    return rows


def _with_ancestors(row: EpisodeRow, rows: Mapping[str, EpisodeRow]) -> list[EpisodeRow]:
    # A branch's transcript begins with its parent's lines: the parent must be embedded too.
    chain = [row]
    while chain[-1].parent is not None and chain[-1].parent in rows and len(chain) < 1000:
        chain.append(rows[chain[-1].parent])
    return chain


def embed_screenshots(
    rows: Mapping[str, EpisodeRow], load_blob: Callable[[str], bytes]
) -> dict[str, str]:
    """Screenshots of the embedded transcripts as `data:` URIs, within `SCREENSHOT_BUDGET`."""
    images: dict[str, str] = {}
    spent = 0
    for row in _order(rows):
        for line in row.lines:
            ref = line.screenshot
            if ref is None or ref in images:
                continue
            try:
                data = load_blob(ref)
            except StoreError:  # a missing blob only loses its thumbnail
                continue
            mime = _image_type(data)
            if (
                mime is None
                or len(data) > SCREENSHOT_LIMIT
                or spent + len(data) > SCREENSHOT_BUDGET
            ):
                continue
            spent += len(data)
            images[ref] = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return images


def _image_type(data: bytes) -> str | None:
    # Only the two formats vistasim writes; anything else is never put in an <img>.
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    return None
