"""Bunting & Co. Party Hire: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Items are priced per
hire: one price for 1 to 3 days, the weekly rate for 4 to 7 days, and the weekly rate for each
further week or part of one. Customers are identified by an order number (BP and four digits)
and that order's delivery postcode.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

SHORT_HIRE_DAYS = 3  # 1 to 3 days: the hire price; longer: the weekly rate per week or part
DEPOSIT_PENCE = 10000  # the refundable damage deposit
MARQUEE_DEPOSIT_PENCE = 25000  # ... for an order with a marquee on it
FREE_CHANGE_DAYS = 7  # changes to items and dates are free 7+ days before delivery
CHANGE_FEE_PENCE = 2000  # ... and cost £20.00 inside them; never after dispatch
FULL_REFUND_DAYS = 28  # cancellations: 28+ days before delivery, hire and delivery back
HALF_REFUND_DAYS = 14  # 14 to 27 days: half back; under 14 days: none; the deposit always
DISPUTE_DAYS = 14  # a breakage charge is disputed within 14 days of being charged
SURVEY_LEAD_DAYS = 2  # the surveyor's first free weekday is two days from today
SURVEY_BEFORE_DAYS = 3  # a marquee's site survey is at least 3 days before delivery
WINDOWS = {"AM": "08:00–12:00", "PM": "12:00–17:00"}

# delivery and collection, both ways, by the postcode district's zone
ZONE_PENCE = {"A": 3000, "B": 4500, "C": 6000}
ZONES = {
    "GL50": "A", "GL51": "A", "GL52": "A", "GL53": "A",
    "GL1": "B", "GL2": "B", "GL3": "B", "GL4": "B",
    "GL20": "C", "GL54": "C", "GL55": "C", "GL56": "C",
}  # fmt: skip

SCHEMA_SQL = """
CREATE TABLE items (
    item_id TEXT PRIMARY KEY,                 -- CH-F
    name TEXT NOT NULL,
    hire_pence INTEGER NOT NULL,              -- per item, a hire of 1 to 3 days
    week_pence INTEGER NOT NULL,              -- per item, each week (or part) beyond
    replace_pence INTEGER NOT NULL,           -- charged for a breakage or a loss
    marquee INTEGER NOT NULL DEFAULT 0,       -- needs a site survey
    hireable INTEGER NOT NULL DEFAULT 1       -- 0: a piece of a set, charged only if broken
);
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- C301
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- BP7001
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    postcode TEXT NOT NULL,                   -- where it is delivered
    zone TEXT NOT NULL,
    delivery_date TEXT NOT NULL,
    delivery_window TEXT NOT NULL,            -- AM / PM
    collection_date TEXT NOT NULL,
    collection_window TEXT NOT NULL,
    hire_pence INTEGER NOT NULL,
    delivery_pence INTEGER NOT NULL,
    deposit_pence INTEGER NOT NULL,
    survey_on TEXT,                           -- a marquee's site survey visit
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / dispatched / collected / cancelled
);
CREATE TABLE order_lines (
    order_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    qty INTEGER NOT NULL,
    PRIMARY KEY (order_id, item_id)
);
CREATE TABLE full_windows (
    day TEXT NOT NULL,
    window TEXT NOT NULL,                     -- the vans are fully booked
    PRIMARY KEY (day, window)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                 -- payment / deposit / adjustment / change_fee / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE breakages (
    breakage_id TEXT PRIMARY KEY,             -- BR-601
    order_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    qty INTEGER NOT NULL,
    amount_pence INTEGER NOT NULL,
    charged_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'charged'    -- charged / disputed
);
CREATE TABLE disputes (
    dispute_id INTEGER PRIMARY KEY,
    breakage_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    logged_at TEXT NOT NULL
);
"""

# fmt: off
# item, name, hire (1-3 days), week, replacement, marquee, hireable
ITEMS = [
    ("MQ-S", "small marquee (3m x 6m)", 18000, 30000, 240000, 1, 1),
    ("MQ-L", "large marquee (6m x 9m)", 32000, 54000, 480000, 1, 1),
    ("TB-T", "trestle table (6ft)", 800, 1400, 6000, 0, 1),
    ("TB-R", "round table (5ft)", 1100, 1900, 9500, 0, 1),
    ("CH-F", "folding chair", 180, 300, 2500, 0, 1),
    ("CH-C", "Chiavari chair", 450, 750, 6500, 0, 1),
    ("HT-P", "patio heater", 4500, 7500, 28000, 0, 1),
    ("CR-10", "crockery set (10 place settings)", 1200, 2000, 9000, 0, 1),
    ("CR-P", "dinner plate", 0, 0, 400, 0, 0),
    ("CR-G", "wine glass", 0, 0, 300, 0, 0),
]

# customer, name, phone; the email follows from the name
PEOPLE = [
    ("C301", "Alice Ward", "07700 900301"), ("C302", "Raj Patel", "07700 900302"),
    ("C303", "Tom Hale", "07700 900303"), ("C304", "Gina Moss", "07700 900304"),
    ("C305", "Owen Price", "07700 900305"), ("C306", "Priya Shah", "07700 900306"),
    ("C307", "Dan Fox", "07700 900307"), ("C308", "Sarah Lin", "07700 900308"),
    ("C309", "Mark Evans", "07700 900309"), ("C310", "Fiona Grey", "07700 900310"),
    ("C311", "Ian Moss", "07700 900311"), ("C312", "Chloe Ward", "07700 900312"),
    ("C313", "Ben Ortiz", "07700 900313"), ("C314", "Nadia Rossi", "07700 900314"),
    ("C315", "Paul Adams", "07700 900315"), ("C316", "Hannah Webb", "07700 900316"),
    ("C317", "Jack Turner", "07700 900317"), ("C318", "Emma Clarke", "07700 900318"),
    ("C319", "George Hall", "07700 900319"), ("C320", "Ruth Cole", "07700 900320"),
    ("C321", "Luke Perry", "07700 900321"), ("C322", "Amir Khan", "07700 900322"),
    ("C323", "Zara Bell", "07700 900323"),
]
CUSTOMERS = [(c, n, n.lower().replace(" ", ".") + "@example.com", p) for c, n, p in PEOPLE]

# order, customer, postcode, delivery day and window, collection day and window, hire,
# delivery, deposit, survey, status, lines
ORDERS = [
    ("BP7001", "C301", "GL50 1AA", "2027-01-09", "AM", "2027-01-11", "PM", 18800, 3000, 10000,
     None, "confirmed", {"TB-R": 4, "CH-C": 32}),
    ("BP7002", "C302", "GL51 3BB", "2026-11-13", "AM", "2026-11-15", "PM", 3600, 3000, 10000,
     None, "collected", {"CH-F": 20}),
    ("BP7003", "C303", "GL3 4CC", "2027-01-02", "AM", "2027-01-04", "PM", 36800, 4500, 10000,
     None, "confirmed", {"HT-P": 4, "TB-T": 10, "CH-F": 60}),
    ("BP7004", "C304", "GL52 6PL", "2026-12-19", "AM", "2026-12-21", "PM", 12000, 3000, 10000,
     None, "confirmed", {"CH-F": 40, "TB-T": 6}),
    ("BP7005", "C305", "GL53 2GG", "2026-11-20", "AM", "2026-11-23", "PM", 7200, 3000, 10000,
     None, "collected", {"CR-10": 6}),
    ("BP7006", "C306", "GL51 6HH", "2026-12-18", "PM", "2026-12-19", "AM", 32500, 3000, 10000,
     None, "confirmed", {"HT-P": 2, "TB-R": 5, "CH-C": 40}),
    ("BP7007", "C307", "GL2 7JJ", "2027-01-15", "AM", "2027-01-17", "PM", 9400, 4500, 10000,
     None, "confirmed", {"CH-F": 30, "TB-T": 5}),
    ("BP7008", "C308", "GL50 3KK", "2026-12-22", "PM", "2026-12-23", "AM", 15400, 3000, 10000,
     None, "confirmed", {"TB-T": 8, "CH-F": 50}),
    ("BP7009", "C309", "GL52 4LL", "2026-12-04", "AM", "2026-12-07", "PM", 7200, 3000, 10000,
     None, "collected", {"CH-F": 40}),
    ("BP7010", "C310", "GL53 7QT", "2026-10-09", "AM", "2026-10-11", "PM", 4400, 3000, 10000,
     None, "collected", {"TB-R": 4}),
    ("BP7011", "C311", "GL2 5DD", "2026-09-18", "AM", "2026-09-20", "PM", 9000, 4500, 10000,
     None, "collected", {"HT-P": 2}),
    ("BP7012", "C312", "GL50 4EE", "2026-08-07", "AM", "2026-08-09", "PM", 5400, 3000, 10000,
     None, "collected", {"CH-F": 30}),
    ("BP7013", "C313", "GL51 8FF", "2026-07-10", "AM", "2026-07-12", "PM", 3200, 3000, 10000,
     None, "collected", {"TB-T": 4}),
    ("BP7014", "C314", "GL4 6MM", "2027-01-22", "AM", "2027-01-24", "PM", 47000, 4500, 10000,
     None, "confirmed", {"TB-R": 10, "CH-C": 80}),
    ("BP7015", "C315", "GL52 9NN", "2026-12-17", "PM", "2026-12-19", "AM", 18300, 3000, 10000,
     None, "confirmed", {"HT-P": 3, "CR-10": 4}),
    ("BP7016", "C316", "GL53 1PP", "2026-12-14", "AM", "2026-12-15", "PM", 11280, 3000, 10000,
     None, "dispatched", {"TB-T": 6, "CH-F": 36}),
    ("BP7017", "C317", "GL51 2RR", "2026-12-19", "AM", "2026-12-20", "PM", 8700, 3000, 10000,
     None, "confirmed", {"CH-F": 30, "TB-R": 3}),
    ("BP7018", "C318", "GL3 8SS", "2027-01-15", "AM", "2027-01-17", "PM", 21200, 4500, 25000,
     "2027-01-11", "confirmed", {"MQ-S": 1, "TB-T": 4}),
    ("BP7019", "C319", "GL50 9TT", "2026-12-23", "AM", "2026-12-24", "PM", 9000, 3000, 10000,
     None, "confirmed", {"CH-C": 20}),
    ("BP7020", "C320", "GL52 2UU", "2027-01-09", "AM", "2027-01-11", "PM", 12000, 3000, 10000,
     None, "confirmed", {"TB-T": 6, "CH-F": 40}),
    ("BP7021", "C321", "GL51 5VV", "2027-01-16", "AM", "2027-01-17", "PM", 3600, 3000, 10000,
     None, "confirmed", {"CH-F": 20}),
    ("BP7022", "C322", "GL54 3WW", "2027-01-02", "AM", "2027-01-04", "PM", 46600, 6000, 10000,
     None, "confirmed", {"TB-R": 8, "CH-C": 64, "HT-P": 2}),
    ("BP7023", "C323", "GL53 4XX", "2026-12-18", "AM", "2026-12-20", "PM", 11200, 3000, 10000,
     None, "confirmed", {"TB-T": 5, "CH-F": 40}),
]

FULL_WINDOWS = [("2026-12-22", "AM"), ("2026-12-24", "AM"), ("2027-01-08", "PM")]

# breakage, order, item, qty, amount, charged on
BREAKAGES = [
    ("BR-601", "BP7005", "CR-G", 6, 1800, "2026-11-23"),
    ("BR-602", "BP7009", "CH-F", 1, 2500, "2026-12-08"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO items VALUES (?,?,?,?,?,?,?)", ITEMS)
    db.executemany("INSERT INTO customers VALUES (?,?,?,?)", CUSTOMERS)
    for *order, lines in ORDERS:
        db.execute(
            "INSERT INTO orders (order_id, customer_id, postcode, zone, delivery_date, "
            "delivery_window, collection_date, collection_window, hire_pence, delivery_pence, "
            "deposit_pence, survey_on, status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (*order[:3], ZONES[order[2].split()[0]], *order[3:]),
        )
        db.executemany(
            "INSERT INTO order_lines VALUES (?,?,?)", [(order[0], i, q) for i, q in lines.items()]
        )
    db.executemany("INSERT INTO full_windows VALUES (?,?)", FULL_WINDOWS)
    db.executemany(
        "INSERT INTO breakages (breakage_id, order_id, item_id, qty, amount_pence, charged_on) "
        "VALUES (?,?,?,?,?,?)",
        BREAKAGES,
    )
