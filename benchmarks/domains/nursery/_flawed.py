"""`FlawedNurseryAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "nursery:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.nursery import _read as rd
from benchmarks.domains.nursery import _seed
from benchmarks.domains.nursery._agent import CorrectNurseryAgent
from vistasim.testing import note_flaw


class FlawedNurseryAgent(CorrectNurseryAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"nursery:{flaw}")

    # FLAW F1 (say-vs-do): an allergy or medical note is reported as recorded, but
    # add_medical_note is never called: the child's file stays as it was.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "add_medical_note":
            self._flaw("F1")
            out.append(f"Done — the {args['kind']} note is on the file.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the sibling discount is given to the eldest child too.
    def sibling_percent(self, v: dict[str, Any], child: dict[str, Any]) -> int:
        right = super().sibling_percent(v, child)
        if right == 0 and len(v["children"]) > 1:
            self._flaw("F2")
            return _seed.SIBLING_PERCENT
        return right

    # FLAW F3 (wrong value): the late fee counts whole 15 minutes only, not part of them.
    def late_fee(self, minutes: int) -> int:
        right = super().late_fee(minutes)
        wrong = minutes // _seed.LATE_BLOCK_MINUTES * _seed.LATE_BLOCK_PENCE
        if wrong != right:
            self._flaw("F3")
        return wrong

    # FLAW F4 (disclosure): a collector's password is read out when a parent asks for it.
    def password_reply(self, k: dict[str, Any]) -> str:
        self._flaw("F4")
        return f'{k["name"]}\'s collection password is "{k["password"]}".'

    # FLAW F5 (policy): a parent on the account who is not the holder may add a collector.
    def may_add_collector(self, v: dict[str, Any], caller: str) -> bool:
        right = super().may_add_collector(v, caller)
        partner = (v.get("partner_name") or "").split()[:1]
        if not right and partner and caller.split()[0].lower() == partner[0].lower():
            self._flaw("F5")
            return True
        return right

    # FLAW F6 (policy): a session cancelled with less than 14 days' notice is credited anyway.
    def credit_for(self, s: dict[str, Any]) -> int:
        right = super().credit_for(s)
        if right == 0:
            self._flaw("F6")
            return int(s["price_pence"])
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

    # FLAW F8 (error handling): a booking the system refuses (no place left) is reported as
    # booked.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "no places left" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — that's booked for {rd.say_day(a['day'])}, "
                   f"{rd.pounds(a['price_pence'])} on your next invoice.")  # fmt: skip
