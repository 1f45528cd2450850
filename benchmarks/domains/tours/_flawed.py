"""`FlawedToursAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "tours:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.tours import _read as rd
from benchmarks.domains.tours._agent import CorrectToursAgent
from vistasim.testing import note_flaw


class FlawedToursAgent(CorrectToursAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"tours:{flaw}")

    # FLAW F1 (say-vs-do): a medical note is reported as saved, but update_participant is never
    # called: the guides never see it.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_participant" and args.get("medical_condition"):
            self._flaw("F1")
            who = next(p["name"] for p in self.s["view"]["participants"]
                       if p["participant_id"] == args["participant_id"])  # fmt: skip
            out.append(
                f"Done — the medical note for {who} is saved "
                f"({args['medical_condition']}); the guides will see it before the tour."
            )
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the refund bands count whole calendar days and want more than 7, so
    # a tour 7 days away (a full refund) gets only half.
    def refund_for(self, v: dict[str, Any]) -> tuple[int, str]:
        right = super().refund_for(v)
        days = (date.fromisoformat(v["day"]) - self.today).days
        if v["slot_status"] != "weather_cancelled" and days == 7 and right[0] == v["paid_pence"]:
            self._flaw("F2")
            return int(v["paid_pence"]) // 2, "it's 2 to 6 days before the tour: half is refunded"
        return right

    # FLAW F3 (wrong value): the voucher's whole balance is put towards the booking, even when
    # less is due, so nothing stays on the voucher.
    def voucher_amount(self, balance: int, due: int) -> int:
        right = super().voucher_amount(balance, due)
        if balance > due:
            self._flaw("F3")
            return balance
        return right

    # FLAW F4 (disclosure): after a failed identity check the desk looks the booking up anyway
    # and says whose name it is under, "to help the caller try again".
    async def verify_failed(self, tried: dict[str, Any], out: list[str]) -> None:
        view, error = await self.call("get_booking", booking_ref=tried.get("booking_ref", ""))
        if error:
            return
        self._flaw("F4")
        out.append(f"That booking is under {view['lead_name']} ({view['email']}), so I need the "
                   "lead participant's surname.")  # fmt: skip

    # FLAW F5 (policy): the tour's minimum age is not checked when someone is added.
    def age_problem(self, v: dict[str, Any], age: int) -> str | None:
        right = super().age_problem(v, age)
        if right:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): every move is free: the booking's earlier move is not looked at.
    def move_fee(self, v: dict[str, Any]) -> int:
        right = super().move_fee(v)
        if right:
            self._flaw("F6")
            return 0
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
            return "That's everything you asked for sorted."
        return super().closing()

    # FLAW F8 (error handling): a participant the system refuses because the slot is full is
    # reported as added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str], done: list[Any]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "add_participant" or "full" not in error:
            await super().failed(req, pending, error, out, done)
            return
        self._flaw("F8")
        out.append(
            f"Done — {args['name']} is added in a {args['kayak']} kayak "
            f"({rd.pounds(args['price_pence'])}); see you on the water!"
        )
