"""Hirewell Tool Hire: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 10:00 (UK, GMT). A hire runs from its
first day to its last day, both counted; the item goes back by 17:00 on the last day. The depot
is open every day but 25 and 26 December and 1 January. Customers are identified by their
account number (HW and four digits) and the surname on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

WEEK_DAYS = 4  # a whole week (7 days in a row) is charged as 4 days
TRADE_PERCENT = 15  # off the hire only: never off deposits, the waiver's own rate or fees
WAIVER_PERCENT = 10  # the damage waiver: 10% of the hire charged
# delivery and collection, one fee for both, by the miles from the depot to the address
DELIVERY_BANDS = ((5, 1500), (10, 2500), (15, 3500))
MAX_DELIVERY_MILES = 15
RETURN_BY = "17:00"
CLOSED = {date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}


def charged_days(first: date, last: date) -> int:
    """Days charged for a hire from `first` to `last`, both counted.

    Each whole week (7 days in a row from the first day) counts as 4 days; of the days left
    over, a Saturday and the Sunday after it count as one day together.
    """
    days = (last - first).days + 1
    weeks, rest = divmod(days, 7)
    tail = [first + timedelta(days=7 * weeks + i) for i in range(rest)]
    weekend = any(d.weekday() == 5 and d + timedelta(days=1) in tail for d in tail)
    return WEEK_DAYS * weeks + rest - (1 if weekend else 0)


def delivery_fee(miles: float) -> int | None:
    """The delivery-and-collection fee for an address `miles` away; None beyond 15 miles."""
    for limit, pence in DELIVERY_BANDS:
        if miles <= limit:
            return pence
    return None


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- HW3001
    name TEXT NOT NULL,
    surname TEXT NOT NULL,
    company TEXT,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    miles REAL NOT NULL,                      -- from the depot to the address
    trade INTEGER NOT NULL DEFAULT 0,         -- a trade account: 15% off hire
    card_last4 TEXT NOT NULL
);
CREATE TABLE items (
    item_code TEXT PRIMARY KEY,               -- MIX
    name TEXT NOT NULL,
    day_pence INTEGER NOT NULL,
    deposit_pence INTEGER NOT NULL,           -- refundable, per item
    needs TEXT                                -- a safety item hired with it (TWR needs HRN)
);
CREATE TABLE units (
    unit_id TEXT PRIMARY KEY,                 -- MIX-1
    item_code TEXT NOT NULL REFERENCES items(item_code)
);
CREATE TABLE hires (
    hire_id TEXT PRIMARY KEY,                 -- HR5001
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,                   -- due back by 17:00
    hire_pence INTEGER NOT NULL,              -- what the hire cost, after any trade discount
    deposit_pence INTEGER NOT NULL,
    waiver_pence INTEGER NOT NULL DEFAULT 0,
    delivery_fee_pence INTEGER NOT NULL DEFAULT 0,
    late_return_on TEXT,                      -- an overdue hire: the day it will come back
    late_fee_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / returned / cancelled
);
CREATE TABLE hire_lines (
    line_id INTEGER PRIMARY KEY,
    hire_id TEXT NOT NULL REFERENCES hires(hire_id),
    account_id TEXT NOT NULL,
    item_code TEXT NOT NULL,
    unit_id TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    hire_id TEXT NOT NULL,
    kind TEXT NOT NULL,        -- hire / deposit / waiver / delivery / extension / late_fee / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# item, name, a day, deposit, the safety item it needs, units
ITEMS = [
    ("MIX", "cement mixer", 2400, 5000, None, 2),
    ("BRK", "breaker", 3800, 10000, None, 2),
    ("TWR", "scaffold tower", 4500, 15000, "HRN", 2),
    ("HRN", "safety harness", 600, 2000, None, 4),
    ("SND", "floor sander", 3600, 10000, None, 1),
    ("CUT", "disc cutter", 2800, 8000, None, 2),
    ("DHM", "dehumidifier", 1600, 5000, None, 3),
    ("WPS", "wallpaper stripper", 1400, 3000, None, 2),
    ("CRP", "carpet cleaner", 2200, 5000, None, 2),
    ("LAD", "combination ladder", 1200, 4000, None, 3),
    ("PWR", "pressure washer", 2600, 6000, None, 2),
    ("GEN", "generator", 4000, 15000, None, 2),
    ("HDG", "hedge trimmer", 1800, 4000, None, 2),
    ("TIL", "tile cutter", 2000, 5000, None, 2),
    ("ROT", "rotavator", 4200, 10000, None, 1),
]

# account, name, company, address, miles, trade, card; emails and phones follow from them
PEOPLE = [
    ("HW3001", "Alice Morgan", None, "3 Elm Close, Hadley", 2.5, 0, "4417"),
    ("HW3002", "Ben Carter", None, "18 Station Road, Hadley", 1.2, 0, "2290"),
    ("HW3003", "Chloe Dunn", None, "7 Orchard Way, Pelham", 6.0, 0, "8823"),
    ("HW3004", "Dev Sharma", None, "41 Quarry Lane, Hadley", 3.4, 0, "6610"),
    ("HW3005", "Ellie Foster", None, "9 Bell Street, Wickby", 7.5, 0, "3051"),
    ("HW3006", "Gary Fraser", "Fraser Building Ltd", "Unit 4, Canal Yard, Pelham", 8.0, 1,
     "7702"),
    ("HW3007", "Hannah Ives", None, "22 Park Avenue, Hadley", 3.0, 0, "1189"),
    ("HW3008", "Ian Jacobs", None, "5 Mill Road, Wickby", 9.5, 0, "5534"),
    ("HW3009", "Jack Kemp", None, "60 High Street, Hadley", 0.8, 0, "9046"),
    ("HW3010", "Kate Lowe", None, "12 Rowan Drive, Pelham", 5.5, 0, "2718"),
    ("HW3011", "Liam Marsh", None, "31 Chapel Street, Hadley", 1.9, 0, "6284"),
    ("HW3012", "Megan Nash", None, "2 Green Lane, Hadley", 4.0, 0, "3141"),
    ("HW3013", "Nick Owen", None, "Longbridge Farm, Ashcombe", 18.0, 0, "8080"),
    ("HW3014", "Olivia Patel", "Patel Interiors", "14 Market Row, Wickby", 11.0, 1, "4242"),
    ("HW3015", "Pete Quinn", None, "8 Willow Court, Pelham", 6.5, 0, "5150"),
    ("HW3016", "Rosa Reid", None, "27 Brook Street, Pelham", 6.0, 0, "6006"),
    ("HW3017", "Grace Holt", None, "14 Mill Lane, Wickby", 12.0, 0, "7117"),
    ("HW3018", "Sam Turner", None, "50 Oak Road, Hadley", 2.2, 0, "1212"),
    ("HW3019", "Tara Upton", None, "6 Hill Rise, Pelham", 5.0, 0, "3434"),
    ("HW3020", "Umar Vance", None, "19 Kings Road, Hadley", 3.8, 0, "5656"),
    ("HW3021", "Vicky Walsh", None, "4 Fox Lane, Wickby", 9.0, 0, "7878"),
    ("HW3022", "Will Young", None, "73 Church Street, Hadley", 1.5, 0, "9090"),
    ("HW3023", "Mark Doyle", None, "11 Cedar Grove, Pelham", 7.0, 0, "1357"),
    ("HW3024", "Zoe Adams", None, "38 Victoria Road, Hadley", 2.8, 0, "2468"),
    ("HW3025", "Adam Bell", None, "15 School Lane, Wickby", 8.8, 0, "3690"),
]
CUSTOMERS = [
    (a, n, n.split()[-1], co, n.lower().replace(" ", ".") + "@example.com",
     f"07700 900{100 + int(a[-2:]):03d}", addr, miles, trade, card)
    for a, n, co, addr, miles, trade, card in PEOPLE
]  # fmt: skip

# hire, account, first day, last day, hire, deposit, waiver, delivery, status, lines (item, unit)
HIRES = [
    ("HR5001", "HW3001", "2026-12-14", "2026-12-16", 8400, 8000, 0, 0, "booked",
     [("CUT", "CUT-1")]),
    ("HR5003", "HW3003", "2026-12-07", "2026-12-11", 12000, 5000, 0, 0, "booked",
     [("MIX", "MIX-1")]),
    ("HR5004", "HW3004", "2026-12-10", "2026-12-11", 2400, 4000, 0, 0, "booked",
     [("LAD", "LAD-1")]),
    ("HR5007", "HW3007", "2026-12-07", "2026-12-16", 11200, 5000, 0, 0, "booked",
     [("DHM", "DHM-1")]),
    ("HR5008", "HW3007", "2026-12-14", "2026-12-15", 4400, 5000, 0, 0, "booked",
     [("CRP", "CRP-1")]),
    ("HR5009", "HW3008", "2026-12-07", "2026-12-10", 14400, 10000, 0, 0, "booked",
     [("SND", "SND-1")]),
    ("HR5010", "HW3010", "2026-12-11", "2026-12-18", 18000, 10000, 0, 0, "booked",
     [("SND", "SND-1")]),
    ("HR5013", "HW3013", "2026-12-14", "2026-12-15", 8000, 15000, 0, 0, "booked",
     [("GEN", "GEN-1")]),
    ("HR5015", "HW3015", "2026-12-14", "2026-12-15", 7600, 10000, 0, 0, "booked",
     [("BRK", "BRK-1")]),
    ("HR5016", "HW3016", "2026-12-17", "2026-12-18", 4400, 5000, 440, 2500, "booked",
     [("CRP", "CRP-2")]),
    ("HR5017", "HW3017", "2026-12-07", "2026-12-18", 45900, 17000, 0, 3500, "booked",
     [("TWR", "TWR-1"), ("HRN", "HRN-1")]),
    ("HR5018", "HW3018", "2026-12-03", "2026-12-07", 7200, 4000, 0, 0, "booked",
     [("HDG", "HDG-1")]),
    ("HR5019", "HW3019", "2026-12-08", "2026-12-11", 8000, 5000, 0, 0, "booked",
     [("TIL", "TIL-1")]),
    ("HR5020", "HW3020", "2026-11-14", "2026-11-15", 2200, 5000, 0, 0, "returned",
     [("CRP", "CRP-1")]),
    ("HR5021", "HW3021", "2026-12-14", "2026-12-16", 7200, 5000, 0, 0, "booked",
     [("MIX", "MIX-2")]),
    ("HR5022", "HW3022", "2026-12-07", "2026-12-14", 6000, 4000, 0, 0, "booked",
     [("LAD", "LAD-2")]),
    ("HR5023", "HW3023", "2026-12-14", "2026-12-15", 5200, 6000, 0, 0, "booked",
     [("PWR", "PWR-1")]),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO items VALUES (?,?,?,?,?)", [i[:5] for i in ITEMS])
    db.executemany(
        "INSERT INTO units VALUES (?,?)",
        [(f"{code}-{n}", code) for code, *_, units in ITEMS for n in range(1, units + 1)],
    )
    for hire_id, account, first, last, hire, deposit, waiver, delivery, status, lines in HIRES:
        db.execute(
            "INSERT INTO hires (hire_id, account_id, first_day, last_day, hire_pence, "
            "deposit_pence, waiver_pence, delivery_fee_pence, status) VALUES (?,?,?,?,?,?,?,?,?)",
            (hire_id, account, first, last, hire, deposit, waiver, delivery, status),
        )
        db.executemany(
            "INSERT INTO hire_lines (hire_id, account_id, item_code, unit_id) VALUES (?,?,?,?)",
            [(hire_id, account, item, unit) for item, unit in lines],
        )
