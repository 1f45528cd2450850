"""Turn a live page into a compact `PageView` a model can read within a token budget.

Raw HTML is mostly markup a simulated user never needs. We keep what a person would act on: the
interactive elements (by their `data-semantic-id` when the site provides them, else by the ARIA
snapshot's `[ref=eN]` handles, so any web app works), the visible text outside the chat widget,
and the widget's transcript. One `page.evaluate` call does the DOM work, for speed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import yaml

from vistasim.browser._labels import NAME_FALLBACK_FN, name_unlabeled
from vistasim.browser._types import ElementView, PageView, WidgetMessage
from vistasim.browser._widget import CHAT_FN, WidgetSelectors, widget_args

__all__ = ["estimate_tokens", "fit_budget", "observe_page", "parse_aria_snapshot"]


_EXTRACT_JS = (
    r"""
(spec) => {
  // `clean`, `all` and `readChat` are declared at the end (`CHAT_FN`).
  // The widget and its messages are shown as the transcript, not again as page text.
  const shownApart = new Set([...all(spec.container), ...all(spec.messages)]);
  const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  const TAGS = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"]);
  const ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem",
    "textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "option"]);
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const interactive = (el) => TAGS.has(el.tagName) || ROLES.has(el.getAttribute("role"))
    || el.isContentEditable;
  function roleOf(el) {
    const explicit = el.getAttribute("role");
    if (explicit) return explicit;
    const tag = el.tagName, type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "A") return "link";
    if (tag === "SELECT") return el.multiple ? "listbox" : "combobox";
    if (tag === "TEXTAREA" || el.isContentEditable) return "textbox";
    if (tag === "INPUT") {
      if (["checkbox", "radio"].includes(type)) return type;
      if (["submit", "button", "reset", "image"].includes(type)) return "button";
      return {number: "spinbutton", range: "slider", search: "searchbox"}[type] || "textbox";
    }
    return "button";
  }
  function labelText(label) {
    const copy = label.cloneNode(true);
    copy.querySelectorAll("input, select, textarea, button").forEach((n) => n.remove());
    return clean(copy.textContent);
  }
  function labelOf(el) {
    const aria = clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const by = (el.getAttribute("aria-labelledby") || "").split(/\s+/)
      .map((id) => document.getElementById(id)).filter(Boolean);
    const named = clean(by.map((n) => n.textContent).join(" "));
    if (named) return named;
    const labels = clean(Array.from(el.labels || []).map(labelText).join(" "));
    if (labels) return labels;
    if (FIELDS.has(el.tagName) && !["submit", "button", "reset"].includes(el.type)) {
      return clean(el.placeholder || el.title || el.name);
    }
    return clean(el.innerText || el.value || el.title || el.getAttribute("alt"))
      || fallbackName(el);
  }
  function valueOf(el, role) {
    if (role === "checkbox" || role === "radio" || role === "switch") {
      const on = el.checked ?? el.getAttribute("aria-checked") === "true";
      return on ? "checked" : "unchecked";
    }
    if (el.tagName === "SELECT") {
      return Array.from(el.selectedOptions).map((o) => clean(o.textContent)).join(", ");
    }
    if (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && role !== "button")) return el.value;
    return null;
  }
  const elements = [], seen = new Set(), listed = new Set();
  let semantic = false;
  for (const el of document.querySelectorAll("[data-semantic-id]")) {
    if (!interactive(el)) continue;
    semantic = true;
    const id = el.getAttribute("data-semantic-id");
    if (seen.has(id) || el.type === "hidden" || !visible(el)) continue;
    seen.add(id); listed.add(el);
    const role = roleOf(el);
    elements.push({
      id: id, role: role, label: labelOf(el).slice(0, 200), value: valueOf(el, role),
      options: el.tagName !== "SELECT" ? []
        : Array.from(el.options).map((o) => clean(o.textContent)),
      enabled: !(el.matches(":disabled") || el.getAttribute("aria-disabled") === "true"),
    });
  }
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SELECT", "TEXTAREA", "OPTION",
    "DATALIST", "svg", "HEAD"]);
  const BLOCK = /^(block|flex|grid|list-item|flow-root|table(-row|-row-group|-caption)?)$/;
  const parts = [];
  function walk(node) {
    const slotted = node.tagName === "SLOT" ? node.assignedNodes({flatten: true}) : [];
    for (const child of slotted.length ? slotted : node.childNodes) {
      if (child.nodeType === 3) { parts.push(child.nodeValue.replace(/\s+/g, " ")); continue; }
      if (child.nodeType !== 1 || shownApart.has(child) || SKIP.has(child.tagName)) continue;
      if (!visible(child)) continue;
      const display = getComputedStyle(child).display;
      const block = BLOCK.test(display) || child.tagName === "BR";
      const spaced = !block && (display === "table-cell" || display.startsWith("inline-"));
      parts.push(block ? "\n" : spaced ? " " : "");
      walk(child.shadowRoot || child);  // a shadow root is what shows of its host
      parts.push(block ? "\n" : spaced ? " " : "");
    }
  }
  if (document.body) walk(document.body);
  const text = parts.join("").split("\n").map(clean).filter(Boolean).join("\n");
  const chat = readChat(spec);
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "";
  return {
    title: document.title, semantic: semantic, elements: elements, text: text, chat: chat,
    htmlLength: doctype.length + document.documentElement.outerHTML.length,
  };
