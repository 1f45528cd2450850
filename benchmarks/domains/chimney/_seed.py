"""Sootaway Chimney Sweeps: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 12 January 2027, 09:30 (UK, GMT). Sweeps work Monday to
Saturday in two areas around York, mornings (08:00-12:00) and afternoons (13:00-17:00).
Customers are identified by their customer number (SA and four digits) and the postcode of
the property on record.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 1, 12, 9, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# a sweep's price for the dearest flue of the visit, by flue type
FLUE_PENCE = {"open_fire": 6500, "wood_burner": 7500, "range_cooker": 8500}
FURTHER_FLUE_PENCE = 4000  # each further flue swept at the same visit, whatever its type
FLUE_NAMES = {"open_fire": "open fire", "wood_burner": "wood burner",
              "range_cooker": "range cooker"}  # fmt: skip
ADDON_PENCE = {"cctv": 9500, "bird_guard": 4500, "cowl": 8500}  # per flue, at a sweep visit
ADDON_NAMES = {"cctv": "a CCTV flue survey", "bird_guard": "a bird guard", "cowl": "a cowl"}
TRAVEL_PENCE = 1500  # once per visit, outside the core postcodes
CALL_OUT_PENCE = 3000  # a move or cancellation less than 24 hours before the visit starts
FREE_CHANGE_HOURS = 24
REMINDER_MONTHS = 11  # a reminder is emailed 11 months after the last sweep
SLOTS = {"morning": (time(8, 0), "08:00-12:00"), "afternoon": (time(13, 0), "13:00-17:00")}
CLOSED_DAYS = {"2027-01-01"}  # and every Sunday

CORE = {"YO1", "YO10", "YO23", "YO24", "YO26", "YO30", "YO31"}
AREAS = {
    "north": {"YO30", "YO31", "YO32", "YO60", "YO61", "YO62"},
    "south": {"YO1", "YO10", "YO19", "YO23", "YO24", "YO26", "YO41", "YO42", "YO43"},
}


def district(postcode: str) -> str:
    return postcode.strip().upper().split()[0] if postcode.strip() else ""


def area_of(postcode: str) -> str | None:
    return next((a for a, districts in AREAS.items() if district(postcode) in districts), None)


def travel_for(postcode: str) -> int:
    return 0 if district(postcode) in CORE else TRAVEL_PENCE


def slot_start(day: str, slot: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), SLOTS[slot][0], tzinfo=UK)


def closed_why(day: str) -> str | None:
    """Why no sweep works that day, or None."""
    if date.fromisoformat(day).weekday() == 6:
        return "we don't sweep on Sundays"
    if day in CLOSED_DAYS:
        return "the office and the sweeps are closed that day"
    return None


def add_months(day: str, months: int) -> str:
    d = date.fromisoformat(day)
    y, m = divmod(d.month - 1 + months, 12)
    first = date(d.year + y, m + 1, 1)
    last = (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    return first.replace(day=min(d.day, last.day)).isoformat()


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- SA3001
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    reminder_plan INTEGER NOT NULL DEFAULT 0, -- on the annual reminder plan
    reminder_due TEXT                         -- the next reminder email, YYYY-MM-DD
);
CREATE TABLE flues (
    flue_id TEXT PRIMARY KEY,                 -- F101
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    kind TEXT NOT NULL,                       -- open_fire / wood_burner / range_cooker
    room TEXT NOT NULL,
    guard TEXT                                -- bird_guard / cowl already fitted, or NULL
);
CREATE TABLE sweeps (
    sweep_id TEXT PRIMARY KEY,                -- SW1
    name TEXT NOT NULL,
    area TEXT NOT NULL                        -- north / south
);
CREATE TABLE days_off (
    sweep_id TEXT NOT NULL,
    day TEXT NOT NULL
);
CREATE TABLE visits (
    booking_id TEXT PRIMARY KEY,              -- BK7006
    customer_id TEXT NOT NULL,
    day TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- morning / afternoon
    sweep_id TEXT NOT NULL,
    flue_ids TEXT NOT NULL,                   -- "F117,F118"
    sweep_pence INTEGER NOT NULL,             -- sweeping, as quoted
    travel_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE addons (
    addon_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL,
    flue_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- cctv / bird_guard / cowl
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- call_out
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE certificates (
    cert_id TEXT PRIMARY KEY,                 -- CERT-5112
    customer_id TEXT NOT NULL,
    flue_id TEXT NOT NULL,
    swept_on TEXT NOT NULL,
    sweep_id TEXT NOT NULL
);
CREATE TABLE certificate_copies (
    copy_id INTEGER PRIMARY KEY,
    cert_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, address, postcode, card; the email and phone follow from them
PEOPLE = [
    ("SA3001", "Helen Marsh", "3 Heworth Green", "YO31 7QT", "4417"),
    ("SA3002", "Graham Oates", "Ivy Cottage, Main Street, Easingwold", "YO61 3AB", "2290"),
    ("SA3003", "Priya Nair", "41 Tadcaster Road", "YO24 4HJ", "8823"),
    ("SA3004", "Colin Wade", "The Old Forge, Holme", "YO42 2PL", "6610"),
    ("SA3005", "Megan Ford", "9 Water End", "YO30 5RT", "3051"),
    ("SA3006", "Joe Pickering", "22 Heslington Lane", "YO10 3DD", "7702"),
    ("SA3007", "Anna Kowalski", "5 Scarcroft Road", "YO23 1AA", "1189"),
    ("SA3008", "Rob Lister", "17 Bootham Crescent", "YO30 6PQ", "5534"),
    ("SA3009", "Fiona Baines", "2 Acomb Green", "YO26 5LN", "9046"),
    ("SA3010", "Martin Hughes", "60 Huntington Road", "YO31 8EF", "2718"),
    ("SA3011", "Sue Dawson", "8 Bishophill Senior", "YO1 7HH", "6284"),
    ("SA3012", "Tariq Aziz", "33 Dringhouses Road", "YO24 2BB", "3141"),
    ("SA3013", "Lynn Carter", "Rose Barn, Wheldrake", "YO19 5TT", "8080"),
    ("SA3014", "Peter Blake", "12 Shipton Road", "YO30 1XX", "4242"),
    ("SA3015", "Kate Moran", "4 Church Lane, Haxby", "YO32 9XZ", "5150"),
    ("SA3016", "Ken Walsh", "71 Stockton Lane", "YO31 9HD", "6006"),
    ("SA3017", "Raj Malhotra", "19 Mount Vale", "YO23 2LP", "7117"),
    ("SA3018", "Claire Dunn", "6 Walmgate Stray", "YO10 4GH", "1212"),
    ("SA3019", "Nick Forsyth", "16 Beckfield Lane", "YO30 5XG", "3434"),
    ("SA3020", "Joan Ackroyd", "14 Beckfield Lane", "YO30 5XF", "5656"),
    ("SA3021", "Emma Lowe", "Flat 2, 30 Holgate Road", "YO26 4NB", "7878"),
    ("SA3022", "Dan Whitley", "88 Tang Hall Lane", "YO31 0AB", "9090"),
    ("SA3023", "Ruth Nolan", "1 Victor Street", "YO1 6JP", "1357"),
    ("SA3024", "Alan Reeve", "27 Moor Lane", "YO24 3QS", "2468"),
    ("SA3025", "Owen Hart", "Low Farm, Malton Road", "YO62 5AA", "9753"),
]
# SA3023 is on the reminder plan already: her last reminder went on 14 December 2026
CUSTOMERS = [
    (c, n, a, p, n.lower().replace(" ", ".") + "@example.com", f"07700 900{400 + int(c[-2:])}",
     card, 1 if c == "SA3023" else 0, "2026-12-14" if c == "SA3023" else None)
    for c, n, a, p, card in PEOPLE
]  # fmt: skip

# flue, customer, kind, room, guard already fitted
FLUES = [
    ("F101", "SA3001", "open_fire", "living room", None),
    ("F102", "SA3002", "wood_burner", "sitting room", None),
    ("F103", "SA3003", "wood_burner", "living room", None),
    ("F104", "SA3004", "open_fire", "front room", None),
    ("F105", "SA3005", "open_fire", "living room", None),
    ("F106", "SA3006", "open_fire", "front room", None),
    ("F107", "SA3007", "wood_burner", "kitchen", None),
    ("F108", "SA3008", "open_fire", "living room", None),
    ("F109", "SA3009", "range_cooker", "kitchen", None),
    ("F110", "SA3010", "wood_burner", "living room", "cowl"),
    ("F111", "SA3011", "open_fire", "front room", None),
    ("F112", "SA3012", "wood_burner", "lounge", None),
    ("F113", "SA3013", "open_fire", "snug", None),
    ("F114", "SA3014", "open_fire", "living room", None),
    ("F115", "SA3015", "wood_burner", "living room", None),
    ("F116", "SA3016", "wood_burner", "living room", None),
    ("F117", "SA3017", "open_fire", "front room", None),
    ("F118", "SA3017", "wood_burner", "back room", None),
    ("F119", "SA3018", "range_cooker", "kitchen", None),
    ("F120", "SA3019", "open_fire", "living room", None),
    ("F121", "SA3020", "wood_burner", "living room", None),
    ("F122", "SA3021", "open_fire", "living room", None),
    ("F123", "SA3022", "wood_burner", "living room", None),
    ("F124", "SA3023", "open_fire", "front room", "bird_guard"),
    ("F125", "SA3024", "wood_burner", "living room", None),
    ("F126", "SA3025", "range_cooker", "kitchen", None),
]

SWEEPS = [
    ("SW1", "Dave Rigg", "north"),
    ("SW2", "Sam Kettle", "north"),
    ("SW3", "Mo Akhtar", "south"),
    ("SW4", "Lucy Birch", "south"),
]
DAYS_OFF = [("SW1", "2027-01-15")]

# booking, customer, day, slot, sweep, flues, sweep price, travel
VISITS = [
    ("BK7006", "SA3006", "2027-01-18", "morning", "SW3", "F106", 6500, 0),
    ("BK7007", "SA3007", "2027-01-21", "afternoon", "SW3", "F107", 7500, 0),
    ("BK7008", "SA3008", "2027-01-13", "morning", "SW1", "F108", 6500, 0),
    ("BK7009", "SA3009", "2027-01-13", "morning", "SW3", "F109", 8500, 0),
    ("BK7010", "SA3010", "2027-01-18", "afternoon", "SW1", "F110", 7500, 0),
    ("BK7011", "SA3011", "2027-01-22", "morning", "SW3", "F111", 6500, 0),
    ("BK7013", "SA3013", "2027-01-20", "afternoon", "SW3", "F113", 6500, 1500),
    ("BK7015", "SA3015", "2027-01-16", "morning", "SW1", "F115", 7500, 1500),
    ("BK7018", "SA3018", "2027-01-13", "afternoon", "SW3", "F119", 8500, 0),
    ("BK7020", "SA3020", "2027-01-14", "morning", "SW1", "F121", 7500, 0),
    ("BK7022", "SA3022", "2027-01-13", "morning", "SW2", "F123", 7500, 0),
    ("BK7023", "SA3023", "2027-01-19", "morning", "SW3", "F124", 6500, 0),
    ("BK7024", "SA3024", "2027-01-21", "afternoon", "SW4", "F125", 7500, 0),
    ("BK7025", "SA3025", "2027-01-15", "morning", "SW2", "F126", 8500, 1500),
    ("BK7026", "SA3012", "2027-01-21", "morning", "SW3", "F112", 7500, 0),
    ("BK7027", "SA3014", "2027-01-15", "afternoon", "SW2", "F114", 6500, 0),
]

# booking, flue, kind, price (the CCTV camera is out on BK7026's day, Thursday 21 January)
ADDONS = [
    ("BK7013", "F113", "bird_guard", 4500),
    ("BK7026", "F112", "cctv", 9500),
]

# certificate, customer, flue, swept on, sweep
CERTIFICATES = [
    ("CERT-5104", "SA3014", "F114", "2025-03-03", "SW2"),
    ("CERT-5112", "SA3012", "F112", "2026-12-10", "SW4"),
    ("CERT-5113", "SA3013", "F113", "2025-11-18", "SW3"),
    ("CERT-5114", "SA3014", "F114", "2026-03-03", "SW1"),
    ("CERT-5116", "SA3016", "F116", "2026-02-20", "SW2"),
    ("CERT-5121", "SA3021", "F122", "2026-10-05", "SW4"),
    ("CERT-5123", "SA3023", "F124", "2026-01-14", "SW3"),
    ("CERT-5125", "SA3024", "F125", "2025-12-02", "SW4"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO flues VALUES (?,?,?,?,?)", FLUES)
    db.executemany("INSERT INTO sweeps VALUES (?,?,?)", SWEEPS)
    db.executemany("INSERT INTO days_off VALUES (?,?)", DAYS_OFF)
    db.executemany(
        "INSERT INTO visits (booking_id, customer_id, day, slot, sweep_id, flue_ids, "
        "sweep_pence, travel_pence) VALUES (?,?,?,?,?,?,?,?)",
        VISITS,
    )
    db.executemany(
        "INSERT INTO addons (booking_id, flue_id, kind, price_pence) VALUES (?,?,?,?)", ADDONS
    )
    db.executemany("INSERT INTO certificates VALUES (?,?,?,?,?)", CERTIFICATES)
