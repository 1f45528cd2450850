"""Pulse Fitness: the desk's tools over one SQLite database, with a fixed clock."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field

from benchmarks.domains.gym import _rules as rules
from benchmarks.domains.gym._seed import NOW, SCHEMA_SQL, seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


class MemberArgs(BaseModel):
    member_id: str = Field(description="the member's id, e.g. PF1001")


class VerifyArgs(BaseModel):
    member_id: str | None = Field(None, description="member id (with date_of_birth)")
    date_of_birth: str | None = Field(None, description="YYYY-MM-DD (with member_id)")
    email: str | None = Field(None, description="email on the account (with postcode)")
    postcode: str | None = Field(None, description="postcode on the account (with email)")


class ClassesArgs(BaseModel):
    club_id: str = Field(description="camden, shoreditch or islington")
    date: str = Field(description="YYYY-MM-DD")


class BookArgs(MemberArgs):
    class_id: str = Field(description="e.g. CAM-1027-1930")


class CancelBookingArgs(MemberArgs):
    booking_id: str


class PlanArgs(MemberArgs):
    plan_id: str = Field(description="offpeak, standard or premium")


class FreezeArgs(MemberArgs):
    start_date: str = Field(description="YYYY-MM-DD")
    months: int = Field(description="1 to 3")


class QuoteCancelArgs(MemberArgs):
    medical_reason: bool = False


class CancelMembershipArgs(QuoteCancelArgs):
    accept_notice: bool = Field(description="the member accepted one month's notice")


class GuestArgs(MemberArgs):
    guest_name: str
    date: str = Field(description="YYYY-MM-DD")


class CardArgs(MemberArgs):
    last4: str = Field(description="last four digits of the new card")
    expiry: str = Field(description="MM/YY")


class ContactArgs(MemberArgs):
    email: str | None = None
    phone: str | None = None


def _day(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ToolFailure(f"{what} must be a date as YYYY-MM-DD, got {text!r}") from None


class GymEnvironment(SqliteEnvironment):
    """The Pulse Fitness member desk."""

    SCHEMA_SQL = SCHEMA_SQL

    def seed(self, db: Any) -> None:
        seed(db)

    def now(self) -> datetime:
        return NOW

    # -- helpers -----------------------------------------------------------------------------
    def _one(self, sql: str, *params: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, params).fetchone()
        return dict(row) if row else None

    def _member(self, member_id: str) -> dict[str, Any]:
        row = self._one(
            "SELECT m.*, s.*, p.name AS plan_name, p.monthly_fee, p.rank, p.guest_passes, p.peak"
            " FROM members m JOIN memberships s USING (member_id) JOIN plans p USING (plan_id)"
            " WHERE m.member_id = ?", member_id.strip().upper())
        if row is None:
            raise ToolFailure(f"no member with id {member_id!r}")
        return row

    def _pay(self, member_id: str, amount: float, description: str) -> None:
        n = self.db.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
        self.db.execute("INSERT INTO payments VALUES (?, ?, ?, ?, ?)",
                        (f"P9{n:03d}", member_id, NOW.date().isoformat(), amount, description))

    def _future_bookings(self, member_id: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT b.booking_id, b.class_id, c.name, c.club_id, c.starts_at, c.minutes"
            " FROM bookings b JOIN classes c USING (class_id) WHERE b.member_id = ?"
            " AND b.status = 'booked' AND c.starts_at > ? ORDER BY c.starts_at",
            (member_id, NOW.strftime("%Y-%m-%d %H:%M")))
        return [dict(r) for r in rows]

    # -- identity and reads ------------------------------------------------------------------
    @tool("Check a member's identity: member_id with date_of_birth, or email with postcode. "
          "Do this before disclosing or changing anything on an account.")
    def verify_member(self, args: VerifyArgs) -> dict[str, Any]:
        if args.member_id and args.date_of_birth:
            row = self._one("SELECT * FROM members WHERE member_id = ? AND date_of_birth = ?",
                            args.member_id.strip().upper(), args.date_of_birth.strip())
        elif args.email and args.postcode:
            row = self._one("SELECT * FROM members WHERE lower(email) = ? AND"
                            " replace(upper(postcode), ' ', '') = ?", args.email.strip().lower(),
                            args.postcode.replace(" ", "").upper())
        else:
            raise ToolFailure("give member_id and date_of_birth, or email and postcode")
        if row is None:
            raise ToolFailure("those details do not match a member")
        return {"verified": True, "member_id": row["member_id"], "name": row["name"]}

    @tool("The member's plan, fee, contract, next billing date, status, pending change, freeze "
          "and card on file.")
    def get_membership(self, args: MemberArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        freeze = self._one("SELECT start_date, end_date, months FROM freezes WHERE member_id = ?"
                           " ORDER BY start_date DESC", m["member_id"])
        return {"member_id": m["member_id"], "name": m["name"], "plan_id": m["plan_id"],
                "plan": m["plan_name"],
                "monthly_fee": m["monthly_fee"], "contract": m["contract"],
                "start_date": m["start_date"], "contract_end": m["contract_end"],
                "next_billing_date": m["next_billing_date"], "status": m["status"],
                "pending_plan_id": m["pending_plan_id"], "pending_from": m["pending_from"],
                "end_date": m["end_date"], "freeze": freeze, "home_club": m["home_club"],
                "card": f"ending {m['card_last4']}, expires {m['card_expiry']}"}

    @tool("Classes at a club on a date, with start time, length and spaces left.")
    def list_classes(self, args: ClassesArgs) -> list[dict[str, Any]]:
        club = args.club_id.strip().lower()
        if not self._one("SELECT 1 FROM clubs WHERE club_id = ?", club):
            raise ToolFailure(f"no club {args.club_id!r}; clubs: camden, shoreditch, islington")
        day = _day(args.date, "date")
        rows = self.db.execute("SELECT * FROM classes WHERE club_id = ? AND starts_at LIKE ?"
                               " ORDER BY starts_at", (club, f"{day.isoformat()}%"))
        return [{"class_id": r["class_id"], "name": r["name"], "starts_at": r["starts_at"],
                 "minutes": r["minutes"], "spaces_left": r["capacity"] - r["booked"]}
                for r in rows]

    @tool("The member's upcoming class bookings.")
    def get_bookings(self, args: MemberArgs) -> list[dict[str, Any]]:
        return self._future_bookings(self._member(args.member_id)["member_id"])

    @tool("The member's payments, newest first.")
    def get_payments(self, args: MemberArgs) -> list[dict[str, Any]]:
        member_id = self._member(args.member_id)["member_id"]
        rows = self.db.execute("SELECT date, amount, description FROM payments WHERE member_id"
                               " = ? ORDER BY date DESC, payment_id DESC", (member_id,))
        return [dict(r) for r in rows]

    # -- bookings ----------------------------------------------------------------------------
    @tool("Book the member onto a class. Refused when the class is full or past, at peak "
          "time on Off-Peak, or when the member already has 3 upcoming bookings.")
    def book_class(self, args: BookArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        c = self._one("SELECT * FROM classes WHERE class_id = ?", args.class_id.strip().upper())
        if c is None:
            raise ToolFailure(f"no class {args.class_id!r}")
        starts = datetime.fromisoformat(c["starts_at"])
        if starts <= NOW:
            raise ToolFailure("that class has already started")
        if m["status"] == "cancelling" and m["end_date"] and c["starts_at"] > m["end_date"]:
            raise ToolFailure(f"the membership ends on {m['end_date']}")
        if not m["peak"] and rules.is_peak(starts):
            raise ToolFailure("the Off-Peak plan covers classes starting before 16:00 on "
                              "weekdays and at any time at weekends")
        mine = self._future_bookings(m["member_id"])
        if any(b["class_id"] == c["class_id"] for b in mine):
            raise ToolFailure("the member is already booked on that class")
        if len(mine) >= rules.MAX_BOOKINGS:
            raise ToolFailure("the member already has 3 upcoming bookings (the maximum)")
        if c["booked"] >= c["capacity"]:
            raise ToolFailure("that class is full")
        n = self.db.execute("SELECT COUNT(*) FROM bookings").fetchone()[0]
        booking_id = f"B{6001 + n}"
        self.db.execute("INSERT INTO bookings VALUES (?, ?, ?, 'booked', 0)",
                        (booking_id, m["member_id"], c["class_id"]))
        self.db.execute("UPDATE classes SET booked = booked + 1 WHERE class_id = ?",
                        (c["class_id"],))
        return {"booking_id": booking_id, "class_id": c["class_id"], "name": c["name"],
                "club_id": c["club_id"], "starts_at": c["starts_at"]}

    @tool("Cancel one of the member's bookings. Inside 2 hours of the class a £5 late-cancel "
          "fee is charged; the result gives the fee.")
    def cancel_booking(self, args: CancelBookingArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        b = self._one("SELECT * FROM bookings JOIN classes USING (class_id) WHERE booking_id = ?"
                      " AND member_id = ?", args.booking_id.strip().upper(), m["member_id"])
        if b is None or b["status"] != "booked":
            raise ToolFailure(f"no active booking {args.booking_id!r} for this member")
        starts = datetime.fromisoformat(b["starts_at"])
        if starts <= NOW:
            raise ToolFailure("that class has already started")
        fee = rules.late_fee(starts, NOW)
        self.db.execute("UPDATE bookings SET status = 'cancelled', late_fee = ? WHERE "
                        "booking_id = ?", (fee, b["booking_id"]))
        self.db.execute("UPDATE classes SET booked = booked - 1 WHERE class_id = ?",
                        (b["class_id"],))
        if fee:
            self._pay(m["member_id"], fee, f"Late cancellation {b['class_id']}")
        return {"booking_id": b["booking_id"], "status": "cancelled", "late_fee": fee}

    # -- plans, freezes, cancellation --------------------------------------------------------
    @tool("What a plan change would cost and when it takes effect, without changing anything.")
    def quote_plan_change(self, args: PlanArgs) -> dict[str, Any]:
        return rules.plan_change(self._member(args.member_id), args.plan_id.strip().lower(), NOW)

    @tool("Change the member's plan. Upgrades start now with a prorated charge (returned); "
          "downgrades start on the next billing date.")
    def change_plan(self, args: PlanArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        quote = rules.plan_change(m, args.plan_id.strip().lower(), NOW)
        if quote["kind"] == "upgrade":
            self.db.execute("UPDATE memberships SET plan_id = ?, pending_plan_id = NULL, "
                            "pending_from = NULL WHERE member_id = ?",
                            (quote["plan_id"], m["member_id"]))
            self._pay(m["member_id"], quote["charge_now"], f"Upgrade to {quote['plan']}")
        else:
            self.db.execute("UPDATE memberships SET pending_plan_id = ?, pending_from = ? "
                            "WHERE member_id = ?",
                            (quote["plan_id"], quote["effective_from"], m["member_id"]))
        return {"changed": True, **quote}

    @tool("Freeze the membership for 1-3 months from start_date; £5 a month, charged now. Not "
          "for annual contracts in their first 3 months.")
    def freeze_membership(self, args: FreezeArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        start = _day(args.start_date, "start_date")
        end, fee = rules.check_freeze(m, start, args.months, NOW.date())
        if self._one("SELECT 1 FROM freezes WHERE member_id = ? AND end_date > ?",
                     m["member_id"], NOW.date().isoformat()):
            raise ToolFailure("the membership already has a freeze booked")
        n = self.db.execute("SELECT COUNT(*) FROM freezes").fetchone()[0]
        self.db.execute("INSERT INTO freezes VALUES (?, ?, ?, ?, ?, ?)",
                        (f"F{701 + n}", m["member_id"], start.isoformat(), args.months,
                         end.isoformat(), fee))
        self._pay(m["member_id"], fee, f"Freeze fee, {args.months} month(s)")
        return {"start_date": start.isoformat(), "end_date": end.isoformat(),
                "months": args.months, "fee": fee}

    @tool("What cancelling would mean: the end date after one month's notice and, for annual "
          "contracts, the charge for the remaining months (waived for a medical reason).")
    def quote_cancellation(self, args: QuoteCancelArgs) -> dict[str, Any]:
        return rules.cancellation(self._member(args.member_id), args.medical_reason, NOW.date())

    @tool("Cancel the membership with one month's notice (accept_notice must be true). Annual "
          "contracts pay the remaining months unless medical_reason.")
    def cancel_membership(self, args: CancelMembershipArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        if m["status"] == "cancelling":
            raise ToolFailure(f"the membership is already cancelled from {m['end_date']}")
        if not args.accept_notice:
            raise ToolFailure("cancelling needs the member to accept one month's notice")
        quote = rules.cancellation(m, args.medical_reason, NOW.date())
        self.db.execute("UPDATE memberships SET status = 'cancelling', end_date = ?, "
                        "exit_charge = ? WHERE member_id = ?",
                        (quote["end_date"], quote["exit_charge"], m["member_id"]))
        if quote["exit_charge"]:
            self._pay(m["member_id"], quote["exit_charge"], "Annual contract exit")
        return {"cancelled": True, **quote}

    # -- guests and details ------------------------------------------------------------------
    @tool("Issue a guest pass for a date (Premium only, 2 per calendar month).")
    def issue_guest_pass(self, args: GuestArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        day = _day(args.date, "date")
        if day < NOW.date():
            raise ToolFailure("that date is in the past")
        if not m["guest_passes"]:
            raise ToolFailure(f"guest passes come with Premium only; this member is on "
                              f"{rules.plan_name(m['plan_id'])}")
        used = self.db.execute("SELECT COUNT(*) FROM guest_passes WHERE member_id = ? AND "
                               "date LIKE ?", (m["member_id"], f"{day:%Y-%m}%")).fetchone()[0]
        if used >= m["guest_passes"]:
            raise ToolFailure(f"both guest passes for {day:%B %Y} are used")
        if self._one("SELECT 1 FROM guest_passes WHERE member_id = ? AND guest_name = ? AND "
                     "date = ?", m["member_id"], args.guest_name.strip(), day.isoformat()):
            raise ToolFailure(f"{args.guest_name.strip()} already has a guest pass for that day")
        pass_id = f"G{801 + self.db.execute('SELECT COUNT(*) FROM guest_passes').fetchone()[0]}"
        self.db.execute("INSERT INTO guest_passes VALUES (?, ?, ?, ?)",
                        (pass_id, m["member_id"], args.guest_name.strip(), day.isoformat()))
        return {"pass_id": pass_id, "guest_name": args.guest_name.strip(),
                "date": day.isoformat(), "club_id": m["home_club"]}

    @tool("Replace the payment card on file (last four digits and expiry MM/YY).")
    def update_payment_card(self, args: CardArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        last4 = args.last4.strip()
        if not (len(last4) == 4 and last4.isdigit()):
            raise ToolFailure("last4 must be four digits")
        expiry = rules.parse_expiry(args.expiry)
        if expiry is None:
            raise ToolFailure("expiry must be MM/YY")
        if expiry < NOW.date().replace(day=1):
            raise ToolFailure("that card has expired")
        text = f"{expiry:%m/%y}"
        self.db.execute("UPDATE members SET card_last4 = ?, card_expiry = ? WHERE member_id = ?",
                        (last4, text, m["member_id"]))
        return {"card": f"ending {last4}, expires {text}"}

    @tool("Update the member's email and/or phone.")
    def update_contact(self, args: ContactArgs) -> dict[str, Any]:
        m = self._member(args.member_id)
        if not args.email and not args.phone:
            raise ToolFailure("give a new email or phone")
        if args.email and ("@" not in args.email or "." not in args.email.split("@")[-1]):
            raise ToolFailure(f"{args.email!r} is not an email address")
        email, phone = (args.email or m["email"]).strip(), (args.phone or m["phone"]).strip()
        self.db.execute("UPDATE members SET email = ?, phone = ? WHERE member_id = ?",
                        (email, phone, m["member_id"]))
        return {"email": email, "phone": phone}


def make_environment() -> GymEnvironment:
    return GymEnvironment()

