"""The desk's flows for rooms and passes: work out the change, state it with its price, report it.

Each `step_<intent>` returns "wait" (a question or a proposal is out) or "done"; each
`done_<intent>` reports what the member system returned for the agreed call.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.cowork import _read as rd
from benchmarks.domains.cowork import _seed
from benchmarks.domains.cowork._extras import FlowBase

ROOM_LIST = (
    "Nectar (seats 2, £12.00 an hour), the Bee Room (seats 4, £20.00), the Honeycomb "
    "(seats 8, £35.00) or Queen's Hall (seats 16, £60.00)"
)


def say_booking(b: dict[str, Any]) -> str:
    return f"{b['booking_id']} ({b['room']}, {rd.say_day(b['day'])}, {b['start']}–{b['end']})"


class Flows(FlowBase):
    """Mixin: the flows of `CorrectCoworkAgent` (which supplies the state and helpers)."""

    # -- hooks the flawed agent overrides --------------------------------------------------
    def pick_day(self, text: str) -> date | None:
        days = rd.dates(text, self.today)
        if days:
            return days[-1]
        if rd.SAME_DAY_RE.search(text) and self.s.get("last_day"):
            return date.fromisoformat(self.s["last_day"])
        return None

    def late(self, booking: dict[str, Any]) -> bool:
        return bool(booking["hours_to_start"] < _seed.LATE_HOURS)

    def guests_allowed(self, already: int, adding: int) -> bool:
        return already + adding <= _seed.MAX_GUESTS

    async def other_booking(self, booking_id: str, out: list[str]) -> None:
        out.append(
            f"Booking {booking_id} isn't on your account, so I can't share anything about "
            "it — the member who made it can tell you, or ask them to share the details."
        )

    # -- booking a room --------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        day = self.pick_day(text)
        if day is None or day < self.today:
            return self.ask("day", "Which day would you like the room?", out)
        said = rd.times(text)
        if not said:
            return self.ask(
                "start", f"What time on {rd.say_day(day.isoformat())} would you like it from?", out
            )
        start, end = said[-1]
        hours = rd.hours(text) or (end - start if end else None)
        if hours is None:
            return self.ask("hours", "How many hours would you like it for?", out)
        if hours > _seed.MAX_HOURS or start < _seed.OPEN_HOUR or start + hours > _seed.CLOSE_HOUR:
            req["chunks"] = [c for c in req["chunks"] if not rd.times(c) and not rd.hours(c)]
            return self.ask(
                "start",
                f"Rooms can be booked between 08:00 and 20:00, for up to {_seed.MAX_HOURS} "
                "hours. What time would you like it from, and for how long?",
                out,
            )
        people = rd.attendees(text)
        rooms = rd.rooms(text)
        room = rooms[-1] if rooms else None
        lead = ""
        if people and people > 16:
            out.append(
                "Our largest room, Queen's Hall, seats 16, so I can't book a room for "
                f"{people} people here — the front desk can help with an event space."
            )
            return "done"
        if people and (room is None or _seed.ROOMS[room][1] < people):
            fit = next(k for k, r in _seed.ROOMS.items() if r[1] >= people)
            if room is not None:
                lead = f"The {_seed.ROOMS[room][0]} seats {_seed.ROOMS[room][1]}, so "
            room = fit
        if room is None:
            return self.ask("room", f"Which room would you like: {ROOM_LIST}?", out)
        name, seats, rate = _seed.ROOMS[room]
        credit = min(hours, v["credit_hours"])
        pay = (hours - credit) * rate
        when = f"{rd.say_day(day.isoformat())}, {rd.hh(start)}–{rd.hh(start + hours)}"
        parts = [f"{lead}To book {name} (seats {seats}) on {when} ({hours} hour"
                 f"{'s' if hours > 1 else ''}):"]  # fmt: skip
        if credit:
            parts.append(
                f"{credit} hour{'s' if credit > 1 else ''} from your room credit (you have "
                f"{v['credit_hours']} left)" + (" and" if pay else ", so there's nothing to pay.")
            )
        if pay:
            extra = hours - credit
            parts.append(
                f"{extra} hour{'s' if extra > 1 else ''} at {rd.pounds(rate)} an hour, "
                f"{rd.pounds(pay)} charged to {self.card(v)}."
            )
        parts.append("Shall I book it?")
        return self.propose(
            req,
            out,
            " ".join(parts),
            tool="book_room",
            args={
                "member_id": v["member_id"],
                "room_id": room,
                "day": day.isoformat(),
                "start": rd.hh(start),
                "hours": hours,
                "attendees": people,
            },
        )

    async def done_book(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            await self.book_failed(req, pending, error, out)
            return
        money = (
            f"{result['charged']} charged to your card ending {result['card_last4']}"
            if result["charged"] != "£0.00"
            else "nothing to pay"
        )
        used = result["credit_hours_used"]
        out.append(
            f"Done — {result['room']} is booked for you on {rd.say_day(result['day'])}, "
            f"{result['start']}–{result['end']} (booking {result['booking_id']}): "
            f"{used} credit hour{'' if used == 1 else 's'} used, {money}."
        )

    async def book_failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        """Hook: say the booking was refused and why; book nothing else."""
        self.failed(error, out)
        out.append("If you'd like a different time or room, just tell me which.")
        self.s["offer"] = {"intent": "book", "text": self.text(req)}

    # -- which booking ---------------------------------------------------------------------
    async def pick_booking(
        self, req: dict[str, Any], v: dict[str, Any], out: list[str], verb: str
    ) -> dict[str, Any] | None:
        text = self.text(req)
        mine = v["bookings"]
        ids = rd.bookings(text)
        if ids:
            found = [b for b in mine if b["booking_id"] in ids]
            if found:
                return found[0]
            await self.other_booking(ids[0], out)
            return None
        if not mine:
            out.append("You have no upcoming room bookings.")
            return None
        if len(mine) == 1:
            return mine[0]
        days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        rooms = set(rd.rooms(text))
        match = [b for b in mine if b["day"] in days] or mine
        if rooms:
            match = [b for b in match if b["room_id"] in rooms] or match
        if len(match) == 1:
            return match[0]
        self.ask(
            "booking_id",
            f"Which booking would you like to {verb}: "
            + " or ".join(say_booking(b) for b in match)
            + "?",
            out,
        )
        req["waiting"] = True
        return None

    # -- moving a booking ------------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = await self.pick_booking(req, v, out, "move")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        if self.late(b):
            out.append(
                f"Booking {say_booking(b)} starts in less than 24 hours, so it can't be moved. "
                "I can cancel it, but a cancellation this late gets no credit hours or payment "
                "back. Nothing has been changed."
            )
            return "done"
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today) if d.isoformat() != b["day"]]
        day = days[-1].isoformat() if days else b["day"]
        old_start = int(b["start"][:2])
        said = rd.times(text)
        start = old_start
        if said:
            first, end = said[-1]
            if end is not None and first == old_start and end - first != b["hours"]:
                start = end
            elif first != old_start or not days:
                start = first
        rooms = [r for r in rd.rooms(text) if r != b["room_id"]]
        room = rooms[-1] if rooms else b["room_id"]
        if (day, start, room) == (b["day"], old_start, b["room_id"]):
            return self.ask(
                "day", f"When would you like to move {say_booking(b)} to: which day and time?", out
            )
        if start < _seed.OPEN_HOUR or start + b["hours"] > _seed.CLOSE_HOUR:
            req["chunks"] = [c for c in req["chunks"] if not rd.times(c)]
            return self.ask(
                "start", "Rooms can be booked 08:00–20:00. What time would you like instead?", out
            )
        name, seats, rate = _seed.ROOMS[room]
        charged = (b["hours"] - b["credit_hours"]) * rate
        diff = charged - b["charged_pence"]
        if diff > 0:
            money = f"the paid hours cost {rd.pounds(diff)} more, charged to {self.card(v)}"
        elif diff < 0:
            money = f"{rd.pounds(-diff)} goes back to {self.card(v)}"
        else:
            money = "there's nothing to pay"
        when = f"{rd.say_day(day)}, {rd.hh(start)}–{rd.hh(start + b['hours'])}"
        return self.propose(
            req,
            out,
            f"To move booking {say_booking(b)} to {name} on {when}: {money}. Shall I move it?",
            tool="move_booking",
            args={
                "member_id": v["member_id"],
                "booking_id": b["booking_id"],
                "room_id": room,
                "day": day,
                "start": rd.hh(start),
            },
        )

    async def done_move(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        diff = result["difference"]
        money = (
            "nothing to pay"
            if diff == "£0.00"
            else f"{diff.lstrip('-')} refunded"
            if diff.startswith("-")
            else f"{diff} charged to your card ending {result['card_last4']}"
        )
        out.append(
            f"Done — booking {result['booking_id']} is now {result['room']} on "
            f"{rd.say_day(result['day'])}, {result['start']}–{result['end']}; {money}."
        )

    # -- cancelling a booking --------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = await self.pick_booking(req, v, out, "cancel")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        if b["hours_to_start"] <= 0:
            out.append(f"Booking {say_booking(b)} has already started, so it can't be cancelled.")
            return "done"
        late = self.late(b)
        credit, paid = b["credit_hours"], b["charged_pence"]
        if late:
            lost = [f"the {credit} credit hour{'s' if credit != 1 else ''}"] if credit else []
            if paid:
                lost.append(f"the {rd.pounds(paid)} paid")
            money = "it starts in less than 24 hours, so " + (
                " and ".join(lost) + " can't be returned" if lost else "nothing is returned"
            )
        else:
            back = []
            if credit:
                back.append(
                    f"{credit} credit hour{'s go' if credit != 1 else ' goes'} back to your balance"
                )
            if paid:
                back.append(f"{rd.pounds(paid)} is refunded to {self.card(v)}")
            money = "it's more than 24 hours away, so " + (
                " and ".join(back) if back else "there's nothing to refund"
            )
        return self.propose(
            req,
            out,
            f"Cancelling booking {say_booking(b)}: {money}. A cancellation can't be undone. "
            "Shall I cancel it?",
            tool="cancel_booking",
            args={
                "member_id": v["member_id"],
                "booking_id": b["booking_id"],
                "return_credit": not late,
            },
        )

    async def done_cancel(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        back = []
        if result["credit_hours_returned"]:
            back.append(f"{result['credit_hours_returned']} credit hours returned")
        if result["refund"] != "£0.00":
            back.append(f"{result['refund']} refunded to your card ending {result['card_last4']}")
        out.append(
            f"Done — booking {result['booking_id']} is cancelled"
            + (f": {' and '.join(back)}." if back else "; nothing was returned.")
        )

    # -- guests and day passes -------------------------------------------------------------
    def _names(self, v: dict[str, Any], text: str) -> list[str]:
        mine = v["name"].lower()
        out: list[str] = []
        for name in rd.full_names(text):
            if name.lower() != mine and name not in out:
                out.append(name)
        return out

    async def step_guest(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        names = self._names(v, text)
        if not names:
            return self.ask("guest_names", "What's the full name of each guest?", out)
        day = self.pick_day(text)
        if day is None or day < self.today:
            return self.ask("day", "Which day are your guests coming?", out)
        iso = day.isoformat()
        there = [p["name"] for p in v["passes"] if p["kind"] == "guest" and p["day"] == iso]
        names = [n for n in names if n not in there]
        if not names:
            out.append(f"They're already registered for {rd.say_day(iso)}.")
            return "done"
        if not self.guests_allowed(len(there), len(names)):
            room = max(0, _seed.MAX_GUESTS - len(there))
            out.append(
                f"I'm sorry — a member can bring at most {_seed.MAX_GUESTS} guests a day, and "
                f"you already have {len(there)} registered for {rd.say_day(iso)}, so I can't "
                f"add {len(names)} more. I haven't registered anyone."
                + (f" I could register {room}." if room else "")
            )
            return "done"
        price = _seed.GUEST_PENCE * len(names)
        who = " and ".join(names)
        return self.propose(
            req,
            out,
            f"To register {who} as your guest{'s' if len(names) > 1 else ''} on "
            f"{rd.say_day(iso)}: {rd.pounds(_seed.GUEST_PENCE)} a guest, {rd.pounds(price)} "
            f"charged to {self.card(v)}. Shall I go ahead?",
            tool="add_guest_passes",
            args={"member_id": v["member_id"], "day": iso, "names": names},
        )

    async def done_guest(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — {' and '.join(result['guests'])} "
            f"{'are' if len(result['guests']) > 1 else 'is'} registered for "
            f"{rd.say_day(result['day'])}; {result['charged']} charged to your card ending "
            f"{result['card_last4']}. They sign in at reception."
        )

    async def step_daypass(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        names = self._names(v, text)
        if not names:
            return self.ask(
                "guest_names", "What's the full name of the person the day pass is for?", out
            )
        day = self.pick_day(text)
        if day is None or day < self.today:
            return self.ask("day", "Which day is the day pass for?", out)
        return self.propose(
            req,
            out,
            f"A day pass (a hot desk for the day) for {names[-1]} on "
            f"{rd.say_day(day.isoformat())} is {rd.pounds(_seed.DAY_PASS_PENCE)}, charged to "
            f"{self.card(v)}. Shall I buy it?",
            tool="buy_day_pass",
            args={"member_id": v["member_id"], "name": names[-1], "day": day.isoformat()},
        )

    async def done_daypass(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — a day pass for {result['name']} on {rd.say_day(result['day'])}; "
            f"{result['charged']} charged to your card ending {result['card_last4']}."
        )

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        ids = rd.bookings(self.text(req))
        mine = {b["booking_id"]: b for b in v["bookings"]}
        for bid in ids:
            if bid not in mine:
                await self.other_booking(bid, out)
        shown = [mine[b] for b in ids if b in mine] or ([] if ids else list(mine.values()))
        if shown:
            out.append("Your bookings: " + "; ".join(say_booking(b) for b in shown) + ".")
        elif not ids:
            out.append("You have no upcoming room bookings.")
        return "done"
