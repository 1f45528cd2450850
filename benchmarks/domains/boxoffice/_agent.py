"""`CorrectBoxofficeAgent`: Lanternhall Box Office's rule-based desk (no model).

One instance per chat. Each message is read for identity facts (an order number, a postcode),
an answer to what the desk asked, a yes/no to its proposal, and new requests (several in one
message are queued in the order asked). The desk verifies the customer before any account detail
or change, asks for one missing detail at a time, states each change with its money and waits
for a clear yes, and reports what the box office system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.boxoffice import _read as rd
from benchmarks.domains.boxoffice import _seed
from benchmarks.domains.boxoffice._intents import Parsed, parse_message
from benchmarks.domains.boxoffice._more_flows import MoreFlows
from vistasim.agent import Reply, Turn

BOX_OFFICE_PHONE = "0113 496 0750"
MAX_VERIFY_FAILS = 3
# "my husband's order LH-48290": a number said as someone else's is never taken as proof.
THIRD_PERSON = re.compile(r"\b(her|his|their|wife|husband|partner|son|daughter|mum|dad|mother|"
                          r"father|friend|sister|brother|she|he)\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {"customer": None, "name": "", "email": "", "member": False, "proof": False,
            "card": "", "postcode": "", "order": "", "facts": {}, "fails": 0, "tried": [],
            "locked": False, "asked": None, "queue": [], "pending": None, "next_id": 1,
            "started": False}


class CorrectBoxofficeAgent(MoreFlows):
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
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else
                       "Is there anything else I can help with?")
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — enjoy the performance, from everyone at Lanternhall."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return ("Hello, this is the Lanternhall Box Office. I can exchange tickets to another "
                "performance, take returns for sold-out performances, upgrade seats, add or "
                "remove ticket insurance, post tickets, rename a gift order, apply a member "
                "discount, book wheelchair spaces and companion seats, or update your email. "
                "What can I do for you?")

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

        refs = [m for m in rd.ORDER_RE.finditer(message) if own(m.start())]
        if refs:
            facts["order"] = f"LH-{refs[0].group(1)}"
        code = rd.POSTCODE_RE.search(message)
        if code and own(code.start()):
            facts["postcode"] = rd.postcode(code.group(0))

    async def ensure_identity(self, out: list[str]) -> bool:
        """Hook: an order number and the account's postcode, checked before anything else."""
        if self.s["customer"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("order") and facts.get("postcode"):
            key = f"{facts['order']}:{facts['postcode']}"
            if key not in self.s["tried"]:
                self.s["tried"].append(key)
                result, error = await self.call("verify_customer", order_id=facts["order"],
                                                postcode=facts["postcode"])
                if not error:
                    await self.become(result["customer_id"], facts["order"], out)
                    return True
                self.s["fails"] += 1
                facts.clear()
                if self.s["fails"] >= MAX_VERIFY_FAILS:
                    self.s["locked"] = True
                    self._locked(out)
                    return False
                self.ask("identity", "I'm sorry, those details don't match our records. Could "
                         "you give me your order number again, please?", out)
                return False
            facts.clear()
        if not facts.get("order"):
            text = ("Before I can look at your booking, I need to check who I'm talking to. "
                    "What's your order number? It starts LH-." if not self.s["fails"] else
                    "What's your order number?")
        else:
            text = "Thank you. And what's the postcode on your account?"
        self.ask("identity", text, out)
        return False

    async def become(self, customer_id: str, order_id: str, out: list[str]) -> None:
        record, _ = await self.call("get_customer", customer_id=customer_id)
        self.s.update(customer=customer_id, name=record["name"], email=record["email"],
                      member=record["member"], proof=record["access_proof"],
                      card=record["card_last4"], postcode=record["postcode"], order=order_id)
        out.append(f"Thank you, {record['name'].split()[0]} — you're verified.")

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append("I'm sorry, I still can't match those details, so I can't share or change "
                   f"anything in this chat. Please call the box office on {BOX_OFFICE_PHONE}.")

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
        if parsed.requests:
            out.append("I'll come to that next. First: " + pending["text"])
            return False
        if pending.get("why") and "?" in message:
            out.append(pending["why"] + " " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value ("no, the matinee") reworks the proposal."""
        intent = req["intent"]
        if intent in {"exchange", "access"}:
            return bool(rd.visit_dates(message, self.today) or rd.times(message)
                        or rd.sitting(message))
        if intent == "name":
            return rd.person_name(message) is not None
        if intent == "email":
            return bool(rd.emails(message))
        if intent == "upgrade":
            return rd.band_wanted(message) is not None
        return False

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
