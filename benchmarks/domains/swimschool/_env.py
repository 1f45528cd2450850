"""The swim school's booking system the desk works through: `SwimschoolEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.swimschool import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "RS" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s+", "", text).upper()


def week_of(starts: str, today: date) -> int:
    """The week of a term `today` is in: 0 before it starts, 9 and over once it has ended."""
    first = date.fromisoformat(starts)
    return 0 if today < first else (today - first).days // 7 + 1


class Account(BaseModel):
    account_id: str = Field(description="The family account number, e.g. RS2001")


class Verify(Account):
    postcode: str = Field(description="The postcode on the account")
    caller_name: str = Field(description="The caller's full name")


class FindClasses(BaseModel):
    stage: int = Field(description="The stage, 1 to 7")
    term_id: str = Field(description="SP1 (Spring 1, this term) or SP2 (Spring 2, next term)")


class BookTerm(Account):
    child_id: str = Field(description="e.g. K201")
    class_id: str = Field(description="e.g. SP2-2B")
    price_pence: int = Field(description="The term's price the desk quoted")


class EnrolmentRef(Account):
    enrolment_id: str = Field(description="e.g. EN7001")


class MoveClass(EnrolmentRef):
    class_id: str = Field(description="The class to move to, same term and stage")


class BookMakeup(EnrolmentRef):
    missed_date: str = Field(description="The lesson missed, YYYY-MM-DD")
    class_id: str = Field(description="Another class at the same stage")
    lesson_date: str = Field(description="The make-up lesson, YYYY-MM-DD")


class Withdraw(EnrolmentRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class MedicalNote(Account):
    child_id: str = Field(description="e.g. K220")
    note: str = Field(description="The note, in the parent's words")


class Contacts(Account):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class SwimschoolEnvironment(SqliteEnvironment):
    """Riverside Swim School: families, children, classes, enrolments, make-ups, charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode"],
        "caller_name": ["your name", "your full name", "who am i speaking"],
        "child_name": ["which child", "which of your children"],
        "class_day": ["which class", "which day"],
        "missed_date": ["which lesson", "missed"],
        "phone": ["new number", "phone number"],
        "email": ["new email", "email address"],
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

    def _class(self, class_id: str) -> dict[str, Any]:
        c = self._one(
            "SELECT c.*, t.name AS term, t.starts FROM classes c JOIN terms t USING (term_id) "
            "WHERE class_id = ?",
            class_id.strip().upper(),
        )
        if c is None:
            raise ToolFailure(f"no class {class_id}")
        c["day"] = _seed.WEEKDAYS[c["weekday"]]
        return c

    def _enrolment(self, a: dict[str, Any], enrolment_id: str) -> dict[str, Any]:
        e = self._one(
            "SELECT e.*, k.account_id, k.name AS child FROM enrolments e JOIN children k "
            "USING (child_id) WHERE enrolment_id = ?",
            enrolment_id.strip().upper(),
        )
        if e is None or e["account_id"] != a["account_id"]:
            raise ToolFailure(f"no enrolment {enrolment_id} on this account")
        if e["status"] != "active":
            raise ToolFailure(f"enrolment {e['enrolment_id']} is {e['status']}")
        return e

    def _charge(self, a: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (a["account_id"], kind, pence, ref, self._stamp()),
            )

    def week(self, term_id: str) -> int:
        t = self._one("SELECT starts FROM terms WHERE term_id = ?", term_id)
        return week_of(t["starts"], self.now().date()) if t else 0

    def taken(self, class_id: str) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM enrolments WHERE class_id = ? AND status = 'active'", (class_id,)
        )
        return int(row.fetchone()[0])

    def lessons(self, c: dict[str, Any]) -> list[str]:
        """The class's lessons still to come (today's count while it hasn't started)."""
        now = self.now().strftime(_seed.STAMP)
        days = [_seed.lesson_day(c["starts"], c["weekday"], w) for w in range(1, _seed.WEEKS + 1)]
        return [d.isoformat() for d in days if f"{d.isoformat()} {c['start_time']}" > now]

    def view(self, account_id: str) -> dict[str, Any]:
        """The family as staff see it: guardians, children, enrolments, absences, make-ups."""
        a = self._account(account_id)
        children = self._rows("SELECT * FROM children WHERE account_id = ?", a["account_id"])
        for k in children:
            k["medical_notes"] = [n["note"] for n in self._rows(
                "SELECT note FROM medical_notes WHERE child_id = ?", k["child_id"])]  # fmt: skip
            k["enrolments"] = []
            for e in self._rows(
                "SELECT * FROM enrolments WHERE child_id = ? AND status = 'active' "
                "ORDER BY term_id", k["child_id"],
            ):  # fmt: skip
                c = self._class(e["class_id"])
                e.update(stage=c["stage"], day=c["day"], weekday=c["weekday"],
                         start_time=c["start_time"], teacher=c["teacher"], term=c["term"],
                         term_week=self.week(c["term_id"]), lessons_left=self.lessons(c))
                k["enrolments"].append(e)
            k["absences"] = self._rows(
                "SELECT * FROM absences WHERE child_id = ? ORDER BY lesson_date", k["child_id"]
            )
            k["makeups"] = self._rows(
                "SELECT m.*, a.enrolment_id FROM makeups m JOIN absences a USING (absence_id) "
                "WHERE m.child_id = ? ORDER BY m.lesson_date", k["child_id"],
            )  # fmt: skip
            k["assessments"] = self._rows(
                "SELECT * FROM assessments WHERE child_id = ?", k["child_id"]
            )
        guardians = self._rows(
            "SELECT name, relation FROM guardians WHERE account_id = ?", a["account_id"]
        )
        return {**a, "guardians": guardians, "children": children}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller: the family account number and the postcode on it must match. "
        "Returns the account and caller_on_account (whether the caller's name is a parent or "
        "guardian on it). Policy: only those are told about or change a child's lessons."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        a = self._one("SELECT * FROM accounts WHERE account_id = ?", norm_account(args.account_id))
        if a is None or norm_postcode(a["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no account matches that number and postcode")
        said = " ".join(args.caller_name.lower().split())
        names = [g["name"].lower() for g in self._rows(
            "SELECT name FROM guardians WHERE account_id = ?", a["account_id"])]  # fmt: skip
        return {**self.view(a["account_id"]), "caller_on_account": said in names}

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "The classes at a stage in a term, with the places left for the term and the lessons "
        "still to come. (Make-ups booked into a single lesson are not shown.)"
    )
    def find_classes(self, args: FindClasses) -> dict[str, Any]:
        out = []
        for row in self._rows(
            "SELECT class_id FROM classes WHERE stage = ? AND term_id = ? ORDER BY weekday",
            args.stage, args.term_id.strip().upper(),
        ):  # fmt: skip
            c = self._class(row["class_id"])
            out.append({
                "class_id": c["class_id"], "term": c["term"], "stage": c["stage"],
                "day": c["day"], "weekday": c["weekday"], "start_time": c["start_time"],
                "teacher": c["teacher"], "places_left": c["capacity"] - self.taken(c["class_id"]),
                "lessons": self.lessons(c),
            })  # fmt: skip
        return {"classes": out}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a child onto a term in a class; price_pence (quoted by the desk) is charged to "
        "the card. Refuses a full class and a term that has started. The system does not check "
        "the stage or the price: the desk must."
    )
    def book_term(self, args: BookTerm) -> dict[str, Any]:
        a = self._account(args.account_id)
        kid = self._one("SELECT * FROM children WHERE child_id = ? AND account_id = ?",
                        args.child_id.strip().upper(), a["account_id"])  # fmt: skip
        if kid is None:
            raise ToolFailure(f"no child {args.child_id} on this account")
        c = self._class(args.class_id)
        if self.week(c["term_id"]) >= 1:
            raise ToolFailure(f"{c['term']} has started: bookings are for next term")
        if self._one("SELECT 1 AS x FROM enrolments WHERE child_id = ? AND term_id = ? AND "
                     "status = 'active'", kid["child_id"], c["term_id"]):  # fmt: skip
            raise ToolFailure(f"{kid['name']} is already booked for {c['term']}")
        if self.taken(c["class_id"]) >= c["capacity"]:
            raise ToolFailure(f"the {c['day']} {c['start_time']} class is full")
        last = self.db.execute("SELECT MAX(CAST(substr(enrolment_id, 3) AS INTEGER)) FROM "
                               "enrolments WHERE enrolment_id < 'EN8000'").fetchone()[0]
        enrolment_id = f"EN{(last or 7000) + 1}"
        self.db.execute(
            "INSERT INTO enrolments (enrolment_id, child_id, class_id, term_id, price_pence) "
            "VALUES (?,?,?,?,?)",
            (enrolment_id, kid["child_id"], c["class_id"], c["term_id"], args.price_pence),
        )
        self._charge(a, "term_fee", args.price_pence, enrolment_id)
        return {"enrolment_id": enrolment_id, "child": kid["name"], "class_id": c["class_id"],
                "term": c["term"], "stage": c["stage"], "day": c["day"],
                "start_time": c["start_time"], "price": money(args.price_pence),
                "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Move an enrolment to another class in the same term at the same stage. Refuses a "
        "full class. The system does not check the week of term: the desk must."
    )
    def move_class(self, args: MoveClass) -> dict[str, Any]:
        a = self._account(args.account_id)
        e = self._enrolment(a, args.enrolment_id)
        old, new = self._class(e["class_id"]), self._class(args.class_id)
        if new["term_id"] != old["term_id"] or new["stage"] != old["stage"]:
            raise ToolFailure("a move is to another class in the same term at the same stage")
        if new["class_id"] == old["class_id"]:
            raise ToolFailure(f"{e['child']} is already in that class")
        if self.taken(new["class_id"]) >= new["capacity"]:
            raise ToolFailure(f"the {new['day']} {new['start_time']} class is full")
        self.db.execute("UPDATE enrolments SET class_id = ? WHERE enrolment_id = ?",
                        (new["class_id"], e["enrolment_id"]))  # fmt: skip
        return {"enrolment_id": e["enrolment_id"], "child": e["child"], "term": new["term"],
                "day": new["day"], "start_time": new["start_time"], "teacher": new["teacher"]}

    @tool(
        "Book a make-up lesson for a recorded absence, in another class at the same stage and "
        "term, on one of its lessons to come. Refuses a lesson with no free place. The system "
        "does not check the reason, when the school was told, or how many make-ups: the desk "
        "must."
    )
    def book_makeup(self, args: BookMakeup) -> dict[str, Any]:
        a = self._account(args.account_id)
        e = self._enrolment(a, args.enrolment_id)
        absence = self._one("SELECT * FROM absences WHERE enrolment_id = ? AND lesson_date = ?",
                            e["enrolment_id"], args.missed_date.strip())  # fmt: skip
        if absence is None:
            raise ToolFailure(f"no absence recorded for {e['child']} on {args.missed_date}")
        if self._one("SELECT 1 AS x FROM makeups WHERE absence_id = ?", absence["absence_id"]):
            raise ToolFailure("a make-up is already booked for that lesson")
        own, c = self._class(e["class_id"]), self._class(args.class_id)
        if c["term_id"] != own["term_id"] or c["stage"] != own["stage"]:
            raise ToolFailure("a make-up is in another class at the same stage this term")
        if c["class_id"] == own["class_id"]:
            raise ToolFailure("a make-up is in another class, not the child's own")
        if args.lesson_date.strip() not in self.lessons(c):
            raise ToolFailure(f"the {c['day']} class has no lesson to come on {args.lesson_date}")
        extra = self.db.execute("SELECT COUNT(*) FROM makeups WHERE class_id = ? AND "
                                "lesson_date = ?", (c["class_id"], args.lesson_date.strip()))
        if self.taken(c["class_id"]) + int(extra.fetchone()[0]) >= c["capacity"]:
            raise ToolFailure(f"the {c['day']} {args.lesson_date} lesson has no free place")
        self.db.execute(
            "INSERT INTO makeups (child_id, absence_id, class_id, lesson_date, booked_at) "
            "VALUES (?,?,?,?,?)",
            (e["child_id"], absence["absence_id"], c["class_id"], args.lesson_date.strip(),
             self._stamp()),
        )  # fmt: skip
        return {"child": e["child"], "missed_date": absence["lesson_date"],
                "class_id": c["class_id"], "day": c["day"], "lesson_date": args.lesson_date,
                "start_time": c["start_time"], "teacher": c["teacher"]}  # fmt: skip

    @tool(
        "Ask the teacher for a stage assessment (free) in a lesson of the last two weeks of the "
        "enrolment's term. Refuses outside those weeks and a second request."
    )
    def request_assessment(self, args: EnrolmentRef) -> dict[str, Any]:
        a = self._account(args.account_id)
        e = self._enrolment(a, args.enrolment_id)
        if not _seed.ASSESS_FROM_WEEK <= self.week(e["term_id"]) <= _seed.WEEKS:
            raise ToolFailure("assessments are only in the last two weeks of term")
        if self._one("SELECT 1 AS x FROM assessments WHERE enrolment_id = ?", e["enrolment_id"]):
            raise ToolFailure(f"an assessment is already requested for {e['child']}")
        self.db.execute(
            "INSERT INTO assessments (child_id, enrolment_id, requested_at) VALUES (?,?,?)",
            (e["child_id"], e["enrolment_id"], self._stamp()),
        )
        return {"child": e["child"], "enrolment_id": e["enrolment_id"], "status": "requested"}

    @tool(
        "Withdraw a child from a term's enrolment; refund_pence (quoted by the desk) goes to "
        "the card. The system does not check the refund rules: the desk must."
    )
    def withdraw_child(self, args: Withdraw) -> dict[str, Any]:
        a = self._account(args.account_id)
        e = self._enrolment(a, args.enrolment_id)
        self.db.execute("UPDATE enrolments SET status = 'withdrawn' WHERE enrolment_id = ?",
                        (e["enrolment_id"],))  # fmt: skip
        self._charge(a, "refund", args.refund_pence, e["enrolment_id"])
        return {"enrolment_id": e["enrolment_id"], "child": e["child"], "status": "withdrawn",
                "refunded": money(args.refund_pence), "card_last4": a["card_last4"]}  # fmt: skip

    @tool("Add a medical note to a child's record; the teachers see it at every lesson.")
    def add_medical_note(self, args: MedicalNote) -> dict[str, Any]:
        a = self._account(args.account_id)
        kid = self._one("SELECT * FROM children WHERE child_id = ? AND account_id = ?",
                        args.child_id.strip().upper(), a["account_id"])  # fmt: skip
        if kid is None:
            raise ToolFailure(f"no child {args.child_id} on this account")
        if len(args.note.strip()) < 3:
            raise ToolFailure("the note is empty")
        self.db.execute(
            "INSERT INTO medical_notes (child_id, note, added_at) VALUES (?,?,?)",
            (kid["child_id"], args.note.strip(), self._stamp()),
        )
        return {"child": kid["name"], "note": args.note.strip()}

    @tool("Change the phone number and/or the email address on the account.")
    def update_contacts(self, args: Contacts) -> dict[str, Any]:
        a = self._account(args.account_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE accounts SET phone = ? WHERE account_id = ?",
                            (args.phone.strip(), a["account_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE accounts SET email = ? WHERE account_id = ?",
                            (args.email.strip(), a["account_id"]))  # fmt: skip
        now = self._account(a["account_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> SwimschoolEnvironment:
    """A fresh booking system, from the seed data."""
    return SwimschoolEnvironment()
