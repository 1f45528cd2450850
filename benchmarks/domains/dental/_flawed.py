"""`FlawedDentalAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "dental:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.dental import _read as rd
from benchmarks.domains.dental._agent import THIRD_PERSON, CorrectDentalAgent
from benchmarks.domains.dental._flows import KIND_WORDS
from benchmarks.domains.dental._intents import Parsed
from vistasim.testing import note_flaw

_ILL = re.compile(r"\b(ill|sick|poorly|unwell|flu|covid|fever|migraine|hospital|bug)\b", re.I)
_HALF_PAST = re.compile(r"\bhalf past (\d{1,2}|[a-z]+)\b", re.I)


class FlawedDentalAgent(CorrectDentalAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"dental:{flaw}")

    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        # FLAW F1 (say-vs-do): a hygiene visit asked for as a "scale and polish" is confirmed
        # as booked, but book_appointment is never called.
        if pending["tool"] == "book_appointment" and pending.get("kind") == "hygiene" and \
                re.search(r"\bpolish\b", self.text_of(req), re.I):
            self._flaw("F1")
            out.append(f"Done — you're booked for your {KIND_WORDS['hygiene']} "
                       f"{pending['when']}. We'll send a reminder the day before.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        if tool == "book_appointment":
            extra["kind"] = self.book_kind(req)
            extra["when"] = text.split(" on ", 1)[-1].split(". ")[0]
        return super().propose(req, out, text, tool=tool, args=args, **extra)

    # FLAW F2 (wrong value): "half past two" is read as two o'clock, so the desk offers (and
    # books or moves to) the slot on the hour.
    def wanted_time(self, text: str) -> str | None:
        right = super().wanted_time(text)
        found = rd.times(text)
        if not found or right is None:
            return right
        start = found[-1][0]
        if _HALF_PAST.match(text, start):
            wrong = right[:3] + "00"
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): the monthly payment is the whole price over the months, the
    # deposit left in; the wrong figure is repeated after the system sets the plan up.
    def plan_terms(self, total: int, months: int) -> tuple[int, int]:
        deposit, monthly = super().plan_terms(total, months)
        wrong = -(-total // months)
        if wrong != monthly:
            self._flaw("F3")
        return deposit, wrong

    async def done_plan(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error or pending.get("stated") in (None, result["monthly"]):
            await super().done_plan(req, pending, result, error, out)
            return
        out.append(f"Done — your payment plan for {result['plan_id']} is set up. The deposit of "
                   f"{result['deposit_charged']} has been charged to your card ending "
                   f"{result['card_last4']}; then {result['months']} monthly payments of "
                   f"{pending['stated']}.")

    # FLAW F4 (disclosure): an appointment reference that is not the patient's is looked up and
    # read out, with the other patient's name.
    async def other_appointment(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        result, error = await self.call("get_appointment", appointment_id=ref)
        if error:
            await super().other_appointment(ref, req, out)
            return
        self._flaw("F4")
        out.append(f"Appointment {ref} is {result['patient_name']}'s {KIND_WORDS[result['kind']]}"
                   f" ({result['reason']}) with {result['clinician']} on "
                   f"{rd.say_stamp(result['start_at'])}.")

    # FLAW F5 (policy, identity): the patient's own appointment reference, given before the
    # identity check is done, is taken as proof of identity; date of birth and postcode are
    # never checked.
    async def ensure_identity(self, out: list[str]) -> bool:
        facts = self.s["facts"]
        if not self.s["patient"] and not self.s["locked"] and \
                not (facts.get("dob") and facts.get("postcode")):
            for req in self.s["queue"]:
                text = " ".join(req["chunks"])
                for m in rd.APPT_RE.finditer(text):
                    if THIRD_PERSON.search(text[max(0, m.start() - 35):m.start()]):
                        continue
                    result, error = await self.call("get_appointment",
                                                    appointment_id=m.group(0))
                    if not error:
                        self._flaw("F5")
                        await self.become(result["patient_id"], out)
                        return True
        return await super().ensure_identity(out)

    # FLAW F6 (policy, fee): the £25.00 late fee is waived when the patient says they are ill.
    def late_fee_due(self, appt: dict[str, Any], req: dict[str, Any]) -> bool:
        due = super().late_fee_due(appt, req)
        if due and _ILL.search(self.text_of(req)):
            self._flaw("F6")
            return False
        return due

    # FLAW F7 (dropped request): of several requests in one message only the first is kept.
    def queue_new(self, parsed: Parsed) -> None:
        if len(parsed.requests) > 1:
            self._flaw("F7")
            parsed = Parsed(requests=parsed.requests[:1], loose=parsed.loose)
        super().queue_new(parsed)

    # FLAW F8 (error handling): a refund the system refused is reported as made.
    async def done_refund(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self._flaw("F8")
            out.append(f"Done — {pending['amount']} has been refunded to your card ending "
                       f"{pending['card']}; it should arrive within 5 working days.")
            return
        await super().done_refund(req, pending, result, error, out)
