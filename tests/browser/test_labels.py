"""Controls without an accessible name get a label: tooltip, icon, id or nearby text."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

ICON_BUTTONS = """<!doctype html><title>Icons</title>
<button data-tooltip="Attach a file"><svg></svg></button>
<button><svg><title>Microphone</title></svg></button>
<button><svg class="lucide lucide-square-pen"></svg></button>
<button><i class="fa fa-solid fa-paper-plane"></i></button>
<button><svg><use href="/icons.svg#icon-thumbs-up"></use></svg></button>
<button data-testid="submit-button"><svg></svg></button>
<button id="new-chat-button"><svg></svg></button>
<div><label>Chatbot</label><span><button class="icon-button svelte-3jwzs9"><svg></svg></button>
</span></div>
"""


async def test_unnamed_controls_get_labels_from_tooltip_icon_id_or_nearby_text(session):
    await session.page.set_content(ICON_BUTTONS)
    view = await session.observe()
    assert view.source == "aria"
    assert [e.label for e in view.elements] == [
        "Attach a file",
        "Microphone",  # Chromium names it by the SVG's title itself
        "square pen (icon)",
        "paper plane (icon)",
        "thumbs up (icon)",
        "submit",
        "new chat",
        'next to "Chatbot"',
    ]


async def test_semantic_pages_label_their_icon_buttons_too(session):
    await session.page.set_content(
        '<button data-semantic-id="send"><svg class="lucide lucide-send"></svg></button>'
    )
    view = await session.observe()
    assert view.source == "semantic" and view.elements[0].label == "send (icon)"
