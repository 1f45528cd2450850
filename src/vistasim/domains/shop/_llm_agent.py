"""The shop's LLM support agent: OpenAI-style tool calling with the written policy as its prompt.

Works with any `ChatModel` (an OpenAI-compatible endpoint or a scripted fake). The tool-calling
loop is `ToolCallingAgent`'s; the shop supplies its policy and its words for giving up.
"""

from __future__ import annotations

from importlib import resources

from vistasim.domains._tool_agent import ToolCallingAgent

__all__ = ["LLMShopAgent", "system_prompt"]

GAVE_UP = "I'm sorry, I couldn't finish that just now. Could you say again what you need?"


def system_prompt() -> str:
    """Return the agent's instructions: the shop's policy plus how to use the tools."""
    policy = resources.files("vistasim.domains.shop").joinpath("policy.md").read_text("utf-8")
    return (
        f"{policy}\n\n## Working with tools\n"
        "- Call tools to look things up and to make changes; report their errors honestly.\n"
        "- Amounts are in cents in tool results; tell customers dollars.\n"
        "- Ask for one missing detail at a time."
    )


class LLMShopAgent(ToolCallingAgent):
    """The shop's tool-calling LLM support agent (arguments: `ToolCallingAgent`)."""

    give_up = GAVE_UP
    give_up_metadata = {"gave_up": "max_tool_rounds"}

    def instructions(self) -> str:
        """Return the policy prompt of `system_prompt()`."""
        return system_prompt()
