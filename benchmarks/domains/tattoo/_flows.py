"""The desk's flows: appointments, patch tests, moves, cancellations, kits, gift cards, look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.tattoo import _read as rd
from benchmarks.domains.tattoo import _seed

KIND_WORDS = {"session": "session", "consultation": "consultation", "touchup": "touch-up"}
DAY_NAMES = {"Mon": "Mondays", "Tue": "Tuesdays", "Wed": "Wednesdays", "Thu": "Thursdays",
             "Fri": "Fridays", "Sat": "Saturdays", "Sun": "Sundays"}  # fmt: skip
ARTIST_LIST = ("Mara (colour realism), Dex (blackwork and traditional), Ivy (fine line) or "
               "Rook (Japanese)")  # fmt: skip


def stamp_of(day: date, when: str) -> str:
    return f"{day.isoformat()} {when}"


def at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp).replace(tzinfo=_seed.UK)


def end_of(stamp: str, minutes: int) -> str:
    return (at(stamp) + timedelta(minutes=minutes)).strftime("%H:%M")


def say_days(days: list[str]) -> str:
    names = [DAY_NAMES[d] for d in days]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def works(a: dict[str, Any], day: date) -> bool:
    """The artist works that weekday and the studio is open."""
    return _seed.WEEKDAY_CODES[day.weekday()] in a["days"] and day not in _seed.CLOSED_DAYS


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def balance_due(b: dict[str, Any]) -> int:
    """What is left to pay on the day: price and kits, less the deposit and gift-card money."""
    return int(b["price_pence"] + b["kits_pence"] - b["deposit_pence"] - b["gift_pence"])


class Flows:
    """The flows; `CorrectTattooAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_client", client_id=self.s["client"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_booking(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The booking meant: by reference, by artist, by its day, or the only one booked."""
        ids = rd.bookings(text)
        named = [b for b in v["bookings"] if b["booking_id"] in ids]
        if named:
            return named[0]
        found = v["bookings"]
        artists = rd.artists(text)
        if artists:
            found = [b for b in found if b["artist_id"] in artists]
        days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        on_day = [b for b in found if b["start"][:10] in days]
        if len(found) > 1 and on_day:
            found = on_day
        return found[0] if found else None

    def no_booking(self, out: list[str]) -> str:
        out.append("I can't find a booking that matches that on your record.")
        return "done"

    @staticmethod
    def say_booking(b: dict[str, Any]) -> str:
        kind = KIND_WORDS.get(b["kind"], b["kind"])
        length = f"{b['minutes'] // 60}-hour " if b["kind"] == "session" else ""
        return (f"{length}{kind} with {b['artist'].split()[0]} on {rd.say_when(b['start'])} "
                f"({b['booking_id']})")  # fmt: skip

    def not_working(self, a: dict[str, Any], day: date, out: list[str]) -> str:
        name = a["name"].split()[0]
        closed = " (the studio is closed that day)" if day in _seed.CLOSED_DAYS else ""
        return self.ask("day", f"{name} doesn't work on {rd.say_day(day.isoformat())}{closed} — "
                        f"{name} works {say_days(a['days'])}. Which other day would you like?",
                        out)  # fmt: skip

    def free_only(self, req: dict[str, Any], lost: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if the deposit is kept: a loss ends the request."""
        if lost and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would lose your {rd.pounds(lost)} deposit, and you asked me to "
                       "leave it in that case, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def old_enough(self, dob: str, day: date) -> bool:
        """18 or over on the day of the appointment."""
        return age_on(dob, day) >= _seed.MIN_AGE

    def patch_ok(self, v: dict[str, Any], start: str) -> bool:
        """A patch test, done or booked, at least 48 hours before a colour session."""
        latest = at(start) - timedelta(hours=_seed.PATCH_HOURS)
        return any(at(p["at"]) <= latest for p in v["patch_tests"])

    def hours_before(self, b: dict[str, Any]) -> float:
        """How long before the booking's start it is now, in hours."""
        return float(b["hours_to_start"])

    def free_move(self, b: dict[str, Any], hours: float) -> bool:
        """The first move, 72 or more hours before the start, keeps the deposit."""
        return b["moves"] == 0 and hours >= _seed.FREE_MOVE_HOURS

    def gift_cover(self, b: dict[str, Any]) -> int:
        """The most a gift card may pay on a booking: its balance, never the deposit."""
        return balance_due(b)

    def may_share(self, v: dict[str, Any], b: dict[str, Any]) -> bool:
        """A booking's details go only to its own client."""
        return bool(b["client_id"] == v["client_id"])

    # -- new appointments ------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        return await self.appointment(req, out, "session")

    async def step_consult(self, req: dict[str, Any], out: list[str]) -> str:
        return await self.appointment(req, out, "consultation")

    async def step_touchup(self, req: dict[str, Any], out: list[str]) -> str:
        return await self.appointment(req, out, "touchup")

    def _artist_for(self, v: dict[str, Any], text: str, kind: str) -> str | None:
        named = rd.artists(text)
        if named:
            return named[-1]
        if kind == "touchup" and v["history"]:
            return str(v["history"][-1]["artist_id"])
        return None

    async def appointment(self, req: dict[str, Any], out: list[str], kind: str) -> str:
        v = await self.refresh()
        text = self.text(req)
        if kind == "touchup" and not v["history"]:
            out.append("A touch-up is for a piece we've tattooed, and I can't see a finished "
                       "session on your record, so I haven't booked anything.")  # fmt: skip
            return "done"
        artist_id = self._artist_for(v, text, kind)
        if artist_id is None:
            return self.ask("artist", f"Which artist would you like: {ARTIST_LIST}?", out)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("day", "Which day would you like?", out)
        day = days[-1]
        if not self.old_enough(v["dob"], day):
            out.append(f"I'm sorry — we only book clients who are 18 or over on the day, and by "
                       f"our records you'd be {age_on(v['dob'], day)} on "
                       f"{rd.say_day(day.isoformat())}. I haven't booked anything.")  # fmt: skip
            return "done"
        a, error = await self.call("artist_availability", artist=artist_id)
        if error:
            out.append(f"I'm sorry — {error}.")
            return "done"
        if not works(a, day):
            return self.not_working(a, day, out)
        return await self._appointment_time(req, out, kind, v, a, day)

    async def _appointment_time(self, req: dict[str, Any], out: list[str], kind: str,
                                v: dict[str, Any], a: dict[str, Any],
                                day: date) -> str:  # fmt: skip
        text = self.text(req)
        when = rd.clock_time(text)
        step = 20 if kind == "consultation" else 60
        if when is None or int(when[3:]) % step:
            hint = ("Consultations start at :00, :20 or :40" if kind == "consultation"
                    else "Appointments start on the hour")  # fmt: skip
            return self.ask("time", f"What time would you like to start? {hint}, between 10:00 "
                            "and 18:00.", out)  # fmt: skip
        hours = 0
        if kind == "session":
            hours = rd.session_hours(text) or 0
            if hours not in _seed.SESSION_HOURS:
                return self.ask("hours", "How long a session would you like: 2, 4 or 6 hours?",
                                out)  # fmt: skip
        minutes = {"session": hours * 60, "consultation": _seed.CONSULT_MINUTES,
                   "touchup": _seed.TOUCHUP_MINUTES}[kind]  # fmt: skip
        start = stamp_of(day, when)
        end = end_of(start, minutes)
        if when < _seed.OPEN or end > _seed.CLOSE or end < when:
            return self.ask("time", f"The studio is open 10:00 to 18:00, so a {minutes // 60 or 1}"
                            "-hour appointment must finish by 18:00. What time would you like?",
                            out)  # fmt: skip
        colour = False
        if kind == "session":
            said = rd.colour(text)
            if said is None:
                return self.ask("colour", "Is the piece in colour, or black and grey?", out)
            colour = said
        if colour and not self.patch_ok(v, start):
            out.append(self._no_patch(v, start))
            return "done"
        return self._propose_appointment(req, out, kind, v, a, start, hours, colour)

    def _no_patch(self, v: dict[str, Any], start: str) -> str:
        tests = v["patch_tests"]
        if not tests:
            return ("I'm sorry — a colour session needs a patch test at least 48 hours before it, "
                    "and there isn't one on your record, so I haven't booked anything. I can book "
                    "you a free 10-minute patch test; the session can then start from 48 hours "
                    "after it.")  # fmt: skip
        last = tests[-1]["at"]
        earliest = (at(last) + timedelta(hours=_seed.PATCH_HOURS)).strftime(_seed.STAMP)
        return (f"I'm sorry — a colour session needs a patch test at least 48 hours before it. "
                f"Your patch test is on {rd.say_when(last)}, less than 48 hours before "
                f"{rd.say_when(start)}, so I haven't booked anything. The earliest a colour "
                f"session could start is {rd.say_when(earliest)}.")  # fmt: skip

    def touchup_free(self, v: dict[str, Any], artist_id: str, day: date) -> dict[str, Any] | None:
        """The finished session, with the same artist, within 8 weeks of the touch-up day."""
        for b in reversed(v["history"]):
            gap = (day - date.fromisoformat(b["start"][:10])).days
            if b["artist_id"] == artist_id and 0 <= gap <= _seed.TOUCHUP_FREE_DAYS:
                return b
        return None

    def _propose_appointment(self, req: dict[str, Any], out: list[str], kind: str,
                             v: dict[str, Any], a: dict[str, Any], start: str, hours: int,
                             colour: bool) -> str:  # fmt: skip
        name, rate = a["name"].split()[0], int(a["rate_pence"])
        when = rd.say_when(start)
        why_free = None
        if kind == "session":
            price = rate * hours
            what = (f"a {hours}-hour {'colour' if colour else 'black-and-grey'} session with "
                    f"{name} on {when} (until {end_of(start, hours * 60)}): {hours} hours at "
                    f"{rd.pounds(rate)} an hour, {rd.pounds(price)} in all")  # fmt: skip
        elif kind == "consultation":
            price = 0
            what = f"a free 20-minute consultation with {name} on {when}"
        else:
            done = self.touchup_free(v, a["artist_id"], date.fromisoformat(start[:10]))
            price = 0 if done else rate
            if done:
                why_free = (f"it's free, as it's within 8 weeks of your session with {name} on "
                            f"{rd.say_day(done['start'])}")  # fmt: skip
            what = (f"a 1-hour touch-up with {name} on {when}: "
                    + (why_free or f"touch-ups are free only within 8 weeks of the session and "
                       f"with the same artist, so this one is charged at {rd.pounds(rate)} for "
                       "the hour"))  # fmt: skip
        deposit = price * _seed.DEPOSIT_PERCENT // 100
        if price:
            money = (f" A non-refundable 20% deposit of {rd.pounds(deposit)} is taken now from "
                     f"your card ending {v['card_last4']} and taken off the final price, so "
                     f"{rd.pounds(price - deposit)} is left to pay on the day.")  # fmt: skip
        else:
            money = " There's no charge and no deposit."
        id_note = (" Please bring photo ID: we only tattoo clients who are 18 or over."
                   if kind != "consultation" else "")  # fmt: skip
        return self.propose(
            req, out, f"To book {what}.{money}{id_note} Shall I book it?",
            [("book_appointment", {"client_id": v["client_id"], "artist_id": a["artist_id"],
                                   "kind": kind, "start": start, "hours": hours,
                                   "colour": colour, "price_pence": price,
                                   "deposit_pence": deposit})],
        )  # fmt: skip

    # -- patch tests -----------------------------------------------------------------------
    async def step_patch(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("day", "Which day would you like to come in for the patch test? It "
                            "takes 10 minutes, any open day from 10:00 to 17:50.", out)  # fmt: skip
        day = days[-1]
        if day in _seed.CLOSED_DAYS:
            return self.ask("day", f"The studio is closed on {rd.say_day(day.isoformat())}. "
                            "Which other day would you like?", out)  # fmt: skip
        when = rd.clock_time(text)
        if when is None:
            return self.ask("time", "What time would you like to come in? Any 10 minutes from "
                            "10:00 to 17:50.", out)  # fmt: skip
        start = stamp_of(day, when)
        ready = (at(start) + timedelta(hours=_seed.PATCH_HOURS)).strftime(_seed.STAMP)
        return self.propose(
            req, out, f"To book a free 10-minute patch test at the studio on "
            f"{rd.say_when(start)}. A colour session can then start from {rd.say_when(ready)}. "
            "Shall I book it?",
            [("book_patch_test", {"client_id": v["client_id"], "at": start})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        days = [d for d in days if d.isoformat() != b["start"][:10]]
        if not days:
            return self.ask("day", "Which day would you like to move it to?", out)
        day = days[-1]
        a, error = await self.call("artist_availability", artist=b["artist_id"])
        if error:
            out.append(f"I'm sorry — {error}.")
            return "done"
        if not works(a, day):
            return self.not_working(a, day, out)
        start = stamp_of(day, rd.clock_time(text) or b["start"][11:16])
        hours = self.hours_before(b)
        free = self.free_move(b, hours) or not b["deposit_pence"]
        new_deposit = 0 if free else b["price_pence"] * _seed.DEPOSIT_PERCENT // 100
        lost = 0 if free else int(b["deposit_pence"])
        if self.free_only(req, lost, "Moving it", out):
            return "done"
        if free:
            charge = (f"It's your first move and {int(hours)} hours before the "
                      f"session (72 or more), so it's free: your {rd.pounds(b['deposit_pence'])} "
                      "deposit stays on the booking." if b["deposit_pence"] else
                      "There's no deposit on it, so there's nothing to pay.")  # fmt: skip
        else:
            why = ("it's already been moved once" if b["moves"] else
                   f"it's less than 72 hours before the session ({int(hours)} hours)")  # fmt: skip
            left = balance_due({**b, "deposit_pence": new_deposit})
            charge = (f"As {why}, your {rd.pounds(lost)} deposit is lost — it no longer comes off "
                      f"the price — and a new 20% deposit of {rd.pounds(new_deposit)} is taken "
                      f"now from your card ending {v['card_last4']}; {rd.pounds(left)} is then "
                      "left to pay on the day.")  # fmt: skip
        return self.propose(
            req, out, f"To move your {self.say_booking(b)} to {rd.say_when(start)} (until "
            f"{end_of(start, b['minutes'])}). {charge} Shall I move it?",
            [("move_booking", {"client_id": v["client_id"], "booking_id": b["booking_id"],
                               "start": start, "new_deposit_pence": new_deposit})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(out)
        deposit = (f"your {rd.pounds(b['deposit_pence'])} deposit is non-refundable, so it's "
                   "kept, and nothing else has been paid, so nothing is refunded"
                   if b["deposit_pence"] else
                   "nothing has been paid, so nothing is refunded")  # fmt: skip
        gift = (f"; the {rd.pounds(b['gift_pence'])} of gift-card money on it goes back onto the "
                "gift card" if b["gift_pence"] else "")  # fmt: skip
        return self.propose(
            req, out, f"To cancel your {self.say_booking(b)}: {deposit}{gift}. Shall I cancel it?",
            [("cancel_booking", {"client_id": v["client_id"], "booking_id": b["booking_id"],
                                 "refund_pence": 0})],
        )  # fmt: skip

    # -- aftercare kits and gift cards -----------------------------------------------------
    async def step_kit(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        if b["kind"] == "consultation":
            out.append("Aftercare kits go with a tattoo, and that booking is a consultation, so "
                       "I haven't added one.")  # fmt: skip
            return "done"
        kit = rd.kit(text)
        if kit is None:
            return self.ask("kit", "Which kit would you like: the standard kit (£12.00) or the "
                            "large kit (£20.00, for big pieces)?", out)  # fmt: skip
        m = re.search(r"\b(two|three|2|3)\s+(?:\w+\s+)?(?:aftercare\s+)?kits\b", text, re.I)
        quantity = {"two": 2, "three": 3, "2": 2, "3": 3}[m.group(1).lower()] if m else 1
        price = _seed.KITS[kit] * quantity
        kits = f"{quantity} {kit} aftercare kits" if quantity > 1 else f"the {kit} aftercare kit"
        return self.propose(
            req, out, f"To add {kits} to your {self.say_booking(b)}: {rd.pounds(price)}, paid "
            "with the balance on the day. Shall I add it?",
            [("add_aftercare", {"client_id": v["client_id"], "booking_id": b["booking_id"],
                                "kit": kit, "quantity": quantity, "price_pence": price})],
        )  # fmt: skip

    async def step_gift(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        codes = rd.gift_codes(text)
        if not codes:
            return self.ask("code", "What's the gift card's code? It starts GC.", out)
        card, error = await self.call("check_gift_card", code=codes[-1])
        if error:
            out.append(f"I'm sorry — {error}. Nothing has been changed.")
            return "done"
        if card["expired"]:
            out.append(f"I'm sorry — gift card {card['code']} expired on "
                       f"{rd.say_day(card['expires'])}, so it can't be used.")  # fmt: skip
            return "done"
        due = balance_due(b)
        if card["balance_pence"] <= 0 or due <= 0:
            out.append(f"There's nothing left on gift card {card['code']}." if due > 0 else
                       "There's nothing left to pay on that booking.")  # fmt: skip
            return "done"
        amount = min(int(card["balance_pence"]), self.gift_cover(b))
        left = max(due - amount, 0)
        rest = f"{rd.pounds(left)} is left to pay on the day" if left else "nothing is left to pay"
        return self.propose(
            req, out, f"To put {rd.pounds(amount)} from gift card {card['code']} (it has "
            f"{rd.pounds(card['balance_pence'])} on it) towards your {self.say_booking(b)}. Gift "
            f"cards go against the balance, not the {rd.pounds(b['deposit_pence'])} deposit; "
            f"{rd.pounds(card['balance_pence'] - amount)} stays on the card and {rest}. Shall I "
            "use it?",
            [("apply_gift_card", {"client_id": v["client_id"], "booking_id": b["booking_id"],
                                  "code": card["code"], "amount_pence": amount})],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mine = {b["booking_id"] for b in v["bookings"]}
        other = [r for r in rd.bookings(text) if r not in mine]
        if other:
            b, error = await self.call("get_booking", booking_id=other[0])
            if error:
                out.append(f"I can't find a booking {other[0]}.")
                return "done"
            if not self.may_share(v, b):
                out.append(f"Booking {other[0]} isn't on your record, and I can only discuss a "
                           "booking with the client it belongs to — they're welcome to contact "
                           "us themselves.")  # fmt: skip
                return "done"
        else:
            b = self.pick_booking(v, text)
            if b is None:
                return self.no_booking(out)
        kits = f" plus {rd.pounds(b['kits_pence'])} of aftercare kits" if b["kits_pence"] else ""
        gift = f" and {rd.pounds(b['gift_pence'])} from a gift card" if b["gift_pence"] else ""
        whose = "Your" if b["client_id"] == v["client_id"] else f"{b.get('client_name')}'s"
        kind = KIND_WORDS.get(b["kind"], b["kind"])
        length = f"{b['minutes'] // 60}-hour " if b["kind"] == "session" else ""
        out.append(
            f"{whose} {length}{kind} {b['booking_id']} with {b['artist'].split()[0]} is on "
            f"{rd.say_day(b['start'])}, from {b['start'][11:16]} to "
            f"{end_of(b['start'], b['minutes'])}. The price is {rd.pounds(b['price_pence'])}"
            f"{kits}; the {rd.pounds(b['deposit_pence'])} deposit{gift} "
            f"{'come' if gift else 'comes'} off, so {rd.pounds(balance_due(b))} is left to pay "
            "on the day."
        )
        return "done"

    async def step_info(self, req: dict[str, Any], out: list[str]) -> str:
        named = rd.artists(self.text(req)) or ["AR1", "AR2", "AR3", "AR4"]
        lines = []
        for artist_id in dict.fromkeys(named):
            a, error = await self.call("artist_availability", artist=artist_id)
            if not error:
                lines.append(f"{a['name'].split()[0]} ({a['style']}) works {say_days(a['days'])}, "
                             f"10:00 to 18:00, at {a['rate']} an hour.")  # fmt: skip
        out.append(" ".join(lines) + " Sessions are 2, 4 or 6 hours, with a non-refundable 20% "
                   "deposit taken off the final price; consultations are free and take 20 "
                   "minutes.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:
        """What the system returned, in the client's words."""
        if tool_name == "book_appointment":
            kind = KIND_WORDS.get(r["kind"], r["kind"])
            paid = (f"; {r['deposit_taken']} deposit taken from your card ending {r['card_last4']}"
                    if r["deposit_taken"] != "£0.00" else "")  # fmt: skip
            return (f"Done — booking {r['booking_id']} is confirmed: a {kind} with "
                    f"{r['artist'].split()[0]} on {rd.say_when(r['start'])}{paid}.")  # fmt: skip
        if tool_name == "move_booking":
            kept = (f"; your {r['deposit_forfeited']} deposit was forfeited and a new "
                    f"{r['new_deposit_taken']} deposit taken from your card ending "
                    f"{r['card_last4']}" if r["deposit_forfeited"] != "£0.00"
                    else "; your deposit stays on the booking")  # fmt: skip
            return f"Done — booking {r['booking_id']} is now on {rd.say_when(r['start'])}{kept}."
        if tool_name == "cancel_booking":
            back = (f"; {r['gift_card_credit_back']} is back on the gift card"
                    if r["gift_card_credit_back"] != "£0.00" else "")  # fmt: skip
            return (f"Done — booking {r['booking_id']} is cancelled; {r['refunded']} refunded"
                    f"{back}.")  # fmt: skip
        if tool_name == "book_patch_test":
            return f"Done — your patch test is booked for {rd.say_when(r['at'])}."
        if tool_name == "add_aftercare":
            kits = (f"{r['quantity']} {r['kit']} aftercare kits are" if r["quantity"] > 1
                    else f"the {r['kit']} aftercare kit is")  # fmt: skip
            return (f"Done — {kits} on booking {r['booking_id']} ({r['price']}, paid on the "
                    "day).")  # fmt: skip
        return (f"Done — {r['applied']} from gift card {r['code']} is on booking "
                f"{r['booking_id']}; {r['card_balance_left']} is left on the card.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, that nothing changed, and the free times."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
        tool_name, args = pending["calls"][0]
        if "already booked" not in error or tool_name not in {"book_appointment", "move_booking"}:
            return
        b = next((b for b in self.s["view"]["bookings"]
                  if b["booking_id"] == args.get("booking_id")), None)  # fmt: skip
        artist = b["artist_id"] if b else args["artist_id"]
        minutes = b["minutes"] if b else ({"consultation": _seed.CONSULT_MINUTES, "touchup":
                                          _seed.TOUCHUP_MINUTES}.get(args["kind"])
                                          or args["hours"] * 60)  # fmt: skip
        a, err = await self.call("artist_availability", artist=artist, day=args["start"][:10],
                                 minutes=minutes)  # fmt: skip
        if not err and a["free_starts"]:
            out.append(f"{a['name'].split()[0]}'s free start times that day are "
                       f"{', '.join(a['free_starts'])}.")  # fmt: skip
        elif not err:
            out.append(f"{a['name'].split()[0]} has no free time that day.")
