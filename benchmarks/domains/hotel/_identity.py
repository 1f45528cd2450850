"""Who the desk is talking to, and which booking: verification and the choice of booking."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.hotel._dates import find_dates
from benchmarks.domains.hotel._desk_base import ASK_ID, DeskBase
from benchmarks.domains.hotel._names import last_name
from benchmarks.domains.hotel._parse import Message
from benchmarks.domains.hotel._say import span


class GuestIdentity(DeskBase):
    """Collects the guest's identity from their messages, verifies it, and opens the booking."""

    def _absorb_identity(self, msg: Message) -> None:
        s, idn = self.state, self.state["id"]
        own, others = msg.own_refs(), msg.other_refs()
        if s["verified"]:
            mine = {b["booking_ref"] for b in s["bookings"]}
            others += [r for r in own if r not in mine]
        else:
            if own:
                idn["ref"] = own[0]
            updating = "details" in msg.intents or any(
                t["kind"] == "details" and t["stage"] == "ask" for t in s["tasks"]
            )
            if msg.emails and not updating:
                idn["email"] = msg.emails[0]
            if msg.dob:
                idn["dob"] = msg.dob.isoformat()
            asked = s["awaiting"] == "identity"
            if msg.lacking and not own:
                idn["by_email"] = True
            name = last_name(msg.text, asked=asked and not msg.emails and not msg.lacking)
            if name:
                idn["last_name"] = name
        for ref in others:
            if ref not in s["others"]:
                s["others"].append(ref)

    async def _verify(self) -> bool:
        s, idn = self.state, self.state["id"]
        if idn["ref"] and idn["last_name"]:
            args = {"booking_ref": idn["ref"], "last_name": idn["last_name"]}
        elif idn["email"] and idn["dob"]:
            args = {"email": idn["email"], "date_of_birth": idn["dob"]}
        else:
            s["awaiting"] = "identity"
            self.say(self._missing_identity())
            return False
        result, error = await self.tool("find_reservation", **args)
        if error:
            s["failed"] += 1
            s["id"] = {
                "ref": None,
                "last_name": None,
                "email": None,
                "dob": None,
                "by_email": idn["by_email"],
            }
            if s["failed"] >= 3:
                s["tasks"] = []
                self.say(
                    "I'm sorry — I still can't match those details to a booking, so I can't "
                    "make any changes here. Please contact the hotel directly."
                )
                return False
            self.say(
                "I'm sorry — I couldn't find a booking matching those details. Could you "
                "check the booking reference and the spelling of the last name? (The email "
                "address and date of birth on the booking work too.)"
            )
            return False
        s.update(verified=True, guest=result["guest"], bookings=result["bookings"], awaiting=None)
        self.say(f"Thank you, {result['guest']['first_name']}.")
        return True

    def _missing_identity(self) -> str:
        idn = self.state["id"]
        if idn["by_email"] and not idn["ref"] and not (idn["email"] or idn["dob"]):
            return (
                "No problem — then I can find your booking with the email address and the "
                "date of birth you booked with. Could you give me both?"
            )
        if idn["ref"] and not idn["last_name"]:
            return f"Thanks. And what's the last name on booking {idn['ref']}?"
        if idn["email"] and not idn["dob"]:
            return "Thanks. And your date of birth, please?"
        if idn["dob"] and not idn["email"]:
            return "Thanks. And the email address you booked with?"
        if idn["last_name"]:
            return (
                "Thanks. And your booking reference? It starts with HL. (If you don't have "
                "it, the email address and date of birth you booked with work too.)"
            )
        return f"I can help with that. First I need to find your booking. {ASK_ID}"

    def _upcoming(self) -> list[dict[str, Any]]:
        today = self.today.isoformat()
        return [
            b
            for b in self.state["bookings"]
            if b["status"] == "confirmed" and b["check_out"] >= today
        ]

    async def _choose(self, msg: Message) -> bool:
        s, upcoming = self.state, self._upcoming()
        refs = [b["booking_ref"] for b in upcoming]
        if s["id"]["ref"] in refs:
            ref = s["id"]["ref"]
        elif len(upcoming) == 1:
            ref = refs[0]
        elif not upcoming:
            s["tasks"] = []
            self.say(
                "I can't see an upcoming booking under your name, so there's nothing I can "
                "change here. Is there anything else I can help with?"
            )
            return False
        else:
            # Dates in a request for new dates are the new ones, not the booking's.
            texts = [msg.text] + [t["source"] for t in s["tasks"] if t["kind"] != "dates"]
            found = self._match_booking(texts, upcoming)
            if found is None:
                s["awaiting"] = "booking"
                options = "; ".join(
                    f"{b['booking_ref']} at {b['hotel']}, {span(b['check_in'], b['check_out'])}"
                    for b in upcoming
                )
                self.say(
                    f"I can see {len(upcoming)} upcoming bookings: {options}. Which one "
                    "would you like me to look at?"
                )
                return False
            ref = found
        return await self._load(ref)

    async def _load(self, ref: str) -> bool:
        s = self.state
        info, error = await self.tool("get_reservation", booking_ref=ref)
        if error:
            self.say(f"I'm sorry, I couldn't open booking {ref}: {error}.")
            s["tasks"] = []
            return False
        s.update(ref=ref, info=info, awaiting=None)
        self.say(
            f"I've found your booking {ref}: {info['room_name']} at {info['hotel']['name']}, "
            f"{span(info['check_in'], info['check_out'])}."
        )
        return True

    def _pick_booking(self, msg: Message) -> bool:
        upcoming = self._upcoming()
        found = next((r for r in msg.own_refs() if r in [b["booking_ref"] for b in upcoming]), None)
        found = found or self._match_booking([msg.text], upcoming)
        order = re.search(r"\b(first|1st|earlier|sooner|second|2nd|later|last|other)\b", msg.low)
        if not found and order and upcoming:
            first = order[1] in ("first", "1st", "earlier", "sooner")
            found = upcoming[0 if first else -1]["booking_ref"]
        if found:
            self.state["id"]["ref"] = found
            self.state["awaiting"] = None
        return found is not None

    def _match_booking(self, texts: list[str], upcoming: list[dict[str, Any]]) -> str | None:
        scores = {b["booking_ref"]: 0 for b in upcoming}
        for text in texts:
            msg, low = Message(text, self.today), text.lower()
            for b in upcoming:
                ci, co = date.fromisoformat(b["check_in"]), date.fromisoformat(b["check_out"])
                for f in find_dates(text, self.today, ci):
                    scores[b["booking_ref"]] += 2 if ci <= f.day <= co else 0
                if f"{ci:%B}".lower() in low or b["hotel"].split()[1].lower() in low:
                    scores[b["booking_ref"]] += 1
            for r in msg.own_refs():
                if r in scores:
                    scores[r] += 10
        best = max(scores.values(), default=0)
        winners = [r for r, v in scores.items() if v == best]
        return winners[0] if best > 0 and len(winners) == 1 else None

    async def _mention_others(self) -> None:
        s = self.state
        for ref in s["others"]:
            if ref not in s["others_done"] and ref != s["ref"]:
                s["others_done"].append(ref)
                await self.other_booking(ref)
