"""The club's tee sheet the desk works through: `GolfClubEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.golfclub import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    sign = "-" if pence < 0 else ""
    return f"{sign}£{abs(pence) / 100:,.2f}"


def norm_number(text: str) -> str:
    m = re.search(r"([MV])\s*-?\s*(\d{4})", text.strip(), re.I)
    return f"{m.group(1).upper()}{m.group(2)}" if m else text.strip().upper()


def minutes_of(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def tee_times() -> list[str]:
    first, last = minutes_of(_seed.FIRST_TEE), minutes_of(_seed.LAST_TEE)
    return [hhmm(m) for m in range(first, last + 1, _seed.TEE_GAP_MINUTES)]


def valid_time(text: str) -> bool:
    return bool(re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", text))


class Golfer(BaseModel):
    golfer_number: str = Field(description="Membership number (M1001) or visitor number (V5001)")


class Verify(Golfer):
    surname: str = Field(description="The golfer's surname")


class BookingId(BaseModel):
    booking_id: str = Field(description="A tee-time booking, e.g. FW3103")


class BookingRef(Golfer):
    booking_id: str = Field(description="A tee-time booking of this golfer, e.g. FW3103")


class Day(BaseModel):
    play_date: str = Field(description="YYYY-MM-DD")


class BookTee(Golfer):
    play_date: str = Field(description="YYYY-MM-DD")
    tee_time: str = Field(description="HH:MM, on the 10-minute sheet from 08:00 to 15:30")
    players: int = Field(description="1 to 4, the lead player included")
    guests: int = Field(default=0, description="A member's guests among the players")
    buggies: int = Field(default=0, description="Buggies hired for the round")
    green_fees_pence: int = Field(description="The green fees the desk quoted")
    buggy_pence: int = Field(default=0, description="The buggy hire the desk quoted")


class MoveBooking(BookingRef):
    play_date: str = Field(description="The new day, YYYY-MM-DD")
    tee_time: str = Field(description="The new tee time, HH:MM")
    fee_pence: int = Field(default=0, description="The late-move fee the desk quoted")
    difference_pence: int = Field(
        default=0, description="Green fees to pay (+) or give back (-) at the new time"
    )


class CancelBooking(BookingRef):
    refund_pence: int = Field(description="The refund the desk quoted")


class AddBuggy(BookingRef):
    price_pence: int = Field(description="The buggy hire the desk quoted")


class Lesson(Golfer):
    lesson_date: str = Field(description="YYYY-MM-DD")
    start_time: str = Field(description="HH:MM, on the hour or half hour")
    minutes: int = Field(description="30 or 60")
    price_pence: int = Field(description="The price the desk quoted")


class LessonRef(Golfer):
    lesson_id: str = Field(description="e.g. PL7001")
    refund_pence: int = Field(description="The refund the desk quoted")


class GolfClubEnvironment(SqliteEnvironment):
    """Fairway Golf Club: golfers, tee-time bookings, lessons, closures and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "golfer_number": ["membership number", "visitor number", "membership or visitor"],
        "surname": ["surname", "last name"],
        "play_date": ["which day", "what day"],
        "tee_time": ["what time", "which tee time"],
        "players": ["how many players", "how many of you"],
        "minutes": ["30 or 60", "how long"],
        "lesson_date": ["day would you like the lesson"],
        "lesson_time": ["which time would you like"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _golfer(self, number: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM golfers WHERE golfer_number = ?", norm_number(number))
        if found is None:
            raise ToolFailure(f"no golfer {number}")
        return found

    def _booking(self, g: dict[str, Any], booking_id: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", booking_id.strip().upper())
        if b is None or b["golfer_number"] != g["golfer_number"]:
            raise ToolFailure(f"no booking {booking_id} led by {g['golfer_number']}")
        if b["status"] != "booked":
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _charge(self, g: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (golfer_number, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (g["golfer_number"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _day(self, text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ToolFailure(f"{text!r} is not a date (YYYY-MM-DD)") from None

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        last = self.db.execute(
            f"SELECT MAX(CAST(substr({column}, 3) AS INTEGER)) FROM {table}"  # noqa: S608
        ).fetchone()[0]
        return f"{prefix}{(last or start) + 1}"

    def hours_until(self, day: str, at: str) -> float:
        start = datetime.combine(date.fromisoformat(day), datetime.min.time(), tzinfo=_seed.UK)
        start += timedelta(minutes=minutes_of(at))
        return (start - self.now()).total_seconds() / 3600

    def closure(self, day: str) -> dict[str, Any] | None:
        return self._one("SELECT * FROM closures WHERE play_date = ?", day)

    def closed_at(self, day: str, at: str) -> str | None:
        """Why the course is shut at this tee time, or None."""
        c = self.closure(day)
        if c is None:
            return None
        if c["closed_until"] is None:
            return f"the course is closed all day ({c['reason']})"
        if at < c["closed_until"]:
            return f"the course is closed until {c['closed_until']} ({c['reason']})"
        return None

    def places_left(self, day: str, at: str, skip: str = "") -> int:
        taken = self.db.execute(
            "SELECT COALESCE(SUM(players), 0) FROM bookings WHERE play_date = ? AND tee_time = ? "
            "AND status = 'booked' AND booking_id != ?",
            (day, at, skip),
        ).fetchone()[0]
        return int(_seed.MAX_PLAYERS - taken)

    def buggies_left(self, day: str, skip: str = "") -> int:
        used = self.db.execute(
            "SELECT COALESCE(SUM(buggies), 0) FROM bookings WHERE play_date = ? "
            "AND status = 'booked' AND booking_id != ?",
            (day, skip),
        ).fetchone()[0]
        return int(_seed.BUGGIES_A_DAY - used)

    def _check_slot(self, day: str, at: str, players: int, skip: str = "") -> None:
        when = self._day(day)
        if at not in tee_times():
            raise ToolFailure(f"{at} is not a tee time: every 10 minutes, "
                              f"{_seed.FIRST_TEE} to {_seed.LAST_TEE}")  # fmt: skip
        if when < self.now().date() or self.hours_until(day, at) <= 0:
            raise ToolFailure("that tee time has passed")
        shut = self.closed_at(day, at)
        if shut:
            raise ToolFailure(shut)
        left = self.places_left(day, at, skip)
        if players > left:
            raise ToolFailure(f"the {at} tee time on {day} has {left} place(s) left")

    def view(self, number: str) -> dict[str, Any]:
        """The golfer as staff see them: details, bookings they lead, lessons."""
        g = self._golfer(number)
        bookings = self._rows(
            "SELECT * FROM bookings WHERE golfer_number = ? AND status = 'booked' "
            "ORDER BY play_date, tee_time",
            g["golfer_number"],
        )
        for b in bookings:
            b["hours_to_tee"] = round(self.hours_until(b["play_date"], b["tee_time"]), 2)
            b["closed"] = self.closed_at(b["play_date"], b["tee_time"])
        lessons = self._rows(
            "SELECT * FROM lessons WHERE golfer_number = ? AND status = 'booked' "
            "ORDER BY lesson_date, start_time",
            g["golfer_number"],
        )
        for lesson in lessons:
            lesson["hours_to_start"] = round(
                self.hours_until(lesson["lesson_date"], lesson["start_time"]), 2
            )
        return {**g, "bookings": bookings, "lessons": lessons}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the membership or visitor number and the surname must "
        "match. Returns the golfer with their bookings and lessons."
    )
    def verify_golfer(self, args: Verify) -> dict[str, Any]:
        g = self._one(
            "SELECT golfer_number FROM golfers WHERE golfer_number = ? AND lower(surname) = ?",
            norm_number(args.golfer_number),
            args.surname.strip().lower(),
        )
        if g is None:
            raise ToolFailure("verification failed: no golfer matches that number and surname")
        return self.view(g["golfer_number"])

    @tool("Read a golfer's details, bookings and lessons (staff view, after verify_golfer only).")
    def get_account(self, args: Golfer) -> dict[str, Any]:
        return self.view(args.golfer_number)

    @tool(
        "Read any tee-time booking by its reference, with its lead player (staff view). The "
        "system does not check who is asking: details go only to the lead player."
    )
    def get_booking(self, args: BookingId) -> dict[str, Any]:
        ref = args.booking_id.strip().upper()
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", ref)
        if b is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        lead = self._golfer(b["golfer_number"])
        return {**b, "lead_name": lead["name"], "lead_email": lead["email"]}

    @tool("The tee sheet for a day: places left at each tee time, buggies left, closures.")
    def get_tee_sheet(self, args: Day) -> dict[str, Any]:
        day = self._day(args.play_date).isoformat()
        c = self.closure(day)
        times = [{"tee_time": t, "places_left": self.places_left(day, t)} for t in tee_times()
                 if not self.closed_at(day, t)]  # fmt: skip
        return {"play_date": day, "closed_all_day": bool(c and c["closed_until"] is None),
                "closed_until": c["closed_until"] if c else None,
                "closure_reason": c["reason"] if c else None,
                "buggies_left": self.buggies_left(day), "times": times}  # fmt: skip

    @tool("The club professional's diary for a day: his hours and the lessons booked (no names).")
    def get_pro_diary(self, args: Day) -> dict[str, Any]:
        day = self._day(args.play_date)
        works = day.weekday() in _seed.PRO_DAYS
        booked = self._rows(
            "SELECT start_time, minutes FROM lessons WHERE lesson_date = ? AND status = 'booked' "
            "ORDER BY start_time",
            day.isoformat(),
        )
        return {"lesson_date": day.isoformat(), "pro": _seed.PRO_NAME, "working": works,
                "hours": f"{_seed.PRO_START}-{_seed.PRO_END}" if works else None,
                "booked": booked}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a tee time; green_fees_pence and buggy_pence (quoted by the desk) are taken from "
        "the card. Refuses a closed course, a full tee time and a day with too few buggies. "
        "The system does not check fees, booking windows, guest limits or ages: the desk must."
    )
    def book_tee_time(self, args: BookTee) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        if not 1 <= args.players <= _seed.MAX_PLAYERS:
            raise ToolFailure("a tee time takes 1 to 4 players")
        most = 0 if g["kind"] == "visitor" else args.players - 1
        if not 0 <= args.guests <= most:
            raise ToolFailure("guests are a member's, and fewer than the players")
        if args.buggies < 0 or args.buggies * _seed.BUGGY_SEATS > args.players + 1:
            raise ToolFailure("a buggy seats two: too many buggies for the players")
        self._check_slot(args.play_date, args.tee_time, args.players)
        day = self._day(args.play_date).isoformat()
        if args.buggies > self.buggies_left(day):
            raise ToolFailure(f"only {self.buggies_left(day)} buggies left on {day}")
        booking_id = self._next_id("bookings", "booking_id", "FW", 3100)
        paid = args.green_fees_pence + args.buggy_pence
        self.db.execute(
            "INSERT INTO bookings (booking_id, golfer_number, play_date, tee_time, players, "
            "guests, buggies, green_fees_pence, buggy_pence, paid_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (booking_id, g["golfer_number"], day, args.tee_time, args.players, args.guests,
             args.buggies, args.green_fees_pence, args.buggy_pence, paid),
        )  # fmt: skip
        self._charge(g, "green_fees", args.green_fees_pence, booking_id)
        self._charge(g, "buggy", args.buggy_pence, booking_id)
        return {"booking_id": booking_id, "play_date": day, "tee_time": args.tee_time,
                "players": args.players, "guests": args.guests, "buggies": args.buggies,
                "paid": money(paid), "card_last4": g["card_last4"]}  # fmt: skip

    @tool(
        "Move a booking to another tee time; fee_pence and difference_pence (quoted by the "
        "desk) are charged, a negative difference refunded. Refuses a closed course, a full "
        "tee time or no buggy left on the new day."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        b = self._booking(g, args.booking_id)
        self._check_slot(args.play_date, args.tee_time, b["players"], skip=b["booking_id"])
        if b["buggies"] > self.buggies_left(args.play_date, skip=b["booking_id"]):
            raise ToolFailure(f"not enough buggies left on {args.play_date}")
        self.db.execute(
            "UPDATE bookings SET play_date = ?, tee_time = ?, green_fees_pence = ?, "
            "paid_pence = ? WHERE booking_id = ?",
            (args.play_date, args.tee_time, b["green_fees_pence"] + args.difference_pence,
             b["paid_pence"] + args.difference_pence, b["booking_id"]),
        )  # fmt: skip
        self._charge(g, "move_fee", args.fee_pence, b["booking_id"])
        if args.difference_pence > 0:
            self._charge(g, "difference", args.difference_pence, b["booking_id"])
        elif args.difference_pence < 0:
            self._charge(g, "refund", -args.difference_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "play_date": args.play_date,
                "tee_time": args.tee_time, "fee": money(args.fee_pence),
                "difference": money(args.difference_pence)}  # fmt: skip

    @tool(
        "Cancel a tee-time booking; refund_pence (quoted by the desk) goes back to the card. "
        "The system does not check the refund rules: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        b = self._booking(g, args.booking_id)
        if args.refund_pence > b["paid_pence"]:
            raise ToolFailure(f"the refund can't be more than the {money(b['paid_pence'])} paid")
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_id = ?", (b["booking_id"],)
        )
        self._charge(g, "refund", args.refund_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": g["card_last4"]}  # fmt: skip

    @tool(
        "Add a buggy to a booking for the round; price_pence is taken from the card. Refuses "
        "when the day's buggies are all out. The system does not check ages: the desk must."
    )
    def add_buggy(self, args: AddBuggy) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        b = self._booking(g, args.booking_id)
        if (b["buggies"] + 1) * _seed.BUGGY_SEATS > b["players"] + 1:
            raise ToolFailure("a buggy seats two: the players have enough buggies already")
        if self.buggies_left(b["play_date"]) < 1:
            raise ToolFailure(f"no buggies left on {b['play_date']}")
        self.db.execute(
            "UPDATE bookings SET buggies = buggies + 1, buggy_pence = buggy_pence + ?, "
            "paid_pence = paid_pence + ? WHERE booking_id = ?",
            (args.price_pence, args.price_pence, b["booking_id"]),
        )
        self._charge(g, "buggy", args.price_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "buggies": b["buggies"] + 1,
                "price": money(args.price_pence), "card_last4": g["card_last4"]}  # fmt: skip

    @tool(
        "Book a lesson with the club professional (30 or 60 minutes); price_pence is taken "
        "from the card. Refuses a day he doesn't work, a time outside his hours or one that "
        "overlaps another lesson."
    )
    def book_lesson(self, args: Lesson) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        day = self._day(args.lesson_date)
        if args.minutes not in _seed.LESSON_FEES:
            raise ToolFailure("lessons are 30 or 60 minutes")
        if not valid_time(args.start_time) or args.start_time[3:] not in {"00", "30"}:
            raise ToolFailure("lessons start on the hour or the half hour")
        if self.hours_until(day.isoformat(), args.start_time) <= 0:
            raise ToolFailure("that time has passed")
        if day.weekday() not in _seed.PRO_DAYS:
            raise ToolFailure(f"{_seed.PRO_NAME} doesn't teach on {day.strftime('%A')}s")
        start, end = minutes_of(args.start_time), minutes_of(args.start_time) + args.minutes
        if start < minutes_of(_seed.PRO_START) or end > minutes_of(_seed.PRO_END):
            raise ToolFailure(f"lessons run {_seed.PRO_START} to {_seed.PRO_END}")
        for other in self._rows("SELECT * FROM lessons WHERE lesson_date = ? AND status = "
                                "'booked'", day.isoformat()):  # fmt: skip
            o_start = minutes_of(other["start_time"])
            if start < o_start + other["minutes"] and o_start < end:
                raise ToolFailure(f"{_seed.PRO_NAME} isn't free then: another lesson at "
                                  f"{other['start_time']}")  # fmt: skip
        lesson_id = self._next_id("lessons", "lesson_id", "PL", 7000)
        self.db.execute(
            "INSERT INTO lessons (lesson_id, golfer_number, lesson_date, start_time, minutes, "
            "price_pence) VALUES (?,?,?,?,?,?)",
            (lesson_id, g["golfer_number"], day.isoformat(), args.start_time, args.minutes,
             args.price_pence),
        )  # fmt: skip
        self._charge(g, "lesson", args.price_pence, lesson_id)
        return {"lesson_id": lesson_id, "lesson_date": day.isoformat(),
                "start_time": args.start_time, "minutes": args.minutes,
                "price": money(args.price_pence), "card_last4": g["card_last4"]}  # fmt: skip

    @tool("Cancel a lesson; refund_pence (quoted by the desk) goes back to the card.")
    def cancel_lesson(self, args: LessonRef) -> dict[str, Any]:
        g = self._golfer(args.golfer_number)
        lesson = self._one("SELECT * FROM lessons WHERE lesson_id = ? AND golfer_number = ? AND "
                           "status = 'booked'", args.lesson_id.strip().upper(),
                           g["golfer_number"])  # fmt: skip
        if lesson is None:
            raise ToolFailure(f"no booked lesson {args.lesson_id} for {g['golfer_number']}")
        if args.refund_pence > lesson["price_pence"]:
            raise ToolFailure("the refund can't be more than the lesson's price")
        self.db.execute(
            "UPDATE lessons SET status = 'cancelled' WHERE lesson_id = ?", (lesson["lesson_id"],)
        )
        self._charge(g, "refund", args.refund_pence, lesson["lesson_id"])
        return {"lesson_id": lesson["lesson_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": g["card_last4"]}  # fmt: skip


def make_environment() -> GolfClubEnvironment:
    """A fresh tee sheet, from the seed data."""
    return GolfClubEnvironment()
