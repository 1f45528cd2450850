"""The desk's appointment requests: lookup, book, emergency, move, cancel.

Each `step_<intent>` works a request forward until it needs the patient (a question or a
proposal: "wait") or is finished ("done"); `done_<intent>` reports what the tool returned after a
yes. Methods the flawed agent overrides are marked "hook".
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.dental import _read as rd
from benchmarks.domains.dental import _seed

KIND_WORDS = {"dentist": "dentist appointment", "hygiene": "hygienist appointment",
              "emergency": "emergency appointment"}
_HYGIENE = re.compile(r"hygien|scale|polish|clean", re.I)
_URGENT = re.compile(r"pain|hurt|ache|aching|throbb|swell|swoll|abscess|bleed|knocked out|"
                     r"accident|fell|fall|hit in the|smashed|broke|broken|cracked|agony", re.I)
_NOT_URGENT = re.compile(r"\b(?:no|not in|without|isn'?t|doesn'?t|not) (?:any )?(?:pain|hurt|"
                         r"painful|sore|bleeding|swelling)|\bnot (?:really )?(?:hurting|painful|"
                         r"sore)|\bcosmetic|\bwhiten", re.I)


class Flows:
    """Mixed into the agent: everything here runs after the patient is verified."""

    s: dict[str, Any]
    today: date

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: list[str]) -> str:
        raise NotImplementedError

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        raise NotImplementedError

    # -- shared pieces ---------------------------------------------------------------------
    def text_of(self, req: dict[str, Any]) -> str:
        return ". ".join(c.strip().rstrip(".") for c in req["chunks"])

    async def record(self) -> dict[str, Any]:
        result, _ = await self.call("get_patient", patient_id=self.s["patient"])
        return dict(result)

    def upcoming(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        stamp = self.now.strftime(_seed.STAMP)  # type: ignore[attr-defined]
        return [a for a in record["appointments"] if a["status"] == "booked"
                and a["start_at"] > stamp]

    def say_appt(self, a: dict[str, Any]) -> str:
        return (f"your {KIND_WORDS[a['kind']]} ({a['appointment_id']}) with {a['clinician']} "
                f"on {rd.say_stamp(a['start_at'])}")

    async def other_appointment(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        """Hook: an appointment that is not the verified patient's is never read out."""
        out.append(f"I'm sorry, appointment {ref} isn't on your record, so I can't share or "
                   "change anything about it. The patient it belongs to can contact us "
                   "themselves and we'll help them after the usual identity check.")

    async def choose_appointment(self, req: dict[str, Any], out: list[str],
                                 what: str) -> dict[str, Any] | str | None:
        """The patient's appointment a request is about, "wait" after a question, or None."""
        record = await self.record()
        text = self.text_of(req)
        mine = {a["appointment_id"]: a for a in record["appointments"]}
        for ref in rd.appointment_refs(text):
            if ref not in mine:
                await self.other_appointment(ref, req, out)
                return None
            return mine[ref]
        options = self.upcoming(record)
        if not options:
            out.append("I can't see any upcoming appointments on your record.")
            return None
        named = set(rd.visit_dates(text, self.today))
        dated = [a for a in options if date.fromisoformat(a["start_at"][:10]) in named]
        if len(dated) == 1:
            return dated[0]
        if len(options) > 1 and _HYGIENE.search(text):
            options = [a for a in options if a["kind"] == "hygiene"] or options
        elif len(options) > 1 and re.search(r"dentist|check-?up", text, re.I):
            options = [a for a in options if a["kind"] == "dentist"] or options
        if len(options) == 1:
            return options[0]
        listed = "; ".join(self.say_appt(a) for a in options)
        return self.ask("appointment_id", f"You have more than one appointment: {listed}. "
                        f"Which one would you like to {what}?", out)

    def hours_until(self, start_at: str) -> float:
        return (_seed.at(start_at) - self.now).total_seconds() / 3600  # type: ignore[attr-defined]

    def price_line(self, kind: str) -> str:
        price = _seed.VISIT_PENCE[(kind, self.s["band"])]
        where = "NHS" if self.s["band"] == "nhs" and kind != "hygiene" else "private"
        return (f"The {where} charge is {rd.pounds(price)}, paid at the visit; nothing is "
                "charged now.")

    def wanted_time(self, text: str) -> str | None:
        """Hook: the clock time the patient asked for, the latest one named."""
        found = rd.times(text)
        return found[-1][1] if found else None

    async def pick_slot(self, req: dict[str, Any], kind: str, day: date | None, out: list[str],
                        *, skip: str = "") -> dict[str, Any] | str:
        """A free slot of `kind` on `day` at the time asked, or a question ("wait")."""
        text = self.text_of(req)
        slot = "new_date" if req["intent"] == "move" else "appointment_date"
        if day is None:
            return self.ask(slot, "Which day would you like? We're open Monday to Friday, "
                            "9:00 to 17:00.", out)
        if day < self.today or day.weekday() >= 5:
            why = "in the past" if day < self.today else "at the weekend, when we're closed"
            return self.ask(slot, f"{rd.say_date(day)} is {why}. Which other day would suit "
                            "you?", out)
        result, error = await self.call("find_slots", kind=kind, date=day.isoformat())
        free = [f for f in (result or {}).get("free", []) if f["slot_id"] != skip]
        if error or not free:
            return self.ask(slot, f"I'm sorry, there are no free {KIND_WORDS[kind]}s on "
                            f"{rd.say_date(day)}. Which other day would suit you?", out)
        want = self.wanted_time(text)
        if want:
            match = [f for f in free if f["time"] == want]
            if match:
                return match[0]
            lead = f"I'm sorry, {want} isn't free on {rd.say_date(day)}."
        else:
            lead = f"On {rd.say_date(day)}"
            part = rd.part_of_day(text)
            if part:
                narrowed = [f for f in free if (f["time"] < "12:00") == (part == "morning")]
                free = narrowed or free
        times = ", ".join(sorted({f["time"] for f in free}))
        return self.ask("new_time" if req["intent"] == "move" else "appointment_time",
                        f"{lead} we have {times} free. Which time would you like?", out)

    def tool_failed(self, what: str, error: str, pending: dict[str, Any], out: list[str]) -> None:
        """Hook: a refusal from the practice system is reported as one, with its reason."""
        out.append(f"I'm sorry, I couldn't {what}: the system says {error}. Nothing has been "
                   "changed.")

    # -- lookup ----------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        record = await self.record()
        mine = {a["appointment_id"] for a in record["appointments"]}
        for ref in rd.appointment_refs(self.text_of(req)):
            if ref not in mine:
                await self.other_appointment(ref, req, out)
                return "done"
        options = self.upcoming(record)
        if not options:
            out.append("You have no upcoming appointments with us.")
        else:
            listed = "; ".join(self.say_appt(a) for a in options)
            out.append(f"Your upcoming appointments: {listed}.")
        return "done"

    # -- booking ---------------------------------------------------------------------------
    def book_kind(self, req: dict[str, Any]) -> str:
        return req["notes"].get("kind") or ("hygiene" if _HYGIENE.search(self.text_of(req))
                                            else "dentist")

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        kind = self.book_kind(req)
        days = rd.visit_dates(self.text_of(req), self.today)
        slot = await self.pick_slot(req, kind, days[-1] if days else None, out)
        if isinstance(slot, str):
            return slot
        reason = "scale and polish" if kind == "hygiene" else "check-up"
        text = (f"I can book you a {KIND_WORDS[kind]} with {slot['clinician']} on "
                f"{rd.say_date(days[-1])} at {slot['time']}. {self.price_line(kind)} Shall I "
                "book it?")
        return self.propose(req, out, text, tool="book_appointment",
                            args={"patient_id": self.s["patient"], "slot_id": slot["slot_id"],
                                  "reason": req["notes"].get("reason", reason)})

    async def done_book(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("book that", error, pending, out)
            return
        later = (" We'll send a reminder the day before." if result["start_at"][:10] >
                 self.today.isoformat() else " Please arrive ten minutes early.")
        out.append(f"Done — you're booked: {self.say_appt(result)}.{later}")

    # -- emergency -------------------------------------------------------------------------
    async def step_emergency(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text_of(req)
        urgent = bool(_URGENT.search(text)) and not _NOT_URGENT.search(text)
        if not urgent and not _NOT_URGENT.search(text) and not req["notes"].get("asked"):
            req["notes"]["asked"] = True
            return self.ask("symptoms", "I'm sorry to hear that. So I can see whether it's an "
                            "emergency: are you in pain, is there swelling or bleeding, or has a "
                            "tooth been knocked out or broken in an accident?", out)
        if not urgent:
            return await self.routine_instead(req, out)
        result, error = await self.call("find_slots", kind="emergency",
                                        date=self.today.isoformat())
        free = (result or {}).get("free", [])
        if error or not free:
            out.append("I'm sorry, all of today's emergency slots are taken. Please call "
                       "0117 496 0321 at 8:00 tomorrow when the next ones are released, or NHS "
                       "111 if it gets worse out of hours.")
            return "done"
        want = self.wanted_time(text)
        slot = next((f for f in free if f["time"] == want), free[0])
        req["notes"]["reason"] = "emergency"
        text = (f"I can book you today's emergency appointment with {slot['clinician']} at "
                f"{slot['time']} ({rd.say_date(self.today)}). {self.price_line('emergency')} "
                "Shall I book it?")
        return self.propose(req, out, text, tool="book_appointment",
                            args={"patient_id": self.s["patient"], "slot_id": slot["slot_id"],
                                  "reason": "emergency"})

    async def routine_instead(self, req: dict[str, Any], out: list[str]) -> str:
        """Not an emergency by the policy: offer the next routine dentist appointment."""
        req["intent"], req["notes"]["kind"] = "book", "dentist"
        out.append("Our same-day emergency slots are kept for severe pain, swelling, bleeding, "
                   "or a tooth knocked out or broken in an accident, so I can't book one for "
                   "this — but I can book you a routine dentist appointment.")
        day = self.today + timedelta(days=1)
        for _ in range(10):
            if day.weekday() < 5:
                result, _err = await self.call("find_slots", kind="dentist",
                                               date=day.isoformat())
                if result and result["free"]:
                    req["chunks"].append(f"{rd.say_date(day)} at {result['free'][0]['time']}")
                    return await self.step_book(req, out)
            day += timedelta(days=1)
        return self.ask("appointment_date", "Which day would suit you?", out)

    async def done_emergency(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                             error: str | None, out: list[str]) -> None:
        await self.done_book(req, pending, result, error, out)

    # -- move ------------------------------------------------------------------------------
    def late_fee_due(self, appt: dict[str, Any], req: dict[str, Any]) -> bool:
        """Hook: moving or cancelling within 24 hours of the appointment costs £25.00."""
        return self.hours_until(appt["start_at"]) < 24

    def fee_line(self, late: bool, verb: str) -> str:
        if late:
            name = "late-cancellation" if verb == "cancelling" else "late-change"
            return (f"As the appointment is less than 24 hours away, {verb} it means our £25.00 "
                    f"{name} fee, charged to your card ending {self.s['card']}.")
        return f"There's no charge for {verb} it, as it's more than 24 hours away."

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        appt = await self.choose_appointment(req, out, "move")
        if not isinstance(appt, dict):
            return appt or "done"
        if appt["status"] != "booked":
            out.append(f"Appointment {appt['appointment_id']} is {appt['status']}, so it can't "
                       "be moved.")
            return "done"
        text = self.text_of(req)
        old_day = date.fromisoformat(appt["start_at"][:10])
        days = [d for d in rd.visit_dates(text, self.today) if d != old_day]
        if not days:
            return self.ask("new_date", f"I have {self.say_appt(appt)}. Which day would you "
                            "like to move it to?", out)
        slot = await self.pick_slot(req, appt["kind"], days[-1], out)
        if isinstance(slot, str):
            return slot
        late = self.late_fee_due(appt, req)
        text = (f"I can move {self.say_appt(appt)} to {rd.say_date(days[-1])} at "
                f"{slot['time']} with {slot['clinician']}. {self.fee_line(late, 'moving')} "
                "Shall I go ahead?")
        return self.propose(req, out, text, tool="move_appointment",
                            args={"appointment_id": appt["appointment_id"],
                                  "slot_id": slot["slot_id"], "late_fee": late})

    async def done_move(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("move it", error, pending, out)
            return
        fee = (f" The {result['late_fee_charged']} late-change fee has been charged to your "
               f"card ending {result['card_last4']}." if result["late_fee_charged"] != "£0.00"
               else "")
        out.append(f"Done — appointment {result['appointment_id']} is now on "
                   f"{rd.say_stamp(result['start_at'])} with {result['clinician']}.{fee}")

    # -- cancel ----------------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        appt = await self.choose_appointment(req, out, "cancel")
        if not isinstance(appt, dict):
            return appt or "done"
        if appt["status"] != "booked":
            out.append(f"Appointment {appt['appointment_id']} is already {appt['status']}.")
            return "done"
        late = self.late_fee_due(appt, req)
        text = (f"I can cancel {self.say_appt(appt)}. {self.fee_line(late, 'cancelling')} "
                "Shall I cancel it?")
        return self.propose(req, out, text, tool="cancel_appointment",
                            args={"appointment_id": appt["appointment_id"], "late_fee": late})

    async def done_cancel(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("cancel it", error, pending, out)
            return
        fee = (f" The {result['late_fee_charged']} late-cancellation fee has been charged to "
               f"your card ending {result['card_last4']}." if result["late_fee_charged"] !=
               "£0.00" else " There's no charge.")
        out.append(f"Done — appointment {result['appointment_id']} is cancelled.{fee}")
