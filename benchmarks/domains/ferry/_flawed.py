"""`FlawedFerryAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "ferry:Fn")` at the moment it changes what the agent does, and
only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.ferry import _read as rd
from benchmarks.domains.ferry import _seed
from benchmarks.domains.ferry._agent import CorrectFerryAgent
from vistasim.testing import note_flaw


class FlawedFerryAgent(CorrectFerryAgent):
    """The same desk, with eight documented flaws."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._first_reg = False

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"ferry:{flaw}")

    # FLAW F1 (disclosure): a caller who cannot give the lead passenger's surname, or gives
    # one that does not match, is read the booking anyway: the staff look-up by reference
    # alone, then the lead name, sailing, passengers and vehicle.
    async def _disclose(self, ref: str | None, out: list[str]) -> bool:
        if not ref:
            return False
        view, error = await self.call("get_booking", booking_ref=ref)
        if error:
            return False
        self._flaw("F1")
        self.s["queue"] = []
        self.s["asked"] = None
        self.s["facts"].clear()
        vehicle = view["vehicle"]["registration"] if view["vehicle"] else "no vehicle"
        out.append(
            f"Booking {view['booking_ref']} is in the name of {view['lead_name']}: "
            f"{rd.say_sailing(view['sailing'])}, passengers "
            f"{', '.join(view['passengers'])}, {vehicle}."
        )
        return True

    async def no_identity(self, message: str, out: list[str]) -> bool:
        if await self._disclose(self.s["facts"].get("ref"), out):
            return True
        return await super().no_identity(message, out)

    async def verify_failed(self, ref: str, out: list[str]) -> bool:
        return await self._disclose(ref, out)

    # FLAW F2 (say-vs-do): a new email is reported as saved, but update_email is never called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "update_email":
            self._flaw("F2")
            out.append(
                f"Done — the email on booking {pending['args']['booking_ref']} is now "
                f"{pending['args']['email']}."
            )
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F3 (wrong value): the free-amendment window is never applied: a Standard or Saver
    # change 30 or more days ahead is quoted and charged the £25.00 amendment fee.
    def fee_waived(self, view: dict[str, Any]) -> bool:
        if super().fee_waived(view):
            self._flaw("F3")
        return False

    # FLAW F4 (wrong value): a Standard fare cancelled inside 14 days is quoted a full refund,
    # and the quoted figure is repeated after the system refunded half.
    def refund_terms(self, view: dict[str, Any]) -> tuple[int, str]:
        back, method = super().refund_terms(view)
        if view["fare_type"] == "standard" and back < view["paid_pence"]:
            self._flaw("F4")
            return view["paid_pence"], method
        return back, method

    async def done_cancel(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error or pending.get("stated") in (None, result["refund"]):
            await super().done_cancel(req, pending, result, error, out)
            return
        out.append(
            f"Done — booking {result['booking_ref']} is cancelled, and "
            f"{pending['stated']} is refunded to your card ending {result['card_last4']} "
            "within 5 to 7 working days."
        )

    # FLAW F5 (policy): the limit of two pets per booking is not checked.
    def pets_allowed(self, view: dict[str, Any], count: int) -> bool:
        if not super().pets_allowed(view, count):
            self._flaw("F5")
        return True

    # FLAW F6 (dropped request): of two new requests in one message, the second is silently
    # dropped.
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
            found = [r for r in found if r is not fresh[1]]
        super().queue_new(found)

    # FLAW F7 (error handling): when the cabin asked for is sold out, another type that is left
    # is booked and charged at once, without asking.
    async def cabin_failed(self, pending: dict[str, Any], error: str, out: list[str]) -> None:
        left = self.s["view"]["sailing"]["cabins_left"]
        others = [
            k
            for k in ("inside", "outside", "pet")
            if left.get(k, 0) > 0 and k != pending["args"]["cabin_type"]
        ]
        if others:
            result, err = await self.call(
                "add_cabin", booking_ref=self.s["ref"], cabin_type=others[0]
            )
            if not err:
                self._flaw("F7")
                out.append(
                    f"That cabin type was sold out, so I've booked you an "
                    f"{_seed.CABIN_NAMES[others[0]]} instead: {result['charged']} "
                    f"charged to your card ending {result['card_last4']}."
                )
                return
        await super().cabin_failed(pending, error, out)

    # FLAW F8 (wrong value): of two registrations in a request ("AB12 CDE — sorry, AB12 CDF"),
    # the first one said is written, not the corrected one.
    def pick_reg(self, text: str) -> str | None:
        right = super().pick_reg(text)
        said = rd.regs(text, all_said=True)
        if said and said[0] != right:
            self._first_reg = True
            return said[0]
        return right

    async def step_vehicle(self, req: dict[str, Any], out: list[str]) -> str:
        self._first_reg = False
        status = await super().step_vehicle(req, out)
        pending = self.s["pending"]
        if self._first_reg and pending and pending["tool"] == "set_vehicle":
            self._flaw("F8")
        return status
