"""WebChatAgent driving a chat widget that is not ours, in a real Chromium."""

from __future__ import annotations

from dataclasses import replace

import anyio
import pytest

from vistasim.agent import (
    AgentAdapter,
    HttpTraceSource,
    Turn,
    Utterance,
    WebChatAgent,
    WidgetSelectors,
)
from vistasim.errors import AgentError, BrowserError

pytestmark = pytest.mark.browser

FOREIGN = WidgetSelectors(
    input=".helpdesk-panel textarea.composer",
    send=".helpdesk-panel .go",
    messages=".thread > li",
    agent_message=".thread > li.from-support",
    open_button="#open-helpdesk",
    reply_url="**/ask",
)


def expected(message: str) -> str:
    return f"Thanks for asking about {message}. We reply within two days."


async def open_agent(page, site, mode: str = "normal", **kwargs) -> WebChatAgent:
    await page.goto(f"{site.url}/?mode={mode}")
    kwargs.setdefault("settle_ms", 300)
    kwargs.setdefault("timeout_s", 8.0)
    return WebChatAgent(page, widget=FOREIGN, **kwargs)


async def test_reply_is_the_whole_streamed_message_after_opening_the_launcher(page, site):
    agent = await open_agent(page, site)
    reply = await agent.respond(Turn(episode_id="e1", message="refund timelines"))
    assert reply.text == expected("refund timelines")
    await agent.aclose()


async def test_reply_metadata_records_latency(page, site):
    agent = await open_agent(page, site)
    reply = await agent.respond(Turn(episode_id="e1", message="shipping"))
    assert 0 < reply.metadata["first_s"] <= reply.metadata["latency_s"] < 5
    await agent.aclose()


async def test_second_turn_returns_only_the_new_agent_message(page, site):
    agent = await open_agent(page, site)
    await agent.respond(Turn(episode_id="e1", message="first question"))
    reply = await agent.respond(Turn(episode_id="e1", message="second question"))
    assert reply.text == expected("second question")
    await agent.aclose()


async def test_transcript_lists_user_and_agent_messages_in_order(page, site):
    agent = await open_agent(page, site)
    await agent.respond(Turn(episode_id="e1", message="hours"))
    assert await agent.transcript() == (
        Utterance(role="agent", text="Hi! How can we help?"),
        Utterance(role="user", text="hours"),
        Utterance(role="agent", text=expected("hours")),
    )
    await agent.aclose()


async def test_adapter_satisfies_the_protocol_with_replay_restore(page, site):
    agent = await open_agent(page, site)
    assert isinstance(agent, AgentAdapter)
    assert agent.restore_strategy == "replay"
    await agent.aclose()


async def test_without_tool_reports_or_trace_the_reply_has_no_tool_calls(page, site):
    agent = await open_agent(page, site)
    reply = await agent.respond(Turn(episode_id="e1", message="anything"))
    assert reply.tool_calls == ()
    await agent.aclose()


async def test_trace_source_supplies_this_turns_tool_calls(page, site):
    trace = HttpTraceSource(f"{site.url}/trace")
    agent = await open_agent(page, site, trace=trace)
    await agent.respond(Turn(episode_id="e1", message="old question"))
    reply = await agent.respond(Turn(episode_id="e1", message="warranty"))
    assert [(c.name, c.args, c.result) for c in reply.tool_calls] == [
        ("lookup_faq", {"question": "warranty"}, {"hits": 1})
    ]
    await agent.aclose()


async def test_widget_that_never_answers_raises_agent_error_after_timeout(page, site):
    agent = await open_agent(page, site, mode="silent", timeout_s=2.0)
    start = anyio.current_time()
    with pytest.raises(AgentError, match="no new agent message appeared"):
        await agent.respond(Turn(episode_id="e1", message="hello?"))
    assert 1.9 < anyio.current_time() - start < 5
    await agent.aclose()


async def test_a_reply_no_selector_reads_is_the_harness_error_not_the_agents(page, site):
    """The widget answered, but `agent_message` matches nothing: errored, never failed."""
    await page.goto(f"{site.url}/?mode=normal")
    blind = replace(FOREIGN, agent_message=".thread > li.from-bot")
    agent = WebChatAgent(page, widget=blind, settle_ms=300, timeout_s=2.0)
    with pytest.raises(BrowserError, match="the reply could not be read.*agent_message"):
        await agent.respond(Turn(episode_id="e1", message="hello?"))
    await agent.aclose()


