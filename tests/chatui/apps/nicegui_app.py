"""A NiceGUI chat page (Quasar input, `ui.chat_message`) serving the rule bot.

python nicegui_app.py PORT
"""

import asyncio
import sys
from pathlib import Path

from nicegui import ui

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402


@ui.page("/")
def index():
    earlier: list[str] = []
    ui.label("Order help").classes("text-h5")
    thread = ui.column().classes("w-full")

    async def send():
        message = field.value.strip()
        if not message:
            return
        field.value = ""
        with thread:
            ui.chat_message(message, name="You", sent=True)
            reply = ui.chat_message(name="Support", sent=False)
        parts = reply_parts(message, earlier)
        earlier.append(message)
        shown = ""
        with reply:
            text = ui.markdown("")
        for i, part in enumerate(parts):
            if i:
                await asyncio.sleep(PAUSE_S)
            shown += part
            text.set_content(shown)

    with ui.row().classes("w-full items-center"):
        field = ui.input(placeholder="Ask about an order").classes("grow")
        field.on("keydown.enter", send)
        ui.button("Send", on_click=send)


ui.run(host="127.0.0.1", port=int(sys.argv[1]), reload=False, show=False, title="Order help")
