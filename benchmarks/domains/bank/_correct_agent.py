"""`CorrectBankAgent`: Northbank's deterministic rule-based card desk, following policy.md.

One instance per episode. Each turn it reads the message (see `_nlu`), files the facts under the
requests it is handling, verifies the customer before any change or disclosure, states each
change and asks for confirmation before making it, and works through the requests in order.
Its whole state is a JSON dict, so `snapshot()`/`restore()` are exact.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import JsonValue

from benchmarks.domains.bank._handlers import NO_VERIFY, Handlers, Step
from benchmarks.domains.bank._nlu import Parsed, parse
from vistasim.agent import Reply, Turn
from vistasim.events import ToolCall

MENU = ("I can block a lost or stolen card, order a replacement card, change a card limit, "
        "dispute a transaction, set up a travel notice, send a PIN reminder by post, or answer "
        "questions about fees.")
_AGAIN = re.compile(r"\b(also|another|again|as well|too|one more|other)\b")
_DATE_SLOTS = ("travel", "dispute", "charged_fee")
_AMOUNT_SLOTS = ("limit", "dispute", "charged_fee")


def _fresh_state() -> dict[str, Any]:
    return {"verified": None, "verify_last4": None, "dob": None, "attempts": 0, "locked": False,
            "queue": [], "awaiting": None, "proposal": None, "offer": None, "done": []}


class CorrectBankAgent(Handlers):
    """The Northbank card desk's chat agent (rule-based, no model)."""

    restore_strategy = "state"

    def __init__(self, *, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh_state()
        self._calls: list[ToolCall] = []
        self._turn: Turn | None = None

    # -- the adapter protocol --------------------------------------------------------------

    def snapshot(self) -> JsonValue:
        """The agent's whole state, as JSON data."""
        return copy.deepcopy(self.s)

    def restore(self, state: JsonValue) -> None:
        """Go back to a `snapshot()`."""
        self.s = copy.deepcopy(state) if isinstance(state, dict) else _fresh_state()

    async def aclose(self) -> None:
        """Nothing to release."""

    async def respond(self, turn: Turn) -> Reply:
        """Answer one customer message."""
        self._turn, self._calls = turn, []
        out: list[str] = []
        p = parse(turn.message, expect_digits=self.s["awaiting"] == "verify")
        if self.s["awaiting"] == "confirm" and self.s["proposal"]:
            if not await self._on_confirmation(p, out):
                return self._reply(out)
        else:
            self._absorb(p)
        await self._advance(p, out)
        return self._reply(out)

    def _reply(self, out: list[str]) -> Reply:
        return Reply(text=" ".join(part for part in out if part).strip(),
                     tool_calls=tuple(self._calls))

    async def call(self, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        """Run one tool and record it for the reply."""
        outcome = await self.env.call_tool(name, args)
        self._calls.append(ToolCall(name=name, args=args, result=outcome.result,
                                    error=outcome.error))
        return outcome.result, outcome.error

    # -- reading a message into the requests -------------------------------------------------

    def _absorb(self, p: Parsed) -> list[dict[str, Any]]:
        queue: list[dict[str, Any]] = self.s["queue"]
        new: list[dict[str, Any]] = []
        kinds = {i["kind"] for i in queue}
        fees_talk = {"fee", "charged_fee", "refund_fee"} & (kinds | set(self.s["done"]))
        for kind in p.intents:
            if kind == "refund":
                kind = "refund_fee" if fees_talk else "dispute"
            if kind in kinds or (kind in self.s["done"] and not _AGAIN.search(p.text.lower())):
                continue
            new.append({"kind": kind, "card": None, "card_kind": None, "slots": {}})
            kinds.add(kind)
        offer = self.s["offer"]
        if offer and p.yes and not new and not queue:
            new.append({"kind": offer, "card": None, "card_kind": None, "slots": {}})
        self.s["offer"] = None
        if new and self.s["awaiting"] not in (None, "verify"):
            self.s["awaiting"] = None
        queue.extend(new)
        self._route_identity(p, new)
        self._route_slots(p, queue)
        return new

    def _route_identity(self, p: Parsed, new: list[dict[str, Any]]) -> None:
        s = self.s
        if p.dob:
            s["dob"] = p.dob
        if not p.last4:
            return
        last4 = p.third_party_last4 or p.last4[-1]
        own = [d for d in p.last4 if d != p.third_party_last4]
        current = s["queue"][0] if s["queue"] else None
        if not s["verified"]:
            old = s["verify_last4"] or (s.get("prev") or [None])[0]
            if own and not (p.third_party and not p.third_party_last4):
                s["verify_last4"] = own[-1]
            for intent in s["queue"]:
                if intent in new or (intent["card"] == old and old is not None and p.correction):
                    intent["card"] = last4
            return
        targets = new or ([current] if current else [])
        for intent in targets:
            intent["card"] = last4
            intent.pop("card_info", None)

    def _route_slots(self, p: Parsed, queue: list[dict[str, Any]]) -> None:
        def first(kinds: tuple[str, ...]) -> dict[str, Any] | None:
            return next((i for i in queue if i["kind"] in kinds), None)

        for index, intent in enumerate(queue):
            if intent["kind"] == "dispute":
                intent["slots"]["said"] = (intent["slots"].get("said", "") + " " + p.text)[-600:]
            if p.card_kind and not intent["card"] and (index == 0 or not intent["card_kind"]):
                intent["card_kind"] = p.card_kind
                intent.pop("card_info", None)
        if p.block_reason and (target := first(("block", "replace"))):
            target["slots"]["reason"] = p.block_reason
        if p.dispute_reason and (target := first(("dispute",))):
            target["slots"]["reason"] = p.dispute_reason
        if target := first(("replace",)):
            if p.delivery:
                target["slots"]["delivery"] = p.delivery
            if p.address:
                target["slots"]["address"] = list(p.address)
            elif p.address_on_file:
                target["slots"].pop("address", None)
        if p.country and (target := first(("travel",))):
            target["slots"]["country"] = p.country
        if p.amounts and (target := first(_AMOUNT_SLOTS)):
            key = "new_limit" if target["kind"] == "limit" else "amount"
            target["slots"][key] = p.amounts[-1]
            target["slots"].pop("txn", None)
        if p.dates and (target := first(_DATE_SLOTS)):
            self._route_dates(target, p.dates)

    @staticmethod
    def _route_dates(intent: dict[str, Any], dates: list[tuple[str, str]]) -> None:
        slots = intent["slots"]
        if intent["kind"] != "travel":
            slots["date"] = dates[-1][1]
            slots.pop("txn", None)
            return
        plain = [iso for role, iso in dates if role == "on"]
        for role, iso in dates:
            if role == "from":
                slots["start"] = iso
            elif role == "to":
                slots["end"] = iso
        if len(plain) >= 2:
            slots["start"], slots["end"] = min(plain), max(plain)
        elif plain:
            iso = plain[0]
            if slots.get("start") and not slots.get("end") and iso >= slots["start"]:
                slots["end"] = iso
            else:
                slots["start"] = iso

    # -- confirmation ------------------------------------------------------------------------

    async def _on_confirmation(self, p: Parsed, out: list[str]) -> bool:
        """Handle the answer to a proposal; True to go on with the queue."""
        intent = self.s["queue"][0]
        def facts() -> tuple[Any, ...]:
            slots = {k: v for k, v in intent["slots"].items() if k != "said" and k[0] != "_"}
            return copy.deepcopy((slots, intent["card"], intent["card_kind"]))

        before = facts()
        new = self._absorb(p)
        changed = before != facts()
        proposal = self.s["proposal"]
        if p.drop and not p.yes:
            out.append("Okay, I've dropped that request; nothing was changed.")
            self._clear_proposal()
            self.s["queue"].pop(0)
            return True
        if changed:
            step = await self.handle(intent)
            same = step.kind == "propose" and (step.tool, step.args) == (proposal["tool"],
                                                                         proposal["args"])
            if not same:
                self._clear_proposal()
                return True
        if p.no:
            out.append("No problem, I haven't changed anything. Tell me if you'd like me to go "
                       "ahead, or what you'd like to change.")
            self.s["awaiting"] = "confirm"
            return False
        if p.yes:
            self._clear_proposal()
            out.append(await self.execute(intent, proposal))
            self.finish(intent, out, changed_state=True)
            return True
        if new:
            out.append("Noted, I'll help with that next.")
        else:
            out.append("Sorry, I need a clear yes or no.")
        out.append(proposal["text"])
        self.s["awaiting"] = "confirm"
        return False

    def _clear_proposal(self) -> None:
        self.s["proposal"] = None
        self.s["awaiting"] = None

    def finish(self, intent: dict[str, Any], out: list[str], *, changed_state: bool) -> None:
        """Close the current request."""
        if self.s["queue"] and self.s["queue"][0] is intent:
            self.s["queue"].pop(0)
        self.s["done"].append(intent["kind"])

    # -- working through the queue -----------------------------------------------------------

    async def _advance(self, p: Parsed, out: list[str]) -> None:
        s = self.s
        if not s["queue"] and not s["verified"] and s["verify_last4"] and s["dob"]:
            if await self._verify(out) == "ok":  # details given before the request
                out.append("How can I help you today?")
                return
        while self.s["queue"]:
            intent = self.s["queue"][0]
            if intent["kind"] not in NO_VERIFY and not self.s["verified"]:
                verdict = await self._verify(out)
                if verdict == "wait":
                    return
                if verdict == "refused":
                    continue
            step = await self.handle(intent)
            if step.kind == "again":
                continue
            if step.kind == "propose":
                if await self.propose(intent, step, out):
                    return
                continue
            out.append(step.text)
            if step.kind == "ask":
                self.s["awaiting"] = step.awaiting
                return
            self.finish(intent, out, changed_state=False)
        self._close(p, out)

    async def propose(self, intent: dict[str, Any], step: Step, out: list[str]) -> bool:
        """Put a change to the customer; True when now waiting for their answer."""
        out.append(step.text)
        self.s["proposal"] = {"tool": step.tool, "args": step.args, "text": step.text}
        self.s["awaiting"] = "confirm"
        return True

    def _close(self, p: Parsed, out: list[str]) -> None:
        self.s["awaiting"] = None
        if out:
            out.append("Is there anything else I can help you with?")
        elif p.bye or (p.no and self.s["done"]):
            out.append("You're welcome. Thank you for contacting Northbank, have a good day!")
        elif p.yes and self.s["done"]:
            out.append(f"Of course. What else can I help you with? {MENU}")
        elif p.greeting or not self.s["done"]:
            out.append(f"Hello, welcome to Northbank card support. {MENU} How can I help?")
        else:
            out.append(f"Sorry, I didn't quite get that. {MENU} What would you like to do?")

    async def _verify(self, out: list[str]) -> str:
        """Verify the customer: "ok", "wait" (asked for details) or "refused" (locked)."""
        s = self.s
        if s["locked"]:
            intent = s["queue"].pop(0)
            out.append("I'm sorry, I can't verify your identity in chat any more after three "
                       f"failed attempts, so I can't help with the {_LABEL[intent['kind']]} "
                       "here. Please call the Northbank card line on +31 20 555 0100 or visit a "
                       "branch with your ID.")
            return "refused"
        if bool(s["verify_last4"]) != bool(s["dob"]) and s.get("prev"):  # one detail corrected
            s["verify_last4"] = s["verify_last4"] or s["prev"][0]
            s["dob"] = s["dob"] or s["prev"][1]
        missing = [label for label, key in (("the last 4 digits of your card", "verify_last4"),
                                            ("your date of birth", "dob")) if not s[key]]
        if missing:
            asked_why = s["awaiting"] == "verify" and self._turn is not None and re.search(
                r"\bwhy\b|what for|do you need", self._turn.message.lower())
            s["awaiting"] = "verify"
            if asked_why:
                out.append("We ask every customer for this so that only the card holder can "
                           "see or change anything on a card.")
            out.append("Before I can help with that I need to verify your identity: please give "
                       f"me {' and '.join(missing)}.")
            return "wait"
        result, error = await self.call("verify_customer", {"card_last4": s["verify_last4"],
                                                            "date_of_birth": s["dob"]})
        if error:
            s["attempts"] += 1
            s["prev"] = [s["verify_last4"], s["dob"]]
            s["verify_last4"] = s["dob"] = None
            s["awaiting"] = "verify"
            if "locked" in error or s["attempts"] >= 3:
                s["locked"] = True
                return await self._verify(out)
            out.append("I'm sorry, those details don't match our records. Could you check and "
                       "give me the last 4 digits of your card and your date of birth again?")
            return "wait"
        s["prev"] = None
        s["verified"] = {"customer_id": result["customer_id"], "name": result["name"],
                         "last4": s["verify_last4"], "cards": result["cards"]}
        s["awaiting"] = None
        out.append(f"Thank you, {result['name'].split()[0]}, you're verified.")
        return "ok"


_LABEL = {"block": "card block", "replace": "replacement card", "limit": "limit change",
          "dispute": "dispute", "travel": "travel notice", "pin": "PIN letter",
          "status": "card details", "charged_fee": "fee question"}
