"""Driftwood Campervan Hire: schema, the fixed clock, rates, rules and the seed data.

The desk's clock is fixed at Thursday 10 December 2026, 09:30 (UK, GMT). Vans are picked up from
14:00 and brought back by 10:00; a hire is charged per day, a day being each date from the
pick-up day up to (not including) the drop-off day, at that date's own season's rate. Customers
are identified by their customer number (DW and four digits) and the postcode on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 10, 9, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

DEPOTS = ("bristol", "kendal", "inverness")
SIZES = (2, 4, 6)
# daily rates in pence, by van size and season
RATES = {
    2: {"low": 6500, "mid": 8500, "high": 12000},
    4: {"low": 8500, "mid": 11000, "high": 15500},
    6: {"low": 10500, "mid": 13500, "high": 18500},
}
# the shortest hire, in days, set by the season of the pick-up day
MIN_DAYS = {"low": 2, "mid": 3, "high": 7}
# one-way drop-off fees in pence, the same either way round
ONE_WAY = {
    frozenset({"bristol", "kendal"}): 9500,
    frozenset({"kendal", "inverness"}): 12000,
    frozenset({"bristol", "inverness"}): 19000,
}
DEPOSIT_PERCENT = 25  # of the hire price plus any one-way fee, taken at booking
SECURITY_PENCE = {2: 75000, 4: 75000, 6: 100000}  # held on a card at pick-up
SECURITY_RELEASE_DAYS = 7  # released within 7 days of a clean return
AMEND_FREE_DAYS = 28  # date and drop-off changes are free 28+ days before pick-up
AMEND_FEE_PENCE = 3500
FULL_REFUND_DAYS = 42  # the booking deposit back in full 42+ days before pick-up
HALF_REFUND_DAYS = 14  # half of it 14-41 days before; nothing inside 14 days
EXTRA_PENCE = {"awning": 800, "bike_rack": 3500, "outdoor_kit": 2000}
PER_DAY_EXTRAS = {"awning"}  # the others are per hire
DRIVER_FEE_PENCE = 3000  # each additional driver, per hire
MAX_EXTRA_DRIVERS = 2
MIN_AGE, MAX_AGE, SIX_BERTH_AGE = 23, 75, 25
LICENCE_YEARS = 2
PICKUP_FROM, RETURN_BY = "14:00", "10:00"


def season(day: date) -> str:
    """High 1 June-31 August; mid 15 March-31 May and September-October; low otherwise."""
    if 6 <= day.month <= 8:
        return "high"
    if day.month in (9, 10) or (day.month, day.day) >= (3, 15) and day.month <= 5:
        return "mid"
    return "low"


def one_way_fee(pickup: str, dropoff: str) -> int:
    return 0 if pickup == dropoff else ONE_WAY[frozenset({pickup, dropoff})]


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- DW1001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    postcode TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    licence_since TEXT NOT NULL,              -- full licence held since
    card_last4 TEXT NOT NULL
);
CREATE TABLE fleet (
    depot TEXT NOT NULL,
    van_size INTEGER NOT NULL,                -- berths: 2, 4 or 6
    vans INTEGER NOT NULL,
    PRIMARY KEY (depot, van_size)
);
CREATE TABLE closures (
    closure_id INTEGER PRIMARY KEY,
    depot TEXT NOT NULL,
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE extra_stock (
    depot TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- awning / bike_rack (outdoor kits: no limit)
    units INTEGER NOT NULL,
    PRIMARY KEY (depot, kind)
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- VB3006
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    van_size INTEGER NOT NULL,
    pickup_depot TEXT NOT NULL,
    dropoff_depot TEXT NOT NULL,
    pickup_date TEXT NOT NULL,
    dropoff_date TEXT NOT NULL,
    hire_pence INTEGER NOT NULL,              -- the daily rates, summed
    oneway_pence INTEGER NOT NULL DEFAULT 0,
    deposit_pence INTEGER NOT NULL,           -- the booking deposit paid
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,
    price_pence INTEGER NOT NULL
);
CREATE TABLE drivers (
    driver_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    licence_since TEXT NOT NULL,
    fee_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / amendment_fee / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, postcode, date of birth, full licence since, card; the email and phone follow
# from them (DW1014: rory.quinn@example.com, 07700 900114)
PEOPLE = [
    ("DW1001", "Megan Hughes", "BS6 5LT", "1990-04-17", "2008-09-02", "4821"),
    ("DW1002", "Tariq Aziz", "LA9 4PR", "1984-11-03", "2003-02-14", "7310"),
    ("DW1003", "Eilidh Fraser", "IV2 3HX", "1979-06-25", "1997-08-30", "0954"),
    ("DW1004", "Josh Turnbull", "BS3 1NG", "1998-01-12", "2016-05-20", "6643"),
    ("DW1005", "Priti Desai", "G12 8QQ", "1988-03-08", "2007-07-11", "2187"),
    ("DW1006", "Alan Whitcombe", "TA1 4DY", "1957-10-19", "1976-04-01", "5502"),
    ("DW1007", "Freya Lund", "EX4 6PX", "1993-12-01", "2012-03-15", "3376"),
    ("DW1008", "Callum Reid", "CA11 7JZ", "1986-07-07", "2004-10-09", "8014"),
    ("DW1009", "Nadine Okafor", "BS1 6QH", "1991-02-23", "2010-06-18", "1468"),
    ("DW1010", "Simon Pryce", "LA23 1AB", "1975-05-30", "1994-01-27", "9235"),
    ("DW1011", "Beth Carver", "BA2 4JT", "1982-08-14", "2001-11-05", "4090"),
    ("DW1012", "Marcus Bell", "BS9 3EW", "1969-09-09", "1988-12-12", "6721"),
    ("DW1013", "Ffion Parry", "CF10 3NB", "1995-04-04", "2013-08-22", "3158"),
    ("DW1014", "Rory Quinn", "LA1 4XQ", "1987-01-31", "2005-05-05", "7742"),
    ("DW1015", "Yasmin Haddad", "BS5 0HE", "1992-10-10", "2011-02-28", "2609"),
    ("DW1016", "Gareth Lowe", "LA8 9JS", "1978-03-21", "1996-07-30", "5917"),
    ("DW1017", "Chiamaka Okoro", "BS16 1QY", "1989-06-06", "2008-01-19", "8350"),
    ("DW1018", "Wendy Doyle", "GL50 2PR", "1970-12-24", "1989-06-02", "1183"),
    ("DW1019", "Hamish Duncan", "BS8 4TD", "1983-02-02", "2001-09-13", "6476"),
    ("DW1020", "Leon Marsh", "BS4 2RS", "1996-05-15", "2014-11-11", "3925"),
    ("DW1021", "Craig Marsh", "LA9 6BT", "1993-08-08", "2011-10-04", "5068"),
    ("DW1022", "Sunita Rao", "BS2 0JA", "1980-11-27", "1999-03-03", "7591"),
    ("DW1023", "Olivia Grant", "LA9 7DE", "1997-09-19", "2016-04-26", "2834"),
    ("DW1024", "Ewan Stewart", "IV3 5SS", "1972-04-11", "1990-08-08", "9467"),
    ("DW1025", "Helen Stroud", "LA9 5AA", "1966-07-03", "1985-05-17", "4302"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(c[-2:])}",
     pc, dob, lic, card)
    for c, n, pc, dob, lic, card in PEOPLE
]  # fmt: skip

FLEET = [
    ("bristol", 2, 3), ("bristol", 4, 3), ("bristol", 6, 2),
    ("kendal", 2, 2), ("kendal", 4, 2), ("kendal", 6, 1),
    ("inverness", 2, 2), ("inverness", 4, 2), ("inverness", 6, 1),
]
CLOSURES = [
    *[(d, "2026-12-25", "2026-12-26", "closed for Christmas") for d in DEPOTS],
    *[(d, "2027-01-01", "2027-01-01", "closed on New Year's Day") for d in DEPOTS],
    ("inverness", "2027-01-04", "2027-02-28", "closed for the winter"),
]
STOCK = [
    ("bristol", "awning", 4), ("kendal", "awning", 2), ("inverness", "awning", 2),
    ("bristol", "bike_rack", 3), ("kendal", "bike_rack", 2), ("inverness", "bike_rack", 1),
]

# booking, customer, size, pick-up depot, drop-off depot, pick-up, drop-off, hire, one-way,
# booking deposit
BOOKINGS = [
    ("VB3006", "DW1006", 2, "bristol", "bristol", "2027-03-02", "2027-03-05", 19500, 0, 4875),
    ("VB3007", "DW1007", 4, "bristol", "bristol", "2027-01-04", "2027-01-08", 34000, 0, 8500),
    ("VB3008", "DW1008", 2, "kendal", "kendal", "2026-12-18", "2026-12-21", 19500, 0, 4875),
    ("VB3009", "DW1009", 4, "bristol", "bristol", "2027-02-09", "2027-02-12", 25500, 0, 6375),
    ("VB3010", "DW1010", 4, "kendal", "kendal", "2027-01-21", "2027-01-25", 34000, 0, 8500),
    ("VB3011", "DW1011", 2, "bristol", "bristol", "2026-12-30", "2027-01-03", 26000, 0, 6500),
    ("VB3012", "DW1012", 6, "bristol", "bristol", "2026-12-17", "2026-12-20", 31500, 0, 7875),
    ("VB3013", "DW1013", 4, "bristol", "bristol", "2027-04-08", "2027-04-13", 55000, 0, 13750),
    ("VB3014", "DW1014", 4, "kendal", "kendal", "2026-12-27", "2026-12-31", 34000, 0, 8500),
    ("VB3015", "DW1015", 4, "bristol", "bristol", "2027-08-11", "2027-08-18", 108500, 0, 27125),
    ("VB3016", "DW1016", 2, "kendal", "kendal", "2027-01-15", "2027-01-18", 19500, 0, 4875),
    ("VB3017", "DW1017", 4, "bristol", "bristol", "2027-03-20", "2027-03-27", 77000, 0, 19250),
    ("VB3018", "DW1018", 2, "bristol", "bristol", "2027-03-01", "2027-03-05", 26000, 0, 6500),
    ("VB3019", "DW1019", 4, "bristol", "bristol", "2027-04-14", "2027-04-21", 77000, 0, 19250),
    ("VB3021", "DW1021", 4, "kendal", "kendal", "2027-02-05", "2027-02-08", 25500, 0, 6375),
    ("VB3022", "DW1022", 6, "bristol", "bristol", "2027-06-02", "2027-06-09", 129500, 0, 32375),
    ("VB3023", "DW1023", 2, "kendal", "kendal", "2027-01-19", "2027-01-23", 26000, 0, 6500),
    ("VB3024", "DW1024", 6, "kendal", "inverness", "2027-08-10", "2027-08-17", 129500, 12000,
     35375),
    ("VB3025", "DW1025", 2, "kendal", "kendal", "2026-12-24", "2026-12-29", 32500, 0, 8125),
    ("VB3026", "DW1025", 6, "kendal", "kendal", "2026-12-23", "2026-12-30", 73500, 0, 18375),
]
# booking, kind, price
EXTRAS = [
    ("VB3023", "outdoor_kit", 2000),
    ("VB3025", "awning", 4000),
    ("VB3026", "awning", 5600),
]
# booking, name, date of birth, licence since, fee
DRIVERS = [
    ("VB3023", "Tom Grant", "1995-02-14", "2014-06-30", 3000),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO fleet VALUES (?,?,?)", FLEET)
    db.executemany(
        "INSERT INTO closures (depot, first_day, last_day, reason) VALUES (?,?,?,?)", CLOSURES
    )
    db.executemany("INSERT INTO extra_stock VALUES (?,?,?)", STOCK)
    db.executemany(
        "INSERT INTO bookings (booking_ref, customer_id, van_size, pickup_depot, dropoff_depot, "
        "pickup_date, dropoff_date, hire_pence, oneway_pence, deposit_pence) "
        "VALUES (?,?,?,?,?,?,?,?,?,?)",
        BOOKINGS,
    )
    db.executemany("INSERT INTO extras (booking_ref, kind, price_pence) VALUES (?,?,?)", EXTRAS)
    db.executemany(
        "INSERT INTO drivers (booking_ref, name, date_of_birth, licence_since, fee_pence) "
        "VALUES (?,?,?,?,?)",
        DRIVERS,
    )
