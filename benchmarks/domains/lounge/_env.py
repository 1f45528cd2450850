"""The lounges' booking system the desk works through: `LoungeEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.lounge import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

TIME = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_account(text: str) -> str:
    return "SR" + re.sub(r"\D", "", text)


def norm_visit(text: str) -> str:
    return "LV" + re.sub(r"\D", "", text)


def ends_at(arrival_time: str) -> str:
    hour, minute = arrival_time.split(":")
    return f"{(int(hour) + _seed.STAY_HOURS) % 24:02d}:{minute}"


def last_spa_slot(arrival_time: str) -> str:
    """The last start of a 30-minute treatment inside a three-hour visit."""
    hour, minute = (int(x) for x in arrival_time.split(":"))
    end = hour * 60 + minute + _seed.STAY_HOURS * 60 - 30
    return f"{end // 60 % 24:02d}:{end % 60:02d}"


class Account(BaseModel):
    account_id: str = Field(description="The account number, e.g. SR4001")


class Verify(Account):
    surname: str = Field(description="The surname on the account")


class FindLounges(BaseModel):
    airport: str = Field(description="LHR, LGW, MAN or EDI")
    terminal: str | None = Field(default=None, description="e.g. T5, North, Main")
    day: str | None = Field(default=None, description="YYYY-MM-DD, to see full hours")
    arrival_time: str | None = Field(default=None, description="HH:MM, to see if it is full")


class BookingRef(BaseModel):
    booking_id: str = Field(description="The visit's booking reference, e.g. LV7005")


class VisitRef(Account):
    booking_id: str = Field(description="The visit's booking reference, e.g. LV7005")


class BookVisit(Account):
    lounge_id: str = Field(description="e.g. LHR-T3")
    day: str = Field(description="YYYY-MM-DD")
    arrival_time: str = Field(description="HH:MM; the visit lasts three hours")
    adults: int = Field(description="Guests aged 12 and over, the lead included")
    children: int = Field(default=0, description="Children aged 2-11")
    price_pence: int = Field(description="The entry price the desk quoted, paid now")
    guest_passes: int = Field(default=0, description="Member's free guest passes used")


class AmendVisit(VisitRef):
    day: str = Field(description="The new day, YYYY-MM-DD (may be the same)")
    arrival_time: str = Field(description="The new arrival time, HH:MM")
    fee_pence: int = Field(description="The amendment fee the desk quoted (0 when 24h+ ahead)")


class LeadName(VisitRef):
    lead_name: str = Field(description="The new lead guest's full name")


class Upgrade(VisitRef):
    price_pence: int = Field(description="The Signature supplement the desk quoted, paid now")


class AddExtra(VisitRef):
    kind: str = Field(description="fast_track or spa")
    slot_time: str | None = Field(default=None, description="spa: HH:MM within the visit")
    price_pence: int = Field(description="The price the desk quoted, paid now")


class CancelVisit(VisitRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 if nothing back)")


class LoungeEnvironment(SqliteEnvironment):
    """Skyrest Lounges: customers, lounges, full hours, visits, extras and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "account_id": ["account number"],
        "surname": ["surname", "last name"],
        "lounge": ["which airport", "terminal"],
        "day": ["which day", "what date"],
        "arrival_time": ["what time", "arrive"],
        "new_time": ["instead of", "arrive instead"],
        "party": ["how many", "adults", "children"],
        "new_name": ["whose name", "new name", "full name"],
        "spa_time": ["treatment", "spa"],
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

    def _visit(self, c: dict[str, Any], booking_id: str) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE visit_id = ?", norm_visit(booking_id))
        if v is None or v["account_id"] != c["account_id"]:
            raise ToolFailure(f"no booking {booking_id} on this account")
        if v["status"] != "confirmed":
            raise ToolFailure(f"booking {v['visit_id']} is {v['status']}")
        if self.hours_to(v["day"], v["arrival_time"]) <= 0:
            raise ToolFailure(f"booking {v['visit_id']} has already started")
        return v

    def _lounge(self, lounge_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM lounges WHERE lounge_id = ?", lounge_id.strip().upper())
        if found is None:
            raise ToolFailure(f"no lounge {lounge_id}")
        return found

    def _charge(self, c: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (c["account_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _check_slot(self, lounge_id: str, day: str, arrival_time: str) -> None:
        if not TIME.fullmatch(arrival_time):
            raise ToolFailure("arrival_time must be HH:MM")
        if not _seed.FIRST_ARRIVAL <= arrival_time <= _seed.LAST_ARRIVAL:
            raise ToolFailure("arrivals are taken from 04:00 to 21:00")
        if self.hours_to(day, arrival_time) <= 0:
            raise ToolFailure("the arrival must be in the future")
        if self.is_full(lounge_id, day, arrival_time):
            raise ToolFailure(f"{self._lounge(lounge_id)['name']} is full at {arrival_time} "
                              f"on {day}")  # fmt: skip

    def is_full(self, lounge_id: str, day: str, arrival_time: str) -> bool:
        return bool(self._one(
            "SELECT 1 AS x FROM full_hours WHERE lounge_id = ? AND day = ? AND hour = ?",
            lounge_id, day, int(arrival_time[:2]),
        ))  # fmt: skip

    def hours_to(self, day: str, arrival_time: str) -> float:
        hour, minute = (int(x) for x in arrival_time.split(":"))
        when = datetime.combine(date.fromisoformat(day), time(hour, minute), tzinfo=_seed.UK)
        return (when - self.now()) / timedelta(hours=1)

    def visit_view(self, v: dict[str, Any]) -> dict[str, Any]:
        lounge = self._lounge(v["lounge_id"])
        return {
            **v,
            "lounge": lounge["name"], "airport": lounge["airport"],
            "terminal": lounge["terminal"], "tier": lounge["tier"], "spa": lounge["spa"],
            "ends_at": ends_at(v["arrival_time"]),
            "hours_to_arrival": round(self.hours_to(v["day"], v["arrival_time"]), 2),
            "extras": self._rows("SELECT * FROM extras WHERE visit_id = ?", v["visit_id"]),
        }  # fmt: skip

    def view(self, account_id: str) -> dict[str, Any]:
        """The account as staff see it: membership, passes, upcoming confirmed visits."""
        c = self._account(account_id)
        visits = [
            self.visit_view(v)
            for v in self._rows("SELECT * FROM visits WHERE account_id = ? AND status = "
                                "'confirmed' ORDER BY day, arrival_time", c["account_id"])
        ]  # fmt: skip
        return {**c, "visits": [v for v in visits if v["hours_to_arrival"] > 0]}

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the account number and the surname on that account must "
        "match. Returns the account with its upcoming visits."
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

    @tool("Read an account (staff view, after verify_customer only).")
    def get_account(self, args: Account) -> dict[str, Any]:
        return self.view(args.account_id)

    @tool(
        "The lounges at an airport (and terminal), with whether each is full at a day and "
        "arrival time when given. Prices: standard entry £35.00 an adult, £18.00 a child 2-11; "
        "Signature lounges add £25.00 an adult and £12.00 a child."
    )
    def find_lounges(self, args: FindLounges) -> list[dict[str, Any]]:
        sql, params = "SELECT * FROM lounges WHERE airport = ?", [args.airport.strip().upper()]
        if args.terminal:
            sql += " AND lower(terminal) = ?"
            params.append(args.terminal.strip().lower())
        lounges = self._rows(sql, *params)
        if not lounges:
            raise ToolFailure(f"no Skyrest lounge at {args.airport} {args.terminal or ''}".strip())
        for lounge in lounges:
            if args.day and args.arrival_time and TIME.fullmatch(args.arrival_time):
                lounge["full"] = self.is_full(lounge["lounge_id"], args.day, args.arrival_time)
        return lounges

    @tool(
        "Read one booking by its reference (staff view: any account's booking). Policy: its "
        "details are for its own account holder only."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        v = self._one("SELECT * FROM visits WHERE visit_id = ?", norm_visit(args.booking_id))
        if v is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        return self.visit_view(v)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a lounge visit (three hours from the arrival time) and take price_pence from the "
        "card. Refuses a full hour, times outside 04:00-21:00 and more guest passes than the "
        "member has left. The system does not check the price: the desk must."
    )
    def book_visit(self, args: BookVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        lounge = self._lounge(args.lounge_id)
        date.fromisoformat(args.day)
        self._check_slot(lounge["lounge_id"], args.day, args.arrival_time)
        if args.adults < 1 or args.children < 0:
            raise ToolFailure("a visit needs at least one adult")
        member = c["membership"] != "none"
        if args.guest_passes and (not member or args.guest_passes > c["guest_passes"]):
            raise ToolFailure(f"only {c['guest_passes']} free guest passes left on this account")
        last = self.db.execute("SELECT MAX(CAST(substr(visit_id, 3) AS INTEGER)) FROM visits")
        visit_id = f"LV{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO visits (visit_id, account_id, lounge_id, day, arrival_time, adults, "
            "children, lead_name, member_place, passes_used, price_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (visit_id, c["account_id"], lounge["lounge_id"], args.day, args.arrival_time,
             args.adults, args.children, c["name"], int(member), args.guest_passes,
             args.price_pence),
        )  # fmt: skip
        if args.guest_passes:
            self.db.execute(
                "UPDATE customers SET guest_passes = guest_passes - ? WHERE account_id = ?",
                (args.guest_passes, c["account_id"]),
            )
        self._charge(c, "payment", args.price_pence, visit_id)
        return {"booking_id": visit_id, "lounge": lounge["name"], "day": args.day,
                "arrival_time": args.arrival_time, "ends_at": ends_at(args.arrival_time),
                "adults": args.adults, "children": args.children,
                "paid": money(args.price_pence), "guest_passes_used": args.guest_passes,
                "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Move a visit to a new day and/or arrival time at the same lounge; fee_pence (quoted by "
        "the desk) is charged. Refuses a full hour and a visit that has started."
    )
    def amend_visit(self, args: AmendVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.booking_id)
        date.fromisoformat(args.day)
        if (args.day, args.arrival_time) == (v["day"], v["arrival_time"]):
            raise ToolFailure("that is the visit's day and time already")
        self._check_slot(v["lounge_id"], args.day, args.arrival_time)
        self.db.execute(
            "UPDATE visits SET day = ?, arrival_time = ? WHERE visit_id = ?",
            (args.day, args.arrival_time, v["visit_id"]),
        )
        self._charge(c, "amendment_fee", args.fee_pence, v["visit_id"])
        return {"booking_id": v["visit_id"], "day": args.day, "arrival_time": args.arrival_time,
                "ends_at": ends_at(args.arrival_time), "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Change the lead guest's name on a visit. The system does not check whether the lead "
        "holds a member's free place: the desk must."
    )
    def change_lead_name(self, args: LeadName) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.booking_id)
        name = " ".join(args.lead_name.split())
        if len(name.split()) < 2:
            raise ToolFailure("the lead name must be a full name")
        self.db.execute("UPDATE visits SET lead_name = ? WHERE visit_id = ?",
                        (name, v["visit_id"]))  # fmt: skip
        return {"booking_id": v["visit_id"], "lead_name": name}

    @tool(
        "Upgrade a visit to the Signature lounge of the same terminal; price_pence (the "
        "supplement the desk quoted) is charged. Refuses when there is no Signature lounge "
        "there or it is full at the visit's arrival hour."
    )
    def upgrade_visit(self, args: Upgrade) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.booking_id)
        here = self._lounge(v["lounge_id"])
        if here["tier"] == "signature":
            raise ToolFailure("this visit is already in a Signature lounge")
        sig = self._one("SELECT * FROM lounges WHERE airport = ? AND terminal = ? AND tier = "
                        "'signature'", here["airport"], here["terminal"])  # fmt: skip
        if sig is None:
            raise ToolFailure(f"there is no Signature lounge at {here['name'][8:]}")
        if self.is_full(sig["lounge_id"], v["day"], v["arrival_time"]):
            raise ToolFailure(f"{sig['name']} is full at {v['arrival_time']} on {v['day']}")
        self.db.execute(
            "UPDATE visits SET lounge_id = ?, price_pence = price_pence + ? WHERE visit_id = ?",
            (sig["lounge_id"], args.price_pence, v["visit_id"]),
        )
        self._charge(c, "upgrade", args.price_pence, v["visit_id"])
        return {"booking_id": v["visit_id"], "lounge": sig["name"],
                "charged": money(args.price_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Add an extra to a visit: fast_track (security fast track, for the whole party) or spa "
        "(one 30-minute treatment at slot_time; Signature lounges only, within the visit)."
    )
    def add_extra(self, args: AddExtra) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.booking_id)
        lounge = self._lounge(v["lounge_id"])
        kind = args.kind.strip().lower().replace(" ", "_")
        if kind not in {"fast_track", "spa"}:
            raise ToolFailure("kind must be fast_track or spa")
        people, slot = v["adults"] + v["children"], None
        if kind == "fast_track" and self._one(
            "SELECT 1 AS x FROM extras WHERE visit_id = ? AND kind = 'fast_track'", v["visit_id"]
        ):
            raise ToolFailure("fast track is already on this visit")
        if kind == "spa":
            if not lounge["spa"]:
                raise ToolFailure(f"{lounge['name']} has no spa: treatments are in Signature "
                                  "lounges only")  # fmt: skip
            slot = args.slot_time or ""
            last = last_spa_slot(v["arrival_time"])
            if not TIME.fullmatch(slot) or not v["arrival_time"] <= slot <= last:
                raise ToolFailure(f"a spa slot must start between {v['arrival_time']} and "
                                  f"{last}, within the visit")  # fmt: skip
            people = 1
        self.db.execute(
            "INSERT INTO extras (visit_id, kind, people, slot_time, price_pence) "
            "VALUES (?,?,?,?,?)",
            (v["visit_id"], kind, people, slot, args.price_pence),
        )
        self._charge(c, "extra", args.price_pence, v["visit_id"])
        return {"booking_id": v["visit_id"], "kind": kind, "people": people, "slot_time": slot,
                "charged": money(args.price_pence), "card_last4": c["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a visit; refund_pence (quoted by the desk) goes back to the card. Guest passes "
        "come back on their own when it is 24 hours or more before arrival. The system does not "
        "check the refund: the desk must."
    )
    def cancel_visit(self, args: CancelVisit) -> dict[str, Any]:
        c = self._account(args.account_id)
        v = self._visit(c, args.booking_id)
        self.db.execute("UPDATE visits SET status = 'cancelled' WHERE visit_id = ?",
                        (v["visit_id"],))  # fmt: skip
        back = 0
        if v["passes_used"] and self.hours_to(v["day"], v["arrival_time"]) >= _seed.FREE_HOURS:
            back = v["passes_used"]
            self.db.execute(
                "UPDATE customers SET guest_passes = guest_passes + ? WHERE account_id = ?",
                (back, c["account_id"]),
            )
        self._charge(c, "refund", args.refund_pence, v["visit_id"])
        return {"booking_id": v["visit_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "guest_passes_back": back,
                "card_last4": c["card_last4"]}  # fmt: skip


def make_environment() -> LoungeEnvironment:
    """A fresh booking system, from the seed data."""
    return LoungeEnvironment()
