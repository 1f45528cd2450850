"""An LLM student-services agent: OpenAI-style tool calling with the written policy as prompt.

The tool-calling loop is `ToolCallingAgent`'s (the whole chat is its state); the school supplies
its role and policy, its words for giving up, and asks for deterministic sampling.
"""

from __future__ import annotations

from importlib import resources

from vistasim.domains._tool_agent import ToolCallingAgent

GIVE_UP = (
    "Sorry — I couldn't finish that request. Please try again, or ask me to pass you to an advisor."
)


def system_prompt() -> str:
    """Return the agent's instructions: the role and the school's written policy."""
    policy = resources.files(__package__).joinpath("policy.md").read_text(encoding="utf-8")
    return (
        "You are the Student Services support agent of Northgate University, chatting with a "
        "student. Use the tools to read and change records; never invent ids, dates or amounts. "
        "Follow this policy exactly.\n\n" + policy
    )


class LLMSchoolAgent(ToolCallingAgent):
    """The school's tool-calling LLM support agent (arguments: `ToolCallingAgent`)."""

    give_up = GIVE_UP
    give_up_metadata = {"stopped": "max_tool_rounds"}
    temperature = 0.0

    def instructions(self) -> str:
        """Return the policy prompt of `system_prompt()`."""
        return system_prompt()
