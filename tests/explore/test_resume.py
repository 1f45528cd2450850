"""A run killed with SIGKILL resumes without losing or duplicating events."""

from pathlib import Path

import pytest

from tests.helpers import KILLABLE_DESK_CONFIG as CONFIG
from tests.helpers import count_rows, episode_paths, start_and_kill, write_desk_config
from vistasim.config import load_config
from vistasim.events import Snapshot
from vistasim.explore import run
from vistasim.store import open_store, read_run_view


def _write_config(tmp_path: Path) -> Path:
    return write_desk_config(tmp_path, CONFIG)


def _start_and_kill(
    config: Path, db_path: Path, *, kind: str = "user_message", at_least: int = 25
) -> None:
    start_and_kill(["run", str(config), "--store", str(db_path)], db_path,
                   kind=kind, at_least=at_least)  # fmt: skip


@pytest.mark.slow
async def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path):
    config_path = _write_config(tmp_path)
    db_path = tmp_path / "killed.db"
    _start_and_kill(config_path, db_path)
    unfinished = count_rows(
        db_path, "SELECT COUNT(*) FROM episodes WHERE status IN ('pending', 'running')"
    )
    assert unfinished > 0, "nothing was left to resume"

    with open_store(db_path) as store:
        [run_row] = store.list_runs()
        assert run_row.status == "running"
        await run(resume=run_row.run_id, store=store)
        resumed = read_run_view(store, run_row.run_id)
        events_in_table = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

    reference_store = open_store(tmp_path / "reference.db")
    config = load_config(config_path, environ={})
    result = await run(config, store=reference_store)
    reference = read_run_view(reference_store, result.run_id)

    assert resumed.status == "done"
    assert episode_paths(resumed) == episode_paths(reference)
    # No orphan or duplicated event: the table holds exactly the roots plus every episode's path.
    on_paths = sum(len(e.events) for e in resumed.episodes)
    assert events_in_table == on_paths + len(resumed.scenarios)


HYBRID_CONFIG = """
[run]
scenarios = "shop.yaml"
mode = "hybrid"
rollouts = 2
concurrency = 2

[agent]
kind = "python"
target = "vistasim.domains.shop:RuleShopAgent"

[environment]
target = "shop"

[cache]
mode = "off"
"""


@pytest.mark.slow
@pytest.mark.browser
async def test_kill_9_in_hybrid_mode_then_resume_finishes_every_episode_cleanly(tmp_path):
    import yaml

    from vistasim.browser import find_chromium
    from vistasim.domains import get_domain
    from vistasim.errors import BrowserError

    try:
        find_chromium()
    except BrowserError as exc:
        pytest.skip(f"no Chromium: {exc}")
    wanted = {"shop-hybrid-refund-coupon-status", "shop-cancel-pending-order", "shop-refund-status"}
    scenarios = [s.model_dump(mode="json", exclude_defaults=True)
                 for s in get_domain("shop").scenarios() if s.id in wanted]  # fmt: skip
    (tmp_path / "shop.yaml").write_text(yaml.safe_dump(scenarios), encoding="utf-8")
    config_path = tmp_path / "vistasim.toml"
    config_path.write_text(HYBRID_CONFIG, encoding="utf-8")
    db_path = tmp_path / "killed.db"
    _start_and_kill(config_path, db_path, kind="web_action", at_least=8)
    unfinished = count_rows(
        db_path, "SELECT COUNT(*) FROM episodes WHERE status IN ('pending', 'running')"
    )
    assert unfinished > 0, "nothing was left to resume"

    with open_store(db_path) as store:
        [run_row] = store.list_runs()
        await run(resume=run_row.run_id, store=store)
        view = read_run_view(store, run_row.run_id)
        events_in_table = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert view.status == "done"
    # The page, the site's sessions and the widget come back: no resumed episode errors.
    assert all(e.status == "done" and e.stop is not None for e in view.episodes), [
        (e.episode_id, e.status, e.stop_reason, e.stop and e.stop.detail) for e in view.episodes
    ]
    assert not any(e.stop_reason == "infra_error" for e in view.episodes)
    assert events_in_table == sum(len(e.events) for e in view.episodes) + len(view.scenarios)
    for episode in view.episodes:
        turns = [e.event.turn for e in episode.events if isinstance(e.event, Snapshot)]
        assert turns == sorted(set(turns)), episode.episode_id  # no turn recorded twice
