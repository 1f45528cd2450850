"""The desk agent's core: state, reading each message, verification and confirmations.

The agent keeps a queue of tasks (one per request the member made), works on the first one until
it needs something from the member, and asks before any change. Handlers live in `_tasks.py`.
"""

from __future__ import annotations

import copy
import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.gym import _lang as lang
from vistasim.agent import Reply, Turn

REPEAT_ONCE = {"change_plan", "freeze", "cancel_membership", "guest_pass", "card", "contact"}
NEEDS_ACCOUNT = {"book", "cancel_booking", "change_plan", "freeze", "cancel_membership",
                 "guest_pass", "card", "contact", "payments", "bookings", "membership"}
HESITANT = re.compile(r"\b(not yet|wait|hold on|hang on|hmm|not sure|let me think|one moment)\b",
                      re.I)
OTHER_PERSON = re.compile(r"\b(partner|husband|wife|boyfriend|girlfriend|friend|son|daughter|"
                          r"mum|mother|dad|father|brother|sister|flatmate|colleague)('s)?\b", re.I)


def fmt_date(day: str | date) -> str:
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{d:%A} {d.day} {d:%B %Y}"


def fmt_when(starts_at: str) -> str:
    moment = datetime.fromisoformat(starts_at)
    return f"{fmt_date(moment.date())} at {moment:%H:%M}"


def money(amount: float) -> str:
    return f"£{amount:.2f}".replace(".00", "")


