"""Harbour Row Lettings: schema, the fixed clock, fees, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 10:00 (UK, GMT). Tenants are identified
by their tenancy reference (HRL- and four digits) and the postcode of the property they rent.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# repairs: emergency within 24 hours; urgent and routine within working days
EMERGENCY_HOURS = 24
URGENT_WORKING_DAYS = 3
ROUTINE_WORKING_DAYS = 20
# England's bank holidays around the clock's date (25 December is a Friday, so Boxing Day's
# holiday is Monday 28 December)
BANK_HOLIDAYS = {
    date(2026, 12, 25),
    date(2026, 12, 28),
    date(2027, 1, 1),
    date(2027, 4, 2),
    date(2027, 4, 5),
}
RENT_DAY_FIRST, RENT_DAY_LAST = 1, 28  # rent can be collected on any day 1-28
RENT_DAY_GAP_DAYS = 365  # at most one rent-day change in 12 months
RENT_DAY_LEAD_DAYS = 10  # the first payment on a new day is at least 10 days away
PET_RENT_PENCE = 2500  # a month, for each permitted pet
MAX_PETS = 2
OCCUPIER_FEE_PENCE = 5000  # a tenancy variation: capped by law at £50
PHONE = "0117 496 0550"

SCHEMA_SQL = """
CREATE TABLE tenancies (
    tenancy_ref TEXT PRIMARY KEY,              -- HRL-1001
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,                    -- "BS1 4DQ"
    kind TEXT NOT NULL,                        -- periodic (monthly) / fixed
    fixed_end TEXT,                            -- last day of a fixed term
    rent_pence INTEGER NOT NULL,               -- a month, pet rent included
    rent_day INTEGER NOT NULL,                 -- day of the month rent is collected
    rent_day_changed_on TEXT,                  -- the last change of rent day
    first_payment_on TEXT,                     -- first payment on a changed day
    started_on TEXT NOT NULL,
    occupier_consent INTEGER NOT NULL DEFAULT 0, -- the landlord's written consent on file
    status TEXT NOT NULL DEFAULT 'active'      -- active / notice_given
);
CREATE TABLE tenants (
    tenant_id TEXT PRIMARY KEY,                -- T101
    tenancy_ref TEXT NOT NULL REFERENCES tenancies(tenancy_ref),
    name TEXT NOT NULL,
    lead INTEGER NOT NULL DEFAULT 0,           -- the lead tenant
    phone TEXT NOT NULL,
    email TEXT NOT NULL
);
CREATE TABLE deposits (
    tenancy_ref TEXT PRIMARY KEY,
    scheme TEXT NOT NULL,
    scheme_ref TEXT NOT NULL,
    amount_pence INTEGER NOT NULL
);
CREATE TABLE pets (
    pet_id INTEGER PRIMARY KEY,
    tenancy_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                        -- cat / dog / rabbit / ...
    status TEXT NOT NULL,                      -- permitted / awaiting_consent
    pet_rent_pence INTEGER NOT NULL,
    requested_on TEXT NOT NULL
);
CREATE TABLE occupiers (
    occupier_id INTEGER PRIMARY KEY,
    tenancy_ref TEXT NOT NULL,
    name TEXT NOT NULL,
    added_on TEXT NOT NULL
);
CREATE TABLE repairs (
    repair_id TEXT PRIMARY KEY,                -- R7001
    tenancy_ref TEXT NOT NULL,
    issue TEXT NOT NULL,
    category TEXT NOT NULL,
    priority TEXT NOT NULL,                    -- emergency / urgent / routine
    attend_by TEXT NOT NULL,                   -- "YYYY-MM-DD HH:MM" (emergency) or YYYY-MM-DD
    reported_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
CREATE TABLE notices (
    notice_id INTEGER PRIMARY KEY,
    tenancy_ref TEXT NOT NULL,
    end_date TEXT NOT NULL,
    given_on TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    tenancy_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                        -- variation_fee
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# tenancy: address, postcode
PLACES = {
    "HRL-1001": ("Flat 2, 14 Quay Street", "BS1 4DQ"),
    "HRL-1002": ("7 Cumberland Row", "BS1 6BX"),
    "HRL-1003": ("Flat 5, 3 Redcliff Mews", "BS1 6RA"),
    "HRL-1004": ("22 Coronation Road", "BS3 1QP"),
    "HRL-1005": ("41 Greville Road", "BS3 1LL"),
    "HRL-1006": ("Flat 1, 9 Dean Lane", "BS3 1BS"),
    "HRL-1007": ("15 Stackpool Road", "BS3 1NH"),
    "HRL-1008": ("Flat 3, 60 North Street", "BS3 1HJ"),
    "HRL-1009": ("8 Mina Road", "BS2 9TL"),
    "HRL-1010": ("Flat 4, 27 Picton Street", "BS6 5PZ"),
    "HRL-1011": ("19 Hillgrove Street", "BS2 8JT"),
    "HRL-1012": ("3 Chessel Street", "BS3 3DN"),
    "HRL-1013": ("Flat 6, 88 Whiteladies Road", "BS8 2QN"),
    "HRL-1014": ("52 Raleigh Road", "BS3 1QR"),
    "HRL-1015": ("Flat 2, 11 Cotham Hill", "BS6 6LA"),
    "HRL-1016": ("30 Ashley Road", "BS6 5NR"),
    "HRL-1017": ("12 Sefton Park Road", "BS7 9AL"),
    "HRL-1018": ("Flat 7, 5 Wapping Road", "BS1 4RW"),
    "HRL-1019": ("66 Brynland Avenue", "BS7 9DU"),
    "HRL-1020": ("9 Windmill Close", "BS3 4DS"),
    "HRL-1021": ("Flat 1, 40 Gloucester Road", "BS7 8AE"),
    "HRL-1022": ("17 Ashton Vale Road", "BS3 2HN"),
    "HRL-1023": ("Flat 8, 2 Princes Wharf", "BS1 4RN"),
}
# tenancy, kind, fixed end, rent, rent day, day changed on, started, occupier consent
TERMS = [
    ("HRL-1001", "periodic", None, 92500, 1, None, "2023-03-01", 0),
    ("HRL-1002", "periodic", None, 110000, 10, None, "2022-08-10", 0),
    ("HRL-1003", "periodic", None, 98000, 1, None, "2024-02-01", 0),
    ("HRL-1004", "periodic", None, 145000, 18, None, "2023-09-18", 0),
    ("HRL-1005", "periodic", None, 130000, 6, None, "2021-06-06", 0),
    ("HRL-1006", "periodic", None, 87500, 5, "2026-07-01", "2022-04-05", 0),
    ("HRL-1007", "periodic", None, 120000, 22, None, "2024-05-22", 0),
    ("HRL-1008", "periodic", None, 95000, 3, None, "2025-01-03", 0),
    ("HRL-1009", "periodic", None, 105000, 14, None, "2023-11-14", 0),
    ("HRL-1010", "periodic", None, 90000, 9, None, "2024-09-09", 0),
    ("HRL-1011", "periodic", None, 99000, 27, None, "2025-03-27", 0),
    ("HRL-1012", "periodic", None, 115000, 2, None, "2022-12-02", 0),
    ("HRL-1013", "periodic", None, 125000, 15, None, "2023-06-15", 0),
    ("HRL-1014", "periodic", None, 118000, 20, None, "2024-10-20", 0),
    ("HRL-1015", "periodic", None, 97500, 15, None, "2023-01-15", 0),
    ("HRL-1016", "fixed", "2027-06-30", 135000, 1, None, "2026-07-01", 0),
    ("HRL-1017", "periodic", None, 160000, 25, None, "2021-08-25", 1),
    ("HRL-1018", "periodic", None, 102000, 8, None, "2024-04-08", 0),
    ("HRL-1019", "periodic", None, 128000, 12, None, "2022-02-12", 0),
    ("HRL-1020", "periodic", None, 112500, 16, None, "2023-07-16", 1),
    ("HRL-1021", "periodic", None, 89000, 4, None, "2025-05-04", 0),
    ("HRL-1022", "periodic", None, 95000, 12, None, "2024-01-12", 0),
    ("HRL-1023", "periodic", None, 140000, 28, None, "2025-08-28", 0),
]
TENANCIES = [(t[0], *PLACES[t[0]], *t[1:]) for t in TERMS]

# tenant, tenancy, name, lead; the phone and email follow from them
PEOPLE = [
    ("T101", "HRL-1001", "Hannah Price", 1),
    ("T102", "HRL-1002", "Owen Carter", 1),
    ("T103", "HRL-1003", "Priya Nair", 1),
    ("T104", "HRL-1004", "Tom Reid", 1),
    ("T124", "HRL-1004", "Sophie Lang", 0),
    ("T105", "HRL-1005", "Gareth Lloyd", 1),
    ("T106", "HRL-1006", "Chloe Bennett", 1),
    ("T107", "HRL-1007", "Marcus Hill", 1),
    ("T108", "HRL-1008", "Aisha Khan", 1),
    ("T109", "HRL-1009", "Ruth Allen", 1),
    ("T110", "HRL-1010", "Ben Walsh", 1),
    ("T111", "HRL-1011", "Nina Patel", 1),
    ("T112", "HRL-1012", "Sam Hughes", 1),
    ("T113", "HRL-1013", "Grace Obi", 1),
    ("T114", "HRL-1014", "Leo Martin", 1),
    ("T115", "HRL-1015", "Ella Moore", 1),
    ("T116", "HRL-1016", "Kieran Doyle", 1),
    ("T117", "HRL-1017", "Fatima Ali", 1),
    ("T127", "HRL-1017", "Omar Ali", 0),
    ("T118", "HRL-1018", "Lucy Evans", 1),
    ("T119", "HRL-1019", "Dan Brooks", 1),
    ("T120", "HRL-1020", "Megan Shaw", 1),
    ("T121", "HRL-1021", "Peter Young", 1),
    ("T122", "HRL-1022", "Zoe Clarke", 1),
    ("T123", "HRL-1023", "Adam Fox", 1),
]
TENANTS = [
    (t, ref, name, lead, f"07700 900{100 + int(t[1:]) - 100:03d}",
     name.lower().replace(" ", ".") + "@example.com")
    for t, ref, name, lead in PEOPLE
]

# tenancy, scheme, scheme reference, amount
DEPOSITS = [
    (t[0], ("Deposit Protection Service", "mydeposits", "Tenancy Deposit Scheme")[i % 3],
     ("DPS-", "MYD-", "TDS-")[i % 3] + f"{483100 + 37 * i:07d}", t[5] * 12 * 5 // 52 // 100 * 100)
    for i, t in enumerate(TENANCIES)
]

# tenancy, kind, status, pet rent, requested on
PETS = [
    ("HRL-1005", "dog", "permitted", 2500, "2021-09-01"),
    ("HRL-1005", "cat", "permitted", 2500, "2023-03-14"),
    ("HRL-1019", "dog", "permitted", 2500, "2022-05-20"),
]

# repair, tenancy, issue, category, priority, attend by, reported at, status
REPAIRS = [
    ("R7001", "HRL-1022", "Kitchen extractor fan not working", "extractor fan", "urgent",
     "2026-12-10", "2026-12-07 09:15", "open"),
    ("R7002", "HRL-1002", "Garden gate latch broken", "gate", "routine", "2026-11-20",
     "2026-10-23 14:00", "done"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany(
        "INSERT INTO tenancies (tenancy_ref, address, postcode, kind, fixed_end, rent_pence, "
        "rent_day, rent_day_changed_on, started_on, occupier_consent) VALUES (?,?,?,?,?,?,?,?,?,?)",
        TENANCIES,
    )
    db.executemany("INSERT INTO tenants VALUES (?,?,?,?,?,?)", TENANTS)
    db.executemany("INSERT INTO deposits VALUES (?,?,?,?)", DEPOSITS)
    db.executemany(
        "INSERT INTO pets (tenancy_ref, kind, status, pet_rent_pence, requested_on) "
        "VALUES (?,?,?,?,?)",
        PETS,
    )
    db.executemany("INSERT INTO repairs VALUES (?,?,?,?,?,?,?,?)", REPAIRS)
