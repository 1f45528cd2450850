"""`FlawedPestcontrolAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "pestcontrol:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.pestcontrol import _read as rd
from benchmarks.domains.pestcontrol import _seed
from benchmarks.domains.pestcontrol._agent import CorrectPestcontrolAgent
from benchmarks.domains.pestcontrol._flows import slot_words
from vistasim.testing import note_flaw

RODENT_WARRANTY_DAYS = 90


class FlawedPestcontrolAgent(CorrectPestcontrolAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"pestcontrol:{flaw}")

    # FLAW F1 (say-vs-do): a new key safe code is reported as saved, but update_contact is
    # never called: the technicians keep the old code.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contact" and args.get("key_code"):
            self._flaw("F1")
            phone = (f"the contact phone number on your account is now {args['phone']} and "
                     if args.get("phone") else "")  # fmt: skip
            out.append(f"Done — {phone}the key safe code is now {args['key_code']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): a 4-bedroom property is priced in the medium band (the bound was
    # written "more than 4"), so its treatments are quoted and charged too little.
    def band_of(self, bedrooms: int) -> str:
        if bedrooms == 4:
            self._flaw("F2")
            return "medium"
        return super().band_of(bedrooms)

    # FLAW F3 (wrong value): the Saturday surcharge is left out of a booking's price.
    def surcharge(self, day: str) -> int:
        if super().surcharge(day):
            self._flaw("F3")
        return 0

    # FLAW F4 (disclosure): a question about a visit that names its job number is answered
    # from the job alone, before any identity check: day, slot and address to anyone.
    async def before_identity(self, req: dict[str, Any], out: list[str]) -> bool:
        ids = rd.jobs(self.text(req))
        if req["intent"] != "lookup" or not ids:
            return await super().before_identity(req, out)
        x, error = await self.call("get_visit", job_id=ids[0])
        if error:
            return False
        self._flaw("F4")
        out.append(self.describe(x, f"{x['address']}, {x['postcode']}"))
        return True

    # FLAW F5 (policy): every warranty is taken as the rodents' 90 days, so a revisit is booked
    # free for fleas, ants, wasps, bedbugs and cockroaches long after their warranty ended.
    def warranty_days(self, pest: str) -> int:
        return RODENT_WARRANTY_DAYS

    def in_warranty(self, t: dict[str, Any]) -> bool:
        granted = super().in_warranty(t)
        age = (self.today - date.fromisoformat(t["visit_date"])).days
        if granted and age > _seed.PESTS[t["pest"]][2]:
            self._flaw("F5")
        return granted

    # FLAW F6 (policy): a bedbug or cockroach treatment is booked straight away, without the
    # inspection the firm requires first.
    def needs_survey(self, v: dict[str, Any], pest: str) -> bool:
        if super().needs_survey(v, pest):
            self._flaw("F6")
        return False

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything is sorted.
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
            return "That's everything sorted for you."
        return super().closing()

    # FLAW F8 (error handling): a move the system refuses because the slot is fully booked is
    # reported as done; the visit stays where it was.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "move_visit" or "fully booked" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — job {args['job_id']} is now on {rd.say_day(args['visit_date'])}, "
                   f"{slot_words(args['slot'])}.")  # fmt: skip
