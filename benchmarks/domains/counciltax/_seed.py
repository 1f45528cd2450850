"""Hartfield Borough Council Tax: schema, the fixed clock, charges, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT), in the 2026/27 council tax
year (1 April 2026 to 31 March 2027, 365 days). Every account's instalments up to December have
been collected: 10-instalment payers have January left, 12-instalment payers January to March.
Residents are identified by the account number (8 digits, starting 6) and the property's postcode;
only a person liable on the account is told about it or changes it.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
YEAR_START, YEAR_END = date(2026, 4, 1), date(2027, 3, 31)
YEAR_DAYS = 365

# the year's charge per band (pence), before discounts and premiums
BANDS = {"A": 140400, "B": 163800, "C": 187200, "D": 210600, "E": 257400, "F": 304200,
         "G": 351000, "H": 421200}  # fmt: skip
SPD_PERCENT = 25  # single person discount
BACKDATE_LIMIT = date(2026, 6, 14)  # never backdated more than 6 months before today
DD_DAYS = (1, 8, 15, 22)  # the only direct debit dates
MONTHS_LEFT = {10: 1, 12: 3}  # instalments left this year (January; January to March)
MAX_ARRANGEMENT_MONTHS = 6
FINAL_NOTICE_DAYS = 7  # a final notice follows an unpaid reminder after 7 days
PHONE = "01632 960 700"


def days_between(first: date, last: date) -> int:
    """Days from `first` to `last`, both included (0 when `last` is before `first`)."""
    return max(0, (last - first).days + 1)


def part_year(annual: int, first: date, last: date, percent: int = 100) -> int:
    """`percent` of a year's charge for the days `first`..`last` inside this year, to the day."""
    first, last = max(first, YEAR_START), min(last, YEAR_END)
    return annual * percent * days_between(first, last) // (100 * YEAR_DAYS)


def one_year_on(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28) + timedelta(days=1)


