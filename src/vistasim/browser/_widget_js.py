"""The page-side scripts that find and read a chat widget, through shadow roots too.

Some frameworks draw each part of their widget in its own shadow root (Panel, on Bokeh), where
`document.querySelectorAll` never looks. So every selector of a `WidgetSelectors` is matched
here as Playwright's CSS engine matches it: in the document and in every open shadow root, with
a descendant step allowed to cross into a shadow root (`.chat textarea` finds a text area in a
shadow root under `.chat`). Text is read through shadow roots and slots too. Pages without
shadow roots take the plain `querySelectorAll` path.
"""

from __future__ import annotations

from vistasim.browser._widget_selectors import USER_AUTHORS

__all__ = ["CHAT_FN", "CHAT_JS", "COUNT_JS", "INVALID_JS", "POLL_JS", "PROBE_JS"]

# `all(sel)`: every element matching the selector list, in document order, shadow roots
# included; `within(a, b)`: `a` is `b` or inside it, across shadow boundaries. Function
# declarations only: the scripts that append these call them before this text (hoisting).
_DOM_FN = r"""
  function shadowRoots() {
    const roots = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll("*")) {
        if (el.shadowRoot) { roots.push(el.shadowRoot); visit(el.shadowRoot); }
      }
    };
    visit(document);
    return roots;
  }
  function splitTop(text, isSeparator) {
    const parts = []; let depth = 0, quote = null, current = "";
    for (const ch of text) {
      if (quote) { current += ch; if (ch === quote) quote = null; continue; }
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "(" || ch === "[") depth++;
      else if (ch === ")" || ch === "]") depth--;
      else if (depth === 0 && isSeparator(ch)) { parts.push(current); current = ""; continue; }
      current += ch;
    }
    parts.push(current);
    return parts.map((p) => p.trim()).filter(Boolean);
  }
  // A complex selector's descendant steps; `>`, `+` and `~` bind their neighbours into one step,
  // matched inside one tree.
  function steps(complex) {
    const units = [];
    for (const token of splitTop(complex, (ch) => /\s/.test(ch))) {
      const last = units.length - 1;
      if (last >= 0 && (/^[>+~]/.test(token) || /[>+~]$/.test(units[last]))) {
        units[last] += " " + token;
      } else units.push(token);
    }
    return units;
  }
  function up(node) {
    if (node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    return parent && parent.host ? parent.host : null;
  }
  function within(inner, outer) {
    for (let node = inner; node; node = up(node)) if (node === outer) return true;
    return false;
  }
  function matchesSteps(el, units) {
    if (!el.matches(units[units.length - 1])) return false;
    let node = el;
    for (let i = units.length - 2; i >= 0; i--) {
      node = up(node);
      while (node && !node.matches(units[i])) node = up(node);
      if (!node) return false;
    }
    return true;
  }
  function all(sel) {
    if (!sel) return [];
    const roots = shadowRoots();
    if (!roots.length) return Array.from(document.querySelectorAll(sel));
    const lists = splitTop(sel, (ch) => ch === ",").map(steps);
    const found = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll("*")) {
        if (lists.some((units) => matchesSteps(el, units))) found.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return found;
  }
  function outermost(els) { return els.filter((e) => !els.some((o) => o !== e && within(e, o))); }
  function hasShadow(el) {
    return !!el.shadowRoot || Array.from(el.querySelectorAll("*")).some((d) => d.shadowRoot);
  }
  function textOf(el) {
    if (!hasShadow(el)) return el.innerText || el.textContent || "";
    const parts = [];
    function visitNode(node) {
      if (node.nodeType === 3) { parts.push(node.textContent); return; }
      if (node.nodeType !== 1 || ["SCRIPT", "STYLE", "TEMPLATE"].includes(node.tagName)) return;
      if (!node.checkVisibility({visibilityProperty: true})) return;
      if (node.tagName === "SLOT") node.assignedNodes({flatten: true}).forEach(visitNode);
      else visitChildren(node);
      parts.push(" ");
    }
    function visitChildren(node) { (node.shadowRoot || node).childNodes.forEach(visitNode); }
    visitChildren(el);
    return parts.join(" ").replace(/\s+/g, " ");
  }
"""

