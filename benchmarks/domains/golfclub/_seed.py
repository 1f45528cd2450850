"""Fairway Golf Club: schema, the fixed clock, green fees, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 12:00 (UK, GMT). Winter tee times run
every 10 minutes from 08:00 to 15:30, for 1 to 4 players each. Golfers are identified by their
membership number (M and four digits) or visitor number (V and four digits) and their surname.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 12, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

FIRST_TEE, LAST_TEE = "08:00", "15:30"  # winter tee times, every 10 minutes
TEE_GAP_MINUTES = 10
MAX_PLAYERS = 4  # per tee time, over every booking in it
TWILIGHT_FROM = "15:00"  # a tee time at 15:00 or later is twilight
GUEST_FEE = 3000  # a member's guest, per round
GUEST_TWILIGHT_FEE = 2000
VISITOR_WEEKDAY_FEE = 4500  # a visitor, per player, Monday to Friday
VISITOR_WEEKEND_FEE = 6000  # Saturday and Sunday
MEMBER_WINDOW_DAYS = 14  # members book up to 14 days ahead
VISITOR_WINDOW_DAYS = 7  # visitors up to 7
MAX_GUESTS_A_DAY = 3  # a member's guests over every booking of one day
BUGGY_FEE = 2500  # per buggy per round
BUGGIES_A_DAY = 6
BUGGY_MIN_AGE = 18
BUGGY_SEATS = 2
LESSON_FEES = {30: 3000, 60: 5500}  # with the club professional
PRO_DAYS = (1, 2, 3, 4, 5)  # Tuesday to Saturday
PRO_START, PRO_END = "09:00", "16:00"
FREE_MOVE_HOURS = 24  # moves free 24+ hours before; inside, visitors pay per player
LATE_MOVE_FEE = 1000
FULL_REFUND_HOURS = 48  # cancelled 48+ hours before: everything back; inside: half
PRO_NAME = "Gavin Marsh"


SCHEMA_SQL = """
CREATE TABLE golfers (
    golfer_number TEXT PRIMARY KEY,           -- M1001 (member) / V5001 (visitor)
    kind TEXT NOT NULL,                       -- member / visitor
    name TEXT NOT NULL,
    surname TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- FW3103
    golfer_number TEXT NOT NULL REFERENCES golfers(golfer_number),  -- the lead player
    play_date TEXT NOT NULL,
    tee_time TEXT NOT NULL,                   -- HH:MM
    players INTEGER NOT NULL,                 -- 1 to 4, the lead included
    guests INTEGER NOT NULL DEFAULT 0,        -- a member's paying guests among the players
    buggies INTEGER NOT NULL DEFAULT 0,
    green_fees_pence INTEGER NOT NULL,
    buggy_pence INTEGER NOT NULL DEFAULT 0,
    paid_pence INTEGER NOT NULL,              -- green fees and buggies paid
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / played / cancelled
);
CREATE TABLE lessons (
    lesson_id TEXT PRIMARY KEY,               -- PL7001
    golfer_number TEXT NOT NULL REFERENCES golfers(golfer_number),
    lesson_date TEXT NOT NULL,
    start_time TEXT NOT NULL,
    minutes INTEGER NOT NULL,                 -- 30 / 60
    price_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'
);
CREATE TABLE closures (
    play_date TEXT PRIMARY KEY,
    closed_until TEXT,                        -- HH:MM; NULL: closed all day
    reason TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    golfer_number TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- green_fees / buggy / move_fee / difference /
                                              -- lesson / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# number, name, date of birth, card; emails and phones follow from them
PEOPLE = [
    ("M1001", "Alan Hughes", "1961-04-12", "4417"),
    ("M1002", "Brenda Walsh", "1958-09-30", "2290"),
    ("M1003", "Callum Reid", "1979-02-14", "8823"),
    ("M1004", "Daniel Okoro", "2010-06-21", "6610"),    # a junior member: 16
    ("M1005", "Eileen Ford", "1966-11-02", "3051"),
    ("M1006", "Frank Doyle", "1970-07-07", "7702"),
    ("M1007", "Grace Lam", "1949-01-25", "1189"),
    ("M1008", "Harry Stone", "1983-05-19", "5534"),
    ("M1009", "Isla Grant", "1991-08-08", "9046"),
    ("M1010", "Jack Byrne", "1975-03-03", "2718"),
    ("M1011", "Karen Mills", "1968-12-12", "6284"),
    ("M1012", "Liam Clarke", "1988-10-10", "3141"),
    ("M1013", "Megan Price", "1995-06-06", "8080"),
    ("M1014", "Nathan Shaw", "2001-01-31", "4242"),
    ("M1015", "Olivia Bennett", "1972-04-04", "5150"),
    ("M1016", "Peter Barker", "1955-02-20", "6006"),
    ("M1017", "Rachel Moore", "1980-09-09", "7117"),
    ("V5001", "Victor Lane", "1977-05-05", "1212"),
    ("V5002", "Wendy Hart", "1984-03-17", "3434"),
    ("V5003", "Xavier Cole", "1990-12-01", "5656"),
    ("V5004", "Yasmin Ali", "1986-07-23", "7878"),
    ("V5005", "Zoe Fisher", "1999-02-02", "9090"),
    ("V5006", "Adam Kerr", "1969-10-15", "1357"),
    ("V5007", "Bella Ross", "1993-11-11", "2468"),
    ("V5008", "Chris Dunn", "1981-08-18", "3690"),
]
GOLFERS = [
    (number, "member" if number[0] == "M" else "visitor", name, name.split()[-1], born,
     name.lower().replace(" ", ".") + "@example.com", f"07700 900{int(number[-3:]) % 1000:03d}",
     card)
    for number, name, born, card in PEOPLE
]

# booking, lead, day, time, players, guests, buggies, green fees, buggy hire, paid
BOOKINGS = [
    ("FW3101", "M1001", "2026-12-05", "09:00", 2, 1, 0, 3000, 0, 3000),
    ("FW3103", "M1003", "2026-12-14", "10:00", 1, 0, 0, 0, 0, 0),
    ("FW3106", "M1006", "2026-12-12", "08:30", 3, 2, 1, 6000, 2500, 8500),
    ("FW3108", "M1008", "2026-12-14", "09:00", 2, 1, 0, 3000, 0, 3000),
    ("FW3109", "M1009", "2026-12-14", "09:20", 1, 0, 0, 0, 0, 0),
    ("FW3110", "M1010", "2026-12-10", "09:30", 2, 1, 0, 3000, 0, 3000),
    ("FW3111", "M1011", "2026-12-11", "09:10", 3, 2, 0, 6000, 0, 6000),
    ("FW3112", "M1012", "2026-12-14", "11:00", 2, 1, 0, 3000, 0, 3000),
    ("FW3115", "M1015", "2026-12-12", "08:40", 2, 1, 1, 3000, 2500, 5500),
    ("FW3116", "M1016", "2026-12-12", "09:20", 4, 3, 2, 9000, 5000, 14000),
    ("FW3117", "M1017", "2026-12-11", "10:40", 4, 0, 0, 0, 0, 0),
    ("FW3204", "V5004", "2026-12-10", "11:30", 2, 0, 0, 9000, 0, 9000),
    ("FW3205", "V5005", "2026-12-10", "11:40", 1, 0, 0, 4500, 0, 4500),
    ("FW3206", "V5006", "2026-12-14", "12:00", 3, 0, 0, 13500, 0, 13500),
    ("FW3207", "V5007", "2026-12-11", "10:00", 2, 0, 0, 9000, 0, 9000),
    ("FW3208", "V5008", "2026-12-12", "11:00", 4, 0, 2, 24000, 5000, 29000),
]

# lesson, golfer, day, start, minutes, price
LESSONS = [
    ("PL7001", "M1009", "2026-12-11", "11:00", 60, 5500),
    ("PL7002", "M1016", "2026-12-17", "14:30", 30, 3000),
    ("PL7003", "V5008", "2026-12-15", "11:00", 60, 5500),
]

# day, closed until (None: all day), reason
CLOSURES = [
    ("2026-12-10", "11:00", "frost"),
    ("2026-12-25", None, "Christmas Day"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO golfers VALUES (?,?,?,?,?,?,?,?)", GOLFERS)
    db.executemany(
        "INSERT INTO bookings (booking_id, golfer_number, play_date, tee_time, players, guests, "
        "buggies, green_fees_pence, buggy_pence, paid_pence) VALUES (?,?,?,?,?,?,?,?,?,?)",
        BOOKINGS,
    )
    today = NOW.date().isoformat()
    db.execute("UPDATE bookings SET status = 'played' WHERE play_date < ?", (today,))
    db.executemany(
        "INSERT INTO lessons (lesson_id, golfer_number, lesson_date, start_time, minutes, "
        "price_pence) VALUES (?,?,?,?,?,?)",
        LESSONS,
    )
    db.executemany("INSERT INTO closures VALUES (?,?,?)", CLOSURES)
