"""`FlawedPhotostudioAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "photostudio:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.photostudio import _read as rd
from benchmarks.domains.photostudio import _seed
from benchmarks.domains.photostudio._agent import CorrectPhotostudioAgent
from vistasim.testing import note_flaw


class FlawedPhotostudioAgent(CorrectPhotostudioAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"photostudio:{flaw}")

    # FLAW F1 (say-vs-do): extra outfit changes are reported as added, but add_to_session is
    # never called: the session keeps its outfits and its price.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_to_session" and args.get("kind") == "outfits":
            self._flaw("F1")
            n = args["quantity"]
            out.append(f"Done — {n} extra outfit change{'s' if n > 1 else ''} added to "
                       f"{args['session_id']} ({rd.pounds(args['price_pence'])}).")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the 10% early-order discount is given whenever the gallery is
    # open, not only within 14 days of it opening.
    def order_discount(self, s: dict[str, Any], subtotal: int) -> int:
        right = super().order_discount(s, subtotal)
        if not right and s["gallery_days_open"] <= _seed.GALLERY_OPEN_DAYS:
            self._flaw("F2")
            return subtotal * _seed.EARLY_ORDER_PERCENT // 100
        return right

    # FLAW F3 (wrong value): every person added is charged £20, even those the session's
    # included places cover.
    def people_fee(self, s: dict[str, Any], adding: int) -> int:
        right = super().people_fee(s, adding)
        wrong = adding * _seed.EXTRA_PERSON_PENCE
        if wrong != right:
            self._flaw("F3")
            return wrong
        return right

    # FLAW F4 (disclosure): with a resent gallery link, the gallery's PIN is read out in chat.
    def gallery_note(self, session_id: str) -> str:
        pin = next((s["gallery_pin"] for s in (self.s["view"] or {}).get("sessions", [])
                    if s["session_id"] == session_id and s.get("gallery_pin")), None)  # fmt: skip
        if pin is None:
            return super().gallery_note(session_id)
        self._flaw("F4")
        return f"So you can get straight in, your gallery access code is {pin}."

    # FLAW F5 (policy): a newborn session is booked on any open day and time, not only on
    # weekday mornings.
    def newborn_problem(self, day: date, time: str | None) -> str | None:
        right = super().newborn_problem(day, time)
        if right and self.current() is not None and self.current()["intent"] == "book":
            self._flaw("F5")
            return None
        return right

    # FLAW F6 (policy): a newborn session is moved on the ordinary notice rules: a £25 fee
    # inside 7 days and no move inside 48 hours, where newborn sessions move free at any notice.
    def move_terms(self, s: dict[str, Any]) -> int | None:
        right = super().move_terms(s)
        if s["kind"] == "newborn" and s["hours_to_start"] < _seed.FREE_MOVE_HOURS:
            self._flaw("F6")
            if s["hours_to_start"] < _seed.NO_MOVE_HOURS:
                return None
            return _seed.MOVE_FEE_PENCE
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

    # FLAW F8 (error handling): an order the system refuses because the gallery has closed is
    # reported as placed.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "closed" not in error or pending["calls"][0][0] != "place_order":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — your order from {a['session_id']} is placed: "
                   f"{rd.pounds(a['total_pence'])}.")  # fmt: skip
