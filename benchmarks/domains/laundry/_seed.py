# ruff: noqa: E501
"""Pressed & Co.: schema, the fixed clock, prices and rules' constants, and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 09:00 (UK, GMT). Customers are known by an
order number (PC and five digits) and prove who they are with the email on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# Item -> price in pence: per item, or per kg for the service wash.
PRICES = {
    "shirt": 350, "trousers": 600, "dress": 1100, "suit": 1400, "coat": 1600,
    "duvet": 2200, "leather jacket": 4500, "wash": 280,
}  # fmt: skip
NO_EXPRESS = ("duvet", "leather jacket")  # too big or too delicate for a 24-hour turnaround
EXPRESS_PENCE = 995
CANCEL_FEE_PENCE = 1500  # cancelled after collection
SLOT_CUTOFF_HOURS = 6  # a slot may change until 6 hours before it starts
SLOT_STARTS = (8, 10, 12, 14, 16, 18)  # 2-hour windows, 08:00 to 20:00
CLAIM_DAYS = 14
CLAIM_MULTIPLE = 10  # compensation capped at 10x the cleaning price, unless a value was declared
PLUS_MONTH_PENCE = 799
PLUS_DISCOUNT_PCT = 20
SERVICE_AREA = ("SW2", "SW4", "SW8", "SW9", "SW11", "SW12", "SE5", "SE11", "SE15", "SE22")

SCHEMA_SQL = """
CREATE TABLE customers (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    phone TEXT NOT NULL,
    plus INTEGER NOT NULL DEFAULT 0,          -- Pressed Plus member
    card_last4 TEXT NOT NULL
);
CREATE TABLE orders (
    order_ref TEXT PRIMARY KEY,               -- PC20114
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    status TEXT NOT NULL,                     -- booked / collected / delivered / cancelled
    collection_slot TEXT NOT NULL,            -- YYYY-MM-DD HH:00, the window's start
    delivery_slot TEXT NOT NULL,
    express INTEGER NOT NULL DEFAULT 0,
    promo_code TEXT NOT NULL DEFAULT '',
    discount_pence INTEGER NOT NULL DEFAULT 0,
    total_pence INTEGER NOT NULL
);
CREATE TABLE order_items (
    line_id INTEGER PRIMARY KEY,
    order_ref TEXT NOT NULL,
    item TEXT NOT NULL,                       -- shirt, suit, ... or wash (per kg)
    qty INTEGER NOT NULL,                     -- items, or kg for the wash
    unit_pence INTEGER NOT NULL,
    declared_pence INTEGER NOT NULL DEFAULT 0 -- a value declared at booking, 0 if none
);
CREATE TABLE full_slots (
    slot TEXT PRIMARY KEY                     -- YYYY-MM-DD HH:00: no van free
);
CREATE TABLE promo_codes (
    code TEXT PRIMARY KEY,
    off_pence INTEGER NOT NULL,
    min_order_pence INTEGER NOT NULL
);
CREATE TABLE promo_uses (
    email TEXT NOT NULL,
    code TEXT NOT NULL,
    order_ref TEXT NOT NULL
);
CREATE TABLE claims (
    claim_id INTEGER PRIMARY KEY,
    order_ref TEXT NOT NULL,
    item TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- damaged / lost
    value_pence INTEGER NOT NULL,
    payable_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    order_ref TEXT NOT NULL,                  -- '' for the subscription
    kind TEXT NOT NULL,                       -- cancel_fee / plus_fee
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# email, name, phone, plus, card
CUSTOMERS = [
    ("olivia.grant@example.com", "Olivia Grant", "07700 900114", 0, "4114"),
    ("james.okoye@example.com", "James Okoye", "07700 900127", 0, "9127"),
    ("sofia.marin@example.com", "Sofia Marin", "07700 900135", 1, "3135"),
    ("liam.walsh@example.com", "Liam Walsh", "07700 900148", 0, "7148"),
    ("chloe.baker@example.com", "Chloe Baker", "07700 900152", 0, "6152"),
    ("marcus.reid@example.com", "Marcus Reid", "07700 900166", 0, "2166"),
    ("hannah.novak@example.com", "Hannah Novak", "07700 900171", 0, "5171"),
    ("ethan.cole@example.com", "Ethan Cole", "07700 900189", 0, "8189"),
    ("grace.ahmed@example.com", "Grace Ahmed", "07700 900193", 0, "0193"),
    ("noah.patel@example.com", "Noah Patel", "07700 900204", 0, "1204"),
    ("amelia.hughes@example.com", "Amelia Hughes", "07700 900215", 0, "4215"),
    ("daniel.price@example.com", "Daniel Price", "07700 900226", 0, "6226"),
    ("isla.murphy@example.com", "Isla Murphy", "07700 900230", 0, "7230"),
    ("ryan.shaw@example.com", "Ryan Shaw", "07700 900244", 0, "8244"),
]
# ref, email, address, postcode, status, collection slot, delivery slot
ORDERS = [
    ("PC20114", "olivia.grant@example.com", "12 Acre Lane", "SW2 5SG", "booked", "2026-12-08 10:00", "2026-12-10 18:00"),
    ("PC20127", "james.okoye@example.com", "4 Landor Road", "SW9 9RX", "booked", "2026-12-07 12:00", "2026-12-09 18:00"),
    ("PC20135", "sofia.marin@example.com", "Flat 2, 30 Lavender Hill", "SW11 5RN", "collected", "2026-12-05 10:00", "2026-12-09 16:00"),
    ("PC20148", "liam.walsh@example.com", "88 Bedford Road", "SW4 7HJ", "booked", "2026-12-09 08:00", "2026-12-11 18:00"),
    ("PC20152", "chloe.baker@example.com", "5 Camberwell Grove", "SE5 8JA", "booked", "2026-12-10 14:00", "2026-12-12 12:00"),
    ("PC20166", "marcus.reid@example.com", "19 Kennington Road", "SE11 4QH", "collected", "2026-12-05 08:00", "2026-12-08 12:00"),
    ("PC20171", "hannah.novak@example.com", "7 Rye Lane", "SE15 5EW", "delivered", "2026-12-01 10:00", "2026-12-04 16:00"),
    ("PC20189", "ethan.cole@example.com", "41 Lordship Lane", "SE22 8EW", "delivered", "2026-11-28 12:00", "2026-12-02 18:00"),
    ("PC20193", "grace.ahmed@example.com", "63 Nightingale Lane", "SW12 8LY", "delivered", "2026-11-13 10:00", "2026-11-17 14:00"),
    ("PC20204", "noah.patel@example.com", "22 Wandsworth Road", "SW8 2LG", "booked", "2026-12-11 16:00", "2026-12-14 18:00"),
    ("PC20215", "amelia.hughes@example.com", "9 Brixton Water Lane", "SW2 1PE", "booked", "2026-12-09 18:00", "2026-12-11 18:00"),
    ("PC20226", "daniel.price@example.com", "15 Clapham Manor Street", "SW4 6DZ", "booked", "2026-12-10 08:00", "2026-12-12 10:00"),
    ("PC20230", "isla.murphy@example.com", "3 Coldharbour Lane", "SE5 9NR", "booked", "2026-12-12 10:00", "2026-12-15 16:00"),
    ("PC20244", "ryan.shaw@example.com", "50 Northcote Road", "SW11 1NJ", "booked", "2026-12-09 14:00", "2026-12-11 16:00"),
]
# ref, item, qty, declared value (pence)
ITEMS = [
    ("PC20114", "shirt", 5, 0), ("PC20114", "suit", 1, 0),
    ("PC20127", "trousers", 2, 0), ("PC20127", "coat", 1, 0),
    ("PC20135", "dress", 2, 0), ("PC20135", "wash", 4, 0),
    ("PC20148", "duvet", 1, 0), ("PC20148", "shirt", 3, 0),
    ("PC20152", "wash", 6, 0), ("PC20152", "shirt", 2, 0),
    ("PC20166", "suit", 2, 0),
    ("PC20171", "shirt", 4, 0), ("PC20171", "trousers", 1, 0),
    ("PC20189", "dress", 1, 25000), ("PC20189", "shirt", 2, 0),
    ("PC20193", "coat", 1, 0),
    ("PC20204", "shirt", 6, 0), ("PC20204", "trousers", 2, 0),
    ("PC20215", "suit", 1, 0), ("PC20215", "dress", 1, 0), ("PC20215", "shirt", 2, 0),
    ("PC20226", "coat", 1, 0), ("PC20226", "suit", 1, 0),
    ("PC20230", "shirt", 5, 0),
    ("PC20244", "shirt", 8, 0), ("PC20244", "trousers", 1, 0),
]
# fmt: on
FULL_SLOTS = ["2026-12-11 10:00", "2026-12-08 14:00", "2026-12-10 08:00"]
PROMOS = [("PRESS10", 1000, 2500), ("WELCOME5", 500, 0)]
PROMO_USES = [("daniel.price@example.com", "PRESS10", "PC19980")]


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", CUSTOMERS)
    for ref, email, address, postcode, status, coll, deliv in ORDERS:
        total = sum(PRICES[i] * q for r, i, q, _ in ITEMS if r == ref)
        db.execute(
            "INSERT INTO orders (order_ref, email, address, postcode, status, collection_slot, "
            "delivery_slot, total_pence) VALUES (?,?,?,?,?,?,?,?)",
            (ref, email, address, postcode, status, coll, deliv, total),
        )
    db.executemany(
        "INSERT INTO order_items (order_ref, item, qty, unit_pence, declared_pence) "
        "VALUES (?,?,?,?,?)",
        [(r, i, q, PRICES[i], d) for r, i, q, d in ITEMS],
    )
    db.executemany("INSERT INTO full_slots VALUES (?)", [(s,) for s in FULL_SLOTS])
    db.executemany("INSERT INTO promo_codes VALUES (?,?,?)", PROMOS)
    db.executemany("INSERT INTO promo_uses VALUES (?,?,?)", PROMO_USES)
