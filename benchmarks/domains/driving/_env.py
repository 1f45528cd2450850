"""The school's booking system the desk's agent works through: `DrivingEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.driving import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_no(text: str) -> str:
    return f"L{re.sub(r'[^0-9]', '', text)}"


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) >= 5 else squashed


class NoArgs(BaseModel):
    """No arguments."""


class Learner(BaseModel):
    learner_no: str = Field(description="The learner number, e.g. L20417")


class Verify(Learner):
    dob: str = Field(description="The learner's date of birth, YYYY-MM-DD")


class BookLesson(Learner):
    start: str = Field(description="YYYY-MM-DD HH:MM")
    hours: int = Field(description="1 or 2")


class LessonRef(Learner):
    lesson_id: str = Field(description="e.g. LS101")
    keep_hours: bool = Field(
        description="True when the hours go back to the package (48+ hours ahead, or illness "
        "with a note); False when they are lost"
    )


class MoveLesson(LessonRef):
    new_start: str = Field(description="YYYY-MM-DD HH:MM")


class ChangeInstructor(Learner):
    instructor_id: str = Field(description="e.g. I3")


class BuyPackage(Learner):
    hours: int = Field(description="5, 10 or 20")


class Slot(Learner):
    slot_id: str = Field(description="A practical test slot, e.g. T3")


class Refund(Learner):
    package_id: str = Field(description="e.g. P301")


class Address(Learner):
    address: str = Field(description="House number and street")
    postcode: str = Field(description="UK postcode, e.g. LS6 3AB")


class DrivingEnvironment(SqliteEnvironment):
    """Clearway Driving School: learners, instructors, lessons, packages, tests, payments."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "learner_no": ["learner number"],
        "dob": ["date of birth", "birthday"],
        "date": ["which day", "what date", "which date"],
        "time": ["what time", "which time"],
        "other_time": ["which other time", "other time"],
        "hours": ["how long", "1 or 2 hours", "one or two hours"],
        "package_hours": ["which package", "5, 10 or 20"],
        "instructor": ["which instructor"],
        "address": ["new address", "pick-up address"],
        "postcode": ["postcode"],
        "note": ["doctor's note", "note"],
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

    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _learner(self, no: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM learners WHERE learner_no = ?", norm_no(no))
        if found is None:
            raise ToolFailure(f"no learner {no}")
        return found

    def _hours_left(self, no: str) -> int:
        return int(
            self.db.execute(
                "SELECT COALESCE(SUM(hours_left), 0) FROM packages WHERE learner_no = ? "
                "AND status = 'active'",
                (no,),
            ).fetchone()[0]
        )

    def _pay(self, learner: dict[str, Any], kind: str, pence: int) -> None:
        self.db.execute(
            "INSERT INTO payments (learner_no, kind, amount_pence, card_last4, created_at) "
            "VALUES (?,?,?,?,?)",
            (learner["learner_no"], kind, pence, learner["card_last4"], self._stamp()),
        )

    def _start(self, text: str) -> datetime:
        try:
            when = datetime.strptime(text.strip(), _seed.STAMP).replace(tzinfo=_seed.UK)
        except ValueError as exc:
            raise ToolFailure(f"{text!r} is not a start time (YYYY-MM-DD HH:MM)") from exc
        return when

    def _check_slot(self, learner: dict[str, Any], when: datetime, hours: int, skip: str) -> None:
        if hours not in (1, 2):
            raise ToolFailure("lessons are 1 or 2 hours")
        if when.strftime(_seed.STAMP) <= self._stamp():
            raise ToolFailure("that time has already passed")
        if when.weekday() == 6:
            raise ToolFailure("there are no lessons on Sundays")
        if when.hour < _seed.DAY_START or when.hour + hours > _seed.DAY_END or when.minute:
            raise ToolFailure("lessons start on the hour between 08:00 and 17:00 and end by 18:00")
        end = when + timedelta(hours=hours)
        for row in self.db.execute(
            "SELECT * FROM lessons WHERE instructor_id = ? AND status = 'booked' "
            "AND lesson_id != ?",
            (learner["instructor_id"], skip),
        ):
            other = datetime.strptime(row["start"], _seed.STAMP).replace(tzinfo=_seed.UK)
            if other < end and when < other + timedelta(hours=row["hours"]):
                raise ToolFailure("the instructor is already teaching at that time")

    def _take_hours(self, no: str, hours: int) -> str:
        pack = self._one(
            "SELECT * FROM packages WHERE learner_no = ? AND status = 'active' AND "
            "hours_left >= ? ORDER BY bought_on",
            no,
            hours,
        )
        if pack is None:
            raise ToolFailure(
                f"not enough package hours: {self._hours_left(no)} left, {hours} needed"
            )
        self.db.execute(
            "UPDATE packages SET hours_left = hours_left - ? WHERE package_id = ?",
            (hours, pack["package_id"]),
        )
        return str(pack["package_id"])

    def _lesson(self, no: str, lesson_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM lessons WHERE lesson_id = ? AND learner_no = ?",
            lesson_id.strip().upper(),
            norm_no(no),
        )
        if found is None:
            raise ToolFailure(f"learner {no} has no lesson {lesson_id}")
        if found["status"] != "booked":
            raise ToolFailure(f"lesson {found['lesson_id']} is {found['status']}")
        if found["start"] <= self._stamp():
            raise ToolFailure("that lesson has already started")
        return found

    def _give_back(self, lesson: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE packages SET hours_left = hours_left + ? WHERE package_id = ?",
            (lesson["hours"], lesson["package_id"]),
        )

    def _names(self) -> dict[str, str]:
        return {r["instructor_id"]: r["name"] for r in self.db.execute("SELECT * FROM instructors")}

    def view(self, no: str) -> dict[str, Any]:
        lr = self._learner(no)
        names = self._names()
        lessons = [
            {
                "lesson_id": r["lesson_id"],
                "start": r["start"],
                "hours": r["hours"],
                "instructor": names[r["instructor_id"]],
            }
            for r in self.db.execute(
                "SELECT * FROM lessons WHERE learner_no = ? AND status = 'booked' AND start > ? "
                "ORDER BY start",
                (lr["learner_no"], self._stamp()),
            )
        ]
        packages = [
            {
                "package_id": r["package_id"],
                "hours": r["hours"],
                "hours_left": r["hours_left"],
                "price_per_hour": money(r["price_per_hour_pence"]),
                "price_per_hour_pence": r["price_per_hour_pence"],
                "bought_on": r["bought_on"],
            }
            for r in self.db.execute(
                "SELECT * FROM packages WHERE learner_no = ? AND status = 'active' "
                "ORDER BY bought_on",
                (lr["learner_no"],),
            )
        ]
        test = self._one(
            "SELECT t.start, t.slot_id, s.centre FROM tests t JOIN test_slots s USING (slot_id) "
            "WHERE t.learner_no = ? AND t.status = 'booked'",
            lr["learner_no"],
        )
        return {
            "learner_no": lr["learner_no"],
            "name": lr["name"],
            "gearbox": lr["gearbox"],
            "instructor_id": lr["instructor_id"],
            "instructor": names[lr["instructor_id"]],
            "address": lr["address"],
            "postcode": lr["postcode"],
            "lessons_taken": lr["lessons_taken"],
            "first_discount_used": bool(lr["first_discount_used"]),
            "card_last4": lr["card_last4"],
            "hours_left": self._hours_left(lr["learner_no"]),
            "packages": packages,
            "upcoming_lessons": lessons,
            "test": test,
        }

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the learner number and the learner's date of birth "
        "must match. Returns the learner's record."
    )
    def verify_learner(self, args: Verify) -> dict[str, Any]:
        found = self._one(
            "SELECT learner_no, dob FROM learners WHERE learner_no = ?", norm_no(args.learner_no)
        )
        if found is None or found["dob"] != args.dob.strip():
            raise ToolFailure("verification failed: no learner matches that number and birth date")
        return self.view(found["learner_no"])

    @tool(
        "Read a learner's record by number alone (staff view): lessons, hours, packages, test, "
        "address. Only for a learner verified with verify_learner."
    )
    def get_learner(self, args: Learner) -> dict[str, Any]:
        return self.view(args.learner_no)

    @tool("The school's instructors, with gearbox and spaces left for regular learners.")
    def list_instructors(self, args: NoArgs) -> dict[str, Any]:
        rows = []
        for r in self.db.execute("SELECT * FROM instructors ORDER BY instructor_id"):
            used = self.db.execute(
                "SELECT COUNT(*) FROM learners WHERE instructor_id = ?", (r["instructor_id"],)
            ).fetchone()[0]
            rows.append(
                {
                    "instructor_id": r["instructor_id"],
                    "name": r["name"],
                    "gearbox": r["gearbox"],
                    "spaces": r["weekly_capacity"] - used,
                }
            )
        return {"instructors": rows}

    @tool("Practical test slots the school can still book.")
    def list_test_slots(self, args: NoArgs) -> dict[str, Any]:
        rows = self.db.execute(
            "SELECT * FROM test_slots WHERE taken = 0 AND start > ? ORDER BY start",
            (self._stamp(),),
        )
        return {"slots": [{k: r[k] for k in ("slot_id", "start", "centre")} for r in rows]}

    # -- changes ---------------------------------------------------------------------------
    @tool(
        "Book a 1- or 2-hour lesson with the learner's regular instructor. Takes the hours "
        "from the learner's package; fails when the instructor is busy or hours are short."
    )
    def book_lesson(self, args: BookLesson) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        when = self._start(args.start)
        self._check_slot(lr, when, args.hours, "")
        pid = self._take_hours(lr["learner_no"], args.hours)
        n = self.db.execute("SELECT COUNT(*) FROM lessons").fetchone()[0]
        lid = f"LS{201 + n}"
        self.db.execute(
            "INSERT INTO lessons (lesson_id, learner_no, instructor_id, start, hours, "
            "package_id) VALUES (?,?,?,?,?,?)",
            (lid, lr["learner_no"], lr["instructor_id"], when.strftime(_seed.STAMP), args.hours,
             pid),
        )  # fmt: skip
        return {
            "lesson_id": lid,
            "start": when.strftime(_seed.STAMP),
            "hours": args.hours,
            "instructor": self._names()[lr["instructor_id"]],
            "hours_left": self._hours_left(lr["learner_no"]),
        }

    @tool(
        "Cancel a lesson. keep_hours=True puts its hours back on the package, False loses "
        "them. The system does not check the 48-hour rule: the desk must."
    )
    def cancel_lesson(self, args: LessonRef) -> dict[str, Any]:
        lesson = self._lesson(args.learner_no, args.lesson_id)
        lost = 0 if args.keep_hours else lesson["hours"]
        if args.keep_hours:
            self._give_back(lesson)
        self.db.execute(
            "UPDATE lessons SET status = 'cancelled', hours_lost = ? WHERE lesson_id = ?",
            (lost, lesson["lesson_id"]),
        )
        return {
            "lesson_id": lesson["lesson_id"],
            "status": "cancelled",
            "hours_returned": lesson["hours"] - lost,
            "hours_lost": lost,
            "hours_left": self._hours_left(lesson["learner_no"]),
        }

    @tool(
        "Move a lesson to a new start time with the same instructor and length. keep_hours="
        "False (a late move) loses the old lesson's hours and takes new hours for the new one. "
        "The system does not check the 48-hour rule: the desk must."
    )
    def move_lesson(self, args: MoveLesson) -> dict[str, Any]:
        lesson = self._lesson(args.learner_no, args.lesson_id)
        lr = self._learner(args.learner_no)
        when = self._start(args.new_start)
        self._check_slot(lr, when, lesson["hours"], lesson["lesson_id"])
        new_start = when.strftime(_seed.STAMP)
        if args.keep_hours:
            self.db.execute(
                "UPDATE lessons SET start = ? WHERE lesson_id = ?", (new_start, lesson["lesson_id"])
            )
            return {
                "lesson_id": lesson["lesson_id"],
                "start": new_start,
                "hours_lost": 0,
                "hours_left": self._hours_left(lr["learner_no"]),
            }
        pid = self._take_hours(lr["learner_no"], lesson["hours"])
        self.db.execute(
            "UPDATE lessons SET status = 'moved', hours_lost = ? WHERE lesson_id = ?",
            (lesson["hours"], lesson["lesson_id"]),
        )
        n = self.db.execute("SELECT COUNT(*) FROM lessons").fetchone()[0]
        lid = f"LS{201 + n}"
        self.db.execute(
            "INSERT INTO lessons (lesson_id, learner_no, instructor_id, start, hours, "
            "package_id) VALUES (?,?,?,?,?,?)",
            (lid, lr["learner_no"], lesson["instructor_id"], new_start, lesson["hours"], pid),
        )
        return {
            "lesson_id": lid,
            "start": new_start,
            "hours_lost": lesson["hours"],
            "hours_left": self._hours_left(lr["learner_no"]),
        }

    @tool(
        "Change the learner's regular instructor to one who teaches their gearbox and has a "
        "space. Booked lessons stay with the instructor they were booked with."
    )
    def change_instructor(self, args: ChangeInstructor) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        new = self._one(
            "SELECT * FROM instructors WHERE instructor_id = ?", args.instructor_id.strip().upper()
        )
        if new is None:
            raise ToolFailure(f"no instructor {args.instructor_id}")
        if new["instructor_id"] == lr["instructor_id"]:
            raise ToolFailure(f"{new['name']} is already the learner's instructor")
        if new["gearbox"] != lr["gearbox"]:
            raise ToolFailure(f"{new['name']} teaches {new['gearbox']} only")
        used = self.db.execute(
            "SELECT COUNT(*) FROM learners WHERE instructor_id = ?", (new["instructor_id"],)
        ).fetchone()[0]
        if used >= new["weekly_capacity"]:
            raise ToolFailure(f"{new['name']} has no space for another regular learner")
        self.db.execute(
            "UPDATE learners SET instructor_id = ? WHERE learner_no = ?",
            (new["instructor_id"], lr["learner_no"]),
        )
        return {"learner_no": lr["learner_no"], "instructor": new["name"]}

    @tool(
        "Buy a package of 5 (£38.00 an hour), 10 (£36.00) or 20 (£34.00) hours, charged to "
        "the card on file. £20.00 off a learner's first package, once."
    )
    def buy_package(self, args: BuyPackage) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        if args.hours not in _seed.PACKAGES:
            raise ToolFailure("packages are 5, 10 or 20 hours")
        pph = _seed.PACKAGES[args.hours]
        discount = 0 if lr["first_discount_used"] else _seed.FIRST_DISCOUNT_PENCE
        price = pph * args.hours - discount
        n = self.db.execute("SELECT COUNT(*) FROM packages").fetchone()[0]
        pid = f"P{401 + n}"
        self.db.execute(
            "INSERT INTO packages (package_id, learner_no, hours, hours_left, "
            "price_per_hour_pence, paid_pence, bought_on) VALUES (?,?,?,?,?,?,?)",
            (pid, lr["learner_no"], args.hours, args.hours, pph, price,
             self.now().date().isoformat()),
        )  # fmt: skip
        self.db.execute(
            "UPDATE learners SET first_discount_used = 1 WHERE learner_no = ?", (lr["learner_no"],)
        )
        self._pay(lr, "package", price)
        return {
            "package_id": pid,
            "hours": args.hours,
            "discount": money(discount),
            "charged": money(price),
            "card_last4": lr["card_last4"],
            "hours_left": self._hours_left(lr["learner_no"]),
        }

    @tool(
        "Book a practical test slot and charge the £75.00 test fee. The system does not check "
        "the 10-lesson rule: the desk must."
    )
    def book_test(self, args: Slot) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        if self._one(
            "SELECT 1 FROM tests WHERE learner_no = ? AND status = 'booked'", lr["learner_no"]
        ):
            raise ToolFailure("the learner already has a test booked")
        slot = self._free_slot(args.slot_id)
        self._take_slot(lr, slot)
        self._pay(lr, "test_fee", _seed.TEST_FEE_PENCE)
        return {
            "slot_id": slot["slot_id"],
            "start": slot["start"],
            "centre": slot["centre"],
            "charged": money(_seed.TEST_FEE_PENCE),
            "card_last4": lr["card_last4"],
        }

    @tool(
        "Move a booked test to another slot. Free when the booked test is 14 or more days "
        "away; closer than that the fee is lost and a new £75.00 fee is charged."
    )
    def move_test(self, args: Slot) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        old = self._one(
            "SELECT * FROM tests WHERE learner_no = ? AND status = 'booked'", lr["learner_no"]
        )
        if old is None:
            raise ToolFailure("the learner has no test booked")
        slot = self._free_slot(args.slot_id)
        days = (date.fromisoformat(old["start"][:10]) - self.now().date()).days
        fee = _seed.TEST_FEE_PENCE if days < _seed.TEST_LOCK_DAYS else 0
        self.db.execute("UPDATE tests SET status = 'moved' WHERE test_id = ?", (old["test_id"],))
        self.db.execute("UPDATE test_slots SET taken = 0 WHERE slot_id = ?", (old["slot_id"],))
        self._take_slot(lr, slot)
        if fee:
            self._pay(lr, "test_fee", fee)
        return {
            "slot_id": slot["slot_id"],
            "start": slot["start"],
            "centre": slot["centre"],
            "charged": money(fee),
            "card_last4": lr["card_last4"],
        }

    def _free_slot(self, slot_id: str) -> dict[str, Any]:
        slot = self._one("SELECT * FROM test_slots WHERE slot_id = ?", slot_id.strip().upper())
        if slot is None or slot["taken"] or slot["start"] <= self._stamp():
            raise ToolFailure(f"test slot {slot_id} is not available")
        return slot

    def _take_slot(self, lr: dict[str, Any], slot: dict[str, Any]) -> None:
        self.db.execute("UPDATE test_slots SET taken = 1 WHERE slot_id = ?", (slot["slot_id"],))
        self.db.execute(
            "INSERT INTO tests (learner_no, slot_id, start) VALUES (?,?,?)",
            (lr["learner_no"], slot["slot_id"], slot["start"]),
        )

    @tool(
        "Refund a package's unused hours at the per-hour price paid, less a £25.00 admin fee, "
        "to the card; only within 12 months of purchase."
    )
    def refund_package(self, args: Refund) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        pack = self._one(
            "SELECT * FROM packages WHERE package_id = ? AND learner_no = ?",
            args.package_id.strip().upper(),
            lr["learner_no"],
        )
        if pack is None or pack["status"] != "active":
            raise ToolFailure(f"no active package {args.package_id} for this learner")
        if pack["hours_left"] < 1:
            raise ToolFailure("the package has no unused hours")
        if refund_expired(pack["bought_on"], self.now().date()):
            raise ToolFailure("packages can only be refunded within 12 months of purchase")
        back = max(0, pack["hours_left"] * pack["price_per_hour_pence"] - _seed.REFUND_ADMIN_PENCE)
        self.db.execute(
            "UPDATE packages SET status = 'refunded', hours_left = 0 WHERE package_id = ?",
            (pack["package_id"],),
        )
        self._pay(lr, "refund", -back)
        return {
            "package_id": pack["package_id"],
            "hours_refunded": pack["hours_left"],
            "admin_fee": money(_seed.REFUND_ADMIN_PENCE),
            "refund": money(back),
            "card_last4": lr["card_last4"],
        }

    @tool("Change the learner's pick-up address; the postcode must be in the service area.")
    def update_address(self, args: Address) -> dict[str, Any]:
        lr = self._learner(args.learner_no)
        postcode = norm_postcode(args.postcode)
        if postcode.split(" ")[0] not in _seed.SERVICE_POSTCODES:
            raise ToolFailure(f"{postcode} is outside the school's service area")
        address = " ".join(args.address.split())
        if not address:
            raise ToolFailure("the address is empty")
        self.db.execute(
            "UPDATE learners SET address = ?, postcode = ? WHERE learner_no = ?",
            (address, postcode, lr["learner_no"]),
        )
        return {"learner_no": lr["learner_no"], "address": address, "postcode": postcode}


def refund_expired(bought_on: str, today: date) -> bool:
    bought = date.fromisoformat(bought_on)
    try:
        limit = bought.replace(year=bought.year + 1)
    except ValueError:
        limit = bought.replace(year=bought.year + 1, day=28)
    return today > limit


def make_environment() -> DrivingEnvironment:
    """A fresh school system, from the seed data."""
    return DrivingEnvironment()


__all__ = ["DrivingEnvironment", "make_environment", "money", "refund_expired"]
