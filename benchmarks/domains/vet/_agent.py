"""`CorrectVetAgent`: Meadowbank's rule-based chat desk (no model).

One instance per chat. Each message is read for identity facts, answers to what the desk asked,
a yes/no to a proposal, and new requests (two in one message are queued in the order asked, an
"if not, then ..." is kept as the request's fallback). The desk verifies the owner before any
account detail or change, states values and fees and waits for a clear yes, and reports exactly
what the practice system returned.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.vet import _seed
from benchmarks.domains.vet import _text as tx
from benchmarks.domains.vet._flows import Flows
from benchmarks.domains.vet._intents import Parsed, intent_of, parse_message
from vistasim.agent import Reply, Turn

PRACTICE_PHONE = "0117 496 0321"
MAX_VERIFY_FAILS = 3
_NOT_NAMES = {
    "i", "im", "hi", "hello", "hey", "my", "the", "a", "an", "can", "could", "would", "please",
    "thanks", "thank", "yes", "no", "ok", "okay", "it", "its", "it's", "that", "this", "what",
    "dr", "nurse", "bristol", "road", "street", "lane", "grove", "avenue", "hill", "flat", "and",
    "or", "she", "he", "they", "her", "his", "him", "their", "sure", "phone", "number", "mobile",
    "name", "pet", "dog", "cat", "is", "called", "our", "we", "me", "sorry", "oh", "well", "so",
    "there", "here", "let", "lets", "let's", "what's", "whats", "that's", "thats", "who",
    "good", "morning", "afternoon", "evening", "mr", "mrs", "ms", "miss", "just", "also",
    "client", "postcode", "account", "details", "yeah", "yep", "fine", "great",
    *tx.WEEKDAYS, *tx.MONTHS,
}
_PET_NAME_RE = re.compile(
    r"(?=\b(?:pet'?s?(?: name)? is|pets? (?:is )?called|(?:dog|cat|puppy|kitten|rabbit|bunny|pig|"
    r"ferret)(?:'s name)? is|(?:dog|cat|puppy|kitten|rabbit|bunny|guinea pig|ferret),?|"
    r"called|named|name'?s|one of them is|one is|it'?s|she'?s|he'?s) ([A-Za-z][a-z]+)\b)", re.I)
_OWN_NAME_RE = re.compile(r"\b(?i:i'?m|i am|my name is|this is|name'?s|it'?s)\s+([A-Z][a-z]+)"
                          r"(?:\s+([A-Z][a-z]+))?")


def _fresh_state() -> dict[str, Any]:
    return {
        "client": None, "account": None, "facts": {}, "fails": 0, "tried": [],
        "locked": False, "asked": None, "queue": [], "pending": None, "done": [],
        "next_id": 1, "name_check": False, "started": False,
    }


class CorrectVetAgent(Flows):
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
        args = {k: v for k, v in args.items() if v is not None}
        outcome = await self.env.call_tool(tool_name, args)
        self.calls.append({"name": tool_name, "args": args, "result": outcome.result,
                           "error": outcome.error})
        return outcome.result, outcome.error

    def new_request(self, intent: str, text: str, **extra: Any) -> dict[str, Any]:
        req = {"id": self.s["next_id"], "intent": intent, "chunks": [text], "fb_text": "",
               "fb_intent": None, "fb_used": False, "data": {}}
        req.update(extra)
        self.s["next_id"] += 1
        return req

    def current(self) -> dict[str, Any] | None:
        return self.s["queue"][0] if self.s["queue"] else None

    def finish(self, req: dict[str, Any]) -> None:
        self.s["queue"] = [r for r in self.s["queue"] if r["id"] != req["id"]]

    def insert_after(self, req: dict[str, Any], new: list[dict[str, Any]]) -> None:
        queue = self.s["queue"]
        at = next((i for i, r in enumerate(queue) if r["id"] == req["id"]), -1) + 1
        self.s["queue"] = queue[:at] + new + queue[at:]

    def ask(self, what: str, text: str, out: list[str]) -> str:
        self.s["asked"] = what
        out.append(text)
        return "wait"

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str | None,
                args: dict[str, Any] | None = None, **extra: Any) -> str:
        self.s["pending"] = {"req": req["id"], "tool": tool, "args": args or {}, "text": text,
                             **extra}
        out.append(text)
        return "wait"

    @property
    def account(self) -> dict[str, Any]:
        return self.s["account"] or {}

    def first_name(self) -> str:
        return str(self.account.get("name", "")).split(" ")[0]

    async def refresh_account(self) -> None:
        result, error = await self.call("get_account", client_number=self.s["client"])
        if not error:
            self.s["account"] = result

    # -- one turn --------------------------------------------------------------------------
    async def _handle(self, message: str, out: list[str]) -> None:
        parsed = parse_message(message)
        self._take_identity(message, parsed)
        lead_used = False
        if self.s["pending"]:
            if not await self._answer_pending(message, parsed, out):
                self._queue_new(parsed, lead=False)
                return
            lead_used = True
        elif self.s["asked"]:
            lead_used = self._answer_question(message, parsed)
        self._queue_new(parsed, lead=not lead_used)
        if not self.s["queue"] and not self.s["pending"]:
            if not out:
                out.append(self._small_talk(message))
            elif not self.s["asked"]:
                out.append("Is there anything else I can help with?")
            return
        await self.advance(out)

    def _small_talk(self, message: str) -> str:
        if tx.thanks_or_bye(message) or (self.s["started"] and tx.answer(message) == "no"):
            return "You're welcome — take care, and give your pets a pat from us!"
        if self.s["started"]:
            return "Is there anything else I can help with?"
        self.s["started"] = True
        return ("Hello, this is the Meadowbank Veterinary Practice desk. I can book, move or "
                "cancel appointments, order repeat prescriptions, check and pay invoices, update "
                "your contact details and register a new pet. What can I do for you?")

    def _queue_new(self, parsed: Parsed, *, lead: bool) -> None:
        current = self.current()
        for index, req in enumerate(parsed.requests):
            text = req.text
            if lead and index == 0 and parsed.lead:
                text = parsed.lead + " " + text
            if current is not None and self._same_as_current(req.intent, text, current):
                current["chunks"].append(text)
                if req.fb_text:
                    current["fb_text"], current["fb_intent"] = req.fb_text, req.fb_intent
                continue
            new = self.new_request(req.intent, text, fb_text=req.fb_text,
                                   fb_intent=req.fb_intent)
            self.s["queue"].append(new)

    def _same_as_current(self, intent: str, text: str, current: dict[str, Any]) -> bool:
        if intent != current["intent"] or current.get("split"):
            return False
        if not self.s["client"]:
            # Before the account is open, pets are known only as names: a request naming
            # another one is a request of its own ("... and book Pickle a check-up too").
            def names(t: str) -> set[str]:
                return {w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", t)} - _NOT_NAMES

            return names(text) <= names(" ".join(current["chunks"]))
        named = {p["pet_id"] for p in self.pets_in(text)}
        mine = set(current["data"].get("pet_ids", []))
        return not named or not mine or bool(named & mine)

    def _answer_question(self, message: str, parsed: Parsed) -> bool:
        """File the answer to what the desk asked; True when the message's lead was used."""
        asked = self.s["asked"]
        self.s["asked"] = None
        req = self.current()
        if asked in {"identity", "identity_pet", "name"} or req is None:
            return True
        req["chunks"].append(self._own_part(message, parsed, req))
        req["data"]["answer_to"] = asked
        return True

    # -- identity --------------------------------------------------------------------------
    def _take_identity(self, message: str, parsed: Parsed) -> None:
        if self.s["client"]:
            return
        facts = self.s["facts"]
        number = tx.client_number(message)
        if number:
            facts["client_number"] = number
        codes = tx.postcodes(parsed.identity_text)
        if codes:
            facts["postcode"] = codes[-1][1]
        numbers = tx.phones(parsed.identity_text)
        if numbers:
            facts["phone"] = numbers[-1][1]
        if tx.lacks_client_number(message):
            facts["no_client_number"] = True
        new_pets = " ".join(r.text for r in parsed.requests if r.intent == "register")
        names = [n for n in self._pet_name_candidates(message)
                 if not re.search(rf"\b{n}\b", new_pets, re.I)]
        if names:
            facts["pet_names"] = names
        if self.s["asked"] == "name":
            own = _OWN_NAME_RE.search(message) or re.search(
                r"\b([A-Z][a-z]+)\s+([A-Z][a-z]+)\b", message)
            if own:
                facts["name"] = " ".join(g for g in own.groups() if g)

    def _pet_name_candidates(self, message: str) -> list[str]:
        """Pet names the owner gave: explicit ones first; a lone capitalised word only if alone.

        The owner's own full name ("I'm Helen Price") is never taken for a pet's name.
        """
        own = {w.lower() for m in _OWN_NAME_RE.finditer(message) if m.group(2)
               for w in m.groups() if w}
        explicit: list[str] = []
        loose: list[str] = []

        def add(found: list[str], word: str) -> None:
            if word.lower() not in _NOT_NAMES and word.lower() not in own and \
                    word.title() not in explicit + loose:
                found.append(word.title())

        for m in _PET_NAME_RE.finditer(message):
            add(explicit, m.group(1))
        for m in re.finditer(r"\b([A-Z][a-z]+)'s\b", message):
            add(explicit, m.group(1))
        for m in _OWN_NAME_RE.finditer(message):
            if not m.group(2) and self.s["asked"] in {"identity", "identity_pet"}:
                add(explicit, m.group(1))  # "my name is Nala", answering "your pet's name?"
        words = len(re.findall(r"\w+", message))
        if self.s["asked"] == "identity_pet" and words <= 3:
            for word in re.findall(r"\b[A-Za-z][a-z]+\b", message):
                add(explicit, word)
        for word in re.findall(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+\b", message):
            add(loose, word)
        return explicit[:2] if explicit else loose[:1] if len(loose) == 1 else []

    async def ensure_identity(self, out: list[str]) -> bool:
        if self.s["client"]:
            return True
        if self.s["locked"]:
            self._locked(out)
            return False
        facts = self.s["facts"]
        tried = self.s["tried"]
        if facts.get("client_number") and facts.get("postcode"):
            key = f"cp:{facts['client_number']}:{facts['postcode']}"
            if key in tried:  # the same details again: say so, and ask for the other way
                facts.pop("postcode", None)
                return await self.after_failed_verify("postcode", out)
            if key not in tried:
                tried.append(key)
                if await self._verify(out, client_number=facts["client_number"],
                                      postcode=facts["postcode"]):
                    return True
                facts.pop("postcode", None)
                return await self.after_failed_verify("postcode", out)
        if facts.get("phone") and facts.get("pet_names"):
            for name in facts["pet_names"][:2]:
                key = f"pp:{facts['phone']}:{name.lower()}"
                if key in tried:
                    continue
                tried.append(key)
                if await self._verify(out, phone=facts["phone"], pet_name=name):
                    return True
                if self.s["locked"]:
                    return False
            facts.pop("pet_names", None)
            return await self.after_failed_verify("phone", out)
        self._ask_identity(out)
        return False

    async def _verify(self, out: list[str], **args: str) -> bool:
        result, error = await self.call("verify_owner", **args)
        if error:
            self.s["fails"] += 1
            if self.s["fails"] >= MAX_VERIFY_FAILS:
                self.s["locked"] = True
                self._locked(out)
            return False
        self.s["client"] = result["client_number"]
        await self.refresh_account()
        out.append(f"Thanks, {self.first_name()} — I've found your account.")
        return True

    def _locked(self, out: list[str]) -> None:
        self.s["queue"] = []
        self.s["asked"] = None
        out.append("I'm sorry, those details still don't match our records, so I can't share "
                   "account details or make changes in this chat. Please call the practice on "
                   f"{PRACTICE_PHONE} and the team will help you.")

    async def after_failed_verify(self, kind: str, out: list[str]) -> bool:
        """What the desk says when the details given did not match (the policy's fallback)."""
        if kind == "postcode":
            text = ("I'm sorry, that postcode doesn't match the one we have for that client "
                    "number (if you've moved recently, we'll still have your old one). Could you "
                    "give me the phone number on your account and the name of one of your pets "
                    "instead?")
        else:
            text = ("I'm sorry, I couldn't match that phone number and pet's name. Could you "
                    "check them, or give me your client number and postcode instead?")
        return self._ask_after_fail(text, out)

    def _ask_after_fail(self, text: str, out: list[str]) -> bool:
        self.ask("identity", text, out)
        return False

    def _ask_identity(self, out: list[str]) -> None:
        facts = self.s["facts"]
        if facts.get("client_number") and not facts.get("postcode"):
            text = (f"Thanks. And what's the postcode on your account (client number "
                    f"{facts['client_number']})?")
        elif facts.get("no_client_number") and not facts.get("phone"):
            text = ("No problem — could you give me the phone number on your account and the "
                    "name of one of your pets instead?")
        elif facts.get("phone") and not facts.get("pet_names"):
            text = "Thanks. And what's the name of one of your pets?"
            self.ask("identity_pet", text, out)
            return
        else:
            text = ("Before I can help with that, I need to check who I'm talking to. Could you "
                    "give me your client number and the postcode on your account? If you don't "
                    "have your client number to hand, your phone number and one of your pets' "
                    "names will do instead.")
        self.ask("identity", text, out)

    # -- proposals and yes/no --------------------------------------------------------------
    async def _answer_pending(self, message: str, parsed: Parsed, out: list[str]) -> bool:
        """Handle a reply to a proposal; False when the desk must wait again."""
        pending = self.s["pending"]
        req = next((r for r in self.s["queue"] if r["id"] == pending["req"]), None)
        reply = tx.answer(message)
        if req is None:
            self.s["pending"] = None
            return True
        if reply == "hedge":
            out.append("No problem — I haven't changed anything. Just say yes when you're ready, "
                       "or tell me if you'd like something different.")
            return False
        if self.changes_proposal(req, pending, message, parsed):
            self.s["pending"] = None
            part = self._own_part(message, parsed, req)
            day = (pending.get("slot") or {}).get("date")
            hour = tx.bare_hour(part) if not tx.find_times(part) else []
            if hour:
                part += f" at {hour[0].time}"
            if day and not tx.find_dates(part, self.today):
                part += f" (on {day})"  # "11 please" keeps the day that was offered
            req["data"]["use_fb"] = False
            req["chunks"].append(part)
            return True
        if reply == "yes":
            self.s["pending"] = None
            await self.execute(req, pending, out)
            return True
        if reply == "no":
            self.s["pending"] = None
            self.finish(req)
            out.append(self.declined_text(req, pending))
            return True
        if parsed.requests:
            out.append("I'll come to that next. First, " + pending["text"][0].lower() +
                       pending["text"][1:])
            return False
        out.append("Sorry, I didn't catch that — " + pending["text"][0].lower() +
                   pending["text"][1:] + " Please answer yes or no.")
        return False

    def _own_part(self, message: str, parsed: Parsed, req: dict[str, Any]) -> str:
        """The part of a message that answers the current request (not a new request)."""
        if all(r.intent == req["intent"] for r in parsed.requests):
            return message
        same = [r.text for r in parsed.requests if r.intent == req["intent"]]
        return " ".join([parsed.lead, *same]).strip()

    def declined_text(self, req: dict[str, Any], pending: dict[str, Any]) -> str:
        if pending.get("tool") is None:
            return "Okay, no problem."
        return "Okay, I've left that as it is — nothing has been changed."

    async def advance(self, out: list[str]) -> None:
        """Work through the queue until the desk needs an answer from the owner."""
        for _ in range(12):
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
        if pending.get("spawn"):
            self.finish(req)
            spawn = pending["spawn"]
            self.s["queue"].insert(0, self.new_request(spawn["intent"], spawn["text"]))
            return
        result, error = await self.call(pending["tool"], **pending["args"])
        self.s["done"].append({"tool": pending["tool"], "args": pending["args"],
                               "error": error, "summary": ""})
        status = await getattr(self, f"done_{req['intent']}")(req, pending, result, error, out)
        if status != "wait":
            self.finish(req)

    def intent_of(self, text: str) -> str | None:
        return intent_of(text)
