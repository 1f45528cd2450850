"""Export a stored episode as a regression test: its scenario, its user turns, a config, a test.

A failing episode is worth keeping: the same user turns, played again against the agent, tell
whether a fix fixed it. `export_episode_test` writes into one directory:

- `scenarios.yaml`: the scenario exactly as the episode ran it (its criteria decide the verdict);
- `script.yaml`: the simulated user's actions, in order, for the scripted user;
- `vistasim.toml`: the run's agent, environment and mode, with `user.policy = "scripted"`, the
  cache off (the agent is asked again) and a gate, `success_rate >= 1`, so that
  `vistasim run DIR/vistasim.toml --check` exits 1 while the failure is still there;
- `test_<scenario>.py`: a pytest test through the `vistasim` fixture that passes once the replayed
  episode passes.

Paths of the run's config (rules, policy text, prompt and tool files) are rewritten relative to the
new directory. A Python agent is imported as the run imported it (`module:attr`), so the test is
run from the directory `vistasim run` was run in. The replay is exact for a deterministic agent;
an LLM agent may answer differently, which the test then shows.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import yaml

from vistasim.agent import ENVIRONMENT_TOOLS
from vistasim.config import OpenAIChatAgentSpec, RunConfig
from vistasim.store import EpisodeView, RunView, Store, read_run_view
from vistasim.user import actions_of_events, script_json

__all__ = ["export_episode_test"]

_TEST = '''"""Replays episode {episode} of run {run} ({why}).

Written by `vistasim export {run} --episode {short} --as-test`: the same user turns, played
against the agent of vistasim.toml. It fails as the episode did until the agent is fixed. Run it
from the directory `vistasim run` was run in, so the agent's module imports.
"""

from pathlib import Path

CONFIG = Path(__file__).with_name("vistasim.toml")


async def test_replay_of_{name}(vistasim):
    result = await vistasim.run_config(CONFIG)
    assert result.passed, result.explain()
'''


def export_episode_test(store: Store, run_id: str, episode: str, out_dir: str | Path) -> list[Path]:
    """Write an episode's scenario, script, config and pytest test into `out_dir`.

    Args:
        store: The store holding the run.
        run_id: The run.
        episode: The episode's id, or the end of it (`scenario:0`).
        out_dir: The directory to write (created if needed; its files are replaced).

    Returns:
        The files written.

    Raises:
        StoreError: no such run, or no single episode matches.
    """
    view = read_run_view(store, run_id)
    chosen = view.find_episode(episode)
    scenario = view.scenarios[chosen.scenario_id]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    short = chosen.episode_id.removeprefix(f"{run_id}:")
    header = f"# Episode {chosen.episode_id}, exported by vistasim for replay.\n"
    files = {
        "scenarios.yaml": header + _yaml([scenario.model_dump(mode="json", exclude_defaults=True)]),
        "script.yaml": header + _yaml({scenario.id: _script(chosen)}),
        "vistasim.toml": header + toml_text(_replay_config(view, chosen, out)),
        f"test_{_slug(short)}.py": _TEST.format(
            episode=chosen.episode_id,
            run=run_id,
            short=short,
            why=_why(view, chosen),
            name=_slug(short),
        ),
    }
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in files]


def _script(episode: EpisodeView) -> list[Any]:
    return script_json(actions_of_events(stored.event for stored in episode.events))


def _replay_config(view: RunView, episode: EpisodeView, out: Path) -> dict[str, Any]:
    """The run's config, made to replay one episode from `out`."""
    stored = RunConfig.model_validate(view.config)
    data = stored.model_dump(mode="json", exclude_defaults=True, exclude={"base_dir", "explore"})
    for section, key in _PATH_KEYS:
        value = data.get(section, {}).get(key)
        if isinstance(value, str) and value != ENVIRONMENT_TOOLS:
            data[section][key] = os.path.relpath(stored.resolve(value), out.resolve())
    if stored.agent is not None:
        data["agent"]["kind"] = stored.agent.kind  # the tag is a default: dumped only when asked
    data["run"] = {
        "scenarios": "scenarios.yaml",
        "mode": episode.mode,
        "name": f"replay of {episode.episode_id}",
        **{k: v for k, v in data.get("run", {}).items() if k in _KEPT_RUN_KEYS},
    }
    data["user"] = {"policy": "scripted", "script": "script.yaml"}
    data["cache"] = {"mode": "off"}
    data["gates"] = {"success_rate": ">= 1"}
    if isinstance(stored.agent, OpenAIChatAgentSpec) and stored.agent.seed is None:
        data["agent"]["seed"] = 0  # an endpoint that honours seeds replays more faithfully
    return data


_PATH_KEYS = (
    ("environment", "rules"),
    ("judges", "policy"),
    ("agent", "system_prompt_file"),
    ("agent", "tools"),
)
_KEPT_RUN_KEYS = ("max_turns", "episode_timeout_s", "max_reply_bytes", "seed")


def _why(view: RunView, episode: EpisodeView) -> str:
    from vistasim.metrics import success

    outcome = success(view).episodes.get(episode.episode_id, "unjudged")
    stop = episode.stop
    return f"{outcome}; it stopped with {stop.reason.value}" if stop else outcome


def _slug(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_").lower() or "episode"


def _yaml(data: object) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def toml_text(data: dict[str, Any]) -> str:
    """Write a config mapping as TOML: plain keys first, then one table per section.

    >>> print(toml_text({"run": {"rollouts": 2}, "gates": {"success_rate": ">= 1"}}), end="")
    [run]
    rollouts = 2
    <BLANKLINE>
    [gates]
    success_rate = ">= 1"
    """
    return _table(data, ())


def _table(data: dict[str, Any], path: tuple[str, ...]) -> str:
    plain = {k: v for k, v in data.items() if v is not None and not isinstance(v, dict)}
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    text = ""
    if path and (plain or not tables):
        text += f"[{'.'.join(_key(p) for p in path)}]\n"
    text += "".join(f"{_key(k)} = {_value(v)}\n" for k, v in plain.items())
    for key, value in tables.items():
        text += ("\n" if text else "") + _table(value, (*path, key))
    return text


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string, once DEL (which TOML wants escaped) is.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        items = (f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None)
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
