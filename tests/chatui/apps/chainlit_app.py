"""A Chainlit app serving the rule bot (`chainlit run chainlit_app.py`)."""

import asyncio
import sys
from pathlib import Path

import chainlit as cl

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402


@cl.on_message
async def on_message(message: cl.Message):
    earlier = cl.user_session.get("earlier") or []
    parts = reply_parts(message.content, earlier)
    cl.user_session.set("earlier", [*earlier, message.content])
    reply = cl.Message(content="")
    for i, part in enumerate(parts):
        if i:
            await asyncio.sleep(PAUSE_S)
        await reply.stream_token(part)
    await reply.send()
