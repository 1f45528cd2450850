"""The council tax system the desk works through: `CounciltaxEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from benchmarks.domains.counciltax import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 3 else squashed


class Account(BaseModel):
    account_id: str = Field(description="The council tax account number, 8 digits, e.g. 61004001")


class Verify(Account):
    postcode: str = Field(description="The postcode of the property on the account")


class Discount(Account):
    from_date: str = Field(description="YYYY-MM-DD: the day the discount starts")
    reduction_pence: int = Field(description="What the desk quoted off this year's charge")


class PaymentPlan(Account):
    year: Literal["this", "next"] = Field(description="this: the rest of 2026/27; next: 2027/28")
    instalments: int | None = Field(default=None, description="10 (Apr-Jan) or 12 (Apr-Mar)")
    dd_day: int | None = Field(default=None, description="Direct debit date: 1, 8, 15 or 22")
    instalment_pence: int | None = Field(
        default=None, description="Each instalment left this year, as the desk quoted"
    )


class MoveOut(Account):
    move_out_date: str = Field(description="YYYY-MM-DD: the last day at the property")
    final_bill_pence: int = Field(description="The final bill the desk quoted (negative: a credit)")


class FindProperty(BaseModel):
    postcode: str = Field(description="The property's postcode")
    address: str = Field(description="House number and street, e.g. '21 Willow Way'")


class MoveIn(BaseModel):
    postcode: str = Field(description="The new home's postcode")
    address: str = Field(description="House number and street, e.g. '21 Willow Way'")
    name: str = Field(description="The new resident's full name")
    move_in_date: str = Field(description="YYYY-MM-DD")
    first_bill_pence: int = Field(description="This year's charge from the move-in day, quoted")


class Refund(Account):
    amount_pence: int = Field(description="The credit to refund")
    paid_to: str = Field(description="Where it goes, e.g. 'card ending 4417'")


class Arrangement(Account):
    months: int = Field(description="Months to clear the arrears over")
    monthly_pence: int = Field(description="The monthly payment the desk quoted")


class Occupancy(Account):
    occupancy: Literal["occupied", "second_home", "empty"]
    since: str = Field(description="YYYY-MM-DD")
    premium_pence: int = Field(default=0, description="Empty-home premium for this year, quoted")
    discount_removed_pence: int = Field(
        default=0, description="Single person discount taken back for this year, quoted"
    )


class Contacts(Account):
    email: str | None = Field(default=None, description="New email address")
    phone: str | None = Field(default=None, description="New phone number")


class CounciltaxEnvironment(SqliteEnvironment):
    """Hartfield Borough Council Tax: properties, accounts, discounts, plans, refunds."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode"],
        "name": ["full name", "your name"],
        "dd_day": ["which date", "direct debit date"],
        "months": ["how many months"],
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

    def _account(self, account_id: str, *, open_only: bool = True) -> dict[str, Any]:
        found = self._one("SELECT * FROM accounts WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        if open_only and found["status"] != "open":
            raise ToolFailure(f"account {found['account_id']} is {found['status']}")
        return found

    def _property(self, postcode: str, address: str) -> dict[str, Any]:
        number = re.search(r"\d+", address)
        props = [
            p
            for p in self._rows(
                "SELECT * FROM properties WHERE postcode = ?", norm_postcode(postcode)
            )
            if number and re.match(rf"(?:flat\s+)?{number.group(0)}\b", p["address"], re.I)
        ]
        if len(props) != 1:
            raise ToolFailure(f"no property {address!r} at {norm_postcode(postcode)}")
        return props[0]

    def _rebill(self, acc: dict[str, Any], change: int) -> None:
        """Add `change` to this year's charge and spread the balance over the instalments left."""
        annual = acc["annual_pence"] + change
        left = acc["instalments_left"]
        balance = annual - acc["paid_pence"]
        each = max(0, balance) // left if left else 0
        self.db.execute(
            "UPDATE accounts SET annual_pence = ?, instalment_pence = ? WHERE account_id = ?",
            (annual, each, acc["account_id"]),
        )

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it, with its property, discounts, premiums, arrangements."""
        acc = self._account(account_id, open_only=False)
        prop = self._one("SELECT * FROM properties WHERE property_id = ?", acc["property_id"])
        assert prop is not None
        acc_id = acc["account_id"]
        return {
            **acc,
            "liable": acc["liable"].split(";"),
            "property": prop,
            "band_charge_pence": _seed.BANDS[prop["band"]],
            "balance_pence": acc["annual_pence"] - acc["paid_pence"],
            "discounts": self._rows("SELECT * FROM discounts WHERE account_id = ?", acc_id),
            "premiums": self._rows("SELECT * FROM premiums WHERE account_id = ?", acc_id),
            "arrangements": self._rows("SELECT * FROM arrangements WHERE account_id = ?", acc_id),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the account number against the property's postcode. Returns the account, "
        "including who is liable; only a liable person may be told about it or change it."
    )
    def verify_account(self, args: Verify) -> dict[str, Any]:
        acc = self._one(
            "SELECT a.account_id FROM accounts a JOIN properties p USING (property_id) "
            "WHERE a.account_id = ? AND p.postcode = ?",
            norm_account(args.account_id),
            norm_postcode(args.postcode),
        )
        if acc is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(acc["account_id"])

    @tool("Read an account (staff view, after verify_account only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Find a property by postcode and house number or name: its address, band and whether "
        "an account is open on it (no names). For residents moving in."
    )
    def find_property(self, args: FindProperty) -> dict[str, Any]:
        prop = self._property(args.postcode, args.address)
        occupied_until = None
        for other in self._rows("SELECT * FROM accounts WHERE property_id = ? AND status = 'open'",
                                prop["property_id"]):  # fmt: skip
            occupied_until = other["end_date"] or "no end date"
        return {**prop, "band_charge_pence": _seed.BANDS[prop["band"]],
                "occupied_until": occupied_until}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Apply the 25% single person discount from a day; reduction_pence (quoted by the desk) "
        "comes off this year's charge and the instalments left are worked out again. Refuses "
        "a second discount, a future day and a property that is not occupied. The system does "
        "not check how far back it goes: the desk must."
    )
    def apply_single_person_discount(self, args: Discount) -> dict[str, Any]:
        acc = self._account(args.account_id)
        start = date.fromisoformat(args.from_date)
        if start > self.now().date():
            raise ToolFailure("the discount can't start on a future day")
        prop = self._one("SELECT * FROM properties WHERE property_id = ?", acc["property_id"])
        if prop is None or prop["occupancy"] != "occupied":
            raise ToolFailure("the single person discount is only for an occupied main home")
        if self._one("SELECT 1 AS x FROM discounts WHERE account_id = ? AND end_date IS NULL",
                     acc["account_id"]):  # fmt: skip
            raise ToolFailure("a single person discount is already on this account")
        self.db.execute(
            "INSERT INTO discounts (account_id, kind, from_date, reduction_pence, created_at) "
            "VALUES (?,?,?,?,?)",
            (acc["account_id"], "single_person", args.from_date, args.reduction_pence,
             self._stamp()),
        )  # fmt: skip
        self._rebill(acc, -args.reduction_pence)
        now = self._account(acc["account_id"])
        return {"from_date": args.from_date, "reduction": money(args.reduction_pence),
                "annual": money(now["annual_pence"]),
                "balance": money(now["annual_pence"] - now["paid_pence"]),
                "instalments_left": now["instalments_left"],
                "instalment": money(now["instalment_pence"])}  # fmt: skip

    @tool(
        "Change how the account pays: instalments (10 or 12) for the rest of this year or for "
        "next year, and/or the direct debit date (1, 8, 15 or 22). instalment_pence is what "
        "the desk quoted for each instalment left this year."
    )
    def change_payment_plan(self, args: PaymentPlan) -> dict[str, Any]:
        acc = self._account(args.account_id)
        if args.dd_day is not None and args.dd_day not in _seed.DD_DAYS:
            raise ToolFailure("direct debits are taken on the 1st, 8th, 15th or 22nd only")
        if args.instalments is not None and args.instalments not in _seed.MONTHS_LEFT:
            raise ToolFailure("instalments are 10 (April to January) or 12 (April to March)")
        if args.instalments is None and args.dd_day is None:
            raise ToolFailure("nothing to change")
        if args.dd_day is not None:
            self.db.execute("UPDATE accounts SET dd_day = ? WHERE account_id = ?",
                            (args.dd_day, acc["account_id"]))  # fmt: skip
        if args.instalments is not None and args.year == "next":
            self.db.execute("UPDATE accounts SET next_year_instalments = ? WHERE account_id = ?",
                            (args.instalments, acc["account_id"]))  # fmt: skip
        elif args.instalments is not None:
            self.db.execute(
                "UPDATE accounts SET instalments = ?, instalments_left = ?, instalment_pence = ? "
                "WHERE account_id = ?",
                (args.instalments, _seed.MONTHS_LEFT[args.instalments],
                 args.instalment_pence or 0, acc["account_id"]),
            )  # fmt: skip
        now = self._account(acc["account_id"])
        return {k: now[k] for k in ("instalments", "next_year_instalments", "dd_day",
                                    "instalments_left")} | {
            "instalment": money(now["instalment_pence"])}  # fmt: skip

    @tool(
        "Record that the liable people move out: the account ends on move_out_date (the last "
        "day charged) and final_bill_pence (quoted by the desk) replaces the instalments left."
    )
    def record_move_out(self, args: MoveOut) -> dict[str, Any]:
        acc = self._account(args.account_id)
        last = date.fromisoformat(args.move_out_date)
        if last < date.fromisoformat(acc["start_date"]) or last > _seed.YEAR_END:
            raise ToolFailure("the moving-out day must be in this council tax year")
        if acc["end_date"]:
            raise ToolFailure(f"a move-out on {acc['end_date']} is already recorded")
        self.db.execute(
            "UPDATE accounts SET end_date = ?, final_bill_pence = ?, instalments_left = 0, "
            "instalment_pence = 0 WHERE account_id = ?",
            (args.move_out_date, args.final_bill_pence, acc["account_id"]),
        )
        return {"account_id": acc["account_id"], "end_date": args.move_out_date,
                "final_bill": money(args.final_bill_pence)}  # fmt: skip

    @tool(
        "Open an account for a new resident moving into a property in the borough. Refuses a "
        "property still occupied on that day."
    )
    def register_move_in(self, args: MoveIn) -> dict[str, Any]:
        postcode = norm_postcode(args.postcode)
        prop = self._property(args.postcode, args.address)
        day = date.fromisoformat(args.move_in_date)
        if day > _seed.YEAR_END or day < self.now().date() - timedelta(days=60):
            raise ToolFailure("the moving-in day must be in this council tax year")
        for other in self._rows("SELECT * FROM accounts WHERE property_id = ? AND status = 'open'",
                                prop["property_id"]):  # fmt: skip
            if not other["end_date"] or other["end_date"] >= args.move_in_date:
                raise ToolFailure(f"{prop['address']} is still occupied on that day")
        last = self.db.execute("SELECT MAX(CAST(account_id AS INTEGER)) FROM accounts")
        account_id = str(max(last.fetchone()[0], 61004100) + 1)
        left = (_seed.YEAR_END.year - day.year) * 12 + _seed.YEAR_END.month - day.month + 1
        self.db.execute(
            "INSERT INTO accounts (account_id, property_id, liable, status, start_date, "
            "instalments, annual_pence, paid_pence, instalments_left, instalment_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (account_id, prop["property_id"], args.name.strip(), "open", args.move_in_date, 12,
             args.first_bill_pence, 0, left, args.first_bill_pence // left),
        )  # fmt: skip
        return {"account_id": account_id, "address": prop["address"], "postcode": postcode,
                "band": prop["band"], "start_date": args.move_in_date,
                "first_bill": money(args.first_bill_pence), "instalments": left,
                "instalment": money(args.first_bill_pence // left)}  # fmt: skip

    @tool(
        "Refund the credit on a closed account. Refuses while the final bill has not been "
        "issued. The system pays wherever it is told: policy is the card or bank account the "
        "money came from."
    )
    def refund_credit(self, args: Refund) -> dict[str, Any]:
        acc = self._account(args.account_id, open_only=False)
        if acc["status"] != "closed":
            raise ToolFailure("only a closed account's credit is refunded")
        if not acc["final_bill_issued"]:
            raise ToolFailure("the final bill has not been issued yet, so the credit can't be "
                              "refunded until it is")  # fmt: skip
        if not 0 < args.amount_pence <= acc["credit_pence"]:
            raise ToolFailure(f"the credit on this account is {money(acc['credit_pence'])}")
        self.db.execute(
            "INSERT INTO refunds (account_id, amount_pence, paid_to, created_at) VALUES (?,?,?,?)",
            (acc["account_id"], args.amount_pence, args.paid_to.strip(), self._stamp()),
        )
        self.db.execute("UPDATE accounts SET credit_pence = credit_pence - ? WHERE account_id = ?",
                        (args.amount_pence, acc["account_id"]))  # fmt: skip
        return {"refunded": money(args.amount_pence), "paid_to": args.paid_to.strip()}

    @tool(
        "Set up a payment arrangement for the arrears: monthly_pence for `months` months from "
        "the 1st of next month, on top of the instalments. The system does not check the "
        "length: the desk must."
    )
    def set_up_arrangement(self, args: Arrangement) -> dict[str, Any]:
        acc = self._account(args.account_id)
        if acc["arrears_pence"] <= 0:
            raise ToolFailure("there are no arrears on this account")
        if args.months < 1:
            raise ToolFailure("months must be at least 1")
        if self._one("SELECT 1 AS x FROM arrangements WHERE account_id = ?", acc["account_id"]):
            raise ToolFailure("an arrangement is already in place")
        first = (self.now().date().replace(day=1) + timedelta(days=32)).replace(day=1)
        self.db.execute(
            "INSERT INTO arrangements (account_id, months, monthly_pence, first_date, created_at) "
            "VALUES (?,?,?,?,?)",
            (acc["account_id"], args.months, args.monthly_pence, first.isoformat(),
             self._stamp()),
        )  # fmt: skip
        return {"months": args.months, "monthly": money(args.monthly_pence),
                "first_date": first.isoformat(),
                "arrears": money(acc["arrears_pence"])}  # fmt: skip

    @tool(
        "Record how the property is used: occupied, second_home or empty, since a day. Ends a "
        "single person discount from that day; premium_pence and discount_removed_pence (quoted "
        "by the desk) are added to this year's charge."
    )
    def report_occupancy(self, args: Occupancy) -> dict[str, Any]:
        acc = self._account(args.account_id)
        since = date.fromisoformat(args.since)
        if since > self.now().date():
            raise ToolFailure("tell us once it has happened: the day can't be in the future")
        self.db.execute(
            "UPDATE properties SET occupancy = ?, empty_since = ? WHERE property_id = ?",
            (args.occupancy, args.since if args.occupancy == "empty" else None,
             acc["property_id"]),
        )  # fmt: skip
        if args.occupancy != "occupied":
            self.db.execute(
                "UPDATE discounts SET end_date = ? WHERE account_id = ? AND end_date IS NULL",
                ((since - timedelta(days=1)).isoformat(), acc["account_id"]),
            )
        if args.premium_pence:
            start = max(_seed.one_year_on(since), _seed.YEAR_START)
            self.db.execute(
                "INSERT INTO premiums (account_id, kind, from_date, premium_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (acc["account_id"], "empty_over_a_year", start.isoformat(), args.premium_pence,
                 self._stamp()),
            )  # fmt: skip
        self._rebill(acc, args.premium_pence + args.discount_removed_pence)
        now = self._account(acc["account_id"])
        return {"occupancy": args.occupancy, "since": args.since,
                "annual": money(now["annual_pence"]),
                "instalments_left": now["instalments_left"],
                "instalment": money(now["instalment_pence"])}  # fmt: skip

    @tool("Change the email and/or phone number on the account.")
    def update_contacts(self, args: Contacts) -> dict[str, Any]:
        acc = self._account(args.account_id)
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE accounts SET email = ? WHERE account_id = ?",
                            (args.email.strip(), acc["account_id"]))  # fmt: skip
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE accounts SET phone = ? WHERE account_id = ?",
                            (args.phone.strip(), acc["account_id"]))  # fmt: skip
        now = self._account(acc["account_id"])
        return {"email": now["email"], "phone": now["phone"]}


def make_environment() -> CounciltaxEnvironment:
    """A fresh council tax system, from the seed data."""
    return CounciltaxEnvironment()
