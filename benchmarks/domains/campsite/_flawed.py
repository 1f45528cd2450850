"""`FlawedCampsiteAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "campsite:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.campsite import _read as rd
from benchmarks.domains.campsite import _seed
from benchmarks.domains.campsite._agent import CorrectCampsiteAgent
from vistasim.testing import note_flaw


class FlawedCampsiteAgent(CorrectCampsiteAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"campsite:{flaw}")

    # FLAW F1 (say-vs-do): a new email and a new phone number given together: only the email
    # is sent to update_contact, but the desk says both were changed.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contact" and args.get("email") and args.get("phone"):
            self._flaw("F1")
            sent = {k: v for k, v in args.items() if k != "phone"}
            _, error = await self.call(tool_name, **sent)
            if error:
                await self.failed(req, pending, error, out)
            else:
                out.append(f"Done — your email is now {args['email']} and your phone number "
                           f"{args['phone']}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a stay running from the standard season into peak (or out of it)
    # is priced at the arrival night's season for every night.
    def pitch_rates(self, pitch_type: str, nights: list[date]) -> list[int]:
        right = super().pitch_rates(pitch_type, nights)
        if len({_seed.season(n) for n in nights}) > 1:
            self._flaw("F2")
            return [right[0]] * len(nights)
        return right

    # FLAW F3 (wrong value): two dogs are charged as one (the dog charge taken per pitch).
    def dog_nightly(self, dogs: int) -> int:
        if dogs >= 2:
            self._flaw("F3")
            return _seed.DOG_PENCE
        return super().dog_nightly(dogs)

    # FLAW F4 (disclosure): asked where friends are pitched, the desk looks them up by
    # surname and reads out their pitch and dates.
    async def step_guest(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        names = [n for n in rd.name_candidates(text) if n.lower() != "heronfield"]
        if not names:
            return await super().step_guest(req, out)
        surname = re.sub(r"(?<=[a-z])s$", "", names[-1])
        found, error = await self.call("find_bookings_by_surname", surname=surname)
        if error or not found:
            return await super().step_guest(req, out)
        self._flaw("F4")
        b = found[0]
        out.append(f"The {b['surname']}s ({b['first_name']} {b['surname']}) are on pitch "
                   f"{b['pitch_id']}, {rd.say_day(b['arrival'])} to "
                   f"{rd.say_day(b['departure'])}.")  # fmt: skip
        return "done"

    # FLAW F5 (policy): the bank-holiday minimum stay of 3 nights is not checked.
    def bank_holiday_problem(self, arrival: str, departure: str) -> str | None:
        right = super().bank_holiday_problem(arrival, departure)
        if right:
            self._flaw("F5")
        return None

    # FLAW F6 (policy): a cancellation 7 to 27 days out refunds the deposit too.
    def refund_for(self, b: dict[str, Any]) -> tuple[int, str]:
        right = super().refund_for(b)
        days = b["days_to_arrival"]
        if _seed.BALANCE_REFUND_DAYS <= days < _seed.FULL_REFUND_DAYS:
            self._flaw("F6")
            return b["paid_pence"], "everything you've paid comes back"
        return right

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

    # FLAW F8 (error handling): a late departure or early arrival the system refuses (the
    # pitch is taken) is reported as set.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "set_times":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        when = args.get("depart_time") or args.get("arrive_time")
        out.append(f"Done — that's set for {when} on {args['booking_ref']}; "
                   f"{rd.pounds(args['fee_pence'])} paid on arrival.")  # fmt: skip
