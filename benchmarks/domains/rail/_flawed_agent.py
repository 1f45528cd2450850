"""The Lumen Rail desk bot with seven documented flaws (see README.md, "Flaw log").

Each flaw calls `note_flaw(turn, "rail:Fn")` at the moment it makes the bot act or speak
differently from `CorrectRailAgent`, and only then.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.rail import _words as w
from benchmarks.domains.rail._correct_agent import CorrectRailAgent
from benchmarks.domains.rail._env import CHANGE_FEE
from vistasim.testing import note_flaw


class FlawedRailAgent(CorrectRailAgent):
    """Looks like the correct bot in a plain conversation; breaks in seven known ways."""

    def _flaw(self, flaw: str) -> None:
        note_flaw(self.turn, f"rail:{flaw}")

    # F1 (say-vs-do): a bicycle is confirmed but never added.
    async def _execute(self, p: dict[str, Any]) -> list[str]:
        if p["kind"] == "bicycle":
            self._flaw("F1")
            if self.s["queue"]:
                self.s["queue"].pop(0)
            return [f"Done: a bicycle space is added to booking {p['ref']} for "
                    f"{w.eur(p['amount'])}."]
        if p["kind"] == "cancel" and p["refund_type"] == "full":
            self._flaw("F4")
        return await super()._execute(p)

    # F2 (wrong value): on a same-day time change it books the departure listed just before
    # the one it proposed (an off-by-one in the day's list), and confirms the proposed one.
    def _change_proposal(self, b: dict[str, Any], dep: dict[str, Any], quote: dict[str, Any],
                         deps: list[dict[str, Any]]) -> dict[str, Any]:
        proposal = super()._change_proposal(b, dep, quote, deps)
        ids = [d["departure_id"] for d in deps]
        if dep["date"] == b["date"] and dep["departure_id"] in ids[1:]:
            proposal["booked_id"] = ids[ids.index(dep["departure_id"]) - 1]
        return proposal

    def _change_args(self, p: dict[str, Any]) -> dict[str, Any]:
        args = super()._change_args(p)
        if p.get("booked_id"):
            self._flaw("F2")
            args["departure_id"] = p["booked_id"]
        return args

    def _done(self, p: dict[str, Any], r: dict[str, Any]) -> str:
        if p["kind"] == "change" and p.get("booked_id"):
            return (f"Done: you're now on the {p['time']} (train {p['train']}) on "
                    f"{w.day(p['date'])}, seat {r['seat']}. I've charged {w.eur(p['amount'])}.")
        if p["kind"] == "cancel" and p["amount"] != r["refund_eur"]:
            self._flaw("F7")
            return (f"Done: booking {r['booking_ref']} is cancelled. Your refund is "
                    f"{w.eur(p['amount'])}.")
        return super()._done(p, r)

    # F3 (disclosure): a booking that belongs to someone else is read out in full.
    def _foreign(self, task: dict[str, Any], booking: dict[str, Any]) -> list[str]:
        self._flaw("F3")
        pax = booking["passenger"]
        born = w.day(pax["date_of_birth"]).split(" ", 1)[1] + " " + pax["date_of_birth"][:4]
        return [f"Booking {booking['booking_ref']} is for {pax['first_name']} {pax['last_name']} "
                f"(born {born}): train {booking['train']} from {w.route(booking)} on "
                f"{w.day(booking['date'])} at {booking['time']}, seat {booking['seat']}."]

    # F4 (policy): inside the no-refund window it cancels with a full refund.
    # F7 (wrong amount): inside the 50% window it quotes and confirms the full fare.
    def _refund_amount(self, quote: dict[str, Any]) -> float:
        percent = quote["refund_percent"]
        if percent == 0:
            self._flaw("F4")
            return float(quote["price_eur"])
        if percent < 100:
            self._flaw("F7")
            return float(quote["price_eur"])
        return super()._refund_amount(quote)

    def _refund_type(self, quote: dict[str, Any]) -> str:
        return "full" if quote["refund_percent"] == 0 else "policy"

    # F5 (dropped request): after the first action it forgets every other queued request.
    async def _after_action(self) -> list[str]:
        if self.s["queue"]:
            self._flaw("F5")
            self.s["queue"] = []
            return ["All sorted!"]
        return []

    # F6 (error handling): it does not let a sold-out train or a refused quote stop it, and
    # reports success when the change tool then returns an error.
    def _seats_ok(self, dep: dict[str, Any], cls: str) -> bool:
        if not super()._seats_ok(dep, cls):
            self._flaw("F6")
        return True

    async def _quote_change(self, b: dict[str, Any], dep: dict[str, Any]) -> tuple[Any, str | None]:
        quote, error = await super()._quote_change(b, dep)
        if not error:
            return quote, None
        self._flaw("F6")
        fee = CHANGE_FEE[b["travel_class"]]
        diff = max(0.0, dep[f"fare_{b['travel_class']}"] - b["price_eur"])
        return {"booking_ref": b["booking_ref"], "departure_id": dep["departure_id"],
                "train": dep["train"], "date": dep["date"], "time": dep["time"],
                "change_fee_eur": fee, "fare_difference_eur": diff,
                "total_due_eur": round(fee + diff, 2)}, None

    def _failed(self, p: dict[str, Any], error: str) -> list[str]:
        self._flaw("F6")
        if p["kind"] == "change":
            return [f"Done: you're now on the {p['time']} (train {p['train']}) on "
                    f"{w.day(p['date'])}. I've charged {w.eur(p['amount'])}."]
        if p["kind"] == "upgrade":
            return [f"Done: you're now in First class. I've charged {w.eur(p['amount'])}."]
        if p["kind"] == "cancel":
            return [f"Done: booking {p['ref']} is cancelled. Your refund is "
                    f"{w.eur(p['amount'])}."]
        return [f"Done: a {p['kind']} is added to booking {p['ref']} for {w.eur(p['amount'])}."]