async def test_page_without_a_widget_raises_browser_error_not_an_agent_failure(page, site):
    await page.goto(f"{site.url}/plain")
    agent = WebChatAgent(page, timeout_s=1.0)
    with pytest.raises(BrowserError, match="no chat widget input is visible"):
        await agent.respond(Turn(episode_id="e1", message="hi"))
    await agent.aclose()


async def test_send_control_that_cannot_be_clicked_raises_browser_error(page, site):
    agent = await open_agent(page, site, mode="stuck", timeout_s=1.0)
    with pytest.raises(BrowserError, match="could not send"):
        await agent.respond(Turn(episode_id="e1", message="hi"))
    await agent.aclose()


async def test_failed_widget_request_raises_agent_error_with_status(page, site):
    agent = await open_agent(page, site)
    site.fail_next = True
    with pytest.raises(AgentError) as caught:
        await agent.respond(Turn(episode_id="e1", message="hi"))
    assert caught.value.status == 503
    assert "overloaded" in (caught.value.body or "")
    await agent.aclose()


async def test_page_crash_while_waiting_raises_agent_error(page, site):
    agent = await open_agent(page, site, mode="silent", timeout_s=5.0)

    async def crash() -> None:
        await anyio.sleep(0.5)
        try:
            await page.goto("chrome://crash", timeout=2000)
        except Exception:
            pass  # the navigation itself fails: the renderer is gone

    async with anyio.create_task_group() as tg:
        tg.start_soon(crash)
        with pytest.raises(AgentError, match="crashed"):
            await agent.respond(Turn(episode_id="e1", message="hi"))
    await agent.aclose()


async def test_page_closed_while_waiting_raises_browser_error(page, site):
    agent = await open_agent(page, site, mode="silent", timeout_s=5.0)

    async def close() -> None:
        await anyio.sleep(0.5)
        await page.close()

    async with anyio.create_task_group() as tg:
        tg.start_soon(close)
        with pytest.raises(BrowserError, match="closed"):
            await agent.respond(Turn(episode_id="e1", message="hi"))


COMMON_WIDGET = """<!doctype html><title>Common</title>
<div class="chat-widget">
  <div class="messages"></div>
  <form><textarea name="q"></textarea><button type="submit">Send</button></form>
</div>
<script>
const box = document.querySelector(".messages");
function add(cls, text) {
  const d = document.createElement("div"); d.className = cls; d.textContent = text;
  box.appendChild(d);
}
document.querySelector("form").addEventListener("submit", (e) => {
  e.preventDefault();
  const t = document.querySelector("textarea"); const q = t.value; t.value = "";
  add("message user", q);
  setTimeout(() => add("message bot", "Echo: " + q), 100);
});
</script>"""

ENTER_ONLY_WIDGET = """<!doctype html><title>Enter</title>
<div id="chatbox"><ol></ol><input placeholder="Say something"></div>
<script>
const input = document.querySelector("#chatbox input");
input.addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  const li = document.createElement("li"); li.className = "assistant";
  li.textContent = "Got: " + input.value; input.value = "";
  setTimeout(() => document.querySelector("#chatbox ol").appendChild(li), 50);
});
</script>"""


async def test_default_selectors_drive_a_common_chat_widget(page):
    await page.set_content(COMMON_WIDGET)
    agent = WebChatAgent(page, settle_ms=150, timeout_s=5.0)
    reply = await agent.respond(Turn(episode_id="e1", message="ping"))
    assert reply.text == "Echo: ping"
    await agent.aclose()


async def test_enter_is_pressed_when_the_widget_has_no_send_button(page):
    await page.set_content(ENTER_ONLY_WIDGET)
    agent = WebChatAgent(page, settle_ms=150, timeout_s=5.0)
    reply = await agent.respond(Turn(episode_id="e1", message="pong"))
    assert reply.text == "Got: pong"
    await agent.aclose()


async def test_widget_that_reloads_the_page_on_send_is_read_after_reload(page, site):
    await page.goto(f"{site.url}/form")
    agent = WebChatAgent(
        page, widget=WidgetSelectors(agent_message=".chat-area .them"), settle_ms=150
    )
    await agent.respond(Turn(episode_id="e1", message="first"))
    reply = await agent.respond(Turn(episode_id="e1", message="second"))
    assert reply.text == "Noted: second"
    await agent.aclose()


