"""Brookmere Water: schema, the fixed clock, charges, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Customers are identified
by their account number (BW and four digits) and the postcode on the account (where the bills
go). Meter readings are whole cubic metres (m3); money is in pence.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

WATER_PENCE = 180  # clean water, per m3
WASTE_PENCE = 210  # wastewater (sewerage), per m3; not for homes on a septic tank
MIN_PLAN_MONTHS, MAX_PLAN_MONTHS = 2, 12  # a payment plan clears the balance in 2-12 months
FIRST_PAY_DAY, LAST_PAY_DAY = 1, 28  # direct debits are taken on the 1st to the 28th
MOVE_BACK_DAYS = 28  # a move in or out can be recorded up to 28 days after the day
LEAK_EVERY_DAYS = 5 * 365  # one leak allowance per account in five years
# needs on the Priority Services Register that get bottled water brought to the door
BOTTLED_WATER_NEEDS = {"dialysis", "mobility"}
NEEDS = ("dialysis", "mobility", "sight", "hearing")


def unit_rate(sewer: int | bool) -> int:
    """Pence per m3: clean water, plus wastewater when the home is on the public sewer."""
    return WATER_PENCE + (WASTE_PENCE if sewer else 0)


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- BW3001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    postcode TEXT NOT NULL,                   -- where the bills go: the identity check
    property_id TEXT,                         -- the home supplied now (NULL after a move out)
    balance_pence INTEGER NOT NULL DEFAULT 0, -- owed; negative is in credit
    payment_day INTEGER                       -- direct debit day of the month; NULL pays by card
);
CREATE TABLE properties (
    property_id TEXT PRIMARY KEY,             -- PR01
    address TEXT NOT NULL,
    postcode TEXT NOT NULL UNIQUE,
    sewer INTEGER NOT NULL,                   -- 1: on the public sewer; 0: septic tank
    account_id TEXT                           -- the occupier's account; NULL when empty
);
CREATE TABLE readings (
    reading_id INTEGER PRIMARY KEY,
    property_id TEXT NOT NULL,
    read_on TEXT NOT NULL,
    reading INTEGER NOT NULL,                 -- m3 on the meter
    source TEXT NOT NULL                      -- meter_reader / customer / move_in / move_out
);
CREATE TABLE bills (
    bill_id TEXT PRIMARY KEY,                 -- BL7009
    account_id TEXT NOT NULL,
    property_id TEXT NOT NULL,
    period_from TEXT NOT NULL,
    period_to TEXT NOT NULL,
    usage_m3 INTEGER NOT NULL,
    usual_m3 INTEGER NOT NULL,                -- the same period's use a year before
    amount_pence INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT 'regular'      -- regular / final
);
CREATE TABLE plans (
    plan_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    months INTEGER NOT NULL,
    instalment_pence INTEGER NOT NULL,
    payment_day INTEGER NOT NULL,
    total_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',    -- active / replaced
    created_at TEXT NOT NULL
);
CREATE TABLE allowances (
    allowance_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    bill_id TEXT NOT NULL,
    leak_place TEXT NOT NULL,                 -- supply_pipe / internal
    repaired_on TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    granted_on TEXT NOT NULL
);
CREATE TABLE moves (
    move_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    property_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- in / out
    move_date TEXT NOT NULL,
    reading INTEGER NOT NULL
);
CREATE TABLE priority (
    account_id TEXT PRIMARY KEY,
    needs TEXT NOT NULL,                      -- "hearing,mobility" (sorted)
    bottled_water INTEGER NOT NULL,           -- brought to the door in a supply interruption
    registered_on TEXT NOT NULL
);
"""

