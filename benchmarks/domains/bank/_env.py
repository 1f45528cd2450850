"""Northbank cards: the card support desk's state (customers, cards, transactions) and its tools.

The desk's clock is fixed at `NOW` (Tuesday 10 March 2026); nothing here reads the real clock.
Lookups (`get_card`, `list_transactions`, `get_fees`) are staff tools: they do not check who is
asking, so the agent must check that a card belongs to the verified customer before it shares
anything. Every change checks that `verify_customer` succeeded in this conversation and that the
card belongs to the verified customer.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from benchmarks.domains.bank._seed import CARDS, CUSTOMERS, FEE_SCHEDULE, FEES, TRANSACTIONS
from vistasim.env import SqliteEnvironment, ToolFailure, tool

NOW = date(2026, 3, 10)  # a Tuesday
DISPUTE_WINDOW_DAYS = 60
TRAVEL_MAX_DAYS = 90
MIN_LIMIT_EUR = 100
FEE_REPLACEMENT = {"standard": 7.50, "express": 20.00}
DELIVERY_DAYS = {"standard": 5, "express": 2}
PIN_LETTER_DAYS = 5

SCHEMA_SQL = """
CREATE TABLE customers (
  customer_id TEXT PRIMARY KEY, name TEXT NOT NULL, date_of_birth TEXT NOT NULL,
  email TEXT NOT NULL, phone TEXT NOT NULL,
  address_line TEXT NOT NULL, postcode TEXT NOT NULL, city TEXT NOT NULL);
CREATE TABLE cards (
  card_id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(customer_id),
  last4 TEXT NOT NULL UNIQUE, kind TEXT NOT NULL CHECK (kind IN ('debit', 'credit')),
  status TEXT NOT NULL CHECK (status IN ('active', 'blocked', 'cancelled')),
  block_reason TEXT, blocked_on TEXT,
  limit_eur INTEGER NOT NULL, max_limit_eur INTEGER NOT NULL, expires TEXT NOT NULL);
CREATE TABLE transactions (
  txn_id TEXT PRIMARY KEY, card_id TEXT NOT NULL REFERENCES cards(card_id),
  txn_date TEXT NOT NULL, merchant TEXT NOT NULL, amount_eur REAL NOT NULL,
  status TEXT NOT NULL DEFAULT 'posted' CHECK (status IN ('posted', 'disputed')));
