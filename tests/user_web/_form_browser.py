"""A tiny browser over a FastAPI app (no JavaScript): enough to walk the domains' forms.

It turns the served HTML into the same `PageView` the real browser layer produces (elements with
a `data-semantic-id`, visible text outside the chat widget) and executes `WebStep`s by following
links and submitting forms, so web skills can be checked against the real sites without Chromium.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from fastapi.testclient import TestClient

from vistasim.browser import (
    Back,
    Click,
    ElementView,
    Navigate,
    PageView,
    SelectOption,
    TypeText,
    WebStep,
)

ORIGIN = "http://testserver"


@dataclass
class _Field:
    sid: str | None
    tag: str
    name: str = ""
    type: str = "text"
    value: str = ""
    label: str = ""
    href: str = ""
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    checked: bool = False
    disabled: bool = False
    form: int | None = None


@dataclass
class _Form:
    action: str
    method: str


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fields: list[_Field] = []
        self.forms: list[_Form] = []
        self.text: list[str] = []
        self.title = ""
        self._form: int | None = None
        self._open: _Field | None = None  # a, button, select or option text being read
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in ("aside", "script", "style") or self._skip:
            self._skip += tag in ("aside", "script", "style")
            return
        if tag == "title":
            self._in_title = True
        elif tag == "form":
            self.forms.append(_Form(action=a.get("action", ""), method=a.get("method", "get")))
            self._form = len(self.forms) - 1
        elif tag in ("input", "button", "a", "select"):
            f = _Field(
                sid=a.get("data-semantic-id"),
                tag=tag,
                name=a.get("name", ""),
                type=a.get("type", "submit" if tag == "button" else "text"),
                value=a.get("value", ""),
                label=a.get("aria-label") or a.get("placeholder", ""),
                href=a.get("href", ""),
                disabled="disabled" in a,
                form=self._form,
            )
            self.fields.append(f)
            self._open = f if tag in ("button", "a", "select") else None
        elif tag == "option" and self.fields and self.fields[-1].tag == "select":
            self.fields[-1].options.append((a.get("value", ""), ""))

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            self._skip -= tag in ("aside", "script", "style")
            return
        if tag == "form":
            self._form = None
        elif tag == "title":
            self._in_title = False
        elif tag in ("button", "a", "select"):
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data.strip()
            return
        if data.strip():
            self.text.append(" ".join(data.split()))
        f = self._open
        if f is None:
            return
        if f.tag == "select" and f.options:
            value, label = f.options[-1]
            f.options[-1] = (value, (label + " " + data.strip()).strip())
        elif f.tag != "select" and not f.label:
            f.label = " ".join(data.split())


class FormBrowser:
    """Browse a FastAPI app through its links and forms, like a user without JavaScript."""

    def __init__(self, app: object) -> None:
        self.client = TestClient(app)  # type: ignore[arg-type]
        self.url = f"{ORIGIN}/"
        self.history: list[str] = []
        self._parsed = _Parser()
        self._open(self.client.get("/"))

    @property
    def page(self) -> PageView:
        elements = [
            ElementView(
                id=f.sid,
                role=_role(f),
                label=f.label,
                value=f.value if f.tag == "input" and f.type != "checkbox" else None,
                options=tuple(label for _, label in f.options),
                enabled=not f.disabled,
            )
            for f in self._parsed.fields
            if f.sid is not None and f.type != "hidden"
        ]
        text = "\n".join(self._parsed.text)
        return PageView(url=self.url, title=self._parsed.title, elements=tuple(elements), text=text)

    def act(self, step: WebStep) -> str | None:
        """Run a web action; return an error message the way the browser layer does, or None."""
        if isinstance(step, Navigate):
            return self._get(step.url)
        if isinstance(step, Back):
            return self._get(self.history.pop()) if self.history else None
        if not isinstance(step, Click | TypeText | SelectOption):
            return None
        found = [f for f in self._parsed.fields if f.sid == step.target]
        if not found:
            return f"no element {step.target!r} on this page"
        target = found[0]
        if isinstance(step, TypeText):
            target.value = step.text
        elif isinstance(step, SelectOption):
            target.value = next(v for v, label in target.options if step.value in (v, label))
        elif target.tag == "a":
            return self._get(target.href)
        elif target.type == "checkbox":
            target.checked = not target.checked
        else:
            return self._submit(target)
        return None

    def _get(self, url: str) -> None:
        self.history.append(self.url)
        self._open(
            self.client.get(
                urlsplit(urljoin(self.url, url))._replace(scheme="", netloc="").geturl()
            )
        )

    def _submit(self, button: _Field) -> None:
        form = self._parsed.forms[button.form] if button.form is not None else None
        if form is None:
            return
        data: dict[str, list[str]] = {}
        for f in self._parsed.fields:
            if f.form != button.form or not f.name or f.tag in ("a", "button"):
                continue
            if f.type == "checkbox" and not f.checked:
                continue
            value = f.value or (f.options[0][0] if f.options else "")
            data.setdefault(f.name, []).append(value)
        self.history.append(self.url)
        path = urljoin(urlsplit(self.url).path, form.action)
        if form.method.lower() == "post":
            self._open(self.client.post(path, data=data))
        else:
            self._open(self.client.get(path, params=data))

    def _open(self, response: object) -> None:
        self.url = str(response.url)  # type: ignore[attr-defined]
        self._parsed = _Parser()
        self._parsed.feed(response.text)  # type: ignore[attr-defined]


def _role(f: _Field) -> str:
    if f.tag == "a":
        return "link"
    if f.tag == "select":
        return "combobox"
    if f.tag == "button" or f.type == "submit":
        return "button"
    return "checkbox" if f.type == "checkbox" else "textbox"
