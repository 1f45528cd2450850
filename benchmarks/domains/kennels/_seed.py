"""Hollybrook Pet Boarding: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Pets arrive from 08:00 on
the arrival day and are collected by 12:00 on the departure day. Customers are identified by
their account number (HB and four digits) and the name of a pet on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# nightly rates: cats one rate, dogs by size
RATES = {"cat": 1800, "small": 2600, "medium": 3000, "large": 3500}
DEPOSIT_PERCENT = 20  # taken at booking
FREE_CHANGE_DAYS = 7  # a date change 7+ days before arrival is free
CHANGE_FEE_PENCE = 1500
REFUND_DAYS = 14  # the deposit comes back on a cancellation 14+ days before arrival
VACCINE_DAYS = 365  # boosters (and kennel cough for dogs) within 12 months of arrival
WALK_PENCE = 600  # a daily walk, per night of the stay
GROOM_PENCE = 3000  # one groom on the departure day
MEDICATION_PENCE = 300  # per night, only with a vet's note on file
COLLECT_BY = "12:00"
# peak: the Christmas and New Year nights; a stay with any of them is a peak stay
PEAK_FIRST, PEAK_LAST = date(2026, 12, 19), date(2027, 1, 2)


def nightly(species: str, size: str | None) -> int:
    return RATES["cat"] if species == "cat" else RATES[size or "medium"]


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- HB4001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    emergency_phone TEXT NOT NULL,
    vet_phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE pets (
    pet_id TEXT PRIMARY KEY,                  -- P101
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    name TEXT NOT NULL,
    species TEXT NOT NULL,                    -- dog / cat
    size TEXT,                                -- small / medium / large (dogs)
    booster_on TEXT NOT NULL,                 -- last annual booster
    kennel_cough_on TEXT,                     -- dogs: last kennel cough vaccine
    vet_note INTEGER NOT NULL DEFAULT 0       -- a vet's note for medication is on file
);
CREATE TABLE stays (
    stay_id TEXT PRIMARY KEY,                 -- HS5005
    account_id TEXT NOT NULL,
    pet_ids TEXT NOT NULL,                    -- "P102,P103"
    arrival TEXT NOT NULL,
    departure TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- boarding, extras not included
    deposit_pence INTEGER NOT NULL,
    collect_time TEXT NOT NULL DEFAULT '12:00',
    late_fee_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    stay_id TEXT NOT NULL,
    pet_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- walks / grooming / medication
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / change_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-8020
    account_id TEXT NOT NULL,
    stay_id TEXT NOT NULL,
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
# account, name, card; emails and phone numbers follow from them (HB4018: 07700 900418,
# emergency 07700 900518, vet 01632 960218)
PEOPLE = [
    ("HB4001", "Alice Ward", "4417"),
    ("HB4002", "Raj Patel", "2290"),
    ("HB4003", "Tom Hale", "8823"),
    ("HB4004", "Gina Moss", "6610"),
    ("HB4005", "Owen Price", "3051"),
    ("HB4006", "Priya Shah", "7702"),
    ("HB4007", "Dan Fox", "1189"),
    ("HB4008", "Sarah Lin", "5534"),
    ("HB4009", "Mark Evans", "9046"),
    ("HB4010", "Fiona Grey", "2718"),
    ("HB4011", "Ian Moss", "6284"),
    ("HB4012", "Chloe Ward", "3141"),
    ("HB4013", "Ben Ortiz", "8080"),
    ("HB4014", "Nadia Rossi", "4242"),
    ("HB4015", "Paul Adams", "5150"),
    ("HB4016", "Hannah Webb", "6006"),
    ("HB4017", "Jack Turner", "7117"),
    ("HB4018", "Emma Clarke", "1212"),
    ("HB4019", "George Hall", "3434"),
    ("HB4020", "Ruth Cole", "5656"),
    ("HB4021", "Luke Perry", "7878"),
    ("HB4022", "Amir Khan", "9090"),
    ("HB4023", "Zara Bell", "1357"),
]
CUSTOMERS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{400 + int(a[-2:])}",
     f"07700 900{500 + int(a[-2:])}", f"01632 960{200 + int(a[-2:])}", card)
    for a, n, card in PEOPLE
]  # fmt: skip

# pet, account, name, species, size, booster, kennel cough, vet note
PETS = [
    ("P101", "HB4001", "Mittens", "cat", None, "2026-03-10", None, 0),
    ("P102", "HB4002", "Bruno", "dog", "large", "2026-05-02", "2026-05-02", 0),
    ("P103", "HB4002", "Pip", "dog", "small", "2026-05-02", "2026-05-02", 0),
    ("P104", "HB4003", "Rex", "dog", "medium", "2026-09-14", "2025-12-20", 0),
    ("P105", "HB4004", "Luna", "dog", "small", "2026-05-01", "2026-05-01", 0),
    ("P106", "HB4005", "Buddy", "dog", "medium", "2026-06-11", "2026-06-11", 0),
    ("P107", "HB4006", "Tiger", "cat", None, "2026-02-20", None, 0),
    ("P108", "HB4007", "Max", "dog", "large", "2026-04-04", "2026-04-04", 0),
    ("P109", "HB4008", "Smudge", "cat", None, "2026-07-07", None, 0),
    ("P110", "HB4009", "Ziggy", "dog", "medium", "2026-08-08", "2026-08-08", 0),
    ("P111", "HB4010", "Pebbles", "cat", None, "2026-01-30", None, 0),
    ("P112", "HB4011", "Bramble", "dog", "large", "2026-03-03", "2026-03-03", 0),
    ("P113", "HB4012", "Bailey", "dog", "medium", "2026-10-10", "2026-10-10", 0),
    ("P114", "HB4013", "Poppy", "dog", "small", "2026-09-09", "2026-09-09", 0),
    ("P115", "HB4014", "Coco", "dog", "small", "2026-06-06", "2026-06-06", 1),
    ("P116", "HB4015", "Rolo", "dog", "medium", "2026-07-17", "2026-07-17", 0),
    ("P117", "HB4016", "Olive", "cat", None, "2026-05-05", None, 0),
    ("P118", "HB4017", "Milo", "dog", "medium", "2026-04-14", "2026-04-14", 0),
    ("P119", "HB4018", "Hazel", "cat", None, "2026-02-02", None, 0),
    ("P120", "HB4019", "Toby", "dog", "large", "2026-03-13", "2026-03-13", 0),
    ("P121", "HB4020", "Jasper", "cat", None, "2026-08-20", None, 0),
    ("P122", "HB4021", "Willow", "dog", "small", "2026-02-12", "2026-02-12", 0),
    ("P123", "HB4022", "Kiwi", "dog", "medium", "2026-06-22", "2026-06-22", 0),
    ("P124", "HB4023", "Nala", "cat", None, "2026-04-23", None, 0),
]

# stay, account, pets, arrival, departure, price, deposit
STAYS = [
    ("HS5005", "HB4005", "P106", "2027-01-15", "2027-01-18", 9000, 1800),
    ("HS5006", "HB4006", "P107", "2026-12-16", "2026-12-18", 3600, 720),
    ("HS5007", "HB4007", "P108", "2026-12-19", "2026-12-23", 14000, 2800),
    ("HS5008", "HB4008", "P109", "2026-12-16", "2026-12-18", 3600, 720),
    ("HS5009", "HB4009", "P110", "2027-01-20", "2027-01-24", 12000, 2400),
    ("HS5010", "HB4010", "P111", "2026-12-16", "2026-12-18", 3600, 720),
    ("HS5011", "HB4011", "P112", "2026-12-30", "2027-01-03", 14000, 2800),
    ("HS5012", "HB4012", "P113", "2027-01-08", "2027-01-12", 12000, 2400),
    ("HS5013", "HB4013", "P114", "2027-01-09", "2027-01-11", 5200, 1040),
    ("HS5014", "HB4014", "P115", "2027-01-05", "2027-01-08", 7800, 1560),
    ("HS5015", "HB4015", "P116", "2027-01-05", "2027-01-08", 9000, 1800),
    ("HS5016", "HB4016", "P117", "2026-12-15", "2026-12-17", 3600, 720),
    ("HS5017", "HB4017", "P118", "2026-12-16", "2026-12-18", 6000, 1200),
    ("HS5020", "HB4020", "P121", "2026-11-20", "2026-11-23", 5400, 1080),
    ("HS5021", "HB4021", "P122", "2026-11-27", "2026-11-29", 5200, 1040),
    ("HS5022", "HB4022", "P123", "2027-01-11", "2027-01-14", 9000, 1800),
    ("HS5023", "HB4023", "P124", "2026-12-17", "2026-12-20", 5400, 1080),
]

# invoice, account, stay, total, issued
INVOICES = [
    ("INV-8020", "HB4020", "HS5020", 5400, "2026-11-23"),
    ("INV-8021", "HB4021", "HS5021", 5200, "2026-11-29"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO pets VALUES (?,?,?,?,?,?,?,?)", PETS)
    db.executemany(
        "INSERT INTO stays (stay_id, account_id, pet_ids, arrival, departure, price_pence, "
        "deposit_pence) VALUES (?,?,?,?,?,?,?)",
        STAYS,
    )
    db.executemany("INSERT INTO invoices VALUES (?,?,?,?,?)", INVOICES)