SCHEMA_SQL = """
CREATE TABLE properties (
    property_id TEXT PRIMARY KEY,             -- P01
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    band TEXT NOT NULL,
    occupancy TEXT NOT NULL DEFAULT 'occupied', -- occupied / second_home / empty
    empty_since TEXT
);
CREATE TABLE accounts (
    account_id TEXT PRIMARY KEY,              -- 61004001
    property_id TEXT NOT NULL REFERENCES properties(property_id),
    liable TEXT NOT NULL,                     -- "Kwame Mensah;Efua Mensah"
    email TEXT,
    phone TEXT,
    status TEXT NOT NULL DEFAULT 'open',      -- open / closed
    start_date TEXT NOT NULL,
    end_date TEXT,
    instalments INTEGER NOT NULL,             -- 10 (April-January) or 12 (April-March)
    next_year_instalments INTEGER,            -- a plan asked for 2027/28
    dd_day INTEGER,                           -- 1 / 8 / 15 / 22
    annual_pence INTEGER NOT NULL,            -- this year's charge after discounts, premiums
    paid_pence INTEGER NOT NULL,
    instalments_left INTEGER NOT NULL,
    instalment_pence INTEGER NOT NULL,
    arrears_pence INTEGER NOT NULL DEFAULT 0,
    reminder_on TEXT,
    final_bill_pence INTEGER,
    final_bill_issued INTEGER NOT NULL DEFAULT 0,
    credit_pence INTEGER NOT NULL DEFAULT 0,  -- on a closed account
    refund_source TEXT                        -- where the credit was paid from
);
CREATE TABLE discounts (
    discount_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- single_person
    from_date TEXT NOT NULL,
    end_date TEXT,
    reduction_pence INTEGER NOT NULL,         -- off this year's charge
    created_at TEXT NOT NULL
);
CREATE TABLE premiums (
    premium_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- empty_over_a_year
    from_date TEXT NOT NULL,
    premium_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE arrangements (
    arrangement_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    months INTEGER NOT NULL,
    monthly_pence INTEGER NOT NULL,
    first_date TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE refunds (
    refund_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    paid_to TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# property, address, postcode, band, occupancy, empty since
PROPERTIES = [
    ("P01", "3 Ash Grove", "HF1 2AB", "C", "occupied", None),
    ("P02", "12 Birch Road", "HF2 4CD", "B", "occupied", None),
    ("P03", "8 Cedar Lane", "HF1 3EF", "D", "occupied", None),
    ("P04", "41 Dale Street", "HF4 1GH", "A", "occupied", None),
    ("P05", "19 Elm Close", "HF2 7JK", "B", "occupied", None),
    ("P06", "7 Elm Close", "HF2 7JL", "D", "occupied", None),
    ("P07", "56 Fern Avenue", "HF3 2MN", "B", "occupied", None),
    ("P08", "2 Gorse Court", "HF1 5PQ", "C", "occupied", None),
    ("P09", "15 Hazel Drive", "HF4 6RS", "C", "occupied", None),
    ("P10", "30 Ivy Road", "HF2 8TU", "C", "occupied", None),
    ("P11", "21 Willow Way", "HF3 6EF", "B", "occupied", None),
    ("P12", "19 Willow Way", "HF3 6EF", "B", "occupied", None),
    ("P13", "4 Juniper Place", "HF1 9WX", "E", "occupied", None),
    ("P14", "11 Kestrel Road", "HF4 2YZ", "B", "occupied", None),
    ("P15", "27 Larch Street", "HF2 3AB", "A", "occupied", None),
    ("P16", "9 Maple Gardens", "HF3 4CD", "B", "occupied", None),
    ("P17", "63 Nightingale Lane", "HF1 7EF", "C", "occupied", None),
    ("P18", "Flat 4, Mill House", "HF2 5GH", "A", "occupied", None),
    ("P19", "22 Oak Crescent", "HF3 8JK", "C", "occupied", None),
    ("P20", "5 Poplar Avenue", "HF4 3LM", "B", "occupied", None),
    ("P21", "38 Quarry Road", "HF1 4NP", "C", "occupied", None),
    ("P22", "14 Rowan Close", "HF2 6QR", "D", "occupied", None),
    ("P23", "6 Sycamore Way", "HF3 1ST", "D", "occupied", None),
    ("P24", "17 Thistle Drive", "HF4 8UV", "B", "occupied", None),
]

# account, property, liable, instalments, dd day, status, start, end; the rest follows from them
ACCOUNT_KEYS = [
    ("61004001", "P01", "Helen Price", 10, 1, "open", "2018-06-01", None),
    ("61004002", "P02", "Kwame Mensah;Efua Mensah", 12, 8, "open", "2021-09-10", None),
    ("61004003", "P03", "Laura Chen", 12, 1, "open", "2020-02-01", None),
    ("61004004", "P04", "Peter Walsh", 12, 15, "open", "2016-05-20", None),
    ("61004005", "P05", "Marcus Reid", 12, 1, "open", "2022-01-15", None),
    ("61004006", "P06", "Grace Achebe", 10, 22, "open", "2012-08-01", None),
    ("61004007", "P07", "Nina Kowalski;Adam Kowalski", 10, 8, "open", "2019-03-30", None),
    ("61004008", "P08", "Ben Carter", 12, 1, "closed", "2023-04-01", "2026-11-30"),
    ("61004009", "P09", "Owen Davies", 10, 15, "open", "2017-11-11", None),
    ("61004010", "P10", "Ruth Okafor", 12, 8, "open", "2024-07-01", None),
    ("61004011", "P11", "Gary Holt", 12, 1, "open", "2020-10-01", "2026-12-18"),
    ("61004012", "P13", "Joe Brennan", 12, 22, "open", "2015-01-05", None),
    ("61004013", "P14", "Priya Nair", 12, 8, "closed", "2022-05-01", "2026-10-31"),
    ("61004014", "P15", "Tom Baker", 10, 1, "closed", "2019-08-16", "2026-11-15"),
    ("61004015", "P16", "Sofia Russo", 12, 15, "open", "2021-02-01", None),
    ("61004016", "P17", "Liam Hughes", 10, 1, "open", "2018-12-01", None),
    ("61004017", "P19", "Margaret Ellis", 12, 8, "open", "2008-04-01", None),
    ("61004018", "P18", "Raj Gupta", 12, 1, "open", "2023-06-01", None),
    ("61004019", "P20", "Claire Dunn", 10, 22, "open", "2025-09-01", None),
    ("61004020", "P21", "Daniel Moore", 12, 15, "open", "2020-06-01", None),
    ("61004021", "P22", "Dan Wright;Lucy Wright", 12, 1, "open", "2016-03-01", None),
    ("61004022", "P23", "Hannah Scott", 10, 1, "open", "2019-09-09", None),
    ("61004023", "P24", "Yusuf Ali", 12, 1, "open", "2021-11-20", None),
    ("61004024", "P12", "Irene Cole", 10, 8, "open", "2014-07-01", None),
]

# arrears and reminders, credits on closed accounts, final bills
ARREARS = {"61004005": (48000, "2026-11-20"), "61004006": (35100, "2026-11-25"),
           "61004015": (36000, "2026-11-02"), "61004016": (17550, "2026-12-10")}
CREDITS = {"61004008": (4520, "card ending 1234", 0),
           "61004013": (6215, "card ending 4417", 1),
           "61004014": (3380, "bank account ending 5521", 1)}
# Margaret Ellis has had the single person discount since 1 March 2025
SPD_ON = {"61004017": "2025-03-01"}
# fmt: on


def _account_rows() -> list[dict[str, object]]:
    rows = []
    band = {p[0]: p[3] for p in PROPERTIES}
    for acc, prop, liable, plan, dd, status, start, end in ACCOUNT_KEYS:
        annual = BANDS[band[prop]]
        if acc in SPD_ON:
            annual -= part_year(annual, YEAR_START, YEAR_END, SPD_PERCENT)
        per = annual // plan
        first = liable.split(";")[0].lower().replace(" ", ".")
        arrears, reminder = ARREARS.get(acc, (0, None))
        credit, source, issued = CREDITS.get(acc, (0, None, 0))
        closed = status == "closed"
        rows.append({
            "account_id": acc, "property_id": prop, "liable": liable,
            "email": f"{first}@example.com", "phone": f"07700 900{100 + int(acc[-2:]):03d}",
            "status": status, "start_date": start, "end_date": end, "instalments": plan,
            "next_year_instalments": None, "dd_day": dd, "annual_pence": annual,
            "paid_pence": per * (plan - MONTHS_LEFT[plan]),
            "instalments_left": 0 if closed else MONTHS_LEFT[plan],
            "instalment_pence": 0 if closed else per, "arrears_pence": arrears,
            "reminder_on": reminder, "final_bill_pence": 0 if closed else None,
            "final_bill_issued": issued, "credit_pence": credit, "refund_source": source,
        })  # fmt: skip
    return rows


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO properties VALUES (?,?,?,?,?,?)", PROPERTIES)
    for row in _account_rows():
        cols = ", ".join(row)
        db.execute(f"INSERT INTO accounts ({cols}) VALUES ({', '.join('?' * len(row))})",
                   list(row.values()))  # fmt: skip
    for acc, since in SPD_ON.items():
        band = BANDS["C"]
        db.execute(
            "INSERT INTO discounts (account_id, kind, from_date, reduction_pence, created_at) "
            "VALUES (?,?,?,?,?)",
            (acc, "single_person", since, part_year(band, YEAR_START, YEAR_END, SPD_PERCENT),
             "2025-03-04 09:00"),
        )  # fmt: skip
