"""The round's booking system the desk works through: `WindowcleanEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.windowclean import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "KW" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s+", "", text).upper()


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. KW3001")


class Verify(Account):
    postcode: str = Field(description="The postcode of the property on the account")


class StartRound(Account):
    frequency_weeks: int = Field(description="4, 6 or 8")
    extras: list[str] = Field(default=[], description="conservatory and/or gutters")
    price_pence: int = Field(description="The price per visit the desk quoted")
    first_visit: str = Field(description="YYYY-MM-DD, on the street's round day")


class ChangeRound(Account):
    frequency_weeks: int = Field(description="4, 6 or 8")
    extras: list[str] = Field(default=[], description="conservatory and/or gutters")
    price_pence: int = Field(description="The new price per visit the desk quoted")


class VisitRef(Account):
    visit_id: str = Field(description="e.g. V6020")


class SkipVisit(VisitRef):
    fee_pence: int = Field(description="The late-skip fee the desk quoted (0 with 2+ days' notice)")


class MoveVisit(VisitRef):
    new_date: str = Field(description="YYYY-MM-DD")


class PauseRound(Account):
    start: str = Field(description="The first day of the pause, YYYY-MM-DD")
    end: str = Field(description="The last day of the pause, YYYY-MM-DD")


class AddJob(VisitRef):
    kind: str = Field(description="gutter_clear, conservatory_roof or solar_panels")
    price_pence: int = Field(description="The price the desk quoted")


class PayCharges(Account):
    charge_ids: list[str] = Field(description="The charges paid, e.g. ['C8002']")
    amount_pence: int = Field(description="Their total, as the desk quoted it")


class DisputeCharge(Account):
    charge_id: str = Field(description="e.g. C8003")
    reason: str = Field(description="The customer's reason, in their words")


class CancelRound(Account):
    end_date: str = Field(description="The last day of the round (the end of the notice)")


class AccessCode(Account):
    access_code: str = Field(description="The new side-gate or key-safe code")


class WindowcleanEnvironment(SqliteEnvironment):
    """Kingfisher Window Cleaning: customers, rounds, visits, charges, jobs and pauses."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "postcode": ["postcode"],
        "frequency_weeks": ["how often", "every 4, 6 or 8 weeks"],
        "new_date": ["which day", "new day"],
        "pause_dates": ["pause from", "which dates"],
        "access_code": ["code"],
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

    def _round(self, c: dict[str, Any]) -> dict[str, Any]:
        r = self._one("SELECT * FROM rounds WHERE account_id = ?", c["account_id"])
        if r is None:
            raise ToolFailure("this account has no window-cleaning round")
        if r["status"] != "active":
            raise ToolFailure(f"the round is {r['status']} (ends {r['ends_on']})")
        return r

    def _visit(self, c: dict[str, Any], visit_id: str) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE visit_id = ?", visit_id.strip().upper())
        if v is None or v["account_id"] != c["account_id"]:
            raise ToolFailure(f"no visit {visit_id} on this account")
        if v["status"] != "scheduled":
            raise ToolFailure(f"visit {v['visit_id']} is {v['status']}")
        if v["date"] <= self.today().isoformat():
            raise ToolFailure(f"visit {v['visit_id']} is not in the future")
        return v

    def today(self) -> date:
        return self.now().date()

    def _next_id(self, table: str, column: str, prefix: str, start: int) -> str:
        last = self.db.execute(
            f"SELECT MAX(CAST(substr({column}, 2) AS INTEGER)) FROM {table}"  # noqa: S608
        ).fetchone()[0]
        return f"{prefix}{(last or start) + 1}"

    def _check_plan(self, c: dict[str, Any], frequency: int, extras: list[str]) -> list[str]:
        if frequency not in _seed.FREQUENCIES:
            raise ToolFailure("a round comes every 4, 6 or 8 weeks")
        clean = [e.strip().lower() for e in extras]
        for extra in clean:
            if extra not in _seed.EXTRA_PENCE:
                raise ToolFailure(f"unknown extra {extra!r}: conservatory or gutters")
            if extra == "conservatory" and not c["conservatory"]:
                raise ToolFailure("no conservatory on record for this property")
        return sorted(set(clean))

    def _schedule(self, account_id: str, first: str, weeks: int, price: int) -> None:
        for day in _seed.round_dates(first, weeks):
            self.db.execute(
                "INSERT INTO visits VALUES (?,?,?,?,?)",
                (self._next_id("visits", "visit_id", "V", 6000), account_id, day, price,
                 "scheduled"),
            )  # fmt: skip

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: the round, visits from today, charges, jobs, pauses."""
        c = self._account(account_id)
        today = self.today().isoformat()
        visits = self._rows(
            "SELECT * FROM visits WHERE account_id = ? AND date >= ? ORDER BY date",
            c["account_id"], today,
        )  # fmt: skip
        for v in visits:
            v["days_away"] = (date.fromisoformat(v["date"]) - self.today()).days
        charges = self._rows(
            "SELECT * FROM charges WHERE account_id = ? ORDER BY visit_date", c["account_id"]
        )
        for ch in charges:
            ch["days_since_visit"] = (self.today() - date.fromisoformat(ch["visit_date"])).days
        return {
            **c,
            "round": self._one("SELECT * FROM rounds WHERE account_id = ?", c["account_id"]),
            "visits": visits,
            "charges": charges,
            "jobs": self._rows("SELECT * FROM jobs WHERE account_id = ?", c["account_id"]),
            "pauses": self._rows("SELECT * FROM pauses WHERE account_id = ?", c["account_id"]),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the property's postcode must "
        "match. Returns the account (staff view: never read the access code out)."
    )
    def verify_customer(self, args: Verify) -> dict[str, Any]:
        c = self._one("SELECT * FROM customers WHERE account_id = ?", norm_account(args.account_id))
        if c is None or norm_postcode(c["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no account matches that number and postcode")
        return self.view(c["account_id"])

    @tool("Read an account (staff view, after verify_customer only; never read codes out).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    # -- the round -------------------------------------------------------------------------
    @tool(
        "Start a window-cleaning round every 4, 6 or 8 weeks at price_pence a visit (quoted by "
        "the desk), with visits from first_visit, which must be on the street's round day."
    )
    def start_round(self, args: StartRound) -> dict[str, Any]:
        c = self._account(args.account_id)
        if self._one("SELECT 1 AS x FROM rounds WHERE account_id = ?", c["account_id"]):
            raise ToolFailure("this account already has a round")
        extras = self._check_plan(c, args.frequency_weeks, args.extras)
        first = date.fromisoformat(args.first_visit)
        if first <= self.today():
            raise ToolFailure("the first visit must be a future day")
        if _seed.WEEKDAYS[first.weekday()] != c["round_day"]:
            raise ToolFailure(f"this street's round day is {c['round_day'].capitalize()}")
        self.db.execute(
            "INSERT INTO rounds (account_id, frequency_weeks, extras, price_pence, started_on) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], args.frequency_weeks, ",".join(extras), args.price_pence,
             self.today().isoformat()),
        )  # fmt: skip
        self._schedule(c["account_id"], args.first_visit, args.frequency_weeks, args.price_pence)
        return {"frequency_weeks": args.frequency_weeks, "extras": extras,
                "price": money(args.price_pence), "first_visit": args.first_visit}  # fmt: skip

    @tool(
        "Change a round's frequency and/or extras at price_pence a visit (quoted by the desk). "
        "The next scheduled visit keeps its date; the later ones are re-spaced from it."
    )
    def change_round(self, args: ChangeRound) -> dict[str, Any]:
        c = self._account(args.account_id)
        self._round(c)
        extras = self._check_plan(c, args.frequency_weeks, args.extras)
        upcoming = self._rows(
            "SELECT * FROM visits WHERE account_id = ? AND date > ? AND status = 'scheduled' "
            "ORDER BY date",
            c["account_id"], self.today().isoformat(),
        )  # fmt: skip
        if not upcoming:
            raise ToolFailure("no visit is scheduled to re-space the round from")
        first = upcoming[0]["date"]
        self.db.execute(
            "DELETE FROM visits WHERE account_id = ? AND date > ? AND status = 'scheduled'",
            (c["account_id"], self.today().isoformat()),
        )
        self.db.execute(
            "UPDATE rounds SET frequency_weeks = ?, extras = ?, price_pence = ? "
            "WHERE account_id = ?",
            (args.frequency_weeks, ",".join(extras), args.price_pence, c["account_id"]),
        )
        self._schedule(c["account_id"], first, args.frequency_weeks, args.price_pence)
        later = _seed.round_dates(first, args.frequency_weeks)[1:2]
        return {"frequency_weeks": args.frequency_weeks, "extras": extras,
                "price": money(args.price_pence), "next_visit": first,
                "visit_after": later[0] if later else None}  # fmt: skip

    @tool(
        "Skip one scheduled visit; fee_pence (the late-skip fee the desk quoted) is added to "
        "the account as a charge."
    )
    def skip_visit(self, args: SkipVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.visit_id)
        self.db.execute("UPDATE visits SET status = 'skipped' WHERE visit_id = ?", (v["visit_id"],))
        if args.fee_pence:
            self.db.execute(
                "INSERT INTO charges VALUES (?,?,?,?,?,?,?)",
                (self._next_id("charges", "charge_id", "C", 8000), c["account_id"],
                 v["visit_id"], v["date"], "late_skip", args.fee_pence, "unpaid"),
            )  # fmt: skip
        return {"visit_id": v["visit_id"], "date": v["date"], "status": "skipped",
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Move one scheduled visit to another day. Refuses a Sunday, a day that is not in the "
        "future and a day whose round is full. The system does not check how far it moves."
    )
    def move_visit(self, args: MoveVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.visit_id)
        new = date.fromisoformat(args.new_date)
        if new <= self.today():
            raise ToolFailure("the new day must be in the future")
        if new.weekday() == 6:
            raise ToolFailure("there are no rounds on Sundays")
        if self._one("SELECT 1 AS x FROM full_days WHERE date = ?", args.new_date):
            raise ToolFailure(f"the round on {args.new_date} is full")
        self.db.execute("UPDATE visits SET date = ? WHERE visit_id = ?",
                        (args.new_date, v["visit_id"]))  # fmt: skip
        return {"visit_id": v["visit_id"], "old_date": v["date"], "date": args.new_date}

    @tool(
        "Pause the round: every scheduled visit from start to end (inclusive) is paused, not "
        "charged. Refuses a pause longer than 12 weeks. The system does not check how often "
        "the customer has paused: the desk must."
    )
    def pause_round(self, args: PauseRound) -> dict[str, Any]:
        c = self._account(args.account_id)
        self._round(c)
        start, end = date.fromisoformat(args.start), date.fromisoformat(args.end)
        if start <= self.today() or end < start:
            raise ToolFailure("the pause must start in the future and end after it starts")
        if (end - start).days + 1 > _seed.PAUSE_MAX_DAYS:
            raise ToolFailure("a pause can be at most 12 weeks")
        rows = self._rows(
            "SELECT visit_id, date FROM visits WHERE account_id = ? AND status = 'scheduled' "
            "AND date BETWEEN ? AND ? ORDER BY date",
            c["account_id"], args.start, args.end,
        )  # fmt: skip
        self.db.execute(
            "UPDATE visits SET status = 'paused' WHERE account_id = ? AND status = 'scheduled' "
            "AND date BETWEEN ? AND ?",
            (c["account_id"], args.start, args.end),
        )
        self.db.execute('INSERT INTO pauses (account_id, start, "end") VALUES (?,?,?)',
                        (c["account_id"], args.start, args.end))  # fmt: skip
        self.db.execute("UPDATE customers SET last_pause_on = ? WHERE account_id = ?",
                        (args.start, c["account_id"]))  # fmt: skip
        after = self._one(
            "SELECT date FROM visits WHERE account_id = ? AND status = 'scheduled' AND date > ? "
            "ORDER BY date LIMIT 1",
            c["account_id"], args.end,
        )  # fmt: skip
        return {"start": args.start, "end": args.end, "paused_visits": [r["date"] for r in rows],
                "next_visit": after["date"] if after else None}  # fmt: skip

    @tool(
        "Add a one-off job to a scheduled visit: gutter_clear (not for flats), "
        "conservatory_roof (only with a conservatory on record) or solar_panels."
    )
    def add_job(self, args: AddJob) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.visit_id)
        kind = args.kind.strip().lower()
        if kind not in _seed.JOB_NAMES:
            raise ToolFailure("kind must be gutter_clear, conservatory_roof or solar_panels")
        if kind == "gutter_clear" and c["property_type"] == "flat":
            raise ToolFailure("gutter clearing is not offered for flats")
        if kind == "conservatory_roof" and not c["conservatory"]:
            raise ToolFailure("no conservatory on record for this property")
        if self._one("SELECT 1 AS x FROM jobs WHERE visit_id = ? AND kind = ?", v["visit_id"],
                     kind):  # fmt: skip
            raise ToolFailure(f"{kind} is already booked for that visit")
        self.db.execute(
            "INSERT INTO jobs (account_id, visit_id, kind, price_pence) VALUES (?,?,?,?)",
            (c["account_id"], v["visit_id"], kind, args.price_pence),
        )
        return {"visit_id": v["visit_id"], "date": v["date"], "kind": kind,
                "price": money(args.price_pence)}  # fmt: skip

    # -- money -----------------------------------------------------------------------------
    @tool(
        "Take a payment for unpaid charges from the card on the account. Refuses a disputed or "
        "paid charge, a total that does not match, and a declined card."
    )
    def pay_charges(self, args: PayCharges) -> dict[str, Any]:
        c = self._account(args.account_id)
        total, ids = 0, [i.strip().upper() for i in args.charge_ids]
        if not ids:
            raise ToolFailure("no charges given")
        for charge_id in ids:
            ch = self._one("SELECT * FROM charges WHERE charge_id = ? AND account_id = ?",
                           charge_id, c["account_id"])  # fmt: skip
            if ch is None:
                raise ToolFailure(f"no charge {charge_id} on this account")
            if ch["status"] != "unpaid":
                raise ToolFailure(f"charge {charge_id} is {ch['status']}")
            total += ch["amount_pence"]
        if total != args.amount_pence:
            raise ToolFailure(f"the charges come to {money(total)}, not {money(args.amount_pence)}")
        if c["card_expiry"] < self.today().strftime("%Y-%m"):
            month = f"{c['card_expiry'][5:]}/{c['card_expiry'][:4]}"
            raise ToolFailure(f"card declined: the card ending {c['card_last4']} expired {month}")
        for charge_id in ids:
            self.db.execute("UPDATE charges SET status = 'paid' WHERE charge_id = ?", (charge_id,))
        self.db.execute(
            "INSERT INTO payments (account_id, charge_ids, amount_pence, card_last4, paid_at) "
            "VALUES (?,?,?,?,?)",
            (c["account_id"], ",".join(ids), total, c["card_last4"],
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        return {"paid": money(total), "charge_ids": ids, "card_last4": c["card_last4"]}

    @tool(
        "Dispute a charge: it is put on hold (no payment taken) while the office looks into it. "
        "The system does not check the 14-day window: the desk must."
    )
    def dispute_charge(self, args: DisputeCharge) -> dict[str, Any]:
        c = self._account(args.account_id)
        ch = self._one("SELECT * FROM charges WHERE charge_id = ? AND account_id = ?",
                       args.charge_id.strip().upper(), c["account_id"])  # fmt: skip
        if ch is None:
            raise ToolFailure(f"no charge {args.charge_id} on this account")
        if ch["status"] == "disputed":
            raise ToolFailure(f"charge {ch['charge_id']} is already disputed")
        self.db.execute("UPDATE charges SET status = 'disputed' WHERE charge_id = ?",
                        (ch["charge_id"],))  # fmt: skip
        self.db.execute("INSERT INTO disputes (charge_id, reason, raised_at) VALUES (?,?,?)",
                        (ch["charge_id"], args.reason.strip(),
                         self.now().strftime(_seed.STAMP)))  # fmt: skip
        return {"charge_id": ch["charge_id"], "visit_date": ch["visit_date"],
                "amount": money(ch["amount_pence"]), "status": "disputed"}  # fmt: skip

    # -- ending and access -----------------------------------------------------------------
    @tool(
        "Cancel the round: it ends on end_date; scheduled visits after it are cancelled, those "
        "up to it still happen. The system does not check the notice period: the desk must."
    )
    def cancel_round(self, args: CancelRound) -> dict[str, Any]:
        c = self._account(args.account_id)
        self._round(c)
        end = date.fromisoformat(args.end_date)
        if end < self.today():
            raise ToolFailure("the round can't end in the past")
        self.db.execute("UPDATE rounds SET status = 'ending', ends_on = ? WHERE account_id = ?",
                        (args.end_date, c["account_id"]))  # fmt: skip
        gone = self._rows(
            "SELECT date FROM visits WHERE account_id = ? AND status = 'scheduled' AND date > ? "
            "ORDER BY date",
            c["account_id"], args.end_date,
        )  # fmt: skip
        self.db.execute(
            "UPDATE visits SET status = 'cancelled' WHERE account_id = ? AND "
            "status = 'scheduled' AND date > ?",
            (c["account_id"], args.end_date),
        )
        kept = self._rows(
            "SELECT date FROM visits WHERE account_id = ? AND status = 'scheduled' AND date > ? "
            "ORDER BY date",
            c["account_id"], self.today().isoformat(),
        )  # fmt: skip
        return {"ends_on": args.end_date, "visits_still_to_come": [r["date"] for r in kept],
                "visits_cancelled": len(gone)}  # fmt: skip

    @tool("Set the side-gate or key-safe code the cleaners use (never read a code out).")
    def set_access_code(self, args: AccessCode) -> dict[str, Any]:
        c = self._account(args.account_id)
        code = args.access_code.strip()
        if not re.fullmatch(r"\d{4,6}", code):
            raise ToolFailure("an access code is 4 to 6 digits")
        self.db.execute("UPDATE customers SET access_code = ? WHERE account_id = ?",
                        (code, c["account_id"]))  # fmt: skip
        return {"access_code_updated": True}


def days_between(first: str, second: str) -> int:
    return (date.fromisoformat(second) - date.fromisoformat(first)).days


def plus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()


def make_environment() -> WindowcleanEnvironment:
    """A fresh booking system, from the seed data."""
    return WindowcleanEnvironment()
