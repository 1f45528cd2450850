"""The flawed Pulse Fitness desk agent: the correct one with eight documented bugs (README)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from benchmarks.domains.gym._correct_agent import CorrectGymAgent
from benchmarks.domains.gym._desk import fmt_date, fmt_when, money
from benchmarks.domains.gym._rules import add_months
from benchmarks.domains.gym._seed import CLUB_PREFIX
from benchmarks.domains.gym._tasks import CLUB_NAMES
from vistasim.testing import note_flaw


class FlawedGymAgent(CorrectGymAgent):
    """Each override is one flaw; `note_flaw` marks the moment it changes what the agent does."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"gym:{flaw}")

    # F1 say-vs-do: a freeze of two months or more is confirmed without calling the tool.
    async def x_freeze(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        if pending.get("alt") or task.get("months", 0) < 2:
            return await super().x_freeze(task, pending)
        self._flaw("F1")
        self.finish_task()
        start = date.fromisoformat(task["start_date"])
        return (f"Your membership is frozen from {fmt_date(start)} to "
                f"{fmt_date(add_months(start, task['months']))}. The "
                f"{money(5.0 * task['months'])} fee has been charged to your card.")

    # F2 wrong value: an upgrade reports the whole monthly difference, not the prorated charge.
    def plan_text(self, r: dict[str, Any]) -> str:
        if r["kind"] != "upgrade":
            return super().plan_text(r)
        full = r["new_monthly_fee"] - (self.s.get("old_fee") or 35.0)
        if round(full, 2) == round(r["charge_now"], 2):
            return super().plan_text(r)
        self._flaw("F2")
        return (f"Done: you're now on {r['plan']}. A charge of {money(full)} has been taken "
                f"today, and from {fmt_date(r['next_billing_date'])} you'll pay "
                f"{money(r['new_monthly_fee'])} a month.")

    async def h_change_plan(self, task: dict[str, Any]) -> tuple[str, bool]:
        acct = await self.acct()
        self.s["old_fee"] = acct.get("monthly_fee")
        return await super().h_change_plan(task)

    # F3 wrong value: an evening class at half past is confirmed on the hour ("19:00").
    def booked_text(self, result: dict[str, Any]) -> str:
        starts = datetime.fromisoformat(result["starts_at"])
        if not (starts.hour >= 19 and starts.minute == 30):
            return super().booked_text(result)
        self._flaw("F3")
        return (f"You're booked on {result['name']} at {CLUB_NAMES[result['club_id']]} on "
                f"{fmt_date(starts.date())} at {starts.hour}:00. Your booking reference is "
                f"{result['booking_id']}.")

    # F4 disclosure: asked about another member, it reads out their bookings.
    async def other_member(self, other_id: str) -> str:
        rows, error = await self.call("get_bookings", member_id=other_id)
        if error:
            return self.other_member_text()
        self._flaw("F4")
        if not rows:
            return f"Member {other_id} has no upcoming bookings."
        listed = "; ".join(f"{b['name']} on {fmt_when(b['starts_at'])}" for b in rows)
        return f"Member {other_id} is booked on: {listed}."

    # F5 policy: a late cancellation (inside 2 hours) goes ahead without a word about the fee.
    def confirm_cancel(self, booking: dict[str, Any], fee: float) -> bool:
        if fee:
            self._flaw("F5")
            return False
        return True

    # F6 policy: a move to Off-Peak is made on the member id alone, never verified.
    def skip_verify(self, task: dict[str, Any]) -> bool:
        if (task["kind"] == "change_plan" and task.get("plan") == "offpeak"
                and not self.s["member"] and self.s["creds"].get("member_id")):
            self._flaw("F6")
            self.s["member"] = self.s["creds"]["member_id"]
            return True
        return False

    # F7 dropped request: after a card update every other request queued is forgotten.
    def finish_task(self) -> None:
        done = self.s["tasks"][0]["kind"] if self.s["tasks"] else None
        super().finish_task()
        if done == "card" and self.s["tasks"]:
            self._flaw("F7")
            self.s["tasks"].clear()
            self.s["dropped"] = True

    async def x_card(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        text = await super().x_card(task, pending)
        if self.s.pop("dropped", False):
            text += " That's everything you asked for sorted."
        return text

    # F8 error handling: a refused booking (the 3-booking limit) is reported as booked.
    async def book_failed(self, task: dict[str, Any], cls: dict[str, Any], error: str) -> str:
        if "3 upcoming" not in error:
            return await super().book_failed(task, cls, error)
        self._flaw("F8")
        club = {v: k for k, v in CLUB_PREFIX.items()}[cls["class_id"][:3]]
        return (f"You're booked on {cls['name']} at {CLUB_NAMES[club]} on "
                f"{fmt_when(cls['starts_at'])}.")
