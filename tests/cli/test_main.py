"""The command group: lazily loaded commands, a cheap `--help`."""

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from vistasim.cli import cli
from vistasim.cli.main import COMMANDS


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_help_table_matches_each_commands_own_help(name):
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.name == name
    assert COMMANDS[name] == command.get_short_help_str(limit=1000)


def test_help_looks_as_it_does_with_every_command_loaded():
    class Eager(click.Group):
        pass

    eager = Eager(name="vistasim", help=cli.help, params=cli.params,
                  context_settings=cli.context_settings)  # fmt: skip
    for name in COMMANDS:
        eager.add_command(cli.get_command(click.Context(cli), name))
    lazy = CliRunner().invoke(cli, ["--help"]).output.split("Commands:")[1]
    assert lazy == CliRunner().invoke(eager, ["--help"]).output.split("Commands:")[1]


def test_help_imports_only_what_it_prints():
    code = (
        "import sys; from vistasim.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('vistasim', 'pydantic', 'rich',"
        " 'httpx2', 'anyio', 'openai'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = eval(out.stdout.strip().splitlines()[-1])
    assert loaded == ["vistasim", "vistasim._lazy", "vistasim.cli", "vistasim.cli.main"]


def test_a_local_run_loads_neither_ray_nor_the_browser_nor_the_metrics_before_it_starts():
    # What `vistasim run` imports before its first model call, for a chat run without gates:
    # the run command, the explorer and the gate options (start-up is a benchmarked figure).
    code = (
        "import sys, vistasim.cli.run, vistasim.explore\n"
        "from vistasim.cli._gates import GateRequest\n"
        "GateRequest.of(False, (), None)\n"
        "import vistasim.cli._progress, vistasim.cli._summary\n"
        "print(sorted(m for m in sys.modules if m.startswith(('vistasim', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(eval(out.stdout.strip().splitlines()[-1]))
    assert {"vistasim.explore._run", "vistasim.browser._types", "vistasim.user._llm"} <= loaded
    late = {"vistasim.explore._ray", "vistasim.explore._ray_worker", "vistasim.browser._pool",
            "vistasim.browser._session", "vistasim.metrics", "vistasim.domains",
            "rich", "rich.console",  # when a console is made, on a terminal
            # the agenda user's operations and value pools: branching and `--perturb` only
            "vistasim.user._agenda_ops", "vistasim.user._plausible",
            "vistasim.user._reading"}  # fmt: skip
    assert not late & loaded


def test_an_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(cli, ["rnu"])
    assert result.exit_code == 2 and "No such command 'rnu'" in result.output


_GC_SPY = """
import gc, sys
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(1))
at_run = []
freeze = gc.freeze
def spy():  # the run's `fewer_collections` freezes the heap as it starts
    at_run.append((len(collections), gc.isenabled()))
    freeze()
gc.freeze = spy
from vistasim.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("gc:", (at_run, len(collections), gc.isenabled()))
"""


def _spied(stdout: str) -> tuple[list[tuple[int, bool]], int, bool]:
    return eval(next(line for line in stdout.splitlines() if line.startswith("gc: "))[4:])


def test_a_run_does_not_collect_garbage_while_the_command_loads_it(tmp_path):
    # Loading a run only makes objects that live on: the collector waits for the run, which
    # turns it back on (start-up is a benchmarked figure).
    argv = ["demo", "--mode", "chat", "--store", str(tmp_path / "d.db")]
    out = subprocess.run([sys.executable, "-c", _GC_SPY, *argv], capture_output=True, text=True,
                         check=True, cwd=tmp_path)  # fmt: skip
    at_run, collections, enabled = _spied(out.stdout)
    assert len(at_run) == 1 and at_run[0][1] is False  # off while the command loaded the run
    assert collections > at_run[0][0] and enabled  # on again during and after the run


def test_a_run_command_that_stops_before_its_run_turns_collection_back_on(tmp_path):
    out = subprocess.run([sys.executable, "-c", _GC_SPY, "run", str(tmp_path / "none.toml")],
                         capture_output=True, text=True, check=True, cwd=tmp_path)  # fmt: skip
    at_run, _, enabled = _spied(out.stdout)
    assert at_run == [] and enabled is True


_FIRST_CALL_SPY = """
import json, threading
import vistasim.llm._transport as transport
from vistasim.testing import FakeOpenAIServer

written = []
send = transport._Connection.send
async def spy_send(self, data):
    await send(self, data)
    written.append(len(data))
transport._Connection.send = spy_send
start = threading.Thread.start
def spy_start(self):
    if self.name == "vistasim-load-rest":
        print("requests written as it starts:", len(written), flush=True)
    start(self)
threading.Thread.start = spy_start

def answer(request):
    return json.dumps({"plan": "done", "action": "finish"})

with FakeOpenAIServer(responder=answer).in_thread() as server:
    config = open("vistasim.toml", encoding="utf-8").read().replace("URL", server.base_url)
    open("vistasim.toml", "w", encoding="utf-8").write(config)
    from vistasim.cli import main
    try:
        main(["run", "vistasim.toml", "--no-preflight"])  # its check writes a request too
    except SystemExit:
        pass
"""

_CHAT_RUN = """[run]
scenarios = "s.yaml"
store = "v.db"
[user]
policy = "llm"
[models.user]
model = "u"
base_url = "URL"
api_key_env = ""
[cache]
mode = "off"
[agent]
kind = "python"
target = "echo_agent:agent"
"""


def test_a_chat_run_loads_the_rest_only_once_its_first_model_request_is_written(tmp_path):
    # The background load of the detectors would share the interpreter with the first request:
    # it starts once that request is on the wire (start-up is a benchmarked figure).
    (tmp_path / "vistasim.toml").write_text(_CHAT_RUN, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(
        "- id: s\n  persona: {name: A}\n  goal: Move my flight.\n  limits: {max_turns: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "echo_agent.py").write_text(
        "from vistasim.agent import Reply\n\nasync def agent(turn):\n    return Reply(text='ok')\n",
        encoding="utf-8",
    )
    out = subprocess.run([sys.executable, "-c", _FIRST_CALL_SPY], capture_output=True,
                         text=True, check=True, cwd=tmp_path)  # fmt: skip
    started = [line for line in out.stdout.splitlines() if line.startswith("requests written")]
    assert started == ["requests written as it starts: 1"]
