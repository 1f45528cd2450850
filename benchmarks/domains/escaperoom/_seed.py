"""Lockbox Escape Rooms: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Thursday 10 December 2026, 10:30 (UK, GMT). Games are 60-minute
slots starting on the hour from 10:00 to 21:00; a team arrives 15 minutes early for the
briefing. A booking is identified by its reference (LB and four digits) and the lead booker's
surname.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 10, 10, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

SLOTS = [f"{hour:02d}:00" for hour in range(10, 22)]  # every game starts on the hour
OFF_PEAK_PENCE = 2200  # per player: Monday to Friday, games starting before 17:00
PEAK_PENCE = 2800  # per player: weekday games from 17:00, weekends and bank holidays
OFF_PEAK_UNTIL = "17:00"
BANK_HOLIDAYS = {date(2026, 12, 28), date(2027, 1, 1)}  # open, at peak prices
CLOSED_DAYS = {date(2026, 12, 25): "Christmas Day", date(2026, 12, 26): "Boxing Day"}
FREE_MOVE_HOURS = 48  # a move 48+ hours before the start is free
MOVE_FEE_PENCE = 1500
REFUND_HOURS = 72  # cancelled 72+ hours before: refunded in full; inside: a credit note
ADDON_HOURS = 24  # add-ons until 24 hours before the start
ADDONS = {"photo_pack": 1200, "birthday": 2500}
ADDON_NAMES = {"photo_pack": "the photo pack", "birthday": "the birthday package"}
CREDIT_NOTE_MONTHS = 12
ARRIVE_EARLY_MINUTES = 15
ADULT_AGE = 18  # under-16s play only with an adult (18 or over) in the team
CHILD_AGE = 16


def start_of(day: str, time: str) -> datetime:
    """When a game starts, on the desk's clock."""
    return datetime.fromisoformat(f"{day}T{time}").replace(tzinfo=UK)


def hours_before(day: str, time: str, now: datetime = NOW) -> float:
    return (start_of(day, time) - now) / timedelta(hours=1)


SCHEMA_SQL = """
CREATE TABLE rooms (
    room_id TEXT PRIMARY KEY,                 -- vault
    name TEXT NOT NULL,
    min_players INTEGER NOT NULL,
    max_players INTEGER NOT NULL
);
CREATE TABLE closures (
    room_id TEXT,                             -- NULL: the whole venue
    day TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE bookings (
    reference TEXT PRIMARY KEY,               -- LB2001
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    time TEXT NOT NULL,                       -- HH:00
    players INTEGER NOT NULL,
    under_16 INTEGER NOT NULL DEFAULT 0,
    adult_playing INTEGER NOT NULL DEFAULT 1,
    lead_name TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,                 -- '' when paid on the payment page
    price_pence INTEGER NOT NULL,             -- the game, for the players booked
    card_pence INTEGER NOT NULL,              -- of the price, paid by card
    voucher_code TEXT,
    voucher_pence INTEGER NOT NULL DEFAULT 0, -- of the price, paid by gift voucher
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    reference TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- photo_pack / birthday
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    reference TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / move_fee / players / addon / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE credit_notes (
    code TEXT PRIMARY KEY,                    -- CN5001
    reference TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    issued TEXT NOT NULL,
    expires TEXT NOT NULL
);
CREATE TABLE vouchers (
    code TEXT PRIMARY KEY,                    -- GV7101
    value_pence INTEGER NOT NULL,
    status TEXT NOT NULL,                     -- unused / redeemed
    expires TEXT NOT NULL,
    redeemed_on TEXT                          -- the booking it paid for
);
"""

# fmt: off
ROOMS = [
    ("vault", "The Vault", 2, 6),
    ("tomb", "Pharaoh's Tomb", 3, 6),
    ("lab", "The Lab", 2, 4),
    ("attic", "The Haunted Attic", 2, 5),
]
CLOSURES = [
    (None, "2026-12-25", "closed for Christmas Day"),
    (None, "2026-12-26", "closed for Boxing Day"),
    ("attic", "2026-12-14", "closed for maintenance"),
]

