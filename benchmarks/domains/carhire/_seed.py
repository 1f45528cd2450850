"""Cityline Car Hire: schema, the fixed clock and the seed data.

The desk's clock is fixed at Tuesday 8 December 2026, 10:00 (UK, GMT). Prices are per day
(24 hours from the pick-up time): the car class's rate, £12.00 per additional driver, £8.00 per
child seat and £6.00 for a GPS.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 10, 0, tzinfo=UK)
DRIVER_PENCE = 1200
EXTRA_PENCE = {"child_seat": 800, "gps": 600}
EXTRA_MAX = {"child_seat": 2, "gps": 1}
EXCESS_PENCE = 30000
RATES = {"economy": 3200, "compact": 3800, "estate": 5200, "suv": 6800, "premium": 8500}
BRANCHES = ("Leeds City", "Manchester Piccadilly", "York Station")

STAMP = "%Y-%m-%d %H:%M"


def at(stamp: str) -> datetime:
    """A stored 'YYYY-MM-DD HH:MM' (UK time) as an aware datetime."""
    return datetime.strptime(stamp, STAMP).replace(tzinfo=UK)


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    licence_last4 TEXT NOT NULL,
    date_of_birth TEXT NOT NULL
);
CREATE TABLE fleet (
    branch TEXT NOT NULL,
    car_class TEXT NOT NULL,
    cars INTEGER NOT NULL,
    daily_rate_pence INTEGER NOT NULL,
    PRIMARY KEY (branch, car_class)
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    branch TEXT NOT NULL,
    car_class TEXT NOT NULL,
    pickup_at TEXT NOT NULL,             -- YYYY-MM-DD HH:MM, UK time
    return_at TEXT NOT NULL,
    cover TEXT NOT NULL,                 -- basic / full
    status TEXT NOT NULL,                -- booked / cancelled / completed
    total_pence INTEGER NOT NULL,
    refund_pence INTEGER NOT NULL DEFAULT 0,
    kept_pence INTEGER NOT NULL DEFAULT 0,
    cancelled_at TEXT
);
CREATE TABLE drivers (
    driver_id TEXT PRIMARY KEY,
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    main INTEGER NOT NULL                -- 1 for the hirer, 0 for an additional driver
);
CREATE TABLE extras (
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    extra TEXT NOT NULL,                 -- child_seat / gps
    quantity INTEGER NOT NULL,
    PRIMARY KEY (booking_ref, extra)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    kind TEXT NOT NULL,                  -- hire / dates / driver / extra / class / refund / excess
    amount_pence INTEGER NOT NULL,       -- negative for a refund
    created_at TEXT NOT NULL
);
CREATE TABLE damage_reports (
    report_id TEXT PRIMARY KEY,
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    description TEXT NOT NULL,
    reported_at TEXT NOT NULL,
    excess_pence INTEGER NOT NULL,
    status TEXT NOT NULL                 -- open / closed
);
"""

CUSTOMERS = [
    ("CU01", "Priya Nair", "priya.nair@example.com", "07700 900101", "4417", "1986-04-02"),
    ("CU02", "Mark Ellison", "mark.ellison@example.com", "07700 900202", "2290", "1979-09-30"),
    ("CU03", "Joanne Ellison", "jo.ellison@example.com", "07700 900203", "7731", "1981-01-17"),
    ("CU04", "Gareth Lloyd", "gareth.lloyd@example.com", "07700 900404", "5108", "1990-06-11"),
    ("CU05", "Fatima Begum", "fatima.begum@example.com", "07700 900505", "3362", "1993-02-25"),
    ("CU06", "Oliver Grant", "oliver.grant@example.com", "07700 900606", "8024", "1975-11-08"),
    ("CU07", "Hannah Moss", "hannah.moss@example.com", "07700 900707", "6659", "1998-07-19"),
    ("CU08", "Samuel Okafor", "sam.okafor@example.com", "07700 900808", "4417", "1972-03-03"),
    ("CU09", "Chloe Dawson", "chloe.dawson@example.com", "07700 900909", "9140", "1995-12-12"),
    ("CU10", "Tomasz Nowak", "tomasz.nowak@example.com", "07700 901010", "1875", "1984-08-21"),
]

