"""Skyrest Lounges: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 15 December 2026, 10:00 (UK, GMT). A lounge visit is three
hours from the arrival time; arrivals are taken from 04:00 to 21:00. Customers are identified by
their account number (SR and four digits) and the surname on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 15, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

STAY_HOURS = 3  # every visit is three hours from the arrival time
FIRST_ARRIVAL, LAST_ARRIVAL = "04:00", "21:00"
ADULT_PENCE = 3500  # standard lounges, age 12 and over
CHILD_PENCE = 1800  # standard lounges, ages 2-11; under 2 free and not counted
PREMIUM_ADULT_PENCE = 2500  # the Signature supplement, per adult
PREMIUM_CHILD_PENCE = 1200  # the Signature supplement, per child
FAST_TRACK_PENCE = 750  # per person in the party
SPA_PENCE = 4500  # one 30-minute treatment, Signature lounges only
AMEND_FEE_PENCE = 1000  # a new day or time less than 24 hours before arrival
FREE_HOURS = 24  # refunds and free amendments: 24 hours or more before arrival
GUEST_PASSES = {"club": 2, "club_plus": 4}  # free guest passes a membership year

SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- SR4001
    name TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT NOT NULL,
    membership TEXT NOT NULL,                 -- none / club / club_plus
    guest_passes INTEGER NOT NULL DEFAULT 0,  -- free guest passes left this membership year
    card_last4 TEXT NOT NULL
);
CREATE TABLE lounges (
    lounge_id TEXT PRIMARY KEY,               -- LHR-T5-SIG
    name TEXT NOT NULL,
    airport TEXT NOT NULL,                    -- LHR / LGW / MAN / EDI
    terminal TEXT NOT NULL,                   -- T2, North, Main...
    tier TEXT NOT NULL,                       -- standard / signature
    spa INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE full_hours (
    lounge_id TEXT NOT NULL,
    day TEXT NOT NULL,
    hour INTEGER NOT NULL                     -- no more arrivals in this hour
);
CREATE TABLE visits (
    visit_id TEXT PRIMARY KEY,                -- LV7005
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    lounge_id TEXT NOT NULL REFERENCES lounges(lounge_id),
    day TEXT NOT NULL,
    arrival_time TEXT NOT NULL,               -- HH:MM; the visit ends three hours later
    adults INTEGER NOT NULL,
    children INTEGER NOT NULL DEFAULT 0,
    lead_name TEXT NOT NULL,
    member_place INTEGER NOT NULL DEFAULT 0,  -- the lead is the member, entering free
    passes_used INTEGER NOT NULL DEFAULT 0,
    price_pence INTEGER NOT NULL,             -- entry (and any upgrade) paid, extras apart
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    visit_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- fast_track / spa
    people INTEGER NOT NULL,
    slot_time TEXT,                           -- spa only
    price_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / extra / upgrade / amendment_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, membership, guest passes left, card; the email follows from the name
PEOPLE = [
    ("SR4001", "Alice Morgan", "none", 0, "4417"),
    ("SR4002", "Raj Mehta", "club", 1, "2290"),
    ("SR4003", "Tom Baker", "none", 0, "8823"),
    ("SR4004", "Gina Walsh", "none", 0, "6610"),
    ("SR4005", "Owen Hughes", "none", 0, "3051"),
    ("SR4006", "Priya Nair", "none", 0, "7702"),
    ("SR4007", "Dan Foster", "none", 0, "1189"),
    ("SR4008", "Sarah Reed", "none", 0, "5534"),
    ("SR4009", "Mark Ellis", "club_plus", 4, "9046"),
    ("SR4010", "Fiona Clark", "none", 0, "2718"),
    ("SR4011", "Ian Brooks", "none", 0, "6284"),
    ("SR4012", "Chloe Adams", "none", 0, "3141"),
    ("SR4013", "Ben Carter", "none", 0, "8080"),
    ("SR4014", "Nadia Khan", "none", 0, "4242"),
    ("SR4015", "Paul Turner", "none", 0, "5150"),
    ("SR4016", "Hannah Price", "none", 0, "6006"),
    ("SR4017", "Jack Wilson", "none", 0, "7117"),
    ("SR4018", "Emma Scott", "none", 0, "1212"),
    ("SR4019", "George Lewis", "none", 0, "3434"),
    ("SR4020", "Ruth Bennett", "club", 0, "5656"),
    ("SR4021", "Luke Palmer", "none", 0, "7878"),
    ("SR4022", "Harriet Cole", "club", 2, "9090"),
    ("SR4023", "Zara Bell", "none", 0, "1357"),
    ("SR4024", "Amir Shah", "none", 0, "2468"),
]
CUSTOMERS = [
    (a, n, n.split()[-1], n.lower().replace(" ", ".") + "@example.com", m, passes, card)
    for a, n, m, passes, card in PEOPLE
]  # fmt: skip

# lounge, name, airport, terminal, tier, spa
LOUNGES = [
    ("LHR-T2", "Skyrest Heathrow Terminal 2", "LHR", "T2", "standard", 0),
    ("LHR-T3", "Skyrest Heathrow Terminal 3", "LHR", "T3", "standard", 0),
    ("LHR-T5", "Skyrest Heathrow Terminal 5", "LHR", "T5", "standard", 0),
    ("LHR-T5-SIG", "Skyrest Signature Heathrow Terminal 5", "LHR", "T5", "signature", 1),
    ("LGW-N", "Skyrest Gatwick North", "LGW", "North", "standard", 0),
    ("LGW-S", "Skyrest Gatwick South", "LGW", "South", "standard", 0),
    ("MAN-T1", "Skyrest Manchester Terminal 1", "MAN", "T1", "standard", 0),
    ("MAN-T2", "Skyrest Manchester Terminal 2", "MAN", "T2", "standard", 0),
    ("MAN-T2-SIG", "Skyrest Signature Manchester Terminal 2", "MAN", "T2", "signature", 1),
    ("EDI", "Skyrest Edinburgh", "EDI", "Main", "standard", 0),
]

# lounge, day, hour: no arrivals left in that hour
FULL_HOURS = [
    ("EDI", "2026-12-18", 6),
    ("LHR-T5-SIG", "2026-12-19", 7),
    ("LHR-T5-SIG", "2026-12-19", 8),
    ("LGW-S", "2026-12-23", 5),
]

# visit, account, lounge, day, arrival, adults, children, lead, member place, passes, price,
# status
VISITS = [
    ("LV7001", "SR4001", "LHR-T3", "2026-08-02", "06:00", 2, 1, "Alice Morgan", 0, 0, 8800,
     "confirmed"),
    ("LV7005", "SR4005", "LHR-T2", "2026-12-20", "13:00", 2, 0, "Owen Hughes", 0, 0, 7000,
     "confirmed"),
    ("LV7006", "SR4006", "MAN-T2", "2026-12-16", "08:00", 1, 0, "Priya Nair", 0, 0, 3500,
     "confirmed"),
    ("LV7007", "SR4007", "EDI", "2026-12-16", "06:00", 2, 0, "Dan Foster", 0, 0, 7000,
     "confirmed"),
    ("LV7008", "SR4008", "LGW-S", "2026-12-19", "09:00", 1, 0, "Sarah Reed", 0, 0, 3500,
     "confirmed"),
    ("LV7009", "SR4009", "LHR-T5", "2026-12-20", "10:00", 1, 0, "Mark Ellis", 1, 0, 0,
     "confirmed"),
    ("LV7010", "SR4010", "LHR-T5", "2026-12-22", "14:00", 2, 0, "Fiona Clark", 0, 0, 7000,
     "confirmed"),
    ("LV7011", "SR4011", "MAN-T2", "2026-12-24", "10:00", 2, 1, "Ian Brooks", 0, 0, 8800,
     "confirmed"),
    ("LV7012", "SR4012", "LHR-T5", "2026-12-19", "07:00", 2, 0, "Chloe Adams", 0, 0, 7000,
     "confirmed"),
    ("LV7013", "SR4013", "LGW-N", "2026-12-21", "05:00", 2, 1, "Ben Carter", 0, 0, 8800,
     "confirmed"),
    ("LV7014", "SR4014", "MAN-T2-SIG", "2026-12-23", "13:00", 1, 0, "Nadia Khan", 0, 0, 6000,
     "confirmed"),
    ("LV7015", "SR4015", "LHR-T5-SIG", "2026-12-27", "11:00", 2, 0, "Paul Turner", 0, 0, 12000,
     "confirmed"),
    ("LV7016", "SR4016", "LHR-T2", "2026-12-18", "15:00", 1, 0, "Hannah Price", 0, 0, 3500,
     "confirmed"),
    ("LV7017", "SR4017", "EDI", "2026-12-19", "12:00", 2, 0, "Jack Wilson", 0, 0, 7000,
     "confirmed"),
    ("LV7018", "SR4018", "LHR-T3", "2026-12-29", "08:00", 2, 0, "Emma Scott", 0, 0, 7000,
     "confirmed"),
    ("LV7019", "SR4019", "LGW-N", "2026-12-16", "07:00", 1, 0, "George Lewis", 0, 0, 3500,
     "confirmed"),
    ("LV7020", "SR4020", "MAN-T1", "2026-12-28", "09:00", 2, 1, "Ruth Bennett", 1, 1, 1800,
     "confirmed"),
    ("LV7021", "SR4021", "LGW-S", "2026-11-02", "06:00", 1, 0, "Luke Palmer", 0, 0, 3500,
     "confirmed"),
    ("LV7022", "SR4022", "LGW-S", "2026-12-18", "05:30", 2, 0, "Harriet Cole", 1, 1, 0,
     "confirmed"),
    ("LV7023", "SR4023", "EDI", "2026-12-17", "16:00", 2, 1, "Zara Bell", 0, 0, 8800,
     "confirmed"),
    ("LV7024", "SR4024", "LHR-T3", "2026-12-28", "10:00", 1, 0, "Amir Shah", 0, 0, 3500,
     "confirmed"),
    ("LV7025", "SR4016", "LHR-T2", "2026-12-01", "09:00", 1, 0, "Hannah Price", 0, 0, 3500,
     "cancelled"),
]

# visit, kind, people, slot time, price
EXTRAS = [
    ("LV7018", "fast_track", 2, None, 1500),
    ("LV7023", "fast_track", 3, None, 2250),
    ("LV7001", "fast_track", 3, None, 2250),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO lounges VALUES (?,?,?,?,?,?)", LOUNGES)
    db.executemany("INSERT INTO full_hours VALUES (?,?,?)", FULL_HOURS)
    db.executemany("INSERT INTO visits VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", VISITS)
    db.executemany(
        "INSERT INTO extras (visit_id, kind, people, slot_time, price_pence) VALUES (?,?,?,?,?)",
        EXTRAS,
    )
