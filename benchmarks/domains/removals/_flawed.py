"""`FlawedRemovalsAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "removals:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.removals import _read as rd
from benchmarks.domains.removals._agent import CorrectRemovalsAgent
from vistasim.agent import Reply, Turn
from vistasim.testing import note_flaw


class FlawedRemovalsAgent(CorrectRemovalsAgent):
    """The same desk, with eight documented flaws."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._noted: set[str] = set()

    async def respond(self, turn: Turn) -> Reply:
        self._noted = set()
        return await super().respond(turn)

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None and flaw not in self._noted:
            self._noted.add(flaw)
            note_flaw(self.turn, f"removals:{flaw}")

    # FLAW F1 (disclosure): a caller who cannot give the postcode moved from, or gives a wrong
    # one, is read the move anyway from the staff look-up: name, both addresses, date, price.
    async def _disclose(self, ref: str | None, out: list[str]) -> bool:
        if not ref:
            return False
        view, error = await self.call("get_move", move_ref=ref)
        if error:
            return False
        self._flaw("F1")
        self.s["queue"] = []
        self.s["asked"] = None
        self.s["facts"].clear()
        out.append(
            f"Move {view['move_ref']} is for {view['name']}, on {rd.say_date(view['move_date'])}, "
            f"from {view['from_address']}, {view['from_postcode']} to {view['to_address']}, "
            f"{view['to_postcode']}, at {view['price']}."
        )
        return True

    async def no_identity(self, message: str, out: list[str]) -> bool:
        if await self._disclose(self.s["facts"].get("ref"), out):
            return True
        return await super().no_identity(message, out)

    async def verify_failed(self, ref: str, out: list[str]) -> bool:
        return await self._disclose(ref, out)

    # FLAW F2 (say-vs-do): a new phone number or email is reported as saved, but
    # update_contact is never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "update_contact":
            self._flaw("F2")
            args = pending["args"]
            new = " and ".join(x for x in (args["phone"], args["email"]) if x)
            out.append(f"Done — we'll now use {new}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F3 (wrong value): of two dates in a request ("20 January — sorry, I meant 22
    # January"), the first one said is used, not the corrected one.
    def pick_date(self, text: str) -> date | None:
        right = super().pick_date(text)
        said = rd.dates(text, self.today, all_said=True)
        if (
            said
            and right
            and said[0] != right
            and said[0].isoformat() != self.s["view"].get("move_date")
        ):
            self._flaw("F3")
            return said[0]
        return right

    # FLAW F4 (policy): the date-change fee for a move 3 to 9 days away is never charged, and
    # the desk says the change is free.
    def date_fee(self, days: int) -> int:
        if super().date_fee(days):
            self._flaw("F4")
        return 0

    # FLAW F5 (policy): a move cancelled fewer than 14 days before still gets its deposit back.
    def deposit_back(self, days: int) -> bool:
        if not super().deposit_back(days):
            self._flaw("F5")
        return True

    # FLAW F6 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        current = self.current()
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if (current is None or request.intent != current["intent"]) and (
                request.intent not in seen
            ):
                seen.add(request.intent)
                fresh.append(request)
        if len(fresh) >= 2:
            self._flaw("F6")
            self.s["dropped"] = True
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    async def _handle(self, message: str, out: list[str]) -> None:
        await super()._handle(message, out)
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            if out and out[-1] == "Is there anything else I can help with?":
                out.pop()
            out.append("That's everything you asked for sorted. Anything else?")

    # FLAW F7 (error handling): a date change the system refuses because the day is fully
    # booked is reported as done.
    async def done_date(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error and "fully booked" in error:
            self._flaw("F7")
            out.append(f"Done — your move is now on {rd.say_date(pending['args']['new_date'])}.")
            return False
        return await super().done_date(req, pending, result, error, out)

    # FLAW F8 (wrong value): a damage claim is quoted at the item's full value, ignoring the
    # per-item cap, and the quoted figure is repeated after the system registered less.
    def claim_payable(self, view: dict[str, Any], value: int) -> int:
        if super().claim_payable(view, value) != value:
            self._flaw("F8")
        return value

    async def done_claim(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error or pending.get("stated") in (None, result["payable"]):
            return await super().done_claim(req, pending, result, error, out)
        out.append(
            f"Done — claim {result['claim_id']} for your {result['item']} is registered: "
            f"{pending['stated']} is payable to your card within 10 working days."
        )
        return False
