"""`CorrectBakeryAgent`: Pennywell Bakery's rule-based cake order desk (no model).

One instance per chat. Each message is read for identity facts (the customer number and the
postcode on the account), an answer to what the desk asked, a yes or no to its proposal, and new
requests, queued in the order asked. The desk checks who it is speaking to before it shares or
changes anything, asks for one missing detail at a time, states each change with every amount
and waits for a clear yes, then reports what the order book returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.bakery import _read as rd
from benchmarks.domains.bakery import _seed
from benchmarks.domains.bakery._flows import Flows
from vistasim.agent import Reply, Turn  # type: ignore[import-untyped]  # no py.typed

MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"customer_id", "postcode"}
OPEN_INTENTS = {"nuts"}  # answered from the policy alone: no account needed
CHANGE_WORDS = re.compile(r"\b(?:but|instead|actually|make it|rather|sorry|change it)\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {
        "customer": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False, "said": [],
    }  # fmt: skip


class CorrectBakeryAgent(Flows):
    """The desk: checks identity, reads plain English, confirms, reports what the tools did."""

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
        self.calls.append(
            {"name": tool_name, "args": args, "result": outcome.result, "error": outcome.error}
        )
        return outcome.result, outcome.error

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        last, times = self.s["repeat"]
        times = times + 1 if last == what else 1
        self.s["repeat"] = [what, times]
        if times >= MAX_SAME_QUESTION and what not in IDENTITY_ASKS:
            req = self.current()
            if req is not None:
                self.finish(req)
            self.s["repeat"] = ["", 0]
            out.append(
                "I'm sorry, I'm not managing to follow, so I'll leave that one there — nothing "
                f"has been changed. The shop can help on {_seed.SHOP_PHONE}."
            )
            return "done"
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[tuple[str, dict[str, Any]]]) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        self.s["pending"] = {"req": req["id"], "calls": calls, "text": text}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        self.s["said"].append(message)
        self._take_identity(message)
        if self.s["pending"]:
            intent = next((r["intent"] for r in self.s["queue"]
                           if r["id"] == self.s["pending"]["req"]), None)  # fmt: skip
            if not await self._answer_pending(message, found, out):
                self.queue_new(found)
                return
            # "yes, please cancel it" answers the proposal: it is not a second cancellation
            found = [f for f in found if f.intent != intent]
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and self._declined(asked, message):
                self.finish(req)
                out.append("All right — I'll leave that; nothing has been changed.")
            elif req is not None and asked not in IDENTITY_ASKS:
                req["chunks"].append(message)
                req["answers"][asked] = message
                # an answer to a question is a detail of the request, not a new one
                found = [f for f in found if f.intent != req["intent"]
                         and f.intent not in rd.DETAILS_OF_AN_ORDER]  # fmt: skip
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    @staticmethod
    def _declined(asked: str, message: str) -> bool:
        """A plain "no" to a question for a detail ("no" is an answer to the writing, though)."""
        return (asked not in IDENTITY_ASKS | {"inscription"} and rd.answer(message) == "no"
                and not re.search(r"\d", message))  # fmt: skip

    def closing(self) -> str:
        """Hook: what the desk says when there is nothing left to do."""
        return "Is there anything else I can help with?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for ordering with Pennywell Bakery."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, you're through to the Pennywell Bakery cake desk. I can take a new cake "
            "order, move one to another day, change its flavour, writing or collection time, "
            "arrange a delivery, cancel an order, tell you what's left to pay, or update your "
            "mobile number. What can I do for you?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add a message's requests to the queue, merging one of a kind already queued."""
        for request in found:
            same = next((r for r in self.s["queue"] if r["intent"] == request.intent), None)
            if same is not None:
                same["chunks"].append(request.text)
                continue
            self.s["queue"].append({"id": self.s["next_id"], "intent": request.intent,
                                    "chunks": [request.text], "answers": {}})  # fmt: skip
            self.s["next_id"] += 1

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["customer"]:
            return
        facts, asked = self.s["facts"], self.s["asked"]
        ids = rd.customers(message)
        if not ids and asked == "customer_id":
            ids = [f"PW{n}" for n in re.findall(r"\b(\d{4})\b", message)]
        if ids:
            facts["customer_id"] = ids[-1]
        codes = rd.postcodes(message)
        # a postcode said unasked is the account's, unless it is where a cake is to go
        if codes and (asked == "postcode" or re.search(r"\bpost ?code\b", message, re.I)
                      or not rd.wants_delivery(message)):  # fmt: skip
            facts["postcode"] = codes[-1]

    async def ensure_identity(self, out: list[str]) -> bool:
        """The customer number and the account's postcode, checked before anything else."""
        if self.s["customer"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("customer_id") and facts.get("postcode"):
            result, error = await self.call(
                "verify_customer", customer_id=facts["customer_id"], postcode=facts["postcode"]
            )
            if not error:
                self.s.update(customer=result["customer_id"], view=result)
                out.append(f"Thank you, {result['name'].split()[0]} — I've found your account.")
                return True
            self.s["fails"] += 1
            facts.clear()
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask("customer_id", "I'm sorry, those details don't match our records. Could "
                     "you give me your customer number again? It starts PW.", out)  # fmt: skip
            return False
        if not facts.get("customer_id"):
            self.ask("customer_id", "Before I look at anything I need to check I'm speaking to "
                     "the account holder. What's your customer number? It starts PW and is on "
                     "your order confirmation.", out)  # fmt: skip
        else:
            self.ask("postcode", "Thank you. And the postcode on your account?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Please call the shop on {_seed.SHOP_PHONE}."
        )

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> bool:
        """Handle a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append("Of course — nothing has been changed yet. Just say yes when you're "
                       "ready, or tell me what you'd like instead.")  # fmt: skip
            return False
        if self.changes_proposal(req, message) and (reply != "yes" or CHANGE_WORDS.search(message)):
            self.s["pending"] = None
            req["chunks"].append(message)
            # the new value outranks an earlier answer to the same question
            said = {"slot": rd.clock(message) is not None, "tiers": bool(rd.sizes(message)),
                    "flavour": bool(rd.flavours(message)),
                    "inscription": bool(rd.QUOTED_RE.search(message)),
                    "delivery_postcode": bool(rd.postcodes(message))}  # fmt: skip
            req["answers"].update({key: message for key, yes in said.items() if yes})
            return True
        if reply == "yes":
            self.s["pending"] = None
            await self.execute(req, pending, out)
            return True
        if reply == "no":
            self.s["pending"] = None
            self.finish(req)
            out.append("All right — I've left it as it is; nothing has been changed.")
            return True
        if found and found[0].intent != req["intent"]:
            out.append("I'll come to that straight after. First: " + pending["text"])
            return False
        if "?" in message:
            out.append("To be clear, here is exactly what I'd do: " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Just say yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming another value ("no, make it 2pm") reworks the proposal."""
        quoted = bool(rd.QUOTED_RE.search(message))
        said = {
            "order": bool(rd.dates(message, self.today) or rd.clock(message)
                          or rd.sizes(message) or rd.flavours(message) or quoted),
            "move": bool(rd.dates(message, self.today)),
            "slot": rd.clock(message) is not None,
            "delivery": bool(rd.postcodes(message)),
            "inscription": quoted,
            "contact": bool(rd.mobiles(message) or rd.emails(message)),
            "cake": bool(rd.flavours(message) or rd.diet(message)),
        }  # fmt: skip
        return said.get(req["intent"], False)

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if req["intent"] not in OPEN_INTENTS and not await self.ensure_identity(out):
                return
            status = await getattr(self, f"step_{req['intent']}")(req, out)
            if status == "wait":
                return
            self.finish(req)
        if not self.s["pending"] and not self.s["asked"]:
            out.append(self.closing())

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: make the agreed call and report what the order book returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(req["intent"], result))
        self.finish(req)
