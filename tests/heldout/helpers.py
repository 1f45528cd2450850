"""A conversation with a held-out agent against a real domain environment, flaws recorded."""

from __future__ import annotations

from dataclasses import dataclass, field

from vistasim.agent import Reply, Turn, Utterance
from vistasim.testing import record_flaws

SHOP_EMAILS = {
    "miguel": "miguel.alvarez@example.com",
    "dana": "dana.reyes@example.com",
    "priya": "priya.shah@example.com",
    "hannah": "hannah.schmidt@example.com",
    "diego": "diego.santos@example.com",
    "aisha": "aisha.okafor@example.com",
    "grace": "grace.kim@example.com",
    "sofia": "sofia.rossi@example.com",
}


@dataclass
class Conversation:
    """An agent, its environment, and what happened so far."""

    agent: object
    env: object
    replies: list[Reply] = field(default_factory=list)
    history: list[Utterance] = field(default_factory=list)
    flaws: list[str] = field(default_factory=list)

    async def say(self, *messages: str) -> Reply:
        """Send messages one by one; return the last reply."""
        for message in messages:
            turn = Turn(episode_id="heldout:0", message=message, history=tuple(self.history))
            with record_flaws() as fired:
                reply = await self.agent.respond(turn)
            self.flaws += [f.flaw for f in fired]
            self.replies.append(reply)
            self.history += [
                Utterance(role="user", text=message),
                Utterance(role="agent", text=reply.text),
            ]
        return self.replies[-1]

    @property
    def calls(self) -> list[str]:
        """Names of every tool the agent called, in order."""
        return [call.name for reply in self.replies for call in reply.tool_calls]

    def call(self, name: str):
        """The last call of one tool."""
        found = [c for r in self.replies for c in r.tool_calls if c.name == name]
        assert found, f"{name} was never called; calls: {self.calls}"
        return found[-1]

    def row(self, table: str, **where) -> dict:
        """The single row of a table that matches."""
        rows = self.env.select(table, where)
        assert len(rows) == 1, rows
        return rows[0]
