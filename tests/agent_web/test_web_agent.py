"""WebChatAgent without a browser: its config shape and the missing-extra error."""

from __future__ import annotations

import sys

import pydantic
import pytest

from vistasim.agent import WebChatAgent, WidgetSelectors
from vistasim.errors import MissingExtraError


def test_widget_selectors_validate_from_config_data():
    adapter = pydantic.TypeAdapter(WidgetSelectors)
    selectors = adapter.validate_python({"input": "#q", "send": None, "reply_url": "**/chat"})
    assert (selectors.input, selectors.send, selectors.reply_url) == ("#q", None, "**/chat")


def test_widget_selectors_reject_unknown_keys():
    with pytest.raises(pydantic.ValidationError, match="inputt"):
        pydantic.TypeAdapter(WidgetSelectors).validate_python({"inputt": "#q"})


def test_missing_playwright_names_the_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)
    with pytest.raises(MissingExtraError, match=r"vistasim\[browser\]"):
        WebChatAgent(object())
