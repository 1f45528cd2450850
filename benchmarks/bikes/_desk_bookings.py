"""The desk agent's reservations: reserving a bike and cancelling a reservation.

Like every change, a booking is checked against the policy, proposed in full (station, bike
type, pickup, fee) and made only after a yes. The hook marked "(hook)" is where the flawed agent
deviates.
"""

from __future__ import annotations

from datetime import timedelta

from benchmarks.bikes._desk_info import Ask, DeskInfo, Step, Stop
from benchmarks.bikes._limits import (
    CANCEL_FEE_CENTS,
    FREE_CANCEL_HOURS,
    HOLD_MINUTES,
    MAX_AHEAD_DAYS,
    MAX_HELD,
    MIN_LEAD_MINUTES,
)
from benchmarks.bikes._say import a_bike, bike_name, clock, day, money, when
from benchmarks.bikes._seed import NOW, at, iso

__all__ = ["DeskBookings"]


class DeskBookings(DeskInfo):
    """Reservation requests; mixed into the agent."""

    proposal: dict | None

    def _propose(self, task: dict, tool: str, args: dict, text: str, **facts: object) -> Step:
        """Hold `tool(args)` for the customer's yes and ask for it with `text`."""
        self.proposal = {"intent": task["intent"], "tool": tool, "args": args, "facts": facts}
        return Step(text, done=False)

    async def _task_reserve_bike(self, task: dict) -> Step:
        """Reserve a bike type at a station 30 minutes to 7 days ahead."""
        self._check_may_reserve()
        slots = task["slots"]
        if not slots.get("station"):
            raise Ask("station", "Which station would you like to pick the bike up from?")
        if not slots.get("bike_type"):
            raise Ask("bike_type", "Which kind of bike: a city bike, an e-bike or a cargo bike?")
        pickup = self._pickup(slots)
        outcome = await self._tool("station_availability", {"station": slots["station"]})
        if outcome.error:
            raise Stop(f"I couldn't check that station: {outcome.error}")
        if outcome.result["available"][slots["bike_type"]] == 0:  # type: ignore[index]
            raise Stop(
                f"Sorry — there's no {bike_name(slots['bike_type'])} free at "
                f"{slots['station']} to reserve right now."
            )
        hold = iso(at(pickup) + timedelta(minutes=HOLD_MINUTES))
        text = (
            f"I can reserve {a_bike(slots['bike_type'])} at {slots['station']} for pickup at "
            f"{when(pickup)}; we'll hold it until {clock(hold)}. Reserving is free. Shall I "
            "book it?"
        )
        args = {
            "customer_id": self.customer["id"],
            "station": slots["station"],  # type: ignore[index]
            "bike_type": slots["bike_type"],
            "pickup_at": pickup,
        }
        return self._propose(task, "reserve_bike", args, text)

    def _check_may_reserve(self) -> None:
        customer = self.customer or {}
        overdue = [rid for rid, status in customer["rentals"].items() if status == "overdue"]
        if overdue:
            raise Stop(
                f"I can't make a new reservation while {overdue[0]} is overdue. Once that "
                "bike is back in a dock, you're welcome to reserve again."
            )
        held = [r for r, v in customer["reservations"].items() if v["status"] == "held"]
        if len(held) >= MAX_HELD[customer["plan"]]:
            raise Stop(
                f"You already hold {len(held)} reservations ({', '.join(held)}), the most "
                "your plan allows at once. Cancel one first if you'd like a new one."
            )

    def _pickup(self, slots: dict) -> str:
        pickup_day, pickup_clock = slots.get("pickup_day"), slots.get("pickup_clock")
        if not pickup_day and not pickup_clock:
            raise Ask("pickup", "When would you like to pick it up? A day and a time, please.")
        if not pickup_clock:
            raise Ask("pickup_clock", f"What time on {day(pickup_day + 'T00:00')}?")
        if not pickup_day:
            today = f"{NOW.date().isoformat()}T{pickup_clock}"
            soon = at(today) < NOW + timedelta(minutes=MIN_LEAD_MINUTES)
            pickup_day = (NOW.date() + timedelta(days=1 if soon else 0)).isoformat()
        pickup = f"{pickup_day}T{pickup_clock}"
        if at(pickup) < NOW + timedelta(minutes=MIN_LEAD_MINUTES) or at(pickup) > NOW + timedelta(
            days=MAX_AHEAD_DAYS
        ):
            slots.pop("pickup_day", None)
            slots.pop("pickup_clock", None)
            raise Ask(
                "pickup",
                f"Reservations can start from {MIN_LEAD_MINUTES} minutes to "
                f"{MAX_AHEAD_DAYS} days from now, and {when(pickup)} is outside "
                "that. Which other pickup time would suit you?",
            )
        return pickup

    async def _task_cancel_reservation(self, task: dict) -> Step:
        """Cancel a held reservation, telling the late-cancellation fee first."""
        customer = self.customer or {}
        held = [r for r, v in customer["reservations"].items() if v["status"] == "held"]
        rsid = task["slots"].get("reservation_id") or (held[0] if len(held) == 1 else None)
        if rsid is None and not held:
            raise Stop("I don't see any open reservations on your account.")
        if rsid is None:
            raise Ask("reservation_id", f"Which reservation should I cancel: {' or '.join(held)}?")
        reservation = customer["reservations"].get(rsid)
        if reservation is None:
            raise Stop(f"{rsid} isn't one of your reservations, so I can't change it.")
        if reservation["status"] != "held":
            raise Stop(f"{rsid} is already {reservation['status']}, so there's nothing to cancel.")
        short = at(reservation["pickup_at"]) - NOW < timedelta(hours=FREE_CANCEL_HOURS)
        fee = CANCEL_FEE_CENTS if short and customer["plan"] != "annual" else 0
        intro = (
            f"{rsid} is your {bike_name(reservation['bike_type'])} reservation at "
            f"{reservation['station']} for {when(reservation['pickup_at'])}."
        )
        text = f"{intro} {self._fee_text(fee, short)} Shall I cancel it?"
        return self._propose(task, "cancel_reservation", {"reservation_id": rsid}, text)

    def _fee_text(self, fee: int, short: bool) -> str:
        """(hook) What cancelling costs, said before asking to confirm."""
        if fee:
            return (
                f"Because pickup is less than {FREE_CANCEL_HOURS} hours away, cancelling now "
                f"costs a {money(fee)} late-cancellation fee."
            )
        if short:
            return (
                "Pickup is less than 2 hours away, but as an annual member you don't pay the "
                "late-cancellation fee, so it's free."
            )
        return "Cancelling is free, as pickup is more than 2 hours away."
