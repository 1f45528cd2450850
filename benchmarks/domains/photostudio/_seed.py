"""Foxglove Portrait Studio: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 16 December 2026, 10:00 (UK, GMT). The studio shoots
Tuesday to Saturday at 10:00, 12:00, 14:00 and 16:00, and is closed from 25 December to 1
January. Clients are identified by their client number (FG and four digits) and the postcode on
their account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 16, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

SLOTS = ("10:00", "12:00", "14:00", "16:00")
OPEN_WEEKDAYS = (1, 2, 3, 4, 5)  # Tuesday to Saturday
CLOSED_FIRST, CLOSED_LAST = date(2026, 12, 25), date(2027, 1, 1)  # the Christmas closure
NEWBORN_WEEKDAYS = (1, 2, 3, 4)  # newborn sessions: Tuesday to Friday, 10:00 only
NEWBORN_TIME = "10:00"

# session kind: price, people included, most people allowed, minutes
SESSIONS = {
    "family": (15000, 4, 8, 60),
    "newborn": (18000, 3, 5, 120),
    "headshot": (8500, 1, 1, 30),
}
EXTRA_PERSON_PENCE = 2000  # each person over those included
OUTFIT_PENCE = 1500  # each extra outfit change
MAX_EXTRA_OUTFITS = 3
DEPOSIT_PENCE = 5000  # taken at booking, part of the price
REFUND_DAYS = 14  # the deposit back on a cancellation 14+ days before the session
FREE_MOVE_HOURS = 7 * 24  # a move 7+ days before is free
NO_MOVE_HOURS = 48  # no move less than 48 hours before (newborn sessions excepted)
MOVE_FEE_PENCE = 2500

# after the shoot: products in the gallery
PRODUCTS = {
    "print_8x10": ("8x10 print", 2500),
    "print_11x14": ("11x14 print", 4000),
    "canvas_16x20": ("16x20 canvas", 9500),
    "digital_5": ("5-image digital package", 6000),
    "digital_10": ("10-image digital package", 10000),
    "digital_all": ("full-gallery digital package", 25000),
}
EARLY_ORDER_DAYS = 14  # 10% off an order placed within 14 days of the gallery opening
EARLY_ORDER_PERCENT = 10
GALLERY_OPEN_DAYS = 60  # a gallery closes 60 days after it opens


SCHEMA_SQL = """
CREATE TABLE clients (
    account_id TEXT PRIMARY KEY,              -- FG1001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    postcode TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,              -- PS7001
    account_id TEXT NOT NULL REFERENCES clients(account_id),
    kind TEXT NOT NULL,                       -- family / newborn / headshot
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    time TEXT NOT NULL,                       -- HH:MM
    people INTEGER NOT NULL,
    outfits INTEGER NOT NULL DEFAULT 0,       -- extra outfit changes
    price_pence INTEGER NOT NULL,             -- session, extra people and outfits
    deposit_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked',    -- booked / completed / cancelled
    gallery_opened TEXT,                      -- completed sessions: the proofs' gallery
    image_count INTEGER,
    gallery_pin TEXT                          -- never read out in chat
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- people / outfits
    quantity INTEGER NOT NULL,
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / change_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- OR9001
    account_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    subtotal_pence INTEGER NOT NULL,
    discount_pence INTEGER NOT NULL,
    total_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE order_items (
    item_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    product TEXT NOT NULL,
    image INTEGER,                            -- prints and canvases: the image number
    quantity INTEGER NOT NULL,
    price_pence INTEGER NOT NULL              -- the line's price, before any discount
);
CREATE TABLE gallery_links (
    link_id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# client, name, postcode, card; emails and phones follow from them (FG1018: 07700 900818)
PEOPLE = [
    ("FG1001", "Amy Carter", "BS6 5QT", "4417"),
    ("FG1002", "Ben Novak", "BS7 8LP", "2290"),
    ("FG1003", "Chloe Dunn", "BS3 1RW", "8823"),
    ("FG1004", "Dev Malik", "BS8 2HJ", "6610"),
    ("FG1005", "Erin Walsh", "BS9 4AF", "3051"),
    ("FG1006", "Farid Aziz", "BS5 6NE", "7702"),
    ("FG1007", "Grace Lee", "BS4 3DG", "1189"),
    ("FG1008", "Harry Booth", "BS16 2YT", "5534"),
    ("FG1009", "Isla Reid", "BS1 5UH", "9046"),
    ("FG1010", "Jake Moore", "BS2 0PB", "2718"),
    ("FG1011", "Kate Sims", "BS6 7XL", "6284"),
    ("FG1012", "Liam Ford", "BS7 9QA", "3141"),
    ("FG1013", "Maya Patel", "BS3 4EN", "8080"),
    ("FG1014", "Noah Price", "BS8 1TS", "4242"),
    ("FG1015", "Olivia Hart", "BS9 3JD", "5150"),
    ("FG1016", "Priya Nair", "BS5 9LQ", "6006"),
    ("FG1017", "Quinn Adams", "BS4 2WR", "7117"),
    ("FG1018", "Rosa Diaz", "BS16 5HB", "1212"),
    ("FG1019", "Sam Ortiz", "BS1 6QZ", "3434"),
    ("FG1020", "Tara Quinn", "BS2 8DF", "5656"),
    ("FG1021", "Umar Khan", "BS6 6RG", "7878"),
    ("FG1022", "Vera Bloom", "BS7 0EU", "9090"),
    ("FG1023", "Will Grant", "BS3 2NY", "1357"),
    ("FG1024", "Uma Shah", "BS8 4PW", "2468"),
]
CLIENTS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{800 + int(a[-2:])}", pc,
     card)
    for a, n, pc, card in PEOPLE
]  # fmt: skip

