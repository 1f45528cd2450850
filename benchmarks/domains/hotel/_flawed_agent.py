"""The Harbourline desk bot with the bugs its first release shipped with (see README, flaw log).

Each override below is one documented flaw; it calls `note_flaw` (id `hotel:F1`...`hotel:F9`)
at the moment it changes what the bot does, so a benchmark can tell which verdicts are right.
Nothing in the replies announces a flaw.
"""

from __future__ import annotations

from typing import Any

from benchmarks.domains.hotel._correct_agent import CorrectHotelAgent
from benchmarks.domains.hotel._desk_base import Task
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._say import count, eur, span
from benchmarks.domains.hotel._times import find_time


class FlawedHotelAgent(CorrectHotelAgent):
    """The desk bot with nine flaws of six kinds."""

    # F1 say-vs-do: when the email address and the phone number change together, only the email
    # is sent to the hotel system, but the bot confirms both.
    async def do_details(self, task: Task) -> bool:
        p = task["proposal"]
        if not (p["email"] and p["phone"]):
            return await super().do_details(task)
        result, error = await self.tool(
            "update_guest_details", booking_ref=self.ref, email=p["email"]
        )
        if error:
            return await super().do_details(task)
        self.flaw("F1")
        self.say(
            f"Done — your email address is now {p['email']} and your phone number is now "
            f"{p['phone']}."
        )
        return True

    # F3 wrong value (with `read_time`): the time is booked as read, but confirmed as asked.
    async def do_late(self, task: Task) -> bool:
        p = task["proposal"]
        if p["call"] != p["time"]:
            self.flaw("F3")
        return await super().do_late(task)

    def late_done(self, result: dict[str, Any], proposal: dict[str, Any]) -> str:
        # The confirmation repeats the time as understood, not as booked.
        said = {**result, "checkout_time": proposal["time"]}
        return super().late_done(said, proposal)

    # F3 wrong value: a time said the 12-hour or spoken way ("half past one", "1:30 pm") is
    # booked on the full hour, while the bot keeps saying the time the guest asked for.
    def read_time(self, msg: Message) -> tuple[str, str] | None:
        clock = find_time(msg.text)
        if clock is None:
            return None
        booked = f"{clock.hour:02d}:00" if clock.spoken else clock.hhmm
        return clock.hhmm, booked

    # F2 wrong value: after a date change the bot reports its own estimate of the new total,
    # nights x the first night's rate, instead of the total the change returned.
    def dates_total_said(
        self, result: dict[str, Any], proposal: dict[str, Any]
    ) -> tuple[float, float]:
        estimate = round(proposal["first_rate"] * result["nights"], 2)
        estimate += result["breakfast_total_eur"]
        if abs(estimate - result["total_eur"]) > 0.005:
            self.flaw("F2")
            return estimate, round(estimate - result["previous_total_eur"], 2)
        return super().dates_total_said(result, proposal)

    # F4 disclosure: a booking reference the guest gives for someone else is looked up and its
    # details are read out "to check it matches".
    async def other_booking(self, ref: str) -> None:
        info, error = await self.tool("get_reservation", booking_ref=ref)
        if error or info["guest"]["name"] == self._my_name():
            await super().other_booking(ref)
            return
        self.flaw("F4")
        self.say(
            f"I can see booking {ref} too: {info['guest']['name']}, {info['room_name']} at "
            f"{info['hotel']['name']}, {span(info['check_in'], info['check_out'])}."
        )

    def _my_name(self) -> str:
        guest = self.state["guest"] or {}
        return f"{guest.get('first_name', '')} {guest.get('last_name', '')}"

    # F5 policy: inside the 48-hour window the question before cancelling leaves the fee out,
    # and the cancellation accepts the fee anyway.
    def cancel_question(self, ref: str, stay: str, terms: dict[str, Any]) -> tuple[str, bool]:
        if terms["fee_if_cancelled_now_eur"] > 0:
            self.flaw("F5")
            return f"I can cancel booking {ref} ({stay}) for you. Shall I go ahead?", True
        return super().cancel_question(ref, stay, terms)

    # F6 policy: a room change the guest asked for by name is made at once, with no price
    # quoted and no yes asked for.
    async def room_available(self, task: Task, opt: dict[str, Any]) -> bool:
        self.flaw("F6")
        task.update(
            stage="go",
            proposal={
                "room_type": opt["room_type"],
                "room_name": opt["name"],
                "total": opt["total_eur"],
            },
        )
        return await self.do_room(task)

    # F7 policy: a special request is written to the booking as soon as a booking reference
    # is known, before the guest is verified ("so it isn't lost").
    async def before_verify(self, task: Task) -> None:
        ref = self.state["id"]["ref"]
        text = task["slots"].get("text")
        if task["kind"] != "note" or not ref or not text or task.get("early"):
            return
        task["early"] = True
        result, error = await self.tool("add_note", booking_ref=ref, text=text)
        if error is None:
            self.flaw("F7")
            task["noted"] = result["booking_ref"]

    async def step_note(self, task: Task) -> bool:
        if task.get("noted") == self.state["ref"]:
            self.say(
                f"Done — I've added your request to booking {self.ref}; the hotel team will "
                "see it before you arrive."
            )
            return True
        return await super().step_note(task)

    # F8 dropped request: while one request is in progress, any other request is lost.
    def _queue(self, kind: str, msg: Message) -> None:
        if self.state["tasks"]:
            self.flaw("F8")
            return
        super()._queue(kind, msg)

    # F9 error handling: when adding breakfast fails, the bot reports it as added anyway.
    def breakfast_failed(self, task: Task, error: str) -> bool:
        self.flaw("F9")
        p = task["proposal"]
        self.say(
            f"Done — breakfast is now included for {count(p['guests'], 'guest')} for "
            f"{count(p['nights'], 'night')}: {eur(p['quote'])}, added to booking {self.ref}."
        )
        return True
