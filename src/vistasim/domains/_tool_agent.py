"""The built-in LLM support agents: a domain's written policy on the shared tool-calling loop.

A domain's LLM agent is a chat model with the domain's policy as its system prompt and the
environment's agent tools; the loop itself is `vistasim.agent.ModelAgent`, the same one that plays
a bare OpenAI-compatible model as the agent under test. A domain adds its words for giving up when
a turn runs out of tool rounds (the built-in agents apologise instead of failing).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from pydantic import JsonValue

from vistasim.agent import ModelAgent, Reply
from vistasim.env._types import Environment
from vistasim.llm import ChatModel

__all__ = ["ToolCallingAgent"]


class ToolCallingAgent(ModelAgent, ABC):
    """An LLM agent that calls an environment's tools; one instance per episode.

    A domain subclasses it and sets `give_up`, `give_up_metadata`, maybe `temperature`,
    and `instructions()`, its written policy.

    Args:
        env: The environment whose agent tools it calls.
        model: The chat model that decides what to say and which tools to call.
        max_tool_rounds: Model calls per user turn before the agent gives up on the turn.
    """

    give_up: ClassVar[str]
    """What the agent says when a turn runs out of tool rounds."""
    give_up_metadata: ClassVar[Mapping[str, JsonValue]]
    """The reply's metadata when it gives up."""
    temperature: ClassVar[float | None] = None
    """Sampling temperature of the model calls (None: the model's default)."""

    def __init__(self, env: Environment, model: ChatModel, *, max_tool_rounds: int = 6) -> None:
        super().__init__(
            model,
            env=env,
            system_prompt=self.instructions(),
            temperature=self.temperature,
            max_tool_rounds=max_tool_rounds,
            give_up=Reply(text=self.give_up, metadata=dict(self.give_up_metadata)),
        )

    @abstractmethod
    def instructions(self) -> str:
        """Return the system prompt: the domain's role and written policy."""
