"""A minimal agent under test: a plain function that gets each user turn and returns its reply.

Replace it with a call into your own product. Return a string, or a `vistasim.agent.Reply` with the
tool calls your agent made, so vistasim can grade required actions and measure tool coverage.
"""

from __future__ import annotations

import re

from vistasim.agent import Reply, Turn
from vistasim.events import ToolCall

ORDERS = {"W1001": "processing", "W1002": "shipped"}


def support_bot(turn: Turn) -> Reply:
    """Answer order-status questions; ask for the order number first."""
    said = " ".join([u.text for u in turn.history if u.role == "user"] + [turn.message])
    match = re.search(r"W\d{4}", said)
    if match is None:
        return Reply(text="Happy to help! What's your order number?")
    order_id = match.group(0)
    status = ORDERS.get(order_id)
    call = ToolCall(name="get_order", args={"order_id": order_id}, result={"status": status})
    if status is None:
        text = f"I can't find order {order_id}. Could you check the number?"
        return Reply(text=text, tool_calls=(call,))
    return Reply(text=f"Order {order_id} is {status}. Anything else?", tool_calls=(call,))