# reference, room, day, time, players, lead booker, card, price (all adults unless below); the
# email follows from the name (jo.lambert@example.com)
BOOKINGS = [
    ("LB2001", "tomb", "2026-12-19", "15:00", 4, "Rachel Okoye", "3141", 11200),
    ("LB2002", "lab", "2026-12-11", "14:00", 3, "Daniel Hughes", "2718", 6600),
    ("LB2003", "attic", "2026-12-12", "10:00", 4, "Sophie Turner", "1618", 11200),
    ("LB2004", "vault", "2027-01-02", "14:00", 6, "James Whitaker", "4669", 16800),
    ("LB2005", "tomb", "2026-12-12", "18:00", 5, "Aisha Rahman", "5772", 14000),
    ("LB2006", "lab", "2026-12-10", "10:00", 2, "Liam Doyle", "1414", 4400),
    ("LB2007", "vault", "2026-12-13", "12:00", 4, "Hannah Price", "1732", 11200),
    ("LB2008", "attic", "2026-12-19", "14:00", 5, "Ethan Brooks", "2236", 14000),
    ("LB2009", "tomb", "2027-01-03", "16:00", 4, "Grace Bennett", "6931", 11200),
    ("LB2010", "lab", "2027-01-09", "11:00", 4, "Noah Fletcher", "3025", 11200),
    ("LB2011", "vault", "2026-12-19", "17:00", 5, "Oliver Grant", "8128", 14000),
    ("LB2012", "vault", "2027-01-16", "12:00", 6, "Chloe Adams", "4411", 16800),
    ("LB2013", "attic", "2027-01-06", "13:00", 3, "Ella Morgan", "6180", 6600),
    ("LB2014", "vault", "2026-12-18", "15:00", 6, "Jo Lambert", "7071", 13200),
    ("LB2015", "tomb", "2026-12-18", "18:00", 6, "Dave Morris", "9981", 16800),
    ("LB2016", "tomb", "2027-01-09", "16:00", 4, "Tom Fisher", "5678", 11200),
    ("LB2017", "vault", "2026-12-27", "12:00", 4, "Priya Nair", "2468", 11200),
    ("LB2018", "lab", "2027-01-02", "12:00", 3, "Lucy Chapman", "1357", 8400),
    ("LB2019", "tomb", "2027-01-02", "12:00", 6, "Marcus Webb", "8642", 16800),
    # Pharaoh's Tomb on Saturday 19 December: 10:00, 12:00, 15:00, 17:00, 18:00, 19:00 taken
    ("LB2020", "tomb", "2026-12-19", "10:00", 5, "Zoe Patel", "1001", 14000),
    ("LB2021", "tomb", "2026-12-19", "12:00", 4, "Sam Clarke", "2002", 11200),
    ("LB2022", "tomb", "2026-12-19", "17:00", 6, "Ruby Evans", "3003", 16800),
    ("LB2023", "tomb", "2026-12-19", "18:00", 3, "Adam Shaw", "4004", 8400),
    ("LB2024", "tomb", "2026-12-19", "19:00", 4, "Kate Lowe", "5005", 11200),
    ("LB2025", "vault", "2026-12-11", "10:00", 2, "Mia Wong", "6006", 4400),  # 23.5 hours away
]
UNDER_16 = {"LB2008": 2, "LB2018": 1}  # under-16s in the team (an adult plays in each)
VOUCHER_PAID = {"LB2016": ("GV7101", 5000)}  # part of the price paid by gift voucher

# booking, kind, price: Marcus Webb's party has the party room after his 12:00 game on 2 January
EXTRAS = [("LB2019", "birthday", 2500), ("LB2011", "photo_pack", 1200)]

# code, value, status, expires, redeemed on
VOUCHERS = [
    ("GV7101", 5000, "redeemed", "2027-06-30", "LB2016"),
    ("GV7102", 4000, "unused", "2027-03-31", None),
    ("GV7103", 3000, "redeemed", "2027-02-28", "LB1987"),
    ("GV7104", 5000, "unused", "2027-08-31", None),
    ("GV7105", 2500, "unused", "2026-11-30", None),
    ("GV7106", 10000, "unused", "2027-12-31", None),
]
# fmt: on


def email_of(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.com"


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO rooms VALUES (?,?,?,?)", ROOMS)
    db.executemany("INSERT INTO closures VALUES (?,?,?)", CLOSURES)
    for ref, room, day, time, players, name, card, price in BOOKINGS:
        code, by_voucher = VOUCHER_PAID.get(ref, (None, 0))
        db.execute(
            "INSERT INTO bookings (reference, room_id, day, time, players, under_16, "
            "adult_playing, lead_name, email, card_last4, price_pence, card_pence, voucher_code, "
            "voucher_pence) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, room, day, time, players, UNDER_16.get(ref, 0), 1, name, email_of(name), card,
             price, price - by_voucher, code, by_voucher),
        )  # fmt: skip
    db.executemany("INSERT INTO extras (reference, kind, price_pence) VALUES (?,?,?)", EXTRAS)
    db.executemany("INSERT INTO vouchers VALUES (?,?,?,?,?)", VOUCHERS)
