"""An LLM student-services agent: OpenAI-style tool calling with the written policy as prompt.

The tool-calling loop is `ToolCallingAgent`'s (the whole chat is its state); the school supplies
its role and policy, its words for giving up, and asks for deterministic sampling.
"""

from __future__ import annotations

from importlib import resources

from vistasim.domains._tool_agent import ToolCallingAgent
from vistasim.env._types import Environment
from vistasim.llm._types import ChatModel

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
    """The school's support agent driven by a chat model with tool calling.

    Args:
        env: The school environment whose tools it calls.
        model: The chat model that decides what to say and which tools to call.
        max_tool_rounds: Model calls per user turn before the agent gives up on the turn.
    """

    def __init__(self, env: Environment, model: ChatModel, *, max_tool_rounds: int = 6) -> None:
        super().__init__(
            env,
            model,
            system_prompt=system_prompt(),
            give_up=GIVE_UP,
            give_up_metadata={"stopped": "max_tool_rounds"},
            max_tool_rounds=max_tool_rounds,
            temperature=0.0,
        )
