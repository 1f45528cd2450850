"""`CorrectCampervanAgent`: Driftwood Campervan Hire's rule-based reservation desk (no model).

One instance per chat. Each message is read for identity (the customer number and the postcode
on the account), an answer to the desk's last question, a yes or no to its proposal, and new
requests, queued in the order asked. The desk checks identity before it shares or changes
anything, asks for one missing detail at a time, states each change with every amount and waits
for a clear yes, and reports what the reservation system returned.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from benchmarks.domains.campervan import _read as rd
from benchmarks.domains.campervan._flows import Flows
from vistasim.agent import Reply, Turn  # type: ignore[import-untyped]

DESK_PHONE = "0117 496 0750"
MAX_VERIFY_FAILS = 3
MAX_SAME_QUESTION = 3
IDENTITY_ASKS = {"customer_id", "postcode"}
# a reply to a proposal that names another value and means it ("yes, but make it the 20th")
REWORK = re.compile(r"\b(?:but|instead|actually|make it|rather|sorry|change it to)\b", re.I)


def _fresh_state() -> dict[str, Any]:
    return {
        "customer": None, "view": None, "facts": {}, "fails": 0, "locked": False,
        "asked": None, "queue": [], "pending": None, "repeat": ["", 0], "next_id": 1,
        "started": False, "said": [],
    }  # fmt: skip


class CorrectCampervanAgent(Flows):
    """The desk's agent: checks identity, reads plain English, confirms, reports what was done."""

    restore_strategy = "state"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = _fresh_state()
        self.calls: list[dict[str, Any]] = []
        self.turn: Any = None

    # -- the adapter protocol --------------------------------------------------------------
    def snapshot(self) -> Any:
        return copy.deepcopy(self.s)

    def restore(self, state: Any) -> None:
        self.s = copy.deepcopy(state)

    async def aclose(self) -> None:
        return None

    async def respond(self, turn: Turn) -> Any:
        self.turn = turn
        self.calls = []
        out: list[str] = []
        await self._handle(str(turn.message), out)
        self.s["started"] = True
        text = " ".join(part.strip() for part in out if part.strip())
        return Reply(text=text, tool_calls=tuple(self.calls))

    # -- shared helpers --------------------------------------------------------------------
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
                "I'm sorry — I haven't been able to follow that, so I've stopped there and "
                f"nothing has been changed. The reservations team can help on {DESK_PHONE}."
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
            # "yes, cancel it" answers the proposal: it is not a second cancellation
            found = [f for f in found if f.intent != intent]
        elif asked:
            self.s["asked"] = None
            req = self.current()
            if asked in IDENTITY_ASKS:
                found = []
            elif req is not None:
                req["chunks"].append(message)
                req["answers"][asked] = message
                # an answer to a question is not a new request of the same kind
                found = [f for f in found if f.intent not in {req["intent"], "book"}]
        self.queue_new(found)
        if not self.s["queue"] and not self.s["pending"]:
            out.append(self._small_talk(message) if not out else self.closing())
            return
        await self.advance(out)

    def closing(self) -> str:
        """Hook: what the desk says when nothing is left to do."""
        return "Can I help with anything else?"

    def _small_talk(self, message: str) -> str:
        if self.s["started"] and (rd.thanks_or_bye(message) or rd.answer(message) == "no"):
            return "Thanks for choosing Driftwood — enjoy the road."
        if self.s["started"]:
            return "Can I help with anything else?"
        return (
            "Hello, you're through to Driftwood Campervan Hire reservations. I can book a van, "
            "change a booking's dates or drop-off depot, cancel a booking, add an awning, bike "
            "rack or outdoor kit, name an additional driver, or tell you what's left to pay. "
            "How can I help?"
        )

    def queue_new(self, found: list[rd.Request]) -> None:
        """Hook: add the message's requests to the queue, merging one already queued."""
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
        facts = self.s["facts"]
        ids = rd.customer_ids(message)
        if not ids and self.s["asked"] == "customer_id":
            ids = [f"DW{m.group(1)}" for m in re.finditer(r"\b(\d{4})\b", message)]
        if ids:
            facts["customer_id"] = ids[-1]
        codes = rd.postcodes(message)
        if codes:
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
            result, error = await self.call("verify_customer", customer_id=facts["customer_id"],
                                            postcode=facts["postcode"])  # fmt: skip
            if not error:
                self.s.update(customer=result["customer_id"], view=result)
                out.append(f"Thanks, {result['name'].split()[0]} — you're verified.")
                return True
            self.s["fails"] += 1
            facts.clear()
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
                return False
            self.ask("customer_id", "Sorry, I can't match those details to an account. Could "
                     "you give me your customer number again? It starts DW.", out)  # fmt: skip
            return False
        if not facts.get("customer_id"):
            self.ask("customer_id", "First I need to check who I'm speaking to. What's your "
                     "customer number? It starts DW, followed by four digits, and it's on "
                     "every booking email.", out)  # fmt: skip
        else:
            self.ask("postcode", "Thank you. And the postcode on your account?", out)
        return False

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append(
            "I'm sorry, I still can't match those details, so I can't look at or change any "
            f"booking in this chat. Please call reservations on {DESK_PHONE}."
        )

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> bool:
        """Deal with a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = rd.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append("Of course — take your time. Nothing has been changed yet; just say yes "
                       "when you're ready, or tell me what to change.")  # fmt: skip
            return False
        if self.changes_proposal(req, message) and (reply != "yes" or REWORK.search(message)):
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
            out.append("Alright, I've left it as it was — nothing has been changed.")
            return True
        if found and found[0].intent != req["intent"]:
            out.append("I'll do that straight after this one. First: " + pending["text"])
            return False
        if "?" in message:
            out.append("To be clear, with every amount: " + pending["text"])
            return False
        out.append("Sorry, I didn't follow. " + pending["text"] + " A yes or no is fine.")
        return False

    def changes_proposal(self, req: dict[str, Any], message: str) -> bool:
        """A reply naming another value ("no, the 20th of July") reworks the proposal."""
        intent = req["intent"]
        if intent in {"book", "move"}:
            return bool(rd.dates(message, self.today))
        if intent == "dropoff":
            return bool(rd.depots(message))
        return False

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs something from the customer."""
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
        """Hook: make the agreed call and report what the system returned."""
        tool_name, args = pending["calls"][0]
        result, error = await self.call(tool_name, **args)
        if error:
            await self.failed(req, pending, error, out)
        else:
            out.append(self.report(req["intent"], result))
        self.finish(req)
