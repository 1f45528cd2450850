"""Finding a page's chat widget: framework markers, common markup, ARIA, overrides, errors."""

from __future__ import annotations

import pytest

from vistasim.agent import Turn, WebChatAgent
from vistasim.browser import (
    FRAMEWORK_WIDGETS,
    WidgetMessage,
    WidgetSelectors,
    find_widget,
    read_chat,
)
from vistasim.errors import BrowserError, ConfigError

pytestmark = pytest.mark.browser

GRADIO_LIKE = """<gradio-app><div class="gradio-container">
<div role="log" aria-label="chatbot conversation" class="bubble-wrap">
  <div data-testid="user">hi</div><div data-testid="bot">hello!</div></div>
<textarea data-testid="textbox"></textarea><button data-testid="submit-button"></button>
</div></gradio-app>"""

# Streamlit draws its chat input only after the app script ran over the websocket.
STREAMLIT_LIKE = """<div data-testid="stApp" data-test-connection-state="CONNECTING"></div>
<script>setTimeout(() => {
  const app = document.querySelector("[data-testid=stApp]");
  app.dataset.testConnectionState = "CONNECTED";
  app.innerHTML = '<div data-testid="stChatInput"><textarea data-testid="stChatInputTextArea">'
    + '</textarea></div>';
}, 300);</script>"""

COMMON = """<div class="chat-widget"><div class="messages"></div><textarea></textarea></div>"""
ARIA = """<div role="log"><p data-role="assistant">Hi</p></div><div><textarea></textarea></div>"""


async def found(session, html: str, **kwargs):
    await session.page.set_content(html)
    return await find_widget(session.page, timeout_s=kwargs.pop("timeout_s", 3.0), **kwargs)


@pytest.mark.parametrize(
    ("html", "framework"),
    [(GRADIO_LIKE, "gradio"), (STREAMLIT_LIKE, "streamlit"), (COMMON, "generic"), (ARIA, "aria")],
)
async def test_the_page_tells_which_framework_drew_its_widget(session, html, framework):
    widget = await found(session, html)
    assert widget.framework == framework
    assert widget.selectors == FRAMEWORK_WIDGETS[framework]


async def test_user_selectors_replace_the_frameworks(session):
    widget = await found(session, GRADIO_LIKE, overrides={"send": "#mine", "input": None})
    assert widget.selectors.send == "#mine"
    assert widget.selectors.input == FRAMEWORK_WIDGETS["gradio"].input


async def test_a_chosen_framework_skips_the_probe(session):
    widget = await found(session, COMMON, framework="aria", overrides={"input": "textarea"})
    assert widget.framework == "aria"


async def test_a_page_without_a_widget_names_the_selectors_tried(session):
    with pytest.raises(BrowserError) as caught:
        await found(session, "<p>Nothing to chat with</p>", timeout_s=0.3)
    message = str(caught.value)
    assert "no chat widget input is visible" in message
    assert "generic: input '#chat-input" in message and "aria: input '[role=log]" in message
    assert "[web.widget] input" in message and "\n" not in message


async def test_a_framework_page_that_never_shows_its_input_names_that_framework(session):
    with pytest.raises(BrowserError, match="a streamlit page.*stChatInputTextArea"):
        await found(session, '<div data-testid="stApp"></div>', timeout_s=0.3)


async def test_a_page_side_selector_must_be_css(session):
    with pytest.raises(ConfigError, match="web.widget.messages: 'text=Hi' is not a CSS selector"):
        await found(session, COMMON, overrides={"messages": "text=Hi"})


async def test_transcript_roles_come_from_the_agent_message_selector(session):
    await session.page.set_content(GRADIO_LIKE)
    assert await read_chat(session.page, FRAMEWORK_WIDGETS["gradio"]) == (
        WidgetMessage(role="user", text="hi"),
        WidgetMessage(role="agent", text="hello!"),
    )


async def test_page_view_reads_the_transcript_through_the_sessions_widget(session):
    await session.page.set_content(GRADIO_LIKE)
    session.widget = FRAMEWORK_WIDGETS["gradio"]
    view = await session.observe()
    assert [m.text for m in view.chat] == ["hi", "hello!"]
    assert "hello!" not in view.text  # shown once, as the transcript


async def test_default_selectors_read_no_transcript_from_a_framework_page(session):
    await session.page.set_content(GRADIO_LIKE)
    assert await read_chat(session.page, WidgetSelectors()) == ()


async def test_a_widget_in_a_shadow_root_is_found_driven_and_read(session, site):
    await session.goto(f"{site}/shadow-chat")
    widget = await find_widget(session.page, timeout_s=5.0)
    assert widget.framework == "generic"
    agent = WebChatAgent(session.page, widget=widget.selectors, settle_ms=300, timeout_s=10)
    reply = await agent.respond(Turn(episode_id="e", message="where is my parcel?"))
    await agent.aclose()
    assert reply.text == "Echo: where is my parcel?"
    assert await read_chat(session.page, widget.selectors) == (
        WidgetMessage(role="user", text="where is my parcel?"),
        WidgetMessage(role="agent", text="Echo: where is my parcel?"),
    )
    view = await session.observe(widget=widget.selectors)
    assert "Help" in view.text and "Echo" not in view.text  # the transcript is shown apart
    assert [m.role for m in view.chat] == ["user", "agent"]
