// Chat widget: posts to /api/chat and shows replies as plain text (never HTML).
// The transcript lives in sessionStorage, so it stays on screen from page to page (and a
// browser snapshot, which keeps sessionStorage, brings it back).
(function () {
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const KEY = "school-chat";
  function add(role, text, toolCalls) {
    const item = document.createElement("li");
    item.className = role;
    item.setAttribute("data-role", role);
    item.textContent = text;
    if (toolCalls) item.setAttribute("data-tool-calls", JSON.stringify(toolCalls));
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
  }
  let saved = [];
  try { saved = JSON.parse(sessionStorage.getItem(KEY) || "[]"); } catch (err) { saved = []; }
  saved.forEach((m) => add(m.role, m.text, m.toolCalls));
  function show(role, text, toolCalls) {
    add(role, text, toolCalls);
    saved.push({role: role, text: text, toolCalls: toolCalls});
    sessionStorage.setItem(KEY, JSON.stringify(saved));
  }
  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    input.value = "";
    show("user", message);
    try {
      const response = await fetch("/api/chat", {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({message: message}),
        credentials: "same-origin",
      });
      const data = await response.json();
      if (!response.ok) { show("error", data.error || "Something went wrong."); return; }
      show("agent", data.reply, data.tool_calls.map(c => ({name: c.name, args: c.args, error: c.error})));
    } catch (err) {
      show("error", "The chat is unavailable right now.");
    }
  });
})();
