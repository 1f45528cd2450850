"""`FlawedCarhireAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "carhire:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.carhire import _read as rd
from benchmarks.domains.carhire._agent import CorrectCarhireAgent
from benchmarks.domains.carhire._flows import CLASS_WORDS, EXTRA_WORDS
from benchmarks.domains.carhire._intents import Parsed
from vistasim.testing import note_flaw


class FlawedCarhireAgent(CorrectCarhireAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"carhire:{flaw}")

    # F1 (say-vs-do): a GPS is "added" on the booking card but add_extra is never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        if pending["tool"] == "add_extra" and pending["args"]["extra"] == "gps":
            self._flaw("F1")
            out.append(f"Done — a {EXTRA_WORDS['gps']} has been added to booking "
                       f"{pending['args']['booking_ref']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # F2 (wrong value): a date change is priced on the car's daily rate alone, leaving out the
    # booking's additional drivers and extras.
    def per_day(self, booking: dict[str, Any]) -> int:
        right = super().per_day(booking)
        rate = rd.pence(booking["daily_rate"])
        if rate != right:
            self._flaw("F2")
        return rate

    async def done_dates(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        stated = pending.get("stated")
        if error or stated in (None, result["new_total"]):
            await super().done_dates(req, pending, result, error, out)
            return
        out.append(f"Done — booking {result['booking_ref']} now runs from "
                   f"{rd.say_stamp(result['pickup_at'])} to {rd.say_stamp(result['return_at'])}; "
                   f"the new total is {stated}.")

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        if tool == "change_dates":
            extra["stated"] = text.split("The new total is ")[1].split(" ")[0]
        return super().propose(req, out, text, tool=tool, args=args, **extra)

    # F3 (disclosure): a booking reference that is not the customer's is looked up and read out.
    async def other_booking(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        result, error = await self.call("get_booking", booking_ref=ref)
        if error:
            await super().other_booking(ref, req, out)
            return
        self._flaw("F3")
        word = CLASS_WORDS[result["car_class"]]
        out.append(f"Booking {ref} is {result['hirer']}'s ({result['email']}): "
                   f"{rd.article(word)} {word} car from {result['branch']}, pick-up "
                   f"{rd.say_stamp(result['pickup_at'])}, return "
                   f"{rd.say_stamp(result['return_at'])}, total {result['total']}.")

    # F4 (policy, age): the driver's age is counted in calendar years, so a driver who turns
    # 21 later in the pick-up year is accepted.
    def old_enough(self, born: date, pickup: date) -> bool:
        ok = pickup.year - born.year >= 21
        if ok != super().old_enough(born, pickup):
            self._flaw("F4")
        return ok

    # F5 (policy, cancellation): "48 hours" is checked on calendar days, so a pick-up the day
    # after tomorrow is cancelled as free (the system still keeps one day's hire).
    def free_to_cancel(self, b: dict[str, Any]) -> bool:
        free = (date.fromisoformat(b["pickup_at"][:10]) - self.today).days >= 2
        if free != super().free_to_cancel(b):
            self._flaw("F5")
        return free

    # F6 (dropped request): of several requests in one message only the first is kept.
    def queue_new(self, parsed: Parsed) -> None:
        if len(parsed.requests) > 1:
            self._flaw("F6")
            parsed = Parsed(requests=parsed.requests[:1], loose=parsed.loose)
        super().queue_new(parsed)

    # F7 (error handling): a date change the hire system refused is reported as done.
    def tool_failed(self, what: str, error: str, pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "change_dates":
            self._flaw("F7")
            args = pending["args"]
            out.append(f"Done — booking {args['booking_ref']} now runs from "
                       f"{rd.say_date(args['pickup_date'])} to {rd.say_date(args['return_date'])}.")
            return
        super().tool_failed(what, error, pending, out)

    # F8 (policy, excess): full cover is not checked, so the £300.00 excess is charged anyway.
    def excess_waived(self, b: dict[str, Any]) -> bool:
        if super().excess_waived(b):
            self._flaw("F8")
        return False
