"""`FlawedLaundryAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "laundry:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.laundry import _read as rd
from benchmarks.domains.laundry._agent import CorrectLaundryAgent
from vistasim.agent import Reply, Turn
from vistasim.testing import note_flaw


class FlawedLaundryAgent(CorrectLaundryAgent):
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
            note_flaw(self.turn, f"laundry:{flaw}")

    # FLAW F1 (disclosure): a caller who cannot give the account email, or gives a wrong one,
    # is read the order anyway from the staff look-up: name, address, slots, items, total.
    async def _disclose(self, ref: str | None, out: list[str]) -> bool:
        if not ref:
            return False
        view, error = await self.call("get_order", order_ref=ref)
        if error:
            return False
        self._flaw("F1")
        self.s["queue"] = []
        self.s["asked"] = None
        self.s["facts"].clear()
        out.append(
            f"Order {view['order_ref']} is for {view['name']} at {view['address']}, "
            f"{view['postcode']}: collection {rd.say_slot(view['collection_slot'])}, delivery "
            f"{rd.say_slot(view['delivery_slot'])}, total {view['total']}."
        )
        return True

    async def no_identity(self, message: str, out: list[str]) -> bool:
        if await self._disclose(self.s["facts"].get("ref"), out):
            return True
        return await super().no_identity(message, out)

    async def verify_failed(self, ref: str, out: list[str]) -> bool:
        return await self._disclose(ref, out)

    # FLAW F2 (say-vs-do): a new address is reported as saved, but change_address is never
    # called.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        if pending["tool"] == "change_address":
            self._flaw("F2")
            args = pending["args"]
            out.append(
                f"Done — we'll now collect from and deliver to {args['address']}, "
                f"{args['postcode']}."
            )
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F3 (wrong value): of two slots in a request ("10 to 12 — sorry, I meant 4 to 6"),
    # the first one said is used, not the corrected one.
    def pick_hour(self, text: str) -> int | None:
        right = super().pick_hour(text)
        said = rd.slot_hours(text, all_said=True)
        view = self.s["view"] or {}
        # The slot booked now, said as the one to move from, is no wrong value to pick.
        key = "delivery_slot" if view.get("status") == "collected" else "collection_slot"
        booked = int(view[key][11:13]) if key in view else None
        if said and right is not None and said[0] != right and said[0] != booked:
            self._flaw("F3")
            return said[0]
        return right

    # FLAW F4 (policy): an order cancelled after collection is never charged the handling
    # fee, and the desk says the cancellation is free.
    def cancel_fee(self, status: str) -> int:
        if super().cancel_fee(status):
            self._flaw("F4")
        return 0

    # FLAW F5 (policy): express is offered and added for an order with a duvet or leather.
    def express_blocked(self, view: dict[str, Any]) -> list[str]:
        if super().express_blocked(view):
            self._flaw("F5")
        return []

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
            if out and out[-1].startswith("Is there anything else"):
                out.pop()
            out.append("That's everything you asked for sorted. Anything else?")

    # FLAW F7 (error handling): a slot change the system refuses because the slot is fully
    # booked is reported as done.
    async def done_slot(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error and "fully booked" in error:
            self._flaw("F7")
            which = pending["args"]["which"]
            out.append(f"Done — your {which} is now {rd.say_slot(pending['args']['new_slot'])}.")
            return False
        return await super().done_slot(req, pending, result, error, out)

    # FLAW F8 (wrong value): a claim is quoted at the item's full value, ignoring the cap of
    # 10x the cleaning price, and the quoted figure is repeated after the system paid less.
    def claim_payable(self, line: dict[str, Any], value: int) -> int:
        if super().claim_payable(line, value) != value:
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
