"""Web runs hold on a loaded machine: pages open one per CPU, imports done before episodes."""

import subprocess
import sys

from vistasim.config import RunConfig
from vistasim.explore import modules_for, web_concurrency


def ui_config(run: dict | None = None, web: dict | None = None) -> RunConfig:
    return RunConfig.model_validate(
        {
            "run": {"mode": "ui", **(run or {})},
            "web": {"start_url": "http://127.0.0.1:9/", **(web or {})},
        }
    )


def test_web_episodes_play_one_per_cpu_and_the_run_says_why():
    assert web_concurrency(ui_config(), cpus=4) == (
        4,
        "browser: 4 web episode(s) at a time, 4 pages open (4 CPUs here; set web.concurrency "
        "to change)",
    )


def test_a_one_cpu_machine_still_opens_two_pages():
    assert web_concurrency(ui_config(), cpus=1)[0] == 2


def test_web_concurrency_chooses_and_run_concurrency_caps():
    chosen, note = web_concurrency(ui_config(web={"concurrency": 8}), cpus=2)
    assert chosen == 8 and note.endswith("(web.concurrency)")
    capped, note = web_concurrency(ui_config({"concurrency": 1}, {"concurrency": 8}), cpus=2)
    assert capped == 1 and "1 page open (run.concurrency)" in note


def test_a_ui_run_on_a_built_in_site_loads_the_browser_and_web_server_ahead():
    config = RunConfig.model_validate({"run": {"mode": "ui"}, "environment": {"target": "shop"}})
    modules = modules_for(config)
    assert {"playwright.async_api", "uvicorn", "fastapi"} <= set(modules)
    assert "playwright.async_api" not in modules_for(RunConfig.model_validate({}))


def test_load_ahead_imports_before_the_event_loop_what_episodes_would_import_later():
    script = (
        "import sys\n"
        "from vistasim.config import RunConfig\n"
        "from vistasim.explore import load_ahead\n"
        "assert 'playwright.async_api' not in sys.modules\n"
        "load_ahead(RunConfig.model_validate({'run': {'mode': 'ui'},"
        " 'web': {'start_url': 'http://127.0.0.1:9/'}}))\n"
        "print('playwright.async_api' in sys.modules)\n"
    )
    argv = [sys.executable, "-c", script]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stderr
