"""The member system the desk's agent works through: `CoworkEnvironment` and its write tools."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.cowork import _seed
from benchmarks.domains.cowork._system import (
    BookRoom,
    CancelBooking,
    ChangePlan,
    CoworkSystem,
    DayPass,
    DisputeLine,
    GuestPasses,
    Member,
    MoveBooking,
    PauseMembership,
    ReturnLocker,
    UpdateEmail,
    money,
    norm_booking,
    norm_member,
)
from vistasim.env import ToolFailure, tool


def _full_name(name: str) -> str:
    clean = " ".join(name.split())
    if len(clean.split()) < 2:
        raise ToolFailure(f"{name!r}: a full name (first and last) is needed")
    return clean


class CoworkEnvironment(CoworkSystem):
    """Hive Works Coworking: members, rooms, bookings, passes, lockers, invoices, charges."""

    def _future_day(self, text: str) -> date:
        day = self._day(text)
        if day < self.now().date():
            raise ToolFailure(f"{day.isoformat()} has already passed")
        return day

    # -- meeting rooms ---------------------------------------------------------------------
    @tool(
        "Book a meeting room. Hours come from the member's room credit first; the rest are "
        "charged at the room's hourly rate to the card on file. Refuses a room already booked "
        "at that time, or too small for the attendees."
    )
    def book_room(self, args: BookRoom) -> dict[str, Any]:
        m = self._member(args.member_id)
        room = self._room(args.room_id)
        day = self._future_day(args.day)
        hour = self._hour(args.start)
        if args.attendees is not None and args.attendees > room["capacity"]:
            raise ToolFailure(f"{room['name']} seats {room['capacity']}, not {args.attendees}")
        self._check_slot(room, day, hour, args.hours)
        credit = min(args.hours, m["credit_hours"])
        charged = (args.hours - credit) * room["rate_pence"]
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        booking_id = f"BK{(last.fetchone()[0] or 2200) + 1}"
        self.db.execute(
            "INSERT INTO bookings (booking_id, member_id, room_id, day, start, hours, attendees, "
            "credit_hours, charged_pence) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                booking_id,
                m["member_id"],
                room["room_id"],
                day.isoformat(),
                f"{hour:02d}:00",
                args.hours,
                args.attendees,
                credit,
                charged,
            ),
        )
        self.db.execute(
            "UPDATE members SET credit_hours = credit_hours - ? WHERE member_id = ?",
            (credit, m["member_id"]),
        )
        self._charge(m, "room_hours", charged, booking_id)
        return {
            "booking_id": booking_id,
            "room": room["name"],
            "day": day.isoformat(),
            "start": f"{hour:02d}:00",
            "end": f"{hour + args.hours:02d}:00",
            "hours": args.hours,
            "credit_hours_used": credit,
            "credit_hours_left": m["credit_hours"] - credit,
            "charged": money(charged),
            "card_last4": m["card_last4"],
        }

    @tool(
        "Move a member's booking to another time, day or room, keeping its length. Refused "
        "less than 24 hours before the booking starts. Credit hours stay with the booking; "
        "charged hours are re-priced at the new room's rate (the difference charged or refunded)."
    )
    def move_booking(self, args: MoveBooking) -> dict[str, Any]:
        m = self._member(args.member_id)
        b = self._own_booking(m, args.booking_id)
        if self.hours_to_go(b) < _seed.LATE_HOURS:
            raise ToolFailure("the booking starts in less than 24 hours: it can't be moved")
        room = self._room(args.room_id)
        day = self._future_day(args.day)
        hour = self._hour(args.start)
        if (room["room_id"], day.isoformat(), f"{hour:02d}:00") == (
            b["room_id"],
            b["day"],
            b["start"],
        ):
            raise ToolFailure("that is the booking's current room and time")
        if b["attendees"] and b["attendees"] > room["capacity"]:
            raise ToolFailure(f"{room['name']} seats {room['capacity']}, not {b['attendees']}")
        self._check_slot(room, day, hour, b["hours"], skip=b["booking_id"])
        charged = (b["hours"] - b["credit_hours"]) * room["rate_pence"]
        diff = charged - b["charged_pence"]
        self.db.execute(
            "UPDATE bookings SET room_id = ?, day = ?, start = ?, charged_pence = ? "
            "WHERE booking_id = ?",
            (room["room_id"], day.isoformat(), f"{hour:02d}:00", charged, b["booking_id"]),
        )
        self._charge(m, "room_difference", diff, b["booking_id"])
        return {
            "booking_id": b["booking_id"],
            "room": room["name"],
            "day": day.isoformat(),
            "start": f"{hour:02d}:00",
            "end": f"{hour + b['hours']:02d}:00",
            "difference": money(diff),
            "card_last4": m["card_last4"],
        }

    @tool(
        "Cancel a member's booking before it starts. With return_credit the credit hours go "
        "back to the member and the charged hours are refunded to the card. The system does "
        "not check the 24-hour rule: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        m = self._member(args.member_id)
        b = self._own_booking(m, args.booking_id)
        if self.hours_to_go(b) <= 0:
            raise ToolFailure(f"booking {b['booking_id']} has already started")
        credit = b["credit_hours"] if args.return_credit else 0
        refund = b["charged_pence"] if args.return_credit else 0
        self.db.execute(
            "UPDATE bookings SET status = 'cancelled' WHERE booking_id = ?", (b["booking_id"],)
        )
        self.db.execute(
            "UPDATE members SET credit_hours = credit_hours + ? WHERE member_id = ?",
            (credit, m["member_id"]),
        )
        self._charge(m, "room_refund", -refund, b["booking_id"])
        return {
            "booking_id": b["booking_id"],
            "status": "cancelled",
            "credit_hours_returned": credit,
            "refund": money(refund),
            "card_last4": m["card_last4"],
        }

    # -- passes ----------------------------------------------------------------------------
    @tool(
        "Register guests for a day: a guest pass each, £10.00 a guest, charged to the card. "
        "The system does not check the limit of guests a day: the desk must."
    )
    def add_guest_passes(self, args: GuestPasses) -> dict[str, Any]:
        m = self._member(args.member_id)
        day = self._future_day(args.day)
        if not args.names:
            raise ToolFailure("at least one guest's name is needed")
        names = [_full_name(n) for n in args.names]
        for name in names:
            self.db.execute(
                "INSERT INTO passes (member_id, kind, name, day, price_pence) VALUES (?,?,?,?,?)",
                (m["member_id"], "guest", name, day.isoformat(), _seed.GUEST_PENCE),
            )
        price = _seed.GUEST_PENCE * len(names)
        self._charge(m, "guest_pass", price, day.isoformat())
        total = self.db.execute(
            "SELECT COUNT(*) FROM passes WHERE member_id = ? AND kind = 'guest' AND day = ?",
            (m["member_id"], day.isoformat()),
        ).fetchone()[0]
        return {
            "day": day.isoformat(),
            "guests": names,
            "guests_that_day": total,
            "charged": money(price),
            "card_last4": m["card_last4"],
        }

    @tool("Buy a day pass (a hot desk for the day) for a non-member, £25.00, charged to the card.")
    def buy_day_pass(self, args: DayPass) -> dict[str, Any]:
        m = self._member(args.member_id)
        day = self._future_day(args.day)
        name = _full_name(args.name)
        self.db.execute(
            "INSERT INTO passes (member_id, kind, name, day, price_pence) VALUES (?,?,?,?,?)",
            (m["member_id"], "day", name, day.isoformat(), _seed.DAY_PASS_PENCE),
        )
        self._charge(m, "day_pass", _seed.DAY_PASS_PENCE, day.isoformat())
        return {
            "name": name,
            "day": day.isoformat(),
            "charged": money(_seed.DAY_PASS_PENCE),
            "card_last4": m["card_last4"],
        }

    # -- membership ------------------------------------------------------------------------
    @tool(
        "Change the member's plan. An upgrade takes effect now: the plan and the extra room "
        "credit at once, and upgrade_charge_pence (the pro-rata charge the desk quoted) to the "
        "card. A downgrade is booked for the next billing date and charges nothing now."
    )
    def change_plan(self, args: ChangePlan) -> dict[str, Any]:
        m = self._member(args.member_id)
        new = self._one("SELECT * FROM plans WHERE plan = ?", args.plan.strip().lower())
        if new is None:
            raise ToolFailure("plan must be flex, desk or office")
        old = self._one("SELECT * FROM plans WHERE plan = ?", m["plan"]) or {}
        if new["plan"] == m["plan"]:
            raise ToolFailure(f"the member is already on {new['name']}")
        if m["pause_start"]:
            raise ToolFailure("the plan can't be changed while a pause is booked")
        if new["monthly_pence"] > old["monthly_pence"]:
            if args.upgrade_charge_pence < 0:
                raise ToolFailure("upgrade_charge_pence can't be negative")
            extra = new["credit_hours"] - old["credit_hours"]
            self.db.execute(
                "UPDATE members SET plan = ?, pending_plan = NULL, "
                "credit_hours = credit_hours + ? WHERE member_id = ?",
                (new["plan"], extra, m["member_id"]),
            )
            self._charge(m, "plan_upgrade", args.upgrade_charge_pence, new["plan"])
            return {
                "plan": new["name"],
                "effective": self.now().date().isoformat(),
                "charged": money(args.upgrade_charge_pence),
                "credit_hours_added": extra,
                "card_last4": m["card_last4"],
            }
        if args.upgrade_charge_pence:
            raise ToolFailure("a downgrade charges nothing now")
        self.db.execute(
            "UPDATE members SET pending_plan = ? WHERE member_id = ?",
            (new["plan"], m["member_id"]),
        )
        return {
            "plan": new["name"],
            "effective": self.next_billing().isoformat(),
            "charged": money(0),
            "current_plan_until": (self.next_billing() - timedelta(days=1)).isoformat(),
        }

    @tool(
        "Book a pause of the membership: 1 to 3 whole months from the 1st of a coming month. "
        "No plan fee is charged while paused. At most one pause in any 12 months."
    )
    def pause_membership(self, args: PauseMembership) -> dict[str, Any]:
        m = self._member(args.member_id)
        start = self._day(args.start_month)
        if start.day != 1 or start < self.next_billing():
            raise ToolFailure(
                f"a pause starts on the 1st of a month, {self.next_billing().isoformat()} "
                "at the earliest"
            )
        if not 1 <= args.months <= _seed.MAX_PAUSE_MONTHS:
            raise ToolFailure("a pause is 1 to 3 whole months")
        if m["pause_start"]:
            raise ToolFailure(f"a pause from {m['pause_start']} is already booked")
        last = m["last_pause_start"]
        if last and (start - date.fromisoformat(last)).days < _seed.PAUSE_EVERY_DAYS:
            raise ToolFailure(f"the membership was paused from {last}: one pause in 12 months")
        self.db.execute(
            "UPDATE members SET pause_start = ?, pause_months = ?, last_pause_start = ? "
            "WHERE member_id = ?",
            (start.isoformat(), args.months, start.isoformat(), m["member_id"]),
        )
        month = start.month - 1 + args.months
        back = date(start.year + month // 12, month % 12 + 1, 1)
        return {
            "pause_start": start.isoformat(),
            "months": args.months,
            "resumes": back.isoformat(),
        }

    @tool("Change the email address on the member's account.")
    def update_email(self, args: UpdateEmail) -> dict[str, Any]:
        m = self._member(args.member_id)
        email = args.email.strip()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email, re.I):
            raise ToolFailure(f"{email!r} is not an email address")
        self.db.execute("UPDATE members SET email = ? WHERE member_id = ?", (email, m["member_id"]))
        return {"member_id": m["member_id"], "email": email}

    # -- lockers ---------------------------------------------------------------------------
    @tool(
        "Rent a locker: £15.00 for the first month and a £30.00 deposit, charged to the card. "
        "One locker per member."
    )
    def rent_locker(self, args: Member) -> dict[str, Any]:
        m = self._member(args.member_id)
        if self._one("SELECT * FROM lockers WHERE member_id = ?", m["member_id"]):
            raise ToolFailure("the member already rents a locker")
        free = self._one("SELECT * FROM lockers WHERE member_id IS NULL ORDER BY locker_id")
        if free is None:
            raise ToolFailure("no lockers are free")
        self.db.execute(
            "UPDATE lockers SET member_id = ?, rented_from = ?, deposit_pence = ? "
            "WHERE locker_id = ?",
            (
                m["member_id"],
                self.now().date().isoformat(),
                _seed.LOCKER_DEPOSIT_PENCE,
                free["locker_id"],
            ),
        )
        self._charge(m, "locker_rent", _seed.LOCKER_PENCE, free["locker_id"])
        self._charge(m, "locker_deposit", _seed.LOCKER_DEPOSIT_PENCE, free["locker_id"])
        return {
            "locker_id": free["locker_id"],
            "charged": money(_seed.LOCKER_PENCE + _seed.LOCKER_DEPOSIT_PENCE),
            "card_last4": m["card_last4"],
        }

    @tool(
        "Return the member's locker: the deposit goes back to the card, less £12.00 when the "
        "key is lost."
    )
    def return_locker(self, args: ReturnLocker) -> dict[str, Any]:
        m = self._member(args.member_id)
        locker = self._one("SELECT * FROM lockers WHERE member_id = ?", m["member_id"])
        if locker is None:
            raise ToolFailure("the member has no locker")
        fee = _seed.LOST_KEY_PENCE if args.key_lost else 0
        back = max(0, locker["deposit_pence"] - fee)
        self.db.execute(
            "UPDATE lockers SET member_id = NULL, rented_from = NULL, deposit_pence = 0 "
            "WHERE locker_id = ?",
            (locker["locker_id"],),
        )
        self._charge(m, "deposit_refund", -back, locker["locker_id"])
        return {
            "locker_id": locker["locker_id"],
            "lost_key_fee": money(fee),
            "refund": money(back),
            "card_last4": m["card_last4"],
        }

    # -- invoices --------------------------------------------------------------------------
    @tool(
        "Dispute one line of the member's invoice, within 30 days of the invoice date. The "
        "line is put on hold while the billing team reviews it."
    )
    def dispute_invoice_line(self, args: DisputeLine) -> dict[str, Any]:
        m = self._member(args.member_id)
        inv = self._one(
            "SELECT * FROM invoices WHERE invoice_id = ? AND member_id = ?",
            args.invoice_id.strip().upper(),
            m["member_id"],
        )
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} on this member's account")
        line = self._one(
            "SELECT * FROM invoice_lines WHERE line_id = ? AND invoice_id = ?",
            args.line_id,
            inv["invoice_id"],
        )
        if line is None:
            raise ToolFailure(f"invoice {inv['invoice_id']} has no line {args.line_id}")
        if line["disputed"]:
            raise ToolFailure("that line is already disputed")
        age = (self.now().date() - date.fromisoformat(inv["issued"])).days
        if age > _seed.DISPUTE_DAYS:
            raise ToolFailure(
                f"invoice {inv['invoice_id']} is {age} days old: lines can be disputed "
                "within 30 days of the invoice date"
            )
        self.db.execute(
            "UPDATE invoice_lines SET disputed = 1, dispute_reason = ? WHERE line_id = ?",
            (args.reason.strip() or "disputed by the member", line["line_id"]),
        )
        return {
            "invoice_id": inv["invoice_id"],
            "line_id": line["line_id"],
            "description": line["description"],
            "amount": money(line["amount_pence"]),
            "status": "disputed",
        }


def make_environment() -> CoworkEnvironment:
    """A fresh member system, from the seed data."""
    return CoworkEnvironment()


__all__ = ["CoworkEnvironment", "make_environment", "money", "norm_booking", "norm_member"]
