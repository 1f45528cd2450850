"""The rule bot on Gradio: a `ChatInterface` at `/`, a Blocks `Chatbot` + `Textbox` at `/blocks`.

    python gradio_app.py PORT
"""

import sys
import time
from pathlib import Path

import fastapi
import gradio as gr
import uvicorn

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402


def text_of(content):
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    return " ".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in parts)


def streamed(message, history):
    """The reply as it grows: one more part after each pause."""
    earlier = [text_of(m["content"]) for m in history if m["role"] == "user"]
    shown = ""
    for i, part in enumerate(reply_parts(message, earlier)):
        if i:
            time.sleep(PAUSE_S)
        shown += part
        yield shown


def blocks_reply(message, history):
    """A Blocks handler: clear the textbox, stream the bot's message into the chatbot."""
    history = [*history, {"role": "user", "content": message}]
    for shown in streamed(message, history[:-1]):
        yield "", [*history, {"role": "assistant", "content": shown}]


with gr.Blocks(title="Order help (Blocks)") as blocks:
    chatbot = gr.Chatbot(label="Support")
    textbox = gr.Textbox(label="Your message")
    textbox.submit(blocks_reply, [textbox, chatbot], [textbox, chatbot])

app = fastapi.FastAPI()
app = gr.mount_gradio_app(app, blocks, path="/blocks")
app = gr.mount_gradio_app(app, gr.ChatInterface(streamed, title="Order help"), path="/")
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
