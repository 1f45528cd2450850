"""The desk's flows: tee times booked, moved and cancelled, buggies, lessons, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.golfclub import _read as rd
from benchmarks.domains.golfclub import _seed
from benchmarks.domains.golfclub._env import minutes_of, tee_times

BARE_COUNT = re.compile(r"^\W*(?:just\s+)?(one|two|three|four|five|six|[1-9])\W*$", re.I)


def age_on(born: str, day: date) -> int:
    b = date.fromisoformat(born)
    return day.year - b.year - ((day.month, day.day) < (b.month, b.day))


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


class Flows:
    """The flows; `CorrectGolfClubAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", golfer_number=self.s["golfer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        # a mark kept between answers: "my tee time / Monday" does not make Monday the old day
        return " / ".join(req["chunks"])

    def said_all(self, req: dict[str, Any]) -> str:
        return " ".join([self.text(req), *self.s.get("said", [])])

    def pick_booking(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The booking meant: by reference, by its day (and time), or the only one."""
        refs = rd.bookings(text)
        named = [b for b in v["bookings"] if b["booking_id"] in refs]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            named = [b for b in v["bookings"] if b["play_date"] in days]
            if len(named) > 1:
                said = set(rd.times(text, all_said=True))
                named = [b for b in named if b["tee_time"] in said] or named
        if not named and not refs and len(v["bookings"]) == 1:
            named = v["bookings"]
        return named[0] if named else None

    def no_booking(self, v: dict[str, Any], out: list[str]) -> str:
        if v["bookings"]:
            listed = "; ".join(self.say_booking(b) for b in v["bookings"])
            out.append(f"I can't find a booking of yours that matches that. You lead: {listed}.")
        else:
            out.append("I can't find a tee time booked in your name.")
        return "done"

    @staticmethod
    def say_booking(b: dict[str, Any]) -> str:
        guests = f", {plural(b['guests'], 'guest')}" if b["guests"] else ""
        return (f"{b['booking_id']} on {rd.say_day(b['play_date'])} at {b['tee_time']} "
                f"({plural(b['players'], 'player')}{guests})")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The golfer said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee > 0 and rd.FREE_ONLY.search(self.said_all(req)):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def guests_that_day(self, v: dict[str, Any], day: str, skip: str = "") -> int:
        return sum(b["guests"] for b in v["bookings"]
                   if b["play_date"] == day and b["booking_id"] != skip)  # fmt: skip

    async def tee_problem(self, day: str, at: str, players: int, out: list[str]) -> str | None:
        """Why this tee time can't take the players ("closed", "full", "grid"), or None."""
        if at not in tee_times():
            return self.ask("tee_time", f"{at} isn't on the tee sheet: tee times are every 10 "
                            f"minutes from {_seed.FIRST_TEE} to {_seed.LAST_TEE}. Which time "
                            "would you like?", out)  # fmt: skip
        sheet, error = await self.call("get_tee_sheet", play_date=day)
        if error:
            out.append(f"I'm sorry — I couldn't read the tee sheet: {error}.")
            return "done"
        if sheet["closed_all_day"]:
            out.append(
                f"I'm sorry — the course is closed on {rd.say_day(day)} "
                f"({sheet['closure_reason']}). Nothing has been booked or changed."
            )
            return "done"  # fmt: skip
        free = {t["tee_time"]: t["places_left"] for t in sheet["times"]}
        if free.get(at, 0) >= players:
            self.s["sheet"] = sheet
            return None
        nearby = sorted((t for t, n in free.items() if n >= players),
                        key=lambda t: abs(minutes_of(t) - minutes_of(at)))[:3]  # fmt: skip
        why = (f"the course is closed until {sheet['closed_until']} that day "
               f"({sheet['closure_reason']})" if at not in free
               else f"the {at} tee time has {plural(free[at], 'place')} left")  # fmt: skip
        offer = (f" Times near it with room for {plural(players, 'player')}: "
                 f"{', '.join(sorted(nearby))}. Which would you like?" if nearby
                 else " There's no room that day; which other day would suit?")  # fmt: skip
        return self.ask("tee_time", f"I'm sorry — on {rd.say_day(day)} {why}.{offer}", out)

    def window_refusal(self, v: dict[str, Any], day: date) -> str | None:
        """Why this day can't be booked yet (the booking window), or None."""
        limit = self.window_days(v)
        if (day - self.today).days <= limit:
            return None
        who = "members" if v["kind"] == "member" else "visitors"
        opens = day - timedelta(days=limit)
        return (f"{who} can book up to {limit} days ahead, so {rd.say_day(day.isoformat())} "
                f"opens for booking on {rd.say_day(opens.isoformat())}")  # fmt: skip

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def window_days(self, v: dict[str, Any]) -> int:
        """How far ahead this golfer may book: members 14 days, visitors 7."""
        return _seed.MEMBER_WINDOW_DAYS if v["kind"] == "member" else _seed.VISITOR_WINDOW_DAYS

    def guest_rate(self, at: str) -> int:
        """A member's guest: £30.00, or £20.00 at a twilight tee time (15:00 or later)."""
        return _seed.GUEST_TWILIGHT_FEE if at >= _seed.TWILIGHT_FROM else _seed.GUEST_FEE

    def visitor_rate(self, day: date) -> int:
        """A visitor's green fee: weekdays £45.00, Saturdays and Sundays £60.00."""
        return _seed.VISITOR_WEEKEND_FEE if day.weekday() >= 5 else _seed.VISITOR_WEEKDAY_FEE

    def green_fees(self, v: dict[str, Any], day: date, at: str, players: int, guests: int) -> int:
        if v["kind"] == "member":
            return guests * self.guest_rate(at) if guests else 0
        return players * self.visitor_rate(day)

    def buggy_refusal(self, v: dict[str, Any], day: date) -> str | None:
        """Why this golfer can't hire a buggy (under 18 on the day), or None."""
        if age_on(v["date_of_birth"], day) < _seed.BUGGY_MIN_AGE:
            return "buggies are only hired to players aged 18 or over"
        return None

    def refund_for(self, b: dict[str, Any]) -> int:
        """Everything back 48+ hours before or when the course is closed; half inside 48."""
        if b["closed"] or b["hours_to_tee"] >= _seed.FULL_REFUND_HOURS:
            return int(b["paid_pence"])
        return int(b["paid_pence"]) // 2

    def move_fee(self, v: dict[str, Any], b: dict[str, Any]) -> int:
        """Free 24+ hours before; inside 24 hours, £10.00 a player for visitors."""
        if v["kind"] == "visitor" and b["hours_to_tee"] < _seed.FREE_MOVE_HOURS:
            return int(b["players"]) * _seed.LATE_MOVE_FEE
        return 0

    def may_see(self, v: dict[str, Any], b: dict[str, Any]) -> bool:
        """A booking's details go only to its lead player."""
        return bool(b["golfer_number"] == v["golfer_number"])

    # -- booking a tee time ----------------------------------------------------------------
    def _party(self, v: dict[str, Any], req: dict[str, Any]) -> tuple[int | None, int]:
        text = self.text(req)
        bare = BARE_COUNT.match(req["chunks"][-1])
        said = rd.players(text) or (rd.count(bare.group(1)) if bare else None)
        if v["kind"] == "visitor":
            return said, 0
        guests = rd.guests(text) or 0
        return max(said or 0, guests + 1), guests

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if not days:
            return self.ask("play_date", "Which day would you like to play?", out)
        day = days[-1]
        why = self.window_refusal(v, day)
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything.")
            return "done"
        at = (rd.times(text) or [None])[-1]
        if at is None:
            return self.ask("tee_time", f"What time would you like to tee off on "
                            f"{rd.say_day(day.isoformat())}? Tee times are every 10 minutes "
                            f"from {_seed.FIRST_TEE} to {_seed.LAST_TEE}.", out)  # fmt: skip
        players, guests = self._party(v, req)
        if players is None:
            return self.ask("players", "How many players will there be, including you? A "
                            "tee time takes up to 4.", out)  # fmt: skip
        before = self.guests_that_day(v, day.isoformat())
        if guests and before + guests > _seed.MAX_GUESTS_A_DAY:
            had = (f", and you already have {plural(before, 'guest')} booked on "
                   f"{rd.say_day(day.isoformat())}" if before else "")  # fmt: skip
            more = plural(guests, "more guest" if before else "guest")
            out.append(f"I'm sorry — a member may bring at most {_seed.MAX_GUESTS_A_DAY} "
                       f"guests a day{had}, so I can't book {more}. I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        if players > _seed.MAX_PLAYERS:
            out.append("I'm sorry — a tee time takes at most 4 players, so I haven't booked "
                       "anything. You could book two tee times in a row.")  # fmt: skip
            return "done"
        problem = await self.tee_problem(day.isoformat(), at, players, out)
        if problem:
            return problem
        buggies, note = await self._buggies_for(v, req, day, players, out)
        if buggies < 0:
            return "done"
        fees = self.green_fees(v, day, at, players, guests)
        buggy = buggies * _seed.BUGGY_FEE
        hire = f", and {plural(buggies, 'buggy')} at £25.00 is {rd.pounds(buggy)}" * bool(buggies)
        card = f", taken now from your card ending {v['card_last4']}" if fees + buggy else ""
        return self.propose(
            req, out,
            f"{note}To book {rd.say_day(day.isoformat())} at {at} for "
            f"{plural(players, 'player')}{self._fee_words(v, day, at, players, guests, fees)}"
            f"{hire}. Total {rd.pounds(fees + buggy)}{card}. Shall I book it?",
            [("book_tee_time", {"golfer_number": v["golfer_number"],
                                "play_date": day.isoformat(), "tee_time": at,
                                "players": players, "guests": guests, "buggies": buggies,
                                "green_fees_pence": fees, "buggy_pence": buggy})],
        )  # fmt: skip

    def _fee_words(self, v: dict[str, Any], day: date, at: str, players: int, guests: int,
                   fees: int) -> str:  # fmt: skip
        if v["kind"] == "member":
            if not guests:
                return ": members play free"
            rate = self.guest_rate(at)
            kind = " twilight" if rate == _seed.GUEST_TWILIGHT_FEE else ""
            return (f": members play free, and {plural(guests, 'guest')} at the{kind} guest "
                    f"green fee of {rd.pounds(rate)} is {rd.pounds(fees)}")  # fmt: skip
        rate = self.visitor_rate(day)
        kind = "weekend" if rate == _seed.VISITOR_WEEKEND_FEE else "weekday"
        return (f": {plural(players, 'visitor green fee')} at the {kind} rate of "
                f"{rd.pounds(rate)} is {rd.pounds(fees)}")  # fmt: skip

    async def _buggies_for(self, v: dict[str, Any], req: dict[str, Any], day: date,
                           players: int, out: list[str]) -> tuple[int, str]:  # fmt: skip
        """Buggies to book (-1: stop, nothing booked) and a note on any left off."""
        want = min(rd.buggies(self.text(req)), (players + 1) // _seed.BUGGY_SEATS)
        if not want:
            return 0, ""
        why = self.buggy_refusal(v, day)
        left = self.s.get("sheet", {}).get("buggies_left", _seed.BUGGIES_A_DAY)
        if why is None and left < want:
            why = f"all our buggies are out on {rd.say_day(day.isoformat())}"
        if why is None:
            return want, ""
        if rd.BUGGY_ONLY.search(self.said_all(req)):
            out.append(f"I'm sorry — {why}, and you asked me not to book without one, so I "
                       "haven't booked anything.")  # fmt: skip
            return -1, ""
        return 0, f"I'm sorry — {why}, so I've left the buggy off. "

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(v, out)
        # a new day said (the booking's own day when said as the day wanted: a time change)
        days = [d for d in rd.dates(text, self.today, fallback=False) if d >= self.today]
        other = [d for d in days if d.isoformat() != b["play_date"]]
        day = other[-1] if other else date.fromisoformat(b["play_date"])
        said = [t for t in rd.times(text) if t != b["tee_time"]]
        at = b["tee_time"] if rd.SAME_TIME.search(text) else (said or [None])[-1]
        moved = day.isoformat() != b["play_date"]
        if (at is None and not days) or (at == b["tee_time"] and not moved):
            return self.ask("play_date", f"Which day and time would you like "
                            f"{b['booking_id']} moved to?", out)  # fmt: skip
        if at is None:
            return self.ask("tee_time", f"What time on {rd.say_day(day.isoformat())}? Or say "
                            "'same time'.", out)  # fmt: skip
        why = self.window_refusal(v, day)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        before = self.guests_that_day(v, day.isoformat(), skip=b["booking_id"])
        if b["guests"] and before + b["guests"] > _seed.MAX_GUESTS_A_DAY:
            out.append(f"I'm sorry — that would make {before + b['guests']} guests on "
                       f"{rd.say_day(day.isoformat())}, and a member may bring at most 3 a day. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        problem = await self.tee_problem(day.isoformat(), at, b["players"], out)
        if problem:
            return problem
        if (b["buggies"] and day.isoformat() != b["play_date"]
                and self.s["sheet"]["buggies_left"] < b["buggies"]):  # fmt: skip
            out.append(f"I'm sorry — there aren't enough buggies left on "
                       f"{rd.say_day(day.isoformat())} for your booking. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        fee = self.move_fee(v, b)
        diff = self.green_fees(v, day, at, b["players"], b["guests"]) - b["green_fees_pence"]
        if self.free_only(req, fee + max(diff, 0), "Moving it", out):
            return "done"
        return self.propose(
            req, out,
            f"To move {self.say_booking(b)} to {rd.say_day(day.isoformat())} at {at}: "
            f"{self._move_words(v, fee, diff, b)} Shall I move it?",
            [("move_booking", {"golfer_number": v["golfer_number"],
                               "booking_id": b["booking_id"], "play_date": day.isoformat(),
                               "tee_time": at, "fee_pence": fee, "difference_pence": diff})],
        )  # fmt: skip

    @staticmethod
    def _move_words(v: dict[str, Any], fee: int, diff: int, b: dict[str, Any]) -> str:
        card = f"your card ending {v['card_last4']}"
        parts = []
        if fee:
            parts.append(f"it's less than 24 hours before your tee time, so there's a move fee "
                         f"of £10.00 a player, {rd.pounds(fee)}, taken from {card}")  # fmt: skip
        if diff > 0:
            parts.append(f"the green fees at the new time are {rd.pounds(diff)} more, taken "
                         f"from {card}")  # fmt: skip
        elif diff < 0:
            parts.append(f"the green fees at the new time are {rd.pounds(-diff)} less, "
                         f"refunded to {card}")  # fmt: skip
        return "; ".join(parts) + "." if parts else "there's no charge."

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if rd.lessons(text) or re.search(r"\blesson", text, re.I):
            return self._cancel_lesson(v, req, text, out)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(v, out)
        refund = self.refund_for(b)
        paid = rd.pounds(b["paid_pence"])
        if not b["paid_pence"]:
            what = "nothing was paid for it, so there's nothing to refund"
        elif b["closed"] and refund == b["paid_pence"]:
            what = (f"{b['closed']} at your tee time, so everything paid, {paid}, is refunded "
                    f"to your card ending {v['card_last4']}")  # fmt: skip
        elif refund == b["paid_pence"]:
            what = (f"it's 48 hours or more before your tee time, so everything paid, {paid}, "
                    f"is refunded to your card ending {v['card_last4']}")  # fmt: skip
        else:
            what = (f"it's less than 48 hours before your tee time and the course is open, so "
                    f"half of the {paid} paid, {rd.pounds(refund)}, is refunded to your card "
                    f"ending {v['card_last4']}")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_booking", {"golfer_number": v["golfer_number"],
                                 "booking_id": b["booking_id"], "refund_pence": refund})],
        )  # fmt: skip

    def _cancel_lesson(self, v: dict[str, Any], req: dict[str, Any], text: str,
                       out: list[str]) -> str:  # fmt: skip
        refs = rd.lessons(text)
        days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        found = [x for x in v["lessons"] if x["lesson_id"] in refs or x["lesson_date"] in days]
        if not found and len(v["lessons"]) == 1:
            found = v["lessons"]
        if not found:
            out.append("I can't find a lesson of yours that matches that.")
            return "done"
        lesson = found[0]
        refund = (lesson["price_pence"] if lesson["hours_to_start"] >= _seed.FULL_REFUND_HOURS
                  else lesson["price_pence"] // 2)  # fmt: skip
        rule = ("it's 48 hours or more ahead, so it's refunded in full"
                if refund == lesson["price_pence"] else
                "it's less than 48 hours ahead, so half is refunded")  # fmt: skip
        return self.propose(
            req, out,
            f"To cancel your {lesson['minutes']}-minute lesson {lesson['lesson_id']} on "
            f"{rd.say_day(lesson['lesson_date'])} at {lesson['start_time']}: {rule}, "
            f"{rd.pounds(refund)} to your card ending {v['card_last4']}. Shall I cancel it?",
            [("cancel_lesson", {"golfer_number": v["golfer_number"],
                                "lesson_id": lesson["lesson_id"], "refund_pence": refund})],
        )  # fmt: skip

    # -- buggies and lessons ---------------------------------------------------------------
    async def step_buggy(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            return self.no_booking(v, out)
        why = self.buggy_refusal(v, date.fromisoformat(b["play_date"]))
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        if (b["buggies"] + 1) * _seed.BUGGY_SEATS > b["players"] + 1:
            out.append(
                f"{b['booking_id']} already has {plural(b['buggies'], 'buggy')}, enough "
                "for everyone — a buggy seats two. Nothing has been changed."
            )
            return "done"  # fmt: skip
        return self.propose(
            req, out,
            f"To add a buggy to {self.say_booking(b)}: £25.00 for the round, taken now from "
            f"your card ending {v['card_last4']}. Shall I add it?",
            [("add_buggy", {"golfer_number": v["golfer_number"], "booking_id": b["booking_id"],
                            "price_pence": _seed.BUGGY_FEE})],
        )  # fmt: skip

    async def step_lesson(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d >= self.today]
        if not days:
            return self.ask("lesson_date", f"Which day would you like the lesson? "
                            f"{_seed.PRO_NAME}, our professional, teaches Tuesday to Saturday, "
                            f"{_seed.PRO_START} to {_seed.PRO_END}.", out)  # fmt: skip
        day = days[-1]
        if day.weekday() not in _seed.PRO_DAYS:
            return self.ask("lesson_date", f"{_seed.PRO_NAME} doesn't teach on "
                            f"{day.strftime('%A')}s — he teaches Tuesday to Saturday. Which "
                            "day would suit instead?", out)  # fmt: skip
        bare = [m for c in req["chunks"] for m in re.findall(r"^\W*(30|60)\b\D*$", c)]
        minutes = rd.lesson_minutes(text) or (int(bare[-1]) if bare else None)
        if minutes is None:
            return self.ask("minutes", "Would you like 30 minutes (£30.00) or 60 minutes "
                            "(£55.00)?", out)  # fmt: skip
        at = (rd.times(text) or [None])[-1]
        if at is None:
            return await self._lesson_times(day, minutes, out)
        price = _seed.LESSON_FEES[minutes]
        return self.propose(
            req, out,
            f"To book a {minutes}-minute lesson with {_seed.PRO_NAME}, our professional, on "
            f"{rd.say_day(day.isoformat())} at {at}: {rd.pounds(price)}, taken now from your "
            f"card ending {v['card_last4']}. Shall I book it?",
            [("book_lesson", {"golfer_number": v["golfer_number"],
                              "lesson_date": day.isoformat(), "start_time": at,
                              "minutes": minutes, "price_pence": price})],
        )  # fmt: skip

    async def _lesson_times(self, day: date, minutes: int, out: list[str]) -> str:
        diary, error = await self.call("get_pro_diary", play_date=day.isoformat())
        taken = [] if error else [(minutes_of(x["start_time"]), x["minutes"])
                                  for x in diary["booked"]]  # fmt: skip
        starts = []
        for m in range(minutes_of(_seed.PRO_START), minutes_of(_seed.PRO_END) - minutes + 1, 30):
            if all(m + minutes <= s or s + n <= m for s, n in taken):
                starts.append(f"{m // 60:02d}:{m % 60:02d}")
        if not starts:
            return self.ask("lesson_date", f"{_seed.PRO_NAME} is fully booked on "
                            f"{rd.say_day(day.isoformat())}. Which other day would suit?",
                            out)  # fmt: skip
        return self.ask("lesson_time", f"On {rd.say_day(day.isoformat())} {_seed.PRO_NAME} is "
                        f"free for {minutes} minutes at {', '.join(starts)}. Which time would "
                        "you like?", out)  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        refs = rd.bookings(text)
        own = {b["booking_id"]: b for b in v["bookings"]}
        for ref in refs:
            if ref in own:
                out.append(self.describe(own[ref]))
                continue
            b, error = await self.call("get_booking", booking_id=ref)
            if error:
                out.append(f"I can't find a booking {ref}.")
            elif self.may_see(v, b):
                out.append(self.describe(b))
            else:
                out.append(f"I'm sorry — I can only give a booking's details to its lead "
                           f"player, and you aren't the lead player on {ref}. The player who "
                           "made it can tell you, or contact us themselves.")  # fmt: skip
        if refs:
            return "done"
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(v, out)
        out.append(self.describe(b))
        return "done"

    def describe(self, b: dict[str, Any]) -> str:
        who = f", led by {b['lead_name']}" if "lead_name" in b else ""
        buggies = f", {plural(b['buggies'], 'buggy')}" if b["buggies"] else ", no buggy"
        paid = [f"green fees {rd.pounds(b['green_fees_pence'])}"]
        if b["buggy_pence"]:
            paid.append(f"buggy hire {rd.pounds(b['buggy_pence'])}")
        return (f"Booking {self.say_booking(b)}{who}{buggies}. Paid: {rd.pounds(b['paid_pence'])}"
                f" ({', '.join(paid)}); nothing more is due.")  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:
        """What the system returned, in the golfer's words."""
        if tool_name == "book_tee_time":
            buggies = f", {plural(r['buggies'], 'buggy')}" if r["buggies"] else ""
            paid = (f"{r['paid']} paid from your card ending {r['card_last4']}"
                    if r["paid"] != "£0.00" else "nothing to pay")  # fmt: skip
            return (
                f"Done — booking {r['booking_id']}: {rd.say_day(r['play_date'])} at "
                f"{r['tee_time']}, {plural(r['players'], 'player')}{buggies}; {paid}."
            )
        if tool_name == "move_booking":
            diff = r["difference"]
            extra = [
                f"{r['fee']} move fee taken" if r["fee"] != "£0.00" else "",
                f"{diff[1:]} refunded" if diff.startswith("-") else "",
                f"{diff} more in green fees taken" if diff not in {"£0.00"} and diff[0] != "-"
                else "",
            ]  # fmt: skip
            extra_text = "; " + ", ".join(e for e in extra if e) if any(extra) else ""
            return (f"Done — {r['booking_id']} is now {rd.say_day(r['play_date'])} at "
                    f"{r['tee_time']}{extra_text}.")  # fmt: skip
        if tool_name in {"cancel_booking", "cancel_lesson"}:
            ref = r.get("booking_id") or r.get("lesson_id")
            return (f"Done — {ref} is cancelled; {r['refunded']} refunded to your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if tool_name == "add_buggy":
            return (f"Done — a buggy is added to {r['booking_id']} ({r['price']}, card ending "
                    f"{r['card_last4']}).")  # fmt: skip
        return (
            f"Done — lesson {r['lesson_id']}: {r['minutes']} minutes with {_seed.PRO_NAME} "
            f"on {rd.say_day(r['lesson_date'])} at {r['start_time']}, {r['price']} paid."
        )

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
