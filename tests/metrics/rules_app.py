"""A tiny product that is no built-in domain, for the user-supplied rules tests.

Importable as `tests.metrics.rules_app:<name>`: a locker desk whose agent frees a locker as soon
as it hears the locker's number, without asking for a confirmation.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from vistasim.agent import Reply, Turn
from vistasim.env import SqliteEnvironment, ToolFailure, tool


class LockerArgs(BaseModel):
    locker: str


class Lockers(SqliteEnvironment):
    SCHEMA_SQL = "CREATE TABLE lockers (id TEXT PRIMARY KEY, status TEXT);"

    def seed(self, db):
        db.execute("INSERT INTO lockers VALUES ('L12', 'taken')")

    @tool("Free a locker.")
    def free_locker(self, args: LockerArgs):
        found = self.db.execute("UPDATE lockers SET status = 'free' WHERE id = ?", (args.locker,))
        if found.rowcount == 0:
            raise ToolFailure(f"no locker {args.locker}")
        return {"locker": args.locker, "status": "free"}


class RuledLockers(Lockers):
    """The same product declaring its rules on the class."""

    POLICY_RULES = {
        "rules": [
            {"id": "lockers-confirm", "description": "freed a locker without a yes",
             "tool": "free_locker", "requires_agent_said": ["shall i"]},
        ]
    }  # fmt: skip


class HastyDesk:
    def __init__(self, *, env):
        self.env = env

    async def respond(self, turn: Turn) -> Reply:
        found = re.search(r"\bL\d+\b", turn.message)
        if not found:
            return Reply(text="Which locker number is it?")
        outcome = await self.env.call_tool("free_locker", {"locker": found.group(0)})
        call = {"name": "free_locker", "args": {"locker": found.group(0)},
                "result": outcome.result, "error": outcome.error}  # fmt: skip
        return Reply(text=f"Done: locker {found.group(0)} has been freed.", tool_calls=(call,))
