"""The membership system the desk works through: `MuseumEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.museum import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_membership(text: str) -> str:
    return "HM" + re.sub(r"\D", "", text)


def plus_year(day: str) -> str:
    d = date.fromisoformat(day)
    try:
        return d.replace(year=d.year + 1).isoformat()
    except ValueError:  # 29 February
        return d.replace(year=d.year + 1, day=28).isoformat()


POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b\d{5}\b", re.I)


class Membership(BaseModel):
    membership_id: str = Field(description="The membership number, e.g. HM20001")


class Verify(Membership):
    date_of_birth: str = Field(
        description="YYYY-MM-DD: the named member's or the joint member's date of birth"
    )


class Join(BaseModel):
    kind: str = Field(description="individual, joint or family")
    member_name: str = Field(description="The named member's full name")
    member_dob: str = Field(description="YYYY-MM-DD")
    address: str = Field(description="Postal address with postcode")
    email: str = Field(description="Email address")
    joint_name: str | None = Field(default=None, description="Joint and Family: second adult")
    joint_dob: str | None = Field(default=None, description="YYYY-MM-DD")
    children: int = Field(default=0, description="Family: children under 18 (up to 4)")
    concession: str = Field(default="none", description="none, senior or student")
    price_pence: int = Field(description="The year's price the desk quoted")


class GiftAid(Membership):
    declaration_date: str = Field(description="YYYY-MM-DD: the day the member declared")


class Renew(Membership):
    new_expiry: str = Field(description="YYYY-MM-DD: the expiry after renewal, as quoted")
    price_pence: int = Field(description="The renewal price the desk quoted")


class Rejoin(Membership):
    price_pence: int = Field(description="The full year's price the desk quoted")


class BookTickets(Membership):
    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="HH:MM, one of the slot times")
    tickets: int = Field(description="Tickets in all, members and guests")
    guests: int = Field(description="How many of them are guests (not on the membership)")
    price_pence: int = Field(description="The guests' price the desk quoted")


class Cancel(Membership):
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class ReplaceCard(Membership):
    reason: str = Field(description="lost or never_arrived")
    fee_pence: int = Field(description="The fee the desk quoted (0 or 500)")


class Details(Membership):
    person: str = Field(default="member", description="member or joint: whose name changes")
    name: str | None = Field(default=None, description="The new name on the card")
    address: str | None = Field(default=None, description="The new address")


class MuseumEnvironment(SqliteEnvironment):
    """The Halden Museum: memberships, exhibition slots, tickets, charges and cards."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "membership_id": ["membership number"],
        "date_of_birth": ["date of birth", "born"],
        "slot": ["which day", "what time", "slot"],
        "tickets": ["how many tickets"],
        "guests": ["guests"],
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

    def _membership(self, membership_id: str) -> dict[str, Any]:
        found = self._one(
            "SELECT * FROM memberships WHERE membership_id = ?", norm_membership(membership_id)
        )
        if found is None:
            raise ToolFailure(f"no membership {membership_id}")
        return found

    def _charge(self, m: str, kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (membership_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (m, kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def today(self) -> date:
        return self.now().date()

    def view(self, membership_id: str) -> dict[str, Any]:
        """The membership as staff see it, with its upcoming ticket bookings."""
        m = self._membership(membership_id)
        today = self.today()
        m["days_to_expiry"] = (date.fromisoformat(m["expires_on"]) - today).days
        m["days_since_joining"] = (today - date.fromisoformat(m["joined_on"])).days
        m["tickets"] = self._rows(
            "SELECT t.*, s.day, s.time FROM tickets t JOIN slots s USING (slot_id) "
            "WHERE t.membership_id = ? AND s.day >= ? ORDER BY s.day, s.time",
            m["membership_id"],
            today.isoformat(),
        )
        return m

    def _active(self, membership_id: str) -> dict[str, Any]:
        m = self._membership(membership_id)
        if m["status"] != "active" or m["expires_on"] < self.today().isoformat():
            raise ToolFailure(f"membership {m['membership_id']} is not active ({m['status']})")
        return m

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the membership number and the date of birth of the "
        "named member or the joint member must match. Returns the membership and who matched."
    )
    def verify_member(self, args: Verify) -> dict[str, Any]:
        m = self._one(
            "SELECT * FROM memberships WHERE membership_id = ?", norm_membership(args.membership_id)
        )
        dob = args.date_of_birth.strip()
        if m is not None and dob == m["member_dob"]:
            return {**self.view(m["membership_id"]), "verified_as": m["member_name"],
                    "role": "member"}  # fmt: skip
        if m is not None and m["joint_dob"] and dob == m["joint_dob"]:
            return {**self.view(m["membership_id"]), "verified_as": m["joint_name"],
                    "role": "joint"}  # fmt: skip
        raise ToolFailure("verification failed: no member matches that number and date of birth")

    @tool("Read a membership (staff view, after verify_member only).")
    def get_membership(self, args: Membership) -> dict[str, Any]:
        return self.view(args.membership_id)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Set up a new membership for a year from today and take price_pence (quoted by the "
        "desk). The system does not check the concession's rules: the desk must."
    )
    def join_membership(self, args: Join) -> dict[str, Any]:
        kind = args.kind.strip().lower()
        if kind not in _seed.PRICES:
            raise ToolFailure("kind must be individual, joint or family")
        if kind != "individual" and not (args.joint_name and args.joint_dob):
            raise ToolFailure(f"a {kind} membership needs the second adult's name and birth date")
        if kind == "family" and not 1 <= args.children <= _seed.MAX_CHILDREN:
            raise ToolFailure("a family membership covers one to four children under 18")
        if not POSTCODE.search(args.address):
            raise ToolFailure("the address needs a postcode")
        if "@" not in args.email:
            raise ToolFailure("that is not an email address")
        date.fromisoformat(args.member_dob)
        last = self.db.execute(
            "SELECT MAX(CAST(substr(membership_id, 3) AS INTEGER)) FROM memberships"
        )
        mid = f"HM{(last.fetchone()[0] or 20000) + 1}"
        today = self.today().isoformat()
        expires = plus_year(today)
        self.db.execute(
            "INSERT INTO memberships (membership_id, kind, member_name, member_dob, joint_name, "
            "joint_dob, children, address, email, concession, price_pence, joined_on, "
            "expires_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (mid, kind, args.member_name.strip(), args.member_dob, args.joint_name,
             args.joint_dob, args.children if kind == "family" else 0, args.address.strip(),
             args.email.strip(), args.concession, args.price_pence, today, expires),
        )  # fmt: skip
        self._charge(mid, "join", args.price_pence, mid)
        return {"membership_id": mid, "kind": kind, "member_name": args.member_name.strip(),
                "starts": today, "expires_on": expires,
                "charged": money(args.price_pence)}  # fmt: skip

    @tool(
        "Add Gift Aid to a membership with the declaration's date. The system cannot check "
        "that the member pays UK tax: the desk must ask."
    )
    def add_gift_aid(self, args: GiftAid) -> dict[str, Any]:
        m = self._membership(args.membership_id)
        if m["gift_aid"]:
            raise ToolFailure("Gift Aid is already on this membership")
        date.fromisoformat(args.declaration_date)
        self.db.execute(
            "UPDATE memberships SET gift_aid = 1, gift_aid_declared = ? WHERE membership_id = ?",
            (args.declaration_date, m["membership_id"]),
        )
        return {"membership_id": m["membership_id"], "gift_aid": True,
                "declared": args.declaration_date}  # fmt: skip

    @tool(
        "Renew an active membership from 30 days before its expiry; new_expiry and price_pence "
        "are the desk's quote. Refuses a lapsed membership (it rejoins) and an early renewal."
    )
    def renew_membership(self, args: Renew) -> dict[str, Any]:
        m = self._membership(args.membership_id)
        days = (date.fromisoformat(m["expires_on"]) - self.today()).days
        if m["status"] != "active" or days < 0:
            raise ToolFailure(f"membership {m['membership_id']} has lapsed: it must rejoin")
        if days > _seed.RENEW_WINDOW_DAYS:
            raise ToolFailure("renewals open 30 days before the expiry date")
        date.fromisoformat(args.new_expiry)
        self.db.execute(
            "UPDATE memberships SET expires_on = ?, price_pence = ? WHERE membership_id = ?",
            (args.new_expiry, args.price_pence, m["membership_id"]),
        )
        self._charge(m["membership_id"], "renewal", args.price_pence, m["membership_id"])
        return {"membership_id": m["membership_id"], "expires_on": args.new_expiry,
                "charged": money(args.price_pence)}  # fmt: skip

    @tool("Rejoin a lapsed membership: a new year from today at price_pence (the desk's quote).")
    def rejoin_membership(self, args: Rejoin) -> dict[str, Any]:
        m = self._membership(args.membership_id)
        if m["status"] == "active" and m["expires_on"] >= self.today().isoformat():
            raise ToolFailure(f"membership {m['membership_id']} is still active: renew it")
        today = self.today().isoformat()
        expires = plus_year(today)
        self.db.execute(
            "UPDATE memberships SET status = 'active', joined_on = ?, expires_on = ?, "
            "price_pence = ? WHERE membership_id = ?",
            (today, expires, args.price_pence, m["membership_id"]),
        )
        self._charge(m["membership_id"], "rejoin", args.price_pence, m["membership_id"])
        return {"membership_id": m["membership_id"], "starts": today, "expires_on": expires,
                "charged": money(args.price_pence)}  # fmt: skip

    @tool(
        "Book timed tickets for the winter exhibition; price_pence (the guests' price quoted) "
        "is charged. Refuses a slot without enough places. The system does not check the "
        "4-a-slot limit or members-only Saturdays: the desk must."
    )
    def book_tickets(self, args: BookTickets) -> dict[str, Any]:
        m = self._active(args.membership_id)
        if args.tickets < 1 or not 0 <= args.guests <= args.tickets:
            raise ToolFailure("tickets must be at least 1 and guests no more than tickets")
        sid = _seed.slot_id(date.fromisoformat(args.day), args.time)
        slot = self._one("SELECT * FROM slots WHERE slot_id = ?", sid)
        if slot is None or args.day <= self.today().isoformat():
            raise ToolFailure(f"there is no bookable slot at {args.time} on {args.day}")
        left = slot["capacity"] - slot["booked"]
        if args.tickets > left:
            places = "place" if left == 1 else "places"
            raise ToolFailure(f"only {left} {places} left in that slot")
        last = self.db.execute("SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM tickets")
        bid = f"TB{(last.fetchone()[0] or 7000) + 1}"
        self.db.execute(
            "INSERT INTO tickets VALUES (?,?,?,?,?,?,?)",
            (bid, m["membership_id"], sid, args.tickets, args.guests, args.price_pence,
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        self.db.execute(
            "UPDATE slots SET booked = booked + ? WHERE slot_id = ?", (args.tickets, sid)
        )
        self._charge(m["membership_id"], "guests", args.price_pence, bid)
        return {"booking_id": bid, "day": args.day, "time": args.time, "tickets": args.tickets,
                "guests": args.guests, "charged": money(args.price_pence)}  # fmt: skip

    @tool(
        "Cancel a membership; refund_pence (quoted by the desk) goes back to the payer. The "
        "system does not check the 14-day rule: the desk must."
    )
    def cancel_membership(self, args: Cancel) -> dict[str, Any]:
        m = self._active(args.membership_id)
        self.db.execute(
            "UPDATE memberships SET status = 'cancelled' WHERE membership_id = ?",
            (m["membership_id"],),
        )
        self._charge(m["membership_id"], "refund", args.refund_pence, m["membership_id"])
        return {"membership_id": m["membership_id"], "status": "cancelled",
                "refunded": money(args.refund_pence)}  # fmt: skip

    @tool("Send a replacement card to the address on file; fee_pence (quoted) is charged.")
    def replace_card(self, args: ReplaceCard) -> dict[str, Any]:
        m = self._active(args.membership_id)
        reason = args.reason.strip().lower()
        if reason not in {"lost", "never_arrived"}:
            raise ToolFailure("reason must be lost or never_arrived")
        self.db.execute(
            "INSERT INTO cards (membership_id, reason, fee_pence, address, requested_at) "
            "VALUES (?,?,?,?,?)",
            (m["membership_id"], reason, args.fee_pence, m["address"],
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        self._charge(m["membership_id"], "card", args.fee_pence, m["membership_id"])
        return {"membership_id": m["membership_id"], "sent_to": m["address"],
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool("Change the name (of the member or the joint member) or the address on a membership.")
    def update_details(self, args: Details) -> dict[str, Any]:
        m = self._membership(args.membership_id)
        if args.name is None and args.address is None:
            raise ToolFailure("nothing to change: give a name or an address")
        if args.name is not None:
            if len(args.name.split()) < 2:
                raise ToolFailure("the name on the card needs a first name and a surname")
            column = "joint_name" if args.person == "joint" else "member_name"
            if column == "joint_name" and not m["joint_name"]:
                raise ToolFailure("this membership has no joint member")
            self.db.execute(
                f"UPDATE memberships SET {column} = ? WHERE membership_id = ?",  # noqa: S608
                (args.name.strip(), m["membership_id"]),
            )
        if args.address is not None:
            if not POSTCODE.search(args.address):
                raise ToolFailure("the address needs a postcode")
            self.db.execute(
                "UPDATE memberships SET address = ? WHERE membership_id = ?",
                (args.address.strip(), m["membership_id"]),
            )
        now = self._membership(m["membership_id"])
        return {"membership_id": now["membership_id"], "member_name": now["member_name"],
                "joint_name": now["joint_name"], "address": now["address"]}  # fmt: skip


def make_environment() -> MuseumEnvironment:
    """A fresh membership system, from the seed data."""
    return MuseumEnvironment()
