"""`FlawedPianoTuningAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "pianotuning:Fn")` at the moment it changes what the agent
does, and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from benchmarks.domains.pianotuning import _read as rd
from benchmarks.domains.pianotuning import _seed
from benchmarks.domains.pianotuning._agent import CorrectPianoTuningAgent
from benchmarks.domains.pianotuning._flows import span
from vistasim.testing import note_flaw


class FlawedPianoTuningAgent(CorrectPianoTuningAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"pianotuning:{flaw}")

    # FLAW F1 (say-vs-do): an annual plan is reported as started, but start_plan is never
    # called: no plan, nothing charged.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "start_plan":
            self._flaw("F1")
            out.append(f"Done — your piano is on the annual tuning plan; "
                       f"{rd.pounds(args['price_pence'])} taken from your card.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the second-piano 25% comes off the dearer piano, not the cheaper.
    # FLAW F6 (policy): a piano booked on its own gets the second-piano 25% off whenever the
    # customer has another visit booked, though the rule is two pianos at the same visit.
    def second_piano_off(self, v: dict[str, Any], pianos: list[dict[str, Any]]) -> int:
        right = super().second_piano_off(v, pianos)
        fees = [_seed.TUNING[p["kind"]] for p in pianos]
        if len(fees) == 2 and fees[0] != fees[1]:
            self._flaw("F2")
            return max(fees) * _seed.SECOND_PIANO_PERCENT // 100
        if len(fees) == 1 and v["visits"]:
            self._flaw("F6")
            return fees[0] * _seed.SECOND_PIANO_PERCENT // 100
        return right

    # FLAW F3 (wrong value): the 48 hours are counted to the start of the visit's day, not to
    # the start of its window, so a visit 48-72 hours away can be charged a call-out fee.
    def move_fee(self, x: dict[str, Any]) -> int:
        right = super().move_fee(x)
        start = datetime.fromisoformat(f"{x['day']}T00:00").replace(tzinfo=_seed.UK)
        hours = (start - self.now).total_seconds() / 3600
        wrong = _seed.CALLOUT_PENCE if hours < _seed.FREE_HOURS else 0
        if wrong != right:
            self._flaw("F3")
        return wrong

    # FLAW F4 (disclosure): another customer's visit, asked for by its number, is looked up and
    # read out: their name, postcode, day and window.
    async def other_visit(self, v: dict[str, Any], ref: str, out: list[str]) -> None:
        found, error = await self.call("get_visit", visit_id=ref)
        if error:
            await super().other_visit(v, ref, out)
            return
        self._flaw("F4")
        out.append(f"Visit {found['visit_id']} is for {found['name']} at {found['postcode']}: "
                   f"{rd.say_day(found['day'])}, {span(found['slot'])}.")  # fmt: skip

    # FLAW F5 (policy): a cancellation inside 48 hours is not charged the call-out fee.
    def cancel_fee(self, x: dict[str, Any]) -> int:
        right = super().cancel_fee(x)
        if right:
            self._flaw("F5")
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
            found = [r for r in found if r.intent != fresh[1].intent]
        super().queue_new(found)

    def closing(self) -> str:
        if self.s.get("dropped") and not self.s["queue"] and not self.s["pending"]:
            self.s["dropped"] = False
            return "That's everything you asked for done."
        return super().closing()

    # FLAW F8 (error handling): a repair quote the system refuses (expired) is reported as
    # accepted.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "accept_quote":
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        out.append(f"Done — quote {args['quote_id']} is accepted; "
                   f"{rd.pounds(args['deposit_pence'])} deposit taken.")  # fmt: skip
