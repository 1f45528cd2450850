// The support chat widget: posts to /api/chat and shows replies as text (never as HTML).
// The transcript lives in sessionStorage so it survives page navigation.
(function () {
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  const KEY = "shop-chat";

  function show(role, text, toolCalls) {
    const div = document.createElement("div");
    div.className = role;
    div.textContent = text;
    if (toolCalls) div.dataset.toolCalls = JSON.stringify(toolCalls);
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
  }

  const saved = JSON.parse(sessionStorage.getItem(KEY) || "[]");
  saved.forEach((m) => show(m.role, m.text, m.toolCalls));

  function remember(role, text, toolCalls) {
    saved.push({ role: role, text: text, toolCalls: toolCalls });
    sessionStorage.setItem(KEY, JSON.stringify(saved));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const message = input.value.trim();
    if (!message) return;
    input.value = "";
    show("user", message);
    remember("user", message);
    let text, calls;
    try {
      const response = await fetch("/api/chat", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message: message }),
      });
      const data = await response.json();
      text = response.ok ? data.reply : "Error: " + data.error;
      calls = (data.tool_calls || []).map((c) => ({ name: c.name, error: c.error }));
    } catch (err) {
      text = "Error: the support chat is unavailable.";
    }
    show("agent", text, calls);
    remember("agent", text, calls);
  });
})();
