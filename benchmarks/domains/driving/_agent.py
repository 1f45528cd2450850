"""`CorrectDrivingAgent`: Clearway Driving School's rule-based desk (no model, no randomness).

One instance per chat. Each message is read for identity facts (learner number, date of
birth), an answer to what the desk asked, a yes/no to its proposal, and new requests (several
in one message are queued in the order asked). The desk verifies the learner before any detail
or change, asks for one missing detail at a time, states each change with its price or the
hours it uses or loses and waits for a clear yes, and reports what the system returned.
"""

from __future__ import annotations

import copy
from datetime import date, datetime
from typing import Any

from benchmarks.domains.driving import _read as rd
from benchmarks.domains.driving import _seed
from benchmarks.domains.driving._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "0113 496 0750"
MAX_VERIFY_FAILS = 3


def _fresh_state() -> dict[str, Any]:
    return {
        "no": None,
        "view": None,
        "facts": {},
        "fails": 0,
        "tried": [],
        "locked": False,
        "asked": None,
        "queue": [],
        "pending": None,
        "next_id": 1,
        "started": False,
        "last_args": None,
    }


class CorrectDrivingAgent(Flows):
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

    def new_request(self, intent: str, text: str) -> dict[str, Any]:
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text], "note": None}
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

    def propose(
        self,
        req: dict[str, Any],
        out: list[str],
        text: str,
        *,
        tool: str,
        args: dict[str, Any],
        **extra: Any,
    ) -> str:
        self.s["pending"] = {
            "req": req["id"],
            "intent": req["intent"],
            "tool": tool,
            "args": args,
            "text": text,
            **extra,
        }
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        asked = self.s["asked"]
        had = dict(self.s["facts"])
        self._take_identity(message)
        if self.s["pending"]:
            answered = self.s["pending"]
            if not await self._answer_pending(message, found, out):
                self.queue_new(found)
                return
            intent = answered.get("intent")
            if answered is not self.s["pending"]:
                found = [r for r in found if r.intent != intent]
            if self.s["asked"]:
                self.queue_new(found)
                return
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked == "note":
                reply = rd.answer(message)
                req["note"] = rd.has_note(message) or (reply == "yes" and "no note" not in message)
            elif req is not None and asked not in {"no", "dob"}:
                req["chunks"].append(message)
                found = [r for r in found if r.intent != req["intent"]]
        self.queue_new(found)
        if (
            asked in {"no", "dob"}
            and not self.s["no"]
            and self.s["facts"] == had
            and rd.dont_know(message)
        ):
            if await self.no_identity(message, out):
                return
        if not self.s["queue"] and not self.s["pending"]:
            out.append(
                self._small_talk(message) if not out else "Is there anything else I can help with?"
            )
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for learning with Clearway. Drive safely!"
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is Clearway Driving School. I can book, move or cancel your lessons, "
            "change your instructor, sell you a lesson package, book your practical test, "
            "refund unused hours, update your pick-up address or tell you your upcoming "
            "lessons and hours. What can I do for you?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging a repeat of the current one."""
        current = self.current()
        for request in found:
            if current is not None and request.intent == current["intent"]:
                current["chunks"].append(request.text)
                continue
            if any(r["intent"] == request.intent for r in self.s["queue"]):
                continue
            self.s["queue"].append(self.new_request(request.intent, request.text))

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str) -> None:
        if self.s["no"]:
            return
        facts = self.s["facts"]
        found = rd.learner_nos(message, bare=self.s["asked"] == "no")
        if found:
            facts["no"] = found[-1]
        born = rd.births(message, self.today)
        if born:
            facts["dob"] = born[-1].isoformat()

    async def no_identity(self, message: str, out: list[str]) -> bool:
        """Hook: the caller cannot give the learner number or birth date: nothing is shared."""
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry — I can only look at or change a learner's account once the learner "
            "number and the learner's date of birth match, so I can't share anything about "
            f"it. The learner can contact us themselves, or call us on {PHONE}."
        )
        return True

    async def verify_failed(self, no: str, out: list[str]) -> bool:
        """Hook: the number and birth date did not match; True when the chat is over."""
        return False

    async def ensure_identity(self, out: list[str]) -> bool:
        """Hook: the learner number and the date of birth, checked first."""
        if self.s["no"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("no") and facts.get("dob"):
            key = f"{facts['no']}:{facts['dob']}"
            if key not in self.s["tried"]:
                self.s["tried"].append(key)
                result, error = await self.call(
                    "verify_learner", learner_no=facts["no"], dob=facts["dob"]
                )
                if not error:
                    self.s.update(no=result["learner_no"], view=result)
                    out.append(f"Thank you, {result['name'].split()[0]} — you're verified.")
                    return True
                self.s["fails"] += 1
                if await self.verify_failed(facts["no"], out):
                    return False
                facts.clear()
                if self.s["fails"] >= MAX_VERIFY_FAILS:
                    self.s["locked"] = True
                    self._locked(out)
                    return False
                self.ask(
                    "no",
                    "I'm sorry, those details don't match our records. Could you give me "
                    "the learner number again, please? It starts with L.",
                    out,
                )
                return False
            facts.clear()
        if not facts.get("no"):
            self.ask(
                "no",
                "Before I can look at an account I need to check it's yours. What's your "
                "learner number? It starts with L and has five digits.",
                out,
            )
        else:
            self.ask("dob", "Thank you. And what's the learner's date of birth?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change "
            f"anything in this chat. Please call us on {PHONE}."
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
                "No problem — I haven't changed anything. Just say yes when you're "
                "ready, or tell me what you'd like instead."
            )
            return False
        if reply != "yes" and self.changes_proposal(req, message):
            self.s["pending"] = None
            pending["reworked"] = True
            req["chunks"].append(message)
            return True
        if rd.question(message):
            out.append(
                "Nothing has been done yet — here's exactly what it involves. " + pending["text"]
            )
            return False
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
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value ("no, the 11am") reworks the proposal."""
        intent = req["intent"]
        if intent in {"move", "cancel"} and (rd.ill(message) or rd.has_note(message)):
            return True
        if intent in {"book", "move", "cancel", "test"}:
            return bool(
                rd.dates(message, self.today)
                or rd.times(message)
                or (intent == "book" and rd.lesson_hours(message))
            )
        if intent == "package":
            return rd.package_hours(message) is not None
        if intent == "instructor":
            return bool(self.instructor_named(message))
        if intent == "address":
            return bool(rd.postcodes(message) or rd.addresses(message))
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

    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        """Hook: run the agreed call and report what the system returned."""
        self.s["last_args"] = pending["args"]
        result, error = await self.call(pending["tool"], **pending["args"])
        await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        self.finish(req)
