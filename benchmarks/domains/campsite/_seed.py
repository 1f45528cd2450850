"""Heronfield Campsite: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 13 April 2027, 10:00 (UK, BST). Pitches are ready from 14:00
on the arrival day and left by 11:00 on the departure day. Guests are identified by a booking
reference (HF and four digits) and the surname on the booking.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 4, 13, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# nightly pitch rates by pitch type and season (peak: the nights of July and August)
RATES = {
    ("tent", "standard"): 1800, ("tent", "peak"): 2400,
    ("caravan", "standard"): 2600, ("caravan", "peak"): 3400,
    ("motorhome", "standard"): 2800, ("motorhome", "peak"): 3600,
}  # fmt: skip
PEAK_MONTHS = (7, 8)
HOOKUP_PENCE = 500  # electric hook-up, a night
AWNING_PENCE = 300  # an awning, a night (caravans and motorhomes only)
DOG_PENCE = 200  # a dog, a night
MAX_DOGS = 2
DEPOSIT_PERCENT = 25  # taken at booking; the balance is taken 14 days before arrival
BALANCE_DAYS = 14
FREE_CHANGE_DAYS = 14  # a date change 14+ days before arrival is free
CHANGE_FEE_PENCE = 1000
FULL_REFUND_DAYS = 28  # everything paid back 28+ days before arrival
BALANCE_REFUND_DAYS = 7  # 7-27 days: the deposit is kept, the balance paid back
ARRIVE_FROM, EARLIEST_ARRIVAL = "14:00", "12:00"
LEAVE_BY, LATEST_DEPARTURE = "11:00", "16:00"
TIMES_FEE_PENCE = 1000  # an early arrival or a late departure
FIREWOOD_PENCE = 700  # a bag
GAS_PENCE = 2500  # a 6 kg gas bottle exchange
BIKE_PENCE = 1500  # a bike for a day
MAX_BIKES = 4
POSTAGE_PENCE = 650  # posting a found item to the address on the booking
MIN_BANK_HOLIDAY_NIGHTS = 3
# bank-holiday Mondays of the season; the Saturday and Sunday nights before each are the
# bank-holiday weekend, and a stay with either of them must be 3 nights or more
BANK_HOLIDAYS = (date(2027, 5, 3), date(2027, 5, 31), date(2027, 8, 30))
PHONE = "01632 960 450"


def season(night: date) -> str:
    return "peak" if night.month in PEAK_MONTHS else "standard"


def weekend_nights() -> set[date]:
    """The Saturday and Sunday nights of every bank-holiday weekend."""
    return {m - timedelta(days=d) for m in BANK_HOLIDAYS for d in (1, 2)}


SCHEMA_SQL = """
CREATE TABLE guests (
    guest_id TEXT PRIMARY KEY,                -- G101
    first_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE pitches (
    pitch_id TEXT PRIMARY KEY,                -- T01 tents, C01 caravans, V01 motorhomes
    pitch_type TEXT NOT NULL,                 -- tent / caravan / motorhome
    hookup_point INTEGER NOT NULL             -- 1: the pitch has an electric hook-up point
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- HF2101
    guest_id TEXT NOT NULL REFERENCES guests(guest_id),
    pitch_id TEXT NOT NULL REFERENCES pitches(pitch_id),
    pitch_type TEXT NOT NULL,
    arrival TEXT NOT NULL,
    departure TEXT NOT NULL,
    hookup INTEGER NOT NULL DEFAULT 0,
    awning INTEGER NOT NULL DEFAULT 0,
    dogs INTEGER NOT NULL DEFAULT 0,
    price_pence INTEGER NOT NULL,             -- pitch and options; extras are apart
    deposit_pence INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL,              -- the deposit, or all of it once the balance is taken
    arrive_time TEXT NOT NULL DEFAULT '14:00',
    depart_time TEXT NOT NULL DEFAULT '11:00',
    times_fee_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / completed / cancelled
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- firewood / gas / bikes
    quantity INTEGER NOT NULL,
    day TEXT,                                 -- bikes: the day of hire
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    guest_id TEXT NOT NULL,
    kind TEXT NOT NULL,                -- deposit / change_fee / difference / refund / postage
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE found_items (
    found_id TEXT PRIMARY KEY,                -- FI301
    pitch_id TEXT NOT NULL,
    found_on TEXT NOT NULL,
    description TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'held',      -- held / posted
    posted_to TEXT
);
CREATE TABLE lost_reports (
    report_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE complaints (
    complaint_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    subject TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# guest, first name, surname, card; email, phone and address follow (G101: 07700 900101)
PEOPLE = [
    ("G101", "Jo", "Baxter", "4101"), ("G102", "Raj", "Mehta", "4102"),
    ("G103", "Sian", "Hughes", "4103"), ("G104", "Tom", "Reid", "4104"),
    ("G105", "Lucy", "Grant", "4105"), ("G106", "Ben", "Carter", "4106"),
    ("G107", "Amy", "Walsh", "4107"), ("G108", "Mark", "Doyle", "4108"),
    ("G109", "Kate", "Moran", "4109"), ("G110", "Owen", "Pryce", "4110"),
    ("G111", "Nadia", "Karim", "4111"), ("G112", "Paul", "Fenton", "4112"),
    ("G113", "Grace", "Lyle", "4113"), ("G114", "Sam", "Whitley", "4114"),
    ("G115", "Helen", "Shaw", "4115"), ("G116", "Liam", "Neary", "4116"),
    ("G117", "Ruth", "Adey", "4117"), ("G118", "Chris", "Pole", "4118"),
    ("G119", "Dev", "Anand", "4119"), ("G120", "Ada", "Okafor", "4120"),
    ("G121", "Peter", "Lamb", "4121"), ("G122", "Mia", "Lowe", "4122"),
    ("G123", "Alan", "Brook", "4123"), ("G124", "Zoe", "Hart", "4124"),
    ("G125", "Ian", "Frost", "4125"),
]
GUESTS = [
    (g, first, last, f"{first.lower()}.{last.lower()}@example.com", f"07700 900{g[1:]}",
     f"{int(g[1:]) - 90} Mill Lane, Exeter EX{int(g[2:]) % 9 + 1} 4QP", card)
    for g, first, last, card in PEOPLE
]
PITCHES = [
    ("T01", "tent", 1), ("T02", "tent", 1), ("T03", "tent", 1),
    ("T04", "tent", 0), ("T05", "tent", 0), ("T06", "tent", 0),
    ("C01", "caravan", 1), ("C02", "caravan", 1), ("C03", "caravan", 1), ("C04", "caravan", 1),
    ("V01", "motorhome", 1), ("V02", "motorhome", 1), ("V03", "motorhome", 1),
]
# ref, pitch, arrival, departure, hookup, awning, dogs, price, deposit, paid, status; the
# guest follows from the reference (HF2101: G101), the pitch type from the pitch (T, C, V)
BOOKINGS = [
    ("HF2101", "C01", "2027-06-11", "2027-06-13", 1, 0, 0, 6200, 1550, 1550, "confirmed"),
    ("HF2102", "C02", "2026-08-14", "2026-08-17", 1, 0, 0, 11700, 2925, 11700, "completed"),
    ("HF2103", "T04", "2027-05-14", "2027-05-17", 0, 0, 0, 5400, 1350, 1350, "confirmed"),
    ("HF2104", "C02", "2027-05-28", "2027-05-31", 1, 0, 0, 9300, 2325, 2325, "confirmed"),
    ("HF2105", "T03", "2026-09-04", "2026-09-06", 0, 0, 0, 3600, 900, 3600, "completed"),
    ("HF2106", "C01", "2027-04-23", "2027-04-25", 1, 0, 0, 6200, 1550, 6200, "confirmed"),
    ("HF2107", "C04", "2027-05-21", "2027-05-24", 1, 0, 0, 9300, 2325, 2325, "confirmed"),
    ("HF2108", "T01", "2027-04-16", "2027-04-18", 0, 0, 0, 3600, 900, 3600, "confirmed"),
    ("HF2109", "T02", "2026-07-10", "2026-07-12", 0, 0, 0, 4800, 1200, 4800, "completed"),
    ("HF2110", "V01", "2026-09-18", "2026-09-20", 1, 0, 1, 7000, 1750, 7000, "completed"),
    ("HF2111", "C03", "2026-10-02", "2026-10-04", 1, 0, 0, 6200, 1550, 6200, "completed"),
    ("HF2112", "T03", "2027-06-18", "2027-06-20", 0, 0, 0, 3600, 900, 900, "confirmed"),
    ("HF2113", "T02", "2027-04-22", "2027-04-24", 1, 0, 0, 4600, 1150, 4600, "confirmed"),
    ("HF2114", "T06", "2027-04-16", "2027-04-18", 0, 0, 0, 3600, 900, 3600, "confirmed"),
    ("HF2115", "C02", "2027-06-18", "2027-06-20", 0, 0, 0, 5200, 1300, 1300, "confirmed"),
    ("HF2116", "T05", "2027-04-17", "2027-04-18", 0, 0, 0, 1800, 450, 1800, "confirmed"),
    ("HF2117", "T02", "2027-05-07", "2027-05-09", 0, 0, 0, 3600, 900, 900, "confirmed"),
    ("HF2118", "T05", "2027-05-14", "2027-05-16", 0, 0, 0, 3600, 900, 900, "confirmed"),
    ("HF2119", "V01", "2027-04-30", "2027-05-03", 1, 0, 0, 9900, 2475, 2475, "confirmed"),
    ("HF2120", "C03", "2027-05-28", "2027-05-31", 1, 1, 0, 10200, 2550, 2550, "confirmed"),
    ("HF2121", "T01", "2027-04-18", "2027-04-20", 0, 0, 0, 3600, 900, 3600, "confirmed"),
    ("HF2122", "V02", "2027-05-07", "2027-05-09", 1, 0, 0, 6600, 1650, 1650, "confirmed"),
    ("HF2123", "T04", "2027-04-02", "2027-04-04", 0, 0, 0, 3600, 900, 3600, "completed"),
    ("HF2124", "C04", "2027-04-09", "2027-04-11", 1, 0, 0, 6200, 1550, 6200, "completed"),
    ("HF2125", "V03", "2027-04-30", "2027-05-03", 1, 0, 0, 9900, 2475, 2475, "confirmed"),
]  # fmt: skip
FOUND = [
    ("FI301", "T01", "2027-04-04", "black phone charger"),
    ("FI302", "C02", "2027-03-28", "child's red wellies"),
    ("FI303", "T04", "2027-04-04", "blue fleece jacket, size M"),
    ("FI304", "V02", "2027-04-11", "silver camping kettle"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO guests VALUES (?,?,?,?,?,?,?)", GUESTS)
    db.executemany("INSERT INTO pitches VALUES (?,?,?)", PITCHES)
    kinds = {"T": "tent", "C": "caravan", "V": "motorhome"}
    db.executemany(
        "INSERT INTO bookings (booking_ref, guest_id, pitch_id, pitch_type, arrival, departure, "
        "hookup, awning, dogs, price_pence, deposit_pence, paid_pence, status) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(b[0], "G1" + b[0][-2:], b[1], kinds[b[1][0]], *b[2:]) for b in BOOKINGS],
    )
    db.executemany(
        "INSERT INTO found_items (found_id, pitch_id, found_on, description) VALUES (?,?,?,?)",
        FOUND,
    )
