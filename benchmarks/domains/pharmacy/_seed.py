"""Willow Pharmacy's schema and seed data: patients, prescriptions, refill orders, pick-up slots.

The clock is fixed: NOW is Thursday 2026-04-09 14:00. Pick-up slots exist every 15 minutes during
opening hours from today to Friday 2026-04-17; a deterministic pattern marks some of them full.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

TODAY = date(2026, 4, 9)
NOW_TIME = "14:00"
NOW = f"{TODAY.isoformat()} {NOW_TIME}"
LAST_BOOKABLE = date(2026, 4, 17)
DELIVERY_FEE_USD = 4.95
READY_AFTER_MINUTES = 120

SCHEMA_SQL = """
CREATE TABLE branches (
    branch_id TEXT PRIMARY KEY, name TEXT NOT NULL, address TEXT NOT NULL,
    saturday_open INTEGER NOT NULL
);
CREATE TABLE patients (
    patient_id TEXT PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL, phone TEXT NOT NULL, address TEXT NOT NULL,
    home_branch TEXT NOT NULL REFERENCES branches(branch_id)
);
CREATE TABLE prescriptions (
    rx_id TEXT PRIMARY KEY, patient_id TEXT NOT NULL REFERENCES patients(patient_id),
    drug TEXT NOT NULL, strength TEXT NOT NULL, form TEXT NOT NULL, quantity INTEGER NOT NULL,
    days_supply INTEGER NOT NULL, refills_left INTEGER NOT NULL, expires_on TEXT NOT NULL,
    prescriber TEXT NOT NULL, controlled INTEGER NOT NULL DEFAULT 0, schedule TEXT,
    branch_id TEXT NOT NULL REFERENCES branches(branch_id), last_filled_on TEXT NOT NULL,
    copay_usd REAL NOT NULL
);
CREATE TABLE refill_orders (
    order_id TEXT PRIMARY KEY, rx_id TEXT NOT NULL REFERENCES prescriptions(rx_id),
    patient_id TEXT NOT NULL REFERENCES patients(patient_id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'picked_up', 'cancelled')),
    fulfilment TEXT NOT NULL CHECK (fulfilment IN ('pickup', 'delivery')),
    branch_id TEXT NOT NULL REFERENCES branches(branch_id),
    pickup_date TEXT, pickup_time TEXT, delivery_address TEXT, delivery_date TEXT,
    delivery_fee_usd REAL NOT NULL DEFAULT 0, copay_usd REAL NOT NULL, ready_at TEXT NOT NULL,
    created_at TEXT NOT NULL, prev_last_filled_on TEXT
);
CREATE TABLE pickup_slots (
    branch_id TEXT NOT NULL REFERENCES branches(branch_id), slot_date TEXT NOT NULL,
    slot_time TEXT NOT NULL, capacity INTEGER NOT NULL, booked INTEGER NOT NULL,
    just_taken INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (branch_id, slot_date, slot_time)
);
CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1), verified_patient_id TEXT);
"""

BRANCHES = [
    ("ELM", "Elm Street", "12 Elm Street, Millbrook", 1),
    ("RIV", "Riverside", "480 River Road, Millbrook", 1),
    ("HAR", "Harbor Point", "3 Quay Lane, Millbrook", 0),
]

PATIENTS = [
    ("P1001", "Maria", "Delgado", "1958-03-03", "413-555-0142", "14 Birch Lane, Millbrook", "ELM"),
    ("P1002", "James", "Whitfield", "1971-11-22", "413-555-0187", "220 Cedar Avenue, Millbrook",
     "ELM"),
    ("P1003", "Aisha", "Rahman", "1989-06-14", "413-555-0123", "7 Harbor Street, Millbrook",
     "HAR"),
    ("P1004", "Tom", "Becker", "1945-01-30", "413-555-0166", "91 Mill Road, Millbrook", "RIV"),
    ("P1005", "Linh", "Tran", "1993-09-05", "413-555-0199", "55 Oak Court, Millbrook", "RIV"),
    ("P1006", "Robert", "Delgado", "1956-07-19", "413-555-0143", "14 Birch Lane, Millbrook",
     "ELM"),
    ("P1007", "Grace", "Liu", "1980-02-11", "413-555-0110", "8 Willow Way, Millbrook", "HAR"),
]

# rx_id, patient, drug, strength, form, qty, days, refills, expires, prescriber, controlled,
# schedule, branch, last filled, copay
PRESCRIPTIONS = [
    ("RX30412", "P1001", "Lisinopril", "10 mg", "tablets", 30, 30, 3, "2026-11-30",
     "Dr. Anika Rao", 0, None, "ELM", "2026-03-12", 5.00),
    ("RX30413", "P1001", "Atorvastatin", "20 mg", "tablets", 90, 90, 0, "2026-09-01",
     "Dr. Anika Rao", 0, None, "ELM", "2026-01-20", 12.50),
    ("RX30415", "P1006", "Tamsulosin", "0.4 mg", "capsules", 30, 30, 2, "2026-10-15",
     "Dr. Paul Mercer", 0, None, "ELM", "2026-03-15", 7.00),
    ("RX30588", "P1002", "Alprazolam", "0.5 mg", "tablets", 60, 30, 2, "2026-08-20",
     "Dr. Helen Osei", 1, "C-IV", "ELM", "2026-03-25", 10.00),
    ("RX30589", "P1002", "Metformin", "500 mg", "tablets", 60, 30, 5, "2027-01-15",
     "Dr. Helen Osei", 0, None, "ELM", "2026-03-08", 3.00),
    ("RX30710", "P1003", "Sertraline", "50 mg", "tablets", 30, 30, 4, "2026-12-01",
     "Dr. Samuel Park", 0, None, "HAR", "2026-03-11", 8.00),
    ("RX30711", "P1003", "Amoxicillin", "500 mg", "capsules", 21, 7, 1, "2026-03-31",
     "Dr. Samuel Park", 0, None, "HAR", "2026-03-02", 4.00),
    ("RX30712", "P1003", "Cetirizine", "10 mg", "tablets", 30, 30, 3, "2026-12-01",
     "Dr. Samuel Park", 0, None, "HAR", "2026-04-09", 8.00),
    ("RX30820", "P1004", "Warfarin", "5 mg", "tablets", 30, 30, 2, "2026-07-31",
     "Dr. Ruth Adler", 0, None, "RIV", "2026-03-14", 4.00),
    ("RX30821", "P1004", "Amlodipine", "5 mg", "tablets", 30, 30, 1, "2026-07-31",
     "Dr. Ruth Adler", 0, None, "RIV", "2026-04-09", 6.00),
    ("RX30930", "P1005", "Levothyroxine", "75 mcg", "tablets", 30, 30, 6, "2027-02-28",
     "Dr. Maya Flores", 0, None, "RIV", "2026-03-13", 2.50),
    ("RX30931", "P1005", "Zolpidem", "10 mg", "tablets", 30, 30, 1, "2026-09-30",
     "Dr. Maya Flores", 1, "C-IV", "RIV", "2026-04-09", 9.00),
    ("RX31040", "P1007", "Omeprazole", "20 mg", "capsules", 30, 30, 2, "2026-10-31",
     "Dr. Ines Varga", 0, None, "HAR", "2026-03-10", 6.00),
]

# order_id, rx, patient, status, fulfilment, branch, pickup date, time, copay, ready_at, created,
# previous last fill
ORDERS = [
    ("RF7001", "RX30413", "P1001", "picked_up", "pickup", "ELM", "2026-01-21", "10:00", 12.50,
     "2026-01-20 16:00", "2026-01-20 14:00", "2025-10-20"),
    ("RF7002", "RX30821", "P1004", "pending", "pickup", "RIV", "2026-04-10", "11:00", 6.00,
     "2026-04-09 17:00", "2026-04-09 09:10", "2026-03-10"),
    ("RF7003", "RX30712", "P1003", "ready", "pickup", "HAR", "2026-04-10", "15:00", 8.00,
     "2026-04-09 12:00", "2026-04-09 08:30", "2026-03-09"),
    ("RF7004", "RX30931", "P1005", "pending", "pickup", "RIV", None, None, 9.00,
     "2026-04-10 10:00", "2026-04-09 11:45", "2026-03-12"),
]

# Slots taken by other patients (on top of the pattern), and slots another patient books while
# this conversation runs: they list as open, and booking them fails.
EXTRA_FULL = {("ELM", "2026-04-11", "10:00"), ("RIV", "2026-04-10", "15:45")}
KEEP_OPEN = {
    ("ELM", "2026-04-11", "10:15"), ("ELM", "2026-04-11", "10:30"),
    ("ELM", "2026-04-10", "14:30"), ("ELM", "2026-04-10", "14:45"),
    ("RIV", "2026-04-13", "10:15"), ("RIV", "2026-04-10", "16:00"),
    ("RIV", "2026-04-10", "15:30"), ("HAR", "2026-04-14", "09:30"),
}
JUST_TAKEN = {("RIV", "2026-04-13", "10:00"), ("ELM", "2026-04-14", "11:00")}


def opening_minutes(branch_saturday_open: int, day: date) -> range:
    """Slot start times (minutes after midnight) for a branch on a day; empty when closed."""
    weekday = day.weekday()
    if weekday == 6 or (weekday == 5 and not branch_saturday_open):
        return range(0)
    end = 13 * 60 if weekday == 5 else 18 * 60
    return range(9 * 60, end, 15)


def hhmm(minutes: int) -> str:
    """Minutes after midnight as HH:MM."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def seed_database(db: sqlite3.Connection) -> None:
    """Fill a fresh database (schema applied) with Willow Pharmacy's data."""
    db.executemany("INSERT INTO branches VALUES (?, ?, ?, ?)", BRANCHES)
    db.executemany("INSERT INTO patients VALUES (?, ?, ?, ?, ?, ?, ?)", PATIENTS)
    db.executemany(
        "INSERT INTO prescriptions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        PRESCRIPTIONS,
    )
    for order in ORDERS:
        (oid, rx, pid, status, fulfil, branch, pdate, ptime, copay, ready, created, prev) = order
        db.execute(
            "INSERT INTO refill_orders (order_id, rx_id, patient_id, status, fulfilment,"
            " branch_id, pickup_date, pickup_time, copay_usd, ready_at, created_at,"
            " prev_last_filled_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (oid, rx, pid, status, fulfil, branch, pdate, ptime, copay, ready, created, prev),
        )
    booked_by_orders = {(o[5], o[6], o[7]) for o in ORDERS if o[3] in ("pending", "ready")}
    db.executemany(
        "INSERT INTO pickup_slots VALUES (?, ?, ?, 1, ?, ?)", list(_slots(booked_by_orders))
    )
    db.execute("INSERT INTO session VALUES (1, NULL)")


def _slots(booked_by_orders: set[tuple[str, str | None, str | None]]):  # noqa: ANN202
    day, index = TODAY, 0
    while day <= LAST_BOOKABLE:
        for b_index, (branch_id, _name, _addr, sat_open) in enumerate(BRANCHES):
            for s_index, minute in enumerate(opening_minutes(sat_open, day)):
                if day == TODAY and minute <= 14 * 60:
                    continue
                key = (branch_id, day.isoformat(), hhmm(minute))
                full = (s_index * 7 + index * 3 + b_index * 5) % 5 == 0
                full = full or key in EXTRA_FULL or key in booked_by_orders
                full = full and key not in KEEP_OPEN and key not in JUST_TAKEN
                yield (*key, 1 if full else 0, 1 if key in JUST_TAKEN else 0)
        day += timedelta(days=1)
        index += 1
