"""Where a chat widget's parts are, for the built-in sites, common markup and each known framework.

A `WidgetSelectors` value says where one widget's parts are; `FRAMEWORK_WIDGETS` holds the
selectors of each chat framework vistasim knows, checked against its real pages (the `chatui`
test apps). The page-side scripts that read them are in `_widget_js.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from pydantic import ConfigDict, with_config

__all__ = [
    "FRAMEWORK_WIDGETS",
    "MARKED_FRAMEWORKS",
    "USER_AUTHORS",
    "WidgetFramework",
    "WidgetSelectors",
    "widget_args",
]

WidgetFramework = Literal[
    "gradio", "streamlit", "chainlit", "shiny", "panel", "nicegui", "mesop", "openwebui",
    "generic", "aria",
]
"""Who drew a chat widget: a Python chat framework, common chat markup, or plain ARIA roles."""

MARKED_FRAMEWORKS: tuple[WidgetFramework, ...] = (
    "gradio", "streamlit", "chainlit", "shiny", "panel", "nicegui", "mesop", "openwebui"
)  # fmt: skip
"""Frameworks recognised by their own markers on the page (the others are tried on any page)."""

USER_AUTHORS = ("user", "you", "me", "human", "customer")
"""Author names that mean the user, in widgets that mark messages only by author (`author`)."""


@with_config(ConfigDict(extra="forbid"))  # config files validate it: a typo is an error
@dataclass(frozen=True, kw_only=True)
class WidgetSelectors:
    """Where a chat widget's parts are on the page.

    `input`, `send` and `open_button` are Playwright selectors; the others are read inside the
    page, so they must be CSS (unions with commas, `:has()` and `:is()` are fine). All of them
    reach into open shadow roots, and a descendant step may cross into one (`.chat textarea`
    finds a text area in a shadow root under `.chat`), as Playwright's own CSS does. The defaults
    fit the built-in domains' widgets and common markup (parts inside an element whose class or
    id mentions `chat`); `FRAMEWORK_WIDGETS` has the selectors of the chat frameworks.
    """

    input: str = (
        "#chat-input, [data-semantic-id=chat-input], [class*=chat] textarea, [id*=chat] textarea,"
        " [class*=chat] input[type=text], [class*=chat] input:not([type]),"
        " [id*=chat] input[type=text], [id*=chat] input:not([type])"
    )
    """The text field the message is typed into."""
    send: str | None = (
        "#chat-send, [data-semantic-id=chat-send], #chat-form button,"
        " [class*=chat] button[type=submit], [id*=chat] button[type=submit],"
        " [class*=chat] button[aria-label*=send i], [id*=chat] button[aria-label*=send i]"
    )
    """The send button; when none is visible (or `None`), Enter is pressed in the input."""
    messages: str = (
        "#chat-log > *, [data-role=user], [data-role=agent], [data-role=assistant],"
        " [class*=chat] [class~=message], [id*=chat] [class~=message]"
    )
    """Every message of the transcript, user's and agent's, in order (CSS)."""
    agent_message: str | None = (
        "#chat-log > .agent, #chat-log > .error, [data-role=agent], [data-role=assistant],"
        " [data-role=bot], [class*=chat] [class~=agent], [id*=chat] [class~=agent],"
        " [class*=chat] [class~=bot], [id*=chat] [class~=bot],"
        " [class*=chat] [class~=assistant], [id*=chat] [class~=assistant],"
        " [class*=agent-message], [class*=bot-message], [class*=assistant-message]"
    )
    """The agent's messages (CSS); a message matching, containing or inside one is the agent's.
    `None`: the widget marks its messages only by their author's name (see `author`)."""
    open_button: str | None = (
        "[class*=chat][class*=launcher], [id*=chat][id*=launcher],"
        " [class*=chat][class*=toggle], [id*=chat][id*=toggle],"
        " button[aria-label*=open i][aria-label*=chat i]"
    )
    """A launcher clicked to open a collapsed widget when the input is not visible."""
    container: str | None = "#chat"
    """The whole widget, or each message block (CSS); kept out of the page text, which shows
    the transcript apart. With `author`, each message block."""
    author: str | None = None
    """Inside a message block (`container`), the element naming who wrote it (CSS), for widgets
    whose messages carry no other mark: a message is the user's when its author reads as one of
    `USER_AUTHORS`, the agent's otherwise."""
    busy: str | None = (
        "[role=log][aria-busy=true], [class*=chat] [aria-busy=true], [id*=chat] [aria-busy=true]"
    )
    """Shown while the agent works on a reply (CSS); a reply is complete once none is visible."""
    ready: str | None = None
    """Present once the widget's live connection is up (CSS); nothing is sent before."""
    reply_url: str | None = "**/api/chat"
    """URL glob of the widget's request whose JSON answer may carry `tool_calls`."""
    tool_calls_attr: str | None = "data-tool-calls"
    """Attribute of an agent message holding its tool calls as JSON (used without `reply_url`)."""


_MESOP_INPUT = "[mesop-box] input[matinput], [mesop-box] textarea"
_MESOP_SEND = "[mesop-box]:has(input[matinput], textarea) ~ * button"  # after the input's box
# Mesop's chat bubble, in a row aligned to one side ({}: `end` or `start`).
_MESOP_BUBBLE = (
    "[mesop-box][style*='flex-direction: column'][style*='align-items: {}'] > [mesop-box]"
)

