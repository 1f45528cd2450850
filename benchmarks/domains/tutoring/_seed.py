"""Brightpath Tutors: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Lessons are one hour
(a free trial is 30 minutes) and start on the hour in a tutor's free slots: Monday to Friday
16:00-19:00 and Saturday 09:00-12:00; the agency is closed from 24 December to 1 January.
Customers are identified by their account number (BT and four digits) and the date of birth of
a student on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

LEVELS = ("KS3", "GCSE", "A-level")
RATES = {"KS3": 3200, "GCSE": 3800, "A-level": 4500}  # per one-hour lesson
PACKAGE_HOURS = 10
PACKAGE_DISCOUNT = 10  # per cent off ten hours at the level's rate
ADMIN_FEE_PENCE = 2000  # taken from a refund of unused package hours
REFUND_MONTHS = 6  # unused package hours are refunded within 6 months of purchase
FREE_CHANGE_HOURS = 24  # a lesson moved or cancelled 24+ hours before its start is free
DISPUTE_DAYS = 30  # invoice lines can be disputed within 30 days of the invoice date
TRIAL_MINUTES = 30
WEEKDAY_HOURS = (16, 17, 18, 19)
SATURDAY_HOURS = (9, 10, 11, 12)
CLOSED_FIRST, CLOSED_LAST = date(2026, 12, 24), date(2027, 1, 1)
SUBJECTS = ("maths", "english", "physics", "chemistry", "biology", "french", "history")


def package_price(level: str) -> int:
    return RATES[level] * PACKAGE_HOURS * (100 - PACKAGE_DISCOUNT) // 100


SCHEMA_SQL = """
CREATE TABLE accounts (
    account_id TEXT PRIMARY KEY,              -- BT3001
    holder TEXT NOT NULL,                     -- the parent/guardian, or an adult student
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE students (
    student_id TEXT PRIMARY KEY,              -- S101
    account_id TEXT NOT NULL REFERENCES accounts(account_id),
    name TEXT NOT NULL,
    dob TEXT NOT NULL,
    level TEXT NOT NULL,                      -- KS3 / GCSE / A-level
    trial_used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tutors (
    tutor_id TEXT PRIMARY KEY,                -- T01
    name TEXT NOT NULL,                       -- "Anna Hughes"
    title TEXT NOT NULL,                      -- "Ms Hughes"
    subjects TEXT NOT NULL,                   -- "maths,physics"
    levels TEXT NOT NULL,                     -- "GCSE,A-level"
    saturdays INTEGER NOT NULL DEFAULT 1,
    personal_phone TEXT NOT NULL              -- staff only: never given out
);
CREATE TABLE enrolments (
    student_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    tutor_id TEXT NOT NULL,
    PRIMARY KEY (student_id, subject)
);
CREATE TABLE packages (
    package_id TEXT PRIMARY KEY,              -- PK8001
    account_id TEXT NOT NULL,
    student_id TEXT NOT NULL,
    level TEXT NOT NULL,
    hours_bought INTEGER NOT NULL,
    hours_left INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,
    bought_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'     -- active / refunded
);
CREATE TABLE lessons (
    lesson_id TEXT PRIMARY KEY,               -- L7001
    account_id TEXT NOT NULL,
    student_id TEXT NOT NULL,
    tutor_id TEXT NOT NULL,
    subject TEXT NOT NULL,
    level TEXT NOT NULL,
    start TEXT NOT NULL,                      -- "YYYY-MM-DD HH:MM"
    minutes INTEGER NOT NULL DEFAULT 60,
    kind TEXT NOT NULL DEFAULT 'lesson',      -- lesson / trial
    paid TEXT NOT NULL,                       -- card / package / free
    package_id TEXT,
    price_pence INTEGER NOT NULL,             -- charged to the card (0 from a package)
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled
);
CREATE TABLE courses (
    course_id TEXT PRIMARY KEY,               -- IC01
    title TEXT NOT NULL,
    subject TEXT NOT NULL,
    level TEXT NOT NULL,
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    times TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    places INTEGER NOT NULL,
    taken INTEGER NOT NULL
);
CREATE TABLE course_places (
    place_id INTEGER PRIMARY KEY,
    course_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    student_id TEXT NOT NULL,
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- lesson / package / course / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-9018
    account_id TEXT NOT NULL,
    issued TEXT NOT NULL,
    total_pence INTEGER NOT NULL
);
CREATE TABLE invoice_lines (
    line_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL,
    description TEXT NOT NULL,
    amount_pence INTEGER NOT NULL
);
CREATE TABLE disputes (
    dispute_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE TABLE tutor_messages (
    message_id INTEGER PRIMARY KEY,
    tutor_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    text TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# tutor, name, title, subjects, levels, works Saturdays, personal phone
TUTORS = [
    ("T01", "Anna Hughes", "Ms Hughes", "maths,physics", "GCSE,A-level", 1, "07700 900811"),
    ("T02", "David Okafor", "Mr Okafor", "maths", "KS3,GCSE", 1, "07700 900812"),
    ("T03", "Priya Nair", "Dr Nair", "chemistry,biology", "GCSE,A-level", 1, "07700 900813"),
    ("T04", "Tom Reid", "Mr Reid", "english,history", "KS3,GCSE,A-level", 0, "07700 900814"),
    ("T05", "Laura Chen", "Ms Chen", "physics,maths", "A-level", 1, "07700 900815"),
    ("T06", "Claire Dubois", "Mme Dubois", "french", "KS3,GCSE,A-level", 1, "07700 900816"),
    ("T07", "Sam Ellis", "Mr Ellis", "chemistry", "GCSE,A-level", 1, "07700 900817"),
]

# account, holder, card; emails and phones follow (BT3018: louise.ward@example.com,
# 07700 900318)
PEOPLE = [
    ("BT3001", "Claire Morgan", "4417"),
    ("BT3002", "Rajesh Gupta", "2290"),
    ("BT3003", "Helen Baker", "8823"),
    ("BT3004", "Mark Daly", "6610"),
    ("BT3005", "Sophie Turner", "3051"),
    ("BT3006", "James Wilson", "7702"),
    ("BT3007", "Nicola Price", "1189"),
    ("BT3008", "Gareth Lewis", "5534"),
    ("BT3009", "Angela Scott", "9046"),
    ("BT3010", "Paul Adams", "2718"),
    ("BT3011", "Karen Walsh", "6284"),
    ("BT3012", "Simon Clarke", "3141"),
    ("BT3013", "Rachel Green", "8080"),
    ("BT3014", "Deborah King", "4242"),
    ("BT3015", "Michael Brown", "5150"),
    ("BT3016", "Fiona Campbell", "6006"),
    ("BT3017", "Andrew Shaw", "7117"),
    ("BT3018", "Louise Ward", "1212"),
    ("BT3019", "Steven Hall", "3434"),
    ("BT3020", "Emma Roberts", "5656"),
    ("BT3021", "Olivia Bennett", "7878"),
    ("BT3022", "Hannah Lee", "9090"),
    ("BT3023", "Daniel Young", "1357"),
    ("BT3024", "Laura Evans", "2468"),
]
ACCOUNTS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{300 + int(a[-2:])}", card)
    for a, n, card in PEOPLE
]  # fmt: skip

# student, account, name, date of birth, level, trial used
STUDENTS = [
    ("S101", "BT3001", "Ella", "2011-03-12", "GCSE", 1),
    ("S102", "BT3002", "Aarav", "2010-07-04", "GCSE", 1),
    ("S103", "BT3003", "Oscar", "2009-05-20", "A-level", 1),
    ("S104", "BT3004", "Freya", "2012-09-09", "KS3", 0),
    ("S105", "BT3004", "Finn", "2010-01-15", "GCSE", 1),
    ("S106", "BT3005", "Lily", "2011-11-30", "GCSE", 1),
    ("S107", "BT3006", "James", "2006-02-14", "A-level", 1),
    ("S108", "BT3007", "Ruby", "2010-04-22", "GCSE", 1),
    ("S109", "BT3008", "Noah", "2011-06-18", "GCSE", 1),
    ("S110", "BT3009", "Mia", "2010-10-10", "GCSE", 1),
    ("S111", "BT3010", "Leo", "2009-12-01", "A-level", 1),
    ("S112", "BT3011", "Jack", "2011-01-25", "GCSE", 1),
    ("S113", "BT3012", "Zoe", "2010-05-05", "GCSE", 1),
    ("S114", "BT3013", "Tom", "2009-03-03", "A-level", 1),
    ("S115", "BT3014", "Harry", "2011-09-19", "GCSE", 1),
    ("S116", "BT3015", "Amelia", "2010-02-28", "GCSE", 1),
    ("S117", "BT3016", "Isla", "2010-06-06", "GCSE", 1),
    ("S118", "BT3017", "Ethan", "2009-09-30", "A-level", 1),
    ("S119", "BT3018", "Poppy", "2012-12-12", "KS3", 1),
    ("S120", "BT3019", "Grace", "2011-04-04", "GCSE", 1),
    ("S121", "BT3020", "Maya", "2011-08-15", "GCSE", 1),
    ("S122", "BT3021", "Sam", "2010-09-12", "GCSE", 1),
    ("S123", "BT3022", "Ollie", "2012-02-02", "KS3", 1),
    ("S124", "BT3023", "Chloe", "2011-05-30", "GCSE", 1),
    ("S125", "BT3024", "Ben", "2010-03-17", "GCSE", 1),
]

# student, subject, regular tutor
ENROLMENTS = [
    ("S101", "maths", "T02"), ("S102", "maths", "T01"), ("S103", "chemistry", "T03"),
    ("S105", "maths", "T02"), ("S106", "maths", "T02"), ("S107", "physics", "T05"),
    ("S108", "english", "T04"), ("S109", "maths", "T02"), ("S110", "chemistry", "T07"),
    ("S111", "maths", "T01"), ("S112", "maths", "T02"), ("S113", "maths", "T02"),
    ("S114", "maths", "T05"), ("S115", "maths", "T01"), ("S116", "english", "T04"),
    ("S117", "maths", "T02"), ("S118", "chemistry", "T07"), ("S119", "maths", "T02"),
    ("S120", "english", "T04"), ("S121", "maths", "T01"), ("S122", "english", "T04"),
    ("S123", "maths", "T02"), ("S124", "english", "T04"), ("S125", "physics", "T01"),
]

# package, account, student, level, bought, left, price, bought on
PACKAGES = [
    ("PK8002", "BT3002", "S102", "GCSE", 10, 6, 34200, "2026-10-05"),
    ("PK8009", "BT3009", "S110", "GCSE", 10, 7, 34200, "2026-11-02"),
    ("PK8014", "BT3014", "S115", "GCSE", 10, 4, 34200, "2026-09-01"),
    ("PK8015", "BT3015", "S116", "GCSE", 10, 3, 34200, "2026-03-10"),
    ("PK8022", "BT3022", "S123", "KS3", 10, 7, 28800, "2026-11-16"),
]

# lesson, account, student, tutor, subject, level, start, paid, package, price
LESSONS = [
    ("L7006", "BT3006", "S107", "T05", "physics", "A-level", "2026-12-18 16:00", "card", None,
     4500),
    ("L7007", "BT3007", "S108", "T04", "english", "GCSE", "2026-12-14 18:00", "card", None, 3800),
    ("L7008", "BT3008", "S109", "T02", "maths", "GCSE", "2026-12-17 16:00", "card", None, 3800),
    ("L7009", "BT3009", "S110", "T07", "chemistry", "GCSE", "2026-12-19 09:00", "package",
     "PK8009", 0),
    ("L7010", "BT3010", "S111", "T01", "maths", "A-level", "2026-12-14 19:00", "card", None,
     4500),
    ("L7011", "BT3011", "S112", "T02", "maths", "GCSE", "2026-12-15 17:00", "card", None, 3800),
    ("L7012", "BT3011", "S112", "T02", "maths", "GCSE", "2026-12-22 17:00", "card", None, 3800),
    ("L7013", "BT3012", "S113", "T02", "maths", "GCSE", "2026-12-16 18:00", "card", None, 3800),
    ("L7020", "BT3020", "S121", "T01", "maths", "GCSE", "2026-12-17 16:00", "card", None, 3800),
    ("L7021", "BT3021", "S122", "T04", "english", "GCSE", "2026-12-16 17:00", "card", None,
     3800),
    ("L7022", "BT3022", "S123", "T02", "maths", "KS3", "2026-12-19 10:00", "package", "PK8022",
     0),
    ("L7023", "BT3022", "S123", "T02", "maths", "KS3", "2027-01-09 10:00", "package", "PK8022",
     0),
    ("L7030", "BT3002", "S102", "T01", "maths", "GCSE", "2026-12-16 16:00", "package", "PK8002",
     0),
]

# course, title, subject, level, first day, last day, times, price, places, taken
COURSES = [
    ("IC01", "GCSE Maths Easter Intensive", "maths", "GCSE", "2027-03-29", "2027-04-02",
     "10:00-12:00 each day", 22000, 8, 5),
    ("IC02", "A-level Chemistry Easter Intensive", "chemistry", "A-level", "2027-04-05",
     "2027-04-09", "10:00-12:00 each day", 26000, 6, 6),
    ("IC03", "GCSE English Easter Intensive", "english", "GCSE", "2027-03-29", "2027-04-02",
     "13:00-15:00 each day", 22000, 8, 2),
    ("IC04", "A-level Maths Easter Intensive", "maths", "A-level", "2027-04-05", "2027-04-09",
     "13:00-15:00 each day", 26000, 6, 3),
]

# invoice, account, issued, lines (description, amount)
INVOICES = [
    ("INV-9018", "BT3018", "2026-12-01", [("KS3 maths, Tuesday 10 November", 3200),
                                          ("KS3 maths, Tuesday 17 November", 3200),
                                          ("KS3 maths, Tuesday 24 November", 3200)]),
    ("INV-9019", "BT3019", "2026-10-31", [("GCSE English, Wednesday 7 October", 3800),
                                          ("GCSE English, Wednesday 14 October", 3800)]),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO accounts VALUES (?,?,?,?,?)", ACCOUNTS)
    db.executemany("INSERT INTO students VALUES (?,?,?,?,?,?)", STUDENTS)
    db.executemany("INSERT INTO tutors VALUES (?,?,?,?,?,?,?)", TUTORS)
    db.executemany("INSERT INTO enrolments VALUES (?,?,?)", ENROLMENTS)
    db.executemany(
        "INSERT INTO packages (package_id, account_id, student_id, level, hours_bought, "
        "hours_left, price_pence, bought_on) VALUES (?,?,?,?,?,?,?,?)",
        PACKAGES,
    )
    db.executemany(
        "INSERT INTO lessons (lesson_id, account_id, student_id, tutor_id, subject, level, "
        "start, paid, package_id, price_pence) VALUES (?,?,?,?,?,?,?,?,?,?)",
        LESSONS,
    )
    db.executemany("INSERT INTO courses VALUES (?,?,?,?,?,?,?,?,?,?)", COURSES)
    for invoice_id, account_id, issued, lines in INVOICES:
        db.execute(
            "INSERT INTO invoices VALUES (?,?,?,?)",
            (invoice_id, account_id, issued, sum(a for _, a in lines)),
        )
        db.executemany(
            "INSERT INTO invoice_lines (invoice_id, description, amount_pence) VALUES (?,?,?)",
            [(invoice_id, d, a) for d, a in lines],
        )
