"""Adapters that reach the agent under test."""

from vistasim.agent._types import AgentAdapter, Reply, RestoreStrategy, Turn, Utterance

__all__ = ["AgentAdapter", "Reply", "RestoreStrategy", "Turn", "Utterance"]
