"""Lumen Rail's travel-change desk: bookings, a two-week timetable and the desk's tools.

The clock is fixed: it is always Monday 2026-03-16 09:00 (`NOW`). Nothing reads the real clock.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from vistasim.env import SqliteEnvironment, ToolFailure, tool

TODAY = date(2026, 3, 16)
NOW_MINUTES = 9 * 60
NOW = "2026-03-16T09:00"
LAST_DAY = TODAY + timedelta(days=13)  # the timetable is open until Sunday 29 March

CHANGE_FEE = {"standard": 10.0, "first": 0.0}
EXTRA_FEE = {"bicycle": 8.0, "pet": 5.0}
CHANGE_CLOSES_MIN = 60
CANCEL_CLOSES_MIN = 30

TIMES = ["07:15", "08:30", "09:45", "10:30", "11:30", "13:45", "16:00", "18:30"]
PEAK = {"07:15", "08:30", "16:00", "18:30"}
ROUTES = {  # code: (origin, destination, first train number, base standard fare)
    "PB": ("Paris Nord", "Brussels Midi", 201, 49.0),
    "BP": ("Brussels Midi", "Paris Nord", 211, 49.0),
    "BA": ("Brussels Midi", "Amsterdam Centraal", 301, 39.0),
    "AB": ("Amsterdam Centraal", "Brussels Midi", 311, 39.0),
}
# (train, date): (standard seats, first seats, bicycle spaces) overriding the generated counts
OVERRIDES = {
    ("LR207", "2026-03-20"): (0, 0, 0),  # Paris -> Brussels Friday 16:00: sold out
    ("LR211", "2026-03-20"): (14, 0, 2),  # Brussels -> Paris Friday 07:15: First full
    ("LR312", "2026-03-17"): (0, 3, 1),  # Amsterdam -> Brussels Tuesday 08:30: Standard full
    ("LR308", "2026-03-19"): (0, 0, 0),  # Brussels -> Amsterdam Thursday 18:30: sold out
    ("LR307", "2026-03-21"): (9, 2, 0),  # Brussels -> Amsterdam Saturday 16:00: no bike space
}

PASSENGERS = [  # id, first, last, date of birth, phone
    ("P01", "Amelia", "Hart", "1988-04-12", "+33 6 12 34 56 78"),
    ("P02", "Raj", "Patel", "1983-02-28", "+44 7700 900123"),
    ("P03", "Eva", "Lindqvist", "1979-06-02", "+46 70 123 45 67"),
    ("P04", "Sofia", "Romano", "1995-05-30", "+39 347 123 4567"),
    ("P05", "Ingrid", "Larsen", "1969-09-09", "+47 412 34 567"),
    ("P06", "Tomasz", "Nowak", "1975-11-03", "+48 601 234 567"),
    ("P07", "Chloé", "Dubois", "1992-07-21", "+33 7 98 76 54 32"),
    ("P08", "Oliver", "Bennett", "1990-01-15", "+44 7700 900456"),
    ("P09", "Hannah", "Müller", "1980-12-01", "+49 151 2345 6789"),
    ("P10", "Noah", "Williams", "1986-10-10", "+32 470 12 34 56"),
    ("P11", "Daniel", "Kim", "1984-05-05", "+32 471 98 76 54"),
    ("P12", "Grace", "Lee", "1991-08-19", "+32 472 55 66 77"),
    ("P13", "Lucía", "Fernández", "1993-01-27", "+34 612 345 678"),
    ("P14", "Beatriz", "Costa", "1987-03-24", "+351 912 345 678"),
    ("P15", "Lars", "Jensen", "1972-04-04", "+45 20 12 34 56"),
    ("P16", "Jonas", "Weber", "1998-11-23", "+49 160 9876 5432"),
]
BOOKINGS = [  # ref, passenger, train, date, class, seat, price, bicycle, pet, status
    ("LR4821", "P01", "LR201", "2026-03-20", "standard", "12A", 64.0, 0, 0, "active"),
    ("LR7034", "P02", "LR206", "2026-03-25", "first", "3B", 86.0, 0, 0, "active"),
    ("LR3390", "P03", "LR217", "2026-03-18", "standard", "22C", 61.0, 0, 0, "active"),
    ("LR8266", "P04", "LR208", "2026-03-19", "standard", "9D", 69.0, 0, 0, "active"),
    ("LR7719", "P05", "LR213", "2026-03-16", "standard", "15A", 54.0, 0, 0, "active"),
    ("LR5307", "P06", "LR307", "2026-03-17", "standard", "31B", 59.0, 1, 0, "active"),
    ("LR6150", "P07", "LR312", "2026-03-19", "standard", "6C", 45.0, 0, 0, "active"),
    ("LR8042", "P08", "LR305", "2026-03-18", "standard", "18D", 44.0, 0, 0, "active"),
    ("LR9113", "P09", "LR311", "2026-03-24", "standard", "27A", 58.0, 0, 0, "active"),
    ("LR6677", "P10", "LR304", "2026-03-21", "standard", "11B", 44.0, 0, 0, "active"),
    ("LR5012", "P11", "LR202", "2026-03-23", "standard", "7D", 69.0, 0, 0, "active"),
    ("LR5019", "P12", "LR202", "2026-03-23", "standard", "14C", 69.0, 0, 0, "active"),
    ("LR2205", "P13", "LR214", "2026-03-27", "standard", "20A", 59.0, 0, 0, "active"),
    ("LR4470", "P14", "LR205", "2026-03-19", "standard", "5B", 54.0, 0, 0, "active"),
    ("LR3141", "P15", "LR211", "2026-03-20", "standard", "16C", 64.0, 0, 0, "active"),
    ("LR7302", "P16", "LR302", "2026-03-18", "standard", "8A", 54.0, 0, 0, "active"),
    ("LR1188", "P01", "LR215", "2026-03-08", "standard", "2A", 49.0, 0, 0, "travelled"),
    ("LR2950", "P06", "LR301", "2026-03-12", "first", "1A", 62.0, 0, 0, "cancelled"),
]

SCHEMA_SQL = """
CREATE TABLE passengers (passenger_id TEXT PRIMARY KEY, first_name TEXT, last_name TEXT,
  date_of_birth TEXT, email TEXT, phone TEXT);
