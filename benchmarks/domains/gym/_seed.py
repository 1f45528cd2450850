"""Pulse Fitness: the schema and the seed data (3 clubs, 8 members, 2 weeks of classes)."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta

NOW = datetime(2026, 10, 21, 18, 0)  # noqa: DTZ001 (a naive, fixed local clock)
"""The desk's fixed clock: Wednesday 21 October 2026, 18:00."""

SCHEMA_SQL = """
CREATE TABLE clubs (club_id TEXT PRIMARY KEY, name TEXT NOT NULL, address TEXT NOT NULL);
CREATE TABLE plans (plan_id TEXT PRIMARY KEY, name TEXT NOT NULL, monthly_fee REAL NOT NULL,
                    rank INTEGER NOT NULL, guest_passes INTEGER NOT NULL, peak INTEGER NOT NULL);
CREATE TABLE members (
    member_id TEXT PRIMARY KEY, name TEXT NOT NULL, date_of_birth TEXT NOT NULL,
    email TEXT NOT NULL, postcode TEXT NOT NULL, phone TEXT NOT NULL,
    home_club TEXT NOT NULL REFERENCES clubs(club_id),
    card_last4 TEXT NOT NULL, card_expiry TEXT NOT NULL);
CREATE TABLE memberships (
    member_id TEXT PRIMARY KEY REFERENCES members(member_id),
    plan_id TEXT NOT NULL REFERENCES plans(plan_id),
    contract TEXT NOT NULL,             -- 'monthly' or 'annual'
    start_date TEXT NOT NULL, contract_end TEXT,
    next_billing_date TEXT NOT NULL,
    status TEXT NOT NULL,               -- 'active', 'cancelling'
    pending_plan_id TEXT REFERENCES plans(plan_id), pending_from TEXT,
    end_date TEXT, exit_charge REAL);
CREATE TABLE classes (
    class_id TEXT PRIMARY KEY, club_id TEXT NOT NULL REFERENCES clubs(club_id),
    name TEXT NOT NULL, starts_at TEXT NOT NULL, minutes INTEGER NOT NULL,
    capacity INTEGER NOT NULL, booked INTEGER NOT NULL);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY, member_id TEXT NOT NULL REFERENCES members(member_id),
    class_id TEXT NOT NULL REFERENCES classes(class_id),
    status TEXT NOT NULL,               -- 'booked', 'cancelled'
    late_fee REAL NOT NULL DEFAULT 0);
CREATE TABLE freezes (
    freeze_id TEXT PRIMARY KEY, member_id TEXT NOT NULL REFERENCES members(member_id),
    start_date TEXT NOT NULL, months INTEGER NOT NULL, end_date TEXT NOT NULL, fee REAL NOT NULL);
CREATE TABLE guest_passes (
    pass_id TEXT PRIMARY KEY, member_id TEXT NOT NULL REFERENCES members(member_id),
    guest_name TEXT NOT NULL, date TEXT NOT NULL);
CREATE TABLE payments (
    payment_id TEXT PRIMARY KEY, member_id TEXT NOT NULL REFERENCES members(member_id),
    date TEXT NOT NULL, amount REAL NOT NULL, description TEXT NOT NULL);
"""

CLUBS = [
    ("camden", "Pulse Camden", "12 Parkway, London NW1 7AA"),
    ("shoreditch", "Pulse Shoreditch", "88 Curtain Road, London EC2A 3AH"),
    ("islington", "Pulse Islington", "3 Upper Street, London N1 0PQ"),
]
CLUB_PREFIX = {"camden": "CAM", "shoreditch": "SHO", "islington": "ISL"}

PLANS = [
    # plan_id, name, monthly fee, rank, guest passes a month, peak-time classes
    ("offpeak", "Off-Peak", 25.0, 1, 0, 0),
    ("standard", "Standard", 35.0, 2, 0, 1),
    ("premium", "Premium", 50.0, 3, 2, 1),
]

