"""Harbourline Hotels: schema, seed data, the desk's clock and the pricing rules.

Everything here is plain data and small pure functions, shared by the environment (which
enforces the rules) and by the agents (which quote prices before acting).
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta, timezone

# The hotels are in Lisbon, Porto and Dublin: all on UTC+1 in June.
HOTEL_TZ = timezone(timedelta(hours=1), "WEST")
NOW = datetime(2026, 6, 9, 10, 0, tzinfo=HOTEL_TZ)
"""The desk's fixed clock: Tuesday 9 June 2026, 10:00."""

LATE_CHECKOUT_FREE_UNTIL = "12:00"
LATE_CHECKOUT_LATEST = "14:00"
FREE_CANCELLATION_HOURS = 48
MAX_NIGHTS = 14

SCHEMA_SQL = """
CREATE TABLE hotels (
    hotel_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    city TEXT NOT NULL,
    check_in_time TEXT NOT NULL,
    check_out_time TEXT NOT NULL,
    breakfast_eur REAL NOT NULL,          -- per guest per night
    breakfast_served_from TEXT,           -- NULL: served; else the date it is served again
    late_checkout_fee_eur REAL NOT NULL   -- after 12:00, up to 14:00
);
CREATE TABLE room_types (
    hotel_id TEXT NOT NULL REFERENCES hotels(hotel_id),
    room_type TEXT NOT NULL,
    name TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    rooms INTEGER NOT NULL,
    weekday_rate_eur REAL NOT NULL,
    weekend_rate_eur REAL NOT NULL,       -- Friday and Saturday nights
    PRIMARY KEY (hotel_id, room_type)
);
CREATE TABLE room_blocks (                -- rooms held for groups and other channels
    hotel_id TEXT NOT NULL,
    room_type TEXT NOT NULL,
    night TEXT NOT NULL,
    rooms INTEGER NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (hotel_id, room_type, night)
);
CREATE TABLE guests (
    guest_id TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    date_of_birth TEXT NOT NULL
);
CREATE TABLE reservations (
    booking_ref TEXT PRIMARY KEY,
    guest_id TEXT NOT NULL REFERENCES guests(guest_id),
    hotel_id TEXT NOT NULL REFERENCES hotels(hotel_id),
    room_type TEXT NOT NULL,
    check_in TEXT NOT NULL,
    check_out TEXT NOT NULL,
    adults INTEGER NOT NULL,
    children INTEGER NOT NULL,
    rate_plan TEXT NOT NULL,              -- 'flexible' or 'saver' (room only, non-refundable)
    status TEXT NOT NULL,                 -- 'confirmed', 'cancelled', 'checked_out'
    room_total_eur REAL NOT NULL,
    breakfast INTEGER NOT NULL DEFAULT 0,
    breakfast_total_eur REAL NOT NULL DEFAULT 0,
    late_checkout TEXT,                   -- 'HH:MM' or NULL
    late_checkout_fee_eur REAL NOT NULL DEFAULT 0,
    cancellation_fee_eur REAL NOT NULL DEFAULT 0,
    total_eur REAL NOT NULL
);
CREATE TABLE notes (
    note_id INTEGER PRIMARY KEY AUTOINCREMENT,
    booking_ref TEXT NOT NULL REFERENCES reservations(booking_ref),
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE desk_session (               -- this conversation: who the desk has verified
    id INTEGER PRIMARY KEY CHECK (id = 1),
    verified_guest_id TEXT
);
"""

HOTELS = [
    ("LIS", "Harbourline Lisbon Quay", "Lisbon", "15:00", "11:00", 18.0, None, 35.0),
    ("POR", "Harbourline Porto Ribeira", "Porto", "15:00", "11:00", 15.0, "2026-07-01", 30.0),
    ("DUB", "Harbourline Dublin Docklands", "Dublin", "15:00", "11:00", 22.0, None, 40.0),
]

ROOM_TYPES = [
    # hotel, type, name, capacity, rooms, weekday, weekend
    ("LIS", "standard", "Standard Double", 2, 20, 120.0, 150.0),
    ("LIS", "superior", "Superior Sea View", 2, 10, 160.0, 195.0),
    ("LIS", "family", "Family Room", 4, 4, 190.0, 230.0),
    ("LIS", "suite", "Quay Suite", 3, 2, 290.0, 340.0),
    ("POR", "standard", "Standard Double", 2, 15, 95.0, 125.0),
    ("POR", "superior", "Superior River View", 2, 8, 130.0, 160.0),
    ("POR", "family", "Family Room", 4, 3, 150.0, 185.0),
    ("POR", "suite", "Ribeira Suite", 3, 1, 240.0, 280.0),
    ("DUB", "standard", "Standard Double", 2, 25, 140.0, 175.0),
    ("DUB", "superior", "Superior Dock View", 2, 12, 185.0, 220.0),
    ("DUB", "family", "Family Room", 4, 5, 210.0, 250.0),
    ("DUB", "suite", "Docklands Suite", 3, 2, 350.0, 420.0),
]

ROOM_BLOCKS = [
    ("LIS", "suite", "2026-06-12", 2, "film crew block"),
    ("LIS", "suite", "2026-06-13", 2, "film crew block"),
    ("DUB", "standard", "2026-06-20", 25, "Docklands marathon group"),
    ("POR", "family", "2026-06-13", 3, "São João festival allotment"),
]

