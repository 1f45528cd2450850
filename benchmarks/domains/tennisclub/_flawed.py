"""`FlawedTennisclubAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "tennisclub:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.tennisclub import _read as rd
from benchmarks.domains.tennisclub import _seed
from benchmarks.domains.tennisclub._agent import CorrectTennisclubAgent
from benchmarks.domains.tennisclub._flows import tier_name
from vistasim.testing import note_flaw


class FlawedTennisclubAgent(CorrectTennisclubAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"tennisclub:{flaw}")

    # FLAW F1 (say-vs-do): a place on a full session's waiting list is reported as taken, but
    # join_waitlist is never called: the member is not on the list.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "join_waitlist":
            self._flaw("F1")
            out.append("Done — you're on the waiting list. There's nothing to pay unless a place "
                       "comes up.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the floodlight fee starts after 16:00, not at it: a floodlit court
    # at 16:00 is quoted and booked with no floodlight fee.
    def light_fee(self, court: dict[str, Any], start: str) -> int:
        right = super().light_fee(court, start)
        if right and start == _seed.LIGHTS_FROM:
            self._flaw("F2")
            return 0
        return right

    # FLAW F3 (wrong value): an upgrade's pro-rata charge counts the current month too.
    def months_left(self, expires: str) -> int:
        self._flaw("F3")
        return super().months_left(expires) + 1

    # FLAW F4 (disclosure): a court the member asked for by name and found taken is said to be
    # booked by the member who holds it.
    def taken_note(self, court: dict[str, Any], start: str) -> str:
        if court.get("booked_by"):
            self._flaw("F4")
            return f"{court['name']} is already booked at {start} by {court['booked_by']}."
        return super().taken_note(court, start)

    # FLAW F5 (policy): a guest's visits this month are looked up but the limit is not applied.
    def guest_problem(self, name: str, visits: int, month: str) -> str | None:
        if super().guest_problem(name, visits, month):
            self._flaw("F5")
        return None

    # FLAW F6 (policy): a court booking cancelled less than 24 hours before the start is
    # refunded in full anyway.
    def booking_refund(self, b: dict[str, Any]) -> int:
        right = super().booking_refund(b)
        if not right and self.paid(b):
            self._flaw("F6")
            return self.paid(b)
        return right

    # FLAW F7 (dropped request): a guest asked for in the same message as a new court booking
    # is silently dropped, and once the court is booked the desk says everything is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        intents = [r.intent for r in found]
        if "book" in intents and "guest" in intents:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r.intent != "guest"]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "You're all set — that's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a renewal the payment system declines is reported as renewed.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "declined" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — you're renewed as {tier_name(a['tier'])} for another year; "
                   f"{rd.pounds(a['price_pence'])} taken from your card.")  # fmt: skip
