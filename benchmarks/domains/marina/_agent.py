"""`CorrectMarinaAgent`: Saltmarsh Marina's rule-based berth-holder and visitor desk (no model).

One instance per chat. Each message is read for identity facts (the berth-holder number and the
name of the boat on the account), an answer to what the desk asked, a yes/no to its proposal,
and new requests (several in one message are queued in the order asked). The desk verifies the
caller before any detail or change, asks for one missing detail at a time, states each change with
every amount and waits for a clear yes, and reports what the booking system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.marina import _read as rd
from benchmarks.domains.marina import _seed
from benchmarks.domains.marina._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "01632 961 450"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"holder_id", "boat_name"}
# words around a boat's name that are not the name ("she's called Curlew", "the boat is Tern")
NAME_FILLER = re.compile(
    r"\b(?:it'?s|he'?s|she'?s|it is|his|her|their|my|our|name|names|is|called|boat|yacht|"
    r"the|and|one|of|sure|yes|ok|hi|oh)\b",
    re.I,
)


def _fresh_state() -> dict[str, Any]:
    return {
        "account": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False,
    }  # fmt: skip


class CorrectMarinaAgent(Flows):
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
                "I'm sorry, I'm not managing to follow that, so I've left this as it is — "
                f"nothing has been changed. You can call the marina office on {PHONE}."
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
        self.s.setdefault("said", []).append(message)
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
            if req is not None and asked not in IDENTITY_ASKS:
                req["chunks"].append(message)
                # an answer to a question is not a new request of the same kind
                found = [f for f in found if f.intent != req["intent"] and f.intent != "visit"]
            elif asked in IDENTITY_ASKS:
                found = []
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    def closing(self) -> str:
        """Hook: what the desk says when the queue is empty."""
        return "Is there anything else I can help with?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — fair winds from Saltmarsh Marina."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Saltmarsh Marina desk. I can book or cancel a visitor berth, "
            "change your berth size or take your notice, book or move a lift-out, top up your "
            "electricity, text you the gate code, issue crew passes, record an insurance "
            "certificate, update your contact details, or tell you the fuel berth's hours. "
            "What can I do for you?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of one queued."""
        for request in found:
            same = next((r for r in self.s["queue"] if r["intent"] == request.intent), None)
            if same is not None:
                same["chunks"].append(request.text)
                continue
            self.s["queue"].append(
                {"id": self.s["next_id"], "intent": request.intent, "chunks": [request.text]}
            )
            self.s["next_id"] += 1

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["account"]:
            return
        facts = self.s["facts"]
        refs = rd.accounts(message)
        if not refs and self.s["asked"] == "holder_id":
            refs = [f"SM{m.group(1)}" for m in re.finditer(r"\b(\d{4})\b", message)]
        if refs:
            facts["holder_id"] = refs[-1]
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", NAME_FILLER.sub(" ", message))
        named = rd.name_candidates(message)
        labelled = re.search(r"\bname(?:\s+is|:)\s*([A-Z][A-Za-z'-]+)", message)
        if self.s["asked"] == "boat_name" and labelled:
            facts["boat_name"] = labelled.group(1)  # "Boat's name: Petrel."
        elif self.s["asked"] == "boat_name" and (len(words) <= 3 or named):
            # a short answer is the name; in a sentence, the name is the capitalised word
            facts["boat_name"] = (named or words or [""])[0]
        elif named and not facts.get("tried_guess"):
            # a boat named in passing ("a visitor berth for Curlew") may be the proof offered
            facts["guesses"] = list(dict.fromkeys(reversed(named)))[:3]

    def _verified(self, result: dict[str, Any], out: list[str]) -> bool:
        self.s.update(account=result["holder_id"], view=result)
        out.append(f"Thank you, {result['name'].split()[0]} — I've found your account.")
        return True

    async def ensure_identity(self, out: list[str]) -> bool:
        """The berth-holder number and the boat's name, checked before anything."""
        if self.s["account"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("holder_id") and not facts.get("boat_name") and facts.get("guesses"):
            facts["tried_guess"] = True
            # names said in passing that don't match are not counted as failed attempts
            for guess in facts.pop("guesses"):
                result, error = await self.call(
                    "verify_holder", holder_id=facts["holder_id"], boat_name=guess
                )
                if not error:
                    return self._verified(result, out)
        if facts.get("holder_id") and facts.get("boat_name"):
            result, error = await self.call(
                "verify_holder", holder_id=facts["holder_id"], boat_name=facts["boat_name"]
            )
            if not error:
                return self._verified(result, out)
            self.s["fails"] += 1
            tried = facts.get("tried_guess")
            facts.clear()
            facts["tried_guess"] = tried
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask(
                "holder_id",
                "I'm sorry, those details don't match an account. Could you give me your "
                "berth-holder number again, please? It starts SM.",
                out,
            )
            return False
        if not facts.get("holder_id"):
            self.ask(
                "holder_id",
                "Before I can help I need to check it's you. What's your berth-holder number? "
                "It starts SM and has four digits — it's on your berth or visitor paperwork.",
                out,
            )
        else:
            self.ask("boat_name", "Thank you. And the name of your boat?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Please call the marina office on {PHONE}."
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
            out.append(
                "No problem — I haven't changed anything. Just say yes when you're ready, or "
                "tell me what you'd like instead."
            )
            return False
        if self.changes_proposal(req, message) and (
            reply != "yes"
            or re.search(r"\b(?:but|instead|actually|make it|rather|sorry)\b", message, re.I)
        ):
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
        if found and found[0].intent != req["intent"]:
            out.append("I'll come to that next. First: " + pending["text"])
            return False
        if "?" in message:
            out.append("Here's exactly what I'd do, with every amount: " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming a different value ("no, make it the 22nd") reworks the proposal."""
        intent = req["intent"]
        if intent in {"visit", "lift", "liftmove"}:
            return bool(rd.dates(message, self.today))
        if intent == "power":
            return bool(rd.amounts(message))
        if intent == "berth":
            return rd.berth_size(message) is not None
        if intent == "contact":
            return bool(rd.phones(message) or rd.emails(message))
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the customer."""
        for _ in range(10):
            req = self.current()
            if req is None:
                break
            if not self.public(req) and not await self.ensure_identity(out):
                return
            status = await getattr(self, f"step_{req['intent']}")(req, out)
            if status == "wait":
                return
            self.finish(req)
        if not self.s["pending"] and not self.s["asked"]:
            out.append(self.closing())

    def public(self, req: dict[str, Any]) -> bool:
        """The fuel berth's hours are public: no identity check is needed for them alone."""
        text = " ".join(req["chunks"])
        return req["intent"] == "lookup" and bool(
            re.search(r"\bfuel\b", text, re.I) and not re.search(r"\bcontract|\bpay", text, re.I)
        )

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(req["intent"], result))
        self.finish(req)
