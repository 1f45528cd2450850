"""The nursery's records system the desk works through: `NurseryEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from benchmarks.domains.nursery import _seed
from benchmarks.domains.nursery._args import (
    Account,
    AddCollector,
    BookSession,
    CancelSession,
    Contact,
    Dispute,
    Funding,
    LateCollection,
    MedicalNote,
    RemoveCollector,
    SwapSession,
    Verify,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

HALVES = {"morning": ["am_free"], "afternoon": ["pm_free"], "full": ["am_free", "pm_free"]}


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "LA" + re.sub(r"\D", "", text)


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


class NurseryEnvironment(SqliteEnvironment):
    """Little Acorns Day Nursery: families, children, sessions, collectors, invoices."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_ref": ["account reference"],
        "child_dob": ["date of birth"],
        "parent_name": ["your full name", "who am I speaking to"],
        "child": ["which child", "which of your children"],
        "day": ["which day"],
        "session": ["morning, afternoon or full day"],
        "new_day": ["which day instead", "move it to"],
        "password": ["password"],
        "collect_time": ["what time"],
        "phone": ["new number", "phone number"],
        "email": ["new email"],
        "code": ["eligibility code"],
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

    def _family(self, account_ref: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM families WHERE account_ref = ?", norm_account(account_ref))
        if found is None:
            raise ToolFailure(f"no account {account_ref}")
        return found

    def _child(self, f: dict[str, Any], child_id: str) -> dict[str, Any]:
        c = self._one("SELECT * FROM children WHERE child_id = ? AND account_ref = ?",
                      child_id.strip().upper(), f["account_ref"])  # fmt: skip
        if c is None:
            raise ToolFailure(f"no child {child_id} on this account")
        return c

    def _session(self, f: dict[str, Any], session_id: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM sessions WHERE session_id = ? AND account_ref = ?",
                      session_id.strip().upper(), f["account_ref"])  # fmt: skip
        if s is None:
            raise ToolFailure(f"no session {session_id} on this account")
        if s["status"] != "booked":
            raise ToolFailure(f"session {s['session_id']} is {s['status']}")
        return s

    def _charge(self, f: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_ref, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (f["account_ref"], kind, pence, ref, self.stamp()),
            )

    def stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _take_place(self, room: str, day: str, kind: str, change: int) -> None:
        d = date.fromisoformat(day)
        if d <= self.now().date() or d.weekday() > 4:
            raise ToolFailure("sessions can only be booked on a future weekday")
        row = self._one("SELECT * FROM places WHERE room = ? AND day = ?", room, day)
        if row is None:
            raise ToolFailure(f"no sessions are open to book on {day}")
        for col in HALVES[kind]:
            if change < 0 and row[col] < 1:
                raise ToolFailure(f"no places left in the {room} on {day}")
            self.db.execute(f"UPDATE places SET {col} = {col} + ? WHERE room = ? AND day = ?",  # noqa: S608
                            (change, room, day))  # fmt: skip

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def view(self, account_ref: str) -> dict[str, Any]:
        """The account as staff see it: children, sessions, collectors, invoices, notes."""
        f = self._family(account_ref)
        acc = f["account_ref"]
        children = self._rows("SELECT * FROM children WHERE account_ref = ? ORDER BY dob", acc)
        for c in children:
            c["age"] = age_on(c["dob"], self.now().date())
        sessions = self._rows("SELECT * FROM sessions WHERE account_ref = ? AND status = "
                              "'booked' ORDER BY day", acc)  # fmt: skip
        for s in sessions:
            s["days_to"] = self.days_to(s["day"])
        invoices = self._rows("SELECT * FROM invoices WHERE account_ref = ? ORDER BY issued", acc)
        for inv in invoices:
            inv["lines"] = self._rows("SELECT * FROM invoice_lines WHERE invoice_id = ? ORDER BY "
                                      "line_no", inv["invoice_id"])  # fmt: skip
            inv["days_since_issue"] = -self.days_to(inv["issued"])
        return {
            **f, "children": children, "sessions": sessions, "invoices": invoices,
            "collectors": self._rows("SELECT * FROM collectors WHERE account_ref = ? AND "
                                     "status = 'active'", acc),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account reference and the date of birth of a child "
        "on that account must match. Returns the account."
    )
    def verify_parent(self, args: Verify) -> dict[str, Any]:
        found = self._one("SELECT account_ref FROM children WHERE account_ref = ? AND dob = ?",
                          norm_account(args.account_ref), args.child_dob.strip())  # fmt: skip
        if found is None:
            raise ToolFailure("verification failed: no account matches that reference and date")
        return self.view(found["account_ref"])

    @tool("Read an account (staff view, after verify_parent only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_ref)

    # -- sessions --------------------------------------------------------------------------
    @tool("Book an extra session for a child, if the child's room has a place that day.")
    def book_session(self, args: BookSession) -> dict[str, Any]:
        f = self._family(args.account_ref)
        c = self._child(f, args.child_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.PRICES:
            raise ToolFailure("kind must be morning, afternoon or full")
        if self._one("SELECT 1 AS x FROM sessions WHERE child_id = ? AND day = ? AND status = "
                     "'booked'", c["child_id"], args.day):  # fmt: skip
            raise ToolFailure(f"{c['first_name']} already has a session on {args.day}")
        self._take_place(c["room"], args.day, kind, -1)
        last = self.db.execute("SELECT MAX(CAST(substr(session_id, 2) AS INTEGER)) FROM sessions")
        sid = f"S{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO sessions (session_id, account_ref, child_id, day, kind, "
            "price_pence) VALUES (?,?,?,?,?,?)",
            (sid, f["account_ref"], c["child_id"], args.day, kind, args.price_pence),
        )
        self._charge(f, "session", args.price_pence, sid)
        return {"session_id": sid, "child": c["first_name"], "day": args.day, "kind": kind,
                "price": money(args.price_pence)}  # fmt: skip

    @tool(
        "Swap a booked session to another day (same kind), if there is a place; fee_pence "
        "(quoted by the desk) is charged. The system does not check the notice rule."
    )
    def swap_session(self, args: SwapSession) -> dict[str, Any]:
        f = self._family(args.account_ref)
        s = self._session(f, args.session_id)
        c = self._child(f, s["child_id"])
        self._take_place(c["room"], args.new_day, s["kind"], -1)
        self.db.execute("UPDATE places SET am_free = am_free + ?, pm_free = pm_free + ? "
                        "WHERE room = ? AND day = ?",
                        (int(s["kind"] != "afternoon"), int(s["kind"] != "morning"), c["room"],
                         s["day"]))  # fmt: skip
        self.db.execute("UPDATE sessions SET day = ? WHERE session_id = ?",
                        (args.new_day, s["session_id"]))  # fmt: skip
        self._charge(f, "swap_fee", args.fee_pence, s["session_id"])
        return {"session_id": s["session_id"], "child": c["first_name"], "day": args.new_day,
                "kind": s["kind"], "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel a booked session; credit_pence comes off the next invoice. The system does not "
        "check the notice rule: the desk must."
    )
    def cancel_session(self, args: CancelSession) -> dict[str, Any]:
        f = self._family(args.account_ref)
        s = self._session(f, args.session_id)
        c = self._child(f, s["child_id"])
        self.db.execute("UPDATE sessions SET status = 'cancelled' WHERE session_id = ?",
                        (s["session_id"],))  # fmt: skip
        self.db.execute("UPDATE places SET am_free = am_free + ?, pm_free = pm_free + ? "
                        "WHERE room = ? AND day = ?",
                        (int(s["kind"] != "afternoon"), int(s["kind"] != "morning"), c["room"],
                         s["day"]))  # fmt: skip
        self._charge(f, "credit", args.credit_pence, s["session_id"])
        return {"session_id": s["session_id"], "status": "cancelled",
                "credited": money(args.credit_pence)}  # fmt: skip

    # -- funding, collectors, late collection, notes -----------------------------------------
    @tool(
        "Apply a government funded-hours eligibility code to one child. Refuses an unknown, "
        "expired or already used code; does not check the child's age: the desk must."
    )
    def apply_funding(self, args: Funding) -> dict[str, Any]:
        f = self._family(args.account_ref)
        c = self._child(f, args.child_id)
        code = re.sub(r"\D", "", args.code)
        row = self._one("SELECT * FROM funding_codes WHERE code = ? AND account_ref = ?", code,
                        f["account_ref"])  # fmt: skip
        if row is None:
            raise ToolFailure("that eligibility code is not registered to this account")
        if row["valid_until"] < self.now().date().isoformat():
            raise ToolFailure(f"that eligibility code expired on {row['valid_until']}")
        if row["child_id"] and row["child_id"] != c["child_id"]:
            raise ToolFailure("that eligibility code is already used for another child")
        self.db.execute(
            "UPDATE funding_codes SET child_id = ? WHERE code = ?", (c["child_id"], code)
        )
        self.db.execute("UPDATE children SET funding_code = ?, funded_hours = ? WHERE child_id = ?",
                        (code, row["hours"], c["child_id"]))  # fmt: skip
        return {"child": c["first_name"], "funded_hours": row["hours"],
                "valid_until": row["valid_until"]}  # fmt: skip

    @tool(
        "Add an authorised collector. Policy: only the account holder may add one; the system "
        "records whoever is named in requested_by."
    )
    def add_collector(self, args: AddCollector) -> dict[str, Any]:
        f = self._family(args.account_ref)
        active = self._rows("SELECT * FROM collectors WHERE account_ref = ? AND status = "
                            "'active'", f["account_ref"])  # fmt: skip
        if len(active) >= _seed.MAX_COLLECTORS:
            raise ToolFailure("an account can have at most four authorised collectors")
        if len(args.password.strip()) < 4:
            raise ToolFailure("a collection password needs at least four characters")
        last = self.db.execute("SELECT MAX(CAST(substr(collector_id, 2) AS INTEGER)) "
                               "FROM collectors")  # fmt: skip
        cid = f"K{(last.fetchone()[0] or 100) + 1}"
        self.db.execute("INSERT INTO collectors (collector_id, account_ref, name, relationship, "
                        "password, added_by) VALUES (?,?,?,?,?,?)",
                        (cid, f["account_ref"], args.name.strip(), args.relationship.strip(),
                         args.password.strip(), args.requested_by.strip()))  # fmt: skip
        return {"collector_id": cid, "name": args.name.strip(), "status": "active"}

    @tool("Remove an authorised collector from the account.")
    def remove_collector(self, args: RemoveCollector) -> dict[str, Any]:
        f = self._family(args.account_ref)
        k = self._one(
            "SELECT * FROM collectors WHERE collector_id = ? AND account_ref = ? AND "
            "status = 'active'",
            args.collector_id.strip().upper(),
            f["account_ref"],
        )
        if k is None:
            raise ToolFailure(f"no active collector {args.collector_id} on this account")
        self.db.execute("UPDATE collectors SET status = 'removed' WHERE collector_id = ?",
                        (k["collector_id"],))  # fmt: skip
        return {"collector_id": k["collector_id"], "name": k["name"], "status": "removed"}

    @tool("Log a late collection the parent has warned of; fee_pence goes on the next invoice.")
    def log_late_collection(self, args: LateCollection) -> dict[str, Any]:
        f = self._family(args.account_ref)
        c = self._child(f, args.child_id)
        if not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", args.collect_time):
            raise ToolFailure("collect_time must be HH:MM")
        if not _seed.CLOSING < args.collect_time <= _seed.LATEST_COLLECTION:
            raise ToolFailure("a late collection must be after 18:00 and no later than 19:00")
        if args.day < self.now().date().isoformat():
            raise ToolFailure("that day has passed")
        self.db.execute("INSERT INTO late_collections (account_ref, child_id, day, collect_time, "
                        "fee_pence) VALUES (?,?,?,?,?)",
                        (f["account_ref"], c["child_id"], args.day, args.collect_time,
                         args.fee_pence))  # fmt: skip
        self._charge(f, "late_fee", args.fee_pence, c["child_id"])
        return {"child": c["first_name"], "day": args.day, "collect_time": args.collect_time,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool("Record an allergy or medical note on a child's file (the room leader is told).")
    def add_medical_note(self, args: MedicalNote) -> dict[str, Any]:
        f = self._family(args.account_ref)
        c = self._child(f, args.child_id)
        kind = args.kind.strip().lower()
        if kind not in {"allergy", "medical"}:
            raise ToolFailure("kind must be allergy or medical")
        self.db.execute(
            "INSERT INTO medical_notes (child_id, kind, detail, recorded_at) VALUES (?,?,?,?)",
            (c["child_id"], kind, args.detail.strip(), self.stamp()),
        )
        return {"child": c["first_name"], "kind": kind, "recorded": True}

    # -- invoices and contact details ------------------------------------------------------
    @tool(
        "Raise a dispute on one invoice line. Policy: within 30 days of the invoice's issue; "
        "the system does not check the window."
    )
    def raise_dispute(self, args: Dispute) -> dict[str, Any]:
        f = self._family(args.account_ref)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND account_ref = ?",
                        args.invoice_id.strip().upper(), f["account_ref"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} on this account")
        line = self._one("SELECT * FROM invoice_lines WHERE invoice_id = ? AND line_no = ?",
                         inv["invoice_id"], args.line_no)  # fmt: skip
        if line is None:
            raise ToolFailure(f"invoice {inv['invoice_id']} has no line {args.line_no}")
        self.db.execute("INSERT INTO disputes (invoice_id, line_no, reason, raised_at) VALUES "
                        "(?,?,?,?)", (inv["invoice_id"], args.line_no, args.reason.strip(),
                                      self.stamp()))  # fmt: skip
        self.db.execute("UPDATE invoices SET status = 'disputed' WHERE invoice_id = ?",
                        (inv["invoice_id"],))  # fmt: skip
        return {"invoice_id": inv["invoice_id"], "line": line["description"],
                "amount": money(line["amount_pence"]), "status": "disputed"}  # fmt: skip

    @tool("Change the account holder's phone number and/or email address.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        f = self._family(args.account_ref)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE families SET phone = ? WHERE account_ref = ?",
                            (args.phone.strip(), f["account_ref"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE families SET email = ? WHERE account_ref = ?",
                            (args.email.strip(), f["account_ref"]))  # fmt: skip
        now = self._family(f["account_ref"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> NurseryEnvironment:
    """A fresh records system, from the seed data."""
    return NurseryEnvironment()
