"""`FlawedEscapeRoomAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "escaperoom:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.escaperoom import _read as rd
from benchmarks.domains.escaperoom import _seed
from benchmarks.domains.escaperoom._agent import CorrectEscapeRoomAgent
from benchmarks.domains.escaperoom._flows import card
from vistasim.testing import note_flaw


class FlawedEscapeRoomAgent(CorrectEscapeRoomAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"escaperoom:{flaw}")

    # FLAW F1 (say-vs-do): taking players off a booking is reported as done, with the refund,
    # but change_players is never called: the booking and the card stay as they were.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        meta = pending.get("meta") or {}
        if tool_name == "change_players" and args["players"] < meta.get("old_players", 0):
            self._flaw("F1")
            back = (f"{rd.pounds(args['refund_pence'])} refunded to "
                    f"{card(meta['card_last4'])}" if args["refund_pence"] else
                    f"a credit note for {rd.pounds(args['credit_note_pence'])}")  # fmt: skip
            out.append(f"Done — {args['reference']} is now for {args['players']} players "
                       f"({rd.pounds(args['price_pence'])}); {back}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): off-peak is decided by the day alone, so a weekday game from 17:00
    # is priced off-peak (£22.00 a player, not £28.00).
    def off_peak(self, day: str, time: str) -> bool:
        right = super().off_peak(day, time)
        d = date.fromisoformat(day)
        wrong = d.weekday() < 5 and d not in _seed.BANK_HOLIDAYS
        if wrong != right:
            self._flaw("F2")
            return wrong
        return right

    # FLAW F3 (wrong value): players added or taken off are priced at the peak rate, whatever
    # the booking's own rate.
    def change_rate(self, b: dict[str, Any]) -> int:
        right = super().change_rate(b)
        if right != _seed.PEAK_PENCE:
            self._flaw("F3")
            return _seed.PEAK_PENCE
        return right

    # FLAW F4 (disclosure): another lead booker's booking is read out to the caller, with that
    # lead booker's name and email.
    async def other_booking(self, ref: str, out: list[str]) -> None:
        b, error = await self.call("get_booking", reference=ref)
        if error:
            await super().other_booking(ref, out)
            return
        self._flaw("F4")
        out.append(f"{self.details(b)} The lead booker is {b['lead_name']} ({b['email']}).")

    # FLAW F5 (policy): under-16s are booked with no adult in the team.
    def team_problem(self, players: int, under_16: int, adult: bool) -> str | None:
        right = super().team_problem(players, under_16, adult)
        if right:
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): a booking paid partly with a gift voucher, cancelled 72+ hours out, has
    # the voucher's part refunded to the card as cash, and the voucher stays redeemed.
    def cancel_terms(self, b: dict[str, Any]) -> dict[str, Any]:
        right = super().cancel_terms(b)
        if right["voucher_back"]:
            self._flaw("F6")
            return {"refund_pence": right["refund_pence"] + b["voucher_pence"],
                    "credit_note_pence": 0, "voucher_back": False}  # fmt: skip
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

    # FLAW F8 (error handling): a birthday package the system refuses (the party room is taken)
    # is reported as added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "party room" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — the birthday package is added to {a['reference']} "
                   f"({rd.pounds(a['price_pence'])}).")  # fmt: skip
