"""The desk's requests, one flow each: lookup, dates, driver, extra, class, cancel, damage, email.

Each `step_<intent>` works a request forward until it needs the customer (a question or a
proposal: "wait") or is finished ("done"); `done_<intent>` reports what the tool returned after a
yes. Methods the flawed agent overrides are marked "hook".
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.carhire import _read as rd
from benchmarks.domains.carhire import _seed

EXTRA_WORDS = {"child_seat": "child seat", "gps": "GPS"}
CLASS_WORDS = {"economy": "economy", "compact": "compact", "estate": "estate", "suv": "SUV",
               "premium": "premium"}


def age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


class Flows:
    """Mixed into the agent: everything here runs after the customer is verified."""

    s: dict[str, Any]

    @property
    def now(self) -> datetime:
        raise NotImplementedError

    @property
    def today(self) -> date:
        raise NotImplementedError

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: list[str]) -> str:
        raise NotImplementedError

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        raise NotImplementedError

    # -- shared pieces ---------------------------------------------------------------------
    def text_of(self, req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    async def booking_for(self, req: dict[str, Any], out: list[str]) -> dict[str, Any] | None:
        """The booking a request is about: one it names, else the one the customer gave."""
        named = rd.booking_refs(self.text_of(req))
        ref = next((r for r in named if r != self.s["home_ref"]), self.s["home_ref"])
        if ref not in self.s["bookings"]:
            await self.other_booking(ref, req, out)
            return None
        result, error = await self.call("get_booking", booking_ref=ref)
        if error:
            out.append(f"I'm sorry, I couldn't open booking {ref}: {error}.")
            return None
        return dict(result)

    async def other_booking(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        """Hook: a booking that is not the verified customer's is never read out."""
        out.append(f"I'm sorry, booking {ref} isn't on your account, so I can't share or change "
                   "anything on it. The person who made it can contact us with their own "
                   "booking reference and licence details.")

    def per_day(self, booking: dict[str, Any]) -> int:
        """Hook: the booking's price per day, with its drivers and extras."""
        return rd.pence(booking["total"]) // booking["days"]

    def hours_to_pickup(self, booking: dict[str, Any]) -> float:
        return (_seed.at(booking["pickup_at"]) - self.now).total_seconds() / 3600

    def not_open(self, booking: dict[str, Any], out: list[str]) -> bool:
        if booking["status"] != "booked":
            out.append(f"Booking {booking['booking_ref']} is {booking['status']}, so it can't be "
                       "changed.")
            return True
        return False

    # -- lookup ----------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None:
            return "done"
        extras = ", ".join(f"{q} × {EXTRA_WORDS[e]}" for e, q in b["extras"].items()) or "none"
        drivers = ", ".join(d["name"] for d in b["additional_drivers"]) or "none"
        word = CLASS_WORDS[b["car_class"]]
        out.append(f"Booking {b['booking_ref']}: {rd.article(word)} {word} car from "
                   f"{b['branch']}, pick-up {rd.say_stamp(b['pickup_at'])}, return "
                   f"{rd.say_stamp(b['return_at'])} ({b['days']} days), {b['cover']} cover, "
                   f"extras: {extras}, additional drivers: {drivers}. Total {b['total']} "
                   f"({b['status']}).")
        return "done"

    # -- dates -----------------------------------------------------------------------------
    def new_dates(self, req: dict[str, Any], b: dict[str, Any]) -> tuple[date, date] | None:
        text = self.text_of(req)
        old_pick, old_ret = date.fromisoformat(b["pickup_at"][:10]), \
            date.fromisoformat(b["return_at"][:10])
        pick, ret = None, None
        loose = []
        for hit in rd.find_dates(text, self.today):
            before = text[max(0, hit.start - 30):hit.start].lower()
            last = re.findall(r"pick|collect|start|return|back|drop|until|till|end|from|to|"
                              r"extend|instead", before)
            label = last[-1] if last else ""
            if hit.day in (old_pick, old_ret) and label in {"from", ""}:
                continue  # the booking's own dates, quoted to say which booking
            if label in {"pick", "collect", "start"}:
                pick = hit.day
            elif label in {"return", "back", "drop", "until", "till", "end", "extend"}:
                ret = hit.day
            else:
                loose.append(hit.day)
        if len(loose) >= 2 and pick is None and ret is None:
            pick, ret = loose[0], loose[1]
        elif loose:
            if re.search(r"pick|collect", text, re.I) and pick is None and \
                    not re.search(r"return|bring (?:it|the car) back|drop", text, re.I):
                pick = loose[0]
            elif ret is None:
                ret = loose[0]
        if ret is None and re.search(r"\b(extra day|a day longer|one more day|day later)\b", text,
                                     re.I):
            ret = old_ret + timedelta(days=1)
        if pick is None and ret is None:
            return None
        return pick or old_pick, ret or old_ret

    async def step_dates(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None or self.not_open(b, out):
            return "done"
        if self.hours_to_pickup(b) < 24:
            out.append(f"I'm sorry — your pick-up is {rd.say_stamp(b['pickup_at'])}, less than "
                       "24 hours away, so the dates can no longer be changed. You can still "
                       "cancel (one day's hire is kept), or call the branch on 0113 496 0550.")
            return "done"
        dates = self.new_dates(req, b)
        if dates is None:
            return self.ask("dates", f"Your booking runs from {rd.say_stamp(b['pickup_at'])} to "
                            f"{rd.say_stamp(b['return_at'])}. What new pick-up and return dates "
                            "would you like?", out)
        pick, ret = dates
        if ret <= pick:
            return self.ask("dates", "The return date needs to be after the pick-up date. "
                            "Which dates would you like?", out)
        days = (ret - pick).days
        new_total = days * self.per_day(b)
        diff = new_total - rd.pence(b["total"])
        money = (f"£{abs(diff) / 100:.2f} would be {'charged to' if diff >= 0 else 'refunded to'}"
                 " your card" if diff else "the price stays the same")
        text = (f"I can change booking {b['booking_ref']} to pick-up on {rd.say_date(pick)} at "
                f"{b['pickup_at'][11:]} and return on {rd.say_date(ret)} at {b['return_at'][11:]} "
                f"({days} days). The new total is {rd.pounds(new_total)} (it was {b['total']}), "
                f"so {money}. Shall I go ahead?")
        return self.propose(req, out, text, tool="change_dates",
                            args={"booking_ref": b["booking_ref"],
                                  "pickup_date": pick.isoformat(), "return_date": ret.isoformat()})

    async def done_dates(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("change the dates", error, pending, out)
            return
        verb = "charged to" if result["charged_or_refunded"] == "charged" else "refunded to"
        out.append(f"Done — booking {result['booking_ref']} now runs from "
                   f"{rd.say_stamp(result['pickup_at'])} to {rd.say_stamp(result['return_at'])}. "
                   f"The new total is {result['new_total']}; {result['difference'].lstrip('-')} "
                   f"has been {verb} your card.")

    def tool_failed(self, what: str, error: str, pending: dict[str, Any], out: list[str]) -> None:
        """Hook: a refusal from the hire system is reported as one, with its reason."""
        out.append(f"I'm sorry, I couldn't {what}: the system says {error}. Nothing has been "
                   "changed on your booking.")

    # -- additional driver -----------------------------------------------------------------
    def old_enough(self, born: date, pickup: date) -> bool:
        """Hook: additional drivers must be 21 or over on the pick-up day."""
        return age_on(born, pickup) >= 21

    async def step_driver(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None or self.not_open(b, out):
            return "done"
        text = self.text_of(req)
        name = rd.person_name(text, exclude=self.s["name"])
        born = rd.birth_date(text, self.today)
        if name is None or born is None:
            missing = " and ".join(w for w, v in (("full name", name), ("date of birth", born))
                                   if v is None)
            return self.ask("driver", f"What's the additional driver's {missing}?", out)
        pickup = date.fromisoformat(b["pickup_at"][:10])
        if not self.old_enough(born, pickup):
            out.append(f"I'm sorry, I can't add {name}: additional drivers must be 21 or over on "
                       f"the pick-up day, and {name} will be {age_on(born, pickup)} on "
                       f"{rd.say_date(pickup)}.")
            return "done"
        total = _seed.DRIVER_PENCE * b["days"]
        text = (f"I can add {name} (born {born.day} {born.strftime('%B %Y')}) as an additional "
                f"driver on booking {b['booking_ref']}: £12.00 a day for {b['days']} days, "
                f"{rd.pounds(total)} in total, charged to your card. Shall I go ahead?")
        return self.propose(req, out, text, tool="add_driver",
                            args={"booking_ref": b["booking_ref"], "name": name,
                                  "date_of_birth": born.isoformat()})

    async def done_driver(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("add the driver", error, pending, out)
            return
        out.append(f"Done — {result['driver']} is now an additional driver on booking "
                   f"{result['booking_ref']}. {result['charged']} has been charged; the new "
                   f"total is {result['new_total']}.")

    # -- extras ----------------------------------------------------------------------------
    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        b = await self.booking_for(req, out)
        if b is None or self.not_open(b, out):
            return "done"
        text = self.text_of(req)
        extra = rd.extra_asked(text) or "child_seat"
        wanted = 1 if extra == "gps" else (rd.quantity(text) or 1)
        have = b["extras"].get(extra, 0)
        room = _seed.EXTRA_MAX[extra] - have
        word = EXTRA_WORDS[extra]
        lead = ""
        if room <= 0:
            out.append(f"Booking {b['booking_ref']} already has {have} {word}"
                       f"{'s' if have > 1 else ''}, which is the most we can fit.")
            return "done"
        if wanted > room:
            lead = (f"We can fit at most {_seed.EXTRA_MAX[extra]} {word}s per booking and yours "
                    f"already has {have}, so I can add {room} more. ")
            wanted = room
        daily = _seed.EXTRA_PENCE[extra] * wanted
        text = (f"{lead}I can add {wanted} {word}{'s' if wanted > 1 else ''} to booking "
                f"{b['booking_ref']}: {rd.pounds(daily)} a day for {b['days']} days, "
                f"{rd.pounds(daily * b['days'])} in total, charged to your card. Shall I go ahead?")
        return self.propose(req, out, text, tool="add_extra",
                            args={"booking_ref": b["booking_ref"], "extra": extra,
                                  "quantity": wanted})

    async def done_extra(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("add that", error, pending, out)
            return
        word = EXTRA_WORDS[result["extra"]]
        out.append(f"Done — booking {result['booking_ref']} now has {result['quantity_now']} "
                   f"{word}{'s' if result['quantity_now'] > 1 else ''}. {result['charged']} has "
                   f"been charged; the new total is {result['new_total']}.")
