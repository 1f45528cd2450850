"""Agents under test for the runner tests, importable as `tests.explore.agents:<name>`."""

from __future__ import annotations

import time

import anyio

from vistasim.agent import Reply, Turn
from vistasim.demo import OrderDeskAgent


def crashing_agent(turn: Turn) -> str:
    raise RuntimeError("database connection lost")


def garbage_agent(turn: Turn) -> object:
    return 42


def confused_agent(turn: Turn) -> str:
    return "Sorry, I didn't understand. Could you rephrase?"


async def slow_agent(turn: Turn) -> str:
    await anyio.sleep(0.2)
    return "Let me check... what's your order number?"


class FailsToStart:
    def __init__(self) -> None:
        raise OSError("model weights not found")

    def respond(self, turn: Turn) -> str:
        return "never"


class SlowDesk(OrderDeskAgent):
    """The demo desk, slowed down so a test can kill a run mid-way."""

    def respond(self, turn: Turn) -> Reply:
        time.sleep(0.03)
        return super().respond(turn)


class SessionDesk(OrderDeskAgent):
    """The demo desk without snapshot/restore (so it is replayed), logging the ids it is sent."""

    seen: list[tuple[str, str]] = []
    """(episode id of the turn, message), for every turn of every instance."""

    snapshot = None  # type: ignore[assignment]
    restore = None  # type: ignore[assignment]

    def respond(self, turn: Turn) -> Reply:
        SessionDesk.seen.append((turn.episode_id, turn.message))
        return super().respond(turn)


def mumbling_agent(turn: Turn) -> str:
    """Answers nothing a user could read: its episodes end `invalid` (the user cannot follow)."""
    return "Mm. Hm hm. Mmm."
