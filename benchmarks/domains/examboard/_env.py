"""The exam board's candidate system the desk works through: `ExamboardEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.examboard import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_candidate(text: str) -> str:
    return "NA" + re.sub(r"\D", "", text)


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


class Candidate(BaseModel):
    candidate_id: str = Field(description="The candidate number, e.g. NA31001")


class Verify(Candidate):
    date_of_birth: str = Field(description="The candidate's date of birth, YYYY-MM-DD")


class Level(BaseModel):
    level: str = Field(description="B2, C1 or C2")


class Enter(Candidate):
    session_id: str = Field(description="The session, e.g. NS203")
    fee_pence: int = Field(description="The fee the desk quoted (entry fee plus any late fee)")


class EntryRef(Candidate):
    entry_id: str = Field(description="e.g. EN7004")


class Transfer(EntryRef):
    session_id: str = Field(description="The new session, of the same level")
    fee_pence: int = Field(description="The transfer fee the desk quoted")


class Withdraw(EntryRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class Access(EntryRef):
    arrangement: str = Field(description="extra_time (25% extra time) or reader")


class ResultRef(Candidate):
    result_id: str = Field(description="e.g. RS8017")
    fee_pence: int = Field(description="The fee the desk quoted")


class Contact(Candidate):
    email: str | None = Field(default=None, description="The new email address")
    phone: str | None = Field(default=None, description="The new phone number")


class ExamboardEnvironment(SqliteEnvironment):
    """Northgate Assessment: candidates, sessions, entries, access, results and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "candidate_id": ["candidate number"],
        "date_of_birth": ["date of birth", "born"],
        "caller_name": ["your own name", "your name", "who am i speaking"],
        "session": ["which level", "which session", "which date"],
        "new_session": ["which session", "instead"],
        "arrangement": ["extra time or a reader", "which arrangement"],
        "email": ["email address"],
        "phone": ["phone number"],
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

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _candidate(self, candidate_id: str) -> dict[str, Any]:
        c = self._one("SELECT * FROM candidates WHERE candidate_id = ?",
                      norm_candidate(candidate_id))  # fmt: skip
        if c is None:
            raise ToolFailure(f"no candidate {candidate_id}")
        return c

    def _session(self, session_id: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM sessions WHERE session_id = ?", session_id.strip().upper())
        if s is None:
            raise ToolFailure(f"no session {session_id}")
        return {**s, "days_away": self.days_to(s["day"])}

    def _entry(self, c: dict[str, Any], entry_id: str) -> dict[str, Any]:
        e = self._one("SELECT * FROM entries WHERE entry_id = ?", entry_id.strip().upper())
        if e is None or e["candidate_id"] != c["candidate_id"]:
            raise ToolFailure(f"no entry {entry_id} for this candidate")
        if e["status"] != "entered":
            raise ToolFailure(f"entry {e['entry_id']} is {e['status']}")
        return {**e, "session": self._session(e["session_id"])}

    def _result(self, c: dict[str, Any], result_id: str) -> dict[str, Any]:
        r = self._one("SELECT * FROM results WHERE result_id = ? AND candidate_id = ?",
                      result_id.strip().upper(), c["candidate_id"])  # fmt: skip
        if r is None:
            raise ToolFailure(f"no result {result_id} for this candidate")
        return r

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (candidate_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["candidate_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def entry_window(self, days_away: int) -> str:
        if days_away >= _seed.ENTRY_CLOSE_DAYS:
            return "open"
        return "late" if days_away >= _seed.LATE_CLOSE_DAYS else "closed"

    def view(self, candidate_id: str) -> dict[str, Any]:
        """The candidate as staff see them: age, entries with sessions and access, results."""
        c = self._candidate(candidate_id)
        entries = self._rows(
            "SELECT e.*, s.level, s.day FROM entries e JOIN sessions s USING (session_id) "
            "WHERE e.candidate_id = ? AND e.status = 'entered' ORDER BY s.day",
            c["candidate_id"],
        )
        for e in entries:
            e["days_away"] = self.days_to(e["day"])
            e["access"] = self._rows("SELECT * FROM access_arrangements WHERE entry_id = ?",
                                     e["entry_id"])  # fmt: skip
        results = self._rows(
            "SELECT * FROM results WHERE candidate_id = ? ORDER BY results_day DESC",
            c["candidate_id"],
        )
        for r in results:
            r["days_since_results"] = -self.days_to(r["results_day"])
            r["remarks"] = self._rows("SELECT * FROM remarks WHERE result_id = ?", r["result_id"])
        return {**c, "age": age_on(c["date_of_birth"], self.now().date()), "entries": entries,
                "results": results}  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the candidate number and the candidate's date of birth "
        "must match. Returns the candidate's record (staff view)."
    )
    def verify_candidate(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT candidate_id FROM candidates WHERE candidate_id = ? AND "
                      "date_of_birth = ?", norm_candidate(args.candidate_id),
                      args.date_of_birth.strip())  # fmt: skip
        if c is None:
            raise ToolFailure("verification failed: no candidate matches that number and date")
        return self.view(c["candidate_id"])

    @tool("Read a candidate's record (staff view, after verify_candidate only).")
    def get_candidate(self, args: Candidate) -> dict[str, Any]:
        return self.view(args.candidate_id)

    @tool("List the sessions of a level, with how many days away each is and its entry window.")
    def list_sessions(self, args: Level) -> list[dict[str, Any]]:
        level = args.level.strip().upper()
        if level not in _seed.FEES:
            raise ToolFailure("level must be B2, C1 or C2")
        rows = self._rows("SELECT * FROM sessions WHERE level = ? ORDER BY day", level)
        return [{**s, "days_away": self.days_to(s["day"]),
                 "entries": self.entry_window(self.days_to(s["day"]))} for s in rows
                if self.days_to(s["day"]) > 0]  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Enter the candidate for a session; fee_pence is taken from the card on the account. "
        "Refuses a session whose entries have closed (under 3 weeks away). The system does "
        "not check the fee or the late fee: the desk must."
    )
    def enter_session(self, args: Enter) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        s = self._session(args.session_id)
        if self.entry_window(s["days_away"]) == "closed":
            raise ToolFailure(f"entries for session {s['session_id']} have closed")
        if self._one("SELECT 1 AS x FROM entries WHERE candidate_id = ? AND session_id = ? AND "
                     "status = 'entered'", c["candidate_id"], s["session_id"]):  # fmt: skip
            raise ToolFailure(f"already entered for session {s['session_id']}")
        last = self.db.execute("SELECT MAX(CAST(substr(entry_id, 3) AS INTEGER)) FROM entries")
        entry_id = f"EN{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO entries (entry_id, candidate_id, session_id, fee_paid_pence) "
            "VALUES (?,?,?,?)",
            (entry_id, c["candidate_id"], s["session_id"], args.fee_pence),
        )
        self._charge(c, "entry", args.fee_pence, entry_id)
        return {"entry_id": entry_id, "level": s["level"], "day": s["day"],
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move an entry to another session of the same level; fee_pence (quoted by the desk) is "
        "charged. Refuses another level and a session whose entries have closed. The system "
        "does not check the 2-week deadline: the desk must."
    )
    def transfer_entry(self, args: Transfer) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        e = self._entry(c, args.entry_id)
        new = self._session(args.session_id)
        if new["level"] != e["session"]["level"]:
            raise ToolFailure("a transfer must be to a session of the same level")
        if new["session_id"] == e["session_id"]:
            raise ToolFailure("that is the session the entry is already for")
        if self.entry_window(new["days_away"]) == "closed":
            raise ToolFailure(f"entries for session {new['session_id']} have closed")
        self.db.execute("UPDATE entries SET session_id = ? WHERE entry_id = ?",
                        (new["session_id"], e["entry_id"]))  # fmt: skip
        self._charge(c, "transfer_fee", args.fee_pence, e["entry_id"])
        return {"entry_id": e["entry_id"], "level": new["level"], "day": new["day"],
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Withdraw an entry; refund_pence goes back to the card. The system does not check the "
        "refund rules: the desk must."
    )
    def withdraw_entry(self, args: Withdraw) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        e = self._entry(c, args.entry_id)
        self.db.execute("UPDATE entries SET status = 'withdrawn' WHERE entry_id = ?",
                        (e["entry_id"],))  # fmt: skip
        self._charge(c, "refund", args.refund_pence, e["entry_id"])
        return {"entry_id": e["entry_id"], "status": "withdrawn",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Record an access arrangement (extra_time or reader) on an entry: approved when the "
        "evidence reached the board 4+ weeks before the session, awaiting_evidence while that "
        "deadline is still ahead; refused once the deadline has passed without evidence."
    )
    def request_access(self, args: Access) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        e = self._entry(c, args.entry_id)
        kind = args.arrangement.strip().lower().replace(" ", "_")
        if kind not in _seed.ARRANGEMENTS:
            raise ToolFailure("arrangement must be extra_time or reader")
        days = e["session"]["days_away"]
        deadline = date.fromisoformat(e["session"]["day"]).toordinal() - _seed.ACCESS_DAYS
        on_time = c["evidence_on"] and date.fromisoformat(c["evidence_on"]).toordinal() <= deadline
        if on_time:
            status = "approved"
        elif days >= _seed.ACCESS_DAYS:
            status = "awaiting_evidence"
        else:
            raise ToolFailure("the evidence deadline (4 weeks before the session) has passed")
        if self._one("SELECT 1 AS x FROM access_arrangements WHERE entry_id = ? AND "
                     "arrangement = ?", e["entry_id"], kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already recorded on this entry")
        self.db.execute(
            "INSERT INTO access_arrangements (entry_id, arrangement, status) VALUES (?,?,?)",
            (e["entry_id"], kind, status),
        )
        return {"entry_id": e["entry_id"], "arrangement": kind, "status": status,
                "evidence_by": date.fromordinal(deadline).isoformat()}  # fmt: skip

    @tool(
        "Ask for a re-mark of a result; fee_pence is charged (refunded later if the grade "
        "changes). Refuses more than 30 days after results day."
    )
    def request_remark(self, args: ResultRef) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        r = self._result(c, args.result_id)
        if -self.days_to(r["results_day"]) > _seed.REMARK_DAYS:
            raise ToolFailure("re-marks must be asked for within 30 days of results day")
        if self._one("SELECT 1 AS x FROM remarks WHERE result_id = ?", r["result_id"]):
            raise ToolFailure("a re-mark of this result has already been asked for")
        self.db.execute("INSERT INTO remarks (result_id, fee_pence) VALUES (?,?)",
                        (r["result_id"], args.fee_pence))  # fmt: skip
        self._charge(c, "remark_fee", args.fee_pence, r["result_id"])
        return {"result_id": r["result_id"], "level": r["level"], "status": "requested",
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Order a replacement certificate, posted to the address on record; fee_pence is "
        "charged. Refuses a certificate issued 30 days ago or less, or not yet issued."
    )
    def order_certificate(self, args: ResultRef) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        r = self._result(c, args.result_id)
        if not r["certificate_issued"]:
            raise ToolFailure("no certificate has been issued for this result")
        if -self.days_to(r["certificate_issued"]) <= _seed.CERTIFICATE_DAYS:
            raise ToolFailure(
                f"the certificate was issued on {r['certificate_issued']}: a replacement can "
                "only be ordered more than 30 days after issue"
            )
        self.db.execute(
            "INSERT INTO certificate_orders (result_id, fee_pence, ordered_at) VALUES (?,?,?)",
            (r["result_id"], args.fee_pence, self.now().strftime(_seed.STAMP)),
        )
        self._charge(c, "certificate_fee", args.fee_pence, r["result_id"])
        return {"result_id": r["result_id"], "level": r["level"], "fee": money(args.fee_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Change the candidate's email address and/or phone number.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._candidate(args.candidate_id)
        if args.phone is not None and len(re.sub(r"\D", "", args.phone)) != 11:
            raise ToolFailure(f"{args.phone!r} is not a UK phone number")
        if args.email is not None and not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
                                                       args.email.strip()):  # fmt: skip
            raise ToolFailure(f"{args.email!r} is not an email address")
        for column, value in (("email", args.email), ("phone", args.phone)):
            if value is not None:
                self.db.execute(
                    f"UPDATE candidates SET {column} = ? WHERE candidate_id = ?",  # noqa: S608
                    (value.strip(), c["candidate_id"]),
                )
        now = self._candidate(c["candidate_id"])
        return {"email": now["email"], "phone": now["phone"]}


def make_environment() -> ExamboardEnvironment:
    """A fresh candidate system, from the seed data."""
    return ExamboardEnvironment()
