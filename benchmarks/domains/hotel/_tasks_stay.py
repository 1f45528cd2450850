"""Moving a booking to new dates (`dates`), with another room type offered when it is full."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.hotel._dates import stay_change
from benchmarks.domains.hotel._desk import DeskCore
from benchmarks.domains.hotel._desk_base import Task, set_slot
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._say import count, day, difference, eur, saver_refusal, span

_ARRIVAL_ONLY = re.compile(r"\b(?:arriv\w*|check(?:ing)?[\s-]*in|come|get there|start\w*)\b")
_MOVE = re.compile(r"\b(?:move|shift|postpone|reschedul\w*|push|bring|whole stay)\b")


class StayTasks(DeskCore):
    """New dates: quote from `check_availability`, then change on a yes."""

    # -- dates ----------------------------------------------------------------------------------

    def fill_dates(self, task: Task, msg: Message) -> bool:
        if self.state["info"] is None:
            task["texts"].append(msg.text)
            return False
        info = self.info
        current = (date.fromisoformat(info["check_in"]), date.fromisoformat(info["check_out"]))
        found = stay_change(msg.text, self.today, current)
        if _ARRIVAL_ONLY.search(msg.low) and not _MOVE.search(msg.low):
            task["slots"]["mode"] = "arrival"
        room = msg.room_type(info["room_type"])
        changed = False
        for key, value in found.items():
            changed = set_slot(task, key, value.isoformat()) or changed
        if room and task["proposal"].get("room_type") not in (None, room):
            changed = set_slot(task, "room_type", room) or changed
        return changed

    async def step_dates(self, task: Task) -> bool:
        info, ref = self.info, self.ref
        for text in task["texts"]:
            self.fill_dates(task, Message(text, self.today))
        task["texts"] = []
        if not info["changes_allowed"]:
            self.say(saver_refusal(ref, "move it to other dates"))
            return True
        slots = task["slots"]
        cur_ci, cur_co = date.fromisoformat(info["check_in"]), date.fromisoformat(info["check_out"])
        if not slots.get("check_in") and not slots.get("check_out"):
            return self.ask(
                task,
                "Which dates would you like instead? Please tell me your new "
                "arrival and departure dates.",
                "dates",
            )
        note = ""
        ci = date.fromisoformat(slots["check_in"]) if slots.get("check_in") else cur_ci
        if slots.get("check_out"):
            co = date.fromisoformat(slots["check_out"])
            note = "" if slots.get("check_in") else ", arriving as booked"
        elif slots.get("mode") == "arrival" and ci < cur_co:
            co, note = cur_co, ", leaving as booked"
        else:
            co = ci + (cur_co - cur_ci)
            note = f", keeping your {count((cur_co - cur_ci).days, 'night')}"
        problem = self._date_problem(ci, co, cur_ci, cur_co, task)
        if problem:
            task["slots"] = {}
            return self.ask(task, problem, "dates")
        result, error = await self.tool(
            "check_availability",
            hotel_id=info["hotel"]["hotel_id"],
            check_in=ci.isoformat(),
            check_out=co.isoformat(),
            booking_ref=ref,
        )
        if error:
            task["slots"] = {}
            return self.ask(
                task,
                f"I couldn't check those dates: {error}. Would you like to try other dates?",
                "revise",
            )
        return self._offer_dates(task, result, ci, co, note)

    def _date_problem(self, ci: date, co: date, cur_ci: date, cur_co: date, task: Task) -> str:
        if ci < self.today:
            return (
                f"I can't move a stay into the past — today is {day(self.today)}. Which "
                "dates would you like?"
            )
        if co <= ci:
            return (
                "The departure date needs to be after the arrival date. Which dates would you like?"
            )
        if (ci, co) == (cur_ci, cur_co) and not task["slots"].get("room_type"):
            return (
                f"Your booking already runs from {span(ci, co)}. Which dates would you like "
                "instead?"
            )
        return ""

    def _offer_dates(
        self, task: Task, found: dict[str, Any], ci: date, co: date, note: str
    ) -> bool:
        info = self.info
        kind = task["slots"].get("room_type") or info["room_type"]
        options = {o["room_type"]: o for o in found["options"]}
        mine, nights = options[kind], found["nights"]
        guests = info["adults"] + info["children"]
        breakfast = (
            " Breakfast will be recalculated for the new nights." if info["breakfast"] else ""
        )
        proposal = {
            "check_in": ci.isoformat(),
            "check_out": co.isoformat(),
            "room_type": None if kind == info["room_type"] else kind,
            "room_name": mine["name"],
            "total": mine["total_eur"],
            "first_rate": mine["nightly_rates"][0]["rate_eur"],
        }
        if mine["available"]:
            return self.confirm(
                task,
                f"The {mine['name']} is available from {span(ci, co)} "
                f"({count(nights, 'night')}{note}). The new room total would be "
                f"{eur(mine['total_eur'])}, {difference(mine['difference_eur'])}."
                f"{breakfast} Shall I change the dates?",
                proposal,
            )
        full = " and ".join(day(n) for n in mine["fully_booked_nights"])
        alts = [
            o
            for o in found["options"]
            if o["available"] and o["capacity"] >= guests and o["room_type"] != kind
        ]
        if not alts:
            task["slots"] = {}
            return self.ask(
                task,
                f"I'm sorry — there's no room free at {info['hotel']['name']} "
                f"from {span(ci, co)}: the {mine['name']} is fully booked on the night "
                f"of {full}. Your booking stays as it is. Would you like to try other "
                "dates?",
                "revise",
            )
        alt = min(alts, key=lambda o: o["total_eur"])
        proposal.update(
            room_type=alt["room_type"],
            room_name=alt["name"],
            total=alt["total_eur"],
            first_rate=alt["nightly_rates"][0]["rate_eur"],
        )
        return self.confirm(
            task,
            f"I'm sorry — the {mine['name']} is fully booked on the night of "
            f"{full}, so I can't keep your current room for those dates. A "
            f"{alt['name']} is free for the whole stay, {span(ci, co)} "
            f"({count(nights, 'night')}): {eur(alt['total_eur'])} in total, "
            f"{difference(alt['difference_eur'])}. Would you like me to move you "
            f"to the {alt['name']} for those dates?",
            proposal,
            offer=True,
        )

    async def do_dates(self, task: Task) -> bool:
        p, ref = task["proposal"], self.ref
        result, error = await self.tool(
            "change_dates",
            booking_ref=ref,
            check_in=p["check_in"],
            check_out=p["check_out"],
            room_type=p["room_type"],
        )
        if error:
            self.say(
                f"I'm sorry — the change didn't go through: {error}. Your booking is unchanged."
            )
            return True
        self.apply_result(result, p["room_name"])
        total, diff = self.dates_total_said(result, p)
        self.say(
            f"Done — booking {ref} now runs from {span(result['check_in'], result['check_out'])}"
            f" ({count(result['nights'], 'night')}) in the {p['room_name']}. The new total is "
            f"{eur(total)}, {difference(diff, 'before')}."
        )
        return True

    def dates_total_said(
        self, result: dict[str, Any], proposal: dict[str, Any]
    ) -> tuple[float, float]:
        """The new total and the difference, as the change returned them."""
        return result["total_eur"], result["difference_eur"]
