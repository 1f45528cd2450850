"""The Greenfield Energy desk bot: a deterministic rule agent (no model).

One instance per episode. Each turn it reads the customer's message (facts, requests, yes / no /
not yet), verifies the caller before anything else, and works through the requests in the
order they were made: it asks for what is missing, states fees and new amounts, asks for a yes,
then calls the tool and reports what the tool returned.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from benchmarks.domains.energy import _intents as intents
from benchmarks.domains.energy import _lang as lang
from benchmarks.domains.energy._slots import absorb_slots
from benchmarks.domains.energy._tasks import TaskHandlers
from vistasim.agent import Reply, Turn

NO_VERIFY = {"tariffs_info", "other_account"}


@dataclass
class Ctx:
    """One turn being answered."""

    turn: Turn
    text: str
    lines: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    account: dict[str, Any] | None = None
    changed_slots: bool = False
    new_tasks: bool = False

    def say(self, line: str) -> None:
        self.lines.append(line)


class CorrectEnergyAgent(TaskHandlers):
    """Greenfield Energy's desk bot, written to the desk's policy."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = {
            "verified": None,
            "name": None,
            "ids": {},
            "failed": [],
            "tasks": [],
            "awaiting": None,
            "proposal": None,
        }

    # -- the adapter's side ----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.s)

    def restore(self, state: Any) -> None:
        self.s = copy.deepcopy(state)

    async def respond(self, turn: Turn) -> Reply:
        ctx = Ctx(turn=turn, text=lang.norm(turn.message))
        self._absorb(ctx)
        await self._step(ctx)
        text = " ".join(line for line in ctx.lines if line).strip()
        return Reply(text=text or "How can I help?", tool_calls=tuple(ctx.calls))

    async def call(self, ctx: Ctx, name: str, args: dict[str, Any]) -> tuple[Any, str | None]:
        args = {k: v for k, v in args.items() if v is not None}
        outcome = await self.env.call_tool(name, args)
        ctx.calls.append(
            {"name": name, "args": args, "result": outcome.result, "error": outcome.error}
        )
        return outcome.result, outcome.error

    # -- reading the message ----------------------------------------------------------------

    def _absorb(self, ctx: Ctx) -> None:
        text = ctx.text
        tasks = self.s["tasks"]
        addr = lang.address(text) if self._wants_address(text) else None
        rest = text.replace(addr, " ") if addr else text
        for name in intents.intents(rest):
            if not any(t["intent"] == name for t in tasks):
                tasks.append(
                    {"intent": name, "slots": {}, "asked": [], "early": {}, "said": rest}
                )
                ctx.new_tasks = True
        self._absorb_identity(ctx, rest)
        if self._mentions_other_account(rest) and not any(
            t["intent"] == "other_account" for t in tasks
        ):
            tasks.append({"intent": "other_account", "slots": {}, "asked": [], "early": {}})
        for index, task in enumerate(tasks):
            if absorb_slots(task, text, rest, addr, self.s):
                ctx.changed_slots = ctx.changed_slots or index == 0
                if not self.s["verified"]:
                    for slot in task["slots"]:
                        task["early"].setdefault(slot, True)

    def _wants_address(self, text: str) -> bool:
        if any(t["intent"] == "move" for t in self.s["tasks"]):
            return True
        return "move" in intents.intents(text)

    def _absorb_identity(self, ctx: Ctx, rest: str) -> None:
        ids = self.s["ids"]
        numbers = lang.account_numbers(rest)
        mine = self.s["verified"]
        other = intents.other_person(rest)
        if not mine and numbers and (not other or len(numbers) > 1):
            ids["account_number"] = numbers[0]
        if mine:
            return
        contact_task = any(t["intent"] == "contact" for t in self.s["tasks"])
        found = {
            "postcode": lang.postcode(lang.ACCOUNT_RE.sub(" ", rest)),
            "date_of_birth": lang.date_of_birth(rest),
        }
        mail = lang.email(rest)
        if mail and not (contact_task and lang.is_new_email(rest, mail)):
            found["email"] = mail
        for key, value in found.items():
            if value:
                ids[key] = value

    def _mentions_other_account(self, rest: str) -> bool:
        numbers = lang.account_numbers(rest)
        mine = self.s["verified"] or self.s["ids"].get("account_number")
        if intents.other_person(rest):
            return True
        return bool(self.s["verified"] and numbers and any(n != mine for n in numbers))

    # -- deciding what to do ----------------------------------------------------------------

    async def _step(self, ctx: Ctx) -> None:
        if self.s["awaiting"] == "confirm" and self.s["proposal"]:
            if not await self._confirmation(ctx):
                return
        tasks = self.s["tasks"]
        while tasks:
            task = tasks[0]
            if task["intent"] not in NO_VERIFY and not self.s["verified"]:
                if not await self._verify(ctx, task):
                    return
            done = await self.handle(ctx, task)
            if not done:
                return
            tasks.pop(0)
        self._wrap_up(ctx)

    def _wrap_up(self, ctx: Ctx) -> None:
        if self.s["awaiting"] == "more" and not ctx.lines and lang.answer(ctx.text) == "yes" \
                and not lang.wants_nothing_more(ctx.text) and "thank" not in ctx.text.lower():
            ctx.say("Sure, what else can I help with?")
            self.s["awaiting"] = None
        elif self.s["awaiting"] == "more" and not ctx.lines:
            ctx.say("You're welcome. Thanks for contacting Greenfield Energy, goodbye!")
            self.s["awaiting"] = None
        elif ctx.lines:
            ctx.say("Is there anything else I can help with?")
            self.s["awaiting"] = "more"
        elif lang.wants_nothing_more(ctx.text) or re.search(r"\bthanks?\b|\bthank you\b",
                                                            ctx.text.lower()):
            ctx.say("You're welcome. Thanks for contacting Greenfield Energy, goodbye!")
            self.s["awaiting"] = None
        elif re.fullmatch(r"(?i)\W*(?:hi|hello|hey|good (?:morning|afternoon|evening))\W*",
                          ctx.text):
            ctx.say("Hello, welcome to Greenfield Energy. How can I help today?")
        else:
            ctx.say(
                "Sorry, I didn't quite follow. I can help with meter readings, bills, tariffs, "
                "direct debits, payment plans, moving home, contact details and the Priority "
                "Services Register. What would you like to do?"
            )

    async def _confirmation(self, ctx: Ctx) -> bool:
        """Handle the reply to a yes/no question; True when the turn goes on to the next task."""
        said = lang.answer(ctx.text)
        task = self.s["tasks"][0]
        if ctx.changed_slots:
            self.s["proposal"] = None
            self.s["awaiting"] = None
            return True  # the handler proposes again with the new values
        if said == "yes":
            proposal = self.s["proposal"]
            self.s["proposal"] = None
            self.s["awaiting"] = None
            await self.execute(ctx, task, proposal)
            self.s["tasks"].pop(0)
            return True
        if said == "hold":
            ctx.say(
                "Of course, take your time. I haven't changed anything yet; just say yes when "
                "you'd like me to go ahead, or tell me what you'd like to change."
            )
            return False
        if said == "no":
            self.s["proposal"] = None
            self.s["awaiting"] = None
            self.s["tasks"].pop(0)
            ctx.say("Understood, I've left that as it is: nothing has been changed.")
            return True
        if ctx.new_tasks:
            ctx.say("Sure, I'll come to that next.")
        else:
            ctx.say("Sorry, I need a clear answer before I change anything.")
        ctx.say(self.s["proposal"]["question"])
        return False

    # -- identity ---------------------------------------------------------------------------

    async def _verify(self, ctx: Ctx, task: dict[str, Any]) -> bool:
        ids = self.s["ids"]
        args = self._verify_args(ids)
        if args is None:
            self._ask_identity(ctx, ids, task)
            return False
        key = "|".join(f"{k}={v}".lower() for k, v in sorted(args.items()))
        if key in self.s["failed"]:
            for name in ("postcode",) if "postcode" in args else ("email", "date_of_birth"):
                ids.pop(name, None)
            ctx.say("Those are the same details that didn't match our records a moment ago.")
            return await self.on_verify_failed(ctx, args, task)
        result, error = await self.call(ctx, "verify_customer", args)
        if error:
            self.s["failed"].append(key)
            for key in ("postcode",) if "postcode" in args else ("email", "date_of_birth"):
                ids.pop(key, None)
            return await self.on_verify_failed(ctx, args, task)
        self.s["verified"] = result["account_number"]
        self.s["name"] = result["name"]
        ctx.say(f"Thank you, {result['name'].split()[0]}, you're verified.")
        return True

    @staticmethod
    def _verify_args(ids: dict[str, str]) -> dict[str, str] | None:
        if ids.get("account_number") and ids.get("postcode"):
            return {"account_number": ids["account_number"], "postcode": ids["postcode"]}
        if ids.get("email") and ids.get("date_of_birth"):
            return {"email": ids["email"], "date_of_birth": ids["date_of_birth"]}
        return None

    async def on_verify_failed(self, ctx: Ctx, args: dict[str, str], task: dict[str, Any]) -> bool:
        ctx.say("Sorry, those details don't match our records, so I can't access the account yet.")
        if "postcode" in args:
            ctx.say("Let's try another way: what's the email address on the account, and the "
                    "account holder's date of birth?")
            self.s["ask_next"] = "email"
        else:
            ctx.say("Let's try another way: what's your account number, and the postcode of "
                    "the property the account is for?")
            self.s["ask_next"] = "account"
        self.s["awaiting"] = "verify"
        return False

    def _ask_identity(self, ctx: Ctx, ids: dict[str, str], task: dict[str, Any]) -> None:
        if re.search(r"\bwhy\b", ctx.text.lower()):
            ctx.say("We verify every caller before looking at or changing an account, to keep "
                    "it safe.")
        again = self.s["awaiting"] == "verify"
        route = self.s.get("ask_next")
        if route is None and (ids.get("email") or ids.get("date_of_birth")):
            route = "email"
        if route == "email":
            if ids.get("email") and not ids.get("date_of_birth"):
                ctx.say("Thanks. And what's the account holder's date of birth?")
            elif ids.get("date_of_birth") and not ids.get("email"):
                ctx.say("Thanks. And what's the email address on the account?")
            elif again and not ctx.lines:
                self.s["ask_next"] = "account"
                ctx.say("No problem. Could you give me your account number (it starts with GE) "
                        "and the postcode of the property instead?")
            else:
                ctx.say("Could you give me the email address on the account and the account "
                        "holder's date of birth?")
        elif ids.get("account_number") and not ids.get("postcode"):
            ctx.say("Thanks. And what's the postcode of the property the account is for?")
        elif ids.get("postcode") and not ids.get("account_number"):
            ctx.say("Thanks. And what's your account number? It starts with GE, like GE-1234.")
        elif again:
            self.s["ask_next"] = "email"
            ctx.say("No problem. Could you give me the email address on the account and the "
                    "account holder's date of birth instead?")
        else:
            ctx.say(
                f"I can help {self.describe(task)}. First I need to verify you: could you give "
                "me your account number and the postcode of the property? Or, if easier, the "
                "email address on the account and your date of birth."
            )
        self.s["awaiting"] = "verify"
