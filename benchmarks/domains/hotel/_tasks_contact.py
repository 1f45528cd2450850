"""Requests about the guest rather than the stay: contact details, special requests, questions."""

from __future__ import annotations

import re

from benchmarks.domains.hotel._desk import DeskCore
from benchmarks.domains.hotel._desk_base import Task, set_slot
from benchmarks.domains.hotel._parse import EMAIL, NOTE_WORDS, PHONE, Message
from benchmarks.domains.hotel._say import count, eur, span


def _note_text(msg: Message) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", msg.text.strip())
    wanted = [s for s in sentences if re.search(NOTE_WORDS, s.lower())] or sentences
    text = " ".join(wanted).strip().rstrip(".!? ")
    text = re.sub(r"^(?:hi|hello|hey)\b[,!.]?\s*", "", text, flags=re.IGNORECASE)
    return f"Guest request: {text}"[:480]


class ContactTasks(DeskCore):
    """Guest details, special requests for the hotel team, and questions about the booking."""

    def fill_details(self, task: Task, msg: Message) -> bool:
        changed = False
        if re.search(r"\b(?:phone|mobile|number)\b", msg.low) and not msg.emails:
            task["slots"].setdefault("want", "phone")
        elif re.search(r"\be-?mail\b", msg.low):
            task["slots"].setdefault("want", "email")
        if msg.emails:
            changed = set_slot(task, "email", msg.emails[-1]) or changed
        phones = PHONE.findall(EMAIL.sub(" ", msg.text))
        if phones:
            changed = set_slot(task, "phone", re.sub(r"\s+", " ", phones[-1].strip())) or changed
        return changed

    async def step_details(self, task: Task) -> bool:
        slots = task["slots"]
        if not slots.get("email") and not slots.get("phone"):
            if slots.get("want") == "phone":
                question = "What's the new phone number? Please include the country code."
            else:
                question = "What's the new email address?"
            return self.ask(task, question, "details")
        parts = [f"the email address to {slots['email']}"] if slots.get("email") else []
        parts += [f"the phone number to {slots['phone']}"] if slots.get("phone") else []
        return self.confirm(
            task,
            f"I'll change {' and '.join(parts)} on your guest profile. Shall I go ahead?",
            {"email": slots.get("email"), "phone": slots.get("phone")},
        )

    async def do_details(self, task: Task) -> bool:
        p = task["proposal"]
        result, error = await self.tool(
            "update_guest_details", booking_ref=self.ref, email=p["email"], phone=p["phone"]
        )
        if error:
            task.update(slots={"want": task["slots"].get("want")}, proposal={})
            return self.ask(
                task,
                f"I'm sorry — that didn't go through: {error}. Could you give it to me again?",
                "details",
            )
        said = " and ".join(
            f"your {'email address' if k == 'email' else 'phone number'} is now {v}"
            for k, v in result["updated"].items()
        )
        self.say(f"Done — {said}.")
        return True

    # -- special requests -----------------------------------------------------------------------

    def fill_note(self, task: Task, msg: Message) -> bool:
        if task.get("asked") == "text" or re.search(NOTE_WORDS, msg.low):
            return set_slot(task, "text", _note_text(msg))
        return False

    async def step_note(self, task: Task) -> bool:
        text = task["slots"].get("text")
        if not text:
            return self.ask(task, "What would you like me to pass on to the hotel?", "text")
        return self.confirm(
            task,
            f"I'll add this request to booking {self.ref} for the hotel team: \"{text}\". There's "
            "no charge; the hotel will do its best, but requests can't be guaranteed. Shall I "
            "add it?",
            {"text": text},
        )

    async def do_note(self, task: Task) -> bool:
        result, error = await self.tool(
            "add_note", booking_ref=self.ref, text=task["proposal"]["text"]
        )
        if error:
            self.say(f"I'm sorry — I couldn't add the request: {error}.")
            return True
        self.say(
            f"Done — I've added your request to booking {result['booking_ref']}; the hotel "
            "team will see it before you arrive."
        )
        return True

    # -- questions about the booking ------------------------------------------------------------

    def fill_info(self, task: Task, msg: Message) -> bool:
        return False

    async def step_info(self, task: Task) -> bool:
        info = self.info
        extras = []
        extras.append("breakfast included" if info["breakfast"] else "room only")
        if info["late_checkout"]:
            extras.append(f"late check-out at {info['late_checkout']}")
        self.say(
            f"Booking {self.ref}: {info['room_name']} at {info['hotel']['name']}, "
            f"{span(info['check_in'], info['check_out'])} ({count(info['nights'], 'night')}), "
            f"{count(info['adults'] + info['children'], 'guest')}, {', '.join(extras)}. The "
            f"total is {eur(info['total_eur'])}. Check-in is from "
            f"{info['hotel']['check_in_time']} and check-out by "
            f"{info['hotel']['check_out_time']}."
        )
        return True
