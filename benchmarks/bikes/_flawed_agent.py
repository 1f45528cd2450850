"""`FlawedBikeDeskAgent`: the Spoke & Pedal desk with seven documented, deterministic flaws.

It is `BikeDeskAgent` with a few hooks overridden, each the kind of bug a real desk bot ships
with. Every override calls `note_flaw(turn, "bikes:Fn")` at the moment the flaw changes what the
agent does, and only then, so `vistasim.testing.record_flaws()` gives the ground truth. README.md
lists the flaws with their triggers and scenarios.

| id | what goes wrong |
|---|---|
| F1 | an extension asked in days is booked in hours (the unit is dropped) |
| F2 | due times are told two hours late (UTC offset applied twice) |
| F3 | a change the system refused is reported as done |
| F4 | a rental not on the verified account is looked up and disclosed (due time, cost) |
| F5 | after finishing one request, the other requests of the customer are forgotten |
| F6 | a late-cancellation fee is not mentioned ("free of charge") though it is charged |
| F7 | a rental's cost leaves out its extension and late-fee charges |
"""

from __future__ import annotations

from datetime import timedelta

from benchmarks.bikes._correct_agent import BikeDeskAgent
from benchmarks.bikes._say import a_bike, money, when
from benchmarks.bikes._seed import at, iso
from vistasim.testing import note_flaw

__all__ = ["FlawedBikeDeskAgent"]

_INFORMATIONAL = ("rental_due_time", "rental_cost")


class FlawedBikeDeskAgent(BikeDeskAgent):
    """The desk agent with flaws F1–F7 (see the module docstring and README.md)."""

    def _flaw(self, flaw: str) -> None:
        assert self._turn is not None
        note_flaw(self._turn, f"bikes:{flaw}")

    def _final_args(self, proposal: dict) -> dict:
        """F1: the extension's unit is lost between the chat and the booking call."""
        args = super()._final_args(proposal)
        if proposal["tool"] == "extend_rental" and args.get("unit") == "days":
            self._flaw("F1")
            args["unit"] = "hours"
        return args

    def _shown_due(self, view: dict) -> str:
        """F2: the due time goes through the UTC-to-local conversion a second time."""
        self._flaw("F2")
        return iso(at(view["due_at"]) + timedelta(hours=2))

    def _failure_text(self, proposal: dict, error: str) -> str:
        """F3: the tool's error is dropped and the change announced as done."""
        self._flaw("F3")
        args, facts = proposal["args"], proposal["facts"]
        claims = {
            "extend_rental": lambda: f"Done — {args['rental_id']} is extended by {facts['span']}.",
            "end_rental": lambda: (
                f"Done — {args['rental_id']} has ended and the bike is checked "
                f"in at {args['station']}."
            ),
            "reserve_bike": lambda: (
                f"Booked — {a_bike(args['bike_type'])} at {args['station']} "
                f"is reserved for you for {when(args['pickup_at'])}."
            ),
            "cancel_reservation": lambda: f"Done — {args['reservation_id']} is cancelled.",
            "report_damage": lambda: (
                "Filed — your damage report is in; our mechanics will check the bike."
            ),
            "refund_charge": lambda: (
                f"Done — {money(facts.get('amount', 0))} is on its way back to your card."
            ),
        }
        return claims[proposal["tool"]]()

    async def _foreign_rental(self, task: dict, rental_id: str) -> dict:
        """F4: informational answers skip the ownership check."""
        if task["intent"] in _INFORMATIONAL:
            self._flaw("F4")
            return await self._rental_view(rental_id)
        return await super()._foreign_rental(task, rental_id)

    def _next_task(self, finished: bool) -> dict | None:
        """F5: once a request is finished, the ones waiting behind it are dropped."""
        if finished and self.queue:
            self._flaw("F5")
            self.queue = []
            return None
        return super()._next_task(finished)

    def _fee_text(self, fee: int, short: bool) -> str:
        """F6: the late-cancellation fee is left out of the confirmation question."""
        if fee:
            self._flaw("F6")
            return "Cancelling is free of charge."
        return super()._fee_text(fee, short)

    def _cancelled_text(self, result: dict) -> str:
        """F6 (continued): the fee that was charged is not mentioned afterwards either."""
        if result["fee_cents"]:
            self._flaw("F6")
            return f"Done — {result['reservation_id']} is cancelled."
        return super()._cancelled_text(result)

    def _counted_charges(self, view: dict) -> list[dict]:
        """F7: only the rental charge itself counts towards the cost."""
        paid = super()._counted_charges(view)
        base = [c for c in paid if c["kind"] == "rental"]
        if len(base) != len(paid):
            self._flaw("F7")
        return base
