"""DIVERT with models for the junction and the candidates, and the `vistasim explore` command."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from vistasim.cli.main import cli, main
from vistasim.config import RunConfig
from vistasim.domains import get_domain
from vistasim.explore import run
from vistasim.llm import ChatRequest
from vistasim.store import open_store, read_run_view
from vistasim.testing import FunctionLLM


def _text(request: ChatRequest) -> str:
    return "\n".join(str(m.content) for m in request.messages)


def _choose_last_allowed(request: ChatRequest) -> str:
    # A chooser that reads the numbered turns it was sent and picks the last allowed one.
    text = _text(request)
    allowed = re.findall(r"\[turn (\d+)\](?! \(already)", text)
    return json.dumps({"turn_index": int(allowed[-1]), "rationale": "the last open turn"})


def _two_rewordings(request: ChatRequest) -> str:
    return json.dumps(
        {"candidates": ["Hmm, could you hold on a moment?", "Wait, what would that change?"]}
    )


def _config(**explore) -> RunConfig:
    return RunConfig.model_validate(
        {
            "run": {"rollouts": 1, "concurrency": 2},
            "user": {"policy": "agenda"},
            "agent": {"kind": "python", "target": "vistasim.domains.shop:RuleShopAgent"},
            "environment": {"target": "shop"},
            "cache": {"mode": "off"},
            "models": {"chooser": {"model": "chooser-m"}, "generator": {"model": "gen-m"}},
            "explore": {"branches": 1, **explore},
        }
    )


async def test_llm_chooser_and_generator_make_branches_and_their_tokens_are_overhead():
    chooser, generator = FunctionLLM(_choose_last_allowed), FunctionLLM(_two_rewordings)
    store = open_store(":memory:")
    scenarios = list(get_domain("shop").scenarios())[:2]
    result = await run(
        _config(chooser="llm", generator="llm"),
        scenarios=scenarios,
        store=store,
        models={"chooser": chooser, "generator": generator},
        preflight=False,
    )
    view = read_run_view(store, result.run_id)
    branches = [b for b in view.branches if b.status != "abandoned"]
    assert len(branches) == 2
    for branch in branches:
        assert branch.chooser == "llm" and branch.rationale == "the last open turn"
        assert {c.source for c in branch.candidates} == {"llm"}
        assert branch.injected["action"]["text"] in {
            "Hmm, could you hold on a moment?",
            "Wait, what would that change?",
        }
        assert branch.overhead_tokens > 0
    roles = {c.role for e in view.episodes for c in e.model_calls} | {
        row[0] for row in store.db.execute("SELECT role FROM model_calls")
    }
    assert {"chooser", "generator"} <= roles
    assert chooser.requests and generator.requests


SHOP_TOML = """
[run]
scenarios = "shop.yaml"

[agent]
kind = "python"
target = "vistasim.domains.shop:RuleShopAgent"

[environment]
target = "shop"

[cache]
mode = "off"
"""


def _shop_config(tmp_path):
    wanted = list(get_domain("shop").scenarios())[:3]
    import yaml

    (tmp_path / "shop.yaml").write_text(
        yaml.safe_dump([s.model_dump(mode="json", exclude_defaults=True) for s in wanted]),
        encoding="utf-8",
    )
    path = tmp_path / "vistasim.toml"
    path.write_text(SHOP_TOML, encoding="utf-8")
    return path, wanted


def test_explore_command_runs_branches_and_shows_the_tree(tmp_path):
    config, scenarios = _shop_config(tmp_path)
    store = str(tmp_path / "v.db")
    runner = CliRunner()
    result = runner.invoke(
        cli, ["explore", str(config), "--rollouts", "1", "--branches", "2", "--store", store],
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "branches:" in result.output and "--tree SCENARIO" in result.output
    with open_store(store) as db:
        [row] = db.list_runs()
        branches = db.list_branches(row.run_id)
    assert row.config["explore"]["branches"] == 2
    assert len(branches) >= 3
    tree = runner.invoke(cli, ["show", row.run_id, "--tree", scenarios[0].id, "--store", store])
    assert tree.exit_code == 0, tree.output
    assert scenarios[0].id in tree.output and ".b1" in tree.output
    assert "at turn" in tree.output


def _main(*argv: str, capsys) -> tuple[int, list[str]]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, [line for line in err.splitlines() if line.startswith("error:")]


def test_explore_flags_are_checked_with_a_clear_error(tmp_path, capsys):
    config, _ = _shop_config(tmp_path)
    store = str(tmp_path / "v.db")
    code, lines = _main("explore", str(config), "--branches", "2", "--k", "0", "--store", store,
                        capsys=capsys)  # fmt: skip
    assert code == 2 and len(lines) == 1
    assert "--k" in lines[0] and "greater than or equal to 1" in lines[0]


def test_llm_chooser_without_a_chooser_model_is_a_config_error(tmp_path, capsys):
    config, _ = _shop_config(tmp_path)
    store = str(tmp_path / "v.db")
    code, lines = _main("explore", str(config), "--branches", "1", "--chooser", "llm",
                        "--no-preflight", "--store", store, capsys=capsys)  # fmt: skip
    assert code == 2 and len(lines) == 1
    assert "explore.chooser" in lines[0] and "[models.chooser]" in lines[0]