# fmt: off
# account, name, postcode, address, sewer, last reading, read on, balance, payment day;
# each home is PR and the account's last two digits; BW3015 and BW3016 have moved out
# already; BW3024 has left 40 Marsh Lane but has not told us yet
PEOPLE = [
    ("BW3001", "Helen Marsh", "BM1 2AB", "12 Orchard Way", 1, 1240, "2026-09-10", 0, 1),
    ("BW3002", "Colin Reed", "BM1 3CD", "5 Mill Lane", 1, 875, "2026-09-15", 0, 8),
    ("BW3003", "Margaret Doyle", "BM4 6EF", "Hollins Farm", 0, 2310, "2026-09-01", 0, None),
    ("BW3004", "Dev Anand", "BM2 1GH", "41 Quarry Street", 1, 688, "2026-11-20", 0, 15),
    ("BW3005", "Laura Bennett", "BM1 4JK", "8 Ash Grove", 1, 1502, "2026-10-02", 31260, None),
    ("BW3006", "Gary Holt", "BM3 2LM", "17 Ferry Road", 1, 3310, "2026-10-05", 54000, 10),
    ("BW3007", "Priya Nair", "BM2 5NP", "3 Canal Side", 1, 954, "2026-10-12", 0, 1),
    ("BW3008", "Sam Okoro", "BM1 6QR", "29 Kings Road", 1, 1876, "2026-10-20", 0, 5),
    ("BW3009", "Rachel Kemp", "BM3 7ST", "6 Beech Close", 1, 2040, "2026-11-30", 70200, 20),
    ("BW3010", "Tom Briggs", "BM2 8UV", "14 Park Avenue", 1, 1690, "2026-11-30", 42900, 3),
    ("BW3011", "Joan Pike", "BM4 9WX", "Lane End Cottage", 0, 1215, "2026-11-30", 17100, None),
    ("BW3012", "Neil Shaw", "BM3 1YZ", "2 Heron Drive", 1, 2630, "2026-11-30", 58500, 25),
    ("BW3013", "Olivia Grant", "BM1 5AD", "7 Station Road", 1, 450, "2026-10-01", 0, 7),
    ("BW3014", "Hugh Baird", "BM2 3BE", "10 Chapel Row", 1, 1333, "2026-10-08", 0, 18),
    ("BW3015", "Ravi Patel", "BM1 7CF", "21 Lime Street", 1, 780, "2026-11-02", 0, 9),
    ("BW3016", "Kate Lowe", "BM2 6DG", "4 Rope Walk", 1, 1120, "2026-10-14", 0, 11),
    ("BW3017", "Ben Carter", "BM1 8LM", "22 High Street", 1, 1700, "2026-10-15", 0, 14),
    ("BW3018", "Irene Walsh", "BM3 4EH", "9 Abbey Mews", 1, 640, "2026-10-22", 0, 2),
    ("BW3019", "Frank Moore", "BM2 9FJ", "33 Tower Hill", 1, 2210, "2026-09-28", 0, 16),
    ("BW3020", "Edith Clarke", "BM1 9GK", "1 Church Lane", 1, 905, "2026-10-30", 0, 21),
    ("BW3021", "Mo Hassan", "BM3 6HL", "56 Bridge Street", 1, 1444, "2026-11-06", 8640, 12),
    ("BW3022", "Joyce Adeyemi", "BM2 2JM", "18 Well Street", 1, 1789, "2026-11-10", 15725, 27),
    ("BW3023", "Alan Price", "BM4 3KN", "The Old Forge", 1, 3280, "2026-09-20", 0, 19),
    ("BW3024", "Pat Lyons", "BM4 1PQ", "40 Marsh Lane", 0, 2201, "2026-10-01", 4410, 6),
]
# empty homes in the supply area: property, address, postcode, sewer, last reading, read on
EMPTY = [
    ("PR30", "3 Willow Court", "BM3 5JK", 1, 5, "2026-11-30"),
    ("PR31", "9 Church Road", "BM2 7QT", 1, 10, "2026-11-25"),
]
MOVED_OUT = {"BW3015", "BW3016"}  # their last home is empty now

# bill, account, from, to, use, usual use, amount (the high bills leak claims are about)
BILLS = [
    ("BL7009", "BW3009", "2026-06-01", "2026-11-30", 180, 60, 70200),
    ("BL7010", "BW3010", "2026-06-01", "2026-11-30", 110, 50, 42900),
    ("BL7011", "BW3011", "2026-06-01", "2026-11-30", 95, 40, 17100),
    ("BL6012", "BW3012", "2023-06-01", "2023-11-30", 130, 70, 50700),
    ("BL7012", "BW3012", "2026-06-01", "2026-11-30", 150, 70, 58500),
]
# an allowance already given: account, bill, place, repaired, amount, granted
ALLOWANCES = [("BW3012", "BL6012", "supply_pipe", "2024-01-20", 23400, "2024-03-10")]
PRIORITY = [("BW3020", "hearing", 0, "2025-04-02")]
# fmt: on


def property_id(account_id: str) -> str:
    return "PR" + account_id[-2:]


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    for acc, name, postcode, address, sewer, last, read_on, balance, day in PEOPLE:
        pid = property_id(acc)
        home = None if acc in MOVED_OUT else pid
        email = name.lower().replace(" ", ".") + "@example.com"
        db.execute(
            "INSERT INTO customers VALUES (?,?,?,?,?,?,?)",
            (acc, name, email, postcode, home, balance, day),
        )
        occupier = None if home is None else acc
        db.execute(
            "INSERT INTO properties VALUES (?,?,?,?,?)", (pid, address, postcode, sewer, occupier)
        )
        db.execute(
            "INSERT INTO readings (property_id, read_on, reading, source) VALUES (?,?,?,?)",
            (pid, read_on, last, "meter_reader"),
        )
    for pid, address, postcode, sewer, last, read_on in EMPTY:
        db.execute(
            "INSERT INTO properties VALUES (?,?,?,?,?)", (pid, address, postcode, sewer, None)
        )
        db.execute(
            "INSERT INTO readings (property_id, read_on, reading, source) VALUES (?,?,?,?)",
            (pid, read_on, last, "meter_reader"),
        )
    for bill, acc, start, end, use, usual, amount in BILLS:
        db.execute(
            "INSERT INTO bills (bill_id, account_id, property_id, period_from, period_to, "
            "usage_m3, usual_m3, amount_pence) VALUES (?,?,?,?,?,?,?,?)",
            (bill, acc, property_id(acc), start, end, use, usual, amount),
        )
    db.executemany(
        "INSERT INTO allowances (account_id, bill_id, leak_place, repaired_on, amount_pence, "
        "granted_on) VALUES (?,?,?,?,?,?)",
        ALLOWANCES,
    )
    db.executemany("INSERT INTO priority VALUES (?,?,?,?)", PRIORITY)