FRAMEWORK_WIDGETS: Mapping[WidgetFramework, WidgetSelectors] = {
    "gradio": WidgetSelectors(
        input="textarea[data-testid=textbox], [data-testid=multimodal-textbox] textarea",
        send="[data-testid=submit-button], button.submit-button",
        messages="[data-testid=user], [data-testid=bot]",
        agent_message="[data-testid=bot]",
        open_button=None,
        container="[role=log][aria-label*=chatbot i], .bubble-wrap",
        busy="[data-testid=stop-button], [data-testid=status-tracker]:not(.hide)",
        ready=".gradio-container",
    ),
    "streamlit": WidgetSelectors(
        input="[data-testid=stChatInputTextArea], [data-testid=stChatInput] textarea",
        send="[data-testid=stChatInputSubmitButton]",
        messages="[data-testid=stChatMessageContent]",
        agent_message=(
            "[data-testid=stChatMessageContent]:not([aria-label='Chat message from user' i])"
            ":not([aria-label='Chat message from human' i])"
        ),
        open_button=None,
        container="[data-testid=stChatMessage]",  # with its avatar's icon name
        busy="[data-testid=stApp][data-test-script-state=running], [data-testid=stSpinner]",
        ready="[data-testid=stApp][data-test-connection-state=CONNECTED]",
    ),
    "chainlit": WidgetSelectors(
        input="#chat-input",
        send="#chat-submit",
        messages=(
            "[data-step-type=user_message] .message-content,"
            " [data-step-type=assistant_message] .message-content"
        ),
        agent_message="[data-step-type=assistant_message] .message-content",
        open_button=None,
        container=None,
        busy="#stop-button, .loading-cursor",
    ),
    "shiny": WidgetSelectors(
        input="shiny-chat-container [contenteditable=true], shiny-chat-container textarea",
        send=".shiny-chat-btn-send, shiny-chat-input button",
        messages=(
            ".shiny-chat-user-message, .shiny-chat-message, shiny-user-message, shiny-chat-message"
        ),
        agent_message=".shiny-chat-message, shiny-chat-message",
        open_button=None,
        container=None,
        busy=".shiny-chat-input.disabled, .shiny-chat-btn-send[aria-label=loading i]",
    ),
    # Panel draws each part in its own shadow root and marks a message only by its author's name.
    "panel": WidgetSelectors(
        input=".chat-interface-input-widget textarea, .chat-interface textarea",
        send=None,  # Enter sends; its send button turns into a stop button while busy
        messages=".chat-feed-log .chat-message .message",
        agent_message=None,
        author=".name",
        open_button=None,
        container=".chat-message",
        busy=".chat-interface-input-row button:disabled",
    ),
    # NiceGUI draws Quasar components: `q-input` fields and `q-chat-message` bubbles.
    "nicegui": WidgetSelectors(
        input="input.q-field__native, textarea.q-field__native",
        send=".q-field__append .q-btn, .q-input ~ .q-btn, .q-field ~ .q-btn",
        messages=".q-message-text-content",
        agent_message=".q-message-received .q-message-text-content",
        open_button=None,
        container=".q-message",
        busy=".q-message .q-spinner, .q-message [class*=q-spinner-]",
    ),
    # Mesop's `mesop.labs.chat` draws Angular Material parts in `[mesop-box]` boxes. Its bubbles
    # carry no role, class or author mark: a bubble's row aligns it to the end (the user's) or
    # the start (the bot's) by inline style. While a reply streams, Mesop's shell shows a progress
    # bar and the chat's send button is disabled.
    "mesop": WidgetSelectors(
        input=_MESOP_INPUT,
        send=_MESOP_SEND,
        messages=", ".join(_MESOP_BUBBLE.format(side) for side in ("end", "start")),
        agent_message=_MESOP_BUBBLE.format("start"),
        open_button=None,
        container=None,
        busy=(  # the shell's progress bar shows while the server runs an event handler
            "mesop-shell [data-testid=connection-progress-bar], "
            + _MESOP_SEND.replace("button", "button:disabled")
        ),
    ),
    # Open WebUI (0.6): a ProseMirror `#chat-input`, a send button only while there is text,
    # each message's text in `.chat-user` / `.chat-assistant` under `#messages-container`.
    "openwebui": WidgetSelectors(
        input="#chat-input",
        send="#send-message-button",
        messages="#messages-container :is(.chat-user, .chat-assistant)",
        agent_message="#messages-container .chat-assistant",
        open_button=None,
        container=None,
        busy=None,
    ),
    "generic": WidgetSelectors(),
    "aria": WidgetSelectors(
        input="[role=log] ~ * [role=textbox], [role=log] ~ * textarea, [role=textbox], textarea",
        send="button[aria-label*=send i], button[title*=send i], button[type=submit]",
        messages=(
            "[role=log] :is([role=article], [role=listitem], li, [data-role], [class*=message])"
        ),
        agent_message=(
            "[role=log] :is([data-role=assistant], [data-role=agent], [data-role=bot],"
            " [class~=assistant], [class~=agent], [class~=bot], [aria-label*=assistant i],"
            " [aria-label*=agent i], [aria-label*=bot i])"
        ),
        open_button=None,
        container="[role=log]",
        busy="[role=log][aria-busy=true]",
    ),
}
"""The selectors of each chat framework vistasim knows, by name."""


def widget_args(widget: WidgetSelectors) -> dict[str, Any]:
    """The selectors as the plain mapping the page-side scripts take."""
    return {f.name: getattr(widget, f.name) for f in fields(widget)}
