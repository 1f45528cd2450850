"""The storage system's base: tables, clock, helpers, and the tools for reads and access."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from benchmarks.domains.storage import _seed
from benchmarks.domains.storage._args import (
    AddAuthorisedUser,
    CustomerArgs,
    FindUnits,
    SetGatePin,
    UnitArgs,
    VerifyCustomer,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 4 else squashed


def norm_account(text: str) -> str:
    return f"KS-{re.sub(r'[^0-9]', '', text)}"


def norm_unit(text: str) -> str:
    m = re.fullmatch(r"\s*(?:unit\s*)?([a-z])\s*-?\s*(\d{1,2})\s*", text, re.I)
    return f"{m.group(1).upper()}{int(m.group(2)):02d}" if m else text.strip().upper()


def add_month(day: date) -> date:
    month = day.month % 12 + 1
    year = day.year + (day.month == 12)
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise ValueError(day)


class StorageSystem(SqliteEnvironment):
    """The system's tables, clock and helpers; the writes are tools of the desk."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_no": ["account number", "account no"],
        "postcode": ["postcode", "post code"],
        "pin": ["new pin", "which pin", "six-digit", "6-digit", "new code"],
        "move_out_date": ["which day", "move out", "moving out"],
        "move_in_date": ["move in", "moving in", "start date"],
        "size": ["what size", "which size", "square feet"],
        "van_date": ["which day", "which date", "what day"],
        "van_time": ["which slot", "what time", "which time"],
        "name": ["full name", "their name", "who should"],
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

    def _today(self) -> date:
        return self.now().date()

    def _day(self, text: str) -> date:
        try:
            return date.fromisoformat(text.strip())
        except ValueError as exc:
            raise ToolFailure(f"{text!r} is not a date (YYYY-MM-DD)") from exc

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?", customer_id.strip())
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _rental(self, rental_id: str, *, live: bool = True) -> dict[str, Any]:
        found = self._one("SELECT * FROM rentals WHERE rental_id = ?", rental_id.strip().upper())
        if found is None:
            raise ToolFailure(f"no rental {rental_id}")
        if live and found["status"] not in {"active", "reserved"}:
            raise ToolFailure(f"rental {found['rental_id']} is {found['status']}")
        return found

    def _unit(self, unit_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM units WHERE unit_id = ?", norm_unit(unit_id))
        if found is None:
            raise ToolFailure(f"no unit {unit_id}")
        return found

    def _charge(self, rental: dict[str, Any], kind: str, pence: int) -> None:
        if pence:
            card = self._customer(rental["customer_id"])["card_last4"]
            self.db.execute("INSERT INTO charges (customer_id, rental_id, kind, amount_pence, "
                            "card_last4, created_at) VALUES (?,?,?,?,?,?)",
                            (rental["customer_id"], rental["rental_id"], kind, pence, card,
                             self._stamp()))

    def _rental_view(self, rental: dict[str, Any]) -> dict[str, Any]:
        users = [r["name"] for r in self.db.execute(
            "SELECT name FROM authorised_users WHERE rental_id = ? ORDER BY auth_id",
            (rental["rental_id"],))]
        return {**rental, "authorised_users": users}

    # -- identity and reads ----------------------------------------------------------------
    @tool("Check who the customer is from their account number and the postcode on the "
          "account. Returns the customer id and name.")
    def verify_customer(self, args: VerifyCustomer) -> dict[str, Any]:
        who = self._one("SELECT * FROM customers WHERE account_no = ?",
                        norm_account(args.account_no))
        if not who or who["postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: those details do not match an account")
        return {"verified": True, "customer_id": who["customer_id"], "name": who["name"]}

    @tool("A customer's account: name, email, card on file, gate PIN (internal: never read it "
          "back in full), rentals with their authorised users, late fees, van bookings, and "
          "the staff note (internal: never read it out).")
    def get_account(self, args: CustomerArgs) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        rentals = [self._rental_view(dict(r)) for r in self.db.execute(
            "SELECT * FROM rentals WHERE customer_id = ? ORDER BY rental_id",
            (who["customer_id"],))]
        fees = [dict(r) for r in self.db.execute(
            "SELECT * FROM fees WHERE customer_id = ? ORDER BY fee_id", (who["customer_id"],))]
        vans = [dict(r) for r in self.db.execute(
            "SELECT * FROM van_bookings WHERE customer_id = ? ORDER BY day, slot",
            (who["customer_id"],))]
        return {**who, "rentals": rentals, "fees": fees, "van_bookings": vans}

    @tool("One unit by its number, with its current rental, the renter's name and gate PIN. No "
          "ownership check: the desk must only read out the verified customer's own.")
    def get_unit(self, args: UnitArgs) -> dict[str, Any]:
        unit = self._unit(args.unit_id)
        rental = self._one("SELECT * FROM rentals WHERE unit_id = ? AND status IN ('active', "
                           "'reserved', 'notice')", unit["unit_id"])
        if rental is None:
            return {**unit, "rental": None}
        who = self._customer(rental["customer_id"])
        return {**unit, "rental": self._rental_view(rental), "customer_name": who["name"],
                "gate_pin": who["gate_pin"]}

    @tool("Vacant units of one size, with the monthly price.")
    def find_units(self, args: FindUnits) -> dict[str, Any]:
        if args.size_sqft not in _seed.PRICES:
            raise ToolFailure("sizes are 15, 25, 50, 75, 100 and 150 sq ft")
        rows = self.db.execute("SELECT unit_id, floor FROM units WHERE size_sqft = ? AND "
                               "status = 'vacant' ORDER BY unit_id", (args.size_sqft,))
        return {"size_sqft": args.size_sqft, "monthly_price": money(_seed.PRICES[args.size_sqft]),
                "monthly_pence": _seed.PRICES[args.size_sqft],
                "vacant": [dict(r) for r in rows]}

    # -- access ----------------------------------------------------------------------------
    @tool("Set the customer's gate PIN: exactly 6 digits, not one digit repeated, not a "
          "straight run (123456, 987654), not the current PIN. Free; works at once.")
    def set_gate_pin(self, args: SetGatePin) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        pin = re.sub(r"[\s-]", "", args.pin)
        if not re.fullmatch(r"\d{6}", pin):
            raise ToolFailure("a gate PIN must be exactly 6 digits")
        steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
        if len(set(pin)) == 1 or steps in ({1}, {-1}):
            raise ToolFailure("that PIN is too easy to guess")
        if pin == who["gate_pin"]:
            raise ToolFailure("that is already the PIN")
        self.db.execute("UPDATE customers SET gate_pin = ? WHERE customer_id = ?",
                        (pin, who["customer_id"]))
        return {"customer_id": who["customer_id"], "pin_ends": pin[-2:], "active_from": "now"}

    @tool("Add an authorised user to a rental (they can open the unit with their own fob; they "
          "cannot change the account). At most 2 per unit. Free.")
    def add_authorised_user(self, args: AddAuthorisedUser) -> dict[str, Any]:
        rental = self._rental(args.rental_id)
        count = self.db.execute("SELECT COUNT(*) FROM authorised_users WHERE rental_id = ?",
                                (rental["rental_id"],)).fetchone()[0]
        if count >= _seed.MAX_AUTHORISED:
            raise ToolFailure("a unit can have at most 2 authorised users")
        name = " ".join(args.name.split()).title()
        self.db.execute("INSERT INTO authorised_users (rental_id, name, added_on) VALUES (?,?,?)",
                        (rental["rental_id"], name, self._today().isoformat()))
        return {"rental_id": rental["rental_id"], "unit_id": rental["unit_id"], "name": name,
                "authorised_users": count + 1}

    def _days_ahead(self, day: date) -> int:
        return (day - self._today()).days

    def _later(self, day: date, days: int) -> date:
        return day + timedelta(days=days)