class DeskBase:
    """State and the per-turn loop; subclasses add the task handlers."""

    restore_strategy = "state"

    def __init__(self, env: Any) -> None:
        self.env = env
        self.s: dict[str, Any] = {"member": None, "name": None, "creds": {}, "tasks": [],
                                  "pending": None, "asked": None, "suspended": None,
                                  "failed_verify": 0}
        self.turn: Turn | None = None
        self.calls: list[dict[str, Any]] = []

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.s)

    def restore(self, state: Any) -> None:
        self.s = copy.deepcopy(state)

    async def aclose(self) -> None:
        return None

    @property
    def today(self) -> date:
        return self.env.now().date() if hasattr(self.env, "now") else date(2026, 10, 21)

    # -- tools -------------------------------------------------------------------------------
    async def call(self, name: str, **args: Any) -> tuple[Any, str | None]:
        outcome = await self.env.call_tool(name, args)
        self.calls.append({"name": name, "args": args, "result": outcome.result,
                           "error": outcome.error})
        return outcome.result, outcome.error

    async def account(self) -> dict[str, Any]:
        result, _ = await self.call("get_membership", member_id=self.s["member"])
        return result or {}

    # -- the turn ----------------------------------------------------------------------------
    async def respond(self, turn: Turn) -> Reply:  # noqa: C901
        self.turn, self.calls = turn, []
        text = turn.message
        out: list[str] = []
        self._read_credentials(text)
        self.s.setdefault("others", [])
        self.s["others"] += [i for i in lang.member_ids(text) if i not in self.s["others"]]
        new_kinds = lang.intents(text)
        pending = self.s["pending"]
        if pending is not None:
            task = self.s["tasks"][0]
            reply = lang.answer(text)
            other = [k for k in new_kinds if k != task["kind"]]
            changed = False if other else self.fill(task, text)
            if other and reply != "yes":
                self.s["pending"] = None
                for kind in reversed(other):
                    self.s["tasks"].insert(0, {"kind": kind})
                    self.fill(self.s["tasks"][0], text)
                new_kinds = []
            elif pending.get("question") == "medical" and reply is not None:
                task["medical"] = reply == "yes"
                self.s["pending"] = None
            elif changed:
                self.s["pending"] = None
            elif reply == "yes":
                self.s["pending"] = None
                report = await self.execute(task, pending)
                self.s.setdefault("done", []).append({"task": {k: v for k, v in task.items()},
                                                      "report": report})
                out.append(report)
            elif reply == "no" and HESITANT.search(text):
                out.append("No problem, I haven't changed anything. Just say yes when you'd like "
                           "me to go ahead, or tell me what to change.")
                return self._reply(out)
            elif reply == "no":
                self.s["pending"] = None
                self.s["tasks"].pop(0)
                out.append("Okay, I haven't made that change.")
            elif not new_kinds:
                out.append(f"Sorry, I didn't catch that. {pending['text']}")
                return self._reply(out)
        spans = [s for s in lang.intent_spans(text) if s[0] in new_kinds]
        for n, (kind, start) in enumerate(spans):
            end = spans[n + 1][1] if n + 1 < len(spans) else len(text)
            said = self._add_task(kind, text if len(spans) == 1 else text[start if n else 0:end])
            if said:
                out.append(said)
        if not self.s["tasks"] and out and not self.s["pending"] and new_kinds:
            out.append("Is there anything else I can help with?")
        elif not self.s["tasks"] and not out:
            if self._other_person_asked(text):
                out.append(self.other_member_text())
            elif lang.answer(text) == "no" or re.search(r"\b(thanks|thank you|bye|that's all)\b",
                                                        text, re.I):
                out.append("You're welcome. Is there anything else I can help with?")
            else:
                out.append("I can help with class bookings and cancellations, plan changes, "
                           "freezes, cancelling a membership, guest passes, your payment card, "
                           "contact details and payments. What would you like to do?")
        elif self.s["tasks"] and self.s["pending"] is None:
            if len(new_kinds) == 1:
                self.fill(self.s["tasks"][0], text)
            out.extend(await self.advance(text))
        elif out and not self.s["tasks"]:
            out.append("Is there anything else I can help with?")
        return self._reply(out)

    def _reply(self, out: list[str]) -> Reply:
        return Reply(text=" ".join(p for p in out if p), tool_calls=tuple(self.calls))

    def _add_task(self, kind: str, text: str) -> str | None:
        if any(t["kind"] == kind for t in self.s["tasks"]):
            return None
        task: dict[str, Any] = {"kind": kind}
        self.fill(task, text)
        for done in self.s.setdefault("done", []):
            if done["task"] == task or (kind not in ("book", "cancel_booking") and
                                        done["task"]["kind"] == kind and kind in REPEAT_ONCE):
                return f"That's already done: {done['report']}"
        self.s["tasks"].append(task)
        return None

    def _other_person_asked(self, text: str) -> bool:
        return bool(self._others())

    def _others(self) -> list[str]:
        if not self.s["member"]:
            return []
        done = self.s.get("refused", [])
        return [i for i in self.s.get("others", []) if i != self.s["member"] and i not in done]

    # -- verification ------------------------------------------------------------------------
    def _read_credentials(self, text: str) -> None:
        creds = self.s["creds"]
        for member_id in lang.member_ids(text):
            before = text[:text.upper().find(member_id[:2])].lower()[-40:]
            if not OTHER_PERSON.search(before) and "creds_id" not in creds:
                creds["member_id"] = member_id
                creds["creds_id"] = True
        dob = lang.birth_date(text)
        if dob:
            creds["date_of_birth"] = dob
        if self.s["member"] is None:
            found = [e for e in lang.emails(text)
                     if not re.search(r"\b(new|to|change|update)\s+(email\s+)?(is\s+)?$",
                                      text[:text.lower().find(e)].lower()[-30:])]
            if found:
                creds["email"] = found[0]
            code = lang.postcode(text)
            if code:
                creds["postcode"] = code

    async def ensure_verified(self) -> str | None:
        """None when verified; otherwise what to say."""
        if self.s["member"]:
            return None
        creds = self.s["creds"]
        args: dict[str, str] = {}
        if creds.get("member_id") and creds.get("date_of_birth"):
            args = {"member_id": creds["member_id"], "date_of_birth": creds["date_of_birth"]}
        elif creds.get("email") and creds.get("postcode"):
            args = {"email": creds["email"], "postcode": creds["postcode"]}
        if not args:
            have = [k for k in ("member_id", "date_of_birth", "email", "postcode") if creds.get(k)]
            self.s["asked"] = "credentials"
            if have == ["member_id"]:
                return "Thanks. To verify you, what's your date of birth?"
            if have == ["email"]:
                return "Thanks. And the postcode on your account, please?"
            return ("Before I can look at or change anything, I need to verify you: please give "
                    "me your member ID and date of birth, or the email and postcode on your "
                    "account.")
        result, error = await self.call("verify_member", **args)
        if error:
            self.s["creds"] = {}
            self.s["failed_verify"] += 1
            return ("I'm sorry, those details don't match our records, so I can't access the "
                    "account. Could you check them and give me your member ID and date of birth, "
                    "or your email and postcode?")
        self.s["member"], self.s["name"] = result["member_id"], result["name"]
        self.s["asked"] = None
        return None

    def other_member_text(self) -> str:
        return ("I'm sorry, I can only discuss the account of the member I've verified, so I "
                "can't share anything about another member's bookings or account, even a "
                "partner's. They're welcome to contact us themselves.")

    async def other_member(self, other_id: str) -> str:
        return self.other_member_text()

    # -- running tasks -----------------------------------------------------------------------
    async def advance(self, text: str) -> list[str]:
        out: list[str] = []
        others = self._others()
        while self.s["tasks"] and self.s["pending"] is None:
            task = self.s["tasks"][0]
            if task["kind"] in NEEDS_ACCOUNT and not self.skip_verify(task):
                ask = await self.ensure_verified()
                if ask:
                    out.append(ask)
                    return out
                others = others or self._others()
            if others:
                self.s["refused"] = self.s.get("refused", []) + others
                out.append(await self.other_member(others[0]))
                others = []
                if task["kind"] in ("bookings", "membership", "payments"):
                    self.finish_task()
                    continue
            said, done = await self.handle(task)
            out.append(said)
            if not done:
                return out
            self.finish_task()
        if not self.s["tasks"] and self.s["pending"] is None:
            out.append("Is there anything else I can help with?")
        return out

    def finish_task(self) -> None:
        self.s["tasks"].pop(0)
        self.s["asked"] = None

    def propose(self, task: dict[str, Any], text: str, **extra: Any) -> tuple[str, bool]:
        self.s["pending"] = {"text": text, **extra}
        return text, False

    def skip_verify(self, task: dict[str, Any]) -> bool:
        return False

    # Subclasses: fill(task, text) -> bool, handle(task), execute(task, pending).
    def fill(self, task: dict[str, Any], text: str) -> bool:
        raise NotImplementedError

    async def handle(self, task: dict[str, Any]) -> tuple[str, bool]:
        raise NotImplementedError

    async def execute(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        raise NotImplementedError