"""
    + CHAT_FN
    + NAME_FALLBACK_FN
    + "}"
)

INTERACTIVE_ARIA_ROLES = frozenset(
    "button link textbox searchbox combobox listbox checkbox radio switch slider spinbutton tab"
    " menuitem menuitemcheckbox menuitemradio treeitem".split()
)
"""ARIA roles the fallback observation lists as elements."""

_ARIA_KEY = re.compile(
    r'^(?P<role>[a-z]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)$'
)
_TEXT_MARK = "…[text trimmed]"


def estimate_tokens(chars: int) -> int:
    """Estimate the tokens of `chars` characters of text (about four characters a token)."""
    return math.ceil(chars / 4)


async def observe_page(
    page: Any, *, budget_tokens: int = 1200, widget: WidgetSelectors | None = None
) -> PageView:
    """Observe `page`: its interactive elements, visible text and chat widget, within a budget.

    Args:
        page: A Playwright `Page`.
        budget_tokens: Most tokens the rendered view may take (`PageView.render()`).
        widget: Where the page's chat widget is; default: the built-in domains' widget.
    """
    data = await page.evaluate(_EXTRACT_JS, widget_args(widget or WidgetSelectors()))
    source: Literal["semantic", "aria"]
    if data["semantic"]:
        elements = tuple(
            ElementView(**{**e, "options": tuple(e["options"])}) for e in data["elements"]
        )
        source = "semantic"
    else:
        snapshot = await page.locator("body").aria_snapshot(mode="ai")
        elements = await name_unlabeled(page, parse_aria_snapshot(snapshot))
        source = "aria"
    view = PageView(
        url=page.url,
        title=data["title"],
        elements=elements,
        text=data["text"],
        chat=tuple(WidgetMessage(role=m["role"], text=m["text"]) for m in data["chat"]),
        source=source,
        raw_html_tokens=estimate_tokens(data["htmlLength"]),
    )
    return fit_budget(view, budget_tokens)


def parse_aria_snapshot(snapshot: str) -> tuple[ElementView, ...]:
    """Read the interactive elements of an `aria_snapshot(mode="ai")`, keyed by their refs.

    Args:
        snapshot: The YAML text Playwright returns; lines like `- button "Go" [ref=e3]`.
    """
    loaded = yaml.load(snapshot, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    found: list[ElementView] = []
    _walk_aria(loaded if isinstance(loaded, list) else [], found)
    return tuple(found)


def _split_node(node: Any) -> tuple[str, Any]:
    if isinstance(node, dict) and len(node) == 1:
        key, value = next(iter(node.items()))
        return str(key), value
    return str(node), None


def _walk_aria(nodes: list[Any], found: list[ElementView]) -> None:
    for node in nodes:
        key, value = _split_node(node)
        match = _ARIA_KEY.match(key)
        children = value if isinstance(value, list) else []
        if match is None or match["role"] not in INTERACTIVE_ARIA_ROLES:
            _walk_aria(children, found)
            continue
        attrs = dict(_aria_attr(a) for a in re.findall(r"\[([^\]]*)\]", match["attrs"]))
        if "ref" not in attrs:
            _walk_aria(children, found)
            continue
        found.append(_aria_element(match["role"], _unescape(match["name"]), attrs, value))
        _walk_aria([c for c in children if not _is_option(c)], found)


def _aria_element(role: str, name: str, attrs: dict[str, str], value: Any) -> ElementView:
    options = [c for c in value if _is_option(c)] if isinstance(value, list) else []
    labels = [_option_label(c) for c in options]
    selected = [_option_label(c) for c in options if "[selected]" in _split_node(c)[0]]
    current: str | None = None
    if role in ("checkbox", "radio", "switch"):
        current = "checked" if attrs.get("checked") in ("", "true") else "unchecked"
    elif selected:
        current = ", ".join(selected)
    elif isinstance(value, str | int | float) and role in ("textbox", "searchbox", "spinbutton"):
        current = str(value)
    return ElementView(
        id=attrs["ref"],
        role=role,
        label=name[:200],
        value=current,
        options=tuple(labels),
        enabled="disabled" not in attrs,
    )


def _aria_attr(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    return name, value


def _is_option(node: Any) -> bool:
    return _split_node(node)[0].startswith("option")


def _option_label(node: Any) -> str:
    match = _ARIA_KEY.match(_split_node(node)[0])
    return _unescape(match["name"]) if match else ""


def _unescape(name: str | None) -> str:
    if not name:
        return ""
    try:
        text: str = json.loads(f'"{name}"')
    except json.JSONDecodeError:
        return name
    return text


def fit_budget(view: PageView, budget_tokens: int) -> PageView:
    """Trim `view` to `budget_tokens`: drop text first, then trailing elements, then old chat.

    Dropped elements are announced in the text, so the model knows to scroll or navigate.
    """

    def cost(candidate: PageView) -> int:
        return estimate_tokens(len(candidate.render()))

    if cost(view) > budget_tokens:
        view = _trim_text(view, budget_tokens, cost)
    if cost(view) > budget_tokens:
        view = _trim_elements(view, budget_tokens, cost)
    if cost(view) > budget_tokens:
        keep = _largest(len(view.chat), lambda k: cost(_last_chat(view, k)) <= budget_tokens)
        view = _last_chat(view, keep)
    return replace(view, tokens=cost(view))


def _trim_text(view: PageView, budget: int, cost: Callable[[PageView], int]) -> PageView:
    def cut(k: int) -> PageView:
        return replace(view, text=view.text[:k].rstrip() + _TEXT_MARK if k else "")

    return cut(_largest(len(view.text), lambda k: cost(cut(k)) <= budget))


def _trim_elements(view: PageView, budget: int, cost: Callable[[PageView], int]) -> PageView:
    total = len(view.elements)

    def cut(k: int) -> PageView:
        note = f"[{total - k} more elements not shown; scroll or navigate to reach them]"
        return replace(view, elements=view.elements[:k], text=note)

    return cut(_largest(total, lambda k: cost(cut(k)) <= budget))


def _last_chat(view: PageView, keep: int) -> PageView:
    return replace(view, chat=view.chat[len(view.chat) - keep :])


def _largest(limit: int, fits: Callable[[int], bool]) -> int:
    """Return the largest k in [0, limit] with `fits(k)` (monotone), or 0 if none fits."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
