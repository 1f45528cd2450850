"""The club's members system the desk works through: `TennisclubEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.tennisclub import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_member(text: str) -> str:
    return "ALT" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 3 else squashed


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def year_later(expires: str) -> str:
    """The last day of the same month a year on (memberships end on a month's last day)."""
    d = date.fromisoformat(expires)
    first_after = date(d.year + 1, d.month, 1) + timedelta(days=32)
    return (first_after.replace(day=1) - timedelta(days=1)).isoformat()


def tier_problem(tier: str, dob: str, day: date) -> str | None:
    """Why a member of that birth date can't hold `tier` on `day`, or None."""
    age = age_on(dob, day)
    if tier == "junior" and age >= _seed.JUNIOR_UNDER:
        return f"Junior membership is for under-18s; the member is {age} on {day.isoformat()}"
    if tier == "senior" and age < _seed.SENIOR_FROM:
        return f"Senior membership is from 65; the member is {age} on {day.isoformat()}"
    return None


class Member(BaseModel):
    member_id: str = Field(description="The membership number, e.g. ALT2001")


class Verify(Member):
    postcode: str = Field(description="The postcode on the membership, e.g. GU21 4QT")


class Slot(BaseModel):
    day: str = Field(description="YYYY-MM-DD")
    start_time: str = Field(description="HH:00, the start of the one-hour slot")


class BookCourt(Member):
    court_id: str = Field(description="C1-C4 outdoor (C3, C4 floodlit), C5-C6 indoor")
    day: str = Field(description="YYYY-MM-DD")
    start_time: str = Field(description="HH:00, the start of the one-hour slot")
    court_fee_pence: int = Field(description="The court fee the desk quoted (indoor courts)")
    light_fee_pence: int = Field(description="The floodlight fee the desk quoted")


class GuestCheck(BaseModel):
    guest_name: str = Field(description="The guest's full name")
    day: str = Field(description="YYYY-MM-DD: the day they would play")


class AddGuests(Member):
    booking_id: str = Field(description="e.g. CB7003")
    guest_names: list[str] = Field(description="The guests' full names")
    fee_pence: int = Field(description="The total guest fee the desk quoted")


class CancelBooking(Member):
    booking_id: str = Field(description="e.g. CB7004")
    refund_pence: int = Field(description="The refund the desk quoted (0 when none is due)")


class SessionRef(Member):
    session_id: str = Field(description="e.g. CS302")


class JoinSession(SessionRef):
    price_pence: int = Field(description="The session price the desk quoted")


class CancelCoaching(SessionRef):
    refund_pence: int = Field(description="The refund the desk quoted (0 when none is due)")


class ChangeTier(Member):
    tier: str = Field(description="adult, offpeak, junior or senior")
    charge_pence: int = Field(description="The pro-rata charge the desk quoted")


class Renew(Member):
    tier: str = Field(description="The tier for the new membership year")
    price_pence: int = Field(description="The annual fee the desk quoted")


class NoArgs(BaseModel):
    pass


class TennisclubEnvironment(SqliteEnvironment):
    """Ashcombe Lawn Tennis Club: members, courts, bookings, guests, coaching and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "member_id": ["membership number"],
        "postcode": ["postcode"],
        "date": ["which day"],
        "time": ["what time"],
        "court_type": ["indoor or an outdoor"],
        "guest_name": ["guest's full name", "guest's name"],
        "session": ["which session"],
        "tier": ["which membership"],
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

    def _charge(self, m: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (member_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (m["member_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def hours_to(self, day: str, start: str) -> float:
        when = datetime.fromisoformat(f"{day}T{start}").replace(tzinfo=_seed.UK)
        return (when - self.now()).total_seconds() / 3600

    def _booking(self, m: dict[str, Any], booking_id: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM bookings WHERE booking_id = ?", booking_id.strip().upper())
        if b is None or b["member_id"] != m["member_id"]:
            raise ToolFailure(f"no booking {booking_id} on this membership")
        if b["status"] != "confirmed":
            raise ToolFailure(f"booking {b['booking_id']} is {b['status']}")
        return b

    def _session(self, session_id: str) -> dict[str, Any]:
        s = self._one("SELECT * FROM sessions WHERE session_id = ?", session_id.strip().upper())
        if s is None:
            raise ToolFailure(f"no coaching session {session_id}")
        taken = self._one(
            "SELECT COUNT(*) AS n FROM enrolments WHERE session_id = ? AND status = 'confirmed'",
            s["session_id"],
        )
        s["places_left"] = s["places"] - (taken or {"n": 0})["n"]
        s["waiting"] = len(self._rows("SELECT 1 FROM waitlist WHERE session_id = ?",
                                      s["session_id"]))  # fmt: skip
        return s

    def view(self, member_id: str) -> dict[str, Any]:
        """The membership as staff see it: upcoming bookings with guests, coaching, renewal."""
        m = self._member(member_id)
        m.pop("card_expiry")  # the payment system's, not shown to the desk
        today = self.now().date()
        bookings = self._rows(
            "SELECT b.*, c.name AS court, c.kind, c.floodlit FROM bookings b JOIN courts c "
            "USING (court_id) WHERE member_id = ? AND status = 'confirmed' AND day >= ? "
            "ORDER BY day, start_time",
            m["member_id"], today.isoformat(),
        )  # fmt: skip
        for b in bookings:
            b["guests"] = self._rows("SELECT guest_name, fee_pence FROM booking_guests "
                                     "WHERE booking_id = ?", b["booking_id"])  # fmt: skip
            b["hours_to_start"] = round(self.hours_to(b["day"], b["start_time"]), 1)
        coaching = self._rows(
            "SELECT e.session_id, e.price_pence, s.title, s.day, s.start_time FROM enrolments e "
            "JOIN sessions s USING (session_id) WHERE e.member_id = ? AND e.status = 'confirmed' "
            "AND s.day >= ? ORDER BY s.day",
            m["member_id"], today.isoformat(),
        )  # fmt: skip
        for e in coaching:
            e["hours_to_start"] = round(self.hours_to(e["day"], e["start_time"]), 1)
        expires = date.fromisoformat(m["expires"])
        return {
            **m,
            "age": age_on(m["dob"], today),
            "renewal_opens": (expires - timedelta(days=_seed.RENEW_OPENS_DAYS)).isoformat(),
            "bookings": bookings,
            "coaching": coaching,
            "waitlist": [r["session_id"] for r in self._rows(
                "SELECT session_id FROM waitlist WHERE member_id = ?", m["member_id"])],
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the membership number and the postcode on that "
        "membership must match. Returns the membership."
    )
    def verify_member(self, args: Verify) -> dict[str, Any]:
        m = self._one("SELECT member_id, postcode FROM members WHERE member_id = ?",
                      norm_member(args.member_id))  # fmt: skip
        if m is None or norm_postcode(m["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no membership matches that number and postcode")
        return self.view(m["member_id"])

    @tool("Read a membership (staff view, after verify_member only).")
    def get_member(self, args: Member) -> dict[str, Any]:
        return self.view(args.member_id)

    @tool(
        "Every court at one slot: kind, floodlights, free or not, and (staff only: never told "
        "to members) who booked it."
    )
    def court_availability(self, args: Slot) -> dict[str, Any]:
        courts = self._rows("SELECT * FROM courts ORDER BY court_id")
        for c in courts:
            b = self._one(
                "SELECT m.name FROM bookings b JOIN members m USING (member_id) WHERE "
                "b.court_id = ? AND b.day = ? AND b.start_time = ? AND b.status = 'confirmed'",
                c["court_id"], args.day, args.start_time,
            )  # fmt: skip
            c["free"] = b is None
            c["booked_by"] = b["name"] if b else None
            c["playable"] = c["kind"] == "indoor" or bool(c["floodlit"]) or (
                args.start_time < _seed.LIGHTS_FROM)  # fmt: skip
        return {"day": args.day, "start_time": args.start_time, "courts": courts}

    @tool(
        "How many times a guest has played (as anyone's guest) in the calendar month of `day`, "
        "counting bookings not cancelled."
    )
    def check_guest(self, args: GuestCheck) -> dict[str, Any]:
        month = args.day[:7]
        rows = self._rows(
            "SELECT b.day FROM booking_guests g JOIN bookings b USING (booking_id) WHERE "
            "lower(g.guest_name) = ? AND b.status != 'cancelled' AND substr(b.day, 1, 7) = ?",
            " ".join(args.guest_name.split()).lower(), month,
        )  # fmt: skip
        return {"guest_name": args.guest_name.strip(), "month": month, "visits": len(rows)}

    @tool("The coaching sessions to come, with places left and how many are waiting.")
    def coaching_sessions(self, args: NoArgs) -> dict[str, Any]:
        ids = self._rows("SELECT session_id FROM sessions WHERE day >= ? ORDER BY day, start_time",
                         self.now().date().isoformat())  # fmt: skip
        return {"sessions": [self._session(r["session_id"]) for r in ids]}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Book a one-hour court slot; the quoted fees are taken from the card on file. Refuses "
        "a taken court, a slot more than 7 days ahead or in the past, and an outdoor court "
        "without floodlights from 16:00. The system does not check the member's tier: the "
        "desk must."
    )
    def book_court(self, args: BookCourt) -> dict[str, Any]:
        m = self._member(args.member_id)
        court = self._one("SELECT * FROM courts WHERE court_id = ?", args.court_id.strip().upper())
        if court is None:
            raise ToolFailure(f"no court {args.court_id}")
        if not re.fullmatch(r"(?:0[7-9]|1\d|2[01]):00", args.start_time):
            raise ToolFailure("slots start on the hour, from 07:00 to 21:00")
        day = date.fromisoformat(args.day)
        if self.hours_to(args.day, args.start_time) <= 0:
            raise ToolFailure("that slot has already started")
        if (day - self.now().date()).days > _seed.BOOK_AHEAD_DAYS:
            raise ToolFailure("courts can be booked up to 7 days ahead")
        if court["kind"] == "outdoor" and not court["floodlit"] and (
                args.start_time >= _seed.LIGHTS_FROM):  # fmt: skip
            raise ToolFailure(f"{court['name']} has no floodlights: not playable from 16:00")
        if self._one("SELECT 1 AS x FROM bookings WHERE court_id = ? AND day = ? AND "
                     "start_time = ? AND status = 'confirmed'", court["court_id"], args.day,
                     args.start_time):  # fmt: skip
            raise ToolFailure(f"{court['name']} is already booked at {args.start_time}")
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM bookings")
        booking_id = f"CB{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO bookings (booking_id, member_id, court_id, day, start_time, "
            "court_fee_pence, light_fee_pence) VALUES (?,?,?,?,?,?,?)",
            (booking_id, m["member_id"], court["court_id"], args.day, args.start_time,
             args.court_fee_pence, args.light_fee_pence),
        )  # fmt: skip
        self._charge(m, "court_fee", args.court_fee_pence, booking_id)
        self._charge(m, "floodlights", args.light_fee_pence, booking_id)
        return {"booking_id": booking_id, "court": court["name"], "kind": court["kind"],
                "day": args.day, "start_time": args.start_time,
                "charged": money(args.court_fee_pence + args.light_fee_pence),
                "card_last4": m["card_last4"]}  # fmt: skip

    @tool(
        "Add guests to a booking; the quoted guest fee is taken from the card. Refuses more "
        "than 3 guests on one booking. The system does not check a guest's visits this "
        "month: the desk must (check_guest)."
    )
    def add_guests(self, args: AddGuests) -> dict[str, Any]:
        m = self._member(args.member_id)
        b = self._booking(m, args.booking_id)
        names = [" ".join(n.split()) for n in args.guest_names if n.strip()]
        if not names:
            raise ToolFailure("no guest named")
        have = self._rows("SELECT guest_name FROM booking_guests WHERE booking_id = ?",
                          b["booking_id"])  # fmt: skip
        if len(have) + len(names) > _seed.MAX_GUESTS:
            raise ToolFailure("a booking takes at most 3 guests (four players on a court)")
        each = args.fee_pence // len(names)
        for name in names:
            self.db.execute(
                "INSERT INTO booking_guests (booking_id, guest_name, fee_pence) VALUES (?,?,?)",
                (b["booking_id"], name, each),
            )
        self._charge(m, "guest_fee", args.fee_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "guests": names, "charged": money(args.fee_pence),
                "card_last4": m["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a court booking; refund_pence (when the desk quoted one) goes back to the "
        "card. The system does not check the notice rule: the desk must."
    )
    def cancel_booking(self, args: CancelBooking) -> dict[str, Any]:
        m = self._member(args.member_id)
        b = self._booking(m, args.booking_id)
        if self.hours_to(b["day"], b["start_time"]) <= 0:
            raise ToolFailure("that slot has already started")
        self.db.execute("UPDATE bookings SET status = 'cancelled' WHERE booking_id = ?",
                        (b["booking_id"],))  # fmt: skip
        self._charge(m, "refund", args.refund_pence, b["booking_id"])
        return {"booking_id": b["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": m["card_last4"]}  # fmt: skip

    @tool("Book a place on a coaching session; the quoted price is taken. Refuses a full "
          "session, a juniors-only session for an adult member, and a second place.")  # fmt: skip
    def join_session(self, args: JoinSession) -> dict[str, Any]:
        m = self._member(args.member_id)
        s = self._session(args.session_id)
        if s["juniors_only"] and m["tier"] != "junior":
            raise ToolFailure(f"{s['title']} is for junior members only")
        if self._one("SELECT 1 AS x FROM enrolments WHERE session_id = ? AND member_id = ? AND "
                     "status = 'confirmed'", s["session_id"], m["member_id"]):  # fmt: skip
            raise ToolFailure(f"already booked on {s['title']}")
        if s["places_left"] <= 0:
            raise ToolFailure(f"{s['title']} is full")
        self.db.execute(
            "INSERT INTO enrolments (session_id, member_id, price_pence) VALUES (?,?,?)",
            (s["session_id"], m["member_id"], args.price_pence),
        )
        self._charge(m, "coaching", args.price_pence, s["session_id"])
        return {"session_id": s["session_id"], "title": s["title"], "day": s["day"],
                "start_time": s["start_time"], "charged": money(args.price_pence),
                "card_last4": m["card_last4"]}  # fmt: skip

    @tool("Put the member on a full session's waiting list (no charge). Refuses a session with "
          "places left, and a member already on it or on the list.")  # fmt: skip
    def join_waitlist(self, args: SessionRef) -> dict[str, Any]:
        m = self._member(args.member_id)
        s = self._session(args.session_id)
        if s["places_left"] > 0:
            raise ToolFailure(f"{s['title']} has places left: book a place instead")
        if self._one("SELECT 1 AS x FROM waitlist WHERE session_id = ? AND member_id = ?",
                     s["session_id"], m["member_id"]):  # fmt: skip
            raise ToolFailure(f"already on the waiting list for {s['title']}")
        self.db.execute(
            "INSERT INTO waitlist (session_id, member_id, added_at) VALUES (?,?,?)",
            (s["session_id"], m["member_id"], self.now().strftime(_seed.STAMP)),
        )
        return {"session_id": s["session_id"], "title": s["title"], "position": s["waiting"] + 1}

    @tool("Give up a coaching place; refund_pence (when the desk quoted one) goes back to the "
          "card. The system does not check the notice rule: the desk must.")  # fmt: skip
    def cancel_coaching(self, args: CancelCoaching) -> dict[str, Any]:
        m = self._member(args.member_id)
        s = self._session(args.session_id)
        e = self._one("SELECT * FROM enrolments WHERE session_id = ? AND member_id = ? AND "
                      "status = 'confirmed'", s["session_id"], m["member_id"])  # fmt: skip
        if e is None:
            raise ToolFailure(f"no place on {s['title']} for this member")
        self.db.execute("UPDATE enrolments SET status = 'cancelled' WHERE enrolment_id = ?",
                        (e["enrolment_id"],))  # fmt: skip
        self._charge(m, "refund", args.refund_pence, s["session_id"])
        return {"session_id": s["session_id"], "title": s["title"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": m["card_last4"]}  # fmt: skip

    @tool(
        "Change the membership tier now, keeping the expiry date; charge_pence (quoted by the "
        "desk) is taken. Refuses a tier the member's age rules out. The system does not check "
        "that mid-year changes are upgrades only: the desk must."
    )
    def change_tier(self, args: ChangeTier) -> dict[str, Any]:
        m = self._member(args.member_id)
        tier = args.tier.strip().lower().replace("-", "")
        if tier not in _seed.FEES:
            raise ToolFailure("tier must be adult, offpeak, junior or senior")
        why = tier_problem(tier, m["dob"], self.now().date())
        if why:
            raise ToolFailure(why)
        self.db.execute("UPDATE members SET tier = ? WHERE member_id = ?", (tier, m["member_id"]))
        self._charge(m, "upgrade", args.charge_pence, tier)
        return {"member_id": m["member_id"], "tier": tier, "expires": m["expires"],
                "charged": money(args.charge_pence), "card_last4": m["card_last4"]}  # fmt: skip

    @tool(
        "Renew for another year from the expiry date, at `tier`; the quoted price is taken "
        "from the card on file. Refuses before renewal opens (60 days before expiry), a tier "
        "the member's age rules out on the new year's first day, and a declined card."
    )
    def renew_membership(self, args: Renew) -> dict[str, Any]:
        m = self._member(args.member_id)
        tier = args.tier.strip().lower().replace("-", "")
        if tier not in _seed.FEES:
            raise ToolFailure("tier must be adult, offpeak, junior or senior")
        expires = date.fromisoformat(m["expires"])
        opens = expires - timedelta(days=_seed.RENEW_OPENS_DAYS)
        if self.now().date() < opens:
            raise ToolFailure(f"renewal opens on {opens.isoformat()}")
        why = tier_problem(tier, m["dob"], expires + timedelta(days=1))
        if why:
            raise ToolFailure(why)
        if m["card_expiry"] < self.now().strftime("%Y-%m"):
            raise ToolFailure(f"payment declined: the card ending {m['card_last4']} has expired")
        new = year_later(m["expires"])
        self.db.execute("UPDATE members SET tier = ?, expires = ? WHERE member_id = ?",
                        (tier, new, m["member_id"]))  # fmt: skip
        self._charge(m, "renewal", args.price_pence, new)
        return {"member_id": m["member_id"], "tier": tier, "expires": new,
                "charged": money(args.price_pence), "card_last4": m["card_last4"]}  # fmt: skip


def make_environment() -> TennisclubEnvironment:
    """A fresh members system, from the seed data."""
    return TennisclubEnvironment()
