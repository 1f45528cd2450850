"""`CorrectCoworkAgent`: Hive Works Coworking's rule-based member desk (no model, no randomness).

One instance per chat. Each message is read for identity facts (a member number, the email on
the account), an answer to what the desk asked, a yes/no to its proposal, and new requests
(several in one message are queued in the order asked). The desk verifies the member before any
detail or change, asks for one missing detail at a time, states each change with its price and
waits for a clear yes, and reports what the member system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.cowork import _read as rd
from benchmarks.domains.cowork import _seed
from benchmarks.domains.cowork._flows import Flows
from vistasim.agent import Reply, Turn

PHONE = "020 7946 0321"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"member_id", "email"}


def _fresh_state() -> dict[str, Any]:
    return {
        "member": None,
        "view": None,
        "facts": {},
        "fails": 0,
        "tried": [],
        "locked": False,
        "asked": None,
        "queue": [],
        "pending": None,
        "offer": None,
        "repeat": ("", 0),
        "last_day": None,
        "next_id": 1,
        "started": False,
    }


class CorrectCoworkAgent(Flows):
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
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text]}
        self.s["next_id"] += 1
        return req

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        last, times = self.s.get("repeat") or ("", 0)
        times = times + 1 if last == what else 1
        self.s["repeat"] = (what, times)
        if times >= MAX_SAME_QUESTION and what not in IDENTITY_ASKS:
            req = self.current()
            if req is not None:
                self.finish(req)
            self.s["repeat"] = ("", 0)
            out.append(
                "I'm sorry, I'm not managing to follow that, so I've left this as it is — "
                "nothing has been changed. You can tell me again in a different way, or ask "
                "the front desk."
            )
            return "done"
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
        self.s["repeat"] = ("", 0)
        self.s["pending"] = {"req": req["id"], "tool": tool, "args": args, "text": text, **extra}
        out.append(text)
        return "wait"

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        found = rd.requests(message)
        said = rd.dates(message, self.today)
        if said:
            self.s["last_day"] = said[-1].isoformat()
        asked = self.s["asked"]
        offer, self.s["offer"] = self.s["offer"], None
        had = dict(self.s["facts"])
        self._take_identity(message)
        if self.s["pending"]:
            if not await self._answer_pending(message, found, out):
                self.queue_new(found)
                return
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if req is not None and asked not in IDENTITY_ASKS:
                req["chunks"].append(self._answer_chunk(asked, message))
                found = [f for f in found if f.intent != req["intent"]]
                if found and len(found) == 1 and asked not in {"new_email"}:
                    # an answer is not a new request unless it plainly asks for something else
                    found = [f for f in found if f.intent in {"cancel", "pause", "locker"}]
        elif (
            offer
            and not found
            and (rd.rooms(message) or rd.times(message) or rd.dates(message, self.today))
        ):
            found = [rd.Request(offer["intent"], f"{offer['text']} {message}")]
        self.queue_new(found)
        if (
            asked in IDENTITY_ASKS
            and not self.s["member"]
            and self.s["facts"] == had
            and rd.dont_know(message)
        ):
            await self.no_identity(message, out)
            return
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    @staticmethod
    def _answer_chunk(asked: str, message: str) -> str:
        """A bare number answers the question asked: "3" to "how many hours?" is 3 hours."""
        n = rd.bare_number(message)
        if n is None:
            return message
        if asked == "hours":
            return f"{n} hours"
        if asked == "start":
            return f"at {n}"
        if asked == "attendees":
            return f"{n} people"
        if asked == "months":
            return f"{n} months"
        return message

    def closing(self) -> str:
        """Hook: what the desk says when the queue is empty."""
        return "Is there anything else I can help with?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "You're welcome — thank you for working at Hive Works."
        if self.s["started"]:
            return "Is there anything else I can help with?"
        return (
            "Hello, this is the Hive Works member desk. I can book, move or cancel meeting "
            "rooms, register guests, buy day passes, change or pause your plan, rent or return "
            "a locker, look at your invoices and dispute a charge, or update your email. What "
            "can I do for you?"
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
        if self.s["member"]:
            return
        facts = self.s["facts"]
        found = rd.members(message)
        if not found and self.s["asked"] == "member_id":
            found = [f"HW{m.group(1)}" for m in rd.BARE_NUMBER_RE.finditer(message)]
        if found:
            facts["member_id"] = found[-1]
        mails = rd.identity_emails(message)
        if not mails and self.s["asked"] == "email":
            mails = rd.emails(message)[:1]
        if mails:
            facts["email"] = mails[-1]

    async def no_identity(self, message: str, out: list[str]) -> bool:
        """Hook: the customer cannot give the member number or email: nothing is shared."""
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry — I can only look at or change an account once the member number and "
            "the email address on it match, so I can't share or change anything here. You can "
            f"call the front desk on {PHONE}."
        )
        return True

    async def ensure_identity(self, out: list[str]) -> bool:
        """The member number and the account's email, checked before anything else."""
        if self.s["member"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        if facts.get("member_id") and facts.get("email"):
            key = f"{facts['member_id']}:{facts['email'].lower()}"
            if key not in self.s["tried"]:
                self.s["tried"].append(key)
                result, error = await self.call(
                    "verify_member", member_id=facts["member_id"], email=facts["email"]
                )
                if not error:
                    self.s.update(member=result["member_id"], view=result)
                    out.append(f"Thank you, {result['name'].split()[0]} — I've found your account.")
                    return True
                self.s["fails"] += 1
                facts.clear()
                if self.s["fails"] >= MAX_VERIFY_FAILS:
                    self.s["locked"] = True
                    self._locked(out)
                    return False
                self.ask(
                    "member_id",
                    "I'm sorry, those details don't match an account. Could you give me your "
                    "member number again, please? It starts HW.",
                    out,
                )
                return False
            facts.clear()
        if not facts.get("member_id"):
            self.ask(
                "member_id",
                "Before I can help with your account I need to check it's you. What's your "
                "member number? It starts HW and has four digits.",
                out,
            )
        else:
            self.ask(
                "email",
                "Thank you. And what's the email address on your account?",
                out,
            )
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't share or change "
            f"anything in this chat. Please call the front desk on {PHONE}."
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
        if reply != "yes" and self.changes_proposal(req, message):
            self.s["pending"] = None
            req["chunks"].append(message)
            return True
        if reply == "yes":
            self.s["pending"] = None
            if self.changes_proposal(req, message) and re.search(
                r"\b(?:but|instead|actually|make it|rather)\b", message, re.I
            ):
                req["chunks"].append(message)
                return True
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
            out.append("Here's what I'd do, with every amount: " + pending["text"])
            return False
        out.append("Sorry, I didn't catch that. " + pending["text"] + " Please answer yes or no.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply that names a different value ("no, the Friday") reworks the proposal."""
        intent = req["intent"]
        if intent in {"book", "move"}:
            return bool(
                rd.dates(message, self.today)
                or rd.times(message)
                or rd.rooms(message)
                or rd.hours(message)
            )
        if intent in {"guest", "daypass"}:
            return bool(rd.full_names(message) or rd.dates(message, self.today))
        if intent == "plan":
            return bool(rd.plans(message))
        if intent == "pause":
            return rd.months(message) is not None
        if intent == "email":
            return bool(rd.emails(message))
        if intent == "locker_return":
            return rd.key_lost(message) is True and not pending_key(req)
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
        result, error = await self.call(pending["tool"], **pending["args"])
        await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        self.finish(req)


def pending_key(req: dict[str, Any]) -> bool:
    """True when the request already said the key is lost."""
    return rd.key_lost(" ".join(req["chunks"])) is True
