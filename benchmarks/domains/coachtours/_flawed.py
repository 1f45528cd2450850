"""`FlawedCoachtoursAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "coachtours:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.coachtours import _read as rd
from benchmarks.domains.coachtours import _seed
from benchmarks.domains.coachtours._agent import CorrectCoachtoursAgent
from vistasim.testing import note_flaw


class FlawedCoachtoursAgent(CorrectCoachtoursAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"coachtours:{flaw}")

    # FLAW F1 (say-vs-do): a phone number and an email given together: only the phone is sent
    # to update_contact, and the desk says both were updated.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "update_contact" and args.get("phone") and args.get("email"):
            self._flaw("F1")
            _, error = await self.call(tool_name, booking_ref=args["booking_ref"],
                                       phone=args["phone"])  # fmt: skip
            if error:
                await self.failed(req, pending, error, out)
            else:
                out.append(f"Done — the contact details on {args['booking_ref']} are now phone "
                           f"{args['phone']} and email {args['email']}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the single-room supplement counts the departure day as a night.
    def single_price(self, v: dict[str, Any]) -> int:
        self._flaw("F2")
        return _seed.SINGLE_PENCE * (int(v["tour"]["nights"]) + 1)

    # FLAW F3 (wrong value): front-row seats are charged £10.00 once per booking, not per seat.
    def seat_fee(self, seats: list[int]) -> int:
        right = super().seat_fee(seats)
        if right > _seed.SEAT_PENCE:
            self._flaw("F3")
            return _seed.SEAT_PENCE
        return right

    # FLAW F4 (disclosure): when the check fails, a surname that matches any passenger on the
    # booking is taken as proof: a fellow passenger hears the booking and changes it.
    async def verify_fallback(self, ref: str, surname: str) -> dict[str, Any] | None:
        view, error = await self.call("get_booking", booking_ref=ref)
        if error or not surname.strip():
            return None
        if any(p["name"].lower().endswith(" " + surname.strip().lower())
               for p in view["passengers"]):  # fmt: skip
            self._flaw("F4")
            return dict(view)
        return None

    # FLAW F5 (policy): the lead passenger's name is changed like any other passenger's.
    def name_problem(self, v: dict[str, Any], p: dict[str, Any]) -> str | None:
        if p["lead"]:
            self._flaw("F5")
            return super().name_problem(v, {**p, "lead": 0})
        return super().name_problem(v, p)

    # FLAW F6 (policy): travel insurance is sold less than 7 days before departure.
    def insurance_problem(self, v: dict[str, Any]) -> str | None:
        right = super().insurance_problem(v)
        if right:
            self._flaw("F6")
        return None

    # FLAW F7 (dropped request): of two new requests in one message, the second is silently
    # dropped, and once the first is done the desk says everything asked for is sorted.
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

    # FLAW F8 (error handling): a seat the system refuses as taken is swapped, unasked, for the
    # next free seats in the same part of the coach, which are booked and reported.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        tool_name, args = pending["calls"][0]
        if tool_name != "choose_seats" or "already taken" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        tour, _ = await self.call("get_tour", tour_code=self.s["view"]["tour_code"])
        taken = set(tour["taken_seats"])
        front = all(n <= _seed.FRONT_ROWS_LAST_SEAT for n in args["seats"])
        pool = [n for n in range(1, _seed.SEATS_ON_COACH + 1) if n not in taken
                and (n <= _seed.FRONT_ROWS_LAST_SEAT) == front]  # fmt: skip
        seats = pool[: len(args["seats"])]
        result, again = await self.call("choose_seats", booking_ref=args["booking_ref"],
                                        seats=seats, price_pence=self.seat_fee(seats))  # fmt: skip
        if again:
            await super().failed(req, pending, again, out)
            return
        out.append(self.report("seats", result))
