"""Riverside City Libraries: the desk's tools over a SQLite state with a fixed clock."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any

from benchmarks.domains.library import _seed
from benchmarks.domains.library._args import (
    Card,
    ChangePickup,
    HoldRef,
    LoanRef,
    NoticePreference,
    PayFine,
    PlaceHold,
    Query,
    UpdateContact,
    Verify,
    WaiveFine,
    money,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool

NOW = datetime(2026, 11, 5, 14, 0, tzinfo=UTC)
TODAY = NOW.date()
LOAN_EXTENSION_DAYS = 21
MAX_RENEWALS = 2
MAX_HOLDS = 5
CARD_FEE_PENCE = 200
WAIVE_REASONS = ("library_error", "hospital_stay")


class LibraryEnvironment(SqliteEnvironment):
    """Patrons, catalogue, loans, holds and fines of Riverside City Libraries."""

    SCHEMA_SQL = _seed.SCHEMA_SQL

    def seed(self, db: sqlite3.Connection) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        return NOW

    # -- helpers -----------------------------------------------------------------------------
    def _one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        return self.db.execute(sql, params).fetchone()

    def _patron(self, card_number: str) -> sqlite3.Row:
        row = self._one(
            "SELECT p.* FROM patrons p JOIN cards c ON c.patron_id = p.patron_id "
            "WHERE c.card_number = ? AND c.status = 'active'",
            (card_number.strip().upper(),),
        )
        if row is None:
            raise ToolFailure(f"no active library card {card_number}")
        return row

    def _branch(self, branch: str) -> str:
        key = branch.strip().upper()
        if self._one("SELECT 1 FROM branches WHERE branch_id = ?", (key,)) is None:
            raise ToolFailure(f"unknown branch {branch}; branches are CEN, NOR and HAR")
        return key

    def _availability(self, title_id: str) -> dict[str, int]:
        rows = self.db.execute(
            "SELECT branch_id, COUNT(*) n FROM copies WHERE title_id = ? AND status = 'on_shelf' "
            "GROUP BY branch_id",
            (title_id,),
        )
        return {r["branch_id"]: r["n"] for r in rows}

    def _fine_view(self, row: sqlite3.Row) -> dict[str, Any]:
        return {
            "fine_id": row["fine_id"], "description": row["description"],
            "amount": money(row["amount_pence"]), "paid": money(row["paid_pence"]),
            "outstanding": money(row["amount_pence"] - row["paid_pence"]),
            "status": row["status"],
        }

    def _balance(self, patron_id: str) -> int:
        row = self._one(
            "SELECT COALESCE(SUM(amount_pence - paid_pence), 0) b FROM fines "
            "WHERE patron_id = ? AND status = 'open'",
            (patron_id,),
        )
        return int(row["b"]) if row else 0

    # -- identity and reads ------------------------------------------------------------------
    @tool("Verify a patron: give card_number and pin, or email and date_of_birth (YYYY-MM-DD).")
    def verify_patron(self, args: Verify) -> dict[str, Any]:
        if args.card_number and args.pin:
            row = self._one(
                "SELECT p.* FROM patrons p JOIN cards c ON c.patron_id = p.patron_id "
                "WHERE c.card_number = ? AND c.status = 'active'",
                (args.card_number.strip().upper(),),
            )
            if row is None or row["pin"] != args.pin.strip():
                raise ToolFailure("verification failed: card number and PIN do not match")
        elif args.email and args.date_of_birth:
            row = self._one(
                "SELECT * FROM patrons WHERE lower(email) = ?", (args.email.strip().lower(),)
            )
            if row is None or row["date_of_birth"] != args.date_of_birth.strip():
                raise ToolFailure("verification failed: email and date of birth do not match")
        else:
            raise ToolFailure("give card_number and pin, or email and date_of_birth")
        return {"verified": True, "card_number": row["card_number"], "name": row["name"]}

    @tool("A patron's account: name, contact details, notice channel, payment card, balance.")
    def get_account(self, args: Card) -> dict[str, Any]:
        p = self._patron(args.card_number)
        return {
            "card_number": p["card_number"], "name": p["name"], "email": p["email"],
            "phone": p["phone"], "notice_channel": p["notice_channel"],
            "payment_card": f"card ending {p['pay_card_last4']}, expires {p['pay_card_expiry']}",
            "balance": money(self._balance(p["patron_id"])),
        }

    @tool("A patron's current loans with due dates, renewals used and whether a hold is waiting.")
    def list_loans(self, args: Card) -> list[dict[str, Any]]:
        p = self._patron(args.card_number)
        rows = self.db.execute(
            "SELECT l.*, t.title, t.author, t.title_id FROM loans l "
            "JOIN copies c ON c.copy_id = l.copy_id JOIN titles t ON t.title_id = c.title_id "
            "WHERE l.patron_id = ? ORDER BY l.due_date",
            (p["patron_id"],),
        )
        out = []
        for r in rows:
            waiting = self._one(
                "SELECT 1 FROM holds WHERE title_id = ? AND status = 'waiting'", (r["title_id"],)
            )
            out.append({
                "loan_id": r["loan_id"], "title": r["title"], "author": r["author"],
                "due_date": r["due_date"], "renewals_used": r["renewals"],
                "hold_waiting": waiting is not None,
            })
        return out

    @tool("Search the catalogue by title or author; shows copies on the shelf at each branch.")
    def search_catalogue(self, args: Query) -> list[dict[str, Any]]:
        words = [w for w in args.query.lower().replace(",", " ").split() if w]
        if not words:
            raise ToolFailure("give a title or author to search for")
        out = []
        for t in self.db.execute("SELECT * FROM titles ORDER BY title_id"):
            text = f"{t['title']} {t['author']}".lower().replace(",", " ")
            if all(w in text for w in words):
                out.append({
                    "title_id": t["title_id"], "title": t["title"], "author": t["author"],
                    "on_shelf": self._availability(t["title_id"]),
                })
        return out

    @tool("A patron's holds: title, pickup branch and status.")
    def get_holds(self, args: Card) -> list[dict[str, Any]]:
        p = self._patron(args.card_number)
        rows = self.db.execute(
            "SELECT h.*, t.title FROM holds h JOIN titles t ON t.title_id = h.title_id "
            "WHERE h.patron_id = ? AND h.status = 'waiting' ORDER BY h.hold_id",
            (p["patron_id"],),
        )
        return [
            {"hold_id": r["hold_id"], "title_id": r["title_id"], "title": r["title"],
             "pickup_branch": r["pickup_branch"], "status": r["status"]}
            for r in rows
        ]

    @tool("A patron's fines and fees (open ones have an outstanding amount).")
    def get_fines(self, args: Card) -> dict[str, Any]:
        p = self._patron(args.card_number)
        rows = self.db.execute(
            "SELECT * FROM fines WHERE patron_id = ? ORDER BY fine_id", (p["patron_id"],)
        )
        return {
            "fines": [self._fine_view(r) for r in rows],
            "balance": money(self._balance(p["patron_id"])),
        }

    # -- changes -----------------------------------------------------------------------------
    @tool("Renew a loan by 21 days from its due date. Refused when a hold is waiting on the "
          "title or the loan was renewed twice already. Returns the new due date.")
    def renew_loan(self, args: LoanRef) -> dict[str, Any]:
        loan = self._one(
            "SELECT l.*, c.title_id FROM loans l JOIN copies c ON c.copy_id = l.copy_id "
            "WHERE l.loan_id = ?", (args.loan_id,),
        )
        if loan is None:
            raise ToolFailure(f"no loan {args.loan_id}")
        if loan["renewals"] >= MAX_RENEWALS:
            raise ToolFailure(f"renewal refused: loan {args.loan_id} was renewed twice already")
        if self._one(
            "SELECT 1 FROM holds WHERE title_id = ? AND status = 'waiting'", (loan["title_id"],)
        ):
            raise ToolFailure("renewal refused: another patron has a hold waiting on this title")
        new_due = date.fromisoformat(loan["due_date"]) + timedelta(days=LOAN_EXTENSION_DAYS)
        self.db.execute(
            "UPDATE loans SET due_date = ?, renewals = renewals + 1 WHERE loan_id = ?",
            (new_due.isoformat(), args.loan_id),
        )
        return {"loan_id": args.loan_id, "new_due_date": new_due.isoformat(),
                "renewals_used": loan["renewals"] + 1}

    @tool("Place a hold on a title for pickup at a branch (CEN, NOR, HAR). Refused at 5 holds, "
          "or when a copy is on the shelf at that branch (the patron can just take it).")
    def place_hold(self, args: PlaceHold) -> dict[str, Any]:
        p = self._patron(args.card_number)
        branch = self._branch(args.pickup_branch)
        if self._one("SELECT 1 FROM titles WHERE title_id = ?", (args.title_id,)) is None:
            raise ToolFailure(f"no title {args.title_id}")
        count = self._one(
            "SELECT COUNT(*) n FROM holds WHERE patron_id = ? AND status = 'waiting'",
            (p["patron_id"],),
        )
        if count and count["n"] >= MAX_HOLDS:
            raise ToolFailure("hold refused: the patron already has 5 holds, the maximum")
        if self._availability(args.title_id).get(branch):
            raise ToolFailure(f"hold refused: a copy is on the shelf at {branch}; "
                              "the patron can take it from the shelf")
        n = self._one("SELECT COUNT(*) n FROM holds", ())["n"]
        hold_id = f"H{701 + n}"
        self.db.execute(
            "INSERT INTO holds VALUES (?, ?, ?, ?, 'waiting', ?)",
            (hold_id, p["patron_id"], args.title_id, branch, TODAY.isoformat()),
        )
        return {"hold_id": hold_id, "title_id": args.title_id, "pickup_branch": branch}

    @tool("Cancel a waiting hold.")
    def cancel_hold(self, args: HoldRef) -> dict[str, Any]:
        hold = self._one("SELECT * FROM holds WHERE hold_id = ?", (args.hold_id,))
        if hold is None or hold["status"] != "waiting":
            raise ToolFailure(f"no waiting hold {args.hold_id}")
        self.db.execute("UPDATE holds SET status = 'cancelled' WHERE hold_id = ?", (args.hold_id,))
        return {"hold_id": args.hold_id, "status": "cancelled"}

    @tool("Change the pickup branch (CEN, NOR, HAR) of a waiting hold.")
    def change_pickup_branch(self, args: ChangePickup) -> dict[str, Any]:
        hold = self._one("SELECT * FROM holds WHERE hold_id = ?", (args.hold_id,))
        if hold is None or hold["status"] != "waiting":
            raise ToolFailure(f"no waiting hold {args.hold_id}")
        branch = self._branch(args.branch)
        self.db.execute("UPDATE holds SET pickup_branch = ? WHERE hold_id = ?",
                        (branch, args.hold_id))
        return {"hold_id": args.hold_id, "pickup_branch": branch}

    @tool("Pay towards a fine with the payment card on file (partial payments allowed). "
          "Returns what remains on the fine and on the account.")
    def pay_fine(self, args: PayFine) -> dict[str, Any]:
        fine = self._one("SELECT * FROM fines WHERE fine_id = ?", (args.fine_id,))
        if fine is None or fine["status"] != "open":
            raise ToolFailure(f"no open fine {args.fine_id}")
        pence = round(args.amount * 100)
        owed = fine["amount_pence"] - fine["paid_pence"]
        if pence <= 0 or pence > owed:
            raise ToolFailure(f"amount must be between £0.01 and {money(owed)}")
        p = self._one("SELECT * FROM patrons WHERE patron_id = ?", (fine["patron_id"],))
        if not p["pay_card_last4"] or p["pay_card_expiry"] < TODAY.strftime("%Y-%m"):
            raise ToolFailure("payment declined: the card on file has expired")
        paid = fine["paid_pence"] + pence
        status = "paid" if paid == fine["amount_pence"] else "open"
        self.db.execute("UPDATE fines SET paid_pence = ?, status = ? WHERE fine_id = ?",
                        (paid, status, args.fine_id))
        n = self._one("SELECT COUNT(*) n FROM payments", ())["n"]
        self.db.execute("INSERT INTO payments VALUES (?, ?, ?, ?, ?)",
                        (f"PAY{n + 1:03d}", args.fine_id, pence, p["pay_card_last4"],
                         TODAY.isoformat()))
        return {"fine_id": args.fine_id, "charged": money(pence),
                "card": f"ending {p['pay_card_last4']}",
                "remaining_on_fine": money(fine["amount_pence"] - paid),
                "account_balance": money(self._balance(p["patron_id"]))}

    @tool("Waive a fine. reason is library_error or hospital_stay; a hospital-stay waiver is "
          "allowed once in 12 months.")
    def waive_fine(self, args: WaiveFine) -> dict[str, Any]:
        fine = self._one("SELECT * FROM fines WHERE fine_id = ?", (args.fine_id,))
        if fine is None or fine["status"] != "open":
            raise ToolFailure(f"no open fine {args.fine_id}")
        if args.reason == "hospital_stay":
            since = (TODAY - timedelta(days=365)).isoformat()
            if self._one(
                "SELECT 1 FROM fines WHERE patron_id = ? AND waive_reason = 'hospital_stay' "
                "AND waived_on >= ?", (fine["patron_id"], since),
            ):
                raise ToolFailure("waiver refused: a hospital-stay waiver was already given "
                                  "in the last 12 months")
        self.db.execute(
            "UPDATE fines SET status = 'waived', waived_on = ?, waive_reason = ? WHERE fine_id = ?",
            (TODAY.isoformat(), args.reason, args.fine_id),
        )
        return {"fine_id": args.fine_id, "status": "waived",
                "waived": money(fine["amount_pence"] - fine["paid_pence"])}

    @tool("Replace a lost card: the old card stops working, a £2.00 fee is added to the "
          "account. Returns the new card number.")
    def replace_card(self, args: Card) -> dict[str, Any]:
        p = self._patron(args.card_number)
        n = self._one("SELECT COUNT(*) n FROM cards", ())["n"]
        new_card = f"RL-{30001 + n}"
        self.db.execute("UPDATE cards SET status = 'replaced' WHERE card_number = ?",
                        (p["card_number"],))
        self.db.execute("INSERT INTO cards VALUES (?, ?, 'active', ?)",
                        (new_card, p["patron_id"], TODAY.isoformat()))
        self.db.execute("UPDATE patrons SET card_number = ? WHERE patron_id = ?",
                        (new_card, p["patron_id"]))
        count = self._one("SELECT COUNT(*) n FROM fines", ())["n"]
        self.db.execute(
            "INSERT INTO fines VALUES (?, ?, 'card_fee', 'Replacement card', ?, 0, 'open', ?, "
            "NULL, NULL)",
            (f"F{901 + count}", p["patron_id"], CARD_FEE_PENCE, TODAY.isoformat()),
        )
        return {"new_card_number": new_card, "fee": money(CARD_FEE_PENCE),
                "account_balance": money(self._balance(p["patron_id"]))}

    @tool("Update a patron's email and/or phone number.")
    def update_contact(self, args: UpdateContact) -> dict[str, Any]:
        p = self._patron(args.card_number)
        if not args.email and not args.phone:
            raise ToolFailure("give a new email or phone")
        if args.email and "@" not in args.email:
            raise ToolFailure(f"not an email address: {args.email}")
        email = args.email or p["email"]
        phone = args.phone or p["phone"]
        self.db.execute("UPDATE patrons SET email = ?, phone = ? WHERE patron_id = ?",
                        (email, phone, p["patron_id"]))
        return {"email": email, "phone": phone}

    @tool("Set how the patron gets notices (due reminders, holds ready): email, sms or post.")
    def set_notice_preference(self, args: NoticePreference) -> dict[str, Any]:
        p = self._patron(args.card_number)
        self.db.execute("UPDATE patrons SET notice_channel = ? WHERE patron_id = ?",
                        (args.channel, p["patron_id"]))
        return {"notice_channel": args.channel}


def make_environment() -> LibraryEnvironment:
    """A fresh library environment, for `[environment] target`."""
    return LibraryEnvironment()
