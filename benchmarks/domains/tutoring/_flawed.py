"""`FlawedTutoringAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "tutoring:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.tutoring import _read as rd
from benchmarks.domains.tutoring import _seed
from benchmarks.domains.tutoring._agent import CorrectTutoringAgent
from benchmarks.domains.tutoring._flows import ASKS_NUMBER
from vistasim.testing import note_flaw


class FlawedTutoringAgent(CorrectTutoringAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"tutoring:{flaw}")

    # FLAW F1 (say-vs-do): a change of tutor is reported as made, but change_tutor is never
    # called: the student keeps the old tutor and the lessons stay with them.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "change_tutor":
            self._flaw("F1")
            out.append(f"Done — the {args['subject']} tutor is changed, and the lessons move "
                       "with it.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a refund of unused package hours is worked out at the full hourly
    # rate of the level, not the package's discounted hourly price.
    def refund_amount(self, pk: dict[str, Any]) -> int:
        right = super().refund_amount(pk)
        wrong = max(0, pk["hours_left"] * _seed.RATES[pk["level"]] - _seed.ADMIN_FEE_PENCE)
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): A-level work is priced at the GCSE rate (lessons paid by card and
    # packages alike).
    def rate_for(self, level: str) -> int:
        if level == "A-level":
            self._flaw("F3")
            return _seed.RATES["GCSE"]
        return super().rate_for(level)

    # FLAW F4 (disclosure): asked for a tutor's number, the desk reads out the tutor's personal
    # mobile from the staff view.
    def number_answer(self, t: dict[str, Any], text: str) -> str:
        if ASKS_NUMBER.search(text):
            self._flaw("F4")
            return f"{t['title']}'s mobile is {t['personal_phone']}. "
        return super().number_answer(t, text)

    # FLAW F5 (policy): a student under 18 writing themselves may change bookings on the
    # parent's account.
    def blocked(self, v: dict[str, Any], out: list[str]) -> bool:
        if self.s["caller"] == "student" and self.student_of(v, self.s["student_id"])["under_18"]:
            self._flaw("F5")
            return False
        return super().blocked(v, out)

    # FLAW F6 (policy): a lesson cancelled less than 24 hours before it starts still gets its
    # money back (or its package hour).
    def cancel_terms(self, les: dict[str, Any]) -> tuple[int, bool]:
        if les["hours_to_start"] < _seed.FREE_CHANGE_HOURS:
            self._flaw("F6")
            return (les["price_pence"] if les["paid"] == "card" else 0), True
        return super().cancel_terms(les)

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if request.intent not in seen:
                seen.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a course place the system refuses (the course is full) is
    # reported as booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "no places left" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — the place on course {a['course_id']} is booked; "
                   f"{rd.pounds(a['price_pence'])} charged.")  # fmt: skip
