"""The marina's office system the desk works through: `MarinaEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.marina import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_holder(text: str) -> str:
    return "SM" + re.sub(r"\D", "", text)


def first_of_next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def months_between(first: date, last: date) -> int:
    """Whole calendar months from the month of `first` to the month of `last`, inclusive."""
    return max(0, (last.year - first.year) * 12 + last.month - first.month + 1)


class Holder(BaseModel):
    holder_id: str = Field(description="The berth-holder number, e.g. SM2001")


class Verify(Holder):
    boat_name: str = Field(description="The name of the boat on the account")


class BoatRef(Holder):
    boat_id: str = Field(description="e.g. B101")


class Stay(BoatRef):
    arrival: str = Field(description="YYYY-MM-DD")
    departure: str = Field(description="YYYY-MM-DD")


class BookVisit(Stay):
    pontoon: str = Field(description="A, B or C")
    price_pence: int = Field(description="The price the desk quoted, paid now in full")


class CancelVisit(Holder):
    booking_id: str = Field(description="e.g. VB3004")
    refund_pence: int = Field(description="The refund the desk quoted")


class ChangeBerth(Holder):
    contract_id: str = Field(description="e.g. BC4006")
    size_m: int = Field(description="The new berth length: 8, 10, 12 or 15")
    charge_pence: int = Field(description="Pro-rata charge (positive) or refund (negative)")


class GiveNotice(Holder):
    contract_id: str = Field(description="e.g. BC4006")
    end_date: str = Field(description="The contract's last day, YYYY-MM-DD")
    refund_pence: int = Field(description="The refund the desk quoted (annual payers)")


class BookLift(BoatRef):
    lift_date: str = Field(description="A Tuesday or Thursday, YYYY-MM-DD")
    storage_weeks: int = Field(description="Weeks ashore, 1 to 26")
    price_pence: int = Field(description="Lift and storage, as quoted; paid on the lift day")


class MoveLift(Holder):
    lift_id: str = Field(description="e.g. LO5013")
    lift_date: str = Field(description="The new lift day, YYYY-MM-DD")
    fee_pence: int = Field(description="The change fee the desk quoted (0 when 7+ days ahead)")


class TopUp(BoatRef):
    amount_pence: int = Field(description="£10 to £100 in whole pounds")


class CrewPass(BoatRef):
    name: str = Field(description="The crew member's or guest's full name")


class Insurance(BoatRef):
    insurer: str = Field(description="The insurer on the certificate")
    policy_no: str = Field(description="The policy number")
    expiry: str = Field(description="The certificate's expiry date, YYYY-MM-DD")


class Contacts(Holder):
    phone: str | None = Field(default=None, description="New mobile number")
    email: str | None = Field(default=None, description="New email address")


class Day(BaseModel):
    day: str = Field(description="YYYY-MM-DD")


class MarinaEnvironment(SqliteEnvironment):
    """Saltmarsh Marina: berth-holders, boats, berths, visitors, lifts, passes and charges."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "holder_id": ["berth-holder number", "holder number"],
        "boat_name": ["boat's name", "name of your boat", "your boat"],
        "dates": ["which nights", "arrive", "dates"],
        "phone": ["new number", "mobile number"],
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

    def _holder(self, holder_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM holders WHERE holder_id = ?", norm_holder(holder_id))
        if found is None:
            raise ToolFailure(f"no berth-holder {holder_id}")
        return found

    def _boat(self, h: dict[str, Any], boat_id: str) -> dict[str, Any]:
        b = self._one("SELECT * FROM boats WHERE boat_id = ? AND holder_id = ?",
                      boat_id.strip().upper(), h["holder_id"])  # fmt: skip
        if b is None:
            raise ToolFailure(f"no boat {boat_id} on this account")
        return b

    def _contract(self, h: dict[str, Any], contract_id: str) -> dict[str, Any]:
        c = self._one("SELECT * FROM contracts WHERE contract_id = ? AND holder_id = ?",
                      contract_id.strip().upper(), h["holder_id"])  # fmt: skip
        if c is None:
            raise ToolFailure(f"no contract {contract_id} on this account")
        if c["status"] != "active":
            raise ToolFailure(f"contract {c['contract_id']} is {c['status']}")
        return c

    def _charge(self, h: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (holder_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (h["holder_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def _day(self, text: str, what: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError as exc:
            raise ToolFailure(f"{what} must be YYYY-MM-DD") from exc

    def days_to(self, day: str) -> int:
        return (date.fromisoformat(day) - self.now().date()).days

    def view(self, holder_id: str) -> dict[str, Any]:
        """The account as staff see it: boats, contracts, visits, lifts, passes."""
        h = self._holder(holder_id)
        boats = self._rows("SELECT * FROM boats WHERE holder_id = ?", h["holder_id"])
        for b in boats:
            b["crew_passes"] = self._rows(
                "SELECT * FROM crew_passes WHERE boat_id = ? AND status = 'active'", b["boat_id"]
            )
        contracts = self._rows(
            "SELECT c.*, b.size_m, b.pontoon FROM contracts c JOIN berths b USING (berth_id) "
            "WHERE c.holder_id = ? AND c.status = 'active'",
            h["holder_id"],
        )
        visits = self._rows(
            "SELECT * FROM visitor_bookings WHERE holder_id = ? AND status = 'confirmed' "
            "ORDER BY arrival",
            h["holder_id"],
        )
        for v in visits:
            v["days_to_arrival"] = self.days_to(v["arrival"])
        lifts = self._rows("SELECT * FROM lifts WHERE holder_id = ? AND status = 'booked'",
                           h["holder_id"])  # fmt: skip
        for lift in lifts:
            lift["days_to_lift"] = self.days_to(lift["lift_date"])
        return {**h, "boats": boats, "contracts": contracts, "visits": visits, "lifts": lifts,
                "gate_code": _seed.GATE_CODE}  # fmt: skip

    def _free_nights(self, pontoon: dict[str, Any], first: date, last: date) -> list[str]:
        """The nights from first to last (exclusive) with every visitor berth taken."""
        full, night = [], first
        while night < last:
            taken = self._one(
                "SELECT COUNT(*) AS n FROM visitor_bookings WHERE pontoon = ? AND status = "
                "'confirmed' AND arrival <= ? AND departure > ?",
                pontoon["pontoon"], night.isoformat(), night.isoformat(),
            )  # fmt: skip
            if taken and taken["n"] >= pontoon["visitor_berths"]:
                full.append(night.isoformat())
            night += timedelta(days=1)
        return full

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the berth-holder number and the name of the boat on that "
        "account must match. Returns the account (staff view)."
    )
    def verify_holder(self, args: Verify) -> dict[str, Any]:
        b = self._one(
            "SELECT holder_id FROM boats WHERE holder_id = ? AND lower(name) = ?",
            norm_holder(args.holder_id),
            args.boat_name.strip().lower(),
        )
        if b is None:
            raise ToolFailure("verification failed: no account matches that number and boat")
        return self.view(b["holder_id"])

    @tool("Read an account (staff view, after verify_holder only).")
    def get_account(self, args: Holder) -> dict[str, Any]:
        return self.view(args.holder_id)

    @tool(
        "Visitor berths for a boat and a stay: each pontoon's limits, whether the boat fits, "
        "and the nights on which every visitor berth is taken."
    )
    def check_visitor_berths(self, args: Stay) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        first, last = self._day(args.arrival, "arrival"), self._day(args.departure, "departure")
        if last <= first:
            raise ToolFailure("the departure must be after the arrival")
        out = []
        for p in self._rows("SELECT * FROM pontoons ORDER BY pontoon"):
            fits = (boat["length_cm"] <= p["max_length_cm"]
                    and boat["draught_cm"] <= p["max_draught_cm"])  # fmt: skip
            out.append({"pontoon": p["pontoon"], "max_length_m": p["max_length_cm"] / 100,
                        "max_draught_m": p["max_draught_cm"] / 100, "fits": fits,
                        "full_nights": self._free_nights(p, first, last)})  # fmt: skip
        return {"boat": boat["name"], "length_m": boat["length_cm"] / 100,
                "draught_m": boat["draught_cm"] / 100, "pontoons": out}  # fmt: skip

    @tool("The fuel berth's opening hours on a day.")
    def fuel_berth_hours(self, args: Day) -> dict[str, Any]:
        day = self._day(args.day, "day")
        hours = _seed.fuel_hours(day)
        if hours is None:
            return {"day": args.day, "open": False}
        return {"day": args.day, "open": True, "opens": hours[0], "closes": hours[1]}

    # -- visitors --------------------------------------------------------------------------
    @tool(
        "Book a visitor berth on a pontoon; price_pence (quoted by the desk) is taken from the "
        "card now. Refuses a boat too long or too deep for the pontoon, or a full night."
    )
    def book_visitor_berth(self, args: BookVisit) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        first, last = self._day(args.arrival, "arrival"), self._day(args.departure, "departure")
        if first < self.now().date() or last <= first:
            raise ToolFailure("the arrival must be today or later and before the departure")
        p = self._one("SELECT * FROM pontoons WHERE pontoon = ?", args.pontoon.strip().upper())
        if p is None:
            raise ToolFailure(f"no pontoon {args.pontoon}")
        if boat["length_cm"] > p["max_length_cm"] or boat["draught_cm"] > p["max_draught_cm"]:
            raise ToolFailure(f"{boat['name']} is too long or too deep for pontoon {p['pontoon']}")
        full = self._free_nights(p, first, last)
        if full:
            raise ToolFailure(f"pontoon {p['pontoon']} has no visitor berth on {', '.join(full)}")
        last_id = self.db.execute(
            "SELECT MAX(CAST(substr(booking_id, 3) AS INTEGER)) FROM visitor_bookings"
        )
        booking_id = f"VB{(last_id.fetchone()[0] or 3000) + 1}"
        self.db.execute(
            "INSERT INTO visitor_bookings (booking_id, holder_id, boat_id, pontoon, arrival, "
            "departure, price_pence) VALUES (?,?,?,?,?,?,?)",
            (booking_id, h["holder_id"], boat["boat_id"], p["pontoon"], args.arrival,
             args.departure, args.price_pence),
        )  # fmt: skip
        self._charge(h, "visitor", args.price_pence, booking_id)
        return {"booking_id": booking_id, "pontoon": p["pontoon"], "arrival": args.arrival,
                "departure": args.departure, "paid": money(args.price_pence),
                "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Cancel a visitor booking; refund_pence (quoted by the desk) goes back to the card. "
        "The system does not check the refund rules: the desk must."
    )
    def cancel_visitor_berth(self, args: CancelVisit) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        v = self._one("SELECT * FROM visitor_bookings WHERE booking_id = ? AND holder_id = ?",
                      args.booking_id.strip().upper(), h["holder_id"])  # fmt: skip
        if v is None or v["status"] != "confirmed":
            raise ToolFailure(f"no confirmed visitor booking {args.booking_id} on this account")
        self.db.execute("UPDATE visitor_bookings SET status = 'cancelled' WHERE booking_id = ?",
                        (v["booking_id"],))  # fmt: skip
        self._charge(h, "refund", args.refund_pence, v["booking_id"])
        return {"booking_id": v["booking_id"], "status": "cancelled",
                "refunded": money(args.refund_pence), "card_last4": h["card_last4"]}  # fmt: skip

    # -- annual contracts ------------------------------------------------------------------
    @tool(
        "Move a contract to a free berth of another size from the 1st of next month. Refuses a "
        "boat too long for the berth or too deep for its pontoon. charge_pence (the pro-rata "
        "difference the desk quoted; negative is a refund) goes to the card; monthly payers' "
        "payment changes to the new size's."
    )
    def change_berth(self, args: ChangeBerth) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        c = self._contract(h, args.contract_id)
        boat = self._boat(h, c["boat_id"])
        if args.size_m not in _seed.BERTH_ANNUAL:
            raise ToolFailure("berths are 8, 10, 12 or 15 metres")
        if boat["length_cm"] > args.size_m * 100:
            raise ToolFailure(f"{boat['name']} is too long for a {args.size_m} m berth")
        free = self._one(
            "SELECT b.* FROM berths b JOIN pontoons p USING (pontoon) WHERE b.size_m = ? AND "
            "p.max_draught_cm >= ? AND b.berth_id NOT IN (SELECT berth_id FROM contracts WHERE "
            "status = 'active') ORDER BY b.berth_id",
            args.size_m, boat["draught_cm"],
        )  # fmt: skip
        if free is None:
            raise ToolFailure(f"no free {args.size_m} m berth that suits {boat['name']}")
        annual = _seed.BERTH_ANNUAL[args.size_m]
        monthly = annual // 12 if c["payment"] == "monthly" else 0
        self.db.execute(
            "UPDATE contracts SET berth_id = ?, annual_pence = ?, monthly_pence = ? "
            "WHERE contract_id = ?",
            (free["berth_id"], annual, monthly, c["contract_id"]),
        )
        if args.charge_pence > 0:
            self._charge(h, "berth_change", args.charge_pence, c["contract_id"])
        elif args.charge_pence < 0:
            self._charge(h, "refund", -args.charge_pence, c["contract_id"])
        starts = first_of_next_month(self.now().date()).isoformat()
        return {"contract_id": c["contract_id"], "berth_id": free["berth_id"],
                "size_m": args.size_m, "from": starts, "annual": money(annual),
                "monthly": money(monthly) if monthly else None,
                "charged": money(max(args.charge_pence, 0)),
                "refunded": money(max(-args.charge_pence, 0)),
                "card_last4": h["card_last4"]}  # fmt: skip

    @tool(
        "Give notice on a contract: it ends on end_date, which must allow one full calendar "
        "month's notice. refund_pence (quoted by the desk) goes to the card; the system does "
        "not check it."
    )
    def give_notice(self, args: GiveNotice) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        c = self._contract(h, args.contract_id)
        end = self._day(args.end_date, "end_date")
        earliest = first_of_next_month(first_of_next_month(self.now().date())) - timedelta(1)
        if end < earliest:
            raise ToolFailure(f"one full month's notice: the earliest end is {earliest}")
        if end.isoformat() > c["ends"]:
            raise ToolFailure(f"the contract already ends on {c['ends']}")
        self.db.execute(
            "UPDATE contracts SET status = 'notice_given', notice_end = ? WHERE contract_id = ?",
            (args.end_date, c["contract_id"]),
        )
        self._charge(h, "refund", args.refund_pence, c["contract_id"])
        return {"contract_id": c["contract_id"], "ends": args.end_date,
                "refunded": money(args.refund_pence), "card_last4": h["card_last4"]}  # fmt: skip

    # -- lift-out and storage ashore -------------------------------------------------------
    def _lift_day(self, day: date, moving: str | None = None) -> None:
        if day <= self.now().date():
            raise ToolFailure("the lift day must be a future day")
        if day.weekday() not in _seed.LIFT_WEEKDAYS:
            raise ToolFailure("lifts are on Tuesdays and Thursdays only")
        taken = self._one("SELECT COUNT(*) AS n FROM lifts WHERE lift_date = ? AND status = "
                          "'booked' AND lift_id != ?", day.isoformat(), moving or "")  # fmt: skip
        if taken and taken["n"] >= _seed.LIFTS_PER_DAY:
            raise ToolFailure(f"the lift on {day.isoformat()} is fully booked")

    @tool(
        "Book a lift-out with storage ashore on a lift day (Tuesdays and Thursdays, three boats "
        "a day). price_pence, as quoted, is paid on the lift day. The system does not check "
        "insurance: the desk must."
    )
    def book_lift(self, args: BookLift) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        day = self._day(args.lift_date, "lift_date")
        self._lift_day(day)
        if not 1 <= args.storage_weeks <= 26:
            raise ToolFailure("storage ashore is 1 to 26 weeks")
        last_id = self.db.execute("SELECT MAX(CAST(substr(lift_id, 3) AS INTEGER)) FROM lifts")
        lift_id = f"LO{(last_id.fetchone()[0] or 5000) + 1}"
        self.db.execute(
            "INSERT INTO lifts (lift_id, holder_id, boat_id, lift_date, storage_weeks, "
            "price_pence) VALUES (?,?,?,?,?,?)",
            (lift_id, h["holder_id"], boat["boat_id"], args.lift_date, args.storage_weeks,
             args.price_pence),
        )  # fmt: skip
        return {"lift_id": lift_id, "boat": boat["name"], "lift_date": args.lift_date,
                "storage_weeks": args.storage_weeks, "price": money(args.price_pence)}  # fmt: skip

    @tool("Move a lift-out to another lift day; fee_pence (quoted by the desk) goes to the card.")
    def move_lift(self, args: MoveLift) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        lift = self._one("SELECT * FROM lifts WHERE lift_id = ? AND holder_id = ? AND status = "
                         "'booked'", args.lift_id.strip().upper(), h["holder_id"])  # fmt: skip
        if lift is None:
            raise ToolFailure(f"no booked lift {args.lift_id} on this account")
        day = self._day(args.lift_date, "lift_date")
        self._lift_day(day, lift["lift_id"])
        self.db.execute("UPDATE lifts SET lift_date = ? WHERE lift_id = ?",
                        (args.lift_date, lift["lift_id"]))  # fmt: skip
        self._charge(h, "change_fee", args.fee_pence, lift["lift_id"])
        return {"lift_id": lift["lift_id"], "lift_date": args.lift_date,
                "fee": money(args.fee_pence), "card_last4": h["card_last4"]}  # fmt: skip

    # -- electricity, gate, crew -----------------------------------------------------------
    @tool(
        "Top up the electricity credit on a contract berth's pedestal (£10 to £100, whole "
        "pounds), charged to the card."
    )
    def top_up_electricity(self, args: TopUp) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        if not self._one("SELECT 1 AS x FROM contracts WHERE boat_id = ? AND status = 'active'",
                         boat["boat_id"]):  # fmt: skip
            raise ToolFailure(f"{boat['name']} has no annual berth with a metered pedestal")
        amount = args.amount_pence
        if amount % 100 or not _seed.TOPUP_MIN_PENCE <= amount <= _seed.TOPUP_MAX_PENCE:
            raise ToolFailure("top-ups are £10 to £100 in whole pounds")
        self.db.execute("UPDATE boats SET meter_pence = meter_pence + ? WHERE boat_id = ?",
                        (amount, boat["boat_id"]))  # fmt: skip
        self.db.execute("INSERT INTO meter_topups (boat_id, amount_pence, created_at) "
                        "VALUES (?,?,?)", (boat["boat_id"], amount,
                                           self.now().strftime(_seed.STAMP)))  # fmt: skip
        self._charge(h, "electricity", amount, boat["boat_id"])
        credit = self._boat(h, boat["boat_id"])["meter_pence"]
        return {"boat": boat["name"], "added": money(amount), "credit": money(credit),
                "card_last4": h["card_last4"]}  # fmt: skip

    @tool("Text this month's gate code to the mobile number on record (and nowhere else).")
    def send_gate_code(self, args: Holder) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        self.db.execute("INSERT INTO gate_code_sends (holder_id, phone, sent_at) VALUES (?,?,?)",
                        (h["holder_id"], h["phone"], self.now().strftime(_seed.STAMP)))  # fmt: skip
        return {"sent_to": h["phone"]}

    @tool(
        "Issue a named crew/guest pass for a boat. The system does not check the cap of four "
        "active passes per boat: the desk must."
    )
    def add_crew_pass(self, args: CrewPass) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        name = " ".join(args.name.split())
        if len(name.split()) < 2:
            raise ToolFailure("a pass needs the person's full name")
        self.db.execute("INSERT INTO crew_passes (boat_id, name) VALUES (?,?)",
                        (boat["boat_id"], name))  # fmt: skip
        count = self._one("SELECT COUNT(*) AS n FROM crew_passes WHERE boat_id = ? AND "
                          "status = 'active'", boat["boat_id"])  # fmt: skip
        return {"boat": boat["name"], "name": name, "active_passes": count["n"] if count else 0}

    # -- insurance and contacts ------------------------------------------------------------
    @tool("Record a boat's insurance certificate. Refuses one that has already expired.")
    def update_insurance(self, args: Insurance) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        boat = self._boat(h, args.boat_id)
        expiry = self._day(args.expiry, "expiry")
        if expiry <= self.now().date():
            raise ToolFailure(f"that certificate expired on {args.expiry}; it can't be recorded")
        self.db.execute(
            "UPDATE boats SET insurer = ?, policy_no = ?, insurance_expiry = ? WHERE boat_id = ?",
            (args.insurer.strip(), args.policy_no.strip().upper(), args.expiry, boat["boat_id"]),
        )
        return {"boat": boat["name"], "insurer": args.insurer.strip(),
                "policy_no": args.policy_no.strip().upper(), "expiry": args.expiry}  # fmt: skip

    @tool("Change the mobile number and/or the email address on record.")
    def update_contacts(self, args: Contacts) -> dict[str, Any]:
        h = self._holder(args.holder_id)
        if args.phone is not None:
            digits = re.sub(r"\D", "", args.phone)
            if len(digits) != 11 or not digits.startswith("07"):
                raise ToolFailure(f"{args.phone!r} is not a UK mobile number")
            self.db.execute("UPDATE holders SET phone = ? WHERE holder_id = ?",
                            (f"{digits[:5]} {digits[5:]}", h["holder_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE holders SET email = ? WHERE holder_id = ?",
                            (args.email.strip(), h["holder_id"]))  # fmt: skip
        now = self._holder(h["holder_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> MarinaEnvironment:
    """A fresh office system, from the seed data."""
    return MarinaEnvironment()
