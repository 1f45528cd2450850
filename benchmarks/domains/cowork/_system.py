"""Hive Works' member system base: tool arguments, tables, clock, helpers and the reads."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.cowork import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_member(text: str) -> str:
    return f"HW{re.sub(r'[^0-9]', '', text)}"


def norm_booking(text: str) -> str:
    return f"BK{re.sub(r'[^0-9]', '', text)}"


class Member(BaseModel):
    member_id: str = Field(description="The member number, e.g. HW1042")


class VerifyMember(Member):
    email: str = Field(description="The email address on the member's account")


class BookingRef(BaseModel):
    booking_id: str = Field(description="The booking number, e.g. BK2201")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class BookRoom(Member):
    room_id: str = Field(description="nectar, bee, honeycomb or hall")
    day: str = Field(description="YYYY-MM-DD")
    start: str = Field(description="Start time on the hour, HH:00 (08:00 to 19:00)")
    hours: int = Field(description="Whole hours, 1 to 8")
    attendees: int | None = Field(default=None, description="How many people, if known")


class MoveBooking(Member):
    booking_id: str = Field(description="The booking to move, e.g. BK2244")
    room_id: str = Field(description="The room after the move (the same one to keep it)")
    day: str = Field(description="YYYY-MM-DD")
    start: str = Field(description="HH:00")


class CancelBooking(Member):
    booking_id: str = Field(description="The booking to cancel")
    return_credit: bool = Field(
        description="True when policy gives the credit hours and the payment back"
    )


class GuestPasses(Member):
    day: str = Field(description="YYYY-MM-DD")
    names: list[str] = Field(description="Each guest's full name")


class DayPass(Member):
    name: str = Field(description="The full name of the person the day pass is for")
    day: str = Field(description="YYYY-MM-DD")


class ChangePlan(Member):
    plan: str = Field(description="flex, desk (Fixed Desk) or office (Private Office)")
    upgrade_charge_pence: int = Field(
        description="For an upgrade, the pro-rata charge for the rest of this month; 0 otherwise"
    )


class ReturnLocker(Member):
    key_lost: bool = Field(description="True when the member cannot hand the key back")


class DisputeLine(Member):
    invoice_id: str = Field(description="e.g. INV-2612-1009")
    line_id: int = Field(description="The invoice line disputed")
    reason: str = Field(description="Why the member disputes it, in their words")


class PauseMembership(Member):
    start_month: str = Field(description="The first day of the pause, YYYY-MM-01")
    months: int = Field(description="1 to 3 whole months")


class UpdateEmail(Member):
    email: str = Field(description="The new email address")


class CoworkSystem(SqliteEnvironment):
    """The system's tables, clock, helpers and read tools; the writes are in `_env.py`."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "member_id": ["member number", "membership number"],
        "email": ["email address on your account", "email on your account", "email on file"],
        "new_email": ["new email", "new address"],
        "room": ["which room"],
        "day": ["which day", "what date", "which date"],
        "start": ["what time", "start time", "which time"],
        "hours": ["how long", "how many hours"],
        "attendees": ["how many people"],
        "guest_names": ["guest's name", "guests' names", "name of your guest", "full name"],
        "plan": ["which plan"],
        "months": ["how many months"],
        "start_month": ["which month", "from when"],
        "key_lost": ["key"],
        "invoice": ["which invoice"],
        "line": ["which line", "which charge"],
        "booking_id": ["which booking", "booking number"],
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

    def _member(self, member_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM members WHERE member_id = ?", norm_member(member_id))
        if found is None:
            raise ToolFailure(f"no member {member_id}")
        return found

    def _room(self, room_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM rooms WHERE room_id = ?", room_id.strip().lower())
        if found is None:
            raise ToolFailure("room_id must be nectar, bee, honeycomb or hall")
        return found

    def _own_booking(self, member: dict[str, Any], booking_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM bookings WHERE booking_id = ?", norm_booking(booking_id))
        if found is None or found["member_id"] != member["member_id"]:
            raise ToolFailure(f"no booking {booking_id} on member {member['member_id']}'s account")
        if found["status"] != "confirmed":
            raise ToolFailure(f"booking {found['booking_id']} is {found['status']}")
        return found

    @staticmethod
    def _day(text: str) -> date:
        try:
            return date.fromisoformat(text.strip())
        except ValueError as exc:
            raise ToolFailure(f"{text!r} is not a date (YYYY-MM-DD)") from exc

    @staticmethod
    def _hour(text: str) -> int:
        m = re.fullmatch(r"\s*(\d{1,2}):00\s*", text)
        if not m:
            raise ToolFailure("bookings start on the hour: start must be HH:00")
        return int(m.group(1))

    def _starts_at(self, booking: dict[str, Any]) -> datetime:
        day = date.fromisoformat(booking["day"])
        hour = int(booking["start"][:2])
        return datetime(day.year, day.month, day.day, hour, tzinfo=_seed.UK)

    def hours_to_go(self, booking: dict[str, Any]) -> float:
        return (self._starts_at(booking) - self.now()).total_seconds() / 3600

    def _check_slot(
        self, room: dict[str, Any], day: date, hour: int, hours: int, skip: str | None = None
    ) -> None:
        if hours < 1 or hours > _seed.MAX_HOURS:
            raise ToolFailure(f"a booking is 1 to {_seed.MAX_HOURS} whole hours")
        if hour < _seed.OPEN_HOUR or hour + hours > _seed.CLOSE_HOUR:
            raise ToolFailure("rooms can be booked between 08:00 and 20:00 only")
        start = datetime(day.year, day.month, day.day, hour, tzinfo=_seed.UK)
        if start <= self.now():
            raise ToolFailure("that time has already passed")
        for b in self._rows(
            "SELECT * FROM bookings WHERE room_id = ? AND day = ? AND status = 'confirmed'",
            room["room_id"],
            day.isoformat(),
        ):
            if b["booking_id"] == skip:
                continue
            s = int(b["start"][:2])
            if s < hour + hours and hour < s + b["hours"]:
                raise ToolFailure(
                    f"{room['name']} is already booked from {b['start']} to "
                    f"{s + b['hours']:02d}:00 on {day.isoformat()}"
                )

    def _charge(self, member: dict[str, Any], kind: str, pence: int, ref: str | None) -> None:
        if not pence:
            return
        self.db.execute(
            "INSERT INTO charges (member_id, kind, amount_pence, ref, card_last4, created_at) "
            "VALUES (?,?,?,?,?,?)",
            (
                member["member_id"],
                kind,
                pence,
                ref,
                member["card_last4"],
                self.now().strftime(_seed.STAMP),
            ),
        )

    def booking_view(self, b: dict[str, Any]) -> dict[str, Any]:
        room = self._room(b["room_id"])
        end = int(b["start"][:2]) + b["hours"]
        return {
            "booking_id": b["booking_id"],
            "member_id": b["member_id"],
            "room_id": b["room_id"],
            "room": room["name"],
            "capacity": room["capacity"],
            "rate_pence": room["rate_pence"],
            "day": b["day"],
            "start": b["start"],
            "end": f"{end:02d}:00",
            "hours": b["hours"],
            "attendees": b["attendees"],
            "credit_hours": b["credit_hours"],
            "charged": money(b["charged_pence"]),
            "charged_pence": b["charged_pence"],
            "status": b["status"],
            "hours_to_start": round(self.hours_to_go(b), 2),
        }

    def view(self, member_id: str) -> dict[str, Any]:
        m = self._member(member_id)
        plan = self._one("SELECT * FROM plans WHERE plan = ?", m["plan"]) or {}
        today = self.now().date().isoformat()
        bookings = self._rows(
            "SELECT * FROM bookings WHERE member_id = ? AND status = 'confirmed' AND day >= ? "
            "ORDER BY day, start",
            m["member_id"],
            today,
        )
        passes = self._rows(
            "SELECT kind, name, day, price_pence FROM passes WHERE member_id = ? AND day >= ? "
            "ORDER BY day, pass_id",
            m["member_id"],
            today,
        )
        locker = self._one("SELECT * FROM lockers WHERE member_id = ?", m["member_id"])
        invoices = []
        for inv in self._rows(
            "SELECT * FROM invoices WHERE member_id = ? ORDER BY issued DESC", m["member_id"]
        ):
            lines = self._rows(
                "SELECT line_id, description, amount_pence, disputed FROM invoice_lines "
                "WHERE invoice_id = ? ORDER BY line_id",
                inv["invoice_id"],
            )
            invoices.append({**inv, "total": money(inv["total_pence"]), "lines": lines})
        return {
            "member_id": m["member_id"],
            "name": m["name"],
            "email": m["email"],
            "card_last4": m["card_last4"],
            "plan": m["plan"],
            "plan_name": plan.get("name"),
            "monthly_pence": plan.get("monthly_pence"),
            "pending_plan": m["pending_plan"],
            "credit_hours": m["credit_hours"],
            "pause_start": m["pause_start"],
            "pause_months": m["pause_months"],
            "last_pause_start": m["last_pause_start"],
            "locker": locker["locker_id"] if locker else None,
            "locker_deposit_pence": locker["deposit_pence"] if locker else 0,
            "bookings": [self.booking_view(b) for b in bookings],
            "passes": passes,
            "invoices": invoices,
        }

    # -- reading ---------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the member number and the email address on the account "
        "must match. Returns the member's account."
    )
    def verify_member(self, args: VerifyMember) -> dict[str, Any]:
        found = self._one(
            "SELECT member_id, email FROM members WHERE member_id = ?", norm_member(args.member_id)
        )
        if found is None or found["email"].lower() != args.email.strip().lower():
            raise ToolFailure("verification failed: no member matches that member number and email")
        return self.view(found["member_id"])

    @tool(
        "Read a member's account by member number alone (staff view). Only for a member "
        "verified with verify_member."
    )
    def get_member(self, args: Member) -> dict[str, Any]:
        return self.view(args.member_id)

    @tool(
        "Read any booking by its number (staff view: it does not check whose booking it is). "
        "Policy: a member may only be told about their own bookings."
    )
    def get_booking(self, args: BookingRef) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM bookings WHERE booking_id = ?", norm_booking(args.booking_id)
        )
        if found is None:
            raise ToolFailure(f"no booking {args.booking_id}")
        view = self.booking_view(found)
        owner = self._member(found["member_id"])
        return {**view, "member_name": owner["name"], "member_email": owner["email"]}

    @tool("The rooms, with capacity and hourly price, and the hours each is booked on a day.")
    def room_schedule(self, args: Day) -> dict[str, Any]:
        day = self._day(args.day)
        rooms = []
        for r in self._rows("SELECT * FROM rooms ORDER BY capacity"):
            taken = [
                f"{b['start']}-{int(b['start'][:2]) + b['hours']:02d}:00"
                for b in self._rows(
                    "SELECT * FROM bookings WHERE room_id = ? AND day = ? AND "
                    "status = 'confirmed' ORDER BY start",
                    r["room_id"],
                    day.isoformat(),
                )
            ]
            rooms.append({**r, "rate": money(r["rate_pence"]), "booked": taken})
        return {"day": day.isoformat(), "rooms": rooms}

    def next_billing(self) -> date:
        today = self.now().date()
        first = today.replace(day=1)
        return (first + timedelta(days=32)).replace(day=1)


__all__ = ["CoworkSystem", "money", "norm_booking", "norm_member"]
