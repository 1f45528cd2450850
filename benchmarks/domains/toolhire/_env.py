"""The hire desk's booking system: `ToolHireEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.toolhire import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "HW" + re.sub(r"\D", "", text)


def norm_hire(text: str) -> str:
    return "HR" + re.sub(r"\D", "", text)


def day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ToolFailure(f"{text!r} is not a day (YYYY-MM-DD)") from None


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. HW3001")


class Verify(Account):
    surname: str = Field(description="The surname on the account")


class HireRef(BaseModel):
    hire_id: str = Field(description="The hire number, e.g. HR5001")


class Availability(BaseModel):
    item_code: str = Field(description="The item, e.g. MIX (cement mixer)")
    first_day: str = Field(description="YYYY-MM-DD")
    last_day: str = Field(description="YYYY-MM-DD, the day it comes back (counted)")


class BookHire(Account):
    item_codes: list[str] = Field(description="The items, one each, e.g. ['TWR', 'HRN']")
    first_day: str = Field(description="YYYY-MM-DD")
    last_day: str = Field(description="YYYY-MM-DD, due back by 17:00")
    hire_pence: int = Field(description="The hire price the desk quoted (after any discount)")
    deposit_pence: int = Field(description="The refundable deposits the desk quoted")
    waiver_pence: int = Field(default=0, description="The damage waiver, if taken")
    delivery_fee_pence: int = Field(default=0, description="Delivery and collection, if asked")


class OnHire(Account):
    hire_id: str = Field(description="The hire number, e.g. HR5001")


class Extend(OnHire):
    last_day: str = Field(description="The new last day, YYYY-MM-DD")
    extra_pence: int = Field(description="The price of the extra days the desk quoted")
    extra_waiver_pence: int = Field(default=0, description="The waiver on the extra days")


class EarlyReturn(OnHire):
    return_day: str = Field(description="The day it comes back, YYYY-MM-DD (today or later)")
    refund_pence: int = Field(description="The hire refund the desk quoted")


class Cancel(OnHire):
    refund_pence: int = Field(description="The refund the desk quoted")


class Waiver(OnHire):
    waiver_pence: int = Field(description="The damage waiver the desk quoted")


class Delivery(OnHire):
    fee_pence: int = Field(description="The delivery-and-collection fee the desk quoted")


class LateReturn(OnHire):
    return_day: str = Field(description="The day the overdue hire will come back, YYYY-MM-DD")
    late_fee_pence: int = Field(description="The late-return charge the desk quoted")


class ToolHireEnvironment(SqliteEnvironment):
    """Hirewell Tool Hire: customers, the catalogue, units, hires and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "surname": ["surname", "last name"],
        "dates": ["which day would you like it from", "first day", "dates"],
        "new_last_day": ["until which day", "keep it until"],
        "return_day": ["which day will you bring it back", "return day"],
        "item": ["which tool", "tool or machine"],
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

    @property
    def today(self) -> date:
        return self.now().date()

    def _account(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _item(self, code: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM items WHERE item_code = ?", code.strip().upper())
        if found is None:
            raise ToolFailure(f"no item {code!r} in the catalogue")
        return found

    def _hire(self, c: dict[str, Any], hire_id: str) -> dict[str, Any]:
        h = self._one("SELECT * FROM hires WHERE hire_id = ?", norm_hire(hire_id))
        if h is None or h["account_id"] != c["account_id"]:
            raise ToolFailure(f"no hire {hire_id} on this account")
        if h["status"] != "booked":
            raise ToolFailure(f"hire {h['hire_id']} is {h['status']}")
        return h

    def _charge(self, c: dict[str, Any], hire_id: str, kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, hire_id, kind, amount_pence, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], hire_id, kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def _open(self, *days: date) -> None:
        for d in days:
            if d in _seed.CLOSED:
                raise ToolFailure(f"the depot is closed on {d.isoformat()}")

    def _busy(self, unit_id: str, first: date, last: date, but: str = "") -> dict[str, Any] | None:
        """The first other hire holding `unit_id` on any day from `first` to `last`."""
        for h in self._rows(
            "SELECT h.* FROM hires h JOIN hire_lines l ON l.hire_id = h.hire_id "
            "WHERE l.unit_id = ? AND h.status = 'booked' AND h.hire_id != ? "
            "ORDER BY h.first_day",
            unit_id,
            but,
        ):
            # an overdue item is still out: it holds its unit at least until today
            ends = max(date.fromisoformat(h["late_return_on"] or h["last_day"]), self.today)
            if date.fromisoformat(h["first_day"]) <= last and ends >= first:
                return h
        return None

    def _free_units(self, code: str, first: date, last: date) -> list[str]:
        units = [r["unit_id"] for r in self._rows(
            "SELECT unit_id FROM units WHERE item_code = ? ORDER BY unit_id", code)]  # fmt: skip
        return [u for u in units if self._busy(u, first, last) is None]

    def _lines(self, hire_id: str) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT l.item_code, l.unit_id, i.name, i.day_pence, i.deposit_pence FROM hire_lines "
            "l JOIN items i ON i.item_code = l.item_code WHERE l.hire_id = ? ORDER BY l.line_id",
            hire_id,
        )

    def _with_lines(self, h: dict[str, Any]) -> dict[str, Any]:
        first, last = date.fromisoformat(h["first_day"]), date.fromisoformat(h["last_day"])
        return {
            **h,
            "lines": self._lines(h["hire_id"]),
            "started": first <= self.today,
            "overdue": h["status"] == "booked" and last < self.today,
        }

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: details and its live hires, with their items."""
        c = self._account(account_id)
        hires = self._rows(
            "SELECT * FROM hires WHERE account_id = ? AND status = 'booked' ORDER BY first_day",
            c["account_id"],
        )
        return {**c, "hires": [self._with_lines(h) for h in hires]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the surname on that account "
        "must match. Returns the account with its live hires."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT account_id FROM customers WHERE account_id = ? AND lower(surname) = ?",
            norm_account(args.account_id),
            args.surname.strip().lower(),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and surname")
        return self.view(c["account_id"])

    @tool("Read an account and its live hires (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Read any hire by its number, with the hirer's name, address and phone (staff view). "
        "Policy: a hire's details go only to its own account; the system does not check."
    )
    def get_hire(self, args: HireRef) -> dict[str, Any]:
        h = self._one("SELECT * FROM hires WHERE hire_id = ?", norm_hire(args.hire_id))
        if h is None:
            raise ToolFailure(f"no hire {args.hire_id}")
        c = self._account(h["account_id"])
        return {**self._with_lines(h), "hirer": c["name"], "address": c["address"],
                "phone": c["phone"]}  # fmt: skip

    @tool(
        "An item's day rate, deposit, the safety item it needs, and how many units are free "
        "on every day from first_day to last_day."
    )
    def check_availability(self, args: Availability) -> dict[str, Any]:
        item = self._item(args.item_code)
        first, last = day(args.first_day), day(args.last_day)
        if last < first:
            raise ToolFailure("the last day is before the first")
        self._open(first, last)
        return {"item_code": item["item_code"], "name": item["name"],
                "day_pence": item["day_pence"], "deposit_pence": item["deposit_pence"],
                "needs": item["needs"],
                "units_free": len(self._free_units(item["item_code"], first, last))}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a hire of one unit of each item from first_day to last_day; the quoted hire, "
        "deposits, waiver and delivery fee are taken from the card. Refuses a closed day, a "
        "past first day, an item with no unit free, and delivery beyond 15 miles. It does not "
        "check prices, discounts or safety items: the desk must."
    )
    def book_hire(self, args: BookHire) -> dict[str, Any]:
        c = self._account(args.account_id)
        first, last = day(args.first_day), day(args.last_day)
        if first < self.today or last < first:
            raise ToolFailure("the first day must be today or later, and not after the last")
        self._open(first, last)
        if not args.item_codes:
            raise ToolFailure("no items to hire")
        if args.delivery_fee_pence and c["miles"] > _seed.MAX_DELIVERY_MILES:
            raise ToolFailure(f"{c['address']} is beyond the 15-mile delivery area")
        picked = []
        for code in args.item_codes:
            item = self._item(code)
            free = [u for u in self._free_units(item["item_code"], first, last)
                    if u not in {p[1] for p in picked}]  # fmt: skip
            if not free:
                raise ToolFailure(f"no {item['name']} is free on every day asked")
            picked.append((item, free[0]))
        last_id = self.db.execute("SELECT MAX(CAST(substr(hire_id, 3) AS INTEGER)) FROM hires")
        hire_id = f"HR{(last_id.fetchone()[0] or 5000) + 1}"
        self.db.execute(
            "INSERT INTO hires (hire_id, account_id, first_day, last_day, hire_pence, "
            "deposit_pence, waiver_pence, delivery_fee_pence) VALUES (?,?,?,?,?,?,?,?)",
            (hire_id, c["account_id"], first.isoformat(), last.isoformat(), args.hire_pence,
             args.deposit_pence, args.waiver_pence, args.delivery_fee_pence),
        )  # fmt: skip
        self.db.executemany(
            "INSERT INTO hire_lines (hire_id, account_id, item_code, unit_id) VALUES (?,?,?,?)",
            [(hire_id, c["account_id"], item["item_code"], unit) for item, unit in picked],
        )
        for kind, pence in (("hire", args.hire_pence), ("deposit", args.deposit_pence),
                            ("waiver", args.waiver_pence),
                            ("delivery", args.delivery_fee_pence)):  # fmt: skip
            self._charge(c, hire_id, kind, pence)
        total = args.hire_pence + args.deposit_pence + args.waiver_pence + args.delivery_fee_pence
        return {"hire_id": hire_id, "items": [item["name"] for item, _ in picked],
                "first_day": first.isoformat(), "last_day": last.isoformat(),
                "hire": money(args.hire_pence), "deposit": money(args.deposit_pence),
                "waiver": money(args.waiver_pence), "delivery": money(args.delivery_fee_pence),
                "taken": money(total), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Extend a hire to a later last day; extra_pence (quoted by the desk) is taken. Refuses "
        "when a unit on the hire is booked by someone else on any extra day, a closed day, "
        "and a hire already overdue (record a late return instead)."
    )
    def extend_hire(self, args: Extend) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        old, new = date.fromisoformat(h["last_day"]), day(args.last_day)
        if old < self.today:
            raise ToolFailure(f"hire {h['hire_id']} is overdue: record a late return instead")
        if new <= old:
            raise ToolFailure("the new last day must be after the current one")
        self._open(new)
        for line in self._lines(h["hire_id"]):
            other = self._busy(line["unit_id"], old + timedelta(days=1), new, but=h["hire_id"])
            if other is not None:
                raise ToolFailure(f"the {line['name']} is booked by another customer from "
                                  f"{other['first_day']}")  # fmt: skip
        self.db.execute(
            "UPDATE hires SET last_day = ?, hire_pence = hire_pence + ?, "
            "waiver_pence = waiver_pence + ? WHERE hire_id = ?",
            (new.isoformat(), args.extra_pence, args.extra_waiver_pence, h["hire_id"]),
        )
        self._charge(c, h["hire_id"], "extension", args.extra_pence)
        self._charge(c, h["hire_id"], "waiver", args.extra_waiver_pence)
        return {"hire_id": h["hire_id"], "last_day": new.isoformat(),
                "extra": money(args.extra_pence), "extra_waiver": money(args.extra_waiver_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "End a started hire early: the item comes back on return_day (today or later, before "
        "the last day); refund_pence (quoted by the desk) goes to the card. The system does "
        "not check the refund."
    )
    def return_early(self, args: EarlyReturn) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        back = day(args.return_day)
        if date.fromisoformat(h["first_day"]) > self.today:
            raise ToolFailure(f"hire {h['hire_id']} hasn't started: cancel it instead")
        if back < self.today or back >= date.fromisoformat(h["last_day"]):
            raise ToolFailure("the return day must be from today and before the last day")
        status = "returned" if back == self.today else "booked"
        self.db.execute(
            "UPDATE hires SET last_day = ?, status = ?, hire_pence = hire_pence - ? "
            "WHERE hire_id = ?",
            (back.isoformat(), status, args.refund_pence, h["hire_id"]),
        )
        self._charge(c, h["hire_id"], "refund", args.refund_pence)
        return {"hire_id": h["hire_id"], "return_day": back.isoformat(), "status": status,
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a hire that hasn't started; refund_pence (quoted by the desk) goes to the "
        "card. Refuses a hire that has started."
    )
    def cancel_hire(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        if date.fromisoformat(h["first_day"]) <= self.today:
            raise ToolFailure(f"hire {h['hire_id']} has started: it can only be returned early")
        self.db.execute("UPDATE hires SET status = 'cancelled' WHERE hire_id = ?", (h["hire_id"],))
        self._charge(c, h["hire_id"], "refund", args.refund_pence)
        return {"hire_id": h["hire_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add the damage waiver to a hire; waiver_pence (quoted by the desk) is taken. Refuses "
        "a hire that already has it. The system does not check when it may be added."
    )
    def add_waiver(self, args: Waiver) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        if h["waiver_pence"]:
            raise ToolFailure(f"hire {h['hire_id']} already has the damage waiver")
        self.db.execute(
            "UPDATE hires SET waiver_pence = ? WHERE hire_id = ?", (args.waiver_pence, h["hire_id"])
        )
        self._charge(c, h["hire_id"], "waiver", args.waiver_pence)
        return {"hire_id": h["hire_id"], "waiver": money(args.waiver_pence),
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add delivery and collection to a hire that hasn't started; fee_pence (quoted by the "
        "desk) is taken. Refuses an address beyond 15 miles and a hire that already has it."
    )
    def arrange_delivery(self, args: Delivery) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        if date.fromisoformat(h["first_day"]) <= self.today:
            raise ToolFailure(f"hire {h['hire_id']} has started: the item is already out")
        if h["delivery_fee_pence"]:
            raise ToolFailure(f"hire {h['hire_id']} already has delivery and collection")
        if c["miles"] > _seed.MAX_DELIVERY_MILES:
            raise ToolFailure(f"{c['address']} is beyond the 15-mile delivery area")
        self.db.execute(
            "UPDATE hires SET delivery_fee_pence = ? WHERE hire_id = ?",
            (args.fee_pence, h["hire_id"]),
        )
        self._charge(c, h["hire_id"], "delivery", args.fee_pence)
        return {"hire_id": h["hire_id"], "delivery_to": c["address"],
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Record the day an overdue hire will come back; late_fee_pence (quoted by the desk) is "
        "taken. Refuses a hire that isn't overdue and a return day before today."
    )
    def record_late_return(self, args: LateReturn) -> dict[str, Any]:
        c = self._account(args.account_id)
        h = self._hire(c, args.hire_id)
        back = day(args.return_day)
        if date.fromisoformat(h["last_day"]) >= self.today:
            raise ToolFailure(f"hire {h['hire_id']} isn't overdue: it can be extended")
        if back < self.today:
            raise ToolFailure("the return day must be today or later")
        self.db.execute(
            "UPDATE hires SET late_return_on = ?, late_fee_pence = ? WHERE hire_id = ?",
            (back.isoformat(), args.late_fee_pence, h["hire_id"]),
        )
        self._charge(c, h["hire_id"], "late_fee", args.late_fee_pence)
        return {"hire_id": h["hire_id"], "return_day": back.isoformat(),
                "late_fee": money(args.late_fee_pence), "card_last4": c["card_last4"]}  # fmt: skip


def make_environment() -> ToolHireEnvironment:
    """A fresh booking system, from the seed data."""
    return ToolHireEnvironment()
