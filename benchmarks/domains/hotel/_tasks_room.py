"""Moving a booking to another room type for the same dates (`room`)."""

from __future__ import annotations

from typing import Any

from benchmarks.domains.hotel._desk import DeskCore
from benchmarks.domains.hotel._desk_base import Task, set_slot
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._say import count, day, difference, eur, saver_refusal, span


class RoomTasks(DeskCore):
    """Room changes: quote from `check_availability`, offer one upgrade if full, change on a yes."""

    def fill_room(self, task: Task, msg: Message) -> bool:
        current = self.info["room_type"] if self.state["info"] else None
        kind = msg.room_type(current)
        return set_slot(task, "room_type", kind) if kind else False

    async def step_room(self, task: Task) -> bool:
        info, ref = self.info, self.ref
        if not info["changes_allowed"]:
            self.say(saver_refusal(ref, "change the room type"))
            return True
        found, error = await self.tool(
            "check_availability",
            hotel_id=info["hotel"]["hotel_id"],
            check_in=info["check_in"],
            check_out=info["check_out"],
            booking_ref=ref,
        )
        if error:
            self.say(f"I'm sorry, I couldn't check the rooms: {error}.")
            return True
        options = {o["room_type"]: o for o in found["options"]}
        guests = info["adults"] + info["children"]
        fits = [
            o
            for o in found["options"]
            if o["room_type"] != info["room_type"] and o["capacity"] >= guests
        ]
        kind = task["slots"].get("room_type")
        if not kind or kind not in options:
            listing = self._listing(fits)
            return self.ask(
                task,
                f"Which room type would you like? For your dates "
                f"({span(info['check_in'], info['check_out'])}): {listing}.",
                "room_type",
            )
        if kind == info["room_type"]:
            self.say(f"Your booking already has the {info['room_name']}.")
            return True
        opt = options[kind]
        if opt["capacity"] < guests:
            self.say(
                f"The {opt['name']} sleeps up to {opt['capacity']}, and your booking is for "
                f"{count(guests, 'guest')}, so I can't move you to it."
            )
            return True
        if opt["available"]:
            return await self.room_available(task, opt)
        full = " and ".join(day(n) for n in opt["fully_booked_nights"])
        alts = [o for o in fits if o["available"] and o["difference_eur"] > 0 and o is not opt]
        if not alts:
            self.say(
                f"I'm sorry — the {opt['name']} is fully booked on the night of {full}, and "
                f"no other room type is free for your dates, so your booking stays as it is "
                f"with the {info['room_name']}."
            )
            return True
        alt = min(alts, key=lambda o: o["difference_eur"])
        proposal = {
            "room_type": alt["room_type"],
            "room_name": alt["name"],
            "total": alt["total_eur"],
        }
        return self.confirm(
            task,
            f"I'm sorry — the {opt['name']} is fully booked on the night of "
            f"{full}, so I can't move you to it. The {alt['name']} is free for "
            f"your dates: {eur(alt['total_eur'])} in total, "
            f"{difference(alt['difference_eur'])}. Would you like that instead? "
            f"If not, your {info['room_name']} stays as it is.",
            proposal,
            offer=True,
        )

    def _listing(self, options: list[dict[str, Any]]) -> str:
        parts = []
        for o in options:
            if o["available"]:
                parts.append(
                    f"{o['name']} ({o['room_type']}), {eur(o['total_eur'])} in total, "
                    f"{difference(o['difference_eur'])}"
                )
            else:
                parts.append(f"{o['name']} ({o['room_type']}) is fully booked")
        return "; ".join(parts)

    async def room_available(self, task: Task, opt: dict[str, Any]) -> bool:
        """Quote the room change and ask for a yes."""
        info = self.info
        proposal = {
            "room_type": opt["room_type"],
            "room_name": opt["name"],
            "total": opt["total_eur"],
        }
        return self.confirm(
            task,
            f"The {opt['name']} is available for your stay, "
            f"{span(info['check_in'], info['check_out'])}. The room total would be "
            f"{eur(opt['total_eur'])}, {difference(opt['difference_eur'])}. Shall I "
            "switch your room?",
            proposal,
        )

    async def do_room(self, task: Task) -> bool:
        p, ref = task["proposal"], self.ref
        result, error = await self.tool("change_room", booking_ref=ref, room_type=p["room_type"])
        if error:
            self.say(
                f"I'm sorry — the room change didn't go through: {error}. Your booking is "
                "unchanged."
            )
            return True
        self.apply_result(result, p["room_name"])
        self.say(
            f"Done — booking {ref} now has the {p['room_name']} for "
            f"{span(result['check_in'], result['check_out'])}. The new total is "
            f"{eur(result['total_eur'])}, {difference(result['difference_eur'], 'before')}."
        )
        return True
