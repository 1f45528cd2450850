"""The council's waste system the desk works through: `WasteEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.waste import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    flat = re.sub(r"\s", "", text).upper()
    return f"{flat[:-3]} {flat[-3:]}" if len(flat) > 3 else flat


def weekday(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%A")


class Account(BaseModel):
    account_id: str = Field(description="The council-tax account number, 8 digits, e.g. 60418201")


class Verify(Account):
    postcode: str = Field(description="The property's postcode, e.g. MV3 7QT")


class BookBulky(Account):
    items: list[str] = Field(description="One entry per item, e.g. ['sofa', 'armchair']")
    collect_on: str = Field(description="The collection day, YYYY-MM-DD (the round's bulky day)")
    price_pence: int = Field(description="The total the desk quoted, taken now by card")


class BookingRef(Account):
    booking_id: str = Field(description="e.g. BLK-40507")


class MoveBulky(BookingRef):
    collect_on: str = Field(description="The new collection day, YYYY-MM-DD")
    fee_pence: int = Field(description="The move fee the desk quoted (0 with enough notice)")


class CancelBulky(BookingRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 inside the notice)")


class Garden(Account):
    prices_pence: list[int] = Field(description="One price per new bin, in the order added")
    concession_ref: str | None = Field(default=None, description="CTR reference, if any")


class Missed(Account):
    bin: str = Field(description="grey, blue, green or food")
    due: str = Field(description="The scheduled collection day, YYYY-MM-DD")


class OrderBin(Account):
    bin: str = Field(description="blue, grey or food")
    reason: str = Field(description="replacement or extra")
    price_pence: int = Field(description="The price the desk quoted (0 when free)")


class Contact(Account):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class WasteEnvironment(SqliteEnvironment):
    """Marlow Vale Council waste services: accounts, rounds, bookings, bins and reports."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["council tax account", "account number", "council-tax account"],
        "postcode": ["postcode", "post code"],
        "collect_on": ["collection day", "which day"],
        "phone": ["new number", "phone number"],
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
        found = self._one("SELECT * FROM accounts WHERE account_id = ?", norm_account(account_id))
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        return found

    def _booking(self, a: dict[str, Any], booking_id: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bulky_bookings WHERE booking_id = ?",
                      booking_id.strip().upper())  # fmt: skip
        if b is None or b["account_id"] != a["account_id"]:
            raise ToolFailure(f"no bulky booking {booking_id} on this account")
        if b["status"] != "booked":
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _charge(self, a: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (a["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        last = self.db.execute(
            f"SELECT MAX(CAST(substr({column}, {len(prefix) + 1}) AS INTEGER)) FROM {table}"  # noqa: S608
        ).fetchone()[0]
        return f"{prefix}{(last or start) + 1}"

    def _bulky_day_ok(self, a: dict[str, Any], day: str) -> None:
        rnd = self._one("SELECT * FROM rounds WHERE round_id = ?", a["round_id"])
        assert rnd is not None
        when = date.fromisoformat(day)
        if weekday(day) != rnd["bulky_day"]:
            raise ToolFailure(f"bulky collections on this round are on {rnd['bulky_day']}s")
        if _seed.working_days_between(self.now().date(), when) < _seed.NOTICE_DAYS:
            raise ToolFailure("a bulky collection needs 2 working days' notice")

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: round, bookings, garden bins, collections, orders."""
        a = self._account(account_id)
        today = self.now().date()
        bookings = self._rows(
            "SELECT * FROM bulky_bookings WHERE account_id = ? AND status = 'booked' "
            "ORDER BY collect_on",
            a["account_id"],
        )
        for b in bookings:
            b["working_days_to"] = _seed.working_days_between(today, date.fromisoformat(
                b["collect_on"]))  # fmt: skip
        collections = self._rows(
            "SELECT * FROM collections WHERE account_id = ? ORDER BY due DESC", a["account_id"]
        )
        for c in collections:
            c["working_days_since"] = _seed.working_days_between(date.fromisoformat(c["due"]),
                                                                 today)  # fmt: skip
        return {
            **a,
            "round": self._one("SELECT * FROM rounds WHERE round_id = ?", a["round_id"]),
            "bookings": bookings,
            "garden": self._rows(
                "SELECT * FROM garden_subs WHERE account_id = ?", a["account_id"]
            ),  # fmt: skip
            "collections": collections,
            "bin_orders": self._rows(
                "SELECT * FROM bin_orders WHERE account_id = ?", a["account_id"]
            ),  # fmt: skip
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the council-tax account number and the property's "
        "postcode must match. Returns the account."
    )
    def verify_resident(self, args: Verify) -> dict[str, Any]:
        a = self._one(
            "SELECT account_id FROM accounts WHERE account_id = ? AND postcode = ?",
            norm_account(args.account_id),
            norm_postcode(args.postcode),
        )
        if a is None:
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(a["account_id"])

    @tool("Read an account (staff view, after verify_resident only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    # -- bulky waste -----------------------------------------------------------------------
    @tool(
        "Book a bulky-waste collection on the round's bulky day, with 2 working days' notice; "
        "takes price_pence (quoted by the desk) by card. Refuses more than 5 items and "
        "hazardous items. The system does not price the items: the desk must."
    )
    def book_bulky(self, args: BookBulky) -> dict[str, Any]:
        a = self._account(args.account_id)
        if not args.items:
            raise ToolFailure("no items given")
        if len(args.items) > _seed.MAX_ITEMS:
            raise ToolFailure(f"at most {_seed.MAX_ITEMS} items per booking")
        for item in args.items:
            if any(word in item.lower() for word in _seed.REFUSED):
                raise ToolFailure(f"{item} can't be taken as bulky waste")
        self._bulky_day_ok(a, args.collect_on)
        booking_id = self._next_id("bulky_bookings", "booking_id", "BLK-", 40500)
        self.db.execute(
            "INSERT INTO bulky_bookings (booking_id, account_id, items, collect_on, price_pence) "
            "VALUES (?,?,?,?,?)",
            (booking_id, a["account_id"], ",".join(i.strip().lower() for i in args.items),
             args.collect_on, args.price_pence),
        )  # fmt: skip
        self._charge(a, "bulky", args.price_pence, booking_id)
        return {"booking_id": booking_id, "collect_on": args.collect_on,
                "items": args.items, "paid": money(args.price_pence),
                "card_last4": a["card_last4"]}  # fmt: skip

    @tool(
        "Move a bulky collection to another bulky day of the round; fee_pence (quoted by the "
        "desk) is charged."
    )
    def move_bulky(self, args: MoveBulky) -> dict[str, Any]:
        a = self._account(args.account_id)
        b = self._booking(a, args.booking_id)
        self._bulky_day_ok(a, args.collect_on)
        self.db.execute("UPDATE bulky_bookings SET collect_on = ? WHERE booking_id = ?",
                        (args.collect_on, b["booking_id"]))  # fmt: skip
        self._charge(a, "move_fee", args.fee_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "collect_on": args.collect_on,
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Cancel a bulky collection; refund_pence (quoted by the desk) goes back to the card. "
        "The system does not check the refund rules: the desk must."
    )
    def cancel_bulky(self, args: CancelBulky) -> dict[str, Any]:
        a = self._account(args.account_id)
        b = self._booking(a, args.booking_id)
        self.db.execute("UPDATE bulky_bookings SET status = 'cancelled' WHERE booking_id = ?",
                        (b["booking_id"],))  # fmt: skip
        self._charge(a, "refund", args.refund_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": a["card_last4"]}  # fmt: skip

    # -- garden waste ----------------------------------------------------------------------
    @tool(
        "Subscribe bins to garden waste until 31 March: one subscription per bin, at most two "
        "bins per property; each price (quoted by the desk) is taken by card. The system does "
        "not check prices or the concession: the desk must."
    )
    def subscribe_garden(self, args: Garden) -> dict[str, Any]:
        a = self._account(args.account_id)
        have = len(self._rows("SELECT * FROM garden_subs WHERE account_id = ?", a["account_id"]))
        if not args.prices_pence or have + len(args.prices_pence) > _seed.MAX_GARDEN_BINS:
            raise ToolFailure(f"at most {_seed.MAX_GARDEN_BINS} garden-waste bins per property")
        made = []
        for n, price in enumerate(args.prices_pence, start=have + 1):
            sub_id = self._next_id("garden_subs", "sub_id", "GW-", 77000)
            self.db.execute(
                "INSERT INTO garden_subs VALUES (?,?,?,?,?,?)",
                (sub_id, a["account_id"], n, price, int(bool(args.concession_ref)),
                 _seed.GARDEN_END),
            )  # fmt: skip
            self._charge(a, "garden", price, sub_id)
            made.append({"sub_id": sub_id, "bin_no": n, "price": money(price)})
        return {"subscriptions": made, "valid_to": _seed.GARDEN_END,
                "total": money(sum(args.prices_pence)), "card_last4": a["card_last4"]}  # fmt: skip

    # -- bins ------------------------------------------------------------------------------
    @tool(
        "Log a missed-bin report for a scheduled collection; the crew returns within 2 "
        "working days. Refuses a bin the crew flagged as not presented. The system does not "
        "check the 2-working-day reporting window: the desk must."
    )
    def report_missed(self, args: Missed) -> dict[str, Any]:
        a = self._account(args.account_id)
        c = self._one("SELECT * FROM collections WHERE account_id = ? AND bin = ? AND due = ?",
                      a["account_id"], args.bin.strip().lower(), args.due)  # fmt: skip
        if c is None:
            raise ToolFailure(f"no {args.bin} collection was due on {args.due}")
        if c["outcome"] == "not_presented":
            raise ToolFailure("the crew recorded this bin as not presented: it can't be reported")
        if c["outcome"] == "collected":
            raise ToolFailure("the crew recorded this bin as emptied")
        report_id = self._next_id("missed_reports", "report_id", "MB-", 2200)
        back = _seed.add_working_days(self.now().date(), _seed.RETURN_DAYS).isoformat()
        self.db.execute("INSERT INTO missed_reports VALUES (?,?,?,?,?)",
                        (report_id, a["account_id"], c["bin"], c["due"], back))  # fmt: skip
        return {"report_id": report_id, "bin": c["bin"], "due": c["due"], "return_by": back}

    @tool(
        "Order a bin: blue (recycling) or food caddy, as a replacement or an extra; grey as a "
        "replacement only. price_pence (quoted by the desk) is taken by card. Delivered "
        "within 10 working days."
    )
    def order_bin(self, args: OrderBin) -> dict[str, Any]:
        a = self._account(args.account_id)
        key = (args.bin.strip().lower(), args.reason.strip().lower())
        if key == ("grey", "extra"):
            raise ToolFailure("one grey bin per household: an extra one can't be ordered")
        if key not in _seed.BIN_PRICES:
            raise ToolFailure(f"can't order a {key[0]} bin as {key[1]}")
        order_id = self._next_id("bin_orders", "order_id", "BO-", 3300)
        by = _seed.add_working_days(self.now().date(), _seed.DELIVERY_DAYS).isoformat()
        self.db.execute("INSERT INTO bin_orders VALUES (?,?,?,?,?,?)",
                        (order_id, a["account_id"], *key, args.price_pence, by))  # fmt: skip
        self._charge(a, "bin", args.price_pence, order_id)
        return {"order_id": order_id, "bin": key[0], "reason": key[1],
                "price": money(args.price_pence), "deliver_by": by}  # fmt: skip

    @tool("Change the phone number and/or email address on the account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        a = self._account(args.account_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE accounts SET phone = ? WHERE account_id = ?",
                            (args.phone.strip(), a["account_id"]))  # fmt: skip
        if args.email is not None:
            if "@" not in args.email:
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE accounts SET email = ? WHERE account_id = ?",
                            (args.email.strip(), a["account_id"]))  # fmt: skip
        now = self._account(a["account_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> WasteEnvironment:
    """A fresh waste system, from the seed data."""
    return WasteEnvironment()