# session, client, kind, day, time, people, outfits, price, deposit, status, gallery opened,
# images, gallery PIN
SESSION_ROWS = [
    ("PS7004", "FG1004", "family", "2027-01-16", "10:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7005", "FG1005", "family", "2026-12-19", "14:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7006", "FG1006", "headshot", "2026-12-17", "12:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
    ("PS7007", "FG1007", "headshot", "2027-01-05", "16:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
    ("PS7008", "FG1008", "family", "2027-01-30", "12:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7009", "FG1009", "headshot", "2026-12-22", "12:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
    ("PS7010", "FG1010", "family", "2026-12-23", "10:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7011", "FG1011", "family", "2027-01-16", "12:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7012", "FG1012", "headshot", "2027-01-12", "10:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
    ("PS7013", "FG1013", "family", "2026-11-28", "10:00", 4, 0, 15000, 5000, "completed",
     "2026-12-09", 40, "5307"),
    ("PS7014", "FG1014", "newborn", "2026-11-20", "10:00", 3, 0, 18000, 5000, "completed",
     "2026-12-01", 32, "6612"),
    ("PS7015", "FG1015", "family", "2026-12-19", "14:00", 5, 1, 18500, 5000, "booked",
     None, None, None),
    ("PS7016", "FG1016", "headshot", "2027-01-13", "14:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
    ("PS7017", "FG1017", "family", "2026-11-14", "12:00", 4, 0, 15000, 5000, "completed",
     "2026-11-26", 35, "7190"),
    ("PS7018", "FG1018", "family", "2027-01-23", "12:00", 3, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7019", "FG1019", "headshot", "2026-12-01", "14:00", 1, 0, 8500, 5000, "completed",
     "2026-12-10", 18, "4821"),
    ("PS7021", "FG1021", "newborn", "2026-12-22", "10:00", 3, 0, 18000, 5000, "booked",
     None, None, None),
    ("PS7022", "FG1022", "family", "2027-01-09", "16:00", 4, 0, 15000, 5000, "booked",
     None, None, None),
    ("PS7023", "FG1023", "family", "2026-09-05", "10:00", 4, 0, 15000, 5000, "completed",
     "2026-09-20", 44, "2950"),
    ("PS7024", "FG1024", "headshot", "2027-01-09", "10:00", 1, 0, 8500, 5000, "booked",
     None, None, None),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO clients VALUES (?,?,?,?,?,?)", CLIENTS)
    db.executemany("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", SESSION_ROWS)
    db.execute(
        "INSERT INTO extras (session_id, kind, quantity, price_pence) VALUES "
        "('PS7015', 'people', 1, 2000), ('PS7015', 'outfits', 1, 1500)"
    )
