"""Piste Perfect Ski Hire: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 16 December 2026, 10:00 (UK time, GMT); the shop is in
the Alps but the booking desk runs from the UK office. A hire of N days starts on its first
morning and ends when the kit comes back at 17:30 on its last day (the start day plus N - 1).
Customers are identified by their booking reference (PP and four digits) and the lead booker's
surname.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 16, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# packages (skis, boots and poles): a day rate, and a 6-day rate cheaper than six days; each day
# past six is charged at the day rate. Children under 12 take a children's package priced by
# their age on the first day of the hire: "mini" for ages 3-5, "junior" for ages 6-11.
ADULT_LEVELS = ("bronze", "silver", "gold")
DAY_RATE = {"bronze": 1800, "silver": 2600, "gold": 3400, "mini": 800, "junior": 1200}
SIX_DAY_RATE = {"bronze": 9500, "silver": 13500, "gold": 17500, "mini": 4400, "junior": 6600}
CHILD_UNDER = 12  # under 12 on the first day: a children's package
MINI_UNDER = 6  # under 6: the mini rate
YOUNGEST = 3  # no kit for children under 3
HELMET_DAY = 300  # adults pay for a helmet, per day; children's helmets are free
INSURANCE_DAY = 250  # breakage and theft insurance, per person per day
GROUP_SIZE = 5  # 5+ people on one booking...
GROUP_PERCENT = 10  # ...get 10% off every package (not helmets or insurance)
FULL_REFUND_DAYS = 7  # cancelled 7+ days before the start: everything back; inside: half
MAX_DAYS = 14
FITTING_TIMES = ("08:00", "08:30", "09:00", "09:30", "10:00", "10:30", "11:00", "11:30")
FITTING_PLACES = 2  # bookings per fitting slot
CLOSED_DAYS = ("2026-12-25",)  # the shop is shut on Christmas Day
CAPACITY = {"bronze": 30, "silver": 24, "gold": 12, "junior": 20}  # sets a day, by stock line


def age_on(born: date, day: date) -> int:
    """Age in whole years on `day`."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def child_band(age: int) -> str:
    return "mini" if age < MINI_UNDER else "junior"


def package_price(band: str, days: int) -> int:
    """One package for `days` days: the day rate up to 5 days; the 6-day rate, then day rate."""
    if days < 6:
        return DAY_RATE[band] * days
    return SIX_DAY_RATE[band] + DAY_RATE[band] * (days - 6)


def band_of(skier: dict[str, Any], start: date) -> str:
    """The price band of a skier: their level, or a child's band by age on the first day."""
    if skier["kind"] == "child":
        return child_band(age_on(date.fromisoformat(skier["date_of_birth"]), start))
    return str(skier["level"])


def total(skiers: list[dict[str, Any]], start: date, days: int,
          bands: list[str] | None = None) -> int:  # fmt: skip
    """What a booking costs: packages (10% off with 5+ people), adult helmets, insurance."""
    bands = bands or [band_of(s, start) for s in skiers]
    packages = sum(package_price(b, days) for b in bands)
    if len(skiers) >= GROUP_SIZE:
        packages -= packages * GROUP_PERCENT // 100
    helmets = sum(HELMET_DAY * days for s in skiers if s["helmet"] and s["kind"] == "adult")
    insurance = sum(INSURANCE_DAY * days for s in skiers if s["insured"])
    return packages + helmets + insurance


