// Chat widget: posts to /api/chat and shows replies as plain text (never HTML).
(function () {
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  function add(role, text, toolCalls) {
    const item = document.createElement("li");
    item.className = role;
    item.setAttribute("data-role", role);
    item.textContent = text;
    if (toolCalls) item.setAttribute("data-tool-calls", JSON.stringify(toolCalls));
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
  }
  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    input.value = "";
    add("user", message);
    try {
      const response = await fetch("/api/chat", {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({message: message}),
        credentials: "same-origin",
      });
      const data = await response.json();
      if (!response.ok) { add("error", data.error || "Something went wrong."); return; }
      add("agent", data.reply, data.tool_calls.map(c => ({name: c.name, args: c.args, error: c.error})));
    } catch (err) {
      add("error", "The chat is unavailable right now.");
    }
  });
})();
