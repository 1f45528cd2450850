"""`CorrectGolfClubAgent`: Fairway Golf Club's rule-based tee-time desk (no model).

One instance per chat. Each message is read for identity facts (the membership or visitor
number and the surname), an answer to what the desk asked, a yes/no to its proposal, and new
requests (several in one message are queued in the order asked). The desk verifies the golfer
before any detail or change, asks for one missing detail at a time, states each change with
every amount and waits for a clear yes, and reports what the tee sheet returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.golfclub import _read as rd
from benchmarks.domains.golfclub import _seed
from benchmarks.domains.golfclub._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "01632 960 440"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"golfer_number", "surname"}
# words around a surname that are not the surname ("it's Hughes", "my surname is Lam")
NAME_FILLER = re.compile(
    r"\b(?:it'?s|it is|my|surname|last|name|names|is|the|and|sure|yes|ok|hi|oh|mr|mrs|ms|"
    r"miss|dr|i'?m|this|family)\b",
    re.I,
)


def _fresh_state() -> dict[str, Any]:
    return {
        "golfer": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False, "said": [],
    }  # fmt: skip


class CorrectGolfClubAgent(Flows):
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
                f"nothing has been changed. You can call the pro shop on {PHONE}."
            )
            return "done"
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[tuple[str, dict[str, Any]]]) -> str:  # fmt: skip
        self.s["repeat"] = ["", 0]
        # lists, not tuples: the state is JSON as it is, so a restored desk is the same desk
        self.s["pending"] = {"req": req["id"], "calls": [list(c) for c in calls], "text": text}
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
                # "how much do I get back?" asks about the proposal: it is no new request
                self.queue_new([f for f in found if f.intent not in {intent, "lookup"}])
                return
            # "yes, please cancel it" answers the proposal: it is not a second cancellation
            found = [f for f in found if f.intent != intent]
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked not in IDENTITY_ASKS:
                req["chunks"].append(message)
                # an answer to a question is not a new request of the same kind
                found = [f for f in found if f.intent not in {req["intent"], "book", "lookup"}]
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
            return "You're welcome — enjoy your golf at Fairway."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Fairway Golf Club tee-time desk. I can book a tee time, move "
            "or cancel one, add a buggy, book or cancel a lesson with our professional, or "
            "tell you about your booking. What can I do for you?"
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
        if self.s["golfer"]:
            return
        facts = self.s["facts"]
        refs = rd.golfer_numbers(message)
        if refs:
            facts["golfer_number"] = refs[-1]
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", NAME_FILLER.sub(" ", message))
        named = rd.name_candidates(message)
        if self.s["asked"] == "surname" and (len(words) <= 3 or named):
            # a short answer is the surname; in a sentence, the last capitalised word
            facts["surname"] = (named[-1:] or words[-1:] or [""])[0]
        elif named and not facts.get("tried_guess"):
            # a name said in passing ("this is Alan Hughes") may be the proof offered
            facts["guess"] = named[-1]

    async def _verify(self, number: str, surname: str, out: list[str]) -> bool:
        result, error = await self.call("verify_golfer", golfer_number=number, surname=surname)
        if error:
            return False
        self.s.update(golfer=result["golfer_number"], view=result)
        out.append(f"Thank you, {result['name'].split()[0]} — I've found your details.")
        return True

    async def ensure_identity(self, out: list[str]) -> bool:
        """The membership or visitor number and the surname, checked before anything."""
        if self.s["golfer"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("golfer_number") and not facts.get("surname") and facts.get("guess"):
            facts["tried_guess"] = True
            # a name said in passing that doesn't match is not counted as a failed attempt
            if await self._verify(facts["golfer_number"], facts.pop("guess"), out):
                return True
        if facts.get("golfer_number") and facts.get("surname"):
            if await self._verify(facts["golfer_number"], facts["surname"], out):
                return True
            self.s["fails"] += 1
            tried = facts.get("tried_guess")
            facts.clear()
            facts["tried_guess"] = tried
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask(
                "golfer_number",
                "I'm sorry, those details don't match our records. Could you give me your "
                "membership or visitor number again, please?",
                out,
            )
            return False
        if not facts.get("golfer_number"):
            self.ask(
                "golfer_number",
                "Before I can help I need to check who you are. What's your membership number "
                "(M and four digits) or visitor number (V and four digits)?",
                out,
            )
        else:
            self.ask("surname", "Thank you. And your surname, please?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change anything "
            f"in this chat. Please call the pro shop on {PHONE}."
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
        if reply == "hedge" and "?" in message:
            out.append("Nothing is changed yet. Here's exactly what I'd do: " + pending["text"])
            return False
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
        """A reply naming a different value ("no, make it 10:40") reworks the proposal."""
        if req["intent"] in {"book", "move", "lesson"}:
            return bool(rd.dates(message, self.today) or rd.times(message))
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the golfer."""
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
        """Hook: run the agreed call and report what the tee sheet returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(tool_name, result))
        self.finish(req)
