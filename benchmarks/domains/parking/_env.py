"""Westbrook Borough Council parking desk: the tools over a SQLite state, with a fixed clock."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from benchmarks.domains.parking import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)   # Thursday 3 December 2026, 10:00
TODAY = NOW.date()
FIRST_PERMIT_PENCE = 8000
SECOND_PERMIT_PENCE = 12000
MAX_PERMITS_PER_HOUSEHOLD = 2
CHANGE_VEHICLE_FEE_PENCE = 1000
CANCEL_ADMIN_FEE_PENCE = 1000
BOOK_PASSES = 10
BOOK_PRICE_PENCE = 2500
YEARLY_PASS_CAP = 100
RENEW_WINDOW_DAYS = 30
PCN_FULL_PENCE = 7000
PCN_DISCOUNT_PENCE = 3500
DISCOUNT_DAYS = 14
CHALLENGE_DAYS = 28
VRM_RE = re.compile(r"^[A-Z]{2}\d{2} [A-Z]{3}$")


def money(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


def norm_vrm(vrm: str) -> str:
    v = re.sub(r"\s+", "", vrm.upper())
    return f"{v[:4]} {v[4:]}" if len(v) == 7 else v


def norm_postcode(pc: str) -> str:
    return re.sub(r"\s+", "", pc.upper())


def next_year(d: date) -> date:
    try:
        return d.replace(year=d.year + 1)
    except ValueError:
        return d.replace(year=d.year + 1, day=28)


class Verify(BaseModel):
    reference: str = Field(description="The permit number (RP-...) or account number (PA-...)")
    postcode: str
    surname: str


class Account(BaseModel):
    account_no: str


class PermitRef(BaseModel):
    permit_no: str


class Apply(BaseModel):
    account_no: str
    vrm: str = Field(description="Vehicle registration, e.g. AB12 CDE")
    start_date: str = Field(description="YYYY-MM-DD")


class ChangeVehicle(BaseModel):
    permit_no: str
    new_vrm: str


class Cancel(BaseModel):
    permit_no: str
    effective_date: str = Field(description="YYYY-MM-DD, the first day without the permit")


class BuyPasses(BaseModel):
    account_no: str
    books: int = Field(ge=1, le=10, description="Books of 10 day passes")


class PcnRef(BaseModel):
    pcn_no: str
    vrm: str


class PayPcn(BaseModel):
    pcn_no: str
    vrm: str
    account_no: str = Field(description="The verified account whose card on file pays")
    rate: Literal["discount", "full"]


class Challenge(BaseModel):
    pcn_no: str
    vrm: str
    reason: str = Field(min_length=3)


class Contact(BaseModel):
    account_no: str
    email: str | None = None
    phone: str | None = None


class ParkingEnvironment(SqliteEnvironment):
    """Accounts, resident permits, visitor passes and penalty charge notices."""

    SCHEMA_SQL = _seed.SCHEMA_SQL
    LEXICON = {
        "permit_number": ["permit number"], "account_number": ["account number"],
        "postcode": ["postcode"], "surname": ["surname", "last name"],
        "pcn_number": ["pcn number", "penalty charge notice number", "notice number"],
        "vrm": ["registration", "reg"], "new_vrm": ["new registration", "new car's registration"],
        "email": ["email"], "phone": ["phone number"],
    }

    def seed(self, db: sqlite3.Connection) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        return NOW

    # -- helpers -----------------------------------------------------------------------------
    def _one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        return self.db.execute(sql, params).fetchone()

    def _account(self, account_no: str) -> sqlite3.Row:
        row = self._one("SELECT * FROM accounts WHERE account_no = ?",
                        (account_no.strip().upper(),))
        if row is None:
            raise ToolFailure(f"no account {account_no}")
        return row

    def _permit(self, permit_no: str) -> sqlite3.Row:
        row = self._one("SELECT * FROM permits WHERE permit_no = ?", (permit_no.strip().upper(),))
        if row is None:
            raise ToolFailure(f"no permit {permit_no}")
        if row["status"] != "active":
            raise ToolFailure(f"permit {row['permit_no']} is {row['status']}")
        return row

    def _household(self, acc: sqlite3.Row) -> list[str]:
        rows = self.db.execute(
            "SELECT account_no FROM accounts WHERE address = ? AND postcode = ?",
            (acc["address"], acc["postcode"]))
        return [r["account_no"] for r in rows]

    def _household_permits(self, acc: sqlite3.Row) -> int:
        marks = ",".join("?" * len(self._household(acc)))
        row = self._one(f"SELECT COUNT(*) n FROM permits WHERE status = 'active' "
                        f"AND account_no IN ({marks})", tuple(self._household(acc)))
        return int(row["n"]) if row else 0

    def _charge(self, acc: sqlite3.Row, item: str, pence: int) -> None:
        if acc["card_expiry"] < TODAY.strftime("%Y-%m"):
            raise ToolFailure(
                f"payment declined: the card on file (ending {acc['card_last4']}) expired "
                f"{acc['card_expiry']}")
        n = self._one("SELECT COUNT(*) n FROM payments", ())["n"]
        self.db.execute("INSERT INTO payments VALUES (?,?,?,?,?,?)", (
            f"PY-{n + 1:03d}", acc["account_no"], item, pence, acc["card_last4"],
            TODAY.isoformat()))

    def _permit_view(self, p: sqlite3.Row) -> dict[str, Any]:
        return {"permit_no": p["permit_no"], "vrm": p["vrm"], "zone": p["zone"],
                "start_date": p["start_date"], "end_date": p["end_date"],
                "price": money(p["price_pence"]), "status": p["status"]}

    def _pcn(self, pcn_no: str, vrm: str) -> sqlite3.Row:
        row = self._one("SELECT * FROM pcns WHERE pcn_no = ?", (re.sub(r"\s", "", pcn_no.upper()),))
        if row is None or row["vrm"] != norm_vrm(vrm):
            raise ToolFailure("no penalty charge notice with that number for that vehicle "
                              "registration")
        return row

    @staticmethod
    def _date(text: str) -> date:
        try:
            return date.fromisoformat(text.strip())
        except ValueError as exc:
            raise ToolFailure(f"not a date (YYYY-MM-DD): {text}") from exc

    # -- identity and reads ------------------------------------------------------------------
    @tool("Verify a customer: permit or account number, with the postcode and surname on it.")
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        ref = args.reference.strip().upper()
        if ref.startswith("RP"):
            p = self._one("SELECT account_no FROM permits WHERE permit_no = ?", (ref,))
            acc_no = p["account_no"] if p else None
        else:
            acc_no = ref
        acc = self._one("SELECT * FROM accounts WHERE account_no = ?", (acc_no or "",))
        if (acc is None or norm_postcode(acc["postcode"]) != norm_postcode(args.postcode)
                or acc["surname"].casefold() != args.surname.strip().casefold()):
            raise ToolFailure("verification failed: the reference, postcode and surname do not "
                              "match our records")
        return {"verified": True, "account_no": acc["account_no"],
                "name": f"{acc['first_name']} {acc['surname']}"}

    @tool("An account: name, address, contact details, card on file and its permits.")
    def get_account(self, args: Account) -> dict[str, Any]:
        acc = self._account(args.account_no)
        permits = self.db.execute(
            "SELECT * FROM permits WHERE account_no = ? AND status = 'active' ORDER BY permit_no",
            (acc["account_no"],))
        return {"account_no": acc["account_no"], "name": f"{acc['first_name']} {acc['surname']}",
                "address": f"{acc['address']}, {acc['postcode']}", "zone": acc["zone"],
                "email": acc["email"], "phone": acc["phone"],
                "card_on_file": f"ending {acc['card_last4']}, expires {acc['card_expiry']}",
                "permits": [self._permit_view(p) for p in permits],
                "household_permits": self._household_permits(acc)}

    @tool("The household's visitor passes this calendar year: cap, used, remaining, purchases.")
    def get_visitor_allowance(self, args: Account) -> dict[str, Any]:
        acc = self._account(args.account_no)
        house = self._household(acc)
        marks = ",".join("?" * len(house))
        rows = self.db.execute(
            f"SELECT v.*, a.first_name || ' ' || a.surname AS name FROM visitor_passes v "
            f"JOIN accounts a ON a.account_no = v.account_no WHERE v.account_no IN ({marks}) "
            f"AND v.bought_on >= ? ORDER BY v.bought_on", (*house, f"{TODAY.year}-01-01"))
        purchases = [{"account_no": r["account_no"], "name": r["name"], "passes": r["passes"],
                      "bought_on": r["bought_on"]} for r in rows]
        used = sum(p["passes"] for p in purchases)
        return {"household_cap": YEARLY_PASS_CAP, "used": used,
                "remaining": YEARLY_PASS_CAP - used, "purchases": purchases,
                "book_price": money(BOOK_PRICE_PENCE), "passes_per_book": BOOK_PASSES}

    @tool("A penalty charge notice, by its number and the vehicle registration.")
    def get_pcn(self, args: PcnRef) -> dict[str, Any]:
        row = self._pcn(args.pcn_no, args.vrm)
        issued = date.fromisoformat(row["issued_on"])
        discount_until = issued + timedelta(days=DISCOUNT_DAYS)
        return {"pcn_no": row["pcn_no"], "vrm": row["vrm"], "issued_on": row["issued_on"],
                "contravention": row["contravention"], "location": row["location"],
                "status": row["status"], "paid": money(row["paid_pence"]),
                "full_rate": money(PCN_FULL_PENCE), "discount_rate": money(PCN_DISCOUNT_PENCE),
                "discount_until": discount_until.isoformat(),
                "challenge_until": (issued + timedelta(days=CHALLENGE_DAYS)).isoformat(),
                "amount_due_now": money(PCN_DISCOUNT_PENCE if TODAY <= discount_until
                                        else PCN_FULL_PENCE)}

    # -- writes ------------------------------------------------------------------------------
    @tool("Apply for a resident permit for a vehicle; charged to the card on file.")
    def apply_permit(self, args: Apply) -> dict[str, Any]:
        acc = self._account(args.account_no)
        vrm = norm_vrm(args.vrm)
        if not VRM_RE.match(vrm):
            raise ToolFailure(f"not a valid registration: {args.vrm}")
        if self._one("SELECT 1 FROM permits WHERE vrm = ? AND status = 'active'", (vrm,)):
            raise ToolFailure(f"{vrm} already has an active resident permit")
        start = self._date(args.start_date)
        if start < TODAY or start > TODAY + timedelta(days=60):
            raise ToolFailure("a permit can start from today up to 60 days ahead")
        held = self._household_permits(acc)
        if held >= MAX_PERMITS_PER_HOUSEHOLD:
            raise ToolFailure(f"the household already holds {held} permits, the most allowed")
        price = FIRST_PERMIT_PENCE if held == 0 else SECOND_PERMIT_PENCE
        n = self._one("SELECT COUNT(*) n FROM permits", ())["n"]
        permit_no = f"RP-{5101 + n}"
        end = next_year(start) - timedelta(days=1)
        self._charge(acc, f"permit {permit_no}", price)
        self.db.execute(
            "INSERT INTO permits (permit_no, account_no, vrm, zone, start_date, end_date, "
            "price_pence, status) VALUES (?,?,?,?,?,?,?, 'active')",
            (permit_no, acc["account_no"], vrm, acc["zone"], start.isoformat(), end.isoformat(),
             price))
        return {"permit_no": permit_no, "vrm": vrm, "zone": acc["zone"],
                "start_date": start.isoformat(), "end_date": end.isoformat(),
                "charged": money(price)}

    @tool("Renew a permit for a year (from 30 days before it ends); charged to the card on file.")
    def renew_permit(self, args: PermitRef) -> dict[str, Any]:
        p = self._permit(args.permit_no)
        end = date.fromisoformat(p["end_date"])
        opens = end - timedelta(days=RENEW_WINDOW_DAYS)
        if TODAY < opens:
            raise ToolFailure(f"too early to renew: renewal opens on {opens.isoformat()}, "
                              f"30 days before the permit ends on {end.isoformat()}")
        acc = self._account(p["account_no"])
        self._charge(acc, f"renewal {p['permit_no']}", p["price_pence"])
        new_end = next_year(end)
        self.db.execute("UPDATE permits SET end_date = ? WHERE permit_no = ?",
                        (new_end.isoformat(), p["permit_no"]))
        return {"permit_no": p["permit_no"], "new_end_date": new_end.isoformat(),
                "charged": money(p["price_pence"])}

    @tool("Change the vehicle on a permit; £10.00 admin fee charged to the card on file.")
    def change_vehicle(self, args: ChangeVehicle) -> dict[str, Any]:
        p = self._permit(args.permit_no)
        vrm = norm_vrm(args.new_vrm)
        if not VRM_RE.match(vrm):
            raise ToolFailure(f"not a valid registration: {args.new_vrm}")
        if vrm == p["vrm"]:
            raise ToolFailure(f"{vrm} is already the vehicle on this permit")
        if self._one("SELECT 1 FROM permits WHERE vrm = ? AND status = 'active'", (vrm,)):
            raise ToolFailure(f"{vrm} already has an active resident permit")
        self._charge(self._account(p["account_no"]), f"vehicle change {p['permit_no']}",
                     CHANGE_VEHICLE_FEE_PENCE)
        self.db.execute("UPDATE permits SET vrm = ? WHERE permit_no = ?", (vrm, p["permit_no"]))
        return {"permit_no": p["permit_no"], "old_vrm": p["vrm"], "new_vrm": vrm,
                "fee": money(CHANGE_VEHICLE_FEE_PENCE)}

    @tool("Cancel a permit from a date, refunding the unused days less a £10.00 admin fee.")
    def cancel_permit(self, args: Cancel) -> dict[str, Any]:
        p = self._permit(args.permit_no)
        eff = self._date(args.effective_date)
        start, end = date.fromisoformat(p["start_date"]), date.fromisoformat(p["end_date"])
        if eff < TODAY or eff > end:
            raise ToolFailure(f"the cancellation date must be between today and the permit's "
                              f"end date {end.isoformat()}")
        total = (end - start).days + 1
        unused = (end - eff).days + 1
        refund = max(0, p["price_pence"] * unused // total - CANCEL_ADMIN_FEE_PENCE)
        self.db.execute(
            "UPDATE permits SET status = 'cancelled', cancelled_from = ?, refund_pence = ? "
            "WHERE permit_no = ?", (eff.isoformat(), refund, p["permit_no"]))
        return {"permit_no": p["permit_no"], "cancelled_from": eff.isoformat(),
                "unused_days": unused, "admin_fee": money(CANCEL_ADMIN_FEE_PENCE),
                "refund": money(refund), "refund_to": "the card on file"}

    @tool("Buy books of 10 visitor day passes (£25.00 a book); 100 passes a household a year.")
    def buy_visitor_passes(self, args: BuyPasses) -> dict[str, Any]:
        acc = self._account(args.account_no)
        allowance = self._allowance(acc)
        passes = args.books * BOOK_PASSES
        if passes > allowance["remaining"]:
            raise ToolFailure(
                f"over the yearly cap: the household has {allowance['remaining']} of "
                f"{YEARLY_PASS_CAP} passes left this year")
        price = args.books * BOOK_PRICE_PENCE
        self._charge(acc, f"{args.books} visitor book(s)", price)
        n = self._one("SELECT COUNT(*) n FROM visitor_passes", ())["n"]
        self.db.execute("INSERT INTO visitor_passes VALUES (?,?,?,?)",
                        (f"VP-{301 + n}", acc["account_no"], passes, TODAY.isoformat()))
        return {"books": args.books, "passes": passes, "charged": money(price),
                "household_remaining": allowance["remaining"] - passes}

    def _allowance(self, acc: sqlite3.Row) -> dict[str, Any]:
        house = self._household(acc)
        marks = ",".join("?" * len(house))
        row = self._one(f"SELECT COALESCE(SUM(passes), 0) n FROM visitor_passes WHERE "
                        f"account_no IN ({marks}) AND bought_on >= ?",
                        (*house, f"{TODAY.year}-01-01"))
        return {"remaining": YEARLY_PASS_CAP - int(row["n"])}

    @tool("Pay a penalty charge notice with the verified account's card on file.")
    def pay_pcn(self, args: PayPcn) -> dict[str, Any]:
        row = self._pcn(args.pcn_no, args.vrm)
        if row["status"] == "paid":
            raise ToolFailure(f"{row['pcn_no']} is already paid")
        acc = self._account(args.account_no)
        pence = PCN_DISCOUNT_PENCE if args.rate == "discount" else PCN_FULL_PENCE
        self._charge(acc, f"PCN {row['pcn_no']}", pence)
        self.db.execute("UPDATE pcns SET status = 'paid', paid_pence = ?, paid_on = ? "
                        "WHERE pcn_no = ?", (pence, TODAY.isoformat(), row["pcn_no"]))
        return {"pcn_no": row["pcn_no"], "charged": money(pence), "status": "paid"}

    @tool("Challenge a penalty charge notice (within 28 days of issue).")
    def challenge_pcn(self, args: Challenge) -> dict[str, Any]:
        row = self._pcn(args.pcn_no, args.vrm)
        if row["status"] != "unpaid":
            raise ToolFailure(f"{row['pcn_no']} is {row['status']} and cannot be challenged")
        until = date.fromisoformat(row["issued_on"]) + timedelta(days=CHALLENGE_DAYS)
        if TODAY > until:
            raise ToolFailure(f"too late to challenge: the 28 days ran out on {until.isoformat()}")
        self.db.execute("UPDATE pcns SET status = 'challenged', challenge_reason = ? "
                        "WHERE pcn_no = ?", (args.reason, row["pcn_no"]))
        return {"pcn_no": row["pcn_no"], "status": "challenged",
                "note": "payment is on hold while the challenge is considered; if it is "
                        "rejected the discount is offered again for 14 days"}

    @tool("Update the email and/or phone number on an account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        acc = self._account(args.account_no)
        if not args.email and not args.phone:
            raise ToolFailure("give a new email or phone number")
        if args.email and not re.match(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", args.email.strip(), re.I):
            raise ToolFailure(f"not a valid email address: {args.email}")
        email = args.email.strip() if args.email else acc["email"]
        phone = args.phone.strip() if args.phone else acc["phone"]
        self.db.execute("UPDATE accounts SET email = ?, phone = ? WHERE account_no = ?",
                        (email, phone, acc["account_no"]))
        return {"account_no": acc["account_no"], "email": email, "phone": phone}


def make_environment() -> ParkingEnvironment:
    return ParkingEnvironment()
