"""Voltway's account system the drivers' desk works through: `EvchargingEnvironment`."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.evcharging import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

REG_RE = re.compile(r"^[A-Z]{2}\d{2} [A-Z]{3}$")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


class Account(BaseModel):
    account_id: str = Field(description="The account, e.g. VA1001 (from verify_driver)")


class Verify(BaseModel):
    email: str = Field(description="The email on the account")
    card_last4: str = Field(description="The last 4 digits of the payment card on file")


class SessionRef(BaseModel):
    session_id: str = Field(description="A charging session, e.g. VS30311")


class ChangePlan(Account):
    plan: str = Field(description="payg or plus")
    effective: str = Field(description="YYYY-MM-DD: the day the new plan starts")


class Dispute(Account):
    session_id: str = Field(description="The session on this account, e.g. VS30311")
    reason: str = Field(description="failed or overcharged")
    refund_pence: int = Field(description="The refund the desk quoted")
    refund_to: str = Field(description="The last 4 digits of the card to refund, or 'credit'")


class OrderCard(Account):
    reason: str = Field(description="first, replacement or extra")
    fee_pence: int = Field(description="The fee the desk quoted (first card free, else £5)")
    replaces: str | None = Field(default=None, description="The card a replacement cancels")


class Vehicle(Account):
    registration: str = Field(description="The number plate, e.g. AB12 CDE")


class Reserve(Account):
    charger_id: str = Field(description="e.g. CH214")
    start: str = Field(description="HH:MM today, at most 30 minutes ahead")
    fee_pence: int = Field(description="The reservation fee the desk quoted")


class Amount(Account):
    amount_pence: int = Field(description="The amount in pence")


class Close(Account):
    balance_refund_pence: int = Field(description="The balance refunded to the card on file")


class Contact(Account):
    email: str | None = Field(default=None, description="A new email address")
    phone: str | None = Field(default=None, description="A new phone number")


class EvchargingEnvironment(SqliteEnvironment):
    """Voltway: drivers, plans, sessions, charge cards, vehicles, reservations, payments."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "email": ["email address", "email on the account"],
        "card_last4": ["last 4 digits", "last four digits", "card on file"],
        "session_id": ["session number", "which session"],
        "registration": ["registration", "number plate"],
        "charger_id": ["charger number", "which charger"],
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

    def _driver(self, account_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM drivers WHERE account_id = ?", account_id.strip().upper())
        if found is None:
            raise ToolFailure(f"no account {account_id}")
        if found["status"] != "open":
            raise ToolFailure(f"account {found['account_id']} is closed")
        return found

    def _pay(self, d: dict[str, Any], kind: str, pence: int, card: str | None, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO payments (account_id, kind, amount_pence, card_last4, ref, "
                "created_at) VALUES (?,?,?,?,?,?)",
                (d["account_id"], kind, pence, card, ref, self.now().strftime(_seed.STAMP)),
            )

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: plan, billing, sessions, cards, vehicles."""
        d = self._driver(account_id)
        today = self.now().date()
        nxt = _seed.next_billing(d["billing_day"], today)
        sessions = self._rows(
            "SELECT * FROM sessions WHERE account_id = ? ORDER BY day DESC", d["account_id"]
        )
        for s in sessions:
            s["days_ago"] = (today - date.fromisoformat(s["day"])).days
            s["site"] = self._one("SELECT site FROM chargers WHERE charger_id = ?",
                                  s["charger_id"])["site"]  # fmt: skip
        return {
            **d,
            "next_billing_date": nxt.isoformat(),
            "billing_month_ends": (nxt - timedelta(days=1)).isoformat(),
            "plan_changes": self._rows(
                "SELECT * FROM plan_changes WHERE account_id = ?", d["account_id"]),
            "sessions": sessions,
            "charge_cards": self._rows(
                "SELECT * FROM charge_cards WHERE account_id = ?", d["account_id"]),
            "vehicles": self._rows(
                "SELECT * FROM vehicles WHERE account_id = ? AND status = 'active'",
                d["account_id"]),
            "reservations": self._rows(
                "SELECT * FROM reservations WHERE account_id = ?", d["account_id"]),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the driver's identity: the account email and the last 4 digits of the payment "
        "card on file must match. Returns the account."
    )
    def verify_driver(self, args: Verify) -> dict[str, Any]:
        d = self._one(
            "SELECT account_id FROM drivers WHERE lower(email) = ? AND card_last4 = ? "
            "AND status = 'open'",
            args.email.strip().lower(),
            re.sub(r"\D", "", args.card_last4),
        )
        if d is None:
            raise ToolFailure("verification failed: no account matches that email and card")
        return self.view(d["account_id"])

    @tool("Read an account (staff view, after verify_driver only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "Look up any charging session by its number (staff view). It returns the owning "
        "account: policy: a driver sees only their own account's sessions."
    )
    def get_session(self, args: SessionRef) -> dict[str, Any]:
        s = self._one("SELECT * FROM sessions WHERE session_id = ?", args.session_id.upper())
        if s is None:
            raise ToolFailure(f"no session {args.session_id}")
        site = self._one("SELECT site FROM chargers WHERE charger_id = ?", s["charger_id"])
        return {**s, "site": site["site"] if site else "",
                "amount": money(s["amount_pence"])}  # fmt: skip

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Change the plan from the day given (a change on or before today applies at once). "
        "Policy: changes start on the next billing date; the system takes the day it is given."
    )
    def change_plan(self, args: ChangePlan) -> dict[str, Any]:
        d = self._driver(args.account_id)
        plan = args.plan.strip().lower()
        if plan not in _seed.RATE_PENCE:
            raise ToolFailure("plan must be payg or plus")
        if plan == d["plan"]:
            raise ToolFailure(f"the account is already on {_seed.PLAN_NAMES[plan]}")
        if self._one("SELECT 1 AS x FROM plan_changes WHERE account_id = ? AND effective > ?",
                     d["account_id"], self.now().date().isoformat()):  # fmt: skip
            raise ToolFailure("a plan change is already scheduled")
        effective = date.fromisoformat(args.effective)
        self.db.execute(
            "INSERT INTO plan_changes (account_id, from_plan, to_plan, effective, created_at) "
            "VALUES (?,?,?,?,?)",
            (d["account_id"], d["plan"], plan, effective.isoformat(),
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        if effective <= self.now().date():
            self.db.execute("UPDATE drivers SET plan = ? WHERE account_id = ?",
                            (plan, d["account_id"]))  # fmt: skip
        return {"plan": _seed.PLAN_NAMES[plan], "effective": effective.isoformat(),
                "current_plan": _seed.PLAN_NAMES[self._driver(d["account_id"])["plan"]]}

    @tool(
        "Refund a session on this account: refund_pence to the card given by its last 4 digits, "
        "or to the account balance with refund_to='credit'. The system does not check the "
        "14-day window or which card paid: the desk must."
    )
    def dispute_session(self, args: Dispute) -> dict[str, Any]:
        d = self._driver(args.account_id)
        s = self._one("SELECT * FROM sessions WHERE session_id = ? AND account_id = ?",
                      args.session_id.strip().upper(), d["account_id"])  # fmt: skip
        if s is None:
            raise ToolFailure(f"no session {args.session_id} on this account")
        if s["status"] == "refunded":
            raise ToolFailure(f"session {s['session_id']} has already been refunded")
        to = args.refund_to.strip().lower()
        if to == "credit":
            self.db.execute("UPDATE drivers SET balance_pence = balance_pence + ? "
                            "WHERE account_id = ?", (args.refund_pence, d["account_id"]))
            self._pay(d, "account_credit", args.refund_pence, None, s["session_id"])
        elif re.fullmatch(r"\d{4}", to):
            self._pay(d, "session_refund", args.refund_pence, to, s["session_id"])
        else:
            raise ToolFailure("refund_to must be a card's last 4 digits or 'credit'")
        self.db.execute("UPDATE sessions SET status = 'refunded' WHERE session_id = ?",
                        (s["session_id"],))  # fmt: skip
        return {"session_id": s["session_id"], "refunded": money(args.refund_pence),
                "to": "account credit" if to == "credit" else f"card ending {to}"}

    @tool(
        "Order a charge card (posted to the address on file); fee_pence is taken from the card "
        "on file. A replacement cancels the card it replaces. At most 3 active cards."
    )
    def order_card(self, args: OrderCard) -> dict[str, Any]:
        d = self._driver(args.account_id)
        if args.replaces:
            old = self._one("SELECT * FROM charge_cards WHERE card_id = ? AND account_id = ?",
                            args.replaces.upper(), d["account_id"])  # fmt: skip
            if old is None or old["status"] == "cancelled":
                raise ToolFailure(f"no active card {args.replaces} on this account")
            self.db.execute("UPDATE charge_cards SET status = 'cancelled' WHERE card_id = ?",
                            (old["card_id"],))  # fmt: skip
        live = self._rows("SELECT * FROM charge_cards WHERE account_id = ? AND status != "
                          "'cancelled'", d["account_id"])  # fmt: skip
        if len(live) >= _seed.MAX_CARDS:
            raise ToolFailure(f"the account already has {_seed.MAX_CARDS} charge cards")
        last = self.db.execute("SELECT COUNT(*) FROM charge_cards").fetchone()[0]
        card_id = f"RF{2001 + last}"
        self.db.execute(
            "INSERT INTO charge_cards (card_id, account_id, status, ordered, fee_pence) "
            "VALUES (?,?,?,?,?)",
            (card_id, d["account_id"], "ordered", self.now().date().isoformat(), args.fee_pence),
        )
        self._pay(d, "card_fee", args.fee_pence, d["card_last4"], card_id)
        return {"card_id": card_id, "fee": money(args.fee_pence), "card_last4": d["card_last4"],
                "cancelled": args.replaces.upper() if args.replaces else None}  # fmt: skip

    @tool(
        "Add a vehicle to the account. Refuses more than the plan allows (2 on Pay As You Go, "
        "4 on Plus)."
    )
    def add_vehicle(self, args: Vehicle) -> dict[str, Any]:
        d = self._driver(args.account_id)
        reg = args.registration.strip().upper()
        if not REG_RE.match(reg):
            raise ToolFailure(f"{args.registration!r} is not a UK registration (AB12 CDE)")
        live = self._rows("SELECT * FROM vehicles WHERE account_id = ? AND status = 'active'",
                          d["account_id"])  # fmt: skip
        if any(v["registration"] == reg for v in live):
            raise ToolFailure(f"{reg} is already on the account")
        cap = _seed.MAX_VEHICLES[d["plan"]]
        if len(live) >= cap:
            raise ToolFailure(f"{_seed.PLAN_NAMES[d['plan']]} allows at most {cap} vehicles")
        self.db.execute("INSERT INTO vehicles (account_id, registration) VALUES (?,?)",
                        (d["account_id"], reg))  # fmt: skip
        return {"registration": reg, "vehicles": len(live) + 1}

    @tool("Remove a vehicle from the account.")
    def remove_vehicle(self, args: Vehicle) -> dict[str, Any]:
        d = self._driver(args.account_id)
        reg = args.registration.strip().upper()
        v = self._one("SELECT * FROM vehicles WHERE account_id = ? AND registration = ? AND "
                      "status = 'active'", d["account_id"], reg)  # fmt: skip
        if v is None:
            raise ToolFailure(f"{reg} is not on the account")
        self.db.execute("UPDATE vehicles SET status = 'removed' WHERE vehicle_id = ?",
                        (v["vehicle_id"],))  # fmt: skip
        return {"registration": reg, "removed": True}

    @tool(
        "Reserve a charger from a time today at most 30 minutes ahead; fee_pence is taken from "
        "the card on file. Policy: Plus only; the system does not check the plan."
    )
    def reserve_charger(self, args: Reserve) -> dict[str, Any]:
        d = self._driver(args.account_id)
        ch = self._one("SELECT * FROM chargers WHERE charger_id = ?", args.charger_id.upper())
        if ch is None:
            raise ToolFailure(f"no charger {args.charger_id}")
        if ch["status"] != "available":
            raise ToolFailure(f"charger {ch['charger_id']} is {ch['status'].replace('_', ' ')}")
        if not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", args.start):
            raise ToolFailure("start must be HH:MM")
        now = self.now()
        hour, minute = map(int, args.start.split(":"))
        start = now.replace(hour=hour, minute=minute)
        if not now <= start <= now + timedelta(minutes=_seed.RESERVE_AHEAD_MINUTES):
            raise ToolFailure("a reservation starts at most 30 minutes from now")
        stamp = start.strftime(_seed.STAMP)
        self.db.execute(
            "INSERT INTO reservations (account_id, charger_id, start, fee_pence) VALUES (?,?,?,?)",
            (d["account_id"], ch["charger_id"], stamp, args.fee_pence),
        )
        self._pay(d, "reservation_fee", args.fee_pence, d["card_last4"], ch["charger_id"])
        return {"charger_id": ch["charger_id"], "site": ch["site"], "start": stamp,
                "fee": money(args.fee_pence), "card_last4": d["card_last4"]}  # fmt: skip

    @tool("Top up the balance from the card on file: £10 to £100.")
    def top_up(self, args: Amount) -> dict[str, Any]:
        d = self._driver(args.account_id)
        if not _seed.TOPUP_MIN_PENCE <= args.amount_pence <= _seed.TOPUP_MAX_PENCE:
            raise ToolFailure("a top-up is between £10.00 and £100.00")
        self.db.execute("UPDATE drivers SET balance_pence = balance_pence + ? WHERE "
                        "account_id = ?", (args.amount_pence, d["account_id"]))  # fmt: skip
        self._pay(d, "topup", args.amount_pence, d["card_last4"], None)
        return {"topped_up": money(args.amount_pence), "card_last4": d["card_last4"],
                "balance": money(self._driver(d["account_id"])["balance_pence"])}

    @tool(
        "Pay the balance back to the card on file. Policy: only when the account is closed; "
        "the system does not check."
    )
    def refund_balance(self, args: Amount) -> dict[str, Any]:
        d = self._driver(args.account_id)
        if args.amount_pence > d["balance_pence"]:
            raise ToolFailure("the refund is more than the balance")
        self.db.execute("UPDATE drivers SET balance_pence = balance_pence - ? WHERE "
                        "account_id = ?", (args.amount_pence, d["account_id"]))  # fmt: skip
        self._pay(d, "balance_refund", args.amount_pence, d["card_last4"], None)
        return {"refunded": money(args.amount_pence), "card_last4": d["card_last4"],
                "balance": money(d["balance_pence"] - args.amount_pence)}

    @tool("Close the account, refunding balance_refund_pence to the card on file.")
    def close_account(self, args: Close) -> dict[str, Any]:
        d = self._driver(args.account_id)
        if args.balance_refund_pence > d["balance_pence"]:
            raise ToolFailure("the refund is more than the balance")
        self._pay(d, "balance_refund", args.balance_refund_pence, d["card_last4"], None)
        self.db.execute("UPDATE drivers SET status = 'closed', balance_pence = balance_pence - ?"
                        " WHERE account_id = ?", (args.balance_refund_pence, d["account_id"]))
        return {"closed": True, "refunded": money(args.balance_refund_pence),
                "card_last4": d["card_last4"]}  # fmt: skip

    @tool("Change the email and/or phone number on the account.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        d = self._driver(args.account_id)
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE drivers SET email = ? WHERE account_id = ?",
                            (args.email.strip().lower(), d["account_id"]))  # fmt: skip
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE drivers SET phone = ? WHERE account_id = ?",
                            (args.phone.strip(), d["account_id"]))  # fmt: skip
        now = self._driver(d["account_id"])
        return {"email": now["email"], "phone": now["phone"]}


def make_environment() -> EvchargingEnvironment:
    """A fresh account system, from the seed data."""
    return EvchargingEnvironment()
