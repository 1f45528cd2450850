"""The desk bot's dialogue: identity, a queue of requests, confirmation, and tool calls."""

from __future__ import annotations

import copy
import re
from datetime import date
from typing import Any

from benchmarks.domains.library import _text as tx
from benchmarks.domains.library._flows import Flows
from benchmarks.domains.library._intents import about_someone_else, detect
from vistasim.agent import Reply, Turn

TODAY = date(2026, 11, 5)
_IDENTITY = ("Could you give me your library card number and PIN? If you don't have your card, "
             "your email address and date of birth will do.")
_LACKS = r"\b(?:don't|do not|dont|haven't|have not|can't find|cannot find|can't remember|" \
         r"don't remember|no longer have|not sure of|not on me|not with me)\b|\bon hand\b"
_BYE = r"\b(?:that's all|that is all|nothing else|no,? thanks?|bye|goodbye|that's everything|" \
       r"all good|i'm done|that's it)\b"


def own_card(message: str) -> str | None:
    """The patron's own card number in the message (not one given as someone else's)."""
    low = tx.norm(message)
    mine = re.search(r"\b(?:my|mine)\b[^.?!]{0,25}?\b(rl[\s-]?\d{5})\b", low)
    if mine:
        return tx.card_number(mine.group(1))
    cards = tx.all_cards(message)
    theirs = {tx.card_number(m.group(1)) for m in re.finditer(
        r"\b(?:his|her|their|husband's|wife's|partner's|son's|daughter's)\b[^.?!]{0,25}?"
        r"\b(rl[\s-]?\d{5})", low)}
    rest = [c for c in cards if c not in theirs]
    return rest[0] if rest else None


