"""Agents for the web-mode runner tests, importable as `tests.explore.web_agents:<name>`."""

from __future__ import annotations

import signal

import psutil

from vistasim.agent import Turn
from vistasim.domains.shop import RuleShopAgent


def kill_chromium() -> None:
    """SIGKILL every main Chromium process started by this test process."""
    for proc in psutil.Process().children(recursive=True):
        try:
            cmdline = proc.cmdline()
            helper = any(arg.startswith("--type=") for arg in cmdline)
            if cmdline and "chrom" in proc.name() and not helper:
                proc.send_signal(signal.SIGKILL)
        except psutil.NoSuchProcess:
            continue


class BrowserKillingAgent(RuleShopAgent):
    """The shop agent, except that its first answer kills the browser (a crash mid-episode)."""

    killed = False

    async def respond(self, turn: Turn):
        if not BrowserKillingAgent.killed:
            BrowserKillingAgent.killed = True
            kill_chromium()
        return await super().respond(turn)
