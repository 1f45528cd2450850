"""A Panel `ChatInterface` serving the rule bot (`panel serve panel_app.py`)."""

import asyncio
import sys
from pathlib import Path

import panel as pn

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402

pn.extension()


async def answer(contents, user, instance):
    """The reply as it grows: one more part after each pause."""
    earlier = [str(m.object) for m in instance.objects[:-1] if m.user == "User"]
    shown = ""
    for i, part in enumerate(reply_parts(contents, earlier)):
        if i:
            await asyncio.sleep(PAUSE_S)
        shown += part
        yield shown


pn.chat.ChatInterface(callback=answer, callback_user="Support").servable(title="Order help")
