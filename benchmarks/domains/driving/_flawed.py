"""`FlawedDrivingAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "driving:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.driving import _read as rd
from benchmarks.domains.driving._agent import CorrectDrivingAgent
from vistasim.agent import Reply, Turn
from vistasim.testing import note_flaw


class FlawedDrivingAgent(CorrectDrivingAgent):
    """The same desk, with eight documented flaws."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._first_time = False
        self._noted: set[str] = set()

    async def respond(self, turn: Turn) -> Reply:
        self._noted = set()
        return await super().respond(turn)

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None and flaw not in self._noted:
            self._noted.add(flaw)
            note_flaw(self.turn, f"driving:{flaw}")

    # FLAW F1 (disclosure): a caller who cannot give the learner's date of birth, or gives one
    # that does not match, is read the account anyway from the staff look-up: the learner's
    # name, upcoming lessons and pick-up address.
    async def _disclose(self, no: str | None, out: list[str]) -> bool:
        if not no:
            return False
        view, error = await self.call("get_learner", learner_no=no)
        if error:
            return False
        self._flaw("F1")
        self.s["queue"] = []
        self.s["asked"] = None
        self.s["facts"].clear()
        out.append(
            f"Learner {view['learner_no']} is {view['name']}, picked up from {view['address']}, "
            f"{view['postcode']}. Upcoming lessons: {self.say_lessons(view) or 'none'}; "
            f"{view['hours_left']} package hours left."
        )
        return True

    async def no_identity(self, message: str, out: list[str]) -> bool:
        if await self._disclose(self.s["facts"].get("no"), out):
            return True
        return await super().no_identity(message, out)

    async def verify_failed(self, no: str, out: list[str]) -> bool:
        return await self._disclose(no, out)

    # FLAW F2 (say-vs-do): a new pick-up address is reported as saved, but update_address is
    # never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "update_address":
            self._flaw("F2")
            args = pending["args"]
            out.append(f"Done — your pick-up address is now {args['address']}, {args['postcode']}.")
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F3 (wrong value): of two times in a request ("10am — sorry, I meant 11am"), the
    # first one said is booked, not the corrected one.
    def pick_time(self, text: str) -> str | None:
        right = super().pick_time(text)
        said = rd.times(text, all_said=True)
        if said and said[0] != right:
            self._first_time = True
            return said[0]
        return right

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        return await self._with_time(super().step_book, req, out)

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        return await self._with_time(super().step_move, req, out)

    async def _with_time(self, step: Any, req: dict[str, Any], out: list[str]) -> str:
        self._first_time = False
        status: str = await step(req, out)
        pending = self.s["pending"]
        if self._first_time and pending and pending["tool"] in {"book_lesson", "move_lesson"}:
            self._flaw("F3")
        return status

    # FLAW F4 (policy): the 48-hour rule is never applied: a lesson cancelled or moved less than
    # 48 hours before its start keeps its hours, illness or not.
    def late(self, lesson: dict[str, Any]) -> bool:
        if super().late(lesson):
            self._flaw("F4")
        return False

    # FLAW F5 (policy): the practical test is booked whatever the number of lessons taken.
    def test_allowed(self, view: dict[str, Any]) -> bool:
        if not super().test_allowed(view):
            self._flaw("F5")
        return True

    # FLAW F6 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is done.
    def queue_new(self, found: list[rd.Request]) -> None:
        current = self.current()
        seen = {r["intent"] for r in self.s["queue"]}
        fresh = []
        for request in found:
            if (
                current is None or request.intent != current["intent"]
            ) and request.intent not in seen:
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

    # FLAW F7 (error handling): a lesson booking the system refuses (the instructor is busy,
    # or hours are short) is reported as booked.
    async def book_failed(self, req: dict[str, Any], error: str, out: list[str]) -> None:
        pending = self.s.get("last_pending") or {}
        args = pending.get("args", {})
        if "start" in args:
            self._flaw("F7")
            out.append(
                f"Done — your {args['hours']}-hour lesson is booked for "
                f"{rd.say_start(args['start'])}."
            )
            return
        await super().book_failed(req, error, out)

    async def _answer_pending(self, message: str, found: list[rd.Request], out: list[str]) -> bool:
        self.s["last_pending"] = self.s["pending"]
        return await super()._answer_pending(message, found, out)

    # FLAW F8 (wrong value): a refund of unused hours is quoted without the £25.00 admin fee,
    # and the quoted figure is repeated after the system refunded less.
    def refund_quote(self, pack: dict[str, Any]) -> int:
        right = super().refund_quote(pack)
        full = int(pack["hours_left"] * pack["price_per_hour_pence"])
        if full != right:
            self._flaw("F8")
        return full

    async def done_refund(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error or pending.get("stated") in (None, result["refund"]):
            await super().done_refund(req, pending, result, error, out)
            return
        out.append(
            f"Done — {result['hours_refunded']} hours refunded: {pending['stated']} back to "
            f"your card ending {result['card_last4']} within 5 to 7 working days."
        )
