"""CorrectPharmacyAgent: a deterministic rule bot for Willow Pharmacy's refill desk.

It verifies the patient before any disclosure or change, proposes every change and waits for a
yes, explains each refusal with its reason and what is possible instead, and works through every
request of the conversation in order. No LLM.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.pharmacy._changes import ChangeHandlers
from benchmarks.domains.pharmacy._desk import (
    HELP,
    NO_VERIFY,
    OPEN,
    Desk,
    fmt_date,
    fmt_time,
    long_date,
    money,
)
from benchmarks.domains.pharmacy._parse import Parsed
from benchmarks.domains.pharmacy._seed import (
    DELIVERY_FEE_USD,
    NOW_TIME,
    READY_AFTER_MINUTES,
    TODAY,
)

_READY = int(NOW_TIME[:2]) * 60 + int(NOW_TIME[3:]) + READY_AFTER_MINUTES
READY_TIME = f"{_READY // 60:02d}:{_READY % 60:02d}"


class CorrectPharmacyAgent(ChangeHandlers, Desk):
    """The refill desk as it should behave (see policy.md)."""

    async def converse(self, p: Parsed) -> None:
        """Handle a pending proposal first, then new requests, then the current task."""
        if self.s["locked"]:
            self.say("I'm sorry, I can't help over chat without verifying you. Please visit a "
                     "Willow branch with photo ID.")
            return
        if self.explain_why(p):
            return
        new = self.tasks_from(p)
        self.apply_answer(p)
        was_pending = self.s["pending"] is not None
        if was_pending and not await self._answer_pending(p, new):
            return
        self.s["queue"] += new
        if not (was_pending or new or self.s["current"] or self.s["queue"]):
            self._idle(p)
            return
        await self.advance()

    def explain_why(self, p: Parsed) -> bool:
        """'Why do you need that?' to a question: say why and ask again."""
        asked = self.s.get("last_asked")
        reasons = {
            "verify": "we only share or change prescription details once we know we're talking "
                      "to the patient: that's our privacy policy.",
            "last_name": "your last name and date of birth are how we verify who we're talking "
                         "to before sharing or changing anything.",
            "dob": "your last name and date of birth are how we verify who we're talking to "
                   "before sharing or changing anything.",
            "phone": "it's the number that gets the text when your refill is ready.",
        }
        if not (asked and re.search(r"\bwhy\b|what for\b|do you need", p.text.lower())):
            return False
        if asked in reasons and not (p.dob or p.last_name or p.phone):
            again = self.s["last_question"].removeprefix("Thanks. ")
            self.say(f"Of course: {reasons[asked]} {again}")
            self.s["asked"] = asked
            return True
        return False

    def _idle(self, p: Parsed) -> None:
        if p.closing or p.no or "thank" in p.text.lower():
            self.say("You're welcome. Thank you for contacting Willow Pharmacy, take care!")
        elif p.yes:
            self.say("Sure, what can I help you with?")
        elif self.s["done"]:
            self.say("Is there anything else I can help you with?")
        else:
            self.say(HELP)

    async def _answer_pending(self, p: Parsed, new: list[dict[str, Any]]) -> bool:
        """Returns True when the conversation should go on to the tasks."""
        pend = self.s["pending"]
        if self._corrects(pend, p):
            self.s["pending"] = None
            return True
        if p.yes:
            self.s["pending"] = None
            self.s["queue"] += new  # known before the change, so its follow-ups fit
            new.clear()
            if await self.execute(pend):
                self.finish()
            return True
        if p.firm_no or (p.no and pend.get("hold")):
            self.say("Okay, I've left that as it is.")
            self.finish()
            return True
        current = self.s["current"] or {}
        if new and current.get("kind") == "refill" and {t["kind"] for t in new} <= {
                "book", "delivery"}:  # its own pick-up or delivery: after the refill
            self.s["queue"] = new + self.s["queue"]
            new.clear()
            self.say(f"Sure, I'll do that right after the refill. First: {pend['question']}")
            return False
        if new:  # a new question in the middle: answer it, then come back to this proposal
            self.s["queue"] = new + [self.s["current"]] + self.s["queue"]
            self.s["current"], self.s["pending"] = None, None
            new.clear()
            return True
        if p.no:
            pend["hold"] = True
            self.say("No problem, nothing has been changed. Just say \"go ahead\" when you're "
                     "ready, or tell me what you'd like different.")
            return False
        self.say(f"Just to confirm: {pend['question']}")
        return False

    def _corrects(self, pend: dict[str, Any], p: Parsed) -> bool:
        facts, task = self.s["facts"], self.s["current"] or {}
        changed = [(key, value) for key, value in pend.get("slots", {}).items()
                   if (facts.get(key) if key in facts else task.get(key)) not in (None, value)]
        return bool(changed)

    async def advance(self) -> None:
        """Work through the tasks until one waits for the patient."""
        while self.s["pending"] is None:
            if self.s["current"] is None:
                if not self.s["queue"]:
                    self.say("Is there anything else I can help you with?")
                    return
                if self.finished_now and not self.next_task_ok():
                    return
                self.s["current"] = self.s["queue"].pop(0)
            task = self.s["current"]
            if task["kind"] not in NO_VERIFY and not await self.ensure_verified():
                return
            if not await getattr(self, f"plan_{task['kind']}")(task):
                return
            self.finish()

    def next_task_ok(self) -> bool:
        """Whether to go on to the next queued request (the flawed agent forgets it)."""
        return True

    def propose(self, action: str, question: str, slots: dict[str, Any], **data: Any) -> bool:
        """Offer a change and wait for the patient's yes."""
        self.s["pending"] = {"action": action, "question": question, "slots": slots, **data}
        self.say(question)
        return False

    # ---- resolving the prescription or order ------------------------------------------------

    async def resolve_rx(self, task: dict[str, Any]) -> dict[str, Any] | None | bool:
        """The patient's own prescription for the task; False when the task is over."""
        rxs = (await self.profile()).get("prescriptions", [])
        if task.get("rx"):
            mine = [r for r in rxs if r["rx_id"] == task["rx"]]
            return mine[0] if mine else await self.not_on_profile(task)
        named = self.by_words(task, rxs)
        if len(named) == 1 or len(rxs) == 1:
            task["rx"] = (named or rxs)[0]["rx_id"]
            return (named or rxs)[0]
        listed = ", ".join(self.rx_label(r) for r in rxs)
        self.ask("rx", f"Which prescription is this for? On your profile I see {listed}.")
        return None

    async def not_on_profile(self, task: dict[str, Any]) -> bool:
        """Another patient's prescription (or a wrong number): say nothing about it."""
        self.say(f"I can't find {task['rx']} on your profile, so I can't share or change anything "
                 "about it. If it belongs to someone else, they'll need to contact us themselves; "
                 "if it's a typo, just send me the right number.")
        return False

    async def resolve_order(self, task: dict[str, Any]) -> dict[str, Any] | None | bool:
        """The refill order the task is about; False when the task is over."""
        orders = (await self.profile()).get("refill_orders", [])
        open_orders = [o for o in orders if o["status"] in OPEN]
        if task.get("order"):
            found = [o for o in orders if o["order_id"] == task["order"]]
            if not found:
                self.say(f"I can't find refill {task['order']} on your profile. Could you check "
                         "the number?")
                return False
            return found[0]
        if self.s["last_order"] and task["kind"] in ("book", "delivery"):
            found = [o for o in open_orders if o["order_id"] == self.s["last_order"]]
            if found:
                return found[0]
        matches = [o for o in open_orders if o["rx_id"] == task.get("rx")] if task.get("rx") else []
        matches = matches or self.by_words(task, open_orders)
        if len(matches) == 1 or (len(open_orders) == 1 and not task.get("rx")):
            return (matches or open_orders)[0]
        if not open_orders and task["kind"] in ("book", "delivery"):
            return await self._start_refill_first(task)
        if not open_orders:
            self.say("You don't have any refill in progress at the moment.")
            return False
        listed = "; ".join(self.order_label(o) for o in open_orders)
        self.ask("order", f"Which refill do you mean? You have {listed}.")
        return None

    async def _start_refill_first(self, task: dict[str, Any]) -> bool | None:
        rxs = (await self.profile()).get("prescriptions", [])
        named = [r for r in rxs if r["rx_id"] == task.get("rx")] or self.by_words(task, rxs)
        if len(named) != 1:
            self.say("You don't have a refill in progress yet. Which prescription would you like "
                     "me to refill first?")
            self.s["queue"].insert(0, task)
            self.s["current"] = {"kind": "refill", "rx": None, "order": None, "words": []}
            self.s["asked"] = "rx"
            return None
        self.s["queue"].insert(0, task)
        self.s["current"] = {"kind": "refill", "rx": named[0]["rx_id"], "order": None,
                             "words": []}
        self.say(f"There's no refill in progress for {named[0]['drug']} yet, so let's start one.")
        if await self.plan_refill(self.s["current"]):  # refused: nothing to book or deliver
            self.s["current"] = self.s["queue"].pop(0)
            return False
        return None

    # ---- questions ------------------------------------------------------------------------

    async def plan_refills_left(self, task: dict[str, Any]) -> bool:
        """Answer how many refills are left."""
        rx = await self.resolve_rx(task)
        if not isinstance(rx, dict):
            return rx is False
        self.say(f"{self.rx_label(rx)} has {rx['refills_left']} refill"
                 f"{'' if rx['refills_left'] == 1 else 's'} left; the prescription is valid until "
                 f"{long_date(rx['expires_on'])}.")
        return True

    async def plan_copay(self, task: dict[str, Any]) -> bool:
        """Answer the copay of a prescription."""
        rx = await self.resolve_rx(task)
        if not isinstance(rx, dict):
            return rx is False
        self.say(f"Your copay for {self.rx_label(rx)} is {money(rx['copay_usd'])} per fill.")
        return True

    async def plan_fee(self, task: dict[str, Any]) -> bool:
        """Answer what home delivery costs."""
        self.say(f"Home delivery costs {money(DELIVERY_FEE_USD)} per order, on top of your copay; "
                 "it arrives the next business day. Controlled substances can't be delivered.")
        return True

    async def plan_status(self, task: dict[str, Any]) -> bool:
        """Say where a refill order stands."""
        order = await self.resolve_order(task)
        if not isinstance(order, dict):
            return order is False
        ready = f"{fmt_time(order['ready_at'][11:])} on {fmt_date(order['ready_at'][:10])}"
        state = {"pending": f"being prepared; it will be ready from {ready}", "ready": "ready",
                 "picked_up": "already picked up", "cancelled": "cancelled"}[order["status"]]
        self.say(f"Refill {self.order_label(order)} is {state}.")
        return True

    # ---- refills --------------------------------------------------------------------------

    async def plan_refill(self, task: dict[str, Any]) -> bool:
        """Check the refill can be done, then propose it."""
        rx = await self.resolve_rx(task)
        if not isinstance(rx, dict):
            return rx is False
        label, doctor = self.rx_label(rx), rx["prescriber"]
        open_orders = [o for o in (await self.profile())["refill_orders"]
                       if o["rx_id"] == rx["rx_id"] and o["status"] in OPEN]
        if rx["expires_on"] < TODAY.isoformat():
            self.say(f"I'm sorry, I can't refill {label}: the prescription expired on "
                     f"{long_date(rx['expires_on'])}. You'll need a new prescription from "
                     f"{doctor}; once their office sends it, we can fill it.")
            return True
        if rx["refills_left"] <= 0:
            self.say(f"I'm sorry, {label} has no refills left, so I can't refill it. Please ask "
                     f"{doctor}'s office for a new prescription; once they send it to "
                     f"{rx['branch']}, we can fill it.")
            return True
        if open_orders:
            self.s["last_order"] = open_orders[0]["order_id"]
            if {t["kind"] for t in self.s["queue"]} & {"book", "delivery"}:
                return True  # "my refill delivered": the refill already exists
            self.say(f"{label} already has a refill in progress: "
                     f"{self.order_label(open_orders[0])}.")
            return True
        if rx["refill_eligible_on"] > TODAY.isoformat():
            return self.refuse_early(rx, task)
        return self.propose(
            "refill", f"I can refill {label}, {rx['quantity']} {rx['form']}, at {rx['branch']}. "
            f"It will be ready from {fmt_time(READY_TIME)} today and your copay is "
            f"{money(rx['copay_usd'])}. Shall I place the refill?", {"rx": rx["rx_id"]},
            rx=rx["rx_id"], override=False)

    def refuse_early(self, rx: dict[str, Any], task: dict[str, Any]) -> bool:
        """Too early: say when it can be refilled."""
        why = ("it's a controlled substance, so the earliest refill date is strict"
               if rx["controlled"] else "it's too soon after your last fill")
        self.say(f"I can't refill {self.rx_label(rx)} yet: {why}. You can request it from "
                 f"{fmt_date(rx['refill_eligible_on'])}.")
        return True

    async def execute(self, pend: dict[str, Any]) -> bool:
        """Carry out a confirmed proposal; True when the task is over."""
        return bool(await getattr(self, f"do_{pend['action']}")(pend))

    async def do_refill(self, pend: dict[str, Any]) -> bool:
        """Place the confirmed refill."""
        args = {"rx_id": pend["rx"], **({"override_early": True} if pend["override"] else {})}
        result, error = await self.call("request_refill", args)
        if error:
            self.say(f"I'm sorry, the refill didn't go through: {error}.")
            return True
        self.changed()
        self.s["last_order"] = result["order_id"]
        self.say(f"Done: refill {result['order_id']} for {result['drug']} is placed. It will be "
                 f"ready from {fmt_time(result['ready_at'][11:])} today at {result['branch']}, "
                 f"copay {money(result['copay_usd'])}.")
        facts, queued = self.s["facts"], {t["kind"] for t in self.s["queue"]}
        wants_time = facts["date"] or facts["time"] or facts["period"]
        if wants_time and not queued & {"book", "delivery"}:
            self.s["queue"].insert(0, {"kind": "book", "rx": pend["rx"], "order": None,
                                       "words": []})
        elif not queued & {"book", "delivery"}:
            self.say("You can pick it up any time during opening hours, or I can book a pick-up "
                     "time or arrange home delivery if you like.")
        return True
