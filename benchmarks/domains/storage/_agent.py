"""`CorrectStorageAgent`: Keepsafe Self Storage's rule-based desk (no model).

One instance per chat. Each message is read for identity facts (an account number, a postcode),
an answer to what the desk asked, a yes/no to its proposal, and new requests (several in one
message are queued in the order asked). The desk verifies the account holder before any account
detail or change, asks for one missing detail at a time, states each change with its money and
waits for a clear yes, and reports what the storage system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.storage import _read as rd
from benchmarks.domains.storage import _seed
from benchmarks.domains.storage._flows import Flows
from benchmarks.domains.storage._intents import Parsed, parse_message
from vistasim.agent import Reply, Turn

OFFICE_PHONE = "0161 496 0322"
MAX_VERIFY_FAILS = 3
MAX_MISSING = 2
# "my dad's account KS-4178": a number said as someone else's is never taken as proof.
THIRD_PERSON = re.compile(r"\b(her|his|their|wife|husband|partner|son|daughter|mum|dad|mother|"
                          r"father|friend|sister|brother|she|he)\b", re.I)
NOT_HELD = re.compile(r"\b(?:don'?t|do not|doesn'?t|can'?t|cannot|haven'?t|have not|no idea|"
                      r"not sure|unsure|never had|lost)\b|\bnot (?:got|mine|me)\b|\bno\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {"customer": None, "name": "", "email": "", "card": "", "postcode": "",
            "facts": {}, "fails": 0, "tried": [], "locked": False, "missing": 0,
            "asked": None, "queue": [], "pending": None, "next_id": 1, "started": False,
            "said": []}


class CorrectStorageAgent(Flows):
    """The desk's agent: verifies, reads plain English, confirms, reports what the tools did."""

    restore_strategy = "state"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh_state()
        self.calls: list[dict[str, Any]] = []
        self.turn: Turn | None = None

    # -- the adapter protocol --------------------------------------------------------------
    def snapshot(self) -> Any:
        return copy.deepcopy(self.s)

    def restore(self, state: Any) -> None:
        self.s = copy.deepcopy(state)

    async def aclose(self) -> None:
        return None

    async def respond(self, turn: Turn) -> Reply:
        self.turn = turn
        self.calls = []
        out: list[str] = []
        await self._handle(turn.message, out)
        self.s["started"] = True
        text = " ".join(part.strip() for part in out if part.strip())
        return Reply(text=text, tool_calls=tuple(self.calls))

    # -- shared helpers --------------------------------------------------------------------
    @property
    def now(self) -> datetime:
        clock = getattr(self.env, "now", None)
        return clock() if callable(clock) else _seed.NOW

    @property
    def today(self) -> date:
        return self.now.date()

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(tool_name, args)
        self.calls.append({"name": tool_name, "args": args, "result": outcome.result,
                           "error": outcome.error})
        return outcome.result, outcome.error

    def new_request(self, intent: str, text: str) -> dict[str, Any]:
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text], "notes": {}}
        self.s["next_id"] += 1
        return req

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        self.s["pending"] = {"req": req["id"], "tool": tool, "args": args, "text": text, **extra}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        parsed = parse_message(message)
        if not self.s["customer"]:
            self.s["said"].append(message)
        answered_identity = self.s["asked"] == "identity"
        self._take_identity(message)
        if self.s["pending"]:
            if not await self._answer_pending(message, parsed, out):
                self.queue_new(parsed)
                return
        elif self.s["asked"]:
            asked, self.s["asked"] = self.s["asked"], None
            req = self.current()
            if req is not None and asked != "identity":
                req["chunks"].append(message)
        self.queue_new(parsed)
        if answered_identity and not self.s["customer"] and not self.s["facts"] and \
                NOT_HELD.search(message):
            if await self.no_identity(message, out):
                return
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else
                       "Is there anything else I can help with?")
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thanks for storing with Keepsafe."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return ("Hello, this is Keepsafe Self Storage. I can rent you another unit, move you to "
                "a bigger or smaller unit, set a new gate PIN, book the van, take payment for or "
                "record a dispute of a late fee, take your notice to move out, or add an "
                "authorised user to your unit. What can I do for you?")

    def queue_new(self, parsed: Parsed) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of the current one."""
        current = self.current()
        for request in parsed.requests:
            if current is not None and request.intent == current["intent"]:
                current["chunks"].append(request.text)
                continue
            if any(r["intent"] == request.intent for r in self.s["queue"]):
                continue
            self.s["queue"].append(self.new_request(request.intent, request.text))

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["customer"]:
            return
        facts = self.s["facts"]
        asked = self.s["asked"] == "identity"

        def own(start: int) -> bool:
            return asked or not THIRD_PERSON.search(message[max(0, start - 35):start])

        refs = [m for m in rd.ACCOUNT_RE.finditer(message) if own(m.start())]
        if not refs and asked and not facts.get("account"):
            refs = list(rd.BARE_ACCOUNT_RE.finditer(message))
        if refs:
            facts["account"] = f"KS-{refs[0].group(1)}"
        code = rd.POSTCODE_RE.search(message)
        if code and own(code.start()):
            facts["postcode"] = rd.postcode(code.group(0))

    async def no_identity(self, message: str, out: list[str]) -> bool:
        """Hook: the customer cannot give the account number: only the holder can be helped."""
        self.s["missing"] += 1
        if self.s["missing"] >= MAX_MISSING:
            self.s["queue"] = []
            self.s["asked"] = None
            out.append("I'm sorry, I can only help the account holder, after checking the "
                       "account number and the postcode on the account, so I can't share or "
                       "change anything here. If the unit isn't yours, the account holder can "
                       f"contact us, or call the office on {OFFICE_PHONE}.")
            return True
        return False

    async def ensure_identity(self, out: list[str]) -> bool:
        """Hook: an account number and the account's postcode, checked before anything else."""
        if self.s["customer"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("account") and facts.get("postcode"):
            key = f"{facts['account']}:{facts['postcode']}"
            if key not in self.s["tried"]:
                self.s["tried"].append(key)
                result, error = await self.call("verify_customer", account_no=facts["account"],
                                                postcode=facts["postcode"])
                if not error:
                    await self.become(result["customer_id"], out)
                    return True
                self.s["fails"] += 1
                facts.clear()
                if self.s["fails"] >= MAX_VERIFY_FAILS:
                    self.s["locked"] = True
                    self._locked(out)
                    return False
                self.ask("identity", "I'm sorry, those details don't match our records. Could "
                         "you give me your account number again, please?", out)
                return False
            facts.clear()
        if not facts.get("account"):
            text = ("Before I can look at your account, I need to check who I'm talking to. "
                    "What's your account number? It starts KS-." if not self.s["fails"] and
                    not self.s["missing"] else
                    "I need the account holder's account number (KS- and four digits) and the "
                    "postcode on the account. What's the account number?")
        else:
            text = "Thank you. And what's the postcode on the account?"
        self.ask("identity", text, out)
        return False

    async def become(self, customer_id: str, out: list[str]) -> None:
        record, _ = await self.call("get_account", customer_id=customer_id)
        self.s.update(customer=customer_id, name=record["name"], email=record["email"],
                      card=record["card_last4"], postcode=record["postcode"])
        out.append(f"Thank you, {record['name'].split()[0]} — you're verified.")

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append("I'm sorry, I still can't match those details, so I can't share or change "
                   f"anything in this chat. Please call the office on {OFFICE_PHONE}.")

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, parsed: Parsed, out: list[str]) -> bool:
        """Handle a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append("No problem — I haven't changed anything. Just say yes when you're "
                       "ready, or tell me what you'd like instead.")
            return False
        if reply != "yes" and self.changes_proposal(req, message):
            self.s["pending"] = None
            req["chunks"].append(message)
            return True
        if reply == "yes":
            self.s["pending"] = None
            await self.execute(req, pending, out)
            return True
        if reply == "no":
            self.s["pending"] = None
            self.finish(req)
            out.append("Okay, I've left that as it is — nothing has been changed.")
            return True
        if parsed.requests and parsed.requests[0].intent != req["intent"]:
            out.append("I'll come to that next. First: " + pending["text"])
            return False
        if pending.get("why") and "?" in message:
            out.append(pending["why"] + " " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value ("no, the 11am slot") reworks the proposal."""
        intent = req["intent"]
        if intent in {"van", "notice", "rent"}:
            if rd.visit_dates(message, self.today) or rd.times(message):
                return True
        if intent in {"rent", "resize"} and rd.sizes(message):
            return True
        if intent == "pin":
            return bool(rd.pins(message))
        if intent == "auth":
            return rd.person_name(message) is not None
        return bool(rd.units(message))

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if not await self.ensure_identity(out):
                return
            status = await getattr(self, f"step_{req['intent']}")(req, out)
            if status == "wait":
                return
            self.finish(req)
        if not self.s["pending"] and not self.s["asked"]:
            out.append("Is there anything else I can help with?")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        result, error = await self.call(pending["tool"], **pending["args"])
        await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        self.finish(req)
