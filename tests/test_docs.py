"""Every code block and command in docs/ runs, so the docs keep matching the code.

Each page runs in its own directory with its own `VISTASIM_HOME`, offline, blocks in order:

- `python` blocks are executed (one namespace per page);
- `sh` blocks run in bash with `set -e` (`exit=N`: the block must exit N);
- a block with `file=NAME` is written to NAME instead (a config, scenarios, an agent module);
- other `toml`, `yaml` and `json` blocks must parse; `text` blocks are output, not run;
- `needs=browser|key|network|server` marks a block that is skipped here, with the reason.

The pages must also name every metric key and every scenario field, and their links must lead
to files that exist.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.helpers import REPO

DOCS = REPO / "docs"
_FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
NEEDS = {
    "browser": "needs Chromium; the browser tests run these paths",
    "key": "needs a model provider's API key",
    "network": "needs the network (a package index)",
    "server": "starts a server that runs until it is stopped",
}


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    attrs: dict[str, str]
    code: str

    @property
    def where(self) -> str:
        return f"docs/{self.page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        attrs = dict(a.split("=", 1) for a in match.group(2).split() if "=" in a)
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(page.name, line, match.group(1), attrs, match.group(3)))
    return found


PAGES = sorted(DOCS.glob("*.md"))
SKIPPED = [b for page in PAGES for b in blocks(page) if "needs" in b.attrs]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_page_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    try:
        for block in blocks(page):
            if "needs" not in block.attrs:
                _run(block, tmp_path, namespace)
    finally:
        for name, module in list(sys.modules.items()):  # the page's own modules, for the next
            if str(getattr(module, "__file__", "") or "").startswith(str(tmp_path)):
                del sys.modules[name]


@pytest.mark.parametrize("block", SKIPPED, ids=lambda b: b.where)
def test_marked_blocks_are_skipped_with_a_reason(block):
    assert block.attrs["needs"] in NEEDS, f"{block.where}: needs= one of {sorted(NEEDS)}"
    pytest.skip(f"{block.where}: {NEEDS[block.attrs['needs']]}")


def _run(block: Block, tmp_path: Path, namespace: dict[str, object]) -> None:
    if "file" in block.attrs:
        target = tmp_path / block.attrs["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.code, encoding="utf-8")
    elif block.lang == "python":
        exec(compile(block.code, block.where, "exec"), namespace)
    elif block.lang == "sh":
        _shell(block, tmp_path)
    elif block.lang == "toml":
        tomllib.loads(block.code)
    elif block.lang == "yaml":
        yaml.safe_load(block.code)
    elif block.lang == "json":
        json.loads(block.code)
    else:
        assert block.lang in ("text", ""), f"{block.where}: unknown block language {block.lang!r}"


def _shell(block: Block, tmp_path: Path) -> None:
    script = "set -e\n" + block.code
    result = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    expected = int(block.attrs.get("exit", "0"))
    assert result.returncode == expected, (
        f"{block.where}: exit {result.returncode}, expected {expected}\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    assert "Traceback" not in result.stderr, f"{block.where}:\n{result.stderr[-3000:]}"


def _text_of_pages() -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in PAGES)


def test_every_metric_key_is_defined_in_the_docs():
    from vistasim.metrics import METRIC_KEYS

    text = (DOCS / "metrics.md").read_text(encoding="utf-8")
    missing = [key for key in [*METRIC_KEYS, "pass_hat_K", "success_rate_MODE"]
               if f"`{key}`" not in text]  # fmt: skip
    assert not missing, f"docs/metrics.md does not define {missing}"


def test_every_scenario_field_is_described():
    from pydantic import BaseModel

    from vistasim.scenario import Scenario

    text = (DOCS / "scenarios.md").read_text(encoding="utf-8")
    missing, seen, todo = [], set(), [Scenario]
    while todo:
        model = todo.pop()
        seen.add(model)
        for name, field in model.model_fields.items():
            if f"`{name}`" not in text:
                missing.append(f"{model.__name__}.{name}")
            for inner in _models_in(field.annotation):
                if issubclass(inner, BaseModel) and inner not in seen:
                    todo.append(inner)
    assert not missing, f"docs/scenarios.md does not describe {missing}"


def _models_in(annotation: object) -> list[type]:
    from typing import get_args

    if isinstance(annotation, type):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def test_links_between_pages_lead_to_files():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if not re.match(r"https?://", target) and not (page.parent / target).exists():
                broken.append(f"docs/{page.name}: {target}")
    assert not broken, broken
