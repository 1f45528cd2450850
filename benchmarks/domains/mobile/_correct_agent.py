"""CorrectMobileAgent: a deterministic rule bot for Brightwave's support desk (no LLM).

It keeps a queue of the customer's requests, verifies the holder before any disclosure or change
(PIN or date of birth; the PIN for replacement SIMs), asks for what it still needs, states every
proposal with its price and fees and waits for a yes, and says plainly what it refuses and why.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import JsonValue

from benchmarks.domains.mobile import _lang as lang
from benchmarks.domains.mobile._handlers import Handlers
from benchmarks.domains.mobile._nlu import detect_intents, plan_filters, read_slots
from benchmarks.domains.mobile._rules import show_phone
from benchmarks.domains.mobile._seed import TODAY
from benchmarks.domains.mobile._verification import Verification
from vistasim.agent import Reply, Turn
from vistasim.events import ToolCall

NEEDS_VERIFICATION = {
    "bill", "change_plan", "data_addon", "roaming", "port_out", "sim_swap", "cancel", "address",
    "due_day",
}
LABELS = {
    "bill": "your bill", "plans": "our plans", "change_plan": "the plan change",
    "data_addon": "the data add-on", "roaming": "the roaming pass", "port_out": "the PAC code",
    "sim_swap": "the replacement SIM", "cancel": "the cancellation",
    "address": "the address change",
    "due_day": "the due date change", "pin_reminder": "your PIN",
}
OWN_REF = re.compile(
    r"\bmy (?:own |latest |last |current |monthly |recent )?(?:bill|line|plan|account|contract|"
    r"number|phone|mobile)\b|\bmine\b", re.IGNORECASE)
MENU = (
    "I can help with your bill, changing plan, data add-ons, roaming passes, PAC codes for "
    "switching network, replacement SIMs, cancelling a line, and your billing address or due date."
)


def _fresh() -> dict[str, Any]:
    return {
        "phone": None, "pin": None, "dob": None, "no_pin": False, "verified": None,
        "locked": False, "account": None, "queue": [], "pending": None, "asked": None,
        "last_kind": None, "target": None, "catalogue": None,
        "failed": [], "done": [], "target_role": None,
    }


class CorrectMobileAgent(Verification, Handlers):
    """Brightwave Mobile's support bot, one instance per conversation."""

    restore_strategy = "state"

    def __init__(self, *, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh()
        self._turn: Turn | None = None
        self._calls: list[ToolCall] = []
        self._out: list[str] = []

    # -- adapter surface -------------------------------------------------------------------

    def snapshot(self) -> JsonValue:
        """The conversation state, as JSON data."""
        return copy.deepcopy(self.s)

    def restore(self, state: JsonValue) -> None:
        """Go back to a `snapshot()`."""
        self.s = copy.deepcopy(state) if isinstance(state, dict) else _fresh()

    async def aclose(self) -> None:
        """Nothing to release."""

    async def respond(self, turn: Turn) -> Reply:
        """Answer one customer message."""
        self._turn, self._calls, self._out = turn, [], []
        await self._handle(turn.message)
        text = " ".join(part for part in self._out if part).strip() or "How can I help you today?"
        return Reply(text=text, tool_calls=tuple(self._calls))

    # -- plumbing --------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self._out.append(text)

    async def _call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(name, args)
        self._calls.append(
            ToolCall(name=name, args=args, result=outcome.result, error=outcome.error)
        )
        return outcome.result, outcome.error

    # -- one message -----------------------------------------------------------------------

    async def _handle(self, text: str) -> None:
        s = self.s
        facts = self._read_identity(text)
        kinds = detect_intents(text)
        slots = read_slots(text, TODAY, asked=s["asked"])
        new = self._queue_intents(kinds, text)
        if s["pending"]:
            await self._on_pending(text, slots, new)
            return
        changed = self._fill_slots(slots, new, text)
        if self._asks_why(text):
            return
        if not s["queue"]:
            self._no_request(text, facts)
            return
        if not s["verified"] and not s["phone"] and s["target_role"] == "other":
            self._say("Thanks, but that sounds like someone else's number. To verify you, I need "
                      "the mobile number on your own account.")
        if not (facts or new or changed) and s["asked"] not in (None, "anything"):
            if lang.answer(text) == "no" or lang.is_closing(text):
                dropped = s["queue"].pop(0)
                self._say(f"No problem, I'll leave {LABELS[dropped['kind']]} for now.")
                s["last_kind"] = dropped["kind"]
                if not s["queue"]:
                    s["asked"] = "anything"
                    self._say("Is there anything else I can help you with?")
                    return
            else:
                self._say("Sorry, I didn't quite catch that.")
        await self._drive()

    def _read_identity(self, text: str) -> bool:
        s = self.s
        said = False
        roles = lang.phone_roles(text)
        s["target"], s["target_role"] = None, None
        if roles:
            said = True
            if s["verified"]:
                s["target"], s["target_role"] = roles[-1]
            else:
                self._choose_caller_number(roles, lang.is_correction(text))
        found = lang.pins(text, expecting=s["asked"] in ("verify", "pin"))
        if found:
            s["pin"], s["no_pin"], said = found[-1], False, True
        births = lang.birth_dates(text, TODAY)
        if births:
            s["dob"], said = births[-1].isoformat(), True
        if lang.says_dont_know(text) and (
            s["asked"] in ("verify", "pin") or re.search(r"\bpin\b", text, re.IGNORECASE)
        ):
            s["no_pin"], said = True, True
        return said

    def _choose_caller_number(self, roles: list[tuple[str, str]], correcting: bool) -> None:
        """Before verification: which number is the caller's own, which one is someone else's."""
        s = self.s
        own = [n for n, role in roles if role == "own"]
        unknown = [n for n, role in roles if role == "unknown"]
        others = [n for n, role in roles if role == "other"]
        if correcting:
            mine = (own or unknown or others)[-1]
        elif s["phone"] and not own:
            mine = None  # the caller's number is known: a new one is the line they ask about
        else:
            mine = (own or unknown or [None])[0]
        if mine:
            s["phone"] = mine
        rest = [n for n, _ in roles if n != mine]
        if rest:
            s["target"] = rest[-1]
            s["target_role"] = dict(roles)[rest[-1]]

    def _queue_intents(self, kinds: list[str], text: str) -> list[dict[str, Any]]:
        s = self.s
        target = s["target"]
        someone_else = target is not None and s["target_role"] == "other"
        # "my bill, and my brother's line 07...": one request for each line.
        lines = [None, target] if someone_else and OWN_REF.search(text) else [target]
        new: list[dict[str, Any]] = []
        for kind in kinds:
            for line in lines:
                known = next((i for i in s["queue"] if i["kind"] == kind and (
                    i["line"] == line or not someone_else)), None)
                if known is not None:
                    known["line"] = line or known["line"]
                    continue
                new.append(self._new_intent(kind, line, text))
        if not kinds and target and s["verified"]:
            if s["queue"] and not someone_else:
                s["queue"][0]["line"] = target
            elif s["last_kind"] in NEEDS_VERIFICATION:
                # "And my son's line, 07700 900457?": the same request for another line.
                new.append(self._new_intent(s["last_kind"], target, text))
        return new

    def _new_intent(self, kind: str, line: str | None, text: str) -> dict[str, Any]:
        intent: dict[str, Any] = {"kind": kind, "line": line, "slots": {}}
        if kind == "plans":
            intent["slots"]["filters"] = plan_filters(text)
        self.s["queue"].append(intent)
        return intent

    def _fill_slots(self, slots: dict[str, Any], new: list[dict[str, Any]], text: str) -> bool:
        queue = self.s["queue"]
        changed = False
        for index, intent in enumerate(queue):
            if index and intent not in new:
                continue
            before = copy.deepcopy(intent["slots"])
            fill = getattr(self, f"_slots_{intent['kind']}", None)
            if fill is not None:
                fill(intent, slots, text)
            changed = changed or intent["slots"] != before
        return changed

    def _asks_why(self, text: str) -> bool:
        if self.s["asked"] not in ("verify", "pin") or not re.search(
            r"\bwhy\b|\bwhat for\b|\bdo you need\b|\bis that necessary\b", text, re.IGNORECASE
        ):
            return False
        self._say(
            "I need it to confirm you're the account holder: I can't look at or change anything "
            "on an account until the holder is verified in this conversation. It keeps your "
            "account safe."
        )
        self._ask_verification(self.s["queue"][0] if self.s["queue"] else None)
        return True

    def _no_request(self, text: str, facts: bool) -> None:
        s = self.s
        if lang.is_closing(text) or (s["asked"] == "anything" and lang.answer(text) == "no"):
            s["asked"] = None
            self._say("You're welcome. Thanks for contacting Brightwave Mobile, have a great day!")
        elif s["asked"] == "anything" and lang.answer(text) == "yes":
            self._say("Of course, what else can I help with?")
        elif re.search(r"\b(thanks|thank you|cheers|great|perfect)\b", text, re.IGNORECASE):
            s["asked"] = "anything"
            self._say("You're welcome! Is there anything else I can help you with?")
        elif facts:
            self._say("Thanks. What can I help you with today? " + MENU)
        else:
            self._say("Sorry, I'm not sure what you need. " + MENU + " What would you like to do?")

    # -- confirmations ---------------------------------------------------------------------

    async def _on_pending(
        self, text: str, slots: dict[str, Any], new: list[dict[str, Any]]
    ) -> None:
        s = self.s
        active = s["queue"][0]
        if self._fill_slots(slots, new, text):
            s["pending"] = None
            self._say("Thanks for the correction, let me update that.")
            await self._drive()
            return
        reply = lang.answer(text)
        if reply == "yes":
            s["pending"] = None
            await self._execute(active)
            await self._drive(after=active)
        elif reply == "no":
            s["pending"] = None
            self._say(self._declined(active))
            await self._drive(after=active)
        elif reply == "hold":
            self._say(
                "No problem, I haven't changed anything. Take your time: just say 'go ahead' when "
                "you're ready, or 'no' to leave it."
            )
            self._mention_later(new)
        else:
            self._mention_later(new)
            self._say("Just to check before I do anything: " + s["pending"]["text"])

    def _mention_later(self, new: list[dict[str, Any]]) -> None:
        if new:
            said = " and ".join(LABELS[i["kind"]] for i in new)
            self._say(f"I'll help with {said} straight after this.")

    def _declined(self, intent: dict[str, Any]) -> str:
        if intent["kind"] == "cancel":
            return "Okay, I won't cancel the line; it stays active exactly as it is."
        return "No problem, I haven't made that change."

    # -- the queue -------------------------------------------------------------------------

    async def _drive(self, after: dict[str, Any] | None = None) -> None:
        s = self.s
        if after is not None and not self._finish(after):
            return
        while s["queue"]:
            intent = s["queue"][0]
            if await self._advance(intent) == "wait":
                return
            if not self._finish(intent):
                return
        s["asked"] = "anything"
        self._say("Is there anything else I can help you with?")

    def _finish(self, intent: dict[str, Any]) -> bool:
        """Take a settled request off the queue; False stops the turn here."""
        queue = self.s["queue"]
        if intent in queue:
            queue.remove(intent)
        self.s["last_kind"] = intent["kind"]
        return True

    async def _advance(self, intent: dict[str, Any]) -> str:
        s = self.s
        if intent["kind"] in NEEDS_VERIFICATION:
            status = await self._ensure_verified(intent)
            if status != "ok":
                return status
            line = intent["line"] or s["verified"]["phone"]
            if line not in s["verified"]["lines"]:
                await self._other_number(intent, line)
                return "done"
            intent["line"] = line
            if self._already_done(intent):
                return "done"
        step = getattr(self, f"_step_{intent['kind']}")
        result: str = await step(intent)
        return result

    async def _other_number(self, intent: dict[str, Any], number: str) -> None:
        self._say(
            f"I'm sorry, but {show_phone(number)} isn't on your account, so I can't look at, "
            "share or change anything on it, not even who it belongs to. The holder of that "
            "account would need to contact us themselves."
        )