CREATE TABLE departures (departure_id TEXT PRIMARY KEY, train TEXT, origin TEXT,
  destination TEXT, date TEXT, time TEXT, seats_standard INTEGER, seats_first INTEGER,
  fare_standard REAL, fare_first REAL, bike_spaces INTEGER);
CREATE TABLE bookings (ref TEXT PRIMARY KEY, passenger_id TEXT REFERENCES passengers,
  departure_id TEXT REFERENCES departures, train TEXT, origin TEXT, destination TEXT,
  travel_date TEXT, departure_time TEXT, travel_class TEXT, seat TEXT, price_eur REAL,
  status TEXT, bicycle INTEGER, pet INTEGER, refund_eur REAL, changes INTEGER DEFAULT 0);
CREATE TABLE payments (id INTEGER PRIMARY KEY AUTOINCREMENT, booking_ref TEXT, kind TEXT,
  amount_eur REAL, created_at TEXT);
CREATE TABLE verifications (booking_ref TEXT PRIMARY KEY, passenger_id TEXT, method TEXT);
"""


def plain(text: str) -> str:
    """Lower case without accents, for forgiving name comparisons."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c)).strip().lower()


def minutes_until(day: str, hhmm: str) -> int:
    """Minutes from NOW to a departure (negative once it has left)."""
    days = (date.fromisoformat(day) - TODAY).days
    hours, mins = hhmm.split(":")
    return days * 1440 + int(hours) * 60 + int(mins) - NOW_MINUTES


def _city(station: str) -> str:
    return (plain(station).split() or [""])[0]


def _norm_ref(ref: str) -> str:
    return ref.upper().replace(" ", "").replace("-", "")


class RefArgs(BaseModel):
    booking_ref: str = Field(description="Booking reference, e.g. LR4821")