SCHEMA_SQL = """
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- PP4101
    lead_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    start_day TEXT NOT NULL,                  -- the first morning of the hire
    days INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL,              -- everything is paid at booking
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE skiers (
    skier_id TEXT PRIMARY KEY,                -- S101
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    name TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- adult / child (under 12 on the first day)
    level TEXT NOT NULL,                      -- bronze / silver / gold; junior for children
    date_of_birth TEXT,                       -- children
    helmet INTEGER NOT NULL DEFAULT 0,
    insured INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE fittings (
    booking_ref TEXT PRIMARY KEY,
    day TEXT NOT NULL,
    time TEXT NOT NULL
);
CREATE TABLE stock (
    level TEXT NOT NULL,                      -- bronze / silver / gold / junior
    day TEXT NOT NULL,
    units INTEGER NOT NULL,                   -- sets the shop has that day (else CAPACITY)
    PRIMARY KEY (level, day)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / refund (to the card on the booking)
    reason TEXT NOT NULL,                     -- skier / package_change / extension / helmets /
                                              -- insurance / cancellation
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# booking, lead booker, card, start, days; email and phone follow from them
BOOKINGS = [
    ("PP4101", "Sarah Turner", "4417", "2027-01-09", 6),
    ("PP4102", "James Okoro", "2290", "2027-01-03", 6),
    ("PP4103", "Helen Brooks", "8823", "2027-01-02", 6),
    ("PP4104", "Daniel Price", "6610", "2026-12-27", 3),
    ("PP4105", "Fiona Kerr", "3051", "2027-01-02", 6),
    ("PP4106", "Ben Harris", "7702", "2027-01-09", 6),
    ("PP4107", "Tom Reid", "1189", "2027-01-16", 6),
    ("PP4108", "Lucy Grant", "5534", "2027-01-10", 5),
    ("PP4109", "Nathan Cole", "9046", "2027-01-09", 6),
    ("PP4110", "Emma Walsh", "2718", "2027-01-09", 6),
    ("PP4111", "Gareth Lewis", "6284", "2027-01-03", 6),
    ("PP4112", "Kate Morgan", "3141", "2026-12-13", 6),
    ("PP4113", "Dave Fletcher", "8080", "2027-01-23", 6),
    ("PP4114", "Priya Nair", "4242", "2027-01-02", 6),
    ("PP4115", "Owen Hughes", "5150", "2027-01-16", 6),
    ("PP4116", "Ian Walker", "6006", "2027-01-09", 6),
    ("PP4117", "Zoe Bennett", "7117", "2027-01-10", 4),
    ("PP4118", "Mia Clarke", "1212", "2027-01-09", 6),
    ("PP4119", "Laura Fox", "3434", "2027-01-02", 6),
    ("PP4120", "Marcus Webb", "5656", "2026-12-14", 6),
    ("PP4121", "Chloe Adams", "7878", "2026-12-20", 6),
    ("PP4122", "Sanjay Patel", "9090", "2027-01-16", 6),
    ("PP4123", "Rob Taylor", "1357", "2027-01-02", 6),
    ("PP4130", "Simon Baker", "2468", "2027-01-02", 6),
    ("PP4131", "Alan Shaw", "1122", "2027-01-09", 6),
    ("PP4132", "Ruth Dixon", "3344", "2027-01-09", 6),
    ("PP4133", "Neil Ford", "5566", "2027-01-09", 6),
]

# skier, booking, name, kind, level, date of birth, helmet, insured; the lead booker skis first
SKIERS = [
    ("S101", "PP4101", "Sarah Turner", "adult", "silver", None, 0, 0),
    ("S102", "PP4101", "Mark Turner", "adult", "silver", None, 0, 0),
    ("S103", "PP4102", "James Okoro", "adult", "silver", None, 0, 0),
    ("S104", "PP4102", "Ada Okoro", "adult", "silver", None, 0, 0),
    ("S105", "PP4103", "Helen Brooks", "adult", "gold", None, 0, 0),
    ("S106", "PP4103", "Peter Brooks", "adult", "gold", None, 0, 0),
    ("S107", "PP4104", "Daniel Price", "adult", "bronze", None, 1, 0),
    ("S108", "PP4104", "Laura Price", "adult", "bronze", None, 1, 0),
    ("S109", "PP4105", "Fiona Kerr", "adult", "gold", None, 0, 0),
    ("S110", "PP4106", "Ben Harris", "adult", "silver", None, 0, 0),
    ("S111", "PP4106", "Claire Harris", "adult", "silver", None, 0, 0),
    ("S112", "PP4107", "Tom Reid", "adult", "silver", None, 0, 0),
    ("S113", "PP4107", "Amy Reid", "adult", "silver", None, 0, 0),
    ("S114", "PP4107", "Josh Carter", "adult", "silver", None, 0, 0),
    ("S115", "PP4107", "Megan Carter", "adult", "silver", None, 0, 0),
    ("S116", "PP4108", "Lucy Grant", "adult", "bronze", None, 0, 0),
    ("S117", "PP4108", "Chris Grant", "adult", "bronze", None, 0, 0),
    ("S118", "PP4108", "Ava Grant", "child", "junior", "2019-03-01", 1, 0),
    ("S119", "PP4109", "Nathan Cole", "adult", "silver", None, 0, 0),
    ("S120", "PP4109", "Jess Cole", "adult", "silver", None, 0, 0),
    ("S121", "PP4110", "Emma Walsh", "adult", "bronze", None, 0, 0),
    ("S122", "PP4110", "Liam Walsh", "adult", "bronze", None, 0, 0),
    ("S123", "PP4111", "Gareth Lewis", "adult", "bronze", None, 0, 0),
    ("S124", "PP4111", "Bethan Lewis", "adult", "bronze", None, 0, 0),
    ("S125", "PP4112", "Kate Morgan", "adult", "bronze", None, 0, 0),
    ("S126", "PP4113", "Dave Fletcher", "adult", "silver", None, 0, 0),
    ("S127", "PP4113", "Sofia Moreno", "adult", "silver", None, 0, 0),
    ("S128", "PP4113", "Jon Pike", "adult", "silver", None, 0, 0),
    ("S129", "PP4114", "Priya Nair", "adult", "silver", None, 0, 0),
    ("S130", "PP4114", "Dev Nair", "adult", "silver", None, 0, 0),
    ("S131", "PP4115", "Owen Hughes", "adult", "gold", None, 0, 0),
    ("S132", "PP4115", "Rhian Hughes", "adult", "gold", None, 0, 0),
    ("S133", "PP4115", "Cai Hughes", "child", "junior", "2016-07-14", 1, 0),
    ("S134", "PP4115", "Nia Hughes", "child", "junior", "2019-11-02", 1, 0),
    ("S135", "PP4116", "Ian Walker", "adult", "gold", None, 0, 0),
    ("S136", "PP4116", "Jo Walker", "adult", "gold", None, 0, 0),
    ("S137", "PP4117", "Zoe Bennett", "adult", "bronze", None, 0, 0),
    ("S138", "PP4118", "Mia Clarke", "adult", "silver", None, 0, 0),
    ("S139", "PP4118", "Adam Clarke", "adult", "silver", None, 0, 0),
    ("S140", "PP4119", "Laura Fox", "adult", "silver", None, 0, 0),
    ("S141", "PP4119", "Matt Fox", "adult", "silver", None, 0, 0),
    ("S142", "PP4120", "Marcus Webb", "adult", "silver", None, 0, 0),
    ("S143", "PP4120", "Anna Webb", "adult", "silver", None, 0, 0),
    ("S144", "PP4121", "Chloe Adams", "adult", "silver", None, 0, 0),
    ("S145", "PP4121", "Ryan Adams", "adult", "silver", None, 0, 0),
    ("S146", "PP4122", "Sanjay Patel", "adult", "silver", None, 0, 0),
    ("S147", "PP4123", "Rob Taylor", "adult", "silver", None, 0, 0),
    ("S148", "PP4123", "Nicola Taylor", "adult", "silver", None, 0, 0),
    ("S149", "PP4130", "Simon Baker", "adult", "gold", None, 1, 1),
    ("S150", "PP4130", "Grace Baker", "adult", "gold", None, 1, 1),
    ("S151", "PP4131", "Alan Shaw", "adult", "bronze", None, 0, 0),
    ("S152", "PP4132", "Ruth Dixon", "adult", "silver", None, 0, 0),
    ("S153", "PP4132", "Paul Dixon", "adult", "silver", None, 0, 0),
    ("S154", "PP4133", "Neil Ford", "adult", "gold", None, 0, 0),
]

# booking, day, time: 08:30 on Saturday 9 January is full; 09:00 has one place left
FITTINGS = [
    ("PP4114", "2027-01-02", "10:30"),
    ("PP4116", "2027-01-09", "08:00"),
    ("PP4119", "2027-01-02", "09:30"),
    ("PP4130", "2027-01-02", "11:00"),
    ("PP4131", "2027-01-09", "08:30"),
    ("PP4132", "2027-01-09", "08:30"),
    ("PP4133", "2027-01-09", "09:00"),
]

# a school group has every silver set on Friday 8 January
STOCK = [("silver", "2027-01-08", 0)]
# fmt: on


def customer(ref: str, name: str, card: str) -> tuple[str, str, str, str]:
    """The surname, email and phone that follow from a booking's lead booker."""
    surname = name.split()[-1]
    email = name.lower().replace(" ", ".") + "@example.com"
    return surname, email, f"07700 900{int(ref[-3:]):03d}", card


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    for ref, name, card, start, days in BOOKINGS:
        skiers = [
            {"kind": s[3], "level": s[4], "date_of_birth": s[5], "helmet": s[6], "insured": s[7]}
            for s in SKIERS
            if s[1] == ref
        ]
        paid = total(skiers, date.fromisoformat(start), days)
        surname, email, phone, card = customer(ref, name, card)
        db.execute(
            "INSERT INTO bookings (booking_ref, lead_name, surname, email, phone, card_last4, "
            "start_day, days, paid_pence) VALUES (?,?,?,?,?,?,?,?,?)",
            (ref, name, surname, email, phone, card, start, days, paid),
        )
    db.executemany("INSERT INTO skiers VALUES (?,?,?,?,?,?,?,?)", SKIERS)
    db.executemany("INSERT INTO fittings VALUES (?,?,?)", FITTINGS)
    db.executemany("INSERT INTO stock VALUES (?,?,?)", STOCK)
