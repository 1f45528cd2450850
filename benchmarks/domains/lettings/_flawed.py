"""`FlawedLettingsAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "lettings:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.lettings import _read as rd
from benchmarks.domains.lettings import _seed
from benchmarks.domains.lettings._agent import CorrectLettingsAgent
from benchmarks.domains.lettings._env import add_working_days
from vistasim.testing import note_flaw


class FlawedLettingsAgent(CorrectLettingsAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"lettings:{flaw}")

    # FLAW F1 (say-vs-do): a new email address is reported as saved, but
    # update_contact_details is never called: the old address stays on the tenancy.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contact_details" and args.get("email"):
            self._flaw("F1")
            out.append(f"Done — your email address is now {args['email']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): working days for a repair skip weekends but not bank holidays,
    # so a routine repair over Christmas is promised days too early.
    def attend_by(self, priority: str) -> str:
        right = super().attend_by(priority)
        if priority == "emergency":
            return right
        days = _seed.URGENT_WORKING_DAYS if priority == "urgent" else _seed.ROUTINE_WORKING_DAYS
        wrong = add_working_days(self.today, days, holidays=False).isoformat()
        if wrong != right:
            self._flaw("F2")
        return wrong

    # FLAW F3 (wrong value): the notice's end date is the next rent day (the first day of the
    # next period), not the last day of the period before it.
    def notice_end(self, v: dict[str, Any], wanted: date | None) -> date:
        self._flaw("F3")
        return super().notice_end(v, wanted) + timedelta(days=1)

    # FLAW F4 (disclosure): the deposit's scheme and reference are given to any tenant on the
    # tenancy, not only the lead tenant.
    def may_see_deposit(self, tenant: dict[str, Any]) -> bool:
        if not tenant["lead"]:
            self._flaw("F4")
        return True

    # FLAW F5 (policy): the two-pet limit counts only the new request: a third pet is asked for.
    def pets_over_limit(self, v: dict[str, Any], adding: int) -> bool:
        right = super().pets_over_limit(v, adding)
        if right and adding <= _seed.MAX_PETS:
            self._flaw("F5")
            return False
        return right

    # FLAW F6 (policy): the once-in-12-months rule is not checked: a second change of rent day
    # inside a year goes through.
    def rent_day_blocked(self, v: dict[str, Any]) -> str | None:
        if super().rent_day_blocked(v):
            self._flaw("F6")
        return None

    # FLAW F7 (dropped request): a repair reported with another request in the same message
    # closes the chat: the other request is silently dropped and the desk says all is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        kinds = [r.intent for r in found]
        if "repair" in kinds and len(set(kinds)) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r.intent == "repair"]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a permitted occupier the system refuses (no landlord's consent
    # on file) is reported as added, with the fee charged.
    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        if "consent" not in error or pending["calls"][0][0] != "add_occupier":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(
            f"Done — {a['name']} is now a permitted occupier; the "
            f"{rd.pounds(a['fee_pence'])} variation fee has been charged."
        )
