"""The firm's job system the desk works through: `PestcontrolEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.pestcontrol import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "PC" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    squeezed = re.sub(r"\s", "", text).upper()
    return f"{squeezed[:-3]} {squeezed[-3:]}" if len(squeezed) > 3 else squeezed


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. PC2001")


class Verify(Account):
    postcode: str = Field(description="The postcode of the property on the account")


class Job(BaseModel):
    job_id: str = Field(description="The job number, e.g. JB7004")


class Quote(BaseModel):
    pest: str = Field(description="mice, rats, wasps, ants, fleas, bedbugs or cockroaches")
    size: str = Field(description="small (1-2 bedrooms), medium (3) or large (4 or more)")


class Day(BaseModel):
    visit_date: str = Field(description="YYYY-MM-DD")


class BookVisit(Account):
    kind: str = Field(description="inspection or treatment")
    pest: str = Field(default="", description="The pest ('' for an inspection of an unknown one)")
    visit_date: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="AM (8am-12pm) or PM (12pm-5pm)")
    price_pence: int = Field(description="The price the desk quoted, charged to the card now")


class Revisit(Account):
    job_id: str = Field(description="The treatment the warranty revisit is for")
    visit_date: str = Field(description="YYYY-MM-DD")
    slot: str = Field(description="AM or PM")


class MoveVisit(Account):
    job_id: str = Field(description="The booked visit")
    visit_date: str = Field(description="The new day, YYYY-MM-DD")
    slot: str = Field(description="AM or PM")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 2+ days ahead)")


class CancelVisit(Account):
    job_id: str = Field(description="The booked visit")
    refund_pence: int = Field(description="The refund the desk quoted, to the card")


class Contact(Account):
    phone: str | None = Field(default=None, description="The new contact phone number")
    key_code: str | None = Field(default=None, description="The key safe's new 4-digit code")


class PestcontrolEnvironment(SqliteEnvironment):
    """Hedgerow Pest Control: customers and their property, visits, full slots and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode"],
        "visit_date": ["which day", "what day"],
        "slot": ["morning or afternoon"],
        "pest": ["which pest", "what pest"],
        "bedrooms": ["how many bedrooms"],
        "phone": ["new number", "phone number"],
        "key_code": ["new code", "key safe code"],
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

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _visit(self, c: dict[str, Any], job_id: str, status: str = "booked") -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE job_id = ?", job_id.strip().upper())
        if v is None or v["account_id"] != c["account_id"]:
            raise ToolFailure(f"no job {job_id} on this account")
        if v["status"] != status:
            raise ToolFailure(f"job {v['job_id']} is {v['status']}")
        return v

    def _check_day(self, day: str, slot: str) -> None:
        d = date.fromisoformat(day)
        if d <= self.now().date():
            raise ToolFailure("the visit must be on a future day")
        if d.weekday() == 6:
            raise ToolFailure("technicians don't visit on Sundays")
        if slot not in _seed.SLOTS:
            raise ToolFailure("slot must be AM or PM")
        if self._one("SELECT 1 AS x FROM full_slots WHERE visit_date = ? AND slot = ?", day, slot):
            raise ToolFailure(f"the {slot} slot on {day} is fully booked")

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _new_job(self) -> str:
        last = self.db.execute("SELECT MAX(CAST(substr(job_id, 3) AS INTEGER)) FROM visits")
        return f"JB{(last.fetchone()[0] or 7000) + 1}"

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def _with_days(self, v: dict[str, Any]) -> dict[str, Any]:
        return {**v, "days_to_visit": self.days_to(v["visit_date"])}

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: the property and every visit, newest first."""
        c = self._account(account_id)
        visits = self._rows(
            "SELECT * FROM visits WHERE account_id = ? ORDER BY visit_date DESC", c["account_id"]
        )
        return {**c, "visits": [self._with_days(v) for v in visits]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the postcode of the property on "
        "that account must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT account_id FROM customers WHERE account_id = ? AND postcode = ?",
            norm_account(args.account_id),
            norm_postcode(args.postcode),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(c["account_id"])

    @tool("Read an account with its property and visits (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool("Read one job by its number, with the property's address (staff view, after "
          "verify_customer only).")  # fmt: skip
    def get_visit(self, args: Job) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE job_id = ?", args.job_id.strip().upper())
        if v is None:
            raise ToolFailure(f"no job {args.job_id}")
        c = self._account(v["account_id"])
        return {**self._with_days(v), "address": c["address"], "postcode": c["postcode"],
                "account_name": c["name"]}  # fmt: skip

    @tool("The price list: a treatment's price by pest and property size, the hours the "
          "property must be empty, and the warranty.")  # fmt: skip
    def quote(self, args: Quote) -> dict[str, Any]:
        pest, size = args.pest.strip().lower(), args.size.strip().lower()
        if pest not in _seed.PESTS:
            raise ToolFailure(f"we don't treat {args.pest!r}; pests: {', '.join(_seed.PESTS)}")
        if size not in _seed.BANDS:
            raise ToolFailure("size must be small, medium or large")
        _, vacate, warranty = _seed.PESTS[pest]
        return {"pest": pest, "size": size, "price_pence": _seed.price(pest, size),
                "vacate_hours": vacate, "warranty_days": warranty,
                "saturday_surcharge_pence": _seed.SATURDAY_PENCE,
                "inspection_pence": _seed.INSPECTION_PENCE}  # fmt: skip

    @tool("The slots still free on a day (none on Sundays).")
    def find_slots(self, args: Day) -> dict[str, Any]:
        d = date.fromisoformat(args.visit_date)
        if d.weekday() == 6 or d <= self.now().date():
            return {"visit_date": args.visit_date, "free": []}
        full = {r["slot"] for r in self._rows(
            "SELECT slot FROM full_slots WHERE visit_date = ?", args.visit_date)}  # fmt: skip
        return {"visit_date": args.visit_date, "free": [s for s in _seed.SLOTS if s not in full]}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book an inspection or a treatment at the account's property; price_pence (quoted by "
        "the desk) is charged to the card now. Refuses a full slot, a Sunday or a past day. "
        "The system does not check the survey rule or the price: the desk must."
    )
    def book_visit(self, args: BookVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        kind, pest = args.kind.strip().lower(), args.pest.strip().lower()
        if kind not in {"inspection", "treatment"}:
            raise ToolFailure("kind must be inspection or treatment")
        if (kind == "treatment" or pest) and pest not in _seed.PESTS:
            raise ToolFailure(f"we don't treat {args.pest!r}")
        self._check_day(args.visit_date, args.slot)
        job = self._new_job()
        vacate = _seed.PESTS[pest][1] if kind == "treatment" else 0
        self.db.execute(
            "INSERT INTO visits (job_id, account_id, kind, pest, visit_date, slot, price_pence, "
            "vacate_hours) VALUES (?,?,?,?,?,?,?,?)",
            (job, c["account_id"], kind, pest, args.visit_date, args.slot, args.price_pence,
             vacate),
        )  # fmt: skip
        self._charge(c, "payment", args.price_pence, job)
        return {"job_id": job, "kind": kind, "pest": pest, "visit_date": args.visit_date,
                "slot": args.slot, "charged": money(args.price_pence), "vacate_hours": vacate,
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Book a free warranty revisit for a treatment that was done. The system does not check "
        "the warranty period: the desk must."
    )
    def claim_revisit(self, args: Revisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        t = self._visit(c, args.job_id, status="done")
        if t["kind"] != "treatment":
            raise ToolFailure(f"job {t['job_id']} is not a treatment")
        self._check_day(args.visit_date, args.slot)
        job = self._new_job()
        self.db.execute(
            "INSERT INTO visits (job_id, account_id, kind, pest, visit_date, slot, price_pence, "
            "vacate_hours, revisit_of) VALUES (?,?,?,?,?,?,0,?,?)",
            (job, c["account_id"], "revisit", t["pest"], args.visit_date, args.slot,
             t["vacate_hours"], t["job_id"]),
        )  # fmt: skip
        return {"job_id": job, "revisit_of": t["job_id"], "pest": t["pest"],
                "visit_date": args.visit_date, "slot": args.slot, "charged": money(0),
                "vacate_hours": t["vacate_hours"]}  # fmt: skip

    @tool(
        "Move a booked visit to a new day and slot; fee_pence (quoted by the desk) is charged. "
        "Refuses a full slot, and any move on the visit's own day."
    )
    def move_visit(self, args: MoveVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.job_id)
        if self.days_to(v["visit_date"]) <= 0:
            raise ToolFailure("a visit can't be moved on its own day: the round is set")
        self._check_day(args.visit_date, args.slot)
        self.db.execute(
            "UPDATE visits SET visit_date = ?, slot = ? WHERE job_id = ?",
            (args.visit_date, args.slot, v["job_id"]),
        )
        self._charge(c, "change_fee", args.fee_pence, v["job_id"])
        return {"job_id": v["job_id"], "visit_date": args.visit_date, "slot": args.slot,
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a booked visit; refund_pence (quoted by the desk) goes back to the card. The "
        "system does not check the refund rules: the desk must."
    )
    def cancel_visit(self, args: CancelVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.job_id)
        if args.refund_pence > v["price_pence"]:
            raise ToolFailure("a refund can't be more than was paid")
        self.db.execute("UPDATE visits SET status = 'cancelled' WHERE job_id = ?", (v["job_id"],))
        self._charge(c, "refund", args.refund_pence, v["job_id"])
        return {"job_id": v["job_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool("Change the contact phone number and/or the key safe code on the account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._account(args.account_id)
        if args.phone is not None:
            if not re.fullmatch(r"0\d{10}", re.sub(r"\s", "", args.phone)):
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE customers SET phone = ? WHERE account_id = ?",
                            (args.phone.strip(), c["account_id"]))  # fmt: skip
        if args.key_code is not None:
            if not re.fullmatch(r"\d{4}", args.key_code.strip()):
                raise ToolFailure("a key safe code has 4 digits")
            self.db.execute("UPDATE customers SET key_code = ? WHERE account_id = ?",
                            (args.key_code.strip(), c["account_id"]))  # fmt: skip
        now = self._account(c["account_id"])
        return {"phone": now["phone"], "key_code": now["key_code"]}


def make_environment() -> PestcontrolEnvironment:
    """A fresh job system, from the seed data."""
    return PestcontrolEnvironment()
