"""Linnet Broadband's account system the desk works through: `BroadbandEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.broadband import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "LB" + re.sub(r"\D", "", text)


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. LB204001")


class Verify(Account):
    date_of_birth: str = Field(description="The account holder's date of birth, YYYY-MM-DD")


class ChangePlan(Account):
    plan: str = Field(description="fibre100, fibre500 or fibre900")
    effective_date: str = Field(description="YYYY-MM-DD: the next bill date")


class BookVisit(Account):
    fault_id: str = Field(description="The open fault, e.g. FT7001 (from run_line_test)")
    visit_date: str = Field(description="YYYY-MM-DD, a working day at least 2 working days away")
    slot: str = Field(description="AM (8am to 1pm) or PM (1pm to 6pm)")
    charge_pence: int = Field(description="The charge the desk told the customer (0 or 6500)")


class Claim(Account):
    fault_id: str = Field(description="The fixed fault, e.g. FT7005")
    days: int = Field(description="Days of lost service the desk counted")
    amount_pence: int = Field(description="The compensation the desk quoted")


class Router(Account):
    charge_pence: int = Field(description="The charge the desk quoted (0 or 3500)")


class Move(Account):
    new_address: str = Field(description="The new address, with its postcode")
    move_date: str = Field(description="YYYY-MM-DD, at least 10 working days away")
    new_term: bool = Field(description="True when the customer signs a new 18-month term")
    fee_pence: int = Field(description="The home-move fee the desk quoted (0 or 5000)")


class Cancel(Account):
    end_date: str = Field(description="YYYY-MM-DD, 30 days from today")
    charge_pence: int = Field(description="The early termination charge the desk quoted")


class Contact(Account):
    email: str | None = Field(default=None, description="A new email address")
    phone: str | None = Field(default=None, description="A new mobile number")


class BroadbandEnvironment(SqliteEnvironment):
    """Linnet Broadband: customers, plan changes, faults, visits, credits, routers, moves."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "date_of_birth": ["date of birth", "born"],
        "plan": ["which plan", "fibre 100", "fibre 500", "fibre 900"],
        "visit_date": ["which day", "engineer to come", "what day"],
        "slot": ["morning or afternoon", "am or pm", "slot"],
        "new_address": ["new address", "postcode", "moving to"],
        "move_date": ["moving date", "date are you moving", "which date"],
        "new_term": ["new 18-month", "minimum term", "new contract"],
        "email": ["email address", "new email"],
        "phone": ["mobile number", "new number"],
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
        if found["status"] != "active":
            raise ToolFailure(f"account {found['account_id']} is being cancelled")
        return found

    def _charge(self, c: dict[str, Any], kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?)",
                (c["account_id"], kind, pence, self.now().strftime(_seed.STAMP)),
            )

    @property
    def today(self) -> date:
        return self.now().date()

    def _day(self, iso: str, what: str) -> date:
        try:
            return date.fromisoformat(iso)
        except ValueError:
            raise ToolFailure(f"{what} must be YYYY-MM-DD") from None

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: plan, term, bill date, faults, visits, credits."""
        c = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(account_id))
        if c is None:
            raise ToolFailure(f"no account {account_id}")
        start = date.fromisoformat(c["contract_start"])
        return {
            **c,
            "plan_name": _seed.PLAN_NAMES[c["plan"]],
            "monthly_pence": _seed.PLANS[c["plan"]],
            "term_end": _seed.add_months(start, _seed.TERM_MONTHS).isoformat(),
            "cooling_off_until": date.fromordinal(
                start.toordinal() + _seed.COOLING_OFF_DAYS).isoformat(),  # fmt: skip
            "next_bill": _seed.next_bill(self.today, c["bill_day"]).isoformat(),
            "plan_changes": self._rows("SELECT * FROM plan_changes WHERE account_id = ?",
                                       c["account_id"]),  # fmt: skip
            "faults": self._rows("SELECT * FROM faults WHERE account_id = ? ORDER BY reported_on",
                                 c["account_id"]),  # fmt: skip
            "visits": self._rows("SELECT * FROM visits WHERE account_id = ?", c["account_id"]),
            "credits": self._rows("SELECT * FROM credits WHERE account_id = ?", c["account_id"]),
            "router_orders": self._rows("SELECT * FROM router_orders WHERE account_id = ?",
                                        c["account_id"]),  # fmt: skip
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the account holder's date of "
        "birth must match. Returns the account."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT account_id FROM customers WHERE account_id = ? AND date_of_birth = ?",
            norm_account(args.account_id),
            args.date_of_birth.strip(),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and birth date")
        return self.view(c["account_id"])

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Run a line test for a reported problem: returns the open fault (one is logged today "
        "if none is open) and where the fault is: 'network' or 'home_wiring'."
    )
    def run_line_test(self, args: Account) -> dict[str, Any]:
        c = self._account(args.account_id)
        fault = self._one(
            "SELECT * FROM faults WHERE account_id = ? AND fixed_on IS NULL", c["account_id"]
        )
        if fault is None:
            last = self.db.execute("SELECT MAX(CAST(substr(fault_id, 3) AS INTEGER)) FROM faults")
            fault_id = f"FT{(last.fetchone()[0] or 7000) + 1}"
            self.db.execute(
                "INSERT INTO faults (fault_id, account_id, reported_on) VALUES (?,?,?)",
                (fault_id, c["account_id"], self.today.isoformat()),
            )
            fault = {"fault_id": fault_id, "reported_on": self.today.isoformat()}
        self.db.execute(
            "UPDATE faults SET location = ? WHERE fault_id = ?",
            (c["line_result"], fault["fault_id"]),
        )
        return {"fault_id": fault["fault_id"], "reported_on": fault["reported_on"],
                "location": c["line_result"]}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Change the speed plan from the next bill date. The system does not check the "
        "minimum term for downgrades: the desk must."
    )
    def change_plan(self, args: ChangePlan) -> dict[str, Any]:
        c = self._account(args.account_id)
        plan = re.sub(r"[^a-z0-9]", "", args.plan.lower())
        if plan not in _seed.PLANS:
            raise ToolFailure("plan must be fibre100, fibre500 or fibre900")
        if plan == c["plan"]:
            raise ToolFailure(f"the account is already on {_seed.PLAN_NAMES[plan]}")
        effective = _seed.next_bill(self.today, c["bill_day"]).isoformat()
        if args.effective_date != effective:
            raise ToolFailure(f"plan changes apply from the next bill date, {effective}")
        self.db.execute(
            "INSERT INTO plan_changes (account_id, from_plan, to_plan, effective, price_pence, "
            "created_at) VALUES (?,?,?,?,?,?)",
            (c["account_id"], c["plan"], plan, effective, _seed.PLANS[plan],
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        return {"plan": _seed.PLAN_NAMES[plan], "effective": effective,
                "monthly": money(_seed.PLANS[plan])}  # fmt: skip

    @tool(
        "Book an engineer visit for an open fault: a working day at least 2 working days "
        "away, AM or PM; charge_pence (quoted by the desk) goes on the next bill."
    )
    def book_engineer(self, args: BookVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        fault = self._one("SELECT * FROM faults WHERE fault_id = ? AND account_id = ?",
                          args.fault_id.strip().upper(), c["account_id"])  # fmt: skip
        if fault is None or fault["fixed_on"]:
            raise ToolFailure(f"no open fault {args.fault_id} on this account")
        day = self._day(args.visit_date, "visit_date")
        if not _seed.working_day(day):
            raise ToolFailure("engineers visit on working days only (Monday to Friday)")
        earliest = _seed.add_working_days(self.today, _seed.VISIT_MIN_DAYS)
        if day < earliest:
            raise ToolFailure(f"the earliest visit is {earliest.isoformat()}")
        slot = args.slot.strip().upper()
        if slot not in _seed.SLOTS:
            raise ToolFailure("slot must be AM or PM")
        if self._one("SELECT 1 AS x FROM visits WHERE fault_id = ? AND status = 'booked'",
                     fault["fault_id"]):  # fmt: skip
            raise ToolFailure("a visit is already booked for this fault")
        self.db.execute(
            "INSERT INTO visits (account_id, fault_id, visit_date, slot, charge_pence) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], fault["fault_id"], day.isoformat(), slot, args.charge_pence),
        )
        return {"fault_id": fault["fault_id"], "visit_date": day.isoformat(), "slot": slot,
                "charge": money(args.charge_pence)}  # fmt: skip

    @tool(
        "Credit automatic compensation for a fixed fault to the next bill. The system checks "
        "the fault is fixed and not yet claimed; it does not check the amount."
    )
    def claim_compensation(self, args: Claim) -> dict[str, Any]:
        c = self._account(args.account_id)
        fault = self._one("SELECT * FROM faults WHERE fault_id = ? AND account_id = ?",
                          args.fault_id.strip().upper(), c["account_id"])  # fmt: skip
        if fault is None:
            raise ToolFailure(f"no fault {args.fault_id} on this account")
        if not fault["fixed_on"]:
            raise ToolFailure("the fault is still open: compensation is claimed once it is fixed")
        if self._one("SELECT 1 AS x FROM credits WHERE fault_id = ?", fault["fault_id"]):
            raise ToolFailure("compensation for this fault has already been credited")
        bill = _seed.next_bill(self.today, c["bill_day"]).isoformat()
        self.db.execute(
            "INSERT INTO credits (account_id, fault_id, days, amount_pence, bill_date) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], fault["fault_id"], args.days, args.amount_pence, bill),
        )
        return {"fault_id": fault["fault_id"], "days": args.days,
                "credited": money(args.amount_pence), "bill_date": bill}  # fmt: skip

    @tool(
        "Order a replacement router to the account's address, delivered in 3 working days; "
        "charge_pence (quoted by the desk) goes on the next bill."
    )
    def order_router(self, args: Router) -> dict[str, Any]:
        c = self._account(args.account_id)
        delivery = _seed.add_working_days(self.today, _seed.ROUTER_DAYS).isoformat()
        if self._one("SELECT 1 AS x FROM router_orders WHERE account_id = ? AND "
                     "delivery_date >= ?", c["account_id"], self.today.isoformat()):  # fmt: skip
            raise ToolFailure("a replacement router is already on its way")
        self.db.execute(
            "INSERT INTO router_orders (account_id, charge_pence, delivery_date, address) "
            "VALUES (?,?,?,?)",
            (c["account_id"], args.charge_pence, delivery, c["address"]),
        )
        self._charge(c, "router", args.charge_pence)
        return {"delivery_date": delivery, "address": c["address"],
                "charge": money(args.charge_pence)}  # fmt: skip

    @tool(
        "Move the service to a new address on move_date (10+ working days away); refuses "
        "an address the fibre network does not reach. fee_pence is quoted by the desk."
    )
    def move_service(self, args: Move) -> dict[str, Any]:
        c = self._account(args.account_id)
        postcode = POSTCODE_RE.search(args.new_address)
        if postcode is None:
            raise ToolFailure("the new address needs a postcode")
        outward, inward = postcode.group(1).upper(), postcode.group(2).upper()
        if outward in _seed.NO_FIBRE:
            raise ToolFailure(f"Linnet fibre isn't available at {outward} {inward}")
        day = self._day(args.move_date, "move_date")
        earliest = _seed.add_working_days(self.today, _seed.MOVE_NOTICE_DAYS)
        if day < earliest:
            raise ToolFailure(f"a home move needs 10 working days' notice: the earliest is "
                              f"{earliest.isoformat()}")  # fmt: skip
        self.db.execute(
            "INSERT INTO moves (account_id, new_address, postcode, move_date, new_term, "
            "fee_pence) VALUES (?,?,?,?,?,?)",
            (c["account_id"], args.new_address.strip(), f"{outward} {inward}", day.isoformat(),
             int(args.new_term), args.fee_pence),
        )  # fmt: skip
        self._charge(c, "move_fee", args.fee_pence)
        return {"new_address": args.new_address.strip(), "move_date": day.isoformat(),
                "new_term": args.new_term, "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel the service with 30 days' notice (end_date); charge_pence is the early "
        "termination charge the desk quoted. The system does not check it: the desk must."
    )
    def cancel_service(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.account_id)
        end = self._day(args.end_date, "end_date")
        if (end - self.today).days < _seed.NOTICE_DAYS:
            raise ToolFailure("a cancellation needs 30 days' notice")
        self.db.execute(
            "UPDATE customers SET status = 'cancelling', end_date = ? WHERE account_id = ?",
            (end.isoformat(), c["account_id"]),
        )
        self._charge(c, "early_termination", args.charge_pence)
        return {"end_date": end.isoformat(), "charge": money(args.charge_pence)}

    @tool("Change the account's email address and/or mobile number.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        c = self._account(args.account_id)
        if args.email is not None:
            if not EMAIL_RE.fullmatch(args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE account_id = ?",
                            (args.email.strip(), c["account_id"]))  # fmt: skip
        if args.phone is not None:
            digits = re.sub(r"\D", "", args.phone)
            if not re.fullmatch(r"07\d{9}", digits):
                raise ToolFailure(f"{args.phone!r} is not a UK mobile number")
            self.db.execute("UPDATE customers SET phone = ? WHERE account_id = ?",
                            (f"{digits[:5]} {digits[5:]}", c["account_id"]))  # fmt: skip
        now = self._account(c["account_id"])
        return {"email": now["email"], "phone": now["phone"]}


def make_environment() -> BroadbandEnvironment:
    """A fresh account system, from the seed data."""
    return BroadbandEnvironment()
