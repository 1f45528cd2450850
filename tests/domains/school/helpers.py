"""Builders for the school tests: a fresh environment with a rule agent, and a chat driver."""

from __future__ import annotations

from vistasim.agent import Reply, Turn
from vistasim.domains.school import RuleSchoolAgent, SchoolEnvironment

MAYA = ("S1001", "maya.chen@uni.example.edu")
OMAR = ("S1002", "omar.haddad@uni.example.edu")
PRIYA = ("S1003", "priya.nair@uni.example.edu")
HANNAH = ("S1005", "hannah.becker@uni.example.edu")
JONAS = ("S1010", "jonas.weber@uni.example.edu")


def make_agent() -> tuple[SchoolEnvironment, RuleSchoolAgent]:
    env = SchoolEnvironment()
    return env, RuleSchoolAgent(env=env)


async def chat(agent: RuleSchoolAgent, *messages: str) -> list[Reply]:
    replies = []
    for message in messages:
        reply = await agent.respond(Turn(episode_id="test", message=message))
        replies.append(reply)
    return replies


def tools_called(replies: list[Reply]) -> list[str]:
    return [call.name for reply in replies for call in reply.tool_calls]
