"""`FlawedOpticianAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "optician:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.optician import _read as rd
from benchmarks.domains.optician import _seed
from benchmarks.domains.optician._agent import CorrectOpticianAgent
from vistasim.testing import note_flaw


class FlawedOpticianAgent(CorrectOpticianAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"optician:{flaw}")

    # FLAW F1 (say-vs-do): a contact-lens pause is reported as done, but pause_subscription is
    # never called: the plan stays active and the next payment is still taken.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any], out: list[str]) -> None:
        tool_name, args = pending["calls"][0]
        if tool_name == "pause_subscription":
            self._flaw("F1")
            out.append(f"Done — plan {args['sub_id']} is paused for {args['months']} "
                       f"month{'s' if args['months'] > 1 else ''}.")  # fmt: skip
            self.finish(req)
            return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): the second-pair discount is taken off the frame only, not the pair.
    def order_price(self, v: dict[str, Any], frame: str, lens: str,
                    coatings: list[str]) -> tuple[int, int]:  # fmt: skip
        full, off = super().order_price(v, frame, lens, coatings)
        if off:
            self._flaw("F2")
            return full, _seed.FRAMES[frame][1] * _seed.SECOND_PAIR_PERCENT // 100
        return full, off

    # FLAW F3 (wrong value): a repair under cover is charged the replacement excess.
    def excess(self, kind: str) -> int:
        if kind == "repair":
            self._flaw("F3")
            return _seed.EXCESS["replacement"]
        return super().excess(kind)

    # FLAW F4 (disclosure): a prescription copy goes to whatever address the caller gives.
    def prescription_email(self, v: dict[str, Any], text: str) -> str:
        said = [e for e in rd.emails(text) if e.lower() != v["email"].lower()]
        if said:
            self._flaw("F4")
            return said[0]
        return super().prescription_email(v, text)

    # FLAW F5 (policy): the late fee is waived on a private test moved or cancelled less than
    # 24 hours before it.
    def late_fee(self, a: dict[str, Any]) -> int:
        right = super().late_fee(a)
        if right:
            self._flaw("F5")
            return 0
        return right

    # FLAW F6 (policy): an order already at the lab is cancelled with a full refund.
    def may_cancel_order(self, o: dict[str, Any]) -> bool:
        if o["status"] == "at_lab":
            self._flaw("F6")
            return True
        return super().may_cancel_order(o)

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

    # FLAW F8 (error handling): a coating the system refuses (the order has gone to the lab) is
    # reported as added.
    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        if "gone to the lab" not in error:
            await super().failed(req, pending, error, out)
            return
        self._flaw("F8")
        a = pending["calls"][0][1]
        out.append(f"Done — {a['coating']} added to order {a['order_id']} "
                   f"({rd.pounds(a['price_pence'])}).")  # fmt: skip
