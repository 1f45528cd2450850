"""Clearword Translations: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 10:00 (UK, GMT). Turnarounds count working
days (Monday to Friday, less the Christmas bank holidays) from the day the order is placed.
Customers are identified by their account number (CW and four digits) and the account's email.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# price per page by the language paired with English (either direction)
BAND_A, BAND_B, BAND_C = 2800, 3400, 4500
BASE_RATE = BAND_A  # the list price of the English side: every pair is priced by the other one
LANGUAGES = {
    "French": BAND_A, "Spanish": BAND_A, "German": BAND_A, "Italian": BAND_A,
    "Portuguese": BAND_A,
    "Dutch": BAND_B, "Polish": BAND_B, "Romanian": BAND_B, "Greek": BAND_B, "Turkish": BAND_B,
    "Arabic": BAND_C, "Chinese": BAND_C, "Japanese": BAND_C, "Russian": BAND_C, "Korean": BAND_C,
}  # fmt: skip
NO_RUSH = {"Japanese", "Korean"}  # no rush translator free until January
CERT_PENCE = 2500  # certification: one signed statement and stamp per order
RUSH_PERCENT = 50  # of the translation price (pages x rate), never of the certification
RUSH_MAX_PAGES = 10
STANDARD_DAYS, RUSH_DAYS = 5, 2  # working days
FREE_FIX_DAYS = 30  # translation errors reported within 30 days of delivery are fixed free
FIX_DAYS = 2  # a free correction comes back in 2 working days; a paid revision takes 5
QUOTE_VALID_DAYS = 30
BANK_HOLIDAYS = {date(2026, 12, 25), date(2026, 12, 28), date(2027, 1, 1)}


def add_working_days(start: date, days: int) -> date:
    """The day `days` working days after `start` (weekends and bank holidays skipped)."""
    day = start
    while days:
        day += timedelta(days=1)
        if day.weekday() < 5 and day not in BANK_HOLIDAYS:
            days -= 1
    return day


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- CW1001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE languages (
    language TEXT PRIMARY KEY,                -- paired with English
    rate_pence INTEGER NOT NULL,              -- per page
    rush_ok INTEGER NOT NULL DEFAULT 1        -- a rush translator is free
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- TR7001
    account_id TEXT NOT NULL REFERENCES customers(account_id),
    document TEXT NOT NULL,
    source_language TEXT NOT NULL,
    target_language TEXT NOT NULL,
    pages INTEGER NOT NULL,
    certified INTEGER NOT NULL DEFAULT 0,
    turnaround TEXT NOT NULL,                 -- standard / rush
    rate_pence INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,             -- as ordered
    paid_pence INTEGER NOT NULL,              -- price plus any upgrade
    ordered_on TEXT NOT NULL,
    due_date TEXT NOT NULL,
    status TEXT NOT NULL,                     -- queued / in_progress / delivered / cancelled
    delivered_on TEXT
);
CREATE TABLE quotes (
    quote_id TEXT PRIMARY KEY,                -- QT9001
    account_id TEXT NOT NULL,
    source_language TEXT NOT NULL,
    target_language TEXT NOT NULL,
    pages INTEGER NOT NULL,
    certified INTEGER NOT NULL,
    turnaround TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    email TEXT NOT NULL,
    valid_until TEXT NOT NULL
);
CREATE TABLE revisions (
    revision_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- error / source_change
    pages INTEGER NOT NULL,
    fee_pence INTEGER NOT NULL,
    due_date TEXT NOT NULL,
    requested_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / upgrade / revision / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, card; the email is first.last@example.com, the phone 07700 9001NN
PEOPLE = [
    ("CW1001", "Alice Brennan", "4417"),
    ("CW1002", "Marek Nowak", "2290"),
    ("CW1003", "Sofia Russo", "8823"),
    ("CW1004", "Tom Ridley", "6610"),
    ("CW1005", "Hana Sato", "3051"),
    ("CW1006", "Omar Haddad", "7702"),
    ("CW1007", "Lena Fischer", "1189"),
    ("CW1008", "Daniel Costa", "5534"),
    ("CW1009", "Elena Popescu", "9046"),
    ("CW1010", "Greg Walsh", "2718"),
    ("CW1011", "Nina Petrova", "6284"),
    ("CW1012", "Priya Kaur", "3141"),
    ("CW1013", "Ahmed Saleh", "8080"),
    ("CW1014", "Ruth Adler", "4242"),
    ("CW1015", "Kenji Mori", "5150"),
    ("CW1016", "Claire Dubois", "6006"),
    ("CW1017", "Aisha Bello", "7117"),
    ("CW1018", "Sam Okoro", "1212"),
    ("CW1019", "Ben Carter", "3434"),
    ("CW1020", "Julia Becker", "5656"),
    ("CW1021", "Carlos Mendes", "7878"),
    ("CW1022", "Olivia Grant", "9090"),
    ("CW1023", "Yusuf Demir", "1357"),
    ("CW1024", "Mei Lin", "2468"),
]
CUSTOMERS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(a[-2:])}", card)
    for a, n, card in PEOPLE
]

# order, account, document, from, to, pages, certified, turnaround, ordered on, status,
# delivered on; the rate, price and due date follow from them
ORDERS = [
    ("TR7005", "CW1005", "employment contract", "Japanese", "English", 4, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7006", "CW1006", "medical report", "Arabic", "English", 3, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7007", "CW1007", "product manual", "German", "English", 6, 0, "standard",
     "2026-12-07", "in_progress", None),
    ("TR7008", "CW1008", "business letter", "Portuguese", "English", 5, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7009", "CW1009", "university transcript", "Romanian", "English", 8, 1, "standard",
     "2026-12-04", "in_progress", None),
    ("TR7010", "CW1010", "sales brochure", "Spanish", "English", 10, 0, "standard",
     "2026-11-23", "delivered", "2026-11-30"),
    ("TR7025", "CW1010", "price list", "English", "Spanish", 2, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7011", "CW1011", "court judgment", "Russian", "English", 6, 0, "standard",
     "2026-10-13", "delivered", "2026-10-20"),
    ("TR7012", "CW1012", "website terms", "English", "Dutch", 4, 0, "standard",
     "2026-11-24", "delivered", "2026-12-01"),
    ("TR7013", "CW1013", "driving licence", "French", "English", 2, 1, "standard",
     "2026-11-16", "delivered", "2026-11-23"),
    ("TR7014", "CW1014", "tenancy agreement", "Greek", "English", 5, 1, "standard",
     "2026-12-07", "in_progress", None),
    ("TR7015", "CW1015", "conference abstract", "German", "English", 2, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7018", "CW1018", "patent summary", "Chinese", "English", 7, 1, "standard",
     "2026-12-04", "in_progress", None),
    ("TR7019", "CW1019", "wine list", "French", "English", 5, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7023", "CW1023", "diploma", "Turkish", "English", 2, 0, "standard",
     "2026-12-08", "queued", None),
    ("TR7024", "CW1024", "bank statement", "Chinese", "English", 3, 0, "standard",
     "2026-11-26", "delivered", "2026-12-03"),
]
# fmt: on


def order_rows() -> list[tuple[object, ...]]:
    """The seed orders with their rate, price, amount paid and due date."""
    rows = []
    for oid, acc, doc, src, tgt, pages, cert, speed, ordered, status, delivered in ORDERS:
        rate = LANGUAGES[tgt if src == "English" else src]
        price = pages * rate + (CERT_PENCE if cert else 0)
        if speed == "rush":
            price += pages * rate * RUSH_PERCENT // 100
        days = RUSH_DAYS if speed == "rush" else STANDARD_DAYS
        due = add_working_days(date.fromisoformat(ordered), days).isoformat()
        rows.append((oid, acc, doc, src, tgt, pages, cert, speed, rate, price, price, ordered,
                     due, status, delivered))  # fmt: skip
    return rows


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", CUSTOMERS)
    db.executemany(
        "INSERT INTO languages VALUES (?,?,?)",
        [(lang, rate, 0 if lang in NO_RUSH else 1) for lang, rate in LANGUAGES.items()],
    )
    db.executemany("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", order_rows())
    for row in order_rows():
        db.execute(
            "INSERT INTO charges (account_id, kind, amount_pence, ref, created_at) "
            "VALUES (?, 'payment', ?, ?, ?)",
            (row[1], row[9], row[0], f"{row[11]} 09:00"),
        )
