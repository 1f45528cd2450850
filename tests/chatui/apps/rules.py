"""The chat apps' bot: a tiny rule set, the same in every framework.

An order-status bot: it asks for the order number until one is given, then reports the status.
The status report streams in three parts with `PAUSE_S` between them, the way a model's reply
streams with pauses, so a reply read before it is complete is missing its last part.
"""

from __future__ import annotations

import re

ORDERS = {"W1001": "is still being processed", "W1002": "has shipped and is on its way"}
PAUSE_S = 1.0
ASK = "Happy to help! What's your order number?"


def reply_parts(message: str, earlier: list[str]) -> list[str]:
    """The parts of the bot's reply to `message`, given the user's earlier messages."""
    found = re.search(r"\bW\d{4}\b", " ".join([*earlier, message]))
    if found is None:
        return [ASK]
    order = found.group(0)
    status = ORDERS.get(order)
    if status is None:
        return [f"I can't find order {order}. Could you check the number?"]
    return [
        "Let me look that up.",
        " One moment, checking the carrier.",
        f" Order {order} {status}.",
    ]


def full_reply(message: str, earlier: list[str]) -> str:
    """The whole reply, as a reader that waited for the end sees it."""
    return "".join(reply_parts(message, earlier))
