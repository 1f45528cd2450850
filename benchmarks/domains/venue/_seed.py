"""Millbrook Community Hall: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 15 December 2026, 10:00 (UK, GMT). The hall is open from
08:00 to midnight; rooms are hired by the whole hour. Hirers are identified by a booking
reference (MB and four digits) of any of their bookings and the hirer's surname.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 15, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# per hour: the day rate (weekdays before 18:00) and the evening / weekend rate
ROOMS = {
    "hall": {"name": "main hall", "day": 3200, "evening": 4500, "cap": 120, "min_hours": 3,
             "deposit": 10000},
    "meeting": {"name": "small meeting room", "day": 1400, "evening": 2000, "cap": 20,
                "min_hours": 2, "deposit": 5000},
}  # fmt: skip
EVENING_FROM = 18  # weekday hours from 18:00 are at the evening rate
OPEN, CLOSE = "08:00", "24:00"
MUSIC_UNTIL = "23:00"  # no amplified music (the PA system) after 23:00
# add-ons: the kitchen per hour of the booking (main hall only), the rest per booking
ADDONS = {
    "kitchen": {"name": "the kitchen", "pence": 1000, "per_hour": True, "hall_only": True},
    "tables": {"name": "tables and chairs set-up", "pence": 2500, "per_hour": False,
               "hall_only": False},
    "pa": {"name": "the PA system", "pence": 3000, "per_hour": False, "hall_only": True},
    "cleaning": {"name": "extra cleaning", "pence": 4000, "per_hour": False, "hall_only": False},
}  # fmt: skip
ADDON_CUTOFF_DAYS = 5  # add-ons close 5 days before the event
FREE_MOVE_DAYS = 28  # a move 28+ days before the event is free
MOVE_FEE_PENCE = 2500
FULL_REFUND_DAYS, HALF_REFUND_DAYS = 28, 14  # cancellation tiers on what was paid
DISCOUNT_PERCENT = 20  # community groups with a registered charity number: room hire only
CLAIM_DAYS = 30  # a deposit is claimed back within 30 days after the event
KEYS_FROM, KEYS_UNTIL = "09:00", "17:00"  # key collection on the event day


def hire_pence(room: str, day: date, start: str, end: str) -> int:
    """The room hire: weekday hours before 18:00 at the day rate, the rest at the evening rate."""
    rates = ROOMS[room]
    total = 0
    for hour in range(int(start[:2]), int(end[:2])):
        evening = day.weekday() >= 5 or hour >= EVENING_FROM
        total += rates["evening"] if evening else rates["day"]
    return total


SCHEMA_SQL = """
CREATE TABLE hirers (
    hirer_id TEXT PRIMARY KEY,                -- H201
    first_name TEXT NOT NULL,
    surname TEXT NOT NULL,
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- MB3001
    hirer_id TEXT NOT NULL REFERENCES hirers(hirer_id),
    room TEXT NOT NULL,                       -- hall / meeting
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    start_time TEXT NOT NULL,                 -- HH:MM
    end_time TEXT NOT NULL,                   -- HH:MM, 24:00 is midnight
    guests INTEGER NOT NULL,
    event TEXT NOT NULL,
    hire_pence INTEGER NOT NULL,              -- room hire before any discount, paid at booking
    discount_pence INTEGER NOT NULL DEFAULT 0,
    charity_number TEXT,
    deposit_pence INTEGER NOT NULL,
    deposit_status TEXT NOT NULL DEFAULT 'held',   -- held / claimed / returned
    alcohol_licence TEXT,                     -- a Temporary Event Notice reference
    key_time TEXT,                            -- key collection on the event day
    status TEXT NOT NULL DEFAULT 'confirmed', -- confirmed / completed / cancelled
    staff_note TEXT NOT NULL DEFAULT ''       -- internal: never read out to a hirer
);
CREATE TABLE addons (
    addon_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- kitchen / tables / pa / cleaning
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    hirer_id TEXT NOT NULL,
    booking_id TEXT,
    kind TEXT NOT NULL,   -- hire / deposit / addon / move_fee / top_up / refund / deposit_return
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE charities (
    charity_number TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-7014
    hirer_id TEXT NOT NULL,
    booking_id TEXT NOT NULL,
    total_pence INTEGER NOT NULL,
    issued TEXT NOT NULL
);
CREATE TABLE invoice_copies (
    copy_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# hirer, first name, surname, postcode, card; email first.surname@example.com, phone from the id
PEOPLE = [
    ("H201", "Ada", "Okafor", "MB4 1AA", "4417"),
    ("H202", "Gareth", "Hughes", "MB4 2AB", "2290"),
    ("H203", "Megan", "Lewis", "MB4 3AD", "8823"),
    ("H204", "Joe", "Carter", "MB5 1BE", "6610"),
    ("H205", "Harpreet", "Singh", "MB5 2BF", "3051"),
    ("H206", "Siobhan", "Brennan", "MB5 3BG", "7702"),
    ("H207", "Patrick", "Doyle", "MB6 1CH", "1189"),
    ("H208", "Yusuf", "Ahmed", "MB6 2CJ", "5534"),
    ("H209", "Isla", "Fraser", "MB6 3CL", "9046"),
    ("H210", "Anna", "Kowalski", "MB7 1DN", "2718"),
    ("H211", "Delyth", "Morgan", "MB7 2DP", "6284"),
    ("H212", "Rhys", "Evans", "MB7 3DQ", "3141"),
    ("H213", "Niamh", "Walsh", "MB8 1ER", "8080"),
    ("H214", "Callum", "Grant", "MB8 2ES", "4242"),
    ("H215", "Meera", "Patel", "MB8 3ET", "5150"),
    ("H216", "Tom", "Bradley", "MB9 1FU", "6006"),
    ("H217", "Fiona", "Nolan", "MB9 2FW", "7117"),
    ("H218", "Sam", "Baker", "MB9 3FX", "1212"),
    ("H219", "Liam", "Quinn", "MB1 4GY", "3434"),
    ("H220", "Helen", "Ward", "MB1 5HZ", "5656"),
    ("H221", "Imran", "Khan", "MB2 4JA", "7878"),
    ("H222", "Carys", "Jones", "MB2 5JB", "9090"),
    ("H223", "Sean", "Murphy", "MB3 4KD", "1357"),
    ("H224", "Eilidh", "Reid", "MB3 5KE", "2468"),
]
HIRERS = [
    (h, first, last, postcode, f"{first.lower()}.{last.lower()}@example.com",
     f"07700 900{300 + int(h[-2:])}", card)
    for h, first, last, postcode, card in PEOPLE
]  # fmt: skip

# booking, hirer, room, day, start, end, guests, event, status, staff note
BOOKINGS = [
    ("MB3001", "H201", "hall", "2027-01-23", "18:00", "23:00", 90, "40th birthday party",
     "confirmed", "Caretaker: music ran late at her last party; remind her about 23:00."),
    ("MB3002", "H202", "meeting", "2027-02-03", "10:00", "12:00", 10,
     "Residents' association meeting", "confirmed", ""),
    ("MB3003", "H203", "hall", "2027-01-09", "14:00", "18:00", 40, "Children's party",
     "confirmed", ""),
    ("MB3004", "H204", "meeting", "2027-01-07", "19:00", "21:00", 12, "Book club", "confirmed",
     ""),
    ("MB3005", "H205", "hall", "2027-01-29", "18:00", "22:00", 70, "Quiz night", "confirmed",
     ""),
    ("MB3006", "H206", "hall", "2027-02-20", "10:00", "16:00", 100, "Craft fair", "confirmed",
     ""),
    ("MB3007", "H207", "meeting", "2027-01-05", "10:00", "13:00", 8, "Training session",
     "confirmed", ""),
    ("MB3008", "H208", "hall", "2027-01-30", "12:00", "17:00", 110, "Wedding reception",
     "confirmed", ""),
    ("MB3009", "H209", "hall", "2027-02-06", "19:00", "24:00", 80, "Ceilidh", "confirmed", ""),
    ("MB3010", "H210", "hall", "2027-02-13", "10:00", "14:00", 60, "Community lunch",
     "confirmed", ""),
    ("MB3011", "H211", "meeting", "2027-01-25", "18:00", "20:00", 15, "Support group",
     "confirmed", ""),
    ("MB3012", "H212", "hall", "2027-01-15", "19:00", "23:00", 70, "Birthday party",
     "confirmed", ""),
    ("MB3013", "H213", "hall", "2026-12-19", "11:00", "15:00", 50, "Christmas party",
     "confirmed", ""),
    ("MB3014", "H214", "hall", "2026-11-28", "14:00", "18:00", 60, "Retirement party",
     "completed", "Caretaker: left tidy, no damage."),
    ("MB3015", "H215", "meeting", "2026-10-31", "10:00", "12:00", 12, "Baby shower",
     "completed", ""),
    ("MB3016", "H216", "hall", "2026-11-21", "10:00", "13:00", 50, "Jumble sale", "completed",
     ""),
    ("MB3017", "H217", "hall", "2027-01-17", "10:00", "13:00", 40, "Coffee morning",
     "confirmed", ""),
    ("MB3018", "H218", "meeting", "2027-01-16", "10:00", "13:00", 16, "Chess club",
     "confirmed", ""),
    ("MB3019", "H219", "hall", "2027-01-24", "13:00", "17:00", 70, "Christening party",
     "confirmed", ""),
    ("MB3020", "H220", "meeting", "2026-10-13", "10:00", "12:00", 10, "Committee meeting",
     "completed", ""),
    ("MB3021", "H221", "meeting", "2026-11-10", "10:00", "12:00", 8, "Tenants' meeting",
     "completed", ""),
    ("MB3022", "H222", "meeting", "2026-11-17", "14:00", "16:00", 12, "Writing group",
     "completed", ""),
    ("MB3023", "H223", "meeting", "2026-11-24", "10:00", "12:00", 10, "Band practice",
     "completed", ""),
    ("MB3024", "H224", "meeting", "2026-12-01", "10:00", "12:00", 6, "Tutoring", "completed",
     ""),
]

# booking, kind, price
ADDON_ROWS = [
    ("MB3010", "tables", 2500),
    ("MB3019", "cleaning", 4000),
]

# deposits already given back after inspection
DEPOSIT_RETURNED = {"MB3016", "MB3020", "MB3021", "MB3022", "MB3023", "MB3024"}

CHARITIES = [
    ("1104321", "Millbrook Lunch Club"),
    ("1098765", "1st Millbrook Scouts"),
    ("1123456", "Millbrook Carers' Network"),
]

# invoice, booking, issued (the total is what was paid for the hire and add-ons)
INVOICE_ROWS = [
    ("INV-7014", "MB3014", "2026-11-30"),
    ("INV-7015", "MB3015", "2026-11-02"),
    ("INV-7016", "MB3016", "2026-11-23"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO hirers VALUES (?,?,?,?,?,?,?)", HIRERS)
    hire = {}
    for b, h, room, day, start, end, guests, event, status, note in BOOKINGS:
        hire[b] = hire_pence(room, date.fromisoformat(day), start, end)
        returned = "returned" if b in DEPOSIT_RETURNED else "held"
        db.execute(
            "INSERT INTO bookings (booking_id, hirer_id, room, day, start_time, end_time, "
            "guests, event, hire_pence, deposit_pence, deposit_status, status, staff_note) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (b, h, room, day, start, end, guests, event, hire[b], ROOMS[room]["deposit"],
             returned, status, note),
        )  # fmt: skip
    db.executemany("INSERT INTO addons (booking_id, kind, price_pence) VALUES (?,?,?)",
                   ADDON_ROWS)  # fmt: skip
    db.executemany("INSERT INTO charities VALUES (?,?)", CHARITIES)
    owner = {b[0]: b[1] for b in BOOKINGS}
    db.executemany(
        "INSERT INTO invoices VALUES (?,?,?,?,?)",
        [(i, owner[b], b, hire[b], issued) for i, b, issued in INVOICE_ROWS],
    )
