"""Give controls without an accessible name a label the simulated user can act on.

Icon buttons often have no text, no `aria-label` and no `title`: Gradio's send and share buttons
show in an ARIA snapshot as `button ''`, so a model cannot tell them apart. A person reads the
icon, the tooltip or the text next to the button; we read the same things from the DOM, in this
order: the control's own text (an ARIA snapshot names a control with children by them alone),
title and tooltip attributes, the icon's name (an SVG `<title>`, a sprite reference, an
icon font's class or ligature), the control's own id, test id or `...-button` class, and last the
nearest short text before it (`next to "Chatbot"`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import anyio

from vistasim.browser._discover import import_playwright
from vistasim.browser._types import ElementView

__all__ = ["NAME_FALLBACK_FN", "name_unlabeled"]

_MAX_LOOKUPS = 40
"""Most unnamed controls looked up per observation (each costs one page call)."""
_LOOKUP_TIMEOUT_MS = 1000

NAME_FALLBACK_FN = r"""
  function fallbackName(el) {
    const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
    const words = (s) => clean(String(s).replace(/([a-z])([A-Z])/g, "$1 $2")
      .replace(/[-_.:#/]+/g, " ")).toLowerCase();
    const FILLER = new Set(["button", "btn", "icon", "svg", "img", "wrapper", "padded", "small",
      "large", "sm", "lg", "st", "base", "header", "ui"]);
    const meaningful = (s) => words(s).split(" ").filter((w) => w && !FILLER.has(w)
      && !/\d/.test(w)).join(" ");
    const text = clean(el.innerText || el.value || el.placeholder);
    if (text) return text.slice(0, 80);
    for (const name of ["title", "data-tooltip", "data-tip", "data-title", "data-original-title",
        "data-bs-title", "aria-description"]) {
      const value = clean(el.getAttribute(name));
      if (value) return value.slice(0, 80);
    }
    const described = (el.getAttribute("aria-describedby") || "").split(/\s+/)
      .map((id) => document.getElementById(id)).filter(Boolean);
    const tip = clean(described.map((n) => n.textContent).join(" "));
    if (tip) return tip.slice(0, 80);
    const ICON = /^(?:lucide|fa|fas|far|bi|mdi|icon|ic|ti|ri|feather|heroicon|codicon|gg)-(.+)$/;
    const NOT_ICON = /^(solid|regular|light|thin|brands|duotone|lg|sm|xs|fw|spin|pulse|\dx)$/;
    const nodes = [el, ...Array.from(el.querySelectorAll("svg, i, span, img, use")).slice(0, 12)];
    for (const n of nodes) {
      const title = n.tagName.toLowerCase() === "svg" ? n.querySelector("title") : null;
      if (title && clean(title.textContent)) return clean(title.textContent) + " (icon)";
      const href = n.getAttribute("href") || n.getAttribute("xlink:href") || "";
      if (n.tagName.toLowerCase() === "use" && href.includes("#")) {
        const name = meaningful(href.split("#").pop());
        if (name) return name + " (icon)";
      }
      const data = n.getAttribute("data-icon");
      if (data && meaningful(data)) return meaningful(data) + " (icon)";
      if (n !== el && n.tagName === "IMG" && clean(n.alt)) return clean(n.alt);
      const cls = typeof n.className === "string" ? n.className
        : (n.className && n.className.baseVal) || "";
      if (/material-(icons|symbols)/.test(cls) && clean(n.textContent)) {
        return words(n.textContent) + " (icon)";
      }
      for (const token of cls.split(/\s+/)) {
        const m = ICON.exec(token);
        if (m && !NOT_ICON.test(m[1]) && meaningful(m[1])) return meaningful(m[1]) + " (icon)";
      }
    }
    const own = [el.getAttribute("data-testid"), el.id,
      ...(typeof el.className === "string" ? el.className.split(/\s+/) : [])
        .filter((t) => /(^|-)(button|btn)(-|$)/.test(t))];
    for (const value of own) {
      const name = value ? meaningful(value) : "";
      if (name) return name;
    }
    let node = el;
    for (let depth = 0; node && depth < 4; depth++, node = node.parentElement) {
      let sibling = node.previousElementSibling;
      for (let k = 0; sibling && k < 3; k++, sibling = sibling.previousElementSibling) {
        const text = clean(sibling.innerText || sibling.textContent);
        if (text && text.length <= 40) return `next to "${text}"`;
      }
    }
    return "";
  }
"""
"""JavaScript defining `fallbackName(el)`: a label for a control without an accessible name."""

_FALLBACK_JS = "(el) => {" + NAME_FALLBACK_FN + "return fallbackName(el); }"


async def name_unlabeled(page: Any, elements: Sequence[ElementView]) -> tuple[ElementView, ...]:
    """Label the elements of an ARIA observation that have no accessible name.

    Args:
        page: The Playwright `Page` the ARIA snapshot (and its `eN` refs) came from.
        elements: The snapshot's elements; those with a label are kept as they are.
    """
    missing = [e for e in elements if not e.label][:_MAX_LOOKUPS]
    if not missing:
        return tuple(elements)
    names: dict[str, str] = {}
    error = import_playwright().Error

    async def look_up(element: ElementView) -> None:
        locator = page.locator(f"aria-ref={element.id}")
        try:
            names[element.id] = await locator.evaluate(_FALLBACK_JS, timeout=_LOOKUP_TIMEOUT_MS)
        except error:
            pass  # the element went away since the snapshot: it keeps its empty label

    async with anyio.create_task_group() as group:
        for element in missing:
            group.start_soon(look_up, element)
    return tuple(replace(e, label=names[e.id]) if names.get(e.id) else e for e in elements)
