"""A Streamlit chat page serving the rule bot (`streamlit run streamlit_app.py`)."""

import sys
import time
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402

st.title("Order help")
history = st.session_state.setdefault("history", [])
for role, text in history:
    with st.chat_message(role):
        st.markdown(text)

if prompt := st.chat_input("Ask about an order"):
    earlier = [text for role, text in history if role == "user"]
    history.append(("user", prompt))
    with st.chat_message("user"):
        st.markdown(prompt)
    parts = reply_parts(prompt, earlier)

    def stream():
        for i, part in enumerate(parts):
            if i:
                time.sleep(PAUSE_S)
            yield part

    with st.chat_message("assistant"):
        st.write_stream(stream())
    history.append(("assistant", "".join(parts)))
