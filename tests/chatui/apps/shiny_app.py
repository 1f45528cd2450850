"""A Shiny for Python chat page (`ui.Chat`) serving the rule bot (`shiny run shiny_app.py`)."""

import asyncio
import sys
from pathlib import Path

from shiny import App, ui

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402

app_ui = ui.page_fillable(ui.panel_title("Order help"), ui.chat_ui("chat"))


def server(input, output, session):
    chat = ui.Chat(id="chat")

    @chat.on_user_submit
    async def _(message: str):
        earlier = [m["content"] for m in chat.messages() if m["role"] == "user"][:-1]
        parts = reply_parts(message, earlier)

        async def stream():
            for i, part in enumerate(parts):
                if i:
                    await asyncio.sleep(PAUSE_S)
                yield part

        await chat.append_message_stream(stream())


app = App(app_ui, server)
