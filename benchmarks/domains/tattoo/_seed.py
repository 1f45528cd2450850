"""Ironink Tattoo Studio: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). The studio is open 10:00 to
18:00 every day but 25 and 26 December and 1 January; each artist works on their own weekdays.
Clients are identified by their client number (IK and four digits) and their date of birth.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

OPEN, CLOSE = "10:00", "18:00"
CLOSED_DAYS = {date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}
WEEKDAY_CODES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

SESSION_HOURS = (2, 4, 6)  # sessions are 2, 4 or 6 hours, starting on the hour
CONSULT_MINUTES = 20  # consultations are free, 20 minutes, at :00, :20 or :40
TOUCHUP_MINUTES = 60  # a touch-up is one hour with an artist
PATCH_MINUTES = 10  # a patch test is 10 minutes at the front desk, free
DEPOSIT_PERCENT = 20  # non-refundable, taken at booking, taken off the final price
FREE_MOVE_HOURS = 72  # one free move when 72+ hours before the start
PATCH_HOURS = 48  # a colour session needs a patch test 48+ hours before it
TOUCHUP_FREE_DAYS = 56  # a touch-up within 8 weeks of the session, same artist, is free
MIN_AGE = 18
KITS = {"standard": 1200, "large": 2000}  # aftercare kits, paid with the balance on the day

# fmt: off
# artist, name, style, hourly rate, working days
ARTISTS = [
    ("AR1", "Mara Quinn", "colour realism", 12000, "Tue,Wed,Thu,Sat"),
    ("AR2", "Dex Harlow", "blackwork and traditional", 10000, "Mon,Tue,Fri,Sat"),
    ("AR3", "Ivy Chen", "fine line", 9000, "Wed,Thu,Fri,Sun"),
    ("AR4", "Rook Adeyemi", "Japanese", 13000, "Mon,Thu,Fri"),
]
# fmt: on

SCHEMA_SQL = """
CREATE TABLE artists (
    artist_id TEXT PRIMARY KEY,               -- AR1
    name TEXT NOT NULL,
    style TEXT NOT NULL,
    rate_pence INTEGER NOT NULL,              -- per hour
    days TEXT NOT NULL                        -- "Tue,Wed,Thu,Sat"
);
CREATE TABLE clients (
    client_id TEXT PRIMARY KEY,               -- IK1001
    name TEXT NOT NULL,
    dob TEXT NOT NULL,                        -- YYYY-MM-DD
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    photo_id TEXT NOT NULL                    -- seen / not yet
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- TB6006
    client_id TEXT NOT NULL REFERENCES clients(client_id),
    artist_id TEXT NOT NULL REFERENCES artists(artist_id),
    kind TEXT NOT NULL,                       -- consultation / session / touchup
    start TEXT NOT NULL,                      -- YYYY-MM-DD HH:MM
    minutes INTEGER NOT NULL,
    colour INTEGER NOT NULL DEFAULT 0,
    price_pence INTEGER NOT NULL,             -- the tattooing, kits not included
    deposit_pence INTEGER NOT NULL,           -- taken off the final price
    forfeited_pence INTEGER NOT NULL DEFAULT 0,  -- deposits lost by late or second moves
    gift_pence INTEGER NOT NULL DEFAULT 0,    -- gift-card money put towards the balance
    moves INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled / done
);
CREATE TABLE addons (
    addon_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL REFERENCES bookings(booking_id),
    kit TEXT NOT NULL,                        -- standard / large
    quantity INTEGER NOT NULL,
    price_pence INTEGER NOT NULL              -- for the quantity
);
CREATE TABLE patch_tests (
    test_id INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL REFERENCES clients(client_id),
    at TEXT NOT NULL,                         -- YYYY-MM-DD HH:MM
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / done
);
CREATE TABLE gift_cards (
    code TEXT PRIMARY KEY,                    -- GC-5017
    balance_pence INTEGER NOT NULL,
    expires TEXT NOT NULL
);
CREATE TABLE redemptions (
    redemption_id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    booking_id TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    client_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# client, name, date of birth, card, photo ID; email and phone follow from them
# (IK1018: sam.wright@example.com, 07700 900118)
PEOPLE = [
    ("IK1001", "Leah Morgan", "1994-03-12", "4417", "not yet"),
    ("IK1002", "Callum Reid", "1988-07-30", "2290", "seen"),
    ("IK1003", "Sofia Alvarez", "1991-11-02", "8823", "seen"),
    ("IK1004", "Jamie Turner", "1996-05-19", "6610", "not yet"),
    ("IK1005", "Marcus Bell", "1985-02-14", "3051", "seen"),
    ("IK1006", "Hannah Price", "1990-09-09", "7702", "seen"),
    ("IK1007", "Owen Clarke", "1979-04-22", "1189", "seen"),
    ("IK1008", "Priya Nair", "1993-12-01", "5534", "seen"),
    ("IK1009", "Ella Hughes", "1998-06-25", "9046", "seen"),
    ("IK1010", "Tom Baker", "1987-08-08", "2718", "seen"),
    ("IK1011", "Grace Lee", "1992-01-17", "6284", "seen"),
    ("IK1012", "Nathan Shaw", "1983-10-05", "3141", "seen"),
    ("IK1013", "Aisha Khan", "1995-04-30", "8080", "seen"),
    ("IK1014", "Ben Foster", "2000-11-11", "4242", "not yet"),
    ("IK1015", "Chloe Martin", "1999-02-03", "5150", "not yet"),
    ("IK1016", "Ruby Walsh", "1997-07-07", "6006", "seen"),
    ("IK1017", "Daniel Cooper", "1989-05-11", "7117", "seen"),
    ("IK1018", "Sam Wright", "1986-12-24", "1212", "seen"),
    ("IK1019", "Liam Scott", "1990-03-03", "3434", "seen"),
    ("IK1020", "Megan Scott", "1991-08-19", "5656", "seen"),
    ("IK1021", "Kayla Brooks", "2009-06-15", "7878", "not yet"),
    ("IK1022", "Noah Evans", "1994-10-10", "9090", "seen"),
    ("IK1023", "Zoe Adams", "1992-09-14", "1357", "seen"),
    ("IK1024", "Ryan Hall", "1984-01-29", "2468", "seen"),
    ("IK1025", "Freya Collins", "1997-12-12", "3690", "seen"),
]
CLIENTS = [
    (c, n, dob, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(c[-2:])}",
     card, photo)
    for c, n, dob, card, photo in PEOPLE
]  # fmt: skip

