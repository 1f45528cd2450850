# ruff: noqa: E501
"""Packhorse Removals: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 09:00 (UK, GMT). Customers are known by a
move reference (PK and five digits) and prove who they are with the postcode they move from.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

DEPOSIT_PENCE = 15000
CANCEL_REFUND_DAYS = 14  # 14+ days before the move: the deposit comes back
FREE_CHANGE_DAYS = 10  # 10+ days before: a date change is free
NO_CHANGE_DAYS = 3  # fewer than 3 days before: no date change, only a cancellation
DATE_FEE_PENCE = 6000  # 3 to 9 days before
PACKING_ROOM_PENCE = 4500
PER_M3_PENCE = 2800
VANS = {"small": 15, "medium": 25, "large": 35}  # van -> cubic metres it holds
VAN_ORDER = ("small", "medium", "large")
VAN_STEP_PENCE = 12000  # each size up
CREW = {"small": 2, "medium": 3, "large": 4}
STORAGE_WEEK_PENCE = 3000
STORAGE_MIN_WEEKS = 2
CLAIM_DAYS = 7
CLAIM_CAP_PENCE = 10000  # per item, standard cover
EXTENDED_CAP_PENCE = 150000  # per item, extended cover
STAIRS_FLOOR_PENCE = 2500

SCHEMA_SQL = """
CREATE TABLE moves (
    move_ref TEXT PRIMARY KEY,                -- PK40112
    name TEXT NOT NULL,
    from_address TEXT NOT NULL,
    from_postcode TEXT NOT NULL,
    to_address TEXT NOT NULL,
    to_postcode TEXT NOT NULL,
    move_date TEXT NOT NULL,                  -- YYYY-MM-DD
    volume_m3 INTEGER NOT NULL,
    van TEXT NOT NULL,                        -- small / medium / large
    crew INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,             -- fixed price, extras included
    deposit_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked',    -- booked / cancelled / done
    packing_rooms INTEGER NOT NULL DEFAULT 0,
    storage_weeks INTEGER NOT NULL DEFAULT 0,
    stairs_floors INTEGER NOT NULL DEFAULT 0,
    access_notes TEXT NOT NULL DEFAULT '',
    extended_cover INTEGER NOT NULL DEFAULT 0,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE full_days (
    day TEXT PRIMARY KEY                      -- no crew free that day
);
CREATE TABLE claims (
    claim_id INTEGER PRIMARY KEY,
    move_ref TEXT NOT NULL,
    item TEXT NOT NULL,
    value_pence INTEGER NOT NULL,
    payable_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    move_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- date_fee / deposit_refund
    amount_pence INTEGER NOT NULL,            -- negative: money back
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# ref, name, from, from postcode, to, to postcode, date, m3, van, price, cover, phone, email, card
MOVES = [
    ("PK40112", "Sarah Bennett", "14 Elm Grove", "BS6 5AH", "3 Park Row", "BS1 5LJ", "2027-01-08", 18, "medium", 74000, 0, "07700 900112", "sarah.bennett@example.com", "4112"),
    ("PK40127", "Tom Hargreaves", "22 Cotham Hill", "BS6 6LA", "9 Whiteladies Road", "BS8 2PH", "2026-12-14", 12, "small", 42000, 0, "07700 900127", "tom.h@example.com", "9127"),
    ("PK40135", "Priya Shah", "5 Gloucester Road", "BS7 8AA", "41 Station Road", "BS15 4PJ", "2026-12-09", 20, "medium", 68000, 0, "07700 900135", "priya.shah@example.com", "3135"),
    ("PK40148", "Owen Price", "77 Wells Road", "BS4 2AB", "12 High Street", "BA1 5AQ", "2026-12-31", 24, "medium", 91000, 0, "07700 900148", "owen.price@example.com", "7148"),
    ("PK40152", "Hannah Lee", "3 Ashley Road", "BS6 5NL", "18 Church Lane", "BS16 1AA", "2026-12-17", 16, "medium", 61000, 0, "07700 900152", "hannah.lee@example.com", "6152"),
    ("PK40166", "Daniel Okafor", "60 Stapleton Road", "BS5 0QU", "2 Mill Lane", "BS30 5HF", "2026-12-15", 10, "small", 39000, 0, "07700 900166", "dan.okafor@example.com", "2166"),
    ("PK40171", "George Adams", "9 Redland Road", "BS6 6AG", "25 Queen Square", "BS1 4ND", "2027-01-20", 23, "medium", 86000, 0, "07700 900171", "george.adams@example.com", "5171"),
    ("PK40189", "Lucy Evans", "48 Coronation Road", "BS3 1AS", "7 Clifton Down", "BS8 3HT", "2027-01-05", 33, "large", 124000, 1, "07700 900189", "lucy.evans@example.com", "8189"),
    ("PK40193", "Ryan Cole", "11 Bath Road", "BS4 3EH", "64 Fishponds Road", "BS5 6SJ", "2026-12-04", 14, "small", 46000, 0, "07700 900193", "ryan.cole@example.com", "0193"),
    ("PK40204", "Emma Clarke", "30 North Street", "BS3 1EN", "5 Hillside", "BS6 6JP", "2026-12-03", 21, "medium", 79000, 1, "07700 900204", "emma.clarke@example.com", "1204"),
    ("PK40215", "Nina Patel", "8 Queens Road", "BS8 1QE", "17 Kings Drive", "BS7 8JW", "2026-12-22", 19, "medium", 72000, 0, "07700 900215", "nina.patel@example.com", "4215"),
    ("PK40226", "Mark Wilson", "2 Berkeley Square", "BS8 1HL", "Flat 9, 40 Broad Quay", "BS1 4DJ", "2027-01-12", 15, "small", 52000, 0, "07700 900226", "mark.wilson@example.com", "6226"),
    ("PK40230", "Aisha Khan", "19 Sandy Park Road", "BS4 3PF", "6 Abbey Road", "BS9 3QN", "2026-11-25", 17, "medium", 64000, 0, "07700 900230", "aisha.khan@example.com", "7230"),
    ("PK40244", "Ben Turner", "33 Chesterfield Road", "BS6 5DT", "28 London Road", "BA1 6AA", "2027-01-15", 13, "small", 48000, 0, "07700 900244", "ben.turner@example.com", "8244"),
]
# fmt: on
DONE = {"PK40193", "PK40204", "PK40230"}  # moves already carried out
FULL_DAYS = ["2026-12-19", "2027-01-22"]


def seed(db: sqlite3.Connection) -> None:
    for ref, name, fa, fp, ta, tp, day, m3, van, price, cover, phone, email, card in MOVES:
        db.execute(
            "INSERT INTO moves (move_ref, name, from_address, from_postcode, to_address, "
            "to_postcode, move_date, volume_m3, van, crew, price_pence, deposit_pence, status, "
            "extended_cover, phone, email, card_last4) VALUES "
            "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                ref, name, fa, fp, ta, tp, day, m3, van, CREW[van], price, DEPOSIT_PENCE,
                "done" if ref in DONE else "booked", cover, phone, email, card,
            ),
        )  # fmt: skip
    db.executemany("INSERT INTO full_days VALUES (?)", [(d,) for d in FULL_DAYS])
