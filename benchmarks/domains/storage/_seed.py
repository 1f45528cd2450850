"""Keepsafe Self Storage: schema, the fixed clock, fees and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). One site (Keepsafe
Manchester South). Units are named by block and number ("B05"); the block gives the size:
L lockers 15 sq ft, A 25, B 50, C 75, D 100, E 150 sq ft.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

NOTICE_DAYS = 14                # move-out date at least 14 days from today
PRO_RATA_DAYS = 30              # a day's rent is a 30th of the monthly price
TRANSFER_FEE_PENCE = 1000       # moving to another unit, either way
LATE_FEE_PENCE = 1500           # rent more than 5 days late
DISPUTE_DAYS = 30               # a late fee can be disputed within 30 days of being charged
VAN_FEE_PENCE = 2500            # a van slot, except the free move-in slot
VAN_FREE_DAYS = 7               # the free move-in van: within 7 days from the start date
VAN_TIMES = ("09:00", "11:00", "13:00", "15:00")   # two-hour slots, Monday to Saturday
VAN_MAX_DAYS = 28               # van slots open four weeks ahead, never the same day
MOVE_IN_MAX_DAYS = 30           # a new unit's move-in date: tomorrow to 30 days ahead
MAX_AUTHORISED = 2              # authorised users per unit

# block, size in square feet, the size's name, monthly price in pence, units in the block
SIZES = [("L", 15, "locker", 2900, 4), ("A", 25, "small", 4900, 8),
         ("B", 50, "medium", 7900, 8), ("C", 75, "large", 10900, 6),
         ("D", 100, "extra large", 13900, 4), ("E", 150, "garage-size", 17900, 3)]
SIZE_NAMES = {sqft: name for _, sqft, name, _, _ in SIZES}
PRICES = {sqft: pence for _, sqft, _, pence, _ in SIZES}

SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    account_no TEXT NOT NULL UNIQUE,          -- KS-4102
    name TEXT NOT NULL,
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    gate_pin TEXT NOT NULL,                   -- 6 digits; never read back in full
    staff_note TEXT NOT NULL DEFAULT ''       -- internal: never read out
);
CREATE TABLE units (
    unit_id TEXT PRIMARY KEY,                 -- B05
    size_sqft INTEGER NOT NULL,
    monthly_pence INTEGER NOT NULL,
    floor TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'vacant'     -- vacant / rented
);
CREATE TABLE rentals (
    rental_id TEXT PRIMARY KEY,               -- R-501
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    unit_id TEXT NOT NULL,
    size_sqft INTEGER NOT NULL,
    monthly_pence INTEGER NOT NULL,
    start_date TEXT NOT NULL,                 -- the move-in date; rent is due on this day monthly
    paid_until TEXT NOT NULL,                 -- rent is paid up to (not including) this day
    status TEXT NOT NULL DEFAULT 'active',    -- reserved / active / notice / transferred
    move_out_date TEXT                        -- set by a notice
);
CREATE TABLE authorised_users (
    auth_id INTEGER PRIMARY KEY,
    rental_id TEXT NOT NULL,
    name TEXT NOT NULL,
    added_on TEXT NOT NULL
);
CREATE TABLE fees (
    fee_id TEXT PRIMARY KEY,                  -- LF-7001
    customer_id TEXT NOT NULL,
    rental_id TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    charged_on TEXT NOT NULL,                 -- YYYY-MM-DD
    status TEXT NOT NULL DEFAULT 'unpaid',    -- unpaid / paid / disputed / deducted
    dispute_reason TEXT
);
CREATE TABLE van_bookings (
    booking_id TEXT PRIMARY KEY,              -- VB-301
    customer_id TEXT NOT NULL,
    rental_id TEXT NOT NULL,
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    slot TEXT NOT NULL,                       -- 09:00 / 11:00 / 13:00 / 15:00
    price_pence INTEGER NOT NULL,
    move_in INTEGER NOT NULL DEFAULT 0,       -- the free move-in van
    UNIQUE (day, slot)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    rental_id TEXT NOT NULL,
    kind TEXT NOT NULL,     -- rent / transfer_fee / rent_difference / van / late_fee / refund
    amount_pence INTEGER NOT NULL,            -- negative: refunded to the card
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# id, account, name, postcode, email, card, gate PIN, staff note
CUSTOMERS = [
    ("C01", "KS-4102", "Aisha Rahman", "M14 5RT", "aisha.rahman@example.com", "4471", "318264", ""),
    ("C02", "KS-4117", "Ben Carter", "M20 2PL", "ben.carter@example.com", "9052", "760431", ""),
    ("C03", "KS-4125", "Chloe Dunn", "M16 8QD", "chloe.dunn@example.com", "2287", "193745", ""),
    ("C04", "KS-4133", "Daniel Evans", "M21 9HB", "daniel.evans@example.com", "6630", "846102",
     ""),
    ("C05", "KS-4140", "Emma Fischer", "M13 0JL", "emma.fischer@example.com", "3174", "271840",
     ""),
    ("C06", "KS-4156", "Farid Ghani", "M19 3TX", "farid.ghani@example.com", "8802", "482913", ""),
    ("C07", "KS-4161", "Grace Hughes", "M15 4WE", "grace.hughes@example.com", "5519", "604718",
     ""),
    ("C08", "KS-4178", "Henry Hughes", "M15 4WE", "henry.hughes@example.com", "7043", "558207",
     "Has asked that his daughter is not given access to C04 (family matter, 2 Nov)."),
    ("C09", "KS-4183", "Ivan Jones", "M22 5NB", "ivan.jones@example.com", "1198", "935160", ""),
    ("C10", "KS-4190", "Jade King", "M33 7FX", "jade.king@example.com", "4725", "427583", ""),
    ("C11", "KS-4204", "Liam Moore", "M8 4LS", "liam.moore@example.com", "3360", "680295", ""),
    ("C12", "KS-4211", "Maya Nolan", "M9 8PR", "maya.nolan@example.com", "2091", "149376", ""),
    ("C13", "KS-4229", "Noah Owen", "M11 1DF", "noah.owen@example.com", "6684", "702614", ""),
    ("C14", "KS-4235", "Olivia Price", "M14 6GH", "olivia.price@example.com", "9127", "365921",
     ""),
    ("C15", "KS-4242", "Peter Quinn", "M16 0AX", "peter.quinn@example.com", "5038", "814260", ""),
    ("C16", "KS-4258", "Rosa Silva", "M20 4JU", "rosa.silva@example.com", "2745", "539072", ""),
    ("C17", "KS-4263", "Sam Turner", "M4 1HQ", "sam.turner@example.com", "8816", "926431", ""),
    ("C18", "KS-4277", "Victor Walsh", "M12 6BN", "victor.walsh@example.com", "4402", "173058",
     ""),
    ("C19", "KS-4281", "Yasmin Zaid", "M5 3EQ", "yasmin.zaid@example.com", "6159", "408637", ""),
]

# rental, customer, unit, start date, paid until, status
RENTALS = [
    ("R-501", "C01", "A01", "2026-03-01", "2027-01-01", "active"),
    ("R-502", "C02", "B05", "2026-05-19", "2026-12-19", "active"),
    ("R-503", "C03", "C02", "2026-02-20", "2026-12-20", "active"),
    ("R-504", "C04", "A02", "2026-07-15", "2026-12-15", "active"),
    ("R-505", "C05", "B01", "2025-11-10", "2026-12-10", "active"),
    ("R-506", "C06", "D01", "2026-04-02", "2027-01-02", "active"),
    ("R-507", "C07", "A05", "2026-06-12", "2026-12-12", "active"),
    ("R-508", "C08", "C04", "2024-09-30", "2026-12-30", "active"),
    ("R-509", "C09", "B07", "2026-12-10", "2027-01-10", "reserved"),
    ("R-510", "C10", "E01", "2025-08-22", "2026-12-22", "active"),
    ("R-511", "C11", "A07", "2026-01-03", "2027-01-03", "active"),
    ("R-512", "C12", "B04", "2026-04-27", "2026-12-27", "active"),
    ("R-513", "C13", "C03", "2025-10-15", "2026-12-15", "active"),
    ("R-514", "C14", "B06", "2026-08-04", "2027-01-04", "active"),
    ("R-515", "C15", "A03", "2026-09-18", "2026-12-18", "active"),
    ("R-516", "C16", "C05", "2026-10-01", "2027-01-01", "active"),
    ("R-517", "C17", "D02", "2025-12-05", "2027-01-05", "active"),
    ("R-518", "C18", "E02", "2026-06-30", "2026-12-30", "active"),
    ("R-519", "C19", "A04", "2025-05-14", "2026-12-14", "active"),
    ("R-520", "C19", "B08", "2026-09-10", "2027-01-10", "active"),
]

# fee, customer, rental, charged on, status
FEES = [
    ("LF-7001", "C03", "R-503", "2026-11-25", "unpaid"),
    ("LF-7002", "C11", "R-511", "2026-11-09", "unpaid"),
    ("LF-7003", "C12", "R-512", "2026-11-27", "unpaid"),
    ("LF-7004", "C13", "R-513", "2026-10-20", "unpaid"),
    ("LF-7005", "C14", "R-514", "2026-11-16", "unpaid"),
    ("LF-6990", "C10", "R-510", "2026-09-28", "paid"),
]

AUTHORISED = [("R-517", "Lena Turner", "2026-01-10"), ("R-517", "Marco Bellini", "2026-06-02"),
              ("R-506", "Samira Ghani", "2026-04-02")]

# booking, customer, rental, day, slot, price, move-in
VAN_BOOKINGS = [
    ("VB-301", "C05", "R-505", "2026-12-10", "11:00", 2500, 0),
    ("VB-302", "C02", "R-502", "2026-12-11", "09:00", 2500, 0),
    ("VB-303", "C16", "R-516", "2026-12-12", "09:00", 2500, 0),
]


def unit_plan() -> list[tuple[str, int, int, str]]:
    plan = []
    for block, sqft, _, pence, count in SIZES:
        for n in range(1, count + 1):
            floor = "ground" if block in "CDE" else "first"
            plan.append((f"{block}{n:02d}", sqft, pence, floor))
    return plan


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?)", CUSTOMERS)
    rented = {r[2] for r in RENTALS}
    db.executemany("INSERT INTO units VALUES (?,?,?,?,?)",
                   [(u, sqft, pence, floor, "rented" if u in rented else "vacant")
                    for u, sqft, pence, floor in unit_plan()])
    sizes = {u: (sqft, pence) for u, sqft, pence, _ in unit_plan()}
    for rid, cid, unit, start, paid, status in RENTALS:
        sqft, pence = sizes[unit]
        db.execute("INSERT INTO rentals (rental_id, customer_id, unit_id, size_sqft, "
                   "monthly_pence, start_date, paid_until, status) VALUES (?,?,?,?,?,?,?,?)",
                   (rid, cid, unit, sqft, pence, start, paid, status))
    db.executemany("INSERT INTO fees (fee_id, customer_id, rental_id, amount_pence, charged_on, "
                   "status) VALUES (?,?,?,?,?,?)",
                   [(f, c, r, LATE_FEE_PENCE, on, st) for f, c, r, on, st in FEES])
    db.executemany("INSERT INTO authorised_users (rental_id, name, added_on) VALUES (?,?,?)",
                   AUTHORISED)
    db.executemany("INSERT INTO van_bookings VALUES (?,?,?,?,?,?,?)", VAN_BOOKINGS)
