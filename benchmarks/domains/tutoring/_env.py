"""The agency's booking system the desk works through: `TutoringEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.tutoring import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "BT" + re.sub(r"\D", "", text)


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def add_months(day: date, months: int) -> date:
    """The same day `months` later (the month's last day when it has no such day)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise ValueError(day)


def start_day(start: str) -> date:
    """The day of a lesson start, YYYY-MM-DD HH:MM; ToolFailure when it isn't one."""
    if not re.fullmatch(r"\d{4}-\d\d-\d\d [0-2]\d:[0-5]\d", start):
        raise ToolFailure("start must be YYYY-MM-DD HH:MM")
    try:
        return date.fromisoformat(start[:10])
    except ValueError as exc:
        raise ToolFailure("start must be YYYY-MM-DD HH:MM") from exc


def open_hours(day: date, saturdays: bool) -> tuple[int, ...]:
    """The hours lessons may start on `day` (none on Sundays and when the agency is closed)."""
    if _seed.CLOSED_FIRST <= day <= _seed.CLOSED_LAST or day.weekday() == 6:
        return ()
    if day.weekday() == 5:
        return _seed.SATURDAY_HOURS if saturdays else ()
    return _seed.WEEKDAY_HOURS


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. BT3001")


class Verify(Account):
    student_dob: str = Field(description="A student's date of birth, YYYY-MM-DD")


class Slots(BaseModel):
    tutor_id: str = Field(description="e.g. T02")
    day: str = Field(description="YYYY-MM-DD")


class TutorQuery(BaseModel):
    subject: str | None = Field(default=None, description="e.g. maths; all tutors when omitted")


class BookLesson(Account):
    student_id: str = Field(description="e.g. S101")
    tutor_id: str = Field(description="e.g. T02")
    subject: str = Field(description="e.g. maths")
    start: str = Field(description="YYYY-MM-DD HH:MM, on the hour, in the tutor's free slot")
    kind: str = Field(default="lesson", description="lesson (one hour) or trial (30 minutes)")
    pay: str = Field(description="package (an hour from package_id), card, or free (a trial)")
    package_id: str | None = Field(default=None, description="The package the hour comes from")
    price_pence: int = Field(description="What the card is charged (0 from a package or a trial)")


class LessonRef(Account):
    lesson_id: str = Field(description="e.g. L7006")


class MoveLesson(LessonRef):
    start: str = Field(description="The new start, YYYY-MM-DD HH:MM, with the same tutor")


class CancelLesson(LessonRef):
    refund_pence: int = Field(description="Refunded to the card (0 when the lesson is charged)")
    return_hour: bool = Field(description="Give the package hour back (False when it is used)")


class ChangeTutor(Account):
    student_id: str = Field(description="e.g. S112")
    subject: str = Field(description="The subject, e.g. maths")
    tutor_id: str = Field(description="The new tutor, who must teach the subject at the level")


class BuyPackage(Account):
    student_id: str = Field(description="e.g. S114")
    level: str = Field(description="KS3, GCSE or A-level")
    price_pence: int = Field(description="The price the desk quoted")


class RefundPackage(Account):
    package_id: str = Field(description="e.g. PK8014")
    refund_pence: int = Field(description="The refund the desk quoted for the unused hours")


class JoinCourse(Account):
    student_id: str = Field(description="e.g. S117")
    course_id: str = Field(description="e.g. IC01")
    price_pence: int = Field(description="The course price the desk quoted")


class Dispute(Account):
    invoice_id: str = Field(description="e.g. INV-9018")
    reason: str = Field(description="What is disputed and why, in the customer's words")


class Contact(Account):
    email: str | None = Field(default=None, description="New email address")
    phone: str | None = Field(default=None, description="New phone number")


class TutorMessage(Account):
    tutor_id: str = Field(description="e.g. T04")
    text: str = Field(description="The message to pass on")


class TutoringEnvironment(SqliteEnvironment):
    """Brightpath Tutors: accounts, students, tutors, lessons, packages, courses, invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "student_dob": ["date of birth", "birthday"],
        "when": ["which day", "what time", "day and time"],
        "subject": ["which subject"],
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

    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM accounts WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _student(self, a: dict[str, Any], student_id: str) -> dict[str, Any]:
        st = self._one("SELECT * FROM students WHERE student_id = ? AND account_id = ?",
                       student_id.strip().upper(), a["account_id"])  # fmt: skip
        if st is None:
            raise ToolFailure(f"no student {student_id} on this account")
        return st

    def _tutor(self, tutor_id: str) -> dict[str, Any]:
        t = self._one("SELECT * FROM tutors WHERE tutor_id = ?", tutor_id.strip().upper())
        if t is None:
            raise ToolFailure(f"no tutor {tutor_id}")
        return t

    def _lesson(self, a: dict[str, Any], lesson_id: str) -> dict[str, Any]:
        les = self._one("SELECT * FROM lessons WHERE lesson_id = ?", lesson_id.strip().upper())
        if les is None or les["account_id"] != a["account_id"]:
            raise ToolFailure(f"no lesson {lesson_id} on this account")
        if les["status"] != "booked":
            raise ToolFailure(f"lesson {les['lesson_id']} is {les['status']}")
        return les

    def _charge(self, a: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (a["account_id"], kind, pence, ref, self._stamp()),
            )

    def hours_to(self, start: str) -> float:
        when = datetime.fromisoformat(start).replace(tzinfo=_seed.UK)
        return (when - self.now()).total_seconds() / 3600

    def free_starts(self, tutor: dict[str, Any], day: date) -> list[str]:
        taken = {r["start"] for r in self._rows(
            "SELECT start FROM lessons WHERE tutor_id = ? AND status = 'booked' AND start LIKE ?",
            tutor["tutor_id"], f"{day.isoformat()}%")}  # fmt: skip
        starts = [f"{day.isoformat()} {h:02d}:00" for h in open_hours(day, tutor["saturdays"])]
        return [s for s in starts if s not in taken and self.hours_to(s) > 0]

    def teaches(self, tutor: dict[str, Any], subject: str, level: str) -> bool:
        return subject in tutor["subjects"].split(",") and level in tutor["levels"].split(",")

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: students, upcoming lessons, packages, invoices."""
        a = self._account(account_id)
        today = self.now().date()
        students = self._rows("SELECT * FROM students WHERE account_id = ?", a["account_id"])
        for st in students:
            st["age"] = age_on(st["dob"], today)
            st["under_18"] = st["age"] < 18
            st["enrolments"] = self._rows(
                "SELECT e.subject, e.tutor_id, t.title AS tutor FROM enrolments e "
                "JOIN tutors t USING (tutor_id) WHERE e.student_id = ?",
                st["student_id"])  # fmt: skip
        lessons = self._rows(
            "SELECT l.*, t.title AS tutor FROM lessons l JOIN tutors t USING (tutor_id) "
            "WHERE l.account_id = ? AND l.status = 'booked' AND l.start >= ? ORDER BY l.start",
            a["account_id"], self._stamp())  # fmt: skip
        for les in lessons:
            les["hours_to_start"] = round(self.hours_to(les["start"]), 1)
        invoices = self._rows("SELECT * FROM invoices WHERE account_id = ?", a["account_id"])
        for inv in invoices:
            inv["days_since_issued"] = (today - date.fromisoformat(inv["issued"])).days
            inv["lines"] = self._rows("SELECT description, amount_pence FROM invoice_lines "
                                      "WHERE invoice_id = ?", inv["invoice_id"])  # fmt: skip
        return {
            **a,
            "students": students,
            "lessons": lessons,
            "packages": self._rows("SELECT * FROM packages WHERE account_id = ? AND status = "
                                   "'active'", a["account_id"]),  # fmt: skip
            "invoices": invoices,
            "courses": self._rows("SELECT * FROM course_places WHERE account_id = ?",
                                  a["account_id"]),  # fmt: skip
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the date of birth of a student "
        "on that account must match. Returns the account and the student whose date it is."
    )
    def verify_account(self, args: Verify) -> dict[str, Any]:
        try:
            dob = date.fromisoformat(args.student_dob.strip()).isoformat()
        except ValueError as exc:
            raise ToolFailure("student_dob must be YYYY-MM-DD") from exc
        st = self._one("SELECT * FROM students WHERE account_id = ? AND dob = ?",
                       norm_account(args.account_id), dob)  # fmt: skip
        if st is None:
            raise ToolFailure("verification failed: no account matches that number and date")
        return {**self.view(st["account_id"]), "verified_student": st["student_id"]}

    @tool("Read an account (staff view, after verify_account only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "List tutors, with the subjects and levels they teach. Staff view: it includes each "
        "tutor's personal phone, which policy says is never given to customers."
    )
    def list_tutors(self, args: TutorQuery) -> list[dict[str, Any]]:
        tutors = self._rows("SELECT * FROM tutors ORDER BY tutor_id")
        if args.subject:
            tutors = [t for t in tutors if args.subject.strip().lower() in t["subjects"]]
        return tutors

    @tool("A tutor's free lesson starts on a day (HH:MM, each the start of a one-hour slot).")
    def find_slots(self, args: Slots) -> dict[str, Any]:
        t = self._tutor(args.tutor_id)
        try:
            day = date.fromisoformat(args.day)
        except ValueError as exc:
            raise ToolFailure("day must be YYYY-MM-DD") from exc
        return {"tutor": t["title"], "day": day.isoformat(),
                "free": [s[11:] for s in self.free_starts(t, day)]}  # fmt: skip

    @tool("The Easter intensive courses: subject, level, dates, times and price.")
    def list_courses(self, args: TutorQuery) -> list[dict[str, Any]]:
        rows = self._rows("SELECT course_id, title, subject, level, first_day, last_day, times, "
                          "price_pence FROM courses ORDER BY course_id")  # fmt: skip
        if args.subject:
            rows = [r for r in rows if r["subject"] == args.subject.strip().lower()]
        return rows

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a one-hour lesson or a free 30-minute trial in a tutor's free slot. pay=package "
        "takes an hour from package_id; pay=card charges price_pence. Refuses a taken slot or a "
        "tutor who doesn't teach the subject at the student's level. The system does not check "
        "who is asking or whether a trial was had before: the desk must."
    )
    def book_lesson(self, args: BookLesson) -> dict[str, Any]:
        a = self._account(args.account_id)
        st = self._student(a, args.student_id)
        t = self._tutor(args.tutor_id)
        subject, kind, pay = args.subject.strip().lower(), args.kind.strip(), args.pay.strip()
        if kind not in {"lesson", "trial"} or pay not in {"package", "card", "free"}:
            raise ToolFailure("kind must be lesson or trial; pay package, card or free")
        if not self.teaches(t, subject, st["level"]):
            raise ToolFailure(f"{t['title']} doesn't teach {st['level']} {subject}")
        day = start_day(args.start)
        if args.start not in self.free_starts(t, day):
            raise ToolFailure(f"{t['title']} isn't free at {args.start}")
        if self._one("SELECT 1 AS x FROM lessons WHERE student_id = ? AND start = ? AND "
                     "status = 'booked'", st["student_id"], args.start):  # fmt: skip
            raise ToolFailure(f"{st['name']} already has a lesson at {args.start}")
        package_id = None
        if pay == "package":
            pk = self._one("SELECT * FROM packages WHERE package_id = ? AND student_id = ? AND "
                           "status = 'active'", (args.package_id or "").upper(),
                           st["student_id"])  # fmt: skip
            if pk is None or pk["hours_left"] < 1 or pk["level"] != st["level"]:
                raise ToolFailure("no package hours left for this student at this level")
            package_id = pk["package_id"]
            self.db.execute("UPDATE packages SET hours_left = hours_left - 1 WHERE "
                            "package_id = ?", (package_id,))  # fmt: skip
        price = args.price_pence if pay == "card" else 0
        last = self.db.execute("SELECT MAX(CAST(substr(lesson_id, 2) AS INTEGER)) FROM lessons")
        lesson_id = f"L{max(last.fetchone()[0] or 0, 7100) + 1}"
        minutes = _seed.TRIAL_MINUTES if kind == "trial" else 60
        self.db.execute(
            "INSERT INTO lessons (lesson_id, account_id, student_id, tutor_id, subject, level, "
            "start, minutes, kind, paid, package_id, price_pence) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (lesson_id, a["account_id"], st["student_id"], t["tutor_id"], subject, st["level"],
             args.start, minutes, kind, pay, package_id, price),
        )  # fmt: skip
        if kind == "trial":
            self.db.execute("UPDATE students SET trial_used = 1 WHERE student_id = ?",
                            (st["student_id"],))  # fmt: skip
        self.db.execute("INSERT OR IGNORE INTO enrolments VALUES (?,?,?)",
                        (st["student_id"], subject, t["tutor_id"]))  # fmt: skip
        self._charge(a, "lesson", price, lesson_id)
        left = self._one("SELECT hours_left FROM packages WHERE package_id = ?", package_id)
        return {"lesson_id": lesson_id, "student": st["name"], "tutor": t["title"],
                "subject": subject, "level": st["level"], "start": args.start,
                "minutes": minutes, "paid": pay, "charged": money(price),
                "package_hours_left": left["hours_left"] if left else None,
                "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Move a lesson to another start with the same tutor, in a free slot. Refuses a lesson "
        "less than 24 hours away. The system does not check who is asking: the desk must."
    )
    def move_lesson(self, args: MoveLesson) -> dict[str, Any]:
        a = self._account(args.account_id)
        les = self._lesson(a, args.lesson_id)
        if self.hours_to(les["start"]) < _seed.FREE_CHANGE_HOURS:
            raise ToolFailure("lessons can't be moved less than 24 hours before they start")
        t = self._tutor(les["tutor_id"])
        day = start_day(args.start)
        if args.start not in self.free_starts(t, day):
            raise ToolFailure(f"{t['title']} isn't free at {args.start}")
        self.db.execute("UPDATE lessons SET start = ? WHERE lesson_id = ?",
                        (args.start, les["lesson_id"]))  # fmt: skip
        return {"lesson_id": les["lesson_id"], "tutor": t["title"], "start": args.start,
                "was": les["start"]}  # fmt: skip

    @tool(
        "Cancel a lesson: refund_pence goes back to the card and return_hour gives a package "
        "hour back, as the desk quoted. The system does not check the 24-hour rule: the desk "
        "must."
    )
    def cancel_lesson(self, args: CancelLesson) -> dict[str, Any]:
        a = self._account(args.account_id)
        les = self._lesson(a, args.lesson_id)
        self.db.execute("UPDATE lessons SET status = 'cancelled' WHERE lesson_id = ?",
                        (les["lesson_id"],))  # fmt: skip
        if args.return_hour and les["package_id"]:
            self.db.execute("UPDATE packages SET hours_left = hours_left + 1 WHERE "
                            "package_id = ?", (les["package_id"],))  # fmt: skip
        if les["kind"] == "trial" and args.return_hour:
            self.db.execute("UPDATE students SET trial_used = 0 WHERE student_id = ?",
                            (les["student_id"],))  # fmt: skip
        self._charge(a, "refund", args.refund_pence, les["lesson_id"])
        left = self._one("SELECT hours_left FROM packages WHERE package_id = ?", les["package_id"])
        return {"lesson_id": les["lesson_id"], "status": "cancelled",
                "refunded": money(args.refund_pence),
                "hour_returned": bool(args.return_hour and les["package_id"]),
                "package_hours_left": left["hours_left"] if left else None,
                "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Change a student's tutor for a subject; their lessons in it 24+ hours away move to "
        "the new tutor at the same times. Refuses a tutor who doesn't teach the subject at the "
        "student's level or isn't free at one of those times."
    )
    def change_tutor(self, args: ChangeTutor) -> dict[str, Any]:
        a = self._account(args.account_id)
        st = self._student(a, args.student_id)
        t = self._tutor(args.tutor_id)
        subject = args.subject.strip().lower()
        if not self._one("SELECT 1 AS x FROM enrolments WHERE student_id = ? AND subject = ?",
                         st["student_id"], subject):  # fmt: skip
            raise ToolFailure(f"{st['name']} has no {subject} tutor to change")
        if not self.teaches(t, subject, st["level"]):
            raise ToolFailure(f"{t['title']} doesn't teach {st['level']} {subject}")
        moving = [les for les in self._rows(
            "SELECT * FROM lessons WHERE student_id = ? AND subject = ? AND status = 'booked' "
            "ORDER BY start", st["student_id"], subject)
            if self.hours_to(les["start"]) >= _seed.FREE_CHANGE_HOURS]  # fmt: skip
        for les in moving:
            day = start_day(les["start"])
            if les["start"] not in self.free_starts(t, day):
                raise ToolFailure(f"{t['title']} isn't free at {les['start']}")
        self.db.execute("UPDATE enrolments SET tutor_id = ? WHERE student_id = ? AND subject = ?",
                        (t["tutor_id"], st["student_id"], subject))  # fmt: skip
        for les in moving:
            self.db.execute("UPDATE lessons SET tutor_id = ? WHERE lesson_id = ?",
                            (t["tutor_id"], les["lesson_id"]))  # fmt: skip
        return {"student": st["name"], "subject": subject, "tutor": t["title"],
                "lessons_moved": [les["lesson_id"] for les in moving]}  # fmt: skip

    @tool("Buy a 10-hour package for a student at a level; price_pence is charged to the card.")
    def buy_package(self, args: BuyPackage) -> dict[str, Any]:
        a = self._account(args.account_id)
        st = self._student(a, args.student_id)
        if args.level not in _seed.LEVELS:
            raise ToolFailure("level must be KS3, GCSE or A-level")
        last = self.db.execute("SELECT MAX(CAST(substr(package_id, 3) AS INTEGER)) FROM packages")
        package_id = f"PK{max(last.fetchone()[0] or 0, 8100) + 1}"
        self.db.execute(
            "INSERT INTO packages (package_id, account_id, student_id, level, hours_bought, "
            "hours_left, price_pence, bought_on) VALUES (?,?,?,?,?,?,?,?)",
            (package_id, a["account_id"], st["student_id"], args.level, _seed.PACKAGE_HOURS,
             _seed.PACKAGE_HOURS, args.price_pence, self.now().date().isoformat()),
        )  # fmt: skip
        self._charge(a, "package", args.price_pence, package_id)
        return {"package_id": package_id, "student": st["name"], "level": args.level,
                "hours": _seed.PACKAGE_HOURS, "charged": money(args.price_pence),
                "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Refund a package's unused hours: refund_pence goes to the card and the package is "
        "closed. The system does not check the 6-month window or the amount: the desk must."
    )
    def refund_package(self, args: RefundPackage) -> dict[str, Any]:
        a = self._account(args.account_id)
        pk = self._one("SELECT * FROM packages WHERE package_id = ? AND account_id = ? AND "
                       "status = 'active'", args.package_id.strip().upper(),
                       a["account_id"])  # fmt: skip
        if pk is None:
            raise ToolFailure(f"no open package {args.package_id} on this account")
        if args.refund_pence < 0:
            raise ToolFailure("refund_pence can't be negative")
        self.db.execute("UPDATE packages SET status = 'refunded', hours_left = 0 WHERE "
                        "package_id = ?", (pk["package_id"],))  # fmt: skip
        self._charge(a, "refund", args.refund_pence, pk["package_id"])
        return {"package_id": pk["package_id"], "hours_refunded": pk["hours_left"],
                "refunded": money(args.refund_pence), "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Book a student a place on an Easter intensive course; price_pence is charged to the "
        "card. Refuses a full course or a student at another level."
    )
    def join_course(self, args: JoinCourse) -> dict[str, Any]:
        a = self._account(args.account_id)
        st = self._student(a, args.student_id)
        c = self._one("SELECT * FROM courses WHERE course_id = ?", args.course_id.strip().upper())
        if c is None:
            raise ToolFailure(f"no course {args.course_id}")
        if c["level"] != st["level"]:
            raise ToolFailure(f"{c['title']} is for {c['level']} students")
        if self._one("SELECT 1 AS x FROM course_places WHERE course_id = ? AND student_id = ?",
                     c["course_id"], st["student_id"]):  # fmt: skip
            raise ToolFailure(f"{st['name']} already has a place on {c['title']}")
        if c["taken"] >= c["places"]:
            raise ToolFailure(f"{c['title']} is full: no places left")
        self.db.execute("UPDATE courses SET taken = taken + 1 WHERE course_id = ?",
                        (c["course_id"],))  # fmt: skip
        self.db.execute(
            "INSERT INTO course_places (course_id, account_id, student_id, price_pence) "
            "VALUES (?,?,?,?)", (c["course_id"], a["account_id"], st["student_id"],
                                 args.price_pence))  # fmt: skip
        self._charge(a, "course", args.price_pence, c["course_id"])
        return {"course_id": c["course_id"], "title": c["title"], "student": st["name"],
                "charged": money(args.price_pence), "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Open a dispute on an invoice for the accounts team (a reply within 10 working days). "
        "The system does not check the 30-day window: the desk must."
    )
    def dispute_invoice(self, args: Dispute) -> dict[str, Any]:
        a = self._account(args.account_id)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND account_id = ?",
                        args.invoice_id.strip().upper(), a["account_id"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} on this account")
        if not args.reason.strip():
            raise ToolFailure("a dispute needs a reason")
        cur = self.db.execute(
            "INSERT INTO disputes (invoice_id, account_id, reason, created_at) VALUES (?,?,?,?)",
            (inv["invoice_id"], a["account_id"], args.reason.strip(), self._stamp()),
        )
        return {"dispute_id": f"D{cur.lastrowid:03d}", "invoice_id": inv["invoice_id"],
                "status": "open"}  # fmt: skip

    @tool("Change the account's contact email and/or phone number.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        a = self._account(args.account_id)
        if args.email is None and args.phone is None:
            raise ToolFailure("give an email or a phone number")
        if args.email is not None and not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+",
                                                       args.email.strip()):  # fmt: skip
            raise ToolFailure(f"{args.email!r} is not an email address")
        if args.phone is not None and len(re.sub(r"\D", "", args.phone)) != 11:
            raise ToolFailure(f"{args.phone!r} is not a UK phone number")
        for column, value in (("email", args.email), ("phone", args.phone)):
            if value is not None:
                self.db.execute(
                    f"UPDATE accounts SET {column} = ? WHERE account_id = ?",  # noqa: S608
                    (value.strip(), a["account_id"]),
                )
        now = self._account(a["account_id"])
        return {"email": now["email"], "phone": now["phone"]}

    @tool("Pass a message to a tutor through the office (they see it before their next lesson).")
    def send_tutor_message(self, args: TutorMessage) -> dict[str, Any]:
        a = self._account(args.account_id)
        t = self._tutor(args.tutor_id)
        if not args.text.strip():
            raise ToolFailure("the message is empty")
        self.db.execute(
            "INSERT INTO tutor_messages (tutor_id, account_id, text, sent_at) VALUES (?,?,?,?)",
            (t["tutor_id"], a["account_id"], args.text.strip(), self._stamp()),
        )
        return {"tutor": t["title"], "sent": True}


def make_environment() -> TutoringEnvironment:
    """A fresh booking system, from the seed data."""
    return TutoringEnvironment()


