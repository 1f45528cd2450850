"""Agents under test for the runner tests, importable as `tests.explore.agents:<name>`."""

from __future__ import annotations

import os
import re
import time
from dataclasses import replace
from typing import Any

import anyio

from vistasim.agent import Reply, Turn
from vistasim.demo import OrderBook, OrderDeskAgent
from vistasim.events import ToolCall


def crashing_agent(turn: Turn) -> str:
    raise RuntimeError("database connection lost")


def garbage_agent(turn: Turn) -> object:
    return 42


def confused_agent(turn: Turn) -> str:
    return "Sorry, I didn't understand. Could you rephrase?"


async def slow_agent(turn: Turn) -> str:
    await anyio.sleep(0.2)
    return "Let me check... what's your order number?"


class FailsToStart:
    def __init__(self) -> None:
        raise OSError("model weights not found")

    def respond(self, turn: Turn) -> str:
        return "never"


class SlowDesk(OrderDeskAgent):
    """The demo desk, slowed down so a test can kill a run mid-way."""

    def respond(self, turn: Turn) -> Reply:
        time.sleep(0.03)
        return super().respond(turn)


class SessionDesk(OrderDeskAgent):
    """The demo desk without snapshot/restore (so it is replayed), logging the ids it is sent."""

    seen: list[tuple[str, str]] = []
    """(episode id of the turn, message), for every turn of every instance."""

    snapshot = None  # type: ignore[assignment]
    restore = None  # type: ignore[assignment]

    def respond(self, turn: Turn) -> Reply:
        SessionDesk.seen.append((turn.episode_id, turn.message))
        return super().respond(turn)


def mumbling_agent(turn: Turn) -> str:
    """Answers nothing a user could read: its episodes end `invalid` (the user cannot follow)."""
    return "Mm. Hm hm. Mmm."


DESK_TOKEN = "desk-token-secret-0123456789"
"""A secret the secret desks say in their first reply (the tests add it to the store's list)."""


class ForgetfulReplayDesk(OrderDeskAgent):
    """The demo desk without snapshots, numbering its replies across all its instances.

    Restored by replay, it answers every replayed turn otherwise than it did: each DIVERT branch
    it plays is `diverged`.
    """

    replies = 0

    snapshot = None  # type: ignore[assignment]
    restore = None  # type: ignore[assignment]

    def respond(self, turn: Turn) -> Reply:
        ForgetfulReplayDesk.replies += 1
        reply = super().respond(turn)
        return replace(reply, text=f"{reply.text} (reply {ForgetfulReplayDesk.replies})")


class SecretReplayDesk(OrderDeskAgent):
    """The demo desk without snapshots, telling a secret token: restored by replay.

    Logs the history each turn arrives with, so a test can see what a replayed agent was given.
    """

    histories: list[tuple[str, ...]] = []

    snapshot = None  # type: ignore[assignment]
    restore = None  # type: ignore[assignment]

    def respond(self, turn: Turn) -> Reply:
        SecretReplayDesk.histories.append(tuple(u.text for u in turn.history))
        reply = super().respond(turn)
        if turn.history:
            return reply
        return Reply(text=f"Your desk token is {DESK_TOKEN}. {reply.text}",
                     tool_calls=reply.tool_calls)  # fmt: skip


class SecretStateDesk(OrderDeskAgent):
    """The demo desk keeping a secret token in its snapshots: restored from its state.

    Logs the token of every state it is restored to.
    """

    restored: list[str] = []

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "token": DESK_TOKEN}

    def restore(self, state: dict[str, Any]) -> None:
        SecretStateDesk.restored.append(str(state.pop("token")))
        super().restore(state)


class TellingStateDesk(SecretStateDesk):
    """`SecretStateDesk` saying, in its first reply after a restore, what it was restored with.

    For an agent in another process (a Ray worker): the marker names that process and whether
    the token came back whole, and repeats the token (which the store must mask).
    """

    def __init__(self, env: OrderBook) -> None:
        super().__init__(env)
        self._told: str | None = None

    def restore(self, state: dict[str, Any]) -> None:
        token = str(state["token"])
        whole = "whole" if token == DESK_TOKEN else "masked"
        self._told = f"(restored in {os.getpid()}, token {whole}: {token}) "
        super().restore(state)

    def respond(self, turn: Turn) -> Reply:
        reply = super().respond(turn)
        told, self._told = self._told, None
        return reply if told is None else replace(reply, text=told + reply.text)


_HOLD = re.compile(r"\b(?:no|nope|not (?:yet|sure)|don't|do not|wait|hold (?:on|off))\b")


class CarefulDesk(OrderDeskAgent):
    """The demo desk without its flaws: it returns every item named, and takes a confirmation
    that also says no, wait or not yet as a no."""

    def _act(self, lowered: str, order: dict[str, Any], calls: list[ToolCall]) -> str:
        state = self.state
        if state["intent"] == "return" and not state["skus"]:
            state["skus"] = [i["sku"] for i in order["items"] if i["name"] in lowered]
            if not state["skus"]:
                return "Which item would you like to return?"
            return self._prompt_action(order)
        if state["confirm"] and _HOLD.search(lowered):
            state["confirm"] = False
            return "Okay, I won't do anything. Is there something else I can help with?"
        return str(super()._act(lowered, order, calls))


class MumblesOnceDesk(OrderDeskAgent):
    """The demo desk, mumbling through the first rollout of `desk-status-shipped` only.

    That rollout ends `invalid`: its scenario has no trajectory to branch until another rollout.
    """

    def respond(self, turn: Turn) -> Reply:
        if turn.episode_id.endswith(":desk-status-shipped:0"):
            return Reply(text="Mm. Hm hm. Mmm.")
        return super().respond(turn)


class VariesByRolloutDesk(OrderDeskAgent):
    """The demo desk that varies between rollouts by itself: on a scenario's odd-numbered fresh
    rollouts (`...:1`, `...:3`) it says it did what it did not do, or gives no arrival date.

    Its first rollouts, and every branch (restored at a junction of one of them), behave as the
    demo desk: only a fresh rollout samples the variation.
    """

    def respond(self, turn: Turn) -> Reply:
        number = turn.episode_id.rsplit(":", 1)[-1]
        self.careless = number.isdigit() and int(number) % 2 == 1
        return super().respond(turn)

    def _perform(self, order: dict[str, Any], calls: list[ToolCall]) -> str:
        if getattr(self, "careless", False):
            return "Done — all sorted."
        return str(super()._perform(order, calls))

    def _step(self, message: str, calls: list[ToolCall]) -> str:
        text = str(super()._step(message, calls))
        if getattr(self, "careless", False) and "should arrive" in text:
            return "Your order is on its way."
        return text


class SlowVariesDesk(VariesByRolloutDesk):
    """`VariesByRolloutDesk`, slowed down so a test can kill a run mid-way."""

    def respond(self, turn: Turn) -> Reply:
        time.sleep(0.03)
        return super().respond(turn)