class CorrectLibraryAgent(Flows):
    """Riverside City Libraries' desk bot, rule-based and deterministic."""

    restore_strategy = "state"
    NAME = "library"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.titles = [dict(r) for r in env.select("titles", {})]
        self.state: dict[str, Any] = {
            "card": None, "name": None, "facts": {}, "queue": [], "pending": None,
            "asked": None, "done_any": False,
        }
        self._calls: list[dict[str, Any]] = []
        self._turn: Turn | None = None
        self._last = ""

    # -- protocol ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.state)

    def restore(self, state: dict[str, Any]) -> None:
        self.state = copy.deepcopy(state)

    async def aclose(self) -> None:
        return None

    async def respond(self, turn: Turn) -> Reply:
        self._calls = []
        self._turn = turn
        self._last = turn.message
        parts = await self._handle(turn.message)
        text = " ".join(p for p in parts if p) or "How can I help you today?"
        return Reply(text=text, tool_calls=tuple(self._calls))

    async def call(self, name: str, **args: Any) -> tuple[Any, str | None]:
        args = {k: v for k, v in args.items() if v is not None}
        outcome = await self.env.call_tool(name, args)
        self._calls.append({"name": name, "args": args, "result": outcome.result,
                            "error": outcome.error})
        return outcome.result, outcome.error

    # -- one message -------------------------------------------------------------------------
    async def _handle(self, message: str) -> list[str]:
        st = self.state
        low = tx.norm(message)
        intents = detect(message)
        self._absorb_identity(message, intents)
        parts: list[str] = []
        cards = tx.all_cards(message)
        own = st["card"] or st["facts"].get("card_number")
        mine = {own, st["facts"].get("card_number"), *st.get("own_cards", [])}
        if about_someone_else(message, own, [c for c in cards if c not in mine]):
            parts.append(await self._other_patron(message, cards, own))
            intents = [i for i in intents if i["kind"] not in ("loans_info", "holds_info",
                                                              "fines_info")]
        old = st["facts"].get("card_number")
        if st.get("own_cards") and old in cards and not intents:
            parts.append(f"{old} was your old card: it has been cancelled and replaced by "
                         f"{st['card']}, which is the number to use from now on.")
        for intent in intents:
            intent["text"] = message
            intent["msg"] = self._msg_index()
        if st["pending"]:
            said = await self._answer_pending(message, intents)
            if said is not None:
                parts.append(said)
                if st["pending"]:
                    return parts
        elif st["asked"] and st["queue"]:
            self._fill(st["queue"][0], message)
        kinds = {q["kind"] for q in st["queue"]}
        for intent in intents:
            if intent["kind"] not in kinds:
                st["queue"].append(intent)
                kinds.add(intent["kind"])
        if not st["queue"] and not st["pending"]:
            if parts:
                return parts
            if re.search(_BYE, low) or (st["done_any"] and tx.answer(message) == "no"):
                return ["You're welcome. Thank you for contacting Riverside City Libraries!"]
            if st["card"] or st["done_any"]:
                return parts + ["Is there anything else I can help you with?"]
            if st["facts"] and not st["card"]:
                return parts + ["Thanks. What can I help you with today?"]
            return parts + ["Hello, this is the Riverside City Libraries desk. How can I help?"]
        parts += await self._advance()
        return parts

    def _msg_index(self) -> int:
        turn = self._turn
        return sum(1 for u in turn.history if u.role == "user") if turn else 0

    def _absorb_identity(self, message: str, intents: list[dict]) -> None:
        st, facts = self.state, self.state["facts"]
        if st["card"]:
            return
        card = own_card(message)
        if card and "card_number" not in facts:
            facts["card_number"] = card
        pin = tx.pin(message)
        if pin and (facts.get("card_number") or "pin" in tx.norm(message)):
            facts["pin"] = pin
        kinds = {i["kind"] for i in intents} | {q["kind"] for q in st["queue"]}
        mail = tx.email(message)
        if mail and ("update_contact" not in kinds or st.get("id_mode") == "email"):
            facts.setdefault("email", mail)
        births = [d for d in tx.dates(message, TODAY) if d.year <= TODAY.year - 5]
        if births:
            facts["date_of_birth"] = births[0].isoformat()

    async def _verify(self) -> str | None:
        """Verify with what the patron gave; None when verified, else what to say."""
        st, f = self.state, self.state["facts"]
        if f.get("card_number") and f.get("pin"):
            res, err = await self.call("verify_patron", card_number=f["card_number"], pin=f["pin"])
        elif f.get("email") and f.get("date_of_birth"):
            res, err = await self.call("verify_patron", email=f["email"],
                                       date_of_birth=f["date_of_birth"])
        else:
            st["asked"] = "identity"
            lacks = re.search(_LACKS, tx.norm(self._last))
            if lacks and st.get("id_mode") != "email" and not f.get("email"):
                st["id_mode"] = "email"
                return ("No problem. Your email address and date of birth will do instead: "
                        "what are they?")
            if lacks and st.get("id_mode") == "email" and not f.get("card_number"):
                st["id_mode"] = "card"
                return ("No problem. Could you give me your library card number and PIN "
                        "instead?")
            if f.get("card_number"):
                return "Thanks. And your PIN, please?"
            if f.get("email"):
                return "Thanks. And your date of birth, please?"
            return "I can help with that. First I need to confirm who you are. " + _IDENTITY
        if err:
            st["facts"] = {}
            st["asked"] = "identity"
            return ("I'm sorry, I couldn't verify you: those details don't match our records. "
                    "Could you check them and try again? " + _IDENTITY)
        st["card"], st["name"] = res["card_number"], res["name"]
        st["asked"] = None
        return None

    def needs_verification(self, intent: dict) -> bool:
        return True

    async def _advance(self) -> list[str]:
        """Work through the queue until something needs the patron."""
        st = self.state
        parts: list[str] = []
        while st["queue"] and not st["pending"]:
            intent = st["queue"][0]
            if not st["card"] and self.needs_verification(intent):
                said = await self._verify()
                if said:
                    parts.append(said)
                    return parts
            if st["card"] and not st.get("greeted"):
                parts.append(f"Thank you, {st['name'].split()[0]}, you're verified.")
                st["greeted"] = True
            said, finished = await self.plan(intent)
            parts.append(said)
            if not finished:
                return parts
            st["queue"].pop(0)
            st["asked"] = None
            self.settle_fallbacks(refused=st.pop("refused", False))
        if not st["queue"] and not st["pending"] and st["done_any"]:
            parts.append("Is there anything else I can help you with?")
        return parts

    async def _answer_pending(self, message: str, intents: list[dict]) -> str | None:
        st = self.state
        pending = st["pending"]
        changed = await self.revise(pending, message)
        if changed:
            return changed
        ans = tx.answer(message)
        if ans == "hedge":
            return ("No problem, take your time. Nothing has been changed yet; just tell me when "
                    "you'd like me to go ahead.")
        if ans == "no":
            st["pending"] = None
            self._pop(pending["intent"])
            self.settle_fallbacks(refused=False)
            return "Okay, I haven't changed anything."
        if ans == "yes":
            st["pending"] = None
            self._pop(pending["intent"])
            said = await self.execute(pending)
            st["done_any"] = True
            return said
        if intents:
            st["pending"] = None
            self._pop(pending["intent"])
            return "Okay, I'll leave that for now."
        return "Sorry, I didn't catch that. " + pending["question"]

    def _pop(self, kind: str) -> None:
        queue = self.state["queue"]
        if queue and queue[0]["kind"] == kind:
            queue.pop(0)
        self.state["asked"] = None

    def confirm(self, intent: dict, calls: list[tuple[str, dict]], question: str,
                **extra: Any) -> tuple[str, bool]:
        self.state["pending"] = {"intent": intent["kind"], "calls": calls, "question": question,
                                 "msg": intent.get("msg", 0), **extra}
        return question, False

    async def execute(self, pending: dict) -> str:
        parts = []
        for name, args in pending["calls"]:
            res, err = await self.call(name, **args)
            if err:
                parts.append(self.explain_error(pending, name, err))
                self.after_error(pending)
                break
            parts.append(self.report(pending, name, args, res))
        else:
            self.after_success(pending)
        return " ".join(parts)

    def settle_fallbacks(self, refused: bool) -> None:
        """Keep 'if not, do this' requests after a refusal; drop them after a success."""
        queue = self.state["queue"]
        head = queue[:1] if self.state["pending"] else []
        rest = queue[len(head):]
        if refused:
            for q in rest[:1]:
                q.pop("fallback", None)
        else:
            while rest and rest[0].get("fallback"):
                rest.pop(0)
        self.state["queue"] = head + rest

    def remember(self, kind: str, key: str, text: str) -> None:
        self.state.setdefault("completed", []).append({"kind": kind, "key": key, "text": text})

    def already(self, kind: str, key: str) -> str | None:
        for done in self.state.get("completed", []):
            if done["kind"] == kind and done["key"] == key:
                return done["text"]
        return None

    def after_success(self, pending: dict) -> None:
        self.settle_fallbacks(refused=False)

    def after_error(self, pending: dict) -> None:
        self.settle_fallbacks(refused=True)
