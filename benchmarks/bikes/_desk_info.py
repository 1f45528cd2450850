"""The desk agent's lookups and informational answers: due times, costs, station availability.

Handlers raise `Ask` when they need one more fact from the customer and `Stop` when the request
ends with a refusal; otherwise they return a `Step`. The hooks marked "(hook)" are where the
flawed agent deviates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from benchmarks.bikes._say import bike_name, money, span, when
from vistasim.env import ToolOutcome
from vistasim.events import ToolCall

__all__ = ["Ask", "DeskInfo", "Step", "Stop"]

_KIND_LABELS = {
    "rental": "the rental",
    "extension": "the extension",
    "late_fee": "the late fee",
    "cancellation_fee": "the cancellation fee",
    "damage": "the damage fee",
}
_PLURAL = {"city": "city bikes", "e-bike": "e-bikes", "cargo": "cargo bikes"}


class Ask(Exception):
    """The request needs one more fact: `slot`, asked for with `text`."""

    def __init__(self, slot: str, text: str) -> None:
        super().__init__(text)
        self.slot, self.text = slot, text


class Stop(Exception):
    """The request ends here, with `text` (a refusal or a dead end)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class Step:
    """What handling a request said, and whether the request is finished."""

    text: str
    done: bool


def count(n: int, bike_type: str) -> str:
    """`no e-bikes`, `1 e-bike`, `4 e-bikes`."""
    if n == 0:
        return f"no {_PLURAL[bike_type]}"
    return f"1 {_PLURAL[bike_type][:-1]}" if n == 1 else f"{n} {_PLURAL[bike_type]}"


