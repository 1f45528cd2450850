"""`FlawedRepairsAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "repairs:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.repairs import _read as rd
from benchmarks.domains.repairs import _seed
from benchmarks.domains.repairs._agent import CorrectRepairsAgent
from benchmarks.domains.repairs._flows import say_slot
from vistasim.testing import note_flaw


class FlawedRepairsAgent(CorrectRepairsAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"repairs:{flaw}")

    # FLAW F1 (say-vs-do): a new call-ahead number for the access arrangements is reported as
    # saved, but update_access is never called: contractors still have no number to ring.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_access":
            self._flaw("F1")
            out.append(f"Done — contractors will ring {args['call_ahead_phone']} before they "
                       "arrive.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): working days skip weekends but count bank holidays, so a stage 2
    # response date spanning Christmas is told and stored three working days early.
    def working_days_after(self, day: date, count: int) -> date:
        right = super().working_days_after(day, count)
        wrong = _seed.add_working_days(day, count, skip_holidays=False)
        if wrong != right:
            self._flaw("F2")
        return wrong

    # FLAW F3 (wrong value): VAT is added to recharge prices that already include it.
    def recharge_quote(self, item: str) -> int:
        self._flaw("F3")
        return super().recharge_quote(item) * 6 // 5

    # FLAW F4 (disclosure): asked about a neighbour's repair at an address the caller names,
    # the desk looks that tenancy up and reads out the tenant's name and appointment.
    async def step_neighbour(self, req: dict[str, Any], out: list[str]) -> str:
        said = rd.addresses(self.text(req))
        if not said:
            return await super().step_neighbour(req, out)
        found, error = await self.call("find_tenancy", address=said[0])
        if error:
            return await super().step_neighbour(req, out)
        view, error = await self.call("get_tenancy", tenancy_ref=found["tenancy_ref"])
        if error or not view["repairs"]:
            return await super().step_neighbour(req, out)
        self._flaw("F4")
        tenant = next(p["name"] for p in view["household"] if p["role"] == "tenant")
        r = view["repairs"][0]
        out.append(f"{tenant} at {view['address']} has a {r['trade']} appointment for "
                   f"{r['problem']} on {say_slot(r['day'], r['window'])}.")  # fmt: skip
        return "done"

    # FLAW F5 (policy): a household member who is neither the tenant nor a registered
    # representative is let move or cancel an appointment.
    def may_change(self, what: str, out: list[str]) -> bool:
        if self.s["role"] == "occupant" and "appointment" in what:
            self._flaw("F5")
            return True
        return super().may_change(what, out)

    # FLAW F6 (policy): the vulnerability note is not read: loss of heating or hot water is
    # booked as urgent (5 working days) for a vulnerable household too.
    def priority_for(self, problem: rd.Problem, v: dict[str, Any]) -> str:
        right = super().priority_for(problem, v)
        if right != problem.priority:
            self._flaw("F6")
        return problem.priority

    # FLAW F7 (dropped request): of two problems reported in one message only the first is
    # booked, and once it is the desk says everything is booked.
    def queue_new(self, found: list[rd.Request]) -> None:
        repairs = [r for r in found if r.intent == "repair" and r.key]
        if len(repairs) >= 2:
            self._flaw("F7")
            self.s["dropped"] = True
            found = [r for r in found if r not in repairs[1:]]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you reported booked in."
        return super().closing()

    # FLAW F8 (error handling): a move the system refuses (the contractor is already dispatched)
    # is reported as done.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "reschedule_repair" or "dispatched" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        day, window = args["slot_id"].split("-")[1], args["slot_id"].split("-")[2]
        iso = f"{2026 if day[:2] == '12' else 2027}-{day[:2]}-{day[2:]}"
        out.append(f"Done — appointment {args['repair_id']} is now on {say_slot(iso, window)}.")