GUESTS = [
    ("G01", "Ana", "Costa", "ana.costa@mailbox.pt", "+351 912 345 678", "1988-03-14"),
    ("G02", "Tomás", "Ferreira", "tomas.ferreira@correio.pt", "+351 936 220 118", "1975-11-02"),
    ("G03", "Siobhán", "Murphy", "siobhan.murphy@eiremail.ie", "+353 87 123 4567", "1990-07-22"),
    ("G04", "Lukas", "Becker", "lukas.becker@postfach.de", "+49 171 555 0142", "1982-01-30"),
    ("G05", "Marta", "Reis", "marta.reis@mailbox.pt", "+351 917 004 221", "1986-09-05"),
    ("G06", "Pieter", "de Vries", "pieter.devries@webpost.nl", "+31 6 2345 6789", "1979-05-17"),
    ("G07", "Chloé", "Martin", "chloe.martin@courriel.fr", "+33 6 12 34 56 78", "1993-12-08"),
    ("G08", "Daniel", "Okafor", "daniel.okafor@inbox.co.uk", "+44 7700 900 318", "1984-04-11"),
]

RESERVATIONS = [
    # ref, guest, hotel, room, in, out, adults, children, plan, status
    (
        "HL20481",
        "G01",
        "LIS",
        "standard",
        "2026-06-16",
        "2026-06-18",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    (
        "HL19877",
        "G01",
        "LIS",
        "standard",
        "2026-03-06",
        "2026-03-08",
        2,
        0,
        "flexible",
        "checked_out",
    ),
    (
        "HL20517",
        "G02",
        "POR",
        "superior",
        "2026-06-11",
        "2026-06-14",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    (
        "HL31007",
        "G03",
        "DUB",
        "standard",
        "2026-06-18",
        "2026-06-20",
        1,
        0,
        "flexible",
        "confirmed",
    ),
    ("HL31022", "G04", "DUB", "family", "2026-06-12", "2026-06-15", 2, 2, "flexible", "confirmed"),
    (
        "HL20533",
        "G05",
        "LIS",
        "superior",
        "2026-06-16",
        "2026-06-18",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    (
        "HL20560",
        "G06",
        "LIS",
        "superior",
        "2026-06-12",
        "2026-06-14",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    (
        "HL20598",
        "G07",
        "LIS",
        "standard",
        "2026-06-10",
        "2026-06-12",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    (
        "HL31045",
        "G08",
        "DUB",
        "superior",
        "2026-06-24",
        "2026-06-27",
        2,
        0,
        "flexible",
        "confirmed",
    ),
    ("HL31046", "G08", "DUB", "standard", "2026-07-02", "2026-07-04", 1, 0, "saver", "confirmed"),
]

NOTES = [
    (
        "HL20560",
        "Anniversary trip: bottle of vinho verde in the room on arrival (paid).",
        "2026-05-20T09:12",
    ),
]


def nights_of(check_in: date, check_out: date) -> list[date]:
    """The nights of a stay: every date from check-in up to the day before check-out."""
    return [check_in + timedelta(days=i) for i in range((check_out - check_in).days)]


def is_weekend_night(night: date) -> bool:
    """Friday and Saturday nights are charged at the weekend rate."""
    return night.weekday() in (4, 5)


def night_rate(weekday_rate: float, weekend_rate: float, night: date) -> float:
    """The rate of one night."""
    return weekend_rate if is_weekend_night(night) else weekday_rate


def room_total(db: sqlite3.Connection, hotel_id: str, room_type: str, ci: date, co: date) -> float:
    """The room price of a stay, night by night."""
    row = db.execute(
        "SELECT weekday_rate_eur, weekend_rate_eur FROM room_types"
        " WHERE hotel_id=? AND room_type=?",
        (hotel_id, room_type),
    ).fetchone()
    return round(sum(night_rate(row[0], row[1], n) for n in nights_of(ci, co)), 2)


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the hotels, rooms, guests and bookings."""
    db.executemany("INSERT INTO hotels VALUES (?,?,?,?,?,?,?,?)", HOTELS)
    db.executemany("INSERT INTO room_types VALUES (?,?,?,?,?,?,?)", ROOM_TYPES)
    db.executemany("INSERT INTO room_blocks VALUES (?,?,?,?,?)", ROOM_BLOCKS)
    db.executemany("INSERT INTO guests VALUES (?,?,?,?,?,?)", GUESTS)
    for ref, guest, hotel, room, ci, co, adults, children, plan, status in RESERVATIONS:
        total = room_total(db, hotel, room, date.fromisoformat(ci), date.fromisoformat(co))
        db.execute(
            "INSERT INTO reservations (booking_ref, guest_id, hotel_id, room_type, check_in,"
            " check_out, adults, children, rate_plan, status, room_total_eur, total_eur)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, guest, hotel, room, ci, co, adults, children, plan, status, total, total),
        )
    db.executemany("INSERT INTO notes (booking_ref, text, created_at) VALUES (?,?,?)", NOTES)
    db.execute("INSERT INTO desk_session (id, verified_guest_id) VALUES (1, NULL)")