MEMBERS = [
    ("PF1001", "Amira Hassan", "1990-04-12", "amira.hassan@example.com", "NW1 7AB",
     "07700 900101", "camden", "4417", "08/28"),
    ("PF1002", "Tom Brennan", "1985-11-03", "tom.brennan@example.com", "NW5 2QR",
     "07700 900102", "camden", "0923", "02/27"),
    ("PF1003", "Chloe Adeyemi", "1998-06-25", "chloe.adeyemi@example.com", "E2 8DY",
     "07700 900103", "shoreditch", "7751", "05/29"),
    ("PF1004", "Marcus Webb", "1979-01-30", "marcus.webb@example.com", "N1 4HT",
     "07700 900104", "islington", "3310", "12/27"),
    ("PF1005", "Sofia Russo", "1993-09-08", "sofia.russo@example.com", "NW1 8QP",
     "07700 900105", "camden", "1881", "11/26"),
    ("PF1006", "Daniel Okoro", "1988-02-14", "dan.okoro@example.com", "E1 6AN",
     "07700 900106", "shoreditch", "5062", "07/28"),
    ("PF1007", "Hannah Clarke", "1975-12-01", "hannah.clarke@example.com", "N7 9PL",
     "07700 900107", "islington", "2298", "03/28"),
    ("PF1008", "Leo Fischer", "2000-07-19", "leo.fischer@example.com", "EC1V 2NX",
     "07700 900108", "islington", "6604", "10/29"),
]

MEMBERSHIPS = [
    # member, plan, contract, start, contract end, next billing
    ("PF1001", "standard", "monthly", "2024-02-01", None, "2026-11-01"),
    ("PF1002", "standard", "monthly", "2025-06-01", None, "2026-11-01"),
    ("PF1003", "offpeak", "monthly", "2026-01-01", None, "2026-11-01"),
    ("PF1004", "standard", "annual", "2026-03-01", "2027-03-01", "2026-11-01"),
    ("PF1005", "premium", "monthly", "2023-09-01", None, "2026-11-01"),
    ("PF1006", "standard", "monthly", "2025-10-01", None, "2026-11-01"),
    ("PF1007", "premium", "monthly", "2022-05-01", None, "2026-11-01"),
    ("PF1008", "premium", "annual", "2026-09-01", "2027-09-01", "2026-11-01"),
]

WEEKDAY_CLASSES = [("Spin", "07:00", 45, 20), ("Pilates", "12:30", 45, 14),
                   ("HIIT", "18:30", 45, 20), ("Yoga", "19:30", 60, 16)]
WEEKEND_CLASSES = [("Spin", "09:00", 45, 20), ("Yoga", "10:30", 60, 16)]
FULL = {"CAM-1022-0700", "SHO-1024-1030", "ISL-1027-1930"}

BOOKINGS = [
    ("B5001", "PF1005", "CAM-1021-1930"),
    ("B5002", "PF1005", "CAM-1024-0900"),
    ("B5003", "PF1004", "ISL-1022-1830"),
    ("B5004", "PF1004", "ISL-1023-1230"),
    ("B5005", "PF1004", "ISL-1026-0700"),
    ("B5006", "PF1006", "SHO-1023-1230"),
    ("B5007", "PF1008", "ISL-1022-0700"),
    ("B5008", "PF1002", "CAM-1020-1830"),
]


def class_id(club_id: str, day: date, time: str) -> str:
    return f"{CLUB_PREFIX[club_id]}-{day:%m%d}-{time.replace(':', '')}"


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO clubs VALUES (?, ?, ?)", CLUBS)
    db.executemany("INSERT INTO plans VALUES (?, ?, ?, ?, ?, ?)", PLANS)
    db.executemany("INSERT INTO members VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", MEMBERS)
    for member, plan, contract, start, end, billing in MEMBERSHIPS:
        db.execute(
            "INSERT INTO memberships (member_id, plan_id, contract, start_date, contract_end,"
            " next_billing_date, status) VALUES (?, ?, ?, ?, ?, ?, 'active')",
            (member, plan, contract, start, end, billing),
        )
    first = date(2026, 10, 19)
    for club, _, _ in CLUBS:
        for offset in range(16):
            day = first + timedelta(days=offset)
            timetable = WEEKEND_CLASSES if day.weekday() >= 5 else WEEKDAY_CLASSES
            for n, (name, time, minutes, capacity) in enumerate(timetable):
                cid = class_id(club, day, time)
                spread = (offset * 3 + n * 5 + len(club)) % (capacity - 3)
                booked = capacity if cid in FULL else spread
                db.execute(
                    "INSERT INTO classes VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (cid, club, name, f"{day.isoformat()} {time}", minutes, capacity, booked),
                )
    for booking_id, member, cid in BOOKINGS:
        db.execute("INSERT INTO bookings VALUES (?, ?, ?, 'booked', 0)", (booking_id, member, cid))
    fees = {plan_id: fee for plan_id, _, fee, *_ in PLANS}
    for member, plan, *_ in MEMBERSHIPS:
        for n, month in enumerate(("2026-09-01", "2026-10-01")):
            db.execute(
                "INSERT INTO payments VALUES (?, ?, ?, ?, ?)",
                (f"P{member[2:]}{n}", member, month, fees[plan], "Monthly membership"),
            )
