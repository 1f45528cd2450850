"""The role-swap check scans a message once, and names the same phrase as pattern by pattern."""

import re

import pytest

from vistasim.user import ROLE_SWAP_PATTERNS
from vistasim.user._validate import _any_role_swap

TEXTS = [
    "Turn 3: could you check order W1002 for me?",
    "Hello! How can I help you today?",
    "As an AI, I think so. Anything else I can help with?",
    "Thanks for reaching out. Let me check that up for you.",
    "I'm an AI language model and what can I do for you",
    "I would be happy to help you, I'd be glad to assist you",
    "my phone says thank you for contacting us, weird",
    "helpless: how can i helpx",
    "",
]


def _first_by_pattern(text: str) -> str | None:
    for pattern in ROLE_SWAP_PATTERNS:
        found = re.search(pattern, text, re.IGNORECASE)
        if found:
            return found.group(0)
    return None


@pytest.mark.parametrize("text", TEXTS)
def test_one_scan_finds_a_swap_exactly_when_a_pattern_does(text):
    assert (_any_role_swap().search(text) is not None) == (_first_by_pattern(text) is not None)


def test_the_error_names_the_first_patterns_phrase():
    from vistasim.user._validate import InvalidActionError, check_user_text

    class _View:
        transcript = ()

    text = "Anything else I can help with? How can I help?"
    with pytest.raises(InvalidActionError, match=re.escape(repr(_first_by_pattern(text)))):
        check_user_text(text, _View())  # type: ignore[arg-type]