# A reply in two parts with a one-second pause, the log marked busy until the end (aria-busy).
BUSY_WIDGET = """<!doctype html><title>Busy</title>
<div role="log" aria-label="Conversation"></div>
<textarea aria-label="Message"></textarea><button aria-label="Send">&#10148;</button>
<script>
const log = document.querySelector("[role=log]");
const busy = true;
function add(who, text) {
  const d = document.createElement("div"); d.setAttribute("data-role", who);
  d.textContent = text; log.appendChild(d); return d;
}
document.querySelector("button").addEventListener("click", () => {
  const t = document.querySelector("textarea"); const q = t.value; t.value = "";
  add("user", q);
  if (busy) log.setAttribute("aria-busy", "true");
  const d = add("assistant", "Part one.");
  setTimeout(() => { d.textContent += " Part two."; log.removeAttribute("aria-busy"); }, 1000);
});
</script>"""

# A widget that shows its input before its connection is up: the send button stays disabled
# and the text typed meanwhile is dropped when it connects (as Chainlit's composer re-renders).
LATE_WIDGET = """<!doctype html><title>Late</title>
<div class="chat"><div class="messages"></div>
<textarea></textarea><button type="submit" disabled>Send</button></div>
<script>
const t = document.querySelector("textarea"), b = document.querySelector("button");
let connected = false;
t.addEventListener("input", () => { b.disabled = !connected || !t.value; });
setTimeout(() => { connected = true; t.value = ""; document.body.dataset.connected = "1"; }, 800);
b.addEventListener("click", () => {
  const box = document.querySelector(".messages"), q = t.value; t.value = ""; b.disabled = true;
  box.insertAdjacentHTML("beforeend", '<div class="message user"></div>');
  box.lastChild.textContent = q;
  setTimeout(() => {
    box.insertAdjacentHTML("beforeend", '<div class="message bot"></div>');
    box.lastChild.textContent = "Got: " + q;
  }, 100);
});
</script>"""


async def test_reply_is_complete_only_once_the_busy_indicator_is_gone(page):
    await page.set_content(BUSY_WIDGET)
    agent = WebChatAgent(page, settle_ms=300, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message="tell me"))
    assert reply.text == "Part one. Part two."
    await agent.aclose()


PAUSING_WIDGET = BUSY_WIDGET.replace("const busy = true;", "const busy = false;")


async def test_default_settle_time_outlasts_a_one_second_pause_without_busy_indicator(page):
    await page.set_content(PAUSING_WIDGET)
    agent = WebChatAgent(page, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message="tell me"))
    assert reply.text == "Part one. Part two."
    await agent.aclose()


async def test_a_settle_time_shorter_than_the_pause_cuts_the_reply(page):
    await page.set_content(PAUSING_WIDGET)
    agent = WebChatAgent(page, settle_ms=300, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message="tell me"))
    assert reply.text == "Part one."  # why the default is longer than a streaming pause
    await agent.aclose()


async def test_an_aria_log_with_a_textbox_is_driven_without_selectors(page):
    await page.set_content(BUSY_WIDGET)
    agent = WebChatAgent(page, settle_ms=300, timeout_s=8.0)
    await agent.respond(Turn(episode_id="e1", message="hi"))
    assert await agent.transcript() == (
        Utterance(role="user", text="hi"),
        Utterance(role="agent", text="Part one. Part two."),
    )
    await agent.aclose()


async def test_message_typed_before_the_widget_connects_is_retyped_and_sent(page):
    await page.set_content(LATE_WIDGET)
    agent = WebChatAgent(page, settle_ms=200, timeout_s=8.0)
    reply = await agent.respond(Turn(episode_id="e1", message="are you there?"))
    assert reply.text == "Got: are you there?"
    await agent.aclose()


async def test_nothing_is_typed_before_the_ready_marker_appears(page):
    await page.set_content(LATE_WIDGET)
    widget = WidgetSelectors(ready="body[data-connected]")
    agent = WebChatAgent(page, widget=widget, settle_ms=200, timeout_s=8.0)
    start = anyio.current_time()
    reply = await agent.respond(Turn(episode_id="e1", message="hello"))
    assert reply.text == "Got: hello"
    assert reply.metadata["first_s"] < 0.8 < anyio.current_time() - start
    await agent.aclose()


async def test_a_widget_that_never_connects_is_a_browser_error(page):
    await page.set_content(LATE_WIDGET)
    widget = WidgetSelectors(ready="body[data-never]")
    agent = WebChatAgent(page, widget=widget, timeout_s=1.5)
    with pytest.raises(BrowserError, match="never became ready.*body\\[data-never\\]"):
        await agent.respond(Turn(episode_id="e1", message="hello"))
    await agent.aclose()
