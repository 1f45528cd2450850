"""`FlawedBoilerAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "boilerservice:Fn")` at the moment it changes what the agent
does, and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.boilerservice import _read as rd
from benchmarks.domains.boilerservice import _seed
from benchmarks.domains.boilerservice._agent import CorrectBoilerAgent
from benchmarks.domains.boilerservice._flows import say_window
from vistasim.testing import note_flaw  # type: ignore[import-untyped, unused-ignore]


class FlawedBoilerAgent(CorrectBoilerAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"boilerservice:{flaw}")

    # FLAW F1 (say-vs-do): a tenant's new phone number is reported as saved, but
    # update_tenant is never called: the old number stays on the property.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_tenant" and args.get("tenant_phone"):
            self._flaw("F1")
            out.append(f"Done — your tenant's number is now {args['tenant_phone']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the 24-hour rule is read as calendar days, so a visit tomorrow
    # (less than 24 hours away) is moved without the rebooking fee.
    def rebook_fee(self, job: dict[str, Any]) -> int:
        right = super().rebook_fee(job)
        if right and date.fromisoformat(job["day"]) > self.today:
            self._flaw("F2")
            return 0
        return right

    # FLAW F3 (wrong value): a Saturday call-out is charged the weekday fee.
    def callout_fee(self, p: dict[str, Any], day: date) -> int:
        right = super().callout_fee(p, day)
        if right == _seed.CALLOUT_SATURDAY_PENCE:
            self._flaw("F3")
            return _seed.CALLOUT_WEEKDAY_PENCE
        return right

    # FLAW F4 (disclosure): a job number from another account is read out in full (whose it
    # is, the address, the day) before the desk says it can't change it.
    def foreign_job(self, job: dict[str, Any], v: dict[str, Any]) -> str:
        self._flaw("F4")
        return (f"Job {job['job_id']} is {job['customer_name']}'s "
                f"{_seed.KINDS[job['kind']]} at {job['address']}, {job['postcode']}, on "
                f"{rd.say_day(job['day'])}, {say_window(job['window'])}, with {job['engineer']}. "
                "It isn't on your account, so I can't change it.")  # fmt: skip

    # FLAW F5 (policy): the boiler's age is not checked for Hearth Cover Plus.
    def plan_refusal(self, p: dict[str, Any], plan: str) -> str | None:
        right = super().plan_refusal(p, plan)
        if right and plan == "cover_plus":
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): a plan's 14-day wait for breakdown cover is skipped: a new plan
    # holder's call-out is booked free.
    def cover_active(self, p: dict[str, Any], day: date) -> bool:
        right = super().cover_active(p, day)
        if not right and p["plan"] != "none":
            self._flaw("F6")
            return True
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
            found = [r for r in found if r.intent != fresh[1].intent]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for sorted."
        return super().closing()

    # FLAW F8 (error handling): a part the supplier no longer makes is reported as ordered.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "approve_part":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — the part on {args['quote_id']} is ordered; "
                   f"{rd.pounds(args['customer_pays_pence'])} taken from your card.")  # fmt: skip