class VerifyArgs(RefArgs):
    last_name: str = Field(description="Lead passenger's last name")
    date_of_birth: str | None = Field(None, description="Lead passenger's birth date, YYYY-MM-DD")
    email: str | None = Field(None, description="Email address on the booking")


class SearchArgs(BaseModel):
    origin: str = Field(description="Departure station or city, e.g. Paris Nord")
    destination: str = Field(description="Arrival station or city")
    date: str = Field(description="Travel date, YYYY-MM-DD")


class DepartureArgs(RefArgs):
    departure_id: str = Field(description="From search_departures, e.g. LR205-2026-03-20")


class CancelArgs(RefArgs):
    refund_type: Literal["policy", "full"] = Field(
        "policy", description="'policy' refunds by time to departure; 'full' only when Lumen Rail "
        "cancelled the train or it ran over 60 minutes late")


class ExtraArgs(RefArgs):
    extra: Literal["bicycle", "pet"]


class NoArgs(BaseModel):
    pass


class ViewArgs(RefArgs):
    last_name: str


class RailEnvironment(SqliteEnvironment):
    """Lumen Rail's booking system, as the travel-change desk reaches it."""

    SCHEMA_SQL = SCHEMA_SQL

    def seed(self, db: sqlite3.Connection) -> None:
        for pid, first, last, dob, phone in PASSENGERS:
            email = f"{plain(first)}.{plain(last)}@example.com"
            db.execute("INSERT INTO passengers VALUES (?,?,?,?,?,?)",
                       (pid, first, last, dob, email, phone))
        for r_index, (origin, dest, first_no, base) in enumerate(ROUTES.values()):
            for offset in range(-10, 14):
                day = TODAY + timedelta(days=offset)
                for t_index, hhmm in enumerate(TIMES):
                    train = f"LR{first_no + t_index}"
                    std = base + (15 if hhmm in PEAK else 0) + 5 * (day.day % 3)
                    seats = (12 + (day.day + 3 * t_index + r_index) % 30,
                             4 + (day.day + t_index) % 6, 2 + t_index % 3)
                    seats = OVERRIDES.get((train, day.isoformat()), seats)
                    db.execute("INSERT INTO departures VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                               (f"{train}-{day.isoformat()}", train, origin, dest,
                                day.isoformat(), hhmm, seats[0], seats[1], std,
                                round(std * 1.6), seats[2]))
        for ref, pid, train, day, cls, seat, price, bike, pet, status in BOOKINGS:
            dep = db.execute("SELECT * FROM departures WHERE departure_id = ?",
                             (f"{train}-{day}",)).fetchone()
            db.execute("INSERT INTO bookings VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                       (ref, pid, dep[0], train, dep[2], dep[3], day, dep[5], cls, seat,
                        price, status, bike, pet, None))

    # -- helpers ---------------------------------------------------------------------------

    def _booking(self, ref: str) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM bookings WHERE ref = ?", (_norm_ref(ref),)).fetchone()
        if row is None:
            raise ToolFailure(f"No booking found with reference {_norm_ref(ref)}.")
        return dict(row)

    def _departure(self, departure_id: str) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM departures WHERE departure_id = ?",
                              (departure_id.upper().strip(),)).fetchone()
        if row is None:
            raise ToolFailure(f"No departure {departure_id!r}; the timetable is open from "
                              f"{TODAY.isoformat()} to {LAST_DAY.isoformat()}.")
        return dict(row)

    def _active(self, ref: str) -> dict[str, Any]:
        booking = self._booking(ref)
        verified = self.db.execute("SELECT 1 FROM verifications WHERE passenger_id = ?",
                                   (booking["passenger_id"],)).fetchone()
        if verified is None:
            raise ToolFailure(f"The lead passenger of {booking['ref']} has not been verified in "
                              "this conversation; call verify_passenger first.")
        if booking["status"] != "active":
            raise ToolFailure(f"Booking {booking['ref']} is {booking['status']}.")
        return booking

    def _charge(self, ref: str, kind: str, amount: float) -> None:
        if amount:
            self.db.execute("INSERT INTO payments (booking_ref, kind, amount_eur, created_at) "
                            "VALUES (?,?,?,?)", (ref, kind, round(amount, 2), NOW))

    def _quote(self, booking: dict[str, Any], dep: dict[str, Any]) -> dict[str, Any]:
        left = minutes_until(booking["travel_date"], booking["departure_time"])
        if left < CHANGE_CLOSES_MIN:
            raise ToolFailure(f"Changes close {CHANGE_CLOSES_MIN} minutes before departure: "
                              f"{booking['train']} leaves at {booking['departure_time']} on "
                              f"{booking['travel_date']}, {max(left, 0)} minutes from now.")
        if (dep["origin"], dep["destination"]) != (booking["origin"], booking["destination"]):
            raise ToolFailure(f"A change must keep the route {booking['origin']} -> "
                              f"{booking['destination']}.")
        if dep["departure_id"] == booking["departure_id"]:
            raise ToolFailure(f"Booking {booking['ref']} is already on {dep['departure_id']}.")
        if minutes_until(dep["date"], dep["time"]) <= 0:
            raise ToolFailure(f"{dep['train']} on {dep['date']} at {dep['time']} has already left.")
        cls = booking["travel_class"]
        if dep[f"seats_{cls}"] <= 0:
            raise ToolFailure(f"{dep['train']} on {dep['date']} at {dep['time']} is sold out in "
                              f"{cls.title()} class.")
        fee = CHANGE_FEE[cls]
        diff = max(0.0, dep[f"fare_{cls}"] - booking["price_eur"])
        return {"booking_ref": booking["ref"], "departure_id": dep["departure_id"],
                "train": dep["train"], "date": dep["date"], "time": dep["time"],
                "change_fee_eur": fee, "fare_difference_eur": diff,
                "total_due_eur": round(fee + diff, 2)}

    def _refund(self, booking: dict[str, Any]) -> dict[str, Any]:
        left = minutes_until(booking["travel_date"], booking["departure_time"])
        if left < CANCEL_CLOSES_MIN:
            raise ToolFailure(f"Cancellations close {CANCEL_CLOSES_MIN} minutes before departure; "
                              f"{booking['train']} leaves {max(left, 0)} minutes from now.")
        percent = 100 if left >= 7 * 1440 else 50 if left >= 48 * 60 else 0
        return {"booking_ref": booking["ref"], "hours_to_departure": round(left / 60, 1),
                "minutes_to_departure": left,
                "refund_percent": percent, "price_eur": booking["price_eur"],
                "refund_eur": round(booking["price_eur"] * percent / 100, 2),
                "extras_refundable": False}

    # -- agent tools -----------------------------------------------------------------------

    @tool("Verify the lead passenger of a booking: last name plus date of birth or email. "
          "Required once per conversation before disclosing or changing a booking.")
    def verify_passenger(self, args: VerifyArgs) -> dict[str, Any]:
        booking = self._booking(args.booking_ref)
        pax = dict(self.db.execute("SELECT * FROM passengers WHERE passenger_id = ?",
                                   (booking["passenger_id"],)).fetchone())
        if not (args.date_of_birth or args.email):
            raise ToolFailure("Give the date of birth or the email on the booking as well.")
        if args.date_of_birth and len(args.date_of_birth) != 10:
            raise ToolFailure("date_of_birth must be written YYYY-MM-DD.")
        second = (args.date_of_birth == pax["date_of_birth"] if args.date_of_birth
                  else plain(args.email or "") == pax["email"])
        if plain(args.last_name) != plain(pax["last_name"]) or not second:
            raise ToolFailure(f"The details given do not match booking {booking['ref']}.")
        method = "date_of_birth" if args.date_of_birth else "email"
        self.db.execute("INSERT OR REPLACE INTO verifications VALUES (?,?,?)",
                        (booking["ref"], pax["passenger_id"], method))
        return {"verified": True, "booking_ref": booking["ref"],
                "first_name": pax["first_name"], "last_name": pax["last_name"]}

    @tool("Look up a booking by reference (desk view: includes the passenger's personal data, "
          "which may only be shared with the verified lead passenger).")
    def get_booking(self, args: RefArgs) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        pax = dict(self.db.execute("SELECT * FROM passengers WHERE passenger_id = ?",
                                   (b["passenger_id"],)).fetchone())
        extras = [name for name in ("bicycle", "pet") if b[name]]
        return {"booking_ref": b["ref"], "status": b["status"], "passenger": pax,
                "departure_id": b["departure_id"], "train": b["train"], "origin": b["origin"],
                "destination": b["destination"], "date": b["travel_date"],
                "weekday": date.fromisoformat(b["travel_date"]).strftime("%A"),
                "time": b["departure_time"], "travel_class": b["travel_class"],
                "seat": b["seat"], "price_eur": b["price_eur"], "extras": extras,
                "refund_eur": b["refund_eur"], "changes": b["changes"]}

    @tool("Departures between two stations on one date, with seats left, fares and bike spaces.")
    def search_departures(self, args: SearchArgs) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT * FROM departures WHERE date = ? AND lower(origin) LIKE ? AND "
            "lower(destination) LIKE ? ORDER BY time",
            (args.date, f"{_city(args.origin)}%", f"{_city(args.destination)}%"))
        found = [dict(r) | {"departed": minutes_until(r["date"], r["time"]) <= 0} for r in rows]
        if not found:
            raise ToolFailure(f"No departures from {args.origin} to {args.destination} on "
                              f"{args.date}; the timetable is open until {LAST_DAY.isoformat()}.")
        return found

    @tool("Price a change of a booking to another departure (fee and fare difference); "
          "changes nothing.")
    def quote_change(self, args: DepartureArgs) -> dict[str, Any]:
        return self._quote(self._active(args.booking_ref), self._departure(args.departure_id))

    @tool("Move a booking to another departure on the same route, charging the change fee and "
          "any fare difference. Needs a verified passenger.")
    def change_booking(self, args: DepartureArgs) -> dict[str, Any]:
        booking = self._active(args.booking_ref)
        dep = self._departure(args.departure_id)
        quote = self._quote(booking, dep)
        cls = booking["travel_class"]
        left = dep[f"seats_{cls}"]
        seat = f"{1 + left % 30}{'ABCD'[left % 4]}"
        self.db.execute(f"UPDATE departures SET seats_{cls} = seats_{cls} - 1 "
                        "WHERE departure_id = ?", (dep["departure_id"],))
        self.db.execute(f"UPDATE departures SET seats_{cls} = seats_{cls} + 1 "
                        "WHERE departure_id = ?", (booking["departure_id"],))
        self.db.execute(
            "UPDATE bookings SET departure_id = ?, train = ?, travel_date = ?, departure_time = ?,"
            " seat = ?, price_eur = price_eur + ?, changes = changes + 1 WHERE ref = ?",
            (dep["departure_id"], dep["train"], dep["date"], dep["time"], seat,
             quote["fare_difference_eur"], booking["ref"]))
        self._charge(booking["ref"], "change_fee", quote["change_fee_eur"])
        self._charge(booking["ref"], "fare_difference", quote["fare_difference_eur"])
        return quote | {"changed": True, "seat": seat}

    @tool("Upgrade a booking to First class on the same departure; charges the difference "
          "between today's Standard and First fares. Needs a verified passenger.")
    def upgrade_seat(self, args: RefArgs) -> dict[str, Any]:
        booking = self._active(args.booking_ref)
        if booking["travel_class"] == "first":
            raise ToolFailure(f"Booking {booking['ref']} is already in First class.")
        dep = self._departure(booking["departure_id"])
        if dep["seats_first"] <= 0:
            raise ToolFailure(f"First class on {dep['train']} at {dep['time']} on {dep['date']} "
                              "is sold out.")
        price = round(dep["fare_first"] - dep["fare_standard"], 2)
        seat = f"{1 + dep['seats_first']}{'AC'[dep['seats_first'] % 2]}"
        self.db.execute("UPDATE departures SET seats_first = seats_first - 1, seats_standard = "
                        "seats_standard + 1 WHERE departure_id = ?", (dep["departure_id"],))
        self.db.execute("UPDATE bookings SET travel_class = 'first', seat = ?, price_eur = "
                        "price_eur + ? WHERE ref = ?", (seat, price, booking["ref"]))
        self._charge(booking["ref"], "upgrade", price)
        return {"booking_ref": booking["ref"], "travel_class": "first", "seat": seat,
                "charged_eur": price}

    @tool("What a cancellation would refund now, by time to departure; changes nothing.")
    def quote_refund(self, args: RefArgs) -> dict[str, Any]:
        return self._refund(self._active(args.booking_ref))

    @tool("Cancel a booking and refund it. Needs a verified passenger.")
    def cancel_booking(self, args: CancelArgs) -> dict[str, Any]:
        booking = self._active(args.booking_ref)
        quote = self._refund(booking)
        refund = booking["price_eur"] if args.refund_type == "full" else quote["refund_eur"]
        self.db.execute("UPDATE bookings SET status = 'cancelled', refund_eur = ? WHERE ref = ?",
                        (refund, booking["ref"]))
        self._charge(booking["ref"], "refund", -refund)
        return {"booking_ref": booking["ref"], "status": "cancelled", "refund_eur": refund,
                "refund_type": args.refund_type}

    @tool("Add a bicycle space (EUR 8) or a pet (EUR 5) to a booking. Needs a verified passenger.")
    def add_extra(self, args: ExtraArgs) -> dict[str, Any]:
        booking = self._active(args.booking_ref)
        if booking[args.extra]:
            raise ToolFailure(f"Booking {booking['ref']} already includes a {args.extra}.")
        dep = self._departure(booking["departure_id"])
        if args.extra == "bicycle":
            if dep["bike_spaces"] <= 0:
                raise ToolFailure(f"No bicycle spaces left on {dep['train']} at {dep['time']} on "
                                  f"{dep['date']}.")
            self.db.execute("UPDATE departures SET bike_spaces = bike_spaces - 1 WHERE "
                            "departure_id = ?", (dep["departure_id"],))
        self.db.execute(f"UPDATE bookings SET {args.extra} = 1 WHERE ref = ?", (booking["ref"],))
        self._charge(booking["ref"], args.extra, EXTRA_FEE[args.extra])
        return {"booking_ref": booking["ref"], "extra": args.extra,
                "charged_eur": EXTRA_FEE[args.extra]}

    @tool("The desk's fee schedule and refund rules.")
    def get_fees(self, args: NoArgs) -> dict[str, Any]:
        return {"change_fee_eur": CHANGE_FEE, "fare_difference": "paid when the new train costs "
                "more; never refunded when it costs less", "upgrade": "difference between "
                "today's Standard and First fares on that train", "bicycle_eur": 8.0,
                "pet_eur": 5.0, "refund": {"7_days_or_more": "100%", "48_hours_to_7_days": "50%",
                "under_48_hours": "0%"}, "extras_refundable": False,
                "changes_close_minutes_before": CHANGE_CLOSES_MIN,
                "cancellations_close_minutes_before": CANCEL_CLOSES_MIN}

    # -- user-side API ---------------------------------------------------------------------

    @tool("The Lumen Rail app's 'My trips' view of one booking.", side="user")
    def view_booking(self, args: ViewArgs) -> dict[str, Any]:
        b = self._booking(args.booking_ref)
        last = self.db.execute("SELECT last_name FROM passengers WHERE passenger_id = ?",
                               (b["passenger_id"],)).fetchone()[0]
        if plain(last) != plain(args.last_name):
            raise ToolFailure("Booking not found for that last name.")
        return {"booking_ref": b["ref"], "status": b["status"], "train": b["train"],
                "from": b["origin"], "to": b["destination"], "date": b["travel_date"],
                "time": b["departure_time"], "class": b["travel_class"], "seat": b["seat"],
                "bicycle": bool(b["bicycle"]), "pet": bool(b["pet"])}


def make_environment() -> RailEnvironment:
    """A fresh Lumen Rail desk, seeded."""
    return RailEnvironment()
