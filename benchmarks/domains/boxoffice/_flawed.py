"""`FlawedBoxofficeAgent`: the desk's agent with the bugs of an earlier release (README's log).

Each flaw calls `note_flaw(turn, "boxoffice:Fn")` at the moment it changes what the agent does,
and only then; everywhere else the flawed agent behaves exactly as the correct one.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.boxoffice import _read as rd
from benchmarks.domains.boxoffice import _seed
from benchmarks.domains.boxoffice._agent import CorrectBoxofficeAgent
from benchmarks.domains.boxoffice._intents import Parsed
from vistasim.testing import note_flaw


class FlawedBoxofficeAgent(CorrectBoxofficeAgent):
    """The same desk, with eight documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self.turn is not None:
            note_flaw(self.turn, f"boxoffice:{flaw}")

    # FLAW F1 (say-vs-do): posting the tickets of a gift order is confirmed ("will be posted"),
    # but change_delivery is never called: gift orders went down a gift-wrap path with no write.
    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        if pending["tool"] == "change_delivery" and pending["args"]["method"] == "post":
            record = await self.record()
            order = next((o for o in record["orders"]
                          if o["order_id"] == pending["args"]["order_id"]), None)
            if order is not None and order["gift"]:
                self._flaw("F1")
                out.append(f"Done — the gift tickets for order {order['order_id']} will be "
                           f"posted to postcode {self.s['postcode']}; £1.50 has been charged "
                           f"to your card ending {self.s['card']}.")
                self.finish(req)
                return
        await super().execute(req, pending, out)

    # FLAW F2 (wrong value): on a day with a matinee and an evening performance the evening one
    # is taken, whatever time the customer said (and exchanged to, on a yes).
    def pick_on_day(self, text: str, on_day: list[dict[str, Any]]) -> dict[str, Any] | None:
        right = super().pick_on_day(text, on_day)
        if len(on_day) < 2:
            return right
        wrong = on_day[-1]
        if right is None or right["performance_id"] != wrong["performance_id"]:
            self._flaw("F2")
        return wrong

    # FLAW F3 (wrong value): the return handling fee is taken once per order, not per ticket,
    # so the voucher is quoted too high, and the quoted figure is repeated after the return.
    def voucher_terms(self, order: dict[str, Any]) -> tuple[int, int]:
        fee, amount = super().voucher_terms(order)
        if len(order["tickets"]) > 1:
            self._flaw("F3")
            return _seed.RETURN_HANDLING_PENCE, amount + fee - _seed.RETURN_HANDLING_PENCE
        return fee, amount

    async def done_return(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error or pending.get("stated") in (None, result["voucher_amount"]):
            await super().done_return(req, pending, result, error, out)
            return
        out.append(f"Done — order {result['order_id']} is returned. Your credit voucher "
                   f"{result['voucher_id']} is for {pending['stated']}, valid until 31 "
                   "December 2027.")

    # FLAW F4 (disclosure): an order number that is not the customer's is looked up and read
    # out: the other customer's name, the show, the date and the seats.
    async def other_order(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        result, error = await self.call("get_order", order_id=ref)
        if error:
            await super().other_order(ref, req, out)
            return
        self._flaw("F4")
        seats = self.say_seats([t["seat"] for t in result["tickets"]])
        out.append(f"Order {ref} is {result['customer_name']}'s: {self.say_perf(result)}, "
                   f"seats {seats}.")

    # FLAW F5 (policy): tickets are taken back for a credit voucher whether or not the
    # performance is sold out.
    def return_allowed(self, order: dict[str, Any], req: dict[str, Any]) -> bool:
        if not super().return_allowed(order, req):
            self._flaw("F5")
        return True

    # FLAW F6 (policy): the companion ticket is booked free without access proof on file.
    def companion_free(self) -> bool:
        if not super().companion_free():
            self._flaw("F6")
        return True

    # FLAW F7 (dropped request): of several requests in one message only the first is kept.
    def queue_new(self, parsed: Parsed) -> None:
        if len(parsed.requests) > 1:
            self._flaw("F7")
            parsed = Parsed(requests=parsed.requests[:1], loose=parsed.loose)
        super().queue_new(parsed)

    # FLAW F8 (error handling): an email change the system refused is reported as made.
    async def done_email(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self._flaw("F8")
            new = rd.emails(pending["text"])[-1]
            out.append(f"Done — your contact email is now {new}.")
            return
        await super().done_email(req, pending, result, error, out)
