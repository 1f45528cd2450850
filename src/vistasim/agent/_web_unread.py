"""Tell a reply vistasim cannot read from no reply at all.

A widget whose agent messages no selector marks still shows the reply: as a new line of the
transcript that is not the message sent (so it was read as the user's), or at least as new words
on the page. Either way the agent answered and vistasim could not read the answer: the episode
is errored (a `BrowserError`: nothing of the agent was judged), never scored as the agent's
failure. A reply that never came is the agent's (`AgentError`, decided by the adapter).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vistasim.browser import WidgetMessage
from vistasim.errors import BrowserError

__all__ = ["UNREAD_WORDS", "page_words", "unattributed", "unread_error"]

UNREAD_WORDS = 3
"""New words on the page after a send, with no agent message read, that mean the reply is there
but unreadable (fewer: the agent said nothing)."""

# The whole page's text, shadow roots included (Panel draws everything in them).
_PAGE_TEXT_JS = r"""() => {
  const parts = [];
  const visit = (node) => {
    for (const kid of (node.shadowRoot || node).childNodes) {
      if (kid.nodeType === 3) parts.push(kid.textContent);
      else if (kid.nodeType === 1 && !["SCRIPT", "STYLE", "TEMPLATE"].includes(kid.tagName)) {
        visit(kid);
      }
    }
  };
  if (document.body) visit(document.body);
  return parts.join(" ");
}"""


def unattributed(
    before: Sequence[WidgetMessage], now: Sequence[WidgetMessage], message: str
) -> tuple[str, ...]:
    """The transcript lines added since `before` that are neither the agent's nor `message`.

    Args:
        before: The transcript just before the message was sent.
        now: The transcript now.
        message: What the user sent (its echo in the transcript is the user's own line).
    """
    if len(now) < len(before):
        return ()  # the widget redrew its transcript: nothing can be told from the count
    sent = _plain(message)
    return tuple(
        line.text
        for line in now[len(before) :]
        if line.role == "user" and sent not in _plain(line.text)
    )


async def page_words(page: Any, error: type[Exception]) -> set[str]:
    """The words on the page (shadow roots included), case-folded; none if it is being replaced.

    Args:
        page: A Playwright `Page`.
        error: Playwright's error class (a page being replaced answers with it).
    """
    try:
        text = await page.evaluate(_PAGE_TEXT_JS)
    except error:
        return set()
    return set(str(text).casefold().split())


def unread_error(url: str, detail: str) -> BrowserError:
    """The error of a reply that is on the page but that no selector takes for the agent's."""
    return BrowserError(
        "the reply could not be read: set [web.widget] agent_message to a selector of the "
        f"agent's messages ({detail} on {url!r}; `vistasim web inspect {url}` shows the "
        "chat parts the page has)",
        url=url,
    )


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())
