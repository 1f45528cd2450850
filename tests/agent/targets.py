"""Agents for the Python adapter tests, importable as `tests.agent.targets:<name>`."""

from __future__ import annotations

from vistasim.agent import Turn


def echo(turn: Turn) -> str:
    return f"echo: {turn.message}"


class Greeter:
    def __init__(self, greeting: str = "hello") -> None:
        self.greeting = greeting
        self.seen = 0

    def respond(self, turn: Turn) -> str:
        self.seen += 1
        return f"{self.greeting} #{self.seen}: {turn.message}"


class NeedsEnv:
    def __init__(self, env) -> None:
        self.env = env

    def respond(self, turn: Turn) -> str:
        return f"env is {type(self.env).__name__}"


class Counter:
    """Keeps state and can snapshot and restore it."""

    def __init__(self) -> None:
        self.state = {"count": 0, "said": []}

    async def respond(self, turn: Turn) -> str:
        self.state["count"] += 1
        self.state["said"].append(turn.message)
        return f"count={self.state['count']}"

    def snapshot(self):
        return self.state

    def restore(self, state) -> None:
        self.state = state


NOT_CALLABLE = 42
