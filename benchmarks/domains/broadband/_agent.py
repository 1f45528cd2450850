"""`CorrectBroadbandAgent`: Linnet Broadband's rule-based customer desk (no model).

One instance per chat. Each message is read for identity facts (the account number and the
account holder's date of birth), an answer to what the desk asked, a yes/no to its proposal,
and new requests (several in one message are queued in the order asked). The desk verifies the
account holder before any detail or change, serves nobody else, asks for one missing detail at
a time, states each change with every amount and waits for a clear yes, and reports what the
account system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.broadband import _read as rd
from benchmarks.domains.broadband import _seed
from benchmarks.domains.broadband._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "0330 088 4400"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"account_id", "date_of_birth"}
THIRD_PARTY_REPLY = (
    "I'm sorry — I can only discuss or change an account with the account holder themselves, "
    "so I can't look at it or make changes for someone else, even with their details. The "
    f"account holder can chat to us here or call us on {PHONE}."
)


def _fresh_state() -> dict[str, Any]:
    return {
        "account": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False, "said": [], "third_party": False,
    }  # fmt: skip


class CorrectBroadbandAgent(Flows):
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
                f"nothing has been changed. You can call us on {PHONE}."
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
        if self.s["third_party"] or (not self.s["account"] and self.third_party_refused(message)):
            self.s.update(third_party=True, queue=[], pending=None, asked=None)
            out.append(THIRD_PARTY_REPLY)
            return
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
            if req is not None and asked not in IDENTITY_ASKS:
                self._take_answer(req, asked, message)
                # an answer to a question is not a new request of the same kind
                found = [f for f in found if f.intent != req["intent"]]
            elif asked in IDENTITY_ASKS:
                found = [f for f in found if len(message) > 40]
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    @staticmethod
    def _take_answer(req: dict[str, Any], asked: str, message: str) -> None:
        req["chunks"].append(message)
        if asked == "new_term":
            if rd.NEW_TERM_NO.search(message):
                req["new_term"] = False
            elif rd.NEW_TERM_YES.search(message):
                req["new_term"] = True
            elif rd.answer(message) in {"yes", "no"}:
                req["new_term"] = rd.answer(message) == "yes"

    def closing(self) -> str:
        """Hook: what the desk says when the queue is empty."""
        return "Is there anything else I can help with?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for being with Linnet Broadband."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Linnet Broadband desk. I can change your speed plan, book an "
            "engineer for a fault, claim compensation for a loss of service, send a "
            "replacement router, move your service to a new home, cancel, or update your "
            "contact details. What can I do for you?"
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
        if not refs and self.s["asked"] == "account_id":
            refs = [f"LB{m.group(1)}" for m in re.finditer(r"(?<![\d/.-])(\d{6})(?![\d/.-])",
                                                            message)]  # fmt: skip
        if refs:
            facts["account_id"] = refs[-1]
        born = rd.birth_date(message, self.today)
        if born:
            facts["date_of_birth"] = born

    async def ensure_identity(self, out: list[str]) -> bool:
        """The account number and the holder's date of birth, checked before anything."""
        if self.s["account"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("account_id") and facts.get("date_of_birth"):
            result, error = await self.call(
                "verify_customer", account_id=facts["account_id"],
                date_of_birth=facts["date_of_birth"],
            )  # fmt: skip
            if not error:
                self.s.update(account=result["account_id"], view=result)
                out.append(f"Thank you, {result['name'].split()[0]} — I've found your account.")
                return True
            self.s["fails"] += 1
            facts.clear()
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask(
                "account_id",
                "I'm sorry, those details don't match an account. Could you give me your "
                "account number again, please? It starts LB.",
                out,
            )
            return False
        if not facts.get("account_id"):
            self.ask(
                "account_id",
                "Before I can help I need to check you're the account holder. What's your "
                "account number? It starts LB and has six digits — it's at the top of your bill.",
                out,
            )
        else:
            self.ask("date_of_birth", "Thank you. And the account holder's date of birth?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Please call us on {PHONE}."
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
        """A reply naming a different value ("no, make it the 26th") reworks the proposal."""
        intent = req["intent"]
        if intent == "plan":
            return bool(rd.plans(message))
        if intent == "engineer":
            return bool(rd.dates(message, self.today)) or rd.slot(message) is not None
        if intent == "move":
            return bool(rd.dates(message, self.today)) or rd.address(message) is not None
        if intent == "contact":
            return bool(rd.emails(message) or rd.mobiles(message))
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
            out.append(self.closing())

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(tool_name, result))
        self.finish(req)
