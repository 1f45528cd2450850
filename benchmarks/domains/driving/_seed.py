# ruff: noqa: E501
"""Clearway Driving School: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 09:00 (UK, GMT). Learners are known by a
learner number (L and five digits) and prove who they are with their date of birth.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

PACKAGES = {5: 3800, 10: 3600, 20: 3400}  # hours -> price per hour in pence
FIRST_DISCOUNT_PENCE = 2000  # once, off a learner's first package
TEST_FEE_PENCE = 7500
MIN_LESSONS_FOR_TEST = 10
TEST_LOCK_DAYS = 14  # a test fewer than 14 days away: moving it loses the fee
LATE_HOURS = 48  # a lesson cancelled or moved fewer than 48 hours before: hours lost
REFUND_ADMIN_PENCE = 2500
REFUND_MONTHS = 12
SERVICE_POSTCODES = ("LS1", "LS2", "LS3", "LS4", "LS5", "LS6", "LS7", "LS8", "LS11", "LS12")
DAY_START, DAY_END = 8, 18  # lessons run 08:00-18:00, Monday to Saturday

SCHEMA_SQL = """
CREATE TABLE instructors (
    instructor_id TEXT PRIMARY KEY,           -- I1
    name TEXT NOT NULL,
    gearbox TEXT NOT NULL,                    -- manual / automatic
    weekly_capacity INTEGER NOT NULL          -- regular learners a week
);
CREATE TABLE learners (
    learner_no TEXT PRIMARY KEY,              -- L20417
    name TEXT NOT NULL,
    dob TEXT NOT NULL,                        -- YYYY-MM-DD
    gearbox TEXT NOT NULL,
    instructor_id TEXT NOT NULL REFERENCES instructors(instructor_id),
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    lessons_taken INTEGER NOT NULL,
    first_discount_used INTEGER NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE packages (
    package_id TEXT PRIMARY KEY,              -- P301
    learner_no TEXT NOT NULL,
    hours INTEGER NOT NULL,
    hours_left INTEGER NOT NULL,
    price_per_hour_pence INTEGER NOT NULL,
    paid_pence INTEGER NOT NULL,
    bought_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'     -- active / refunded
);
CREATE TABLE lessons (
    lesson_id TEXT PRIMARY KEY,               -- LS101
    learner_no TEXT NOT NULL,
    instructor_id TEXT NOT NULL,
    start TEXT NOT NULL,                      -- YYYY-MM-DD HH:MM
    hours INTEGER NOT NULL,
    package_id TEXT,
    status TEXT NOT NULL DEFAULT 'booked',    -- booked / cancelled / moved
    hours_lost INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE test_slots (
    slot_id TEXT PRIMARY KEY,                 -- T1
    start TEXT NOT NULL,
    centre TEXT NOT NULL,
    taken INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tests (
    test_id INTEGER PRIMARY KEY,
    learner_no TEXT NOT NULL,
    slot_id TEXT NOT NULL,
    start TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / moved
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    learner_no TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- package / test_fee / refund
    amount_pence INTEGER NOT NULL,            -- negative: money back
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

INSTRUCTORS = [
    ("I1", "Sandra Wilkes", "manual", 6),
    ("I2", "Raj Patel", "automatic", 5),
    ("I3", "Tom Greaves", "manual", 4),
    ("I4", "Helen Marsh", "automatic", 5),
    ("I5", "Gary Dunn", "manual", 2),
]

# fmt: off
# number, name, dob, gearbox, instructor, address, postcode, lessons taken, discount used, card
LEARNERS = [
    ("L20417", "Amy Clarke", "2004-03-14", "manual", "I1", "12 Otley Road", "LS6 3AB", 8, 1, "4417"),
    ("L20433", "Ben Foster", "2003-07-22", "automatic", "I2", "5 Harehills Lane", "LS8 4HU", 11, 1, "9033"),
    ("L20458", "Chloe Nguyen", "2005-11-02", "manual", "I1", "88 Kirkstall Road", "LS4 2AZ", 4, 1, "2258"),
    ("L20471", "Daniel Price", "2002-01-30", "manual", "I3", "3 Woodhouse Street", "LS2 9JT", 15, 1, "7171"),
    ("L20489", "Emma Walsh", "2006-05-18", "automatic", "I2", "21 Roundhay Road", "LS7 1AB", 6, 1, "6489"),
    ("L20502", "Farid Khan", "2004-09-09", "manual", "I5", "17 Burley Road", "LS3 1JB", 3, 1, "5502"),
    ("L20516", "Grace Obi", "2005-02-27", "automatic", "I4", "9 Tong Road", "LS12 1LZ", 2, 1, "1516"),
    ("L20530", "Harry Lund", "2007-08-03", "manual", "I1", "44 Headingley Lane", "LS6 1BN", 0, 0, "3530"),
    ("L20544", "Isla Reid", "2003-12-12", "manual", "I3", "6 Beeston Road", "LS11 6AA", 5, 1, "8544"),
    ("L20561", "Jack Moss", "2001-04-04", "automatic", "I4", "70 Chapeltown Road", "LS7 3HE", 9, 1, "2561"),
    ("L20575", "Kate Hughes", "2004-06-25", "manual", "I1", "2 Hyde Park Road", "LS6 1AH", 13, 1, "7575"),
    ("L20589", "Liam Shaw", "2005-10-10", "automatic", "I2", "31 Easterly Road", "LS8 2AA", 7, 1, "0589"),
    ("L20603", "Mia Lowe", "2006-01-15", "manual", "I5", "14 Armley Road", "LS12 2EJ", 1, 1, "3603"),
]
# package, learner, hours, left, price per hour, bought on
PACKAGE_ROWS = [
    ("P301", "L20417", 10, 6, 3600, "2026-10-01"),
    ("P302", "L20433", 10, 5, 3600, "2026-09-20"),
    ("P303", "L20458", 20, 14, 3400, "2026-09-15"),
    ("P304", "L20471", 5, 3, 3800, "2026-11-02"),
    ("P305", "L20489", 10, 4, 3600, "2026-08-12"),
    ("P306", "L20502", 10, 8, 3600, "2026-11-10"),
    ("P307", "L20516", 5, 3, 3800, "2026-11-20"),
    ("P308", "L20544", 10, 7, 3600, "2026-09-01"),
    ("P309", "L20561", 10, 3, 3600, "2025-09-20"),
    ("P310", "L20575", 5, 2, 3800, "2026-10-28"),
    ("P311", "L20589", 5, 1, 3800, "2026-11-25"),
    ("P312", "L20603", 10, 9, 3600, "2026-11-30"),
]
# lesson, learner, instructor, start, hours, package (the hours are already taken off it)
LESSON_ROWS = [
    ("LS101", "L20417", "I1", "2026-12-14 09:00", 1, "P301"),
    ("LS102", "L20433", "I2", "2026-12-08 10:00", 2, "P302"),
    ("LS103", "L20458", "I1", "2026-12-08 15:00", 1, "P303"),
    ("LS104", "L20458", "I1", "2026-12-18 14:00", 2, "P303"),
    ("LS105", "L20502", "I5", "2026-12-18 14:00", 2, "P306"),
    ("LS106", "L20489", "I2", "2026-12-15 11:00", 1, "P305"),
    ("LS107", "L20589", "I2", "2026-12-16 16:00", 1, "P311"),
    ("LS108", "L20544", "I3", "2026-12-21 10:00", 1, "P308"),
]
TEST_SLOTS = [
    ("T1", "2026-12-16 09:00", "Leeds (Harehills)", 1),
    ("T2", "2026-12-22 10:30", "Leeds (Harehills)", 0),
    ("T3", "2027-01-12 09:10", "Leeds (Harehills)", 0),
    ("T4", "2027-01-14 13:40", "Leeds (Horsforth)", 0),
    ("T5", "2027-01-20 11:15", "Leeds (Harehills)", 0),
]
TEST_ROWS = [("L20575", "T1", "2026-12-16 09:00")]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO instructors VALUES (?,?,?,?)", INSTRUCTORS)
    db.executemany("INSERT INTO learners VALUES (?,?,?,?,?,?,?,?,?,?)", LEARNERS)
    for pid, who, hours, left, pph, bought in PACKAGE_ROWS:
        db.execute(
            "INSERT INTO packages (package_id, learner_no, hours, hours_left, "
            "price_per_hour_pence, paid_pence, bought_on) VALUES (?,?,?,?,?,?,?)",
            (pid, who, hours, left, pph, hours * pph, bought),
        )
    db.executemany(
        "INSERT INTO lessons (lesson_id, learner_no, instructor_id, start, hours, package_id) "
        "VALUES (?,?,?,?,?,?)",
        LESSON_ROWS,
    )
    db.executemany("INSERT INTO test_slots VALUES (?,?,?,?)", TEST_SLOTS)
    db.executemany("INSERT INTO tests (learner_no, slot_id, start) VALUES (?,?,?)", TEST_ROWS)
