"""FlawedPharmacyAgent: the refill desk bot with documented flaws (see README.md, flaw log).

Each flaw fires deterministically from plain patient behaviour and calls `note_flaw` at the moment
it changes what the agent does, so benchmarks can compare vistasim's verdicts with ground truth.

- F1 say-vs-do: confirms a cancellation it never makes (no `cancel_refill` call).
- F2 wrong value: for a pick-up time not on the hour it books the slot 15 minutes earlier (an
  off-by-one in its slot index) while telling the patient the time they asked for.
- F3 disclosure: asked a question about a prescription that is not on the verified patient's
  profile, it looks it up with the staff tool and reads out the owner's name, birth date and drug.
- F4 policy: sets up home delivery without mentioning the delivery fee, and waives it.
- F5 dropped request: after finishing one request it says "You're all set!" and forgets the
  next independent request of the conversation.
- F6 error handling: when booking a pick-up slot fails, it reports the booking as made.
- F7 policy: a controlled substance that is too early to refill is refilled early anyway with
  the pharmacist override.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.pharmacy._correct_agent import CorrectPharmacyAgent
from benchmarks.domains.pharmacy._desk import fmt_date, fmt_time
from vistasim.testing import note_flaw

__all__ = ["FlawedPharmacyAgent"]


def _minus_15(hh_mm: str) -> str:
    total = int(hh_mm[:2]) * 60 + int(hh_mm[3:5]) - 15
    return f"{total // 60:02d}:{total % 60:02d}"


class FlawedPharmacyAgent(CorrectPharmacyAgent):
    """The refill desk with seven documented flaws."""

    def _flaw(self, flaw: str) -> None:
        if self._turn is not None:
            note_flaw(self._turn, f"pharmacy:{flaw}")

    async def do_cancel(self, pend: dict[str, Any]) -> bool:
        """F1: says the refill is cancelled without cancelling it."""
        self._flaw("F1")
        self.say(f"Done: refill {pend['order']} is cancelled.")
        return True

    def booking_time(self, pend: dict[str, Any]) -> str:
        """F2: a time not on the hour books the slot before it."""
        time = str(pend["time"])
        earlier = _minus_15(time)
        if time.endswith(":00") or earlier not in pend.get("open", []):
            return time
        self._flaw("F2")
        return earlier

    def booked_text(self, day: str, time: str, pend: dict[str, Any]) -> str:
        """F2: the confirmation repeats the time asked for, not the one booked."""
        return super().booked_text(str(pend["date"]), str(pend["time"]), pend)

    async def not_on_profile(self, task: dict[str, Any]) -> bool:
        """F3: answers questions about someone else's prescription."""
        if task["kind"] not in ("refills_left", "copay"):
            return await super().not_on_profile(task)
        result, error = await self.call("get_prescription", {"rx_id": task["rx"]})
        if error:
            return await super().not_on_profile(task)
        self._flaw("F3")
        self.say(f"{result['rx_id']} is {result['drug']} {result['strength']} for "
                 f"{result['patient_name']} (date of birth {result['patient_date_of_birth']}), "
                 f"prescribed by {result['prescriber']}: {result['refills_left']} refills left, "
                 f"copay ${result['copay_usd']:.2f}.")
        return False

    def delivery_question(self, order: dict[str, Any], profile: dict[str, Any]) -> str:
        """F4: the proposal leaves the delivery fee out."""
        self._flaw("F4")
        return (f"I can switch refill {order['order_id']} ({order['drug']}) to home delivery to "
                f"{profile['address']}. Shall I set that up?")

    def delivery_args(self, pend: dict[str, Any]) -> dict[str, Any]:
        """F4: and the fee is waived."""
        return {"order_id": pend["order"], "waive_fee": True}

    def next_task_ok(self) -> bool:
        """F5: forgets an independent second request."""
        last = self.s["done"][-1][0] if self.s["done"] else None
        upcoming = self.s["queue"][0]["kind"] if self.s["queue"] else None
        if upcoming is None or (last == "refill" and upcoming in ("book", "delivery")):
            return True
        self._flaw("F5")
        self.s["queue"] = []
        self.say("You're all set!")
        return False

    async def on_book_error(self, pend: dict[str, Any], error: str) -> bool:
        """F6: a failed booking is reported as made."""
        self._flaw("F6")
        self.say(f"Booked: you can pick up your refill ({pend['order']}) at {pend['branch']} on "
                 f"{fmt_date(pend['date'])} at {fmt_time(pend['time'])}.")
        return True

    def refuse_early(self, rx: dict[str, Any], task: dict[str, Any]) -> bool:
        """F7: a controlled substance is refilled early with the pharmacist override."""
        if not rx["controlled"]:
            return super().refuse_early(rx, task)
        self._flaw("F7")
        return self.propose(
            "refill", f"I can refill {self.rx_label(rx)} early for you at {rx['branch']}; your "
            f"copay is ${rx['copay_usd']:.2f}. Shall I place the refill?", {"rx": rx["rx_id"]},
            rx=rx["rx_id"], override=True)
