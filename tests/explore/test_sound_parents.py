"""DIVERT grows branches only from trajectories whose verdict says something of the agent."""

import anyio

from tests.helpers import desk_config, desk_scenarios
from vistasim.explore import run
from vistasim.metrics import find_all
from vistasim.store import open_store, read_run_view


def _explore(tmp_path, agent: str):
    config = desk_config(agent={"target": agent}, explore={"branches": 2, "k": 2})

    async def go():
        store = open_store(tmp_path / "store.db")
        try:
            result = await run(config, scenarios=desk_scenarios()[:2], store=store)
            return read_run_view(store, result.run_id)
        finally:
            store.close()

    return anyio.run(go)


def test_no_branch_grows_from_an_invalid_episode(tmp_path):
    view = _explore(tmp_path, "tests.explore.agents:mumbling_agent")
    outcomes = {v.outcome for v in find_all(view).verdicts.values()}
    assert outcomes == {"invalid"}
    assert view.branches == ()


def test_a_sound_trajectory_is_branched(tmp_path):
    view = _explore(tmp_path, "vistasim.demo:OrderDeskAgent")
    assert len(view.branches) >= 2