class DeskInfo:
    """Lookups and answers; mixed into the agent, which owns the conversation state."""

    env: Any
    customer: dict | None
    last_rental: str | None
    _calls: list[ToolCall]

    async def _tool(self, name: str, args: dict[str, JsonValue]) -> ToolOutcome:
        """Call a desk tool and keep the call for the reply."""
        outcome = await self.env.call_tool(name, args)
        self._calls.append(
            ToolCall(name=name, args=args, result=outcome.result, error=outcome.error)
        )
        return outcome

    def _rental_for(self, task: dict) -> str | None:
        """The rental a request is about: named, just discussed, or the customer's only one."""
        slots, customer = task["slots"], self.customer or {}
        if slots.get("rental_id"):
            return slots["rental_id"]
        if self.last_rental:
            return self.last_rental
        rentals = customer.get("rentals", {})
        current = [rid for rid, status in rentals.items() if status != "returned"]
        if len(current) == 1 and task["intent"] != "rental_cost":
            return current[0]
        return next(iter(rentals)) if len(rentals) == 1 else None

    async def _own_rental(self, task: dict) -> dict:
        """The rental of the request, looked up, if it is the verified customer's."""
        rental_id = self._rental_for(task)
        if rental_id is None:
            raise Ask(
                "rental_id",
                "Which rental is it? The number starts with R, like R123 — "
                "it's in the app and in your confirmation email.",
            )
        task["slots"]["rental_id"] = rental_id
        if rental_id not in (self.customer or {}).get("rentals", {}):
            return await self._foreign_rental(task, rental_id)
        return await self._rental_view(rental_id)

    async def _rental_view(self, rental_id: str) -> dict:
        """`get_rental`, or a dead end when it fails."""
        outcome = await self._tool("get_rental", {"rental_id": rental_id})
        if outcome.error:
            raise Stop(f"I couldn't open {rental_id}: {outcome.error}")
        return outcome.result  # type: ignore[return-value]

    async def _foreign_rental(self, task: dict, rental_id: str) -> dict:
        """(hook) A rental that is not on the verified account: share nothing about it."""
        task["slots"].pop("rental_id", None)
        raise Stop(
            f"{rental_id} isn't a rental on your account, so I can't share or change "
            "anything about it. The account holder is welcome to contact us themselves."
        )

    async def _task_rental_due_time(self, task: dict) -> Step:
        """When a rental is due back (or that it is overdue, or already returned)."""
        view = await self._own_rental(task)
        return Step(self._due_text(view), done=True)

    def _shown_due(self, view: dict) -> str:
        """(hook) The due time to tell the customer."""
        return view["due_at"]

    def _due_text(self, view: dict) -> str:
        rid = view["rental_id"]
        if view["status"] == "returned":
            return (
                f"{rid} has already ended: the bike was returned at {when(view['returned_at'])}"
                f" at {view['return_station']}."
            )
        if view["status"] == "overdue":
            return (
                f"{rid} was due back at {when(self._shown_due(view))}, so it's overdue now. "
                "Please dock the bike at any station with a free dock as soon as you can — "
                "a late fee of €5.00 per started hour applies."
            )
        bike = f"{bike_name(view['bike_type'])} {view['bike_id']}"
        text = f"{rid} ({bike}) is due back at {when(self._shown_due(view))}."
        if view["extended_hours"]:
            text += f" That includes {span(view['extended_hours'], 'hours')} of extensions."
        return text

    async def _task_rental_cost(self, task: dict) -> Step:
        """What a rental cost (so far), by charge."""
        view = await self._own_rental(task)
        return Step(self._cost_text(view), done=True)

    def _counted_charges(self, view: dict) -> list[dict]:
        """(hook) The charges that make up a rental's cost."""
        return [c for c in view["charges"] if c["status"] == "paid"]

    def _cost_text(self, view: dict) -> str:
        charges = self._counted_charges(view)
        total = sum(c["amount_cents"] for c in charges)
        by_kind: dict[str, int] = {}
        for charge in charges:
            by_kind[charge["kind"]] = by_kind.get(charge["kind"], 0) + charge["amount_cents"]
        parts = [f"{money(cents)} for {_KIND_LABELS[kind]}" for kind, cents in by_kind.items()]
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        rid = view["rental_id"]
        detail = f": {listed}" if len(parts) > 1 else ""
        if view["status"] == "returned":
            text = f"{rid} cost {money(total)} in total{detail}."
        else:
            covers = f"riding until {when(view['due_at'])}"
            text = f"So far {rid} has cost {money(total)}{detail}, which covers {covers}."
        refunded = sum(c["amount_cents"] for c in view["charges"] if c["status"] == "refunded")
        return text + (f" A further {money(refunded)} was refunded." if refunded else "")

    async def _task_station_availability(self, task: dict) -> Step:
        """Bikes and free docks at a station, or where a bike type is available."""
        slots = task["slots"]
        station = slots.get("station")
        outcome = await self._tool("station_availability", {"station": station} if station else {})
        if outcome.error:
            raise Stop(f"I couldn't check that: {outcome.error}")
        result: dict = outcome.result  # type: ignore[assignment]
        if station is None:
            return Step(self._everywhere_text(result["stations"], slots.get("bike_type")), True)
        return Step(self._station_text(result, slots), done=True)

    def _station_text(self, view: dict, slots: dict) -> str:
        name, free, available = view["name"], view["free_docks"], view["available"]
        docks = f"{free} free dock{'' if free == 1 else 's'}" if free else "no free docks"
        bike_type = slots.get("bike_type")
        if bike_type:
            n = available[bike_type]
            lead = "Yes — " if n else "Sorry — "
            return f"{lead}{name} has {count(n, bike_type)} ready to ride right now, and {docks}."
        if slots.get("about_docks"):
            if free:
                return f"{name} has {docks} right now (out of {view['docks']})."
            return f"{name} is full right now: all {view['docks']} docks are taken."
        bikes = ", ".join(count(available[t], t) for t in ("city", "e-bike"))
        return (
            f"{name} has {bikes} and {count(available['cargo'], 'cargo')} ready to ride right "
            f"now, and {docks}."
        )

    def _everywhere_text(self, stations: list[dict], bike_type: str | None) -> str:
        if bike_type:
            spots = [
                f"{s['name']} ({s['available'][bike_type]})"
                for s in stations
                if s["available"][bike_type]
            ]
            if not spots:
                return f"Sorry — there are no {_PLURAL[bike_type]} free at any station right now."
            return f"{_PLURAL[bike_type].capitalize()} are free right now at: {', '.join(spots)}."
        lines = [
            f"{s['name']}: {sum(s['available'].values())} bikes, {s['free_docks']} free docks"
            for s in stations
        ]
        return "Right now: " + "; ".join(lines) + "."
