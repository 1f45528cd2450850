"""A Mesop chat page (`mesop.labs.chat`) serving the rule bot (`mesop mesop_app.py --prod`)."""

import sys
import time
from pathlib import Path

import mesop as me
import mesop.labs as mel

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402


def streamed(message: str, history: list[mel.ChatMessage]):
    """The reply in parts, with a pause before each after the first (Mesop shows it growing)."""
    earlier = [m.content for m in history if m.role == "user"][:-1]  # the last one is `message`
    for i, part in enumerate(reply_parts(message, earlier)):
        if i:
            time.sleep(PAUSE_S)
        yield part


@me.page(path="/", title="Order help")
def page():
    mel.chat(streamed, title="Order help", bot_user="Support")
