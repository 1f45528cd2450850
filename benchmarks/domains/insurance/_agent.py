"""`CorrectInsuranceAgent`: Harlow Home Insurance's rule-based chat desk (no model).

One instance per chat. Each message is read for the policy number and postcode, an answer to
what the desk asked, a yes / no to its proposal, and new requests (several in one message are
queued in the order asked). The desk verifies the caller before showing or changing anything,
states every price, refund and excess and waits for a clear yes, and reports what the policy
system returned, refusals included.
"""

from __future__ import annotations

import copy
from datetime import date, datetime
from typing import Any

from benchmarks.domains.insurance import _seed
from benchmarks.domains.insurance import _text as tx
from benchmarks.domains.insurance._flows import Flows
from vistasim.agent import Reply, Turn

DESK_PHONE = "0113 496 0800"
MAX_VERIFY_FAILS = 3


def _fresh_state() -> dict[str, Any]:
    return {"policy": None, "name": None, "facts": {}, "fails": 0, "locked": False,
            "asked": None, "queue": [], "pending": None, "done": [], "next_id": 1,
            "started": False}


class CorrectInsuranceAgent(Flows):
    """The desk's agent: verifies, reads plain English, confirms, reports what the tools did."""

    restore_strategy = "state"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh_state()
        self.calls: list[dict[str, Any]] = []
        self.turn: Turn | None = None

    # -- the adapter protocol ----------------------------------------------------------------
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
        await self.handle(tx.clean(turn.message), out)
        self.s["started"] = True
        text = " ".join(part.strip() for part in out if part.strip())
        return Reply(text=text, tool_calls=tuple(self.calls))

    # -- helpers -------------------------------------------------------------------------------
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

    def ask(self, what: str, text: str, out: list[str]) -> None:
        self.s["asked"] = what
        out.append(text)

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]
        self.s["done"].append(self.key(req))

    @staticmethod
    def key(req: dict[str, Any]) -> str:
        return f"{req['intent']}:{req['data'].get('addon', '')}"

    # -- reading a message ---------------------------------------------------------------------
    def read_requests(self, text: str) -> list[dict[str, Any]]:
        spans = tx.intent_spans(text)
        reqs = []
        for i, (at, intent, extra) in enumerate(spans):
            end = spans[i + 1][0] if i + 1 < len(spans) else len(text)
            req = {"id": self.s["next_id"], "intent": intent, "text": text[at:end],
                   "message": text, "data": dict(extra)}
            self.s["next_id"] += 1
            reqs.append(req)
        return reqs

    def split_requests(self, reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The requests of one message, all kept (the flawed agent drops one)."""
        return reqs

    def read_identity(self, text: str, reqs: list[dict[str, Any]]) -> None:
        facts = self.s["facts"]
        if numbers := tx.policy_numbers(text):
            facts["policy_number"] = numbers[0]
        # The postcode of a new correspondence address is not proof of identity.
        moving_to = {found[1] for r in [*reqs, *self.s["queue"]] if r["intent"] == "address"
                     and (found := tx.new_address(r["text"]))}
        for postcode, _ in tx.postcodes(text):
            if postcode not in moving_to:
                facts["postcode"] = postcode
                break

    def add_requests(self, reqs: list[dict[str, Any]], out: list[str]) -> None:
        queued = {self.key(r) for r in self.s["queue"]}
        pending = self.s["pending"]
        for req in reqs:
            key = self.key(req)
            if key in queued or (pending and pending["key"] == key):
                continue
            if key in self.s["done"] and self.s["started"]:
                out.append(self.already_done(req))
                continue
            self.s["queue"].append(req)
            queued.add(key)

    def already_done(self, req: dict[str, Any]) -> str:
        return "That's already been done earlier in this chat."

    # -- the turn ------------------------------------------------------------------------------
    async def handle(self, text: str, out: list[str]) -> None:
        if self.s["locked"]:
            out.append(f"For your security I can't go further in this chat; please call us on "
                       f"{DESK_PHONE}.")
            return
        reqs = self.read_requests(text)
        asked = self.s["asked"]
        self.read_identity(text, reqs)
        reqs = self.split_requests(reqs)
        if asked and self.s["queue"]:
            self.read_answer(asked, text, self.s["queue"][0])
        self.s["asked"] = None
        self.add_requests(reqs, out)
        if self.s["pending"]:
            if not await self.answer_proposal(text, out):
                return
        if not self.s["policy"] and not await self.ensure_identity(out):
            return
        await self.work(out)

    async def ensure_identity(self, out: list[str]) -> bool:
        facts = self.s["facts"]
        if not self.s["queue"] and not facts:
            self.ask("request", "Hello, you're through to Harlow Home Insurance. How can I "
                     "help today?", out)
            return False
        if not facts.get("policy_number") or not facts.get("postcode"):
            missing = [w for k, w in (("policy_number", "your policy number"),
                                      ("postcode", "the postcode of the insured home"))
                       if not facts.get(k)]
            lead = "To check it's you" if self.s["started"] else \
                "I can help with that. First, to check it's you"
            self.ask("identity", f"{lead}, could you give me {' and '.join(missing)}?", out)
            return False
        result, error = await self.call("verify_customer", policy_number=facts["policy_number"],
                                        postcode=facts["postcode"])
        if error:
            self.s["fails"] += 1
            # Keep the policy number: a customer usually corrects just the postcode.
            self.s["facts"].pop("postcode", None)
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                out.append(f"I'm sorry, those details still don't match our records, so I can't "
                           f"go further in this chat. Please call us on {DESK_PHONE}.")
                return False
            self.ask("identity", "Sorry, those details don't match our records. Could you check "
                     "the policy number (it starts HH-) and the postcode of the insured home, "
                     "the property the policy covers?", out)
            return False
        self.s["policy"], self.s["name"] = result["policy_number"], result["name"]
        out.append(f"Thank you, {result['name'].split()[0]}, that's policy "
                   f"{result['policy_number']} confirmed.")
        return True

    async def answer_proposal(self, text: str, out: list[str]) -> bool:
        """Act on the yes / no to the pending proposal; False when still waiting."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        verdict = tx.say_yes(text)
        if req is None:
            self.s["pending"] = None
            return True
        if verdict is None and self.revise(req, text):
            self.s["pending"] = None
            return True
        if verdict is None:
            self.ask("confirm", f"Just to check before I go ahead: {pending['question']}", out)
            self.s["asked"] = None
            return False
        self.s["pending"] = None
        if verdict is False:
            if self.revise(req, text):
                return True
            out.append("No problem, I haven't made that change.")
            self.finish(req)
            return True
        await self.execute(req, pending, out)
        return True

    def propose(self, req: dict[str, Any], tool_name: str, args: dict[str, Any],
                question: str, out: list[str], **extra: Any) -> None:
        self.s["pending"] = {"req": req["id"], "key": self.key(req), "tool": tool_name,
                             "args": args, "question": question, **extra}
        out.append(question)

    async def work(self, out: list[str]) -> None:
        while self.s["queue"] and not self.s["pending"] and not self.s["asked"]:
            await self.step(self.s["queue"][0], out)
        if not self.s["queue"] and not self.s["pending"] and not self.s["asked"]:
            out.append("Is there anything else I can help with?")
