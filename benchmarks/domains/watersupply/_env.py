"""Brookmere Water's customer system the desk works through: `WatersupplyEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.watersupply import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "BW" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    compact = re.sub(r"\s+", "", text).upper()
    return f"{compact[:-3]} {compact[-3:]}" if len(compact) > 3 else compact


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. BW3001")


class Verify(Account):
    postcode: str = Field(description="The postcode on the account, e.g. BM1 2AB")


class Postcode(BaseModel):
    postcode: str = Field(description="A property's postcode, e.g. BM3 5JK")


class Reading(Account):
    reading: int = Field(description="The meter reading in whole m3")
    amount_pence: int = Field(description="The bill for the use since the last reading, quoted")


class Plan(Account):
    months: int = Field(description="Monthly instalments (the desk checks the policy's limit)")
    payment_day: int = Field(description="Day of the month the direct debit is taken, 1-28")
    instalment_pence: int = Field(description="Each instalment, as quoted")


class PayDay(Account):
    payment_day: int = Field(description="New direct debit day of the month, 1-28")


class Leak(Account):
    bill_id: str = Field(description="The high bill, e.g. BL7009")
    leak_place: str = Field(description="supply_pipe (outside, underground) or internal")
    repaired_on: str = Field(description="YYYY-MM-DD")
    allowance_pence: int = Field(description="The credit the desk quoted")


class MoveOut(Account):
    move_date: str = Field(description="YYYY-MM-DD, the day the customer left")
    final_reading: int = Field(description="The meter reading on that day, m3")
    final_bill_pence: int = Field(description="The final bill the desk quoted")


class MoveIn(Account):
    postcode: str = Field(description="The new home's postcode")
    move_date: str = Field(description="YYYY-MM-DD, the day the customer moved in")
    opening_reading: int = Field(description="The meter reading on that day, m3")


class Priority(Account):
    needs: list[str] = Field(description="All needs to hold: dialysis, mobility, sight, hearing")


class WatersupplyEnvironment(SqliteEnvironment):
    """Brookmere Water: customers, homes, readings, bills, plans, leak allowances, moves, PSR."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode on your account", "your postcode"],
        "reading": ["meter reading", "reading on your meter"],
        "final_reading": ["final meter reading", "final reading"],
        "opening_reading": ["opening meter reading", "opening reading", "reading at the new"],
        "new_postcode": ["new home's postcode", "postcode of your new home"],
        "move_date": ["which day did you move", "what date"],
        "months": ["how many months"],
        "payment_day": ["which day of the month"],
        "leak_place": ["where was the leak"],
        "repaired_on": ["when was it repaired", "repaired"],
        "needs": ["what help", "what needs"],
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

    def _last_reading(self, property_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM readings WHERE property_id = ? ORDER BY read_on DESC, reading_id DESC "
            "LIMIT 1",
            property_id,
        )
        assert found is not None
        return found

    def _home(self, c: dict[str, Any]) -> dict[str, Any]:
        if not c["property_id"]:
            raise ToolFailure("this account has no home supplied at the moment")
        home = self._one("SELECT * FROM properties WHERE property_id = ?", c["property_id"])
        assert home is not None
        return home

    def _day(self, text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ToolFailure(f"{text!r} is not a date (YYYY-MM-DD)") from None

    def _bill(self, c: dict[str, Any], home: dict[str, Any], last: dict[str, Any], reading: int,
              amount: int, kind: str, day: str) -> str:  # fmt: skip
        n = self.db.execute("SELECT COUNT(*) FROM bills").fetchone()[0]
        bill_id = f"BL{8001 + n}"
        self.db.execute(
            "INSERT INTO bills (bill_id, account_id, property_id, period_from, period_to, "
            "usage_m3, usual_m3, amount_pence, kind) VALUES (?,?,?,?,?,?,?,?,?)",
            (bill_id, c["account_id"], home["property_id"], last["read_on"], day,
             reading - last["reading"], 0, amount, kind),
        )  # fmt: skip
        self.db.execute(
            "UPDATE customers SET balance_pence = balance_pence + ? WHERE account_id = ?",
            (amount, c["account_id"]),
        )
        return bill_id

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: home, last reading, bills, plans, allowances, PSR."""
        c = self._account(account_id)
        home = None
        if c["property_id"]:
            home = self._one("SELECT * FROM properties WHERE property_id = ?", c["property_id"])
            assert home is not None
            home["last_reading"] = self._last_reading(home["property_id"])
        acc = c["account_id"]
        return {
            **c,
            "home": home,
            "bills": self._rows("SELECT * FROM bills WHERE account_id = ? ORDER BY period_to", acc),
            "plans": self._rows(
                "SELECT * FROM plans WHERE account_id = ? AND status = 'active'", acc
            ),  # fmt: skip
            "allowances": self._rows("SELECT * FROM allowances WHERE account_id = ?", acc),
            "priority": self._one("SELECT * FROM priority WHERE account_id = ?", acc),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the postcode on that account "
        "must match. Returns the account."
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

    @tool("Read an account (staff view: balance, home, bills, plans; after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool("Look up a home in the supply area by postcode: its address, sewer and last reading.")
    def find_property(self, args: Postcode) -> dict[str, Any]:
        home = self._one(
            "SELECT * FROM properties WHERE postcode = ?", norm_postcode(args.postcode)
        )
        if home is None:
            raise ToolFailure(f"{norm_postcode(args.postcode)} is not in Brookmere Water's area")
        home["last_reading"] = self._last_reading(home["property_id"])
        home.pop("account_id")  # who lives there is never told to a caller
        return home

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Record a customer's meter reading for their home today and bill the use since the "
        "last reading (amount_pence, quoted by the desk). Refuses a reading lower than the last."
    )
    def submit_reading(self, args: Reading) -> dict[str, Any]:
        c = self._account(args.account_id)
        home = self._home(c)
        last = self._last_reading(home["property_id"])
        if args.reading < last["reading"]:
            raise ToolFailure(
                f"the reading {args.reading} is lower than the last reading, {last['reading']} "
                f"on {last['read_on']}: please check the meter"
            )
        today = self.now().date().isoformat()
        self.db.execute(
            "INSERT INTO readings (property_id, read_on, reading, source) VALUES (?,?,?,?)",
            (home["property_id"], today, args.reading, "customer"),
        )
        bill_id = self._bill(c, home, last, args.reading, args.amount_pence, "regular", today)
        return {"reading": args.reading, "used_m3": args.reading - last["reading"],
                "bill_id": bill_id, "bill": money(args.amount_pence),
                "balance": money(self._account(c["account_id"])["balance_pence"])}  # fmt: skip

    @tool(
        "Set up a payment plan clearing the balance in monthly instalments by direct debit; "
        "replaces an active plan. The system does not check the number of months: the desk must."
    )
    def set_up_plan(self, args: Plan) -> dict[str, Any]:
        c = self._account(args.account_id)
        if c["balance_pence"] <= 0:
            raise ToolFailure("there is no balance to pay off")
        if not _seed.FIRST_PAY_DAY <= args.payment_day <= _seed.LAST_PAY_DAY:
            raise ToolFailure("direct debits can only be taken on the 1st to the 28th")
        if args.months < 1:
            raise ToolFailure("a plan needs at least one instalment")
        self.db.execute("UPDATE plans SET status = 'replaced' WHERE account_id = ? AND status = "
                        "'active'", (c["account_id"],))  # fmt: skip
        self.db.execute(
            "INSERT INTO plans (account_id, months, instalment_pence, payment_day, total_pence, "
            "created_at) VALUES (?,?,?,?,?,?)",
            (c["account_id"], args.months, args.instalment_pence, args.payment_day,
             c["balance_pence"], self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        self.db.execute("UPDATE customers SET payment_day = ? WHERE account_id = ?",
                        (args.payment_day, c["account_id"]))  # fmt: skip
        return {"months": args.months, "instalment": money(args.instalment_pence),
                "payment_day": args.payment_day, "total": money(c["balance_pence"])}  # fmt: skip

    @tool("Change the day of the month the direct debit is taken (1st to 28th).")
    def change_payment_day(self, args: PayDay) -> dict[str, Any]:
        c = self._account(args.account_id)
        if c["payment_day"] is None:
            raise ToolFailure("this account pays by card: there is no direct debit")
        if not _seed.FIRST_PAY_DAY <= args.payment_day <= _seed.LAST_PAY_DAY:
            raise ToolFailure("direct debits can only be taken on the 1st to the 28th")
        self.db.execute("UPDATE customers SET payment_day = ? WHERE account_id = ?",
                        (args.payment_day, c["account_id"]))  # fmt: skip
        self.db.execute("UPDATE plans SET payment_day = ? WHERE account_id = ? AND status = "
                        "'active'", (args.payment_day, c["account_id"]))  # fmt: skip
        return {"payment_day": args.payment_day}

    @tool(
        "Credit a leak allowance against a bill. The system does not check where the leak was, "
        "earlier allowances or the amount: the desk must."
    )
    def claim_leak_allowance(self, args: Leak) -> dict[str, Any]:
        c = self._account(args.account_id)
        bill = self._one("SELECT * FROM bills WHERE bill_id = ? AND account_id = ?",
                         args.bill_id.strip().upper(), c["account_id"])  # fmt: skip
        if bill is None:
            raise ToolFailure(f"no bill {args.bill_id} on this account")
        if args.leak_place not in {"supply_pipe", "internal"}:
            raise ToolFailure("leak_place must be supply_pipe or internal")
        if self._day(args.repaired_on) > self.now().date():
            raise ToolFailure("the leak must be repaired before an allowance is given")
        self.db.execute(
            "INSERT INTO allowances (account_id, bill_id, leak_place, repaired_on, amount_pence, "
            "granted_on) VALUES (?,?,?,?,?,?)",
            (c["account_id"], bill["bill_id"], args.leak_place, args.repaired_on,
             args.allowance_pence, self.now().date().isoformat()),
        )  # fmt: skip
        self.db.execute(
            "UPDATE customers SET balance_pence = balance_pence - ? WHERE account_id = ?",
            (args.allowance_pence, c["account_id"]),
        )
        return {"bill_id": bill["bill_id"], "credited": money(args.allowance_pence),
                "balance": money(self._account(c["account_id"])["balance_pence"])}  # fmt: skip

    def _check_move_day(self, text: str) -> date:
        day = self._day(text)
        ago = (self.now().date() - day).days
        if ago < 0:
            raise ToolFailure("a move is recorded on or after the day, with the meter reading")
        if ago > _seed.MOVE_BACK_DAYS:
            raise ToolFailure("a move more than 28 days ago must be handled by the billing team")
        return day

    @tool(
        "Close the account's supply at its home from move_date with the final reading; bills "
        "the use since the last reading (final_bill_pence, quoted). Refuses a lower reading."
    )
    def move_out(self, args: MoveOut) -> dict[str, Any]:
        c = self._account(args.account_id)
        home = self._home(c)
        day = self._check_move_day(args.move_date)
        last = self._last_reading(home["property_id"])
        if args.final_reading < last["reading"]:
            raise ToolFailure(f"the final reading {args.final_reading} is lower than the last "
                              f"reading, {last['reading']}")  # fmt: skip
        self.db.execute(
            "INSERT INTO readings (property_id, read_on, reading, source) VALUES (?,?,?,?)",
            (home["property_id"], day.isoformat(), args.final_reading, "move_out"),
        )
        bill_id = self._bill(c, home, last, args.final_reading, args.final_bill_pence, "final",
                             day.isoformat())  # fmt: skip
        self.db.execute(
            "INSERT INTO moves (account_id, property_id, kind, move_date, reading) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], home["property_id"], "out", day.isoformat(), args.final_reading),
        )
        self.db.execute("UPDATE properties SET account_id = NULL WHERE property_id = ?",
                        (home["property_id"],))  # fmt: skip
        self.db.execute("UPDATE customers SET property_id = NULL WHERE account_id = ?",
                        (c["account_id"],))  # fmt: skip
        return {"address": home["address"], "move_date": day.isoformat(),
                "final_reading": args.final_reading, "final_bill_id": bill_id,
                "final_bill": money(args.final_bill_pence)}  # fmt: skip

    @tool(
        "Start the account's supply at an empty home in the area from move_date with the "
        "opening reading. The account may supply one home at a time."
    )
    def move_in(self, args: MoveIn) -> dict[str, Any]:
        c = self._account(args.account_id)
        postcode = norm_postcode(args.postcode)
        home = self._one("SELECT * FROM properties WHERE postcode = ?", postcode)
        if home is None:
            raise ToolFailure(f"{postcode} is not in Brookmere Water's area")
        if home["account_id"] is not None:
            raise ToolFailure(f"{home['address']} is already supplied to another account")
        if c["property_id"]:
            raise ToolFailure("the account still has a home supplied: record the move out first")
        day = self._check_move_day(args.move_date)
        last = self._last_reading(home["property_id"])
        if args.opening_reading < last["reading"]:
            raise ToolFailure(f"the opening reading {args.opening_reading} is lower than the "
                              f"last reading, {last['reading']}")  # fmt: skip
        self.db.execute(
            "INSERT INTO readings (property_id, read_on, reading, source) VALUES (?,?,?,?)",
            (home["property_id"], day.isoformat(), args.opening_reading, "move_in"),
        )
        self.db.execute(
            "INSERT INTO moves (account_id, property_id, kind, move_date, reading) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], home["property_id"], "in", day.isoformat(), args.opening_reading),
        )
        self.db.execute("UPDATE properties SET account_id = ? WHERE property_id = ?",
                        (c["account_id"], home["property_id"]))  # fmt: skip
        self.db.execute("UPDATE customers SET property_id = ?, postcode = ? WHERE account_id = ?",
                        (home["property_id"], postcode, c["account_id"]))  # fmt: skip
        return {"address": home["address"], "postcode": postcode, "move_date": day.isoformat(),
                "opening_reading": args.opening_reading,
                "unit_rate": money(_seed.unit_rate(home["sewer"]))}  # fmt: skip

    @tool(
        "Register the account on the Priority Services Register with all its needs (replaces "
        "the needs held); dialysis or mobility needs get bottled water brought to the door."
    )
    def register_priority(self, args: Priority) -> dict[str, Any]:
        c = self._account(args.account_id)
        needs = sorted({n.strip().lower() for n in args.needs})
        unknown = [n for n in needs if n not in _seed.NEEDS]
        if not needs or unknown:
            raise ToolFailure(f"needs must be some of {', '.join(_seed.NEEDS)}")
        bottled = int(bool(set(needs) & _seed.BOTTLED_WATER_NEEDS))
        self.db.execute(
            "INSERT INTO priority VALUES (?,?,?,?) ON CONFLICT(account_id) DO UPDATE SET "
            "needs = excluded.needs, bottled_water = excluded.bottled_water",
            (c["account_id"], ",".join(needs), bottled, self.now().date().isoformat()),
        )
        return {"needs": needs, "bottled_water": bool(bottled)}


def make_environment() -> WatersupplyEnvironment:
    """A fresh customer system, from the seed data."""
    return WatersupplyEnvironment()
