"""The parts of a page's state that its URL and storage do not bring back: fields and history.

A browser snapshot reopens the page at its URL with its cookies and storage, which rebuilds what
the server renders and what the page's scripts keep in storage. What the user typed or picked
but did not submit lives only in the form fields, so it is captured apart: every input, textarea
and select whose state differs from what the page was served with, named by a stable CSS locator
(its `data-semantic-id`, else its id, else its position from the root), and put back after the
page loads. The back-history is the list of pages before the current one (Chromium's navigation
history over CDP); it is rebuilt by opening them in order, so `Back` lands where it did. The
snapshot's own format is read and checked here too (`parse_snapshot`, `check_restorable`), so a
snapshot that cannot come back exactly is refused before the live page is closed.
"""

from __future__ import annotations

import json
from typing import Any

from vistasim.errors import BrowserError

__all__ = [
    "SNAPSHOT_VERSION",
    "capture_fields",
    "check_restorable",
    "navigation_history",
    "parse_snapshot",
    "restore_fields",
]

SNAPSHOT_VERSION = 2
"""2 added `fields`, `scroll`, `history`, `document` and `lost_posts`; 1 is still read."""
_READABLE_VERSIONS = (1, 2)

_CAPTURE_FIELDS_JS = r"""
() => {
  const unique = (css) => { try { return document.querySelectorAll(css).length === 1; }
    catch (e) { return false; } };
  function path(el) {
    const parts = [];
    for (let n = el; n && n !== document.documentElement; n = n.parentElement) {
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) {
        if (s.tagName === n.tagName) i++;
      }
      parts.unshift(n.tagName.toLowerCase() + ":nth-of-type(" + i + ")");
    }
    return ["html", ...parts].join(" > ");
  }
  function locate(el) {
    const sid = el.getAttribute("data-semantic-id");
    const tag = el.tagName.toLowerCase();
    if (sid) {
      const css = tag + "[data-semantic-id=" + JSON.stringify(sid) + "]";
      if (unique(css)) return css;
    }
    if (el.id && unique("#" + CSS.escape(el.id))) return "#" + CSS.escape(el.id);
    return path(el);
  }
  const SKIP = new Set(["hidden", "submit", "button", "reset", "image", "file"]);
  const out = [];
  for (const el of document.querySelectorAll("input, textarea, select")) {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (el.tagName === "INPUT" && SKIP.has(type)) continue;
    let state = null;
    if (el.tagName === "SELECT") {
      const now = Array.from(el.options).map((o) => o.selected);
      // A fresh single select shows its last `selected` option, else its first enabled one.
      const fresh = Array.from(el.options).map((o) => o.defaultSelected);
      if (!el.multiple && fresh.filter(Boolean).length !== 1) {
        let pick = fresh.lastIndexOf(true);
        if (pick < 0) pick = Array.from(el.options).findIndex((o) => !o.disabled);
        fresh.fill(false);
        if (pick >= 0) fresh[pick] = true;
      }
      if (now.some((s, i) => s !== fresh[i])) state = {selected: now};
    } else if (el.tagName === "INPUT" && (type === "checkbox" || type === "radio")) {
      if (el.checked !== el.defaultChecked) state = {checked: el.checked};
    } else if (el.value !== el.defaultValue) {
      state = {value: el.value};
    }
    if (state) out.push({locator: locate(el), tag: el.tagName.toLowerCase(), ...state});
  }
  return out;
}
"""

_RESTORE_FIELDS_JS = r"""
(fields) => {
  const failed = [];
  const fire = (el) => {
    el.dispatchEvent(new Event("input", {bubbles: true}));
    el.dispatchEvent(new Event("change", {bubbles: true}));
  };
  for (const f of fields) {
    let found = [];
    try { found = Array.from(document.querySelectorAll(f.locator)); } catch (e) {}
    const el = found[0];
    if (found.length !== 1 || el.tagName.toLowerCase() !== f.tag) {
      failed.push(f.locator + (found.length ? " (" + found.length + " matches)" : " (missing)"));
      continue;
    }
    if ("selected" in f) {
      if (el.options.length !== f.selected.length) {
        failed.push(f.locator + " (its options changed)");
        continue;
      }
      f.selected.forEach((s, i) => { el.options[i].selected = s; });
    } else if ("checked" in f) {
      el.checked = f.checked;
    } else {
      // The prototype's setter, so frameworks that track the value (React) see the change.
      const proto = Object.getPrototypeOf(el);
      Object.getOwnPropertyDescriptor(proto, "value").set.call(el, f.value);
    }
    fire(el);
  }
  return failed;
}
"""


async def capture_fields(page: Any) -> list[dict[str, Any]]:
    """The form fields of `page` whose value, check or selection the user changed."""
    fields: list[dict[str, Any]] = await page.evaluate(_CAPTURE_FIELDS_JS)
    return fields


async def restore_fields(page: Any, fields: list[dict[str, Any]]) -> None:
    """Put captured field states back on `page`.

    Raises:
        BrowserError: A field is not on the page any more (or no longer the same kind), so
            what the user had typed cannot be put back.
    """
    if not fields:
        return
    failed: list[str] = await page.evaluate(_RESTORE_FIELDS_JS, fields)
    if failed:
        raise BrowserError(
            f"cannot restore the typed form input on {page.url!r}: field "
            f"{', '.join(failed[:5])} is not on the restored page",
            url=page.url,
        )


async def navigation_history(context: Any, page: Any) -> tuple[list[tuple[int, str]], int]:
    """`page`'s history as (entry id, URL) pairs, and the index of the current entry."""
    cdp = await context.new_cdp_session(page)
    try:
        history = await cdp.send("Page.getNavigationHistory")
    finally:
        await cdp.detach()
    entries = [(int(e["id"]), str(e["url"])) for e in history["entries"]]
    return entries, int(history["currentIndex"])


def check_restorable(data: dict[str, Any]) -> None:
    """Refuse, before anything is closed, a snapshot whose page cannot come back exactly."""
    if data.get("lost_posts"):
        raise BrowserError(
            f"cannot restore the history of {data['url']!r}: {data['lost_posts']} form post "
            "answer(s) were left before a snapshot kept them, so their pages cannot be rebuilt",
            url=data["url"],
        )
    posted = [data.get("document"), *(e.get("document") for e in data.get("history", []))]
    for document in posted:
        if document is not None and "body" not in document:
            raise BrowserError(
                f"cannot restore the page {data['url']!r} or its history: a "
                f"{document.get('method', 'form post')}'s answer could not be kept "
                f"({document.get('unreadable', 'missing')})",
                url=data["url"],
            )


def parse_snapshot(state: bytes) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(state)
        if data.get("version") not in _READABLE_VERSIONS:
            raise ValueError(f"version {data.get('version')!r}, expected {SNAPSHOT_VERSION}")
        for key in ("url", "storage_state", "session_storage"):
            data[key]  # noqa: B018 - fail early on a truncated snapshot
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BrowserError(
            f"not a browser snapshot ({exc}); pass the bytes PageSession.snapshot() returned"
        ) from None
    return data