# booking, client, artist, kind, start, minutes, colour, price, deposit, moves, status
BOOKINGS = [
    ("TB6006", "IK1006", "AR2", "session", "2026-12-11 14:00", 120, 0, 20000, 4000, 0, "booked"),
    ("TB6007", "IK1007", "AR3", "session", "2026-12-17 11:00", 120, 0, 18000, 3600, 1, "booked"),
    ("TB6008", "IK1008", "AR1", "session", "2026-12-09 12:00", 240, 1, 48000, 9600, 0, "booked"),
    ("TB6009", "IK1009", "AR4", "session", "2026-12-14 10:00", 240, 0, 52000, 10400, 0, "booked"),
    ("TB6010", "IK1010", "AR2", "session", "2026-11-13 10:00", 240, 0, 40000, 8000, 0, "done"),
    ("TB6011", "IK1011", "AR3", "session", "2026-09-10 13:00", 120, 0, 18000, 3600, 0, "done"),
    ("TB6012", "IK1012", "AR4", "session", "2027-01-08 10:00", 360, 1, 78000, 15600, 0, "booked"),
    ("TB6013", "IK1013", "AR1", "session", "2026-12-12 10:00", 240, 1, 48000, 9600, 0, "booked"),
    ("TB6017", "IK1017", "AR3", "session", "2026-12-20 12:00", 120, 0, 18000, 3600, 0, "booked"),
    ("TB6018", "IK1018", "AR1", "session", "2026-12-10 11:00", 120, 0, 24000, 4800, 0, "booked"),
    ("TB6020", "IK1020", "AR4", "session", "2026-12-17 13:00", 240, 0, 52000, 10400, 0, "booked"),
    ("TB6023", "IK1023", "AR2", "session", "2026-12-19 10:00", 360, 0, 60000, 12000, 0, "booked"),
    ("TB6024", "IK1024", "AR2", "session", "2026-12-15 10:00", 120, 0, 20000, 4000, 0, "booked"),
    ("TB6025", "IK1025", "AR1", "session", "2026-12-16 10:00", 240, 1, 48000, 9600, 0, "booked"),
    ("TB6019", "IK1019", "AR2", "session", "2026-10-16 12:00", 240, 0, 40000, 8000, 0, "done"),
    ("TB6002", "IK1002", "AR2", "session", "2026-08-14 10:00", 240, 0, 40000, 8000, 0, "done"),
]

# booking, kit, quantity, price
ADDONS = [("TB6013", "standard", 1, 1200)]

# client, at, status
PATCH_TESTS = [
    ("IK1003", "2026-11-20 11:00", "done"),
    ("IK1008", "2026-11-25 10:00", "done"),
    ("IK1012", "2026-11-02 12:00", "done"),
    ("IK1013", "2026-11-14 10:30", "done"),
    ("IK1025", "2026-10-05 15:00", "done"),
    ("IK1022", "2026-12-11 11:00", "booked"),
]

# code, balance, expires
GIFT_CARDS = [
    ("GC-5013", 0, "2027-06-30"),
    ("GC-5017", 20000, "2027-03-31"),
    ("GC-5023", 5000, "2027-05-31"),
    ("GC-4999", 7500, "2026-11-30"),
]
# code, booking, amount, at
REDEMPTIONS = [("GC-5013", "TB6013", 5000, "2026-11-14 10:40")]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO artists VALUES (?,?,?,?,?)", ARTISTS)
    db.executemany("INSERT INTO clients VALUES (?,?,?,?,?,?,?)", CLIENTS)
    db.executemany(
        "INSERT INTO bookings (booking_id, client_id, artist_id, kind, start, minutes, colour, "
        "price_pence, deposit_pence, moves, status) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        BOOKINGS,
    )
    db.execute("UPDATE bookings SET gift_pence = 5000 WHERE booking_id = 'TB6013'")
    db.executemany(
        "INSERT INTO addons (booking_id, kit, quantity, price_pence) VALUES (?,?,?,?)", ADDONS
    )
    db.executemany("INSERT INTO patch_tests (client_id, at, status) VALUES (?,?,?)", PATCH_TESTS)
    db.executemany("INSERT INTO gift_cards VALUES (?,?,?)", GIFT_CARDS)
    db.executemany(
        "INSERT INTO redemptions (code, booking_id, amount_pence, at) VALUES (?,?,?,?)",
        REDEMPTIONS,
    )
