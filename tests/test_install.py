"""`pip install vistasim` without extras: the built wheel in a fresh venv runs the chat demo and
shows its results (`metrics`, `show`, `report`, `export`); what needs an extra names it in one
line.

No network: the wheel is built from this checkout with the installed `hatchling`, and the fresh
venv sees only vistasim's own dependencies (and theirs), linked from this environment; no extra's
package (openai, playwright, wordllama, numpy, fastapi, pyarrow) is importable there.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import venv
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
EXTRAS_ONLY = ("openai", "playwright", "wordllama", "numpy", "fastapi", "uvicorn", "pyarrow", "ray")


def _core_distributions() -> set[str]:
    """vistasim's requirements without extras, and theirs, by distribution name."""
    seen: set[str] = set()
    todo = ["vistasim"]
    while todo:
        dist = metadata.distribution(todo.pop())
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue  # an extra's, or another platform's
            key = requirement.name.lower().replace("_", "-")
            if key not in seen:
                seen.add(key)
                todo.append(requirement.name)
    return seen


def _link_core(site: Path) -> None:
    """Link each core distribution's top-level modules and metadata into `site`."""
    site.mkdir()
    for name in _core_distributions():
        for file in metadata.distribution(name).files or []:
            top = file.parts[0]
            source = Path(str(file.locate())).parents[len(file.parts) - 1] / top
            target = site / top
            if top in ("..", "__pycache__") or target.exists() or not source.exists():
                continue
            target.symlink_to(source)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    pytest.importorskip("hatchling", reason="the dev extra builds the wheel with hatchling")
    folder = tmp_path_factory.mktemp("install")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--quiet", "-w", str(folder / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    [wheel] = (folder / "dist").glob("vistasim-*.whl")
    env_dir = folder / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    _link_core(folder / "core")
    (site / "core.pth").write_text(str(folder / "core") + "\n", encoding="utf-8")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    return env_dir


def _vistasim(env_dir: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VISTASIM_", "PYTHON"))}
    env["VISTASIM_HOME"] = str(home)
    return subprocess.run(
        [str(env_dir / "bin" / "vistasim"), *args],
        capture_output=True, text=True, timeout=600, env=env, cwd=home,
    )  # fmt: skip


def test_the_fresh_venv_has_no_extra(fresh):
    code = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    found = subprocess.check_output([fresh / "bin" / "python", "-c", code, *EXTRAS_ONLY], text=True)
    assert found.strip() == "[]"


def test_the_wheel_without_extras_runs_the_chat_demo_and_shows_its_results(fresh, tmp_path):
    demo = _vistasim(fresh, "demo", "--mode", "chat", home=tmp_path)
    assert demo.returncode in (0, 1), demo.stderr  # 1: the demo's agent has failures, as meant
    assert "Traceback" not in demo.stderr
    store = tmp_path / "vistasim.db"
    [(run_id,)] = sqlite3.connect(store).execute("SELECT id FROM runs").fetchall()

    metrics = _vistasim(fresh, "metrics", run_id, "--json", home=tmp_path)
    assert metrics.returncode == 0, metrics.stderr
    assert '"episodes": 9' in metrics.stdout
    shown = _vistasim(fresh, "show", run_id, home=tmp_path)
    assert shown.returncode == 0 and "shop-flaw-two-items-return" in shown.stdout
    report = tmp_path / "report.html"
    written = _vistasim(fresh, "report", run_id, "-o", str(report), home=tmp_path)
    assert written.returncode == 0, written.stderr
    assert "shop-flaw-two-items-return" in report.read_text(encoding="utf-8")
    exported = _vistasim(fresh, "export", run_id, home=tmp_path)
    assert exported.returncode == 0 and exported.stdout.count("\n") > 50

    parquet = _vistasim(fresh, "export", run_id, "--format", "parquet", "-o", "x.parquet",
                        home=tmp_path)  # fmt: skip
    lines = [line for line in parquet.stderr.splitlines() if line.strip()]
    assert parquet.returncode == 2 and len(lines) == 1 and "vistasim[parquet]" in lines[0]
