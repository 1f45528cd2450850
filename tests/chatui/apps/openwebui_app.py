"""A page with Open WebUI's chat markup serving the rule bot (Open WebUI itself is too heavy).

python openwebui_app.py PORT

The markup copies Open WebUI 0.6's (src/app.html, chat/MessageInput.svelte, Messages/*.svelte):
the `apple-mobile-web-app-title` meta, `#chat-input` as a contenteditable ProseMirror field,
`#send-message-button` (shown only while there is text, as there), `#messages-container` with
`#message-{id}` rows whose text sits in `.chat-user` / `.chat-assistant`, and a stop button in
place of the send button while the reply streams. The reply streams from `/api/chat` in parts.
"""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, str(Path(__file__).parent))
from rules import PAUSE_S, reply_parts  # noqa: E402

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="apple-mobile-web-app-title" content="Open WebUI" />
<title>Open WebUI</title></head>
<body><div id="chat-container" class="h-screen flex flex-col">
<div id="messages-container" class="h-full w-full overflow-auto"></div>
<form id="message-input-container" class="w-full flex">
  <div id="chat-input" class="ProseMirror input-prose" contenteditable="true"
    translate="no" role="textbox"></div>
  <button id="send-message-button" type="submit" aria-label="Send" hidden>Send</button>
  <button class="stop-button" type="button" aria-label="Stop" hidden>Stop</button>
</form></div>
<script>
const input = document.getElementById("chat-input");
const send = document.getElementById("send-message-button");
const stop = document.querySelector(".stop-button");
const log = document.getElementById("messages-container");
let count = 0, earlier = [];
const showSend = () => { send.hidden = !input.textContent.trim() || !stop.hidden; };
input.addEventListener("input", showSend);
function row(role) {
  const id = "m" + (++count);
  const outer = document.createElement("div");
  outer.id = "message-" + id;
  outer.className = "flex w-full message-" + id;
  const text = document.createElement("div");
  text.className = "chat-" + role + " w-full min-w-full markdown-prose";
  outer.appendChild(text);
  log.appendChild(outer);
  return text;
}
async function submit(event) {
  event.preventDefault();
  const message = input.textContent.trim();
  if (!message || !stop.hidden) return;
  input.textContent = "";
  row("user").textContent = message;
  stop.hidden = false; showSend();
  const reply = row("assistant");
  const query = new URLSearchParams({message: message, earlier: JSON.stringify(earlier)});
  earlier.push(message);
  const stream = (await fetch("/api/chat?" + query)).body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const {done, value} = await stream.read();
    if (done) break;
    reply.textContent += decoder.decode(value, {stream: true});
  }
  stop.hidden = true; showSend();
}
document.getElementById("message-input-container").addEventListener("submit", submit);
input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) submit(e); });
</script></body></html>
"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        url = urlparse(self.path)
        if url.path == "/":
            self._answer(PAGE.encode(), "text/html; charset=utf-8")
        elif url.path == "/api/chat":
            query = parse_qs(url.query)
            self._stream(reply_parts(query["message"][0], json.loads(query["earlier"][0])))
        else:
            self.send_error(404)

    def _answer(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, parts: list[str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i, part in enumerate(parts):
            if i:
                time.sleep(PAUSE_S)
            data = part.encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def log_message(self, format: str, *args: object) -> None:  # quiet test logs
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
