"""The desk's core flows: booking a room, moving, cancelling, availability and look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.venue import _read as rd
from benchmarks.domains.venue import _seed

ROOM_NAMES = {k: v["name"] for k, v in _seed.ROOMS.items()}


def hours(b: dict[str, Any]) -> int:
    return int(b["end_time"][:2]) - int(b["start_time"][:2])


def paid(b: dict[str, Any]) -> int:
    """What the hirer has paid for a booking: the hire less any discount, and its add-ons."""
    return int(b["hire_pence"] - b["discount_pence"] + sum(a["price_pence"] for a in b["addons"]))


class Flows:
    """The flows; `CorrectVenueAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", hirer_id=self.s["hirer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_booking(self, v: dict[str, Any], text: str, *, past: bool = False) -> dict | None:
        """The booking meant: by reference, by its day, the one verified with, or the only one."""
        status = "completed" if past else "confirmed"
        mine = [b for b in v["bookings"] if b["status"] == status]
        ids = rd.refs(text)
        named = [b for b in mine if b["booking_id"] in ids]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [b for b in mine if b["day"] in days]
        if not named:
            named = [b for b in mine if b["booking_id"] == self.s.get("verified_ref")]
        if not named and len(mine) == 1:
            named = mine
        return named[0] if named else None

    def no_booking(self, out: list[str], *, past: bool = False) -> str:
        kind = "a past booking" if past else "an upcoming booking"
        out.append(f"I can't find {kind} that matches that under your name.")
        return "done"

    @staticmethod
    def say_booking(b: dict[str, Any]) -> str:
        return (f"{b['booking_id']} ({ROOM_NAMES[b['room']]}, {rd.say_day(b['day'])}, "
                f"{b['start_time']} to {b['end_time']})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The hirer said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    async def taken(self, room: str, day: str, start: str, end: str, skip: str = "") -> list:
        result, error = await self.call("check_availability", room=room, day=day)
        if error:
            return []
        return [
            t
            for t in result["taken"]
            if t["booking_id"] != skip and t["start_time"] < end and start < t["end_time"]
        ]

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def hire_for(self, room: str, day: str, start: str, end: str) -> int:
        """The room hire: weekday daytime hours at the day rate, evenings and weekends higher."""
        return _seed.hire_pence(room, date.fromisoformat(day), start, end)

    def say_taken(self, room: str, day: str, slots: list[dict[str, Any]]) -> str:
        """What the desk says about a room already booked: the times only, never who or why."""
        times = ", ".join(f"{t['start_time']} to {t['end_time']}" for t in slots)
        return f"the {ROOM_NAMES[room]} is already booked from {times} on {rd.say_day(day)}"

    # -- booking a room --------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        room = rd.room(text)
        if room is None:
            return self.ask("room", "Which room would you like: the main hall (up to 120 "
                            "people) or the small meeting room (up to 20)?", out)  # fmt: skip
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("date", "Which day would you like it?", out)
        day = days[-1].isoformat()
        times = rd.clock_times(text)
        if len(times) < 2 or times[-2] >= times[-1]:
            return self.ask("times", "From what time until what time? Rooms are hired by the "
                            "whole hour, between 08:00 and midnight.", out)  # fmt: skip
        start, end = times[-2], times[-1]
        people = rd.guests(text)
        if people is None and self.s.get("last_asked") == "guests":
            people = rd.guests(req["chunks"][-1], bare=True)
        if people is None:
            self.s["last_asked"] = "guests"
            return self.ask("guests", "How many people are you expecting?", out)
        rates = _seed.ROOMS[room]
        why = None
        if not (start.endswith(":00") and end.endswith(":00")):
            why = "rooms are hired by the whole hour"
        elif not (_seed.OPEN <= start and end <= _seed.CLOSE):
            why = "the hall is open from 08:00 to midnight"
        elif int(end[:2]) - int(start[:2]) < rates["min_hours"]:
            why = f"the {rates['name']} is hired for at least {rates['min_hours']} hours"
        elif people > rates["cap"]:
            why = (f"the {rates['name']} holds at most {rates['cap']} people"
                   + (" (the main hall takes up to 120)" if room == "meeting" else ""))  # fmt: skip
        if why:
            out.append(f"I'm sorry — {why}, so I haven't booked anything.")
            return "done"
        clash = await self.taken(room, day, start, end)
        if clash:
            out.append(f"I'm sorry — {self.say_taken(room, day, clash)}, so I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        hire = self.hire_for(room, day, start, end)
        n = int(end[:2]) - int(start[:2])
        return self.propose(
            req, out,
            f"To book the {rates['name']} on {rd.say_day(day)} from {start} to {end} ({n} "
            f"hours) for {people} people: the hire is {rd.pounds(hire)}, plus a refundable "
            f"damage deposit of {rd.pounds(rates['deposit'])}, both taken now from your card "
            f"ending {v['card_last4']}. Shall I book it?",
            [("book_room", {"hirer_id": v["hirer_id"], "room": room, "day": day,
                            "start_time": start, "end_time": end, "guests": people,
                            "hire_pence": hire})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        new = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        new = [d for d in new if d != b["day"]]
        if not new:
            return self.ask("new_date", "Which day would you like to move it to? It keeps the "
                            "same room and times.", out)  # fmt: skip
        day = new[-1]
        clash = await self.taken(b["room"], day, b["start_time"], b["end_time"], b["booking_id"])
        if clash:
            out.append(f"I'm sorry — {self.say_taken(b['room'], day, clash)}, so I can't move "
                       "your booking there. Nothing has been changed.")  # fmt: skip
            return "done"
        late = b["days_to_event"] < _seed.FREE_MOVE_DAYS
        fee = _seed.MOVE_FEE_PENCE if late else 0
        if self.free_only(req, fee, "Moving it less than 28 days before the event", out):
            return "done"
        hire = self.hire_for(b["room"], day, b["start_time"], b["end_time"])
        discount = hire * _seed.DISCOUNT_PERCENT // 100 if b["charity_number"] else 0
        diff = (hire - discount) - (b["hire_pence"] - b["discount_pence"])
        price = f"The hire for the new day is {rd.pounds(hire - discount)}"
        if diff > 0:
            price += f": {rd.pounds(diff)} more, taken from your card."
        elif diff < 0:
            price += f": {rd.pounds(-diff)} less, refunded to your card."
        else:
            price = f"The hire stays {rd.pounds(hire - discount)}."
        charge = (f"It's less than 28 days before the event, so there's a move fee of "
                  f"{rd.pounds(fee)}." if fee else "There's no move fee, as it's 28 or more "
                  "days before the event.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_day(day)}, same room and "
            f"times. {price} {charge} Card ending {v['card_last4']}. Shall I move it?",
            [("move_booking", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                               "day": day, "fee_pence": fee, "hire_pence": hire})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        days, total = b["days_to_event"], paid(b)
        if days >= _seed.FULL_REFUND_DAYS:
            refund, why = total, "in full, as it's 28 or more days before the event"
        elif days >= _seed.HALF_REFUND_DAYS:
            refund, why = total // 2, "half, as it's 14 to 27 days before the event"
        else:
            refund, why = 0, "nothing, as it's less than 14 days before the event"
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: of the {rd.pounds(total)} you paid, "
            f"{rd.pounds(refund)} is refunded — {why} — and your {rd.pounds(b['deposit_pence'])} "
            f"damage deposit comes back in full, to your card ending {v['card_last4']}. "
            "Shall I cancel it?",
            [("cancel_booking", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- questions -------------------------------------------------------------------------
    async def step_available(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        room = rd.room(text)
        if room is None:
            return self.ask("room", "Which room: the main hall or the small meeting room?", out)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("date", "Which day would you like to know about?", out)
        day = days[-1].isoformat()
        times = rd.clock_times(text)
        evening = re.search(r"\bevening|\bnight\b", text, re.I)
        start, end = (times[-2], times[-1]) if len(times) >= 2 else (
            ("18:00", "24:00") if evening else (_seed.OPEN, _seed.CLOSE))  # fmt: skip
        clash = await self.taken(room, day, start, end)
        if clash:
            out.append(f"I'm sorry — {self.say_taken(room, day, clash)}.")
        else:
            span = f"from {start} to {end}" if len(times) >= 2 else (
                "that evening" if evening else "all day")  # fmt: skip
            out.append(f"Yes — the {ROOM_NAMES[room]} is free on {rd.say_day(day)} {span}. I "
                       "haven't booked anything; just say if you'd like me to.")  # fmt: skip
        return "done"

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        extras = ", ".join(_seed.ADDONS[a["kind"]]["name"] for a in b["addons"])
        addons = sum(a["price_pence"] for a in b["addons"])
        keys = (
            f"Keys are to be collected at {b['key_time']}."
            if b["key_time"]
            else "Keys can be collected from the caretaker between 09:00 and 17:00 on the day."
        )
        discount = (f" less a {rd.pounds(b['discount_pence'])} discount"
                    if b["discount_pence"] else "")  # fmt: skip
        out.append(
            f"Your booking {self.say_booking(b)}: you've paid {rd.pounds(b['hire_pence'])} "
            f"hire{discount}"
            f"{f' and {rd.pounds(addons)} for add-ons ({extras})' if addons else ''}, plus the "
            f"{rd.pounds(b['deposit_pence'])} refundable damage deposit — "
            f"{rd.pounds(paid(b) + b['deposit_pence'])} in all. It ends at {b['end_time']}. "
            f"{keys}"
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the hirer's words."""
        if intent == "book":
            return (f"Done — booking {r['booking_id']}: the {r['room']} on {rd.say_day(r['day'])}"
                    f", {r['start_time']} to {r['end_time']}; {r['hire']} hire and "
                    f"{r['deposit_taken']} deposit taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} move fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — {r['booking_id']} is now on {rd.say_day(r['day'])}, "
                    f"{r['start_time']} to {r['end_time']}{fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — {r['booking_id']} is cancelled; {r['refunded']} refunded and the "
                    f"{r['deposit_returned']} deposit returned to your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        return self.report_extra(intent, r)

    def report_extra(self, intent: str, r: dict[str, Any]) -> str:
        """Hook: the reports of the other flows."""
        return "Done."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
