"""Play a message sequence to a desk's agent and collect its replies and the flaws it noted."""

from __future__ import annotations

import asyncio

from vistasim.agent import Turn, Utterance
from vistasim.testing import record_flaws


def play(agent_cls, messages, env, episode_id):
    """Play `messages` to a fresh agent on `env`; return (env, replies, flaws fired)."""
    agent = agent_cls(env=env)
    history: list[Utterance] = []
    replies = []
    with record_flaws() as fired:
        for message in messages:
            turn = Turn(episode_id=episode_id, message=message, history=tuple(history))
            reply = asyncio.run(agent.respond(turn))
            replies.append(reply)
            history += [Utterance(role="user", text=message),
                        Utterance(role="agent", text=reply.text)]  # fmt: skip
    return env, replies, [f.flaw for f in fired]


def tool(env, tool_name, /, **args):
    """Run one agent-side tool directly on `env`."""
    return env.run_tool("agent", tool_name, args)


def row(env, table, **where):
    return env.select(table, where)[0]


def called(replies, name):
    """The calls of tool `name` over all `replies`."""
    return [c for r in replies for c in r.tool_calls if c["name"] == name]
