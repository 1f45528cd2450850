"""The agency's order system the desk works through: `TranslationEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.translation import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "CW" + re.sub(r"\D", "", text)


def norm_order(text: str) -> str:
    return "TR" + re.sub(r"\D", "", text)


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. CW1001")


class Verify(Account):
    email: str = Field(description="The email address on the account")


class OrderLookup(BaseModel):
    order_id: str = Field(description="An order number, e.g. TR7005")


class OrderSpec(Account):
    source_language: str = Field(description="The document's language, e.g. French")
    target_language: str = Field(description="The language wanted, e.g. English")
    pages: int = Field(description="Pages of the source document")
    certified: bool = Field(description="A certified translation (signed statement and stamp)")
    turnaround: str = Field(description="standard (5 working days) or rush (2 working days)")
    price_pence: int = Field(description="The total price the desk quoted")


class PlaceOrder(OrderSpec):
    due_date: str = Field(description="The delivery day the desk promised, YYYY-MM-DD")
    document: str = Field(default="document", description="What the document is")


class OrderRef(Account):
    order_id: str = Field(description="e.g. TR7005")


class Upgrade(OrderRef):
    fee_pence: int = Field(description="The rush surcharge the desk quoted")
    due_date: str = Field(description="The new delivery day, YYYY-MM-DD")


class Revision(OrderRef):
    kind: str = Field(description="error (our mistake) or source_change (the original changed)")
    pages: int = Field(description="Pages to correct or re-translate")
    fee_pence: int = Field(description="The fee the desk quoted (0 for a free correction)")
    due_date: str = Field(description="When the revised translation is due, YYYY-MM-DD")


class Cancel(OrderRef):
    refund_pence: int = Field(description="The refund the desk quoted")


class TranslationEnvironment(SqliteEnvironment):
    """Clearword Translations: customers, languages, orders, quotes, revisions and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "email": ["email address", "email on the account"],
        "pages": ["how many pages", "number of pages"],
        "source_language": ["language is the document", "translate from"],
        "target_language": ["which language", "translated into"],
        "certified": ["certified"],
        "turnaround": ["standard or rush", "turnaround"],
        "order_id": ["order number"],
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

    def _order(self, c: dict[str, Any], order_id: str) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if o is None or o["account_id"] != c["account_id"]:
            raise ToolFailure(f"no order {order_id} on this account")
        return o

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _language(self, source: str, target: str) -> dict[str, Any]:
        """The language paired with English, or a refusal."""
        src, tgt = source.strip().capitalize(), target.strip().capitalize()
        if (src == "English") == (tgt == "English"):
            raise ToolFailure("we translate only into or out of English")
        other = tgt if src == "English" else src
        lang = self._one("SELECT * FROM languages WHERE language = ?", other)
        if lang is None:
            raise ToolFailure(f"we don't translate {other}")
        return lang

    def _check_spec(self, args: OrderSpec) -> dict[str, Any]:
        lang = self._language(args.source_language, args.target_language)
        if not 1 <= args.pages <= 200:
            raise ToolFailure("pages must be between 1 and 200")
        if args.turnaround not in {"standard", "rush"}:
            raise ToolFailure("turnaround must be standard or rush")
        return lang

    def _rush_check(self, lang: dict[str, Any], pages: int) -> None:
        if pages > _seed.RUSH_MAX_PAGES:
            raise ToolFailure(f"rush is only for up to {_seed.RUSH_MAX_PAGES} pages")
        if not lang["rush_ok"]:
            raise ToolFailure(f"no rush translator for {lang['language']} is free until January")

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: orders (newest first) and quotes."""
        c = self._account(account_id)
        return {
            **c,
            "orders": self._rows(
                "SELECT * FROM orders WHERE account_id = ? ORDER BY ordered_on DESC",
                c["account_id"],
            ),
            "quotes": self._rows("SELECT * FROM quotes WHERE account_id = ?", c["account_id"]),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the email on that account must "
        "match. Returns the account with its orders."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one(
            "SELECT account_id FROM customers WHERE account_id = ? AND lower(email) = ?",
            norm_account(args.account_id),
            args.email.strip().lower(),
        )
        if c is None:
            raise ToolFailure("verification failed: no account matches that number and email")
        return self.view(c["account_id"])

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Look up any order by its number (staff search across accounts). Policy: share an "
        "order only with its own account holder."
    )
    def get_order(self, args: OrderLookup) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(args.order_id))
        if o is None:
            raise ToolFailure(f"no order {args.order_id}")
        c = self._account(o["account_id"])
        return {**o, "customer_name": c["name"], "customer_email": c["email"]}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Email a written quote (valid 30 days) to the email on the account. Checks the language "
        "pair; the price is the desk's."
    )
    def send_quote(self, args: OrderSpec) -> dict[str, Any]:
        c = self._account(args.account_id)
        self._check_spec(args)
        last = self.db.execute("SELECT MAX(CAST(substr(quote_id, 3) AS INTEGER)) FROM quotes")
        quote_id = f"QT{(last.fetchone()[0] or 9000) + 1}"
        valid = (self.now().date() + timedelta(days=_seed.QUOTE_VALID_DAYS)).isoformat()
        self.db.execute(
            "INSERT INTO quotes VALUES (?,?,?,?,?,?,?,?,?,?)",
            (quote_id, c["account_id"], args.source_language.capitalize(),
             args.target_language.capitalize(), args.pages, int(args.certified),
             args.turnaround, args.price_pence, c["email"], valid),
        )  # fmt: skip
        return {"quote_id": quote_id, "price": money(args.price_pence), "sent_to": c["email"],
                "valid_until": valid}  # fmt: skip

    @tool(
        "Place an order and take the full price from the card on the account. Refuses a pair "
        "without English, rush over 10 pages and rush when no rush translator is free. The "
        "price and the due date are the desk's: the system does not check them."
    )
    def place_order(self, args: PlaceOrder) -> dict[str, Any]:
        c = self._account(args.account_id)
        lang = self._check_spec(args)
        if args.turnaround == "rush":
            self._rush_check(lang, args.pages)
        due = date.fromisoformat(args.due_date)
        if due <= self.now().date():
            raise ToolFailure("the due date must be a future day")
        last = self.db.execute("SELECT MAX(CAST(substr(order_id, 3) AS INTEGER)) FROM orders")
        order_id = f"TR{(last.fetchone()[0] or 7000) + 1}"
        rate = lang["rate_pence"]  # the list rate; the price charged is the desk's
        self.db.execute(
            "INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (order_id, c["account_id"], args.document.strip() or "document",
             args.source_language.capitalize(), args.target_language.capitalize(), args.pages,
             int(args.certified), args.turnaround, rate, args.price_pence, args.price_pence,
             self.now().date().isoformat(), args.due_date, "queued", None),
        )  # fmt: skip
        self._charge(c, "payment", args.price_pence, order_id)
        return {"order_id": order_id, "price": money(args.price_pence), "due_date": args.due_date,
                "turnaround": args.turnaround, "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Upgrade a standard order that is queued or in progress to rush; fee_pence (quoted by "
        "the desk) is charged and the due date set. Refuses over 10 pages and languages with no "
        "rush translator free."
    )
    def upgrade_turnaround(self, args: Upgrade) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if o["status"] not in {"queued", "in_progress"}:
            raise ToolFailure(f"order {o['order_id']} is {o['status']}")
        if o["turnaround"] == "rush":
            raise ToolFailure(f"order {o['order_id']} is already rush")
        other = o["target_language"] if o["source_language"] == "English" else o["source_language"]
        lang = self._one("SELECT * FROM languages WHERE language = ?", other) or {}
        self._rush_check({"language": other, "rush_ok": lang.get("rush_ok", 0)}, o["pages"])
        self.db.execute(
            "UPDATE orders SET turnaround = 'rush', due_date = ?, paid_pence = paid_pence + ? "
            "WHERE order_id = ?",
            (args.due_date, args.fee_pence, o["order_id"]),
        )
        self._charge(c, "upgrade", args.fee_pence, o["order_id"])
        return {"order_id": o["order_id"], "turnaround": "rush", "due_date": args.due_date,
                "fee": money(args.fee_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Open a revision of a delivered order: a correction of our error or a re-translation of "
        "pages the customer changed. fee_pence (quoted by the desk) is charged. The system does "
        "not check the 30-day correction window: the desk must."
    )
    def request_revision(self, args: Revision) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if o["status"] != "delivered":
            raise ToolFailure(f"order {o['order_id']} has not been delivered yet")
        if args.kind not in {"error", "source_change"}:
            raise ToolFailure("kind must be error or source_change")
        if not 1 <= args.pages <= o["pages"]:
            raise ToolFailure(f"order {o['order_id']} has {o['pages']} pages")
        cur = self.db.execute(
            "INSERT INTO revisions (order_id, kind, pages, fee_pence, due_date, requested_at) "
            "VALUES (?,?,?,?,?,?)",
            (o["order_id"], args.kind, args.pages, args.fee_pence, args.due_date,
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        self._charge(c, "revision", args.fee_pence, o["order_id"])
        return {"revision_id": cur.lastrowid, "order_id": o["order_id"], "kind": args.kind,
                "pages": args.pages, "fee": money(args.fee_pence), "due_date": args.due_date,
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel an order; refund_pence (quoted by the desk) goes back to the card. Refuses a "
        "delivered or cancelled order. The system does not check whether work has started: "
        "the desk must."
    )
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        c = self._account(args.account_id)
        o = self._order(c, args.order_id)
        if o["status"] in {"delivered", "cancelled"}:
            raise ToolFailure(f"order {o['order_id']} is {o['status']}")
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE order_id = ?",
                        (o["order_id"],))  # fmt: skip
        self._charge(c, "refund", args.refund_pence, o["order_id"])
        return {"order_id": o["order_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": c["card_last4"]}  # fmt: skip


def make_environment() -> TranslationEnvironment:
    """A fresh order system, from the seed data."""
    return TranslationEnvironment()
