"""Keynote Piano Services: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 15 December 2026, 09:00 (UK, GMT). A tuner covers each
area (the postcode's letters) on set weekdays, in 90-minute windows. Customers are identified
by their customer number (KP and four digits) and the postcode on record.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 15, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# a tuning, by the piano's kind; digital pianos are not tuned
TUNING = {"upright": 8500, "grand": 12000}
PITCH_RAISE_PENCE = 4000  # per piano not tuned for 2 years or more by the visit day
PITCH_RAISE_DAYS = 730
SECOND_PIANO_PERCENT = 25  # off the cheaper piano's tuning, both tuned at the same visit
CALLOUT_PENCE = 2000  # a move or a cancellation less than 48 hours before the window starts
FREE_HOURS = 48
REPAIR_DEPOSIT_PERCENT = 30  # taken when a repair quote is accepted
QUOTE_DAYS = 30  # a repair quote stands for 30 days from the visit that made it
PLAN = {"upright": 15000, "grand": 21500}  # annual tuning plan: two visits a year, paid yearly
# 90-minute visit windows, by their start
WINDOWS = ["09:00", "10:30", "13:00", "14:30"]
# the weekdays (Monday = 0) a tuner covers each area
COVER = {"OX": (1, 3), "RG": (0, 2), "SN": (4,)}
CLOSED = {date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}
AREA_NAMES = {"OX": "Oxford", "RG": "Reading", "SN": "Swindon"}


def window_end(start: str) -> str:
    hour, minute = map(int, start.split(":"))
    total = hour * 60 + minute + 90
    return f"{total // 60:02d}:{total % 60:02d}"


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- KP1001
    name TEXT NOT NULL,
    postcode TEXT NOT NULL,                   -- OX2 6NN
    area TEXT NOT NULL,                       -- OX / RG / SN
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE pianos (
    piano_id TEXT PRIMARY KEY,                -- PN201
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    kind TEXT NOT NULL,                       -- upright / grand / digital
    make TEXT NOT NULL,
    last_tuned TEXT                           -- NULL for digital pianos
);
CREATE TABLE visits (
    visit_id TEXT PRIMARY KEY,                -- KV3004
    customer_id TEXT NOT NULL,
    piano_ids TEXT NOT NULL,                  -- "PN203,PN204"
    area TEXT NOT NULL,
    day TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- the window's start, e.g. 10:30
    price_pence INTEGER NOT NULL,             -- paid to the tuner on the day
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled
);
CREATE TABLE quotes (
    quote_id TEXT PRIMARY KEY,                -- Q-4001
    customer_id TEXT NOT NULL,
    piano_id TEXT NOT NULL,
    work TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    issued TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',      -- open / accepted
    deposit_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE plans (
    plan_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    piano_id TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- a year, paid at the start
    started TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- callout_fee / repair_deposit / plan
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-6017
    customer_id TEXT NOT NULL,
    visit_id TEXT NOT NULL,
    total_pence INTEGER NOT NULL,
    issued TEXT NOT NULL
);
CREATE TABLE invoice_copies (
    copy_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, postcode, card; the email follows from the name, the phone from the number
PEOPLE = [
    ("KP1001", "Alice Brown", "OX2 6NN", "4417"),
    ("KP1002", "Ben Carter", "RG1 3EH", "2290"),
    ("KP1003", "Clara Dunn", "OX4 1AA", "8823"),
    ("KP1004", "David Ellis", "SN1 4BJ", "6610"),
    ("KP1005", "Emma Foster", "OX3 7LQ", "3051"),
    ("KP1006", "Frank Green", "OX1 2JD", "7702"),
    ("KP1007", "Grace Hill", "RG4 8AA", "1189"),
    ("KP1008", "Harry Irwin", "RG2 0BB", "5534"),
    ("KP1009", "Isla Jones", "OX2 9PP", "9046"),
    ("KP1010", "Jack King", "RG30 1XX", "2718"),
    ("KP1011", "Kate Lewis", "SN2 2CC", "6284"),
    ("KP1012", "Liam Moore", "RG6 3DD", "3141"),
    ("KP1013", "Maya Nash", "OX3 9EE", "8080"),
    ("KP1014", "Noah Owen", "RG5 4FF", "4242"),
    ("KP1015", "Olivia Price", "SN3 1GG", "5150"),
    ("KP1016", "Peter Quinn", "OX5 2HH", "6006"),
    ("KP1017", "Rosa Reid", "RG7 5JJ", "7117"),
    ("KP1018", "Sam Shaw", "OX14 3KK", "1212"),
    ("KP1019", "Tara Usher", "OX2 7LL", "3434"),
    ("KP1020", "Uma Vance", "OX2 7LN", "5656"),
    ("KP1021", "Victor Webb", "RG9 1MM", "7878"),
    ("KP1022", "Wendy Xu", "SN5 6NP", "9090"),
    ("KP1023", "Yusuf Zaman", "OX4 4QQ", "1357"),
    ("KP1024", "Zoe Young", "RG2 7RR", "2468"),
]
CUSTOMERS = [
    (c, n, pc, "".join(ch for ch in pc.split()[0] if ch.isalpha()),
     n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(c[-2:]):03d}", card)
    for c, n, pc, card in PEOPLE
]  # fmt: skip

# piano, customer, kind, make, last tuned
PIANOS = [
    ("PN201", "KP1001", "upright", "Yamaha U1", "2026-03-10"),
    ("PN202", "KP1002", "grand", "Steinway model O", "2023-11-02"),
    ("PN203", "KP1003", "grand", "Bechstein A", "2026-01-15"),
    ("PN204", "KP1003", "upright", "Kemble", "2025-12-01"),
    ("PN205", "KP1004", "upright", "Challen", "2026-02-20"),
    ("PN206", "KP1004", "grand", "Yamaha C3", "2025-09-01"),
    ("PN207", "KP1005", "digital", "Roland HP704", None),
    ("PN208", "KP1006", "upright", "Broadwood", "2025-06-01"),
    ("PN209", "KP1007", "upright", "Knight K10", "2026-01-05"),
    ("PN210", "KP1008", "upright", "Welmar", "2026-04-14"),
    ("PN211", "KP1009", "grand", "Blüthner", "2026-06-02"),
    ("PN212", "KP1010", "upright", "Kawai K300", "2026-05-20"),
    ("PN213", "KP1011", "upright", "Zimmermann", "2026-01-22"),
    ("PN214", "KP1012", "upright", "Yamaha b1", "2026-03-03"),
    ("PN215", "KP1013", "upright", "Danemann", "2025-11-11"),
    ("PN216", "KP1014", "grand", "Kawai GL-30", "2026-10-10"),
    ("PN217", "KP1015", "upright", "Chappell", "2026-09-09"),
    ("PN218", "KP1016", "upright", "Yamaha U3", "2026-07-07"),
    ("PN219", "KP1017", "upright", "Petrof", "2026-11-18"),
    ("PN220", "KP1018", "grand", "Boston GP-163", "2026-11-25"),
    ("PN221", "KP1019", "upright", "Schimmel", "2026-08-08"),
    ("PN222", "KP1020", "upright", "Hoffmann", "2026-01-07"),
    ("PN223", "KP1021", "grand", "Bösendorfer 170", "2024-06-01"),
    ("PN224", "KP1022", "upright", "Steinway K-52", "2026-01-22"),
    ("PN225", "KP1023", "upright", "Yamaha U1", "2026-01-05"),
    ("PN226", "KP1024", "upright", "Kemble Cambridge", "2026-01-11"),
]

# visit, customer, pianos, area, day, window start, price
VISITS = [
    ("KV3004", "KP1004", "PN205", "SN", "2027-01-08", "09:00", 8500),
    ("KV3007", "KP1007", "PN209", "RG", "2027-01-11", "10:30", 8500),
    ("KV3008", "KP1008", "PN210", "RG", "2026-12-16", "10:30", 8500),
    ("KV3009", "KP1009", "PN211", "OX", "2026-12-17", "10:30", 12000),
    ("KV3010", "KP1010", "PN212", "RG", "2026-12-16", "13:00", 8500),
    ("KV3011", "KP1011", "PN213", "SN", "2027-01-08", "13:00", 8500),
    ("KV3012", "KP1012", "PN214", "RG", "2026-12-16", "14:30", 8500),
    ("KV3020", "KP1020", "PN222", "OX", "2027-01-07", "09:00", 8500),
    ("KV3022", "KP1022", "PN224", "SN", "2027-01-22", "10:30", 8500),
    ("KV3023", "KP1023", "PN225", "OX", "2027-01-05", "10:30", 8500),
    ("KV3024", "KP1024", "PN226", "RG", "2027-01-11", "13:00", 8500),
]

# quote, customer, piano, work, price, issued
QUOTES = [
    ("Q-4001", "KP1014", "PN216", "replace four broken hammer shanks", 30000, "2026-12-04"),
    ("Q-4002", "KP1015", "PN217", "re-felt the dampers", 45000, "2026-10-20"),
]

# invoice, customer, visit, total, issued
INVOICES = [
    ("INV-6017", "KP1017", "KV2917", 8500, "2026-11-18"),
    ("INV-6018", "KP1018", "KV2918", 12000, "2026-11-25"),
    ("INV-6024", "KP1024", "KV2924", 8500, "2026-01-11"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO pianos VALUES (?,?,?,?,?)", PIANOS)
    db.executemany(
        "INSERT INTO visits (visit_id, customer_id, piano_ids, area, day, slot, price_pence) "
        "VALUES (?,?,?,?,?,?,?)",
        VISITS,
    )
    db.executemany(
        "INSERT INTO quotes (quote_id, customer_id, piano_id, work, price_pence, issued) "
        "VALUES (?,?,?,?,?,?)",
        QUOTES,
    )
    db.executemany("INSERT INTO invoices VALUES (?,?,?,?,?)", INVOICES)