_CHAT_FN = (
    _DOM_FN
    + r"""
  function clean(s) { return (s || "").replace(/\s+/g, " ").trim(); }
  // The agent's message elements; with `author`, the messages whose author is not the user.
  function agentMessages(sel) {
    if (!sel.author) return outermost(all(sel.agent_message));
    const blocks = all(sel.container), authors = all(sel.author);
    return outermost(all(sel.messages)).filter((el) => {
      const block = blocks.find((b) => within(el, b)) || el;
      const named = authors.find((a) => within(a, block));
      return named ? !%USERS%.includes(clean(textOf(named)).toLowerCase()) : false;
    });
  }
  function isAgent(el, agents) {
    return agents.some((a) => within(el, a) || within(a, el));
  }
  function readChat(sel) {
    const agents = agentMessages(sel);
    return outermost(all(sel.messages))
      .map((el) => ({role: isAgent(el, agents) ? "agent" : "user", text: clean(textOf(el))}))
      .filter((m) => m.text);
  }
"""
).replace("%USERS%", repr(list(USER_AUTHORS)))
CHAT_FN = _CHAT_FN
"""JavaScript defining `all(sel)`, `textOf(el)` and `readChat(sel)` (sel: `widget_args(...)`)."""

CHAT_JS = "(sel) => {" + _CHAT_FN + "return readChat(sel); }"

POLL_JS = (
    "(sel) => {"
    + _CHAT_FN
    + r"""
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const agents = agentMessages(sel).map((e) => [textOf(e),
    sel.tool_calls_attr ? e.getAttribute(sel.tool_calls_attr) : null]);
  const busy = all(sel.busy).filter(visible).map((e) => e.getAttribute("data-testid")
    || e.id || e.className || e.tagName.toLowerCase());
  return {agents: agents, busy: busy.slice(0, 3).map(String), chat: readChat(sel),
          ready: !sel.ready || all(sel.ready).length > 0};
}"""
)

# Page-side markers of each framework, present as soon as its page script runs (before its chat
# parts render): Gradio's config and element, Streamlit's app test id, Chainlit's composer,
# Shiny's chat element, Panel's Bokeh models, NiceGUI's layout, Mesop's app element (served or in
# its editor), Open WebUI's app meta.
PROBE_JS = (
    "(candidates) => {"
    + _DOM_FN
    + r"""
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const shown = (s) => { try { return s ? all(s).some(visible) : false; }
    catch (e) { return false; } };
  const has = (s) => !!document.querySelector(s);
  let marker = null;
  if (window.gradio_config || has("gradio-app")) marker = "gradio";
  else if (has("[data-testid=stApp]")) marker = "streamlit";
  else if (has("#message-composer, meta[content*=chainlit i]")) marker = "chainlit";
  else if (has("shiny-chat-container") || window.Shiny) marker = "shiny";
  else if (window.Bokeh && has("[class*=bk-panel-models]")) marker = "panel";
  else if (has(".nicegui-layout, .nicegui-content")) marker = "nicegui";
  else if (has("mesop-app, mesop-editor-app")) marker = "mesop";
  else if (has("meta[name=apple-mobile-web-app-title][content='Open WebUI' i]")) {
    marker = "openwebui";
  }
  const hasLog = all("[role=log]").length > 0;
  const found = candidates.filter((c) => (c.name !== "aria" || !c.needs_log || hasLog)
    && (shown(c.input) || shown(c.open_button)));
  const size = shadowRoots().reduce((n, root) => n + root.querySelectorAll("*").length,
    document.querySelectorAll("*").length);
  return {marker: marker, found: found.map((c) => c.name), size: size};
}"""
)

INVALID_JS = """(sels) => Object.entries(sels).filter(([name, s]) => {
  try { if (s) document.querySelector(s); return false; } catch (e) { return true; }
}).map(([name]) => name)"""

# For each named selector: how many elements match, how many are visible, and what the first
# visible one says (its text, or a field's placeholder).
COUNT_JS = (
    "(sels) => {"
    + _DOM_FN
    + r"""
  const visible = (el) => el.checkVisibility({visibilityProperty: true});
  const count = (s) => {
    let found;
    try { found = all(s); } catch (e) { return {matches: 0, visible: 0, sample: "not CSS"}; }
    const shown = found.filter(visible);
    const first = shown[0];
    const text = first ? (textOf(first) || first.placeholder || first.getAttribute("aria-label")
      || "") : "";
    return {matches: found.length, visible: shown.length,
            sample: text.replace(/\s+/g, " ").trim().slice(0, 80)};
  };
  return Object.fromEntries(Object.entries(sels).map(([name, s]) => [name, s ? count(s) : null]));
}"""
)
