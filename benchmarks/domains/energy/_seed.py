"""Greenfield Energy: the schema and the seed data (eight households, a fixed clock)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime

NOW = datetime(2026, 9, 14, 9, 30, tzinfo=UTC)
TODAY = date(2026, 9, 14)

SCHEMA_SQL = """
CREATE TABLE customers (
    account_number TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    balance REAL NOT NULL DEFAULT 0,
    overdue REAL NOT NULL DEFAULT 0,
    move_out_date TEXT,
    forwarding_address TEXT
);
CREATE TABLE tariffs (
    tariff_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    term_months INTEGER NOT NULL,
    elec_unit_rate REAL NOT NULL,
    elec_standing_charge REAL NOT NULL,
    gas_unit_rate REAL NOT NULL,
    gas_standing_charge REAL NOT NULL,
    exit_fee_per_fuel REAL NOT NULL,
    available INTEGER NOT NULL DEFAULT 1,
    description TEXT NOT NULL
);
CREATE TABLE meters (
    meter_id TEXT PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    fuel TEXT NOT NULL,
    tariff_id TEXT NOT NULL REFERENCES tariffs(tariff_id),
    tariff_start TEXT NOT NULL,
    tariff_end TEXT,
    annual_kwh INTEGER NOT NULL,
    last_reading INTEGER NOT NULL,
    last_reading_date TEXT NOT NULL
);
CREATE TABLE readings (
    reading_id INTEGER PRIMARY KEY,
    meter_id TEXT NOT NULL REFERENCES meters(meter_id),
    date TEXT NOT NULL,
    value INTEGER NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE bills (
    bill_id TEXT PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    period TEXT NOT NULL,
    issued TEXT NOT NULL,
    electricity REAL NOT NULL,
    gas REAL NOT NULL,
    amount REAL NOT NULL,
    due_date TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE direct_debits (
    account_number TEXT PRIMARY KEY REFERENCES customers(account_number),
    amount REAL NOT NULL,
    day_of_month INTEGER NOT NULL,
    recommended_min REAL NOT NULL,
    next_collection TEXT NOT NULL
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    date TEXT NOT NULL,
    amount REAL NOT NULL,
    method TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE payment_plans (
    plan_id INTEGER PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    months INTEGER NOT NULL,
    monthly_amount REAL NOT NULL,
    final_instalment REAL NOT NULL,
    total REAL NOT NULL,
    first_payment TEXT NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    kind TEXT NOT NULL,
    amount REAL NOT NULL,
    date TEXT NOT NULL,
    note TEXT NOT NULL
);
CREATE TABLE priority_services (
    entry_id INTEGER PRIMARY KEY,
    account_number TEXT NOT NULL REFERENCES customers(account_number),
    need TEXT NOT NULL,
    added TEXT NOT NULL
);
"""

# account, name, email, phone, date of birth, address, postcode, balance owed, overdue
CUSTOMERS = [
    ("GE-1001", "Priya Shah", "priya.shah@example.com", "07700900101", "1988-03-14",
     "22 Cardigan Road, Leeds", "LS6 2AB", 0.0, 0.0),
    ("GE-1002", "Tom Baker", "tom.baker@example.com", "07700900102", "1975-11-02",
     "9 North Street, Bristol", "BS3 4QT", 188.45, 188.45),
    ("GE-1003", "Margaret Ellis", "margaret.ellis@example.net", "07700900103", "1948-06-30",
     "4 Heslington Lane, York", "YO10 5DD", 0.0, 0.0),
    ("GE-1004", "Daniel Okafor", "daniel.okafor@example.com", "07700900104", "1992-01-21",
     "61 Wilmslow Road, Manchester", "M14 6HP", 0.0, 0.0),
    ("GE-1005", "Chloe Martin", "chloe.martin@example.com", "07700900105", "1990-07-09",
     "3/2 Easter Road, Edinburgh", "EH7 5QR", 0.0, 0.0),
    ("GE-1006", "Ahmed Hassan", "ahmed.hassan@example.com", "07700900106", "1983-12-12",
     "17 Richmond Road, Cardiff", "CF24 3NP", 294.00, 294.00),
    ("GE-1007", "Sophie Turner", "sophie.turner@example.org", "07700900107", "1999-04-25",
     "8 Magdalen Street, Norwich", "NR2 1LT", 0.0, 0.0),
    ("GE-1008", "Gareth Jones", "gareth.jones@example.com", "07700900108", "1969-09-03",
     "40 Mumbles Road, Swansea", "SA1 6PL", 0.0, 0.0),
]

# id, name, kind, term months, elec unit, elec standing/day, gas unit, gas standing/day, exit fee
TARIFFS = [
    ("VARIABLE", "Standard Variable", "variable", 0, 0.2450, 0.5300, 0.0630, 0.3100, 0.0,
     "No fixed term, no exit fee; prices follow the price cap."),
    ("FIX12", "Fix 12", "fixed", 12, 0.2350, 0.5200, 0.0610, 0.3050, 75.0,
     "Prices fixed for 12 months; £75 per fuel to leave early."),
    ("FIX24", "Fix 24", "fixed", 24, 0.2290, 0.5100, 0.0590, 0.3000, 75.0,
     "Prices fixed for 24 months; £75 per fuel to leave early."),
    ("GREEN12", "Green Fix 12", "fixed", 12, 0.2390, 0.5200, 0.0640, 0.3050, 75.0,
     "12-month fix, 100% renewable electricity; £75 per fuel to leave early."),
]

# meter, account, fuel, tariff, start, end, annual kWh, last reading, last reading date
METERS = [
    ("EM1001", "GE-1001", "electricity", "FIX24", "2025-10-01", "2027-09-30", 2900, 8104,
     "2026-08-12"),
    ("GM1001", "GE-1001", "gas", "FIX24", "2025-10-01", "2027-09-30", 11500, 3322, "2026-08-12"),
    ("EM1002", "GE-1002", "electricity", "VARIABLE", "2023-02-01", None, 3400, 31640,
     "2026-08-20"),
    ("EM1003", "GE-1003", "electricity", "VARIABLE", "2019-05-01", None, 2200, 55210,
     "2026-08-30"),
    ("GM1003", "GE-1003", "gas", "VARIABLE", "2019-05-01", None, 9800, 12877, "2026-08-30"),
    ("EM1004", "GE-1004", "electricity", "FIX12", "2025-11-01", "2026-10-31", 2500, 14420,
     "2026-09-01"),
    ("GM1004", "GE-1004", "gas", "FIX12", "2025-11-01", "2026-10-31", 8000, 5066, "2026-09-01"),
    ("EM1005", "GE-1005", "electricity", "VARIABLE", "2024-06-01", None, 1900, 22105,
     "2026-08-25"),
    ("EM1006", "GE-1006", "electricity", "VARIABLE", "2022-01-01", None, 3800, 40210,
     "2026-08-18"),
    ("GM1006", "GE-1006", "gas", "VARIABLE", "2022-01-01", None, 13000, 9921, "2026-08-18"),
    ("EM1007", "GE-1007", "electricity", "VARIABLE", "2025-09-01", None, 1700, 4380,
     "2026-08-28"),
    ("EM1008", "GE-1008", "electricity", "FIX24", "2025-04-01", "2027-03-31", 3100, 26430,
     "2026-09-02"),
    ("GM1008", "GE-1008", "gas", "FIX24", "2025-04-01", "2027-03-31", 12000, 7821, "2026-09-02"),
]

# account, direct debit amount, day of month, recommended minimum, next collection
DIRECT_DEBITS = [
    ("GE-1001", 142.0, 1, 130.0, "2026-10-01"),
    ("GE-1002", 60.0, 15, 78.0, "2026-09-15"),
    ("GE-1003", 118.0, 10, 112.0, "2026-10-10"),
    ("GE-1004", 96.0, 5, 90.0, "2026-10-05"),
    ("GE-1005", 48.0, 25, 45.0, "2026-09-25"),
    ("GE-1006", 150.0, 1, 165.0, "2026-10-01"),
    ("GE-1007", 42.0, 12, 40.0, "2026-10-12"),
    ("GE-1008", 155.0, 18, 150.0, "2026-09-18"),
]

# (account, period, electricity, gas, status)
BILL_ROWS = [
    ("GE-1001", "2026-07", 61.80, 38.40, "paid"), ("GE-1001", "2026-08", 58.25, 36.10, "paid"),
    ("GE-1002", "2026-07", 96.10, 0.0, "overdue"), ("GE-1002", "2026-08", 92.35, 0.0, "overdue"),
    ("GE-1003", "2026-07", 44.70, 29.90, "paid"), ("GE-1003", "2026-08", 43.15, 28.60, "paid"),
    ("GE-1004", "2026-07", 52.30, 24.10, "paid"), ("GE-1004", "2026-08", 50.95, 23.75, "paid"),
    ("GE-1005", "2026-07", 39.80, 0.0, "paid"), ("GE-1005", "2026-08", 41.20, 0.0, "paid"),
    ("GE-1006", "2026-07", 88.40, 61.60, "overdue"), ("GE-1006", "2026-08", 85.90, 58.10,
                                                       "overdue"),
    ("GE-1007", "2026-07", 35.10, 0.0, "paid"), ("GE-1007", "2026-08", 63.75, 0.0, "paid"),
    ("GE-1008", "2026-07", 66.20, 41.30, "paid"), ("GE-1008", "2026-08", 64.80, 40.05, "paid"),
]

# account, date, amount, method, status
PAYMENTS = [
    ("GE-1001", "2026-08-01", 142.0, "direct debit", "collected"),
    ("GE-1001", "2026-09-01", 142.0, "direct debit", "collected"),
    ("GE-1002", "2026-08-15", 60.0, "direct debit", "failed"),
    ("GE-1002", "2026-07-15", 60.0, "direct debit", "failed"),
    ("GE-1003", "2026-09-10", 118.0, "direct debit", "collected"),
    ("GE-1004", "2026-09-05", 96.0, "direct debit", "collected"),
    ("GE-1005", "2026-08-25", 48.0, "direct debit", "collected"),
    ("GE-1006", "2026-09-01", 150.0, "direct debit", "failed"),
    ("GE-1007", "2026-09-12", 42.0, "direct debit", "collected"),
    ("GE-1008", "2026-08-18", 155.0, "direct debit", "collected"),
]

PRIORITY = [("GE-1003", "pensionable age", "2021-02-11")]

_DUE = {"2026-07": ("2026-08-05", "2026-07-31"), "2026-08": ("2026-09-04", "2026-08-31")}


def seed(db: sqlite3.Connection) -> None:
    db.executemany(
        "INSERT INTO customers (account_number, name, email, phone, date_of_birth, address,"
        " postcode, balance, overdue) VALUES (?,?,?,?,?,?,?,?,?)",
        CUSTOMERS,
    )
    db.executemany("INSERT INTO tariffs VALUES (?,?,?,?,?,?,?,?,?,1,?)", TARIFFS)
    db.executemany("INSERT INTO meters VALUES (?,?,?,?,?,?,?,?,?)", METERS)
    for meter in METERS:
        meter_id, last, when = meter[0], meter[7], meter[8]
        db.execute(
            "INSERT INTO readings (meter_id, date, value, source) VALUES (?,?,?,?)",
            (meter_id, when, last, "customer"),
        )
    db.executemany("INSERT INTO direct_debits VALUES (?,?,?,?,?)", DIRECT_DEBITS)
    for account, period, elec, gas, status in BILL_ROWS:
        due, issued = _DUE[period]
        bill_id = f"B-{account[3:]}-{period[-2:]}"
        db.execute(
            "INSERT INTO bills VALUES (?,?,?,?,?,?,?,?,?)",
            (bill_id, account, period, issued, elec, gas, round(elec + gas, 2), due, status),
        )
    db.executemany(
        "INSERT INTO payments (account_number, date, amount, method, status) VALUES (?,?,?,?,?)",
        PAYMENTS,
    )
    db.executemany(
        "INSERT INTO priority_services (account_number, need, added) VALUES (?,?,?)", PRIORITY
    )
