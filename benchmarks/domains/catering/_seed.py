"""Saffron & Sage Catering: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 8 December 2026, 10:00 (UK, GMT). Customers are identified
by their account number (CT and four digits) and the postcode on the account. Orders are
numbered EV and four digits.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# menu packages: price per guest, in pence
PACKAGES = {"canapes": 1850, "buffet": 2400, "dinner": 4200}
PACKAGE_NAMES = {"canapes": "Canapé reception", "buffet": "Hot and cold buffet",
                 "dinner": "Three-course dinner"}  # fmt: skip
MIN_GUESTS, MAX_GUESTS = 20, 200
DINNER_MIN = 30  # the plated dinner needs 30 guests or more (the system does not check)
LEAD_DAYS = 14  # a new booking needs 14 days' notice
EVENTS_PER_DAY = 2  # the kitchen caters at most two events a day
DEPOSIT_PERCENT = 25  # taken at booking
CUTOFF_DAYS = 10  # headcount and menu changes are free 10+ days before the event
LATE_GUEST_PENCE = 600  # a supplement per guest added inside the cut-off
FINAL_DAYS = 3  # nothing about the food changes less than 3 days before the event
BALANCE_DAYS = 7  # the balance is due 7 days before the event
# cancellation bands: days before the event -> share of the deposit refunded (balance paid is
# always refunded but under the cut-off, where nothing is)
FULL_REFUND_DAYS = 60
HALF_REFUND_DAYS = 30


def per_head(package: str) -> int:
    return PACKAGES[package]


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- CT3001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    postcode TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- EV7006
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    event_date TEXT NOT NULL,
    headcount INTEGER NOT NULL,
    package TEXT NOT NULL,                    -- canapes / buffet / dinner
    vegetarian INTEGER NOT NULL DEFAULT 0,
    vegan INTEGER NOT NULL DEFAULT 0,
    gluten_free INTEGER NOT NULL DEFAULT 0,
    price_pence INTEGER NOT NULL,             -- the whole order
    deposit_pence INTEGER NOT NULL,           -- the deposit due (25% at booking)
    deposit_paid_pence INTEGER NOT NULL DEFAULT 0,
    balance_paid_pence INTEGER NOT NULL DEFAULT 0,
    contact_phone TEXT NOT NULL,              -- the on-the-day contact at the venue
    status TEXT NOT NULL DEFAULT 'confirmed'  -- held / confirmed / cancelled
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / balance / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, postcode, card; email and phone follow from them (CT3018: 07700 900618)
PEOPLE = [
    ("CT3001", "Alice Moreno", "LS6 2AB", "4417"),
    ("CT3002", "Raj Kapoor", "M20 4RT", "2290"),
    ("CT3003", "Tom Haines", "YO10 5DD", "8823"),
    ("CT3004", "Gina Marsh", "BS8 1QU", "6610"),
    ("CT3005", "Owen Pryce", "CF10 3AT", "3051"),
    ("CT3006", "Priya Nair", "NG7 2RD", "7702"),
    ("CT3007", "Dan Foley", "S10 2TN", "1189"),
    ("CT3008", "Sarah Lowe", "B15 3JP", "5534"),
    ("CT3009", "Mark Ellis", "OX4 1HG", "9046"),
    ("CT3010", "Fiona Grant", "EH9 1PR", "2718"),
    ("CT3011", "Ian Mercer", "L17 8XY", "6284"),
    ("CT3012", "Chloe Watts", "BN2 0JG", "3141"),
    ("CT3013", "Ben Okoro", "CB4 1EZ", "8080"),
    ("CT3014", "Nadia Russo", "GL50 2QF", "4242"),
    ("CT3015", "Paul Abbott", "HU5 3LP", "5150"),
    ("CT3016", "Hannah West", "NE2 4AX", "6006"),
    ("CT3017", "Jack Thorne", "PL4 6RU", "7117"),
    ("CT3018", "Emma Carver", "LE2 1TA", "1212"),
    ("CT3019", "George Hurst", "DE22 1GB", "3434"),
    ("CT3020", "Ruth Collins", "SO17 1BJ", "5656"),
    ("CT3021", "Luke Pearce", "EX4 4QJ", "7878"),
    ("CT3022", "Amir Hussain", "WV1 1LY", "9090"),
    ("CT3023", "Zara Bishop", "RG1 5AQ", "1357"),
    ("CT3024", "Dan Whitfield", "RG2 7PX", "2468"),
    ("CT3025", "Lena Fischer", "BA2 4AY", "9753"),
]
CUSTOMERS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(a[-2:])}", pc,
     card)
    for a, n, pc, card in PEOPLE
]  # fmt: skip

# order, account, event day, headcount, package, veg, vegan, gf, price, deposit, deposit paid,
# balance paid, on-the-day contact, status
ORDERS = [
    ("EV7006", "CT3006", "2027-01-22", 60, "buffet", 0, 0, 0, 144000, 36000, 36000, 0,
     "07700 900706", "confirmed"),
    ("EV7007", "CT3007", "2027-01-15", 80, "canapes", 0, 0, 0, 148000, 37000, 37000, 0,
     "07700 900707", "confirmed"),
    ("EV7008", "CT3008", "2026-12-16", 60, "buffet", 4, 0, 0, 144000, 36000, 36000, 108000,
     "07700 900708", "confirmed"),
    ("EV7009", "CT3009", "2026-12-17", 40, "dinner", 2, 2, 0, 168000, 42000, 42000, 126000,
     "07700 900709", "confirmed"),
    ("EV7010", "CT3010", "2026-12-14", 50, "buffet", 0, 0, 0, 120000, 30000, 30000, 90000,
     "07700 900710", "confirmed"),
    ("EV7011", "CT3011", "2027-02-12", 45, "buffet", 0, 0, 0, 108000, 27000, 27000, 0,
     "07700 900711", "confirmed"),
    ("EV7012", "CT3012", "2026-12-15", 35, "canapes", 0, 0, 0, 64750, 16187, 16187, 48563,
     "07700 900712", "confirmed"),
    ("EV7013", "CT3013", "2027-03-13", 50, "dinner", 0, 0, 0, 210000, 52500, 52500, 0,
     "07700 900713", "confirmed"),
    ("EV7014", "CT3014", "2027-01-22", 50, "buffet", 0, 0, 0, 120000, 30000, 30000, 0,
     "07700 900714", "confirmed"),
    ("EV7015", "CT3015", "2026-12-30", 40, "canapes", 0, 0, 0, 74000, 18500, 18500, 55500,
     "07700 900715", "confirmed"),
    ("EV7016", "CT3016", "2026-12-10", 30, "buffet", 0, 0, 0, 72000, 18000, 18000, 54000,
     "07700 900716", "confirmed"),
    ("EV7017", "CT3017", "2027-02-19", 30, "dinner", 0, 0, 0, 126000, 31500, 0, 0,
     "07700 900717", "held"),
    ("EV7018", "CT3018", "2026-12-19", 40, "buffet", 0, 0, 0, 96000, 24000, 24000, 0,
     "07700 900718", "confirmed"),
    ("EV7019", "CT3019", "2027-01-09", 70, "buffet", 0, 0, 0, 168000, 42000, 42000, 0,
     "07700 900719", "confirmed"),
    ("EV7020", "CT3020", "2026-12-18", 55, "buffet", 0, 0, 0, 132000, 33000, 33000, 0,
     "07700 900720", "confirmed"),
    ("EV7021", "CT3021", "2027-01-09", 60, "dinner", 0, 0, 0, 252000, 63000, 63000, 0,
     "07700 900721", "confirmed"),
    ("EV7022", "CT3022", "2027-01-29", 40, "buffet", 0, 0, 0, 96000, 24000, 24000, 0,
     "07700 900722", "confirmed"),
    ("EV7023", "CT3023", "2027-02-05", 25, "canapes", 0, 0, 0, 46250, 11562, 11562, 0,
     "07700 900723", "confirmed"),
    ("EV7024", "CT3024", "2026-12-23", 85, "canapes", 6, 0, 0, 157250, 39312, 39312, 0,
     "07700 900724", "confirmed"),
    ("EV7025", "CT3025", "2027-01-16", 120, "dinner", 0, 0, 0, 504000, 126000, 126000, 0,
     "07700 900725", "confirmed"),
    ("EV7026", "CT3024", "2027-01-16", 30, "canapes", 0, 0, 0, 55500, 13875, 13875, 0,
     "07700 900726", "confirmed"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", ORDERS)