CREATE TABLE disputes (
  dispute_id TEXT PRIMARY KEY, txn_id TEXT NOT NULL UNIQUE REFERENCES transactions(txn_id),
  card_last4 TEXT NOT NULL, reason TEXT NOT NULL, opened_on TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open');
CREATE TABLE replacements (
  replacement_id TEXT PRIMARY KEY, card_id TEXT NOT NULL REFERENCES cards(card_id),
  card_last4 TEXT NOT NULL, delivery TEXT NOT NULL, address_line TEXT NOT NULL,
  postcode TEXT NOT NULL, city TEXT NOT NULL, fee_eur REAL NOT NULL,
  ordered_on TEXT NOT NULL, arrives_by TEXT NOT NULL);
CREATE TABLE travel_notices (
  notice_id TEXT PRIMARY KEY, card_id TEXT NOT NULL REFERENCES cards(card_id),
  card_last4 TEXT NOT NULL, country TEXT NOT NULL, start_date TEXT NOT NULL,
  end_date TEXT NOT NULL, created_on TEXT NOT NULL);
CREATE TABLE pin_letters (
  letter_id TEXT PRIMARY KEY, card_id TEXT NOT NULL REFERENCES cards(card_id),
  card_last4 TEXT NOT NULL, address_line TEXT NOT NULL, postcode TEXT NOT NULL,
  city TEXT NOT NULL, requested_on TEXT NOT NULL, arrives_by TEXT NOT NULL);
CREATE TABLE fee_schedule (
  code TEXT PRIMARY KEY, description TEXT NOT NULL, amount_eur REAL, percent REAL);
CREATE TABLE fees (
  fee_id TEXT PRIMARY KEY, card_id TEXT NOT NULL REFERENCES cards(card_id),
  fee_date TEXT NOT NULL, code TEXT NOT NULL REFERENCES fee_schedule(code),
  amount_eur REAL NOT NULL, note TEXT NOT NULL);
CREATE TABLE verification (
  slot TEXT PRIMARY KEY CHECK (slot = 'current'), customer_id TEXT NOT NULL,
  card_id TEXT NOT NULL, verified_on TEXT NOT NULL);
CREATE TABLE verification_failures (attempt INTEGER PRIMARY KEY, card_last4 TEXT NOT NULL);
"""

def working_days_after(start: date, days: int) -> date:
    """The date `days` working days (Mon-Fri) after `start`."""
    current = start
    while days > 0:
        current += timedelta(days=1)
        if current.weekday() < 5:
            days -= 1
    return current


def _iso(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolFailure(f"{field} must be a date as YYYY-MM-DD, got {value!r}") from None


Last4 = Field(pattern=r"^\d{4}$", description="Last 4 digits of the card number")


class CardArgs(BaseModel):
    card_last4: str = Last4


class VerifyArgs(BaseModel):
    card_last4: str = Last4
    date_of_birth: str = Field(description="The card holder's date of birth, YYYY-MM-DD")


class TransactionsArgs(BaseModel):
    card_last4: str = Last4
    since: str | None = Field(default=None, description="Only transactions on/after YYYY-MM-DD")


class BlockArgs(BaseModel):
    card_last4: str = Last4
    reason: Literal["lost", "stolen", "damaged"]


class ReplacementArgs(BaseModel):
    card_last4: str = Last4
    delivery: Literal["standard", "express"] = "standard"
    address_line: str | None = Field(default=None, description="Street and number; omit to use "
                                     "the address on file")
    postcode: str | None = None
    city: str | None = None


class LimitArgs(BaseModel):
    card_last4: str = Last4
    new_limit_eur: int = Field(description="New spending limit in whole EUR")


class DisputeArgs(BaseModel):
    txn_id: str
    reason: Literal["not_recognised", "not_received", "charged_twice", "wrong_amount"]


class TravelArgs(BaseModel):
    card_last4: str = Last4
    country: str
    start_date: str = Field(description="First day abroad, YYYY-MM-DD")
    end_date: str = Field(description="Last day abroad, YYYY-MM-DD")


class FeesArgs(BaseModel):
    card_last4: str | None = Field(default=None, pattern=r"^\d{4}$",
                                   description="Also list the fees charged to this card")


class BankEnvironment(SqliteEnvironment):
    """Northbank's card desk: customers, cards, transactions, fees and the desk's requests."""

    SCHEMA_SQL = SCHEMA_SQL

    def seed(self, db: sqlite3.Connection) -> None:
        """Fill the fixed seed data."""
        db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?)", CUSTOMERS)
        db.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?)", CARDS)
        db.executemany(
            "INSERT INTO transactions (txn_id, card_id, txn_date, merchant, amount_eur) "
            "VALUES (?,?,?,?,?)", TRANSACTIONS)
        db.executemany("INSERT INTO fee_schedule VALUES (?,?,?,?)", FEE_SCHEDULE)
        db.executemany("INSERT INTO fees VALUES (?,?,?,?,?,?)", FEES)

    # -- helpers ---------------------------------------------------------------------------

    def _card(self, last4: str) -> sqlite3.Row:
        row = self.db.execute("SELECT * FROM cards WHERE last4 = ?", (last4,)).fetchone()
        if row is None:
            raise ToolFailure(f"No card ending {last4} was found")
        return row

    def _customer(self, customer_id: str) -> sqlite3.Row:
        return self.db.execute(
            "SELECT * FROM customers WHERE customer_id = ?", (customer_id,)).fetchone()

    def _own_card(self, last4: str) -> sqlite3.Row:
        """The card, checked against this conversation's verified customer."""
        verified = self.db.execute("SELECT * FROM verification").fetchone()
        if verified is None:
            raise ToolFailure("The customer's identity has not been verified in this "
                              "conversation; call verify_customer first")
        card = self._card(last4)
        if card["customer_id"] != verified["customer_id"]:
            raise ToolFailure(f"Card ending {last4} does not belong to the verified customer")
        return card

    def _next_id(self, table: str, prefix: str) -> str:
        count = self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        return f"{prefix}-{count + 1:03d}"

    # -- lookups ---------------------------------------------------------------------------

    @tool("Verify the customer's identity with a card's last 4 digits and their date of birth. "
          "Required once per conversation before any change or disclosure of account data.")
    def verify_customer(self, args: VerifyArgs) -> dict[str, Any]:
        failures = self.db.execute("SELECT COUNT(*) FROM verification_failures").fetchone()[0]
        if failures >= 3:
            raise ToolFailure("Verification is locked after 3 failed attempts; the customer must "
                              "call the card line or visit a branch")
        card = self.db.execute("SELECT * FROM cards WHERE last4 = ?",
                               (args.card_last4,)).fetchone()
        customer = self._customer(card["customer_id"]) if card else None
        if customer is None or customer["date_of_birth"] != args.date_of_birth:
            self.db.execute("INSERT INTO verification_failures (card_last4) VALUES (?)",
                            (args.card_last4,))
            raise ToolFailure("The card number and date of birth do not match our records")
        self.db.execute("INSERT OR REPLACE INTO verification VALUES ('current', ?, ?, ?)",
                        (customer["customer_id"], card["card_id"], NOW.isoformat()))
        cards = self.db.execute("SELECT last4, kind, status FROM cards WHERE customer_id = ? "
                                "ORDER BY card_id", (customer["customer_id"],))
        return {"verified": True, "customer_id": customer["customer_id"],
                "name": customer["name"], "cards": [dict(c) for c in cards]}

    @tool("Look up a card by its last 4 digits: holder, status, limits and the holder's address. "
          "Does not check who is asking.")
    def get_card(self, args: CardArgs) -> dict[str, Any]:
        card = self._card(args.card_last4)
        holder = self._customer(card["customer_id"])
        return {"last4": card["last4"], "kind": card["kind"], "status": card["status"],
                "block_reason": card["block_reason"], "blocked_on": card["blocked_on"],
                "limit_eur": card["limit_eur"], "max_limit_eur": card["max_limit_eur"],
                "expires": card["expires"], "customer_id": holder["customer_id"],
                "holder_name": holder["name"], "address_line": holder["address_line"],
                "postcode": holder["postcode"], "city": holder["city"]}

    @tool("List a card's transactions, newest first. Does not check who is asking.")
    def list_transactions(self, args: TransactionsArgs) -> list[dict[str, Any]]:
        card = self._card(args.card_last4)
        since = _iso(args.since, "since").isoformat() if args.since else "0000-00-00"
        rows = self.db.execute(
            "SELECT txn_id, txn_date, merchant, amount_eur, status FROM transactions "
            "WHERE card_id = ? AND txn_date >= ? ORDER BY txn_date DESC, txn_id DESC",
            (card["card_id"], since))
        return [dict(r) for r in rows]

    @tool("The desk's fee schedule; with card_last4 also the fees charged to that card.")
    def get_fees(self, args: FeesArgs) -> dict[str, Any]:
        schedule = [dict(r) for r in self.db.execute("SELECT * FROM fee_schedule")]
        out: dict[str, Any] = {"schedule": schedule}
        if args.card_last4:
            card = self._card(args.card_last4)
            out["charged"] = [dict(r) for r in self.db.execute(
                "SELECT fee_id, fee_date, code, amount_eur, note FROM fees WHERE card_id = ? "
                "ORDER BY fee_date DESC", (card["card_id"],))]
        return out

    # -- changes ---------------------------------------------------------------------------

    @tool("Block a card at once (lost, stolen or damaged). A blocked card cannot be unblocked.")
    def block_card(self, args: BlockArgs) -> dict[str, Any]:
        card = self._own_card(args.card_last4)
        if card["status"] != "active":
            raise ToolFailure(f"Card ending {args.card_last4} is already {card['status']}")
        self.db.execute("UPDATE cards SET status = 'blocked', block_reason = ?, blocked_on = ? "
                        "WHERE card_id = ?", (args.reason, NOW.isoformat(), card["card_id"]))
        return {"last4": args.card_last4, "status": "blocked", "reason": args.reason}

    @tool("Order a replacement for a blocked card. Delivered to the address on file unless an "
          "address in the Netherlands is given. Charges the replacement fee.")
    def order_replacement(self, args: ReplacementArgs) -> dict[str, Any]:
        card = self._own_card(args.card_last4)
        if card["status"] != "blocked":
            raise ToolFailure(f"Card ending {args.card_last4} is still active: block it before "
                              "ordering a replacement")
        if self.db.execute("SELECT 1 FROM replacements WHERE card_id = ?",
                           (card["card_id"],)).fetchone():
            raise ToolFailure(f"A replacement for card ending {args.card_last4} is already on "
                              "its way")
        holder = self._customer(card["customer_id"])
        address = (args.address_line, args.postcode, args.city)
        if not any(address):
            address = (holder["address_line"], holder["postcode"], holder["city"])
        elif not all(address):
            raise ToolFailure("A delivery address needs street and number, postcode and city")
        if not _dutch_postcode(address[1] or ""):
            raise ToolFailure("Cards can only be delivered to an address in the Netherlands "
                              f"(postcode like 1234 AB); {address[1]!r} is not one")
        fee = FEE_REPLACEMENT[args.delivery]
        if args.delivery == "standard" and card["block_reason"] == "stolen":
            fee = 0.0
        arrives = working_days_after(NOW, DELIVERY_DAYS[args.delivery]).isoformat()
        rid = self._next_id("replacements", "R")
        self.db.execute("INSERT INTO replacements VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (rid, card["card_id"], args.card_last4, args.delivery, *address, fee,
                         NOW.isoformat(), arrives))
        if fee:
            code = "REPL_STD" if args.delivery == "standard" else "REPL_EXP"
            self.db.execute("INSERT INTO fees VALUES (?,?,?,?,?,?)",
                            (self._next_id("fees", "F"), card["card_id"],
                             NOW.isoformat(), code, fee, f"Replacement {rid}"))
        return {"replacement_id": rid, "delivery": args.delivery, "address_line": address[0],
                "postcode": address[1], "city": address[2], "fee_eur": fee,
                "arrives_by": arrives}

    @tool("Change an active card's spending limit (whole EUR, between 100 and the card's "
          "maximum).")
    def set_card_limit(self, args: LimitArgs) -> dict[str, Any]:
        card = self._own_card(args.card_last4)
        if card["status"] != "active":
            raise ToolFailure(f"Card ending {args.card_last4} is {card['status']}; its limit "
                              "cannot be changed")
        if not MIN_LIMIT_EUR <= args.new_limit_eur <= card["max_limit_eur"]:
            raise ToolFailure(f"The limit for card ending {args.card_last4} must be between "
                              f"{MIN_LIMIT_EUR} and {card['max_limit_eur']:,} EUR; "
                              f"{args.new_limit_eur:,} EUR is not allowed")
        self.db.execute("UPDATE cards SET limit_eur = ? WHERE card_id = ?",
                        (args.new_limit_eur, card["card_id"]))
        return {"last4": args.card_last4, "old_limit_eur": card["limit_eur"],
                "limit_eur": args.new_limit_eur}

    @tool("Open a dispute on a transaction of the verified customer, within 60 days of its date.")
    def open_dispute(self, args: DisputeArgs) -> dict[str, Any]:
        txn = self.db.execute("SELECT t.*, c.last4 FROM transactions t JOIN cards c "
                              "USING (card_id) WHERE txn_id = ?", (args.txn_id,)).fetchone()
        if txn is None:
            raise ToolFailure(f"No transaction {args.txn_id} was found")
        self._own_card(txn["last4"])
        if txn["status"] == "disputed":
            raise ToolFailure(f"Transaction {args.txn_id} is already disputed")
        age = (NOW - date.fromisoformat(txn["txn_date"])).days
        if age > DISPUTE_WINDOW_DAYS:
            raise ToolFailure(f"Transaction {args.txn_id} of {txn['txn_date']} is {age} days old; "
                              f"disputes must be opened within {DISPUTE_WINDOW_DAYS} days")
        did = self._next_id("disputes", "D")
        self.db.execute("INSERT INTO disputes VALUES (?,?,?,?,?, 'open')",
                        (did, args.txn_id, txn["last4"], args.reason, NOW.isoformat()))
        self.db.execute("UPDATE transactions SET status = 'disputed' WHERE txn_id = ?",
                        (args.txn_id,))
        return {"dispute_id": did, "txn_id": args.txn_id, "merchant": txn["merchant"],
                "txn_date": txn["txn_date"], "amount_eur": txn["amount_eur"],
                "reason": args.reason, "decision_within_days": 45}

    @tool("Register a travel notice so card payments abroad are not declined (at most 90 days).")
    def add_travel_notice(self, args: TravelArgs) -> dict[str, Any]:
        card = self._own_card(args.card_last4)
        start, end = _iso(args.start_date, "start_date"), _iso(args.end_date, "end_date")
        if start < NOW:
            raise ToolFailure(f"start_date {start} is in the past (today is {NOW})")
        if end < start:
            raise ToolFailure("end_date is before start_date")
        if (end - start).days >= TRAVEL_MAX_DAYS:
            raise ToolFailure(f"A travel notice can cover at most {TRAVEL_MAX_DAYS} days")
        nid = self._next_id("travel_notices", "TN")
        self.db.execute("INSERT INTO travel_notices VALUES (?,?,?,?,?,?,?)",
                        (nid, card["card_id"], args.card_last4, args.country.strip().title(),
                         start.isoformat(), end.isoformat(), NOW.isoformat()))
        return {"notice_id": nid, "country": args.country.strip().title(),
                "start_date": start.isoformat(), "end_date": end.isoformat()}

    @tool("Post a PIN reminder letter to the card holder's address on file (free, 5 working "
          "days). PINs are never shown or told.")
    def request_pin_letter(self, args: CardArgs) -> dict[str, Any]:
        card = self._own_card(args.card_last4)
        if card["status"] != "active":
            raise ToolFailure(f"Card ending {args.card_last4} is {card['status']}")
        holder = self._customer(card["customer_id"])
        arrives = working_days_after(NOW, PIN_LETTER_DAYS).isoformat()
        lid = self._next_id("pin_letters", "P")
        self.db.execute("INSERT INTO pin_letters VALUES (?,?,?,?,?,?,?,?)",
                        (lid, card["card_id"], args.card_last4, holder["address_line"],
                         holder["postcode"], holder["city"], NOW.isoformat(), arrives))
        return {"letter_id": lid, "arrives_by": arrives, "address_line": holder["address_line"],
                "city": holder["city"]}

    # -- the customer's own app ------------------------------------------------------------

    @tool("The Northbank app: your card's status and limit.", side="user")
    def app_card_status(self, args: CardArgs) -> dict[str, Any]:
        card = self._card(args.card_last4)
        return {"last4": card["last4"], "status": card["status"], "limit_eur": card["limit_eur"]}


def _dutch_postcode(value: str) -> bool:
    return re.fullmatch(r"\d{4}\s?[A-Z]{2}", value.strip().upper()) is not None


def make_environment() -> BankEnvironment:
    """A fresh desk, from the seed data."""
    return BankEnvironment()
