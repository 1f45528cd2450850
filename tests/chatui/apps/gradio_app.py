"""A Gradio `ChatInterface` serving the rule bot: `python gradio_app.py PORT`."""

import sys
import time
from pathlib import Path

import gradio as gr

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402


def text_of(content):
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    return " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in parts)


def bot(message, history):
    earlier = [text_of(m["content"]) for m in history if m["role"] == "user"]
    shown = ""
    for i, part in enumerate(reply_parts(message, earlier)):
        if i:
            time.sleep(PAUSE_S)
        shown += part
        yield shown


gr.ChatInterface(bot, title="Order help").launch(
    server_name="127.0.0.1", server_port=int(sys.argv[1]), show_error=True
)