FLEET = {
    "Leeds City": {"economy": 4, "compact": 3, "estate": 2, "suv": 1, "premium": 1},
    "Manchester Piccadilly": {"economy": 5, "compact": 3, "estate": 2, "suv": 2, "premium": 1},
    "York Station": {"economy": 3, "compact": 2, "estate": 1, "suv": 1, "premium": 0},
}

# ref, customer, branch, class, pick-up, return, cover, status
BOOKINGS = [
    ("CLH-20411", "CU01", "Leeds City", "compact", "2026-12-18 10:00", "2026-12-21 10:00",
     "basic", "booked"),
    ("CLH-20412", "CU02", "Manchester Piccadilly", "estate", "2026-12-21 09:00",
     "2026-12-28 09:00", "basic", "booked"),
    ("CLH-20413", "CU03", "York Station", "economy", "2026-12-15 12:00", "2026-12-17 12:00",
     "full", "booked"),
    ("CLH-20414", "CU04", "Leeds City", "economy", "2026-12-09 09:00", "2026-12-12 09:00",
     "basic", "booked"),
    ("CLH-20415", "CU05", "Leeds City", "estate", "2026-12-10 09:00", "2026-12-13 09:00",
     "basic", "booked"),
    ("CLH-20416", "CU06", "Manchester Piccadilly", "compact", "2026-12-28 10:00",
     "2027-01-02 10:00", "basic", "booked"),
    ("CLH-20417", "CU07", "York Station", "compact", "2026-12-19 11:00", "2026-12-22 11:00",
     "basic", "booked"),
    ("CLH-20418", "CU08", "Leeds City", "estate", "2026-12-18 08:30", "2026-12-21 08:30",
     "basic", "booked"),
    ("CLH-20419", "CU09", "York Station", "economy", "2026-11-27 10:00", "2026-11-30 10:00",
     "basic", "completed"),
    ("CLH-20420", "CU10", "Manchester Piccadilly", "suv", "2026-11-20 09:00",
     "2026-11-24 09:00", "full", "completed"),
    ("CLH-20421", "CU04", "Leeds City", "compact", "2026-11-02 10:00", "2026-11-05 10:00",
     "basic", "completed"),
    ("CLH-20422", "CU02", "Leeds City", "premium", "2026-12-17 09:00", "2026-12-22 09:00",
     "full", "booked"),
    ("CLH-20423", "CU01", "Leeds City", "suv", "2026-12-16 09:00", "2026-12-20 09:00",
     "basic", "booked"),
    ("CLH-20424", "CU06", "Leeds City", "suv", "2026-12-21 09:00", "2026-12-24 09:00",
     "basic", "booked"),
]
EXTRAS = [("CLH-20411", "child_seat", 1), ("CLH-20416", "gps", 1)]
ADDITIONAL_DRIVERS = [("D-20413-2", "CLH-20413", "Mark Ellison", "1979-09-30")]
DAMAGE = [("DR-3001", "CLH-20421", "Scraped rear bumper in a car park", "2026-11-06 15:20",
           EXCESS_PENCE, "open")]


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", CUSTOMERS)
    for branch, classes in FLEET.items():
        for car_class, cars in classes.items():
            db.execute("INSERT INTO fleet VALUES (?,?,?,?)",
                       (branch, car_class, cars, RATES[car_class]))
    names = {c[0]: (c[1], c[5]) for c in CUSTOMERS}
    for ref, customer, branch, car_class, pickup, ret, cover, status in BOOKINGS:
        db.execute("INSERT INTO bookings (booking_ref, customer_id, branch, car_class, pickup_at, "
                   "return_at, cover, status, total_pence) VALUES (?,?,?,?,?,?,?,?,0)",
                   (ref, customer, branch, car_class, pickup, ret, cover, status))
        name, born = names[customer]
        db.execute("INSERT INTO drivers VALUES (?,?,?,?,1)", (f"D-{ref[4:]}-1", ref, name, born))
    db.executemany("INSERT INTO extras VALUES (?,?,?)", EXTRAS)
    db.executemany("INSERT INTO drivers VALUES (?,?,?,?,0)", ADDITIONAL_DRIVERS)
    db.executemany("INSERT INTO damage_reports VALUES (?,?,?,?,?,?)", DAMAGE)
