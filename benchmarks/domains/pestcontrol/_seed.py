"""Hedgerow Pest Control: schema, the fixed clock, the price list, the rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 09:00 (UK, GMT). Technicians visit in a
morning slot (08:00-12:00) or an afternoon slot (12:00-17:00), Monday to Saturday. Customers are
identified by their account number (PC and four digits) and the postcode of the property on it.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# pest: (small 1-2 bedrooms, medium 3, large 4+), hours the property must be empty, warranty days
PESTS: dict[str, tuple[tuple[int, int, int], int, int]] = {
    "mice": ((9500, 11500, 13500), 0, 90),
    "rats": ((12000, 14500, 17000), 0, 90),
    "wasps": ((6500, 6500, 6500), 0, 14),
    "ants": ((7000, 8000, 9000), 0, 30),
    "fleas": ((9000, 11000, 13000), 3, 30),
    "bedbugs": ((18000, 24000, 30000), 4, 60),
    "cockroaches": ((15000, 19000, 23000), 4, 60),
}
BANDS = ("small", "medium", "large")
INSPECTION_PENCE = 4500  # an inspection (survey) visit, any pest
SATURDAY_PENCE = 2000  # added to a paid visit on a Saturday
FREE_MOVE_DAYS = 2  # a visit moved 2+ days before it is free
MOVE_FEE_PENCE = 2500  # inside 2 days; never on the visit's day
CANCEL_FEE_PENCE = 4000  # kept from the refund when cancelled inside 2 days
SURVEY_PESTS = ("bedbugs", "cockroaches")  # a treatment needs an inspection first
SURVEY_DAYS = 30  # an inspection for that pest done in the last 30 days
SLOTS = {"AM": "morning (8am to 12pm)", "PM": "afternoon (12pm to 5pm)"}


def band(bedrooms: int) -> str:
    """The property size band: small 1-2 bedrooms, medium 3, large 4 or more."""
    if bedrooms >= 4:
        return "large"
    return "medium" if bedrooms == 3 else "small"


def price(pest: str, size: str) -> int:
    return PESTS[pest][0][BANDS.index(size)]


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- PC2001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    bedrooms INTEGER NOT NULL,
    key_code TEXT NOT NULL DEFAULT ''         -- the key safe's code, for the technician
);
CREATE TABLE visits (
    job_id TEXT PRIMARY KEY,                  -- JB7001
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    kind TEXT NOT NULL,                       -- inspection / treatment / revisit
    pest TEXT NOT NULL DEFAULT '',            -- '' for an inspection of an unknown pest
    visit_date TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- AM / PM
    price_pence INTEGER NOT NULL,             -- what was paid at booking
    vacate_hours INTEGER NOT NULL DEFAULT 0,
    revisit_of TEXT,                          -- the treatment a warranty revisit is for
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / done / cancelled
);
CREATE TABLE full_slots (
    visit_date TEXT NOT NULL,
    slot TEXT NOT NULL,
    PRIMARY KEY (visit_date, slot)
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / change_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, card, address, postcode, bedrooms, key code; emails and phones follow
# (PC2014: 07700 900614)
PEOPLE = [
    ("PC2001", "Alice Brennan", "4417", "12 Elm Road, Leeds", "LS6 1AA", 3, ""),
    ("PC2002", "Ravi Mehta", "2290", "Flat 4, 9 Kirkstall Lane, Leeds", "LS5 3BE", 2, ""),
    ("PC2003", "Julia Stone", "8823", "7 Oakwood Drive, Leeds", "LS8 2JU", 4, ""),
    ("PC2004", "Colin Ashby", "6610", "31 Mill Street, Otley", "LS21 1EF", 3, ""),
    ("PC2005", "Dev Anand", "3051", "Flat 12, Calls Wharf, Leeds", "LS2 7EH", 1, "0550"),
    ("PC2006", "Priya Nair", "7702", "5 Beech Grove, Leeds", "LS6 4LH", 3, ""),
    ("PC2007", "Dan Whitaker", "1189", "22 Harehills Avenue, Leeds", "LS8 4EX", 2, ""),
    ("PC2008", "Sarah Lomax", "5534", "3 Church Walk, Horsforth", "LS18 5NT", 3, ""),
    ("PC2009", "Mark Ingham", "9046", "48 Station Road, Garforth", "LS25 1PY", 2, ""),
    ("PC2010", "Fiona Grey", "2718", "9 Park View, Pudsey", "LS28 7RD", 3, ""),
    ("PC2011", "Ian Moss", "6284", "The Old Barn, Bramham", "LS23 6QA", 4, ""),
    ("PC2012", "Chloe Ward", "3141", "16 Meadow Close, Wetherby", "LS22 6DL", 3, ""),
    ("PC2013", "Ben Ortiz", "8080", "Flat 2, 40 Hyde Park Road, Leeds", "LS6 1PY", 3, ""),
    ("PC2014", "Nadia Rossi", "4242", "11 Hill Top, Rothwell", "LS26 0AB", 2, ""),
    ("PC2015", "Paul Adams", "5150", "27 Ash Road, Leeds", "LS6 3HB", 3, ""),
    ("PC2016", "Hannah Webb", "6006", "2 Rose Cottages, Boston Spa", "LS23 6AX", 2, "1209"),
    ("PC2017", "Jack Turner", "7117", "61 Green Lane, Yeadon", "LS19 7BN", 3, ""),
    ("PC2018", "Marcus Reid", "1212", "Flat 5, Cedar Court, Leeds", "LS7 3QT", 2, "8800"),
    ("PC2019", "Emma Clarke", "3434", "14 Victoria Terrace, Leeds", "LS3 1BX", 3, ""),
    ("PC2020", "Ruth Cole", "5656", "8 Fern Bank, Morley", "LS27 9HQ", 2, ""),
    ("PC2021", "Luke Perry", "7878", "19 Grange Road, Leeds", "LS10 3LP", 3, ""),
    ("PC2022", "Amir Khan", "9090", "5 Orchard Way, Ilkley", "LS29 8SF", 4, ""),
    ("PC2023", "Zara Bell", "1357", "Flat 1, 3 Chapel Street, Leeds", "LS12 2AR", 1, ""),
]
CUSTOMERS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(a[-2:])}", card,
     addr, pc, beds, code)
    for a, n, card, addr, pc, beds, code in PEOPLE
]  # fmt: skip

# job, account, kind, pest, date, slot, price, vacate hours, revisit of, status
VISITS = [
    ("JB7001", "PC2005", "inspection", "cockroaches", "2026-12-01", "AM", 4500, 0, None, "done"),
    ("JB7002", "PC2006", "treatment", "mice", "2026-10-30", "AM", 11500, 0, None, "done"),
    ("JB7003", "PC2007", "treatment", "fleas", "2026-10-24", "PM", 9000, 3, None, "done"),
    ("JB7004", "PC2008", "treatment", "mice", "2026-12-15", "AM", 11500, 0, None, "booked"),
    ("JB7005", "PC2009", "treatment", "ants", "2026-12-10", "PM", 7000, 0, None, "booked"),
    ("JB7006", "PC2010", "treatment", "wasps", "2026-12-10", "AM", 6500, 0, None, "booked"),
    ("JB7007", "PC2011", "treatment", "rats", "2026-12-09", "PM", 17000, 0, None, "booked"),
    ("JB7008", "PC2012", "treatment", "rats", "2026-12-15", "AM", 14500, 0, None, "booked"),
    ("JB7009", "PC2013", "treatment", "fleas", "2026-12-10", "AM", 11000, 3, None, "booked"),
    ("JB7010", "PC2015", "inspection", "bedbugs", "2026-12-02", "PM", 4500, 0, None, "done"),
    ("JB7011", "PC2015", "treatment", "bedbugs", "2026-12-11", "AM", 24000, 4, None, "booked"),
    ("JB7012", "PC2018", "treatment", "mice", "2026-12-17", "AM", 9500, 0, None, "booked"),
    ("JB7013", "PC2020", "treatment", "mice", "2026-12-15", "AM", 9500, 0, None, "booked"),
    ("JB7014", "PC2021", "treatment", "rats", "2026-12-14", "PM", 14500, 0, None, "booked"),
    ("JB7015", "PC2014", "treatment", "wasps", "2026-08-20", "AM", 6500, 0, None, "done"),
    ("JB7016", "PC2022", "treatment", "ants", "2026-11-30", "PM", 9000, 0, None, "done"),
    ("JB7017", "PC2023", "treatment", "fleas", "2026-11-27", "AM", 9000, 3, None, "done"),
    ("JB7018", "PC2016", "treatment", "mice", "2026-12-17", "PM", 9500, 0, None, "booked"),
]

# slots with no technician left
FULL_SLOTS = [("2026-12-18", "AM"), ("2026-12-16", "AM"), ("2026-12-10", "AM")]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO visits VALUES (?,?,?,?,?,?,?,?,?,?)", VISITS)
    db.executemany("INSERT INTO full_slots VALUES (?,?)", FULL_SLOTS)
