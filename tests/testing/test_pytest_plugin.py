import re
import subprocess
import sys

import anyio

from tests.helpers import REPO
from vistasim.demo import OrderBook, OrderDeskAgent
from vistasim.testing import Simulator

EXAMPLES = REPO / "examples" / "pytest"


def test_the_example_tests_pass_and_the_session_report_is_written(tmp_path):
    reports = tmp_path / "reports"
    # As in a user's project: no config of ours (anyio in strict mode), the plugin found by its
    # entry point.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null",
         "--rootdir", str(tmp_path), str(EXAMPLES), "--vistasim-report", str(reports)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 passed" in result.stdout
    index = (reports / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]+\.html)"', index)
    assert len(links) == 4 and all((reports / link).is_file() for link in links)
    assert "test_a_scripted_customer_finds_the_two_items_flaw" in index and "1 failed" in index
    assert "Content-Security-Policy" in (reports / links[0]).read_text(encoding="utf-8")


def test_loading_the_plugin_imports_nothing_heavy():
    code = (
        "import sys, vistasim.pytest_plugin\n"
        "heavy = [m for m in ('pydantic', 'vistasim.explore', 'vistasim.store', 'rich', 'anyio')"
        " if m in sys.modules]\n"
        "print(heavy)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


def test_explain_says_why_an_episode_did_not_pass(tmp_path):
    scenario = {
        "id": "cancel",
        "persona": {"name": "Dana"},
        "goal": "Cancel order W1001.",
        "criteria": {"actions": [{"tool": "cancel_order", "args": {"order_id": "W1001"}}]},
    }
    simulator = Simulator(tmp_path / "v.db", tmp_path, name="t")
    result = anyio.run(
        lambda: simulator.simulate(
            scenario, agent=OrderDeskAgent, environment=OrderBook, user=["cancel W1001 <b>now</b>"]
        )
    )
    assert simulator.runs == [result.run_id] and not result.passed
    explained = result.explain()
    assert f"episode {result.run_id}:cancel:0: failed" in explained
    assert "check FAILED: required action cancel_order(order_id=W1001)" in explained
    assert "| user: cancel W1001 <b>now</b>" in explained
    assert "| stop: user_stop (the script has no more turns)" in explained


def test_vistasim_modules_are_not_assertion_rewritten_under_the_plugin():
    import vistasim.metrics._gates as gates  # imported after the plugin loaded, in this session

    assert "@py_builtins" not in vars(gates)
