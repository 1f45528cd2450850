"""A function-backed agent under test, so tests can drive episodes without a real agent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from vistasim.agent._python import PythonAgent
from vistasim.agent._types import Reply, Turn


class FakeAgent(PythonAgent):
    """Answer each turn with `fn(turn)`, sync or async, returning a `str` or a `Reply`.

    It behaves exactly like a Python agent function (same normalization, errors and timeout)
    and records every turn it received.

    >>> import anyio
    >>> agent = FakeAgent(lambda turn: f"you said {turn.message}")
    >>> anyio.run(agent.respond, Turn(episode_id="e1", message="hi")).text
    'you said hi'
    >>> [turn.message for turn in agent.turns]
    ['hi']
    """

    def __init__(
        self,
        fn: Callable[[Turn], str | Reply | Awaitable[str | Reply]],
        *,
        timeout_s: float = 10.0,
    ) -> None:
        super().__init__(fn, timeout_s=timeout_s)
        self.turns: list[Turn] = []
        """Every turn received, in order (for assertions)."""

    async def respond(self, turn: Turn) -> Reply:
        """Record the turn, then answer it with `fn`."""
        self.turns.append(turn)
        return await super().respond(turn)
