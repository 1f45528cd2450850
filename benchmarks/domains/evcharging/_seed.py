"""Voltway drivers' desk: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Drivers are identified
by the email on the account and the last 4 digits of the payment card on file.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

RATE_PENCE = {"payg": 79, "plus": 59}  # per kWh
PLUS_MONTHLY_PENCE = 799
PLAN_NAMES = {"payg": "Pay As You Go", "plus": "Voltway Plus"}
DISPUTE_DAYS = 14  # a failed or overcharged session is refunded if reported within 14 days
CARD_FEE_PENCE = 500  # every charge card after the first (a replacement or an extra)
MAX_CARDS = 3  # active charge cards per account
MAX_VEHICLES = {"payg": 2, "plus": 4}
RESERVE_AHEAD_MINUTES = 30
RESERVE_FEE_PENCE = 100  # refunded if the session starts
TOPUP_MIN_PENCE, TOPUP_MAX_PENCE = 1000, 10000


def next_billing(billing_day: int, today: date) -> date:
    """The next billing date after today for an account billed on `billing_day` each month."""
    if today.day < billing_day:
        return today.replace(day=billing_day)
    first = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    return first.replace(day=billing_day)


SCHEMA_SQL = """
CREATE TABLE drivers (
    account_id TEXT PRIMARY KEY,              -- VA1001 (staff only; drivers verify by email)
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,                 -- the payment card on file
    plan TEXT NOT NULL,                       -- payg / plus
    billing_day INTEGER NOT NULL,             -- day of the month the account is billed
    balance_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'open'       -- open / closed
);
CREATE TABLE plan_changes (
    change_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    from_plan TEXT NOT NULL,
    to_plan TEXT NOT NULL,
    effective TEXT NOT NULL,                  -- the day the new plan starts
    created_at TEXT NOT NULL
);
CREATE TABLE chargers (
    charger_id TEXT PRIMARY KEY,              -- CH214
    site TEXT NOT NULL,
    power_kw INTEGER NOT NULL,
    status TEXT NOT NULL                      -- available / in_use / out_of_order
);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,              -- VS30311
    account_id TEXT NOT NULL,
    charger_id TEXT NOT NULL,
    day TEXT NOT NULL,
    started TEXT NOT NULL,                    -- HH:MM
    kwh REAL NOT NULL,
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,                 -- the card the session was paid with
    status TEXT NOT NULL                      -- completed / failed / refunded
);
CREATE TABLE charge_cards (
    card_id TEXT PRIMARY KEY,                 -- RF1401
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,                     -- active / ordered / cancelled
    ordered TEXT NOT NULL,
    fee_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE vehicles (
    vehicle_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    registration TEXT NOT NULL,               -- AB12 CDE
    status TEXT NOT NULL DEFAULT 'active'     -- active / removed
);
CREATE TABLE reservations (
    reservation_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    charger_id TEXT NOT NULL,
    start TEXT NOT NULL,                      -- YYYY-MM-DD HH:MM
    fee_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'held'
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,      -- topup / card_fee / reservation_fee / session_refund /
                             -- account_credit / balance_refund
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT,                          -- the card charged or refunded; none for credit
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, payment card, plan, billing day, balance; email and phone follow from the name
PEOPLE = [
    ("VA1001", "Alice Reid", "4417", "plus", 3, 0),
    ("VA1002", "Ben Carter", "2290", "payg", 20, 0),
    ("VA1003", "Chloe Dunn", "7720", "payg", 9, 0),
    ("VA1004", "Dev Malik", "6610", "plus", 15, 0),
    ("VA1005", "Faye Owen", "3051", "payg", 11, 2340),
    ("VA1006", "Gary Lowe", "1189", "payg", 5, 0),
    ("VA1007", "Hana Ito", "5534", "plus", 22, 0),
    ("VA1008", "Ivan Petrov", "9046", "payg", 18, 0),
    ("VA1009", "Jade Fox", "2718", "payg", 1, 0),
    ("VA1010", "Kyle Grant", "6284", "payg", 7, 0),
    ("VA1011", "Lena Novak", "3141", "plus", 25, 450),
    ("VA1012", "Marc Silva", "8080", "plus", 28, 0),
    ("VA1013", "Nina Shah", "4242", "payg", 2, 0),
    ("VA1014", "Omar Aziz", "5150", "payg", 16, 0),
    ("VA1015", "Pia Lund", "6006", "plus", 10, 0),
    ("VA1016", "Quinn Hart", "7117", "plus", 19, 0),
    ("VA1017", "Rosa Diaz", "1212", "payg", 12, 0),
    ("VA1018", "Sam Webb", "3434", "plus", 6, 0),
    ("VA1019", "Tara Knox", "5656", "plus", 21, 0),
    ("VA1020", "Umar Dar", "7878", "payg", 4, 500),
    ("VA1021", "Vera Lamb", "9090", "payg", 14, 0),
    ("VA1022", "Will Hale", "1357", "payg", 8, 0),
    ("VA1023", "Sophie Malik", "2468", "payg", 15, 0),
    ("VA1024", "Yusuf Bloom", "8642", "payg", 27, 1560),
]
DRIVERS = [
    (a, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(a[-2:]):03d}",
     card, plan, day, balance)
    for a, n, card, plan, day, balance in PEOPLE
]  # fmt: skip

CHARGERS = [
    ("CH118", "Leeds Kirkgate", 50, "available"),
    ("CH214", "London Kings Road", 150, "available"),
    ("CH215", "London Kings Road", 150, "in_use"),
    ("CH305", "Bristol Temple Quay", 75, "available"),
    ("CH402", "Manchester Piccadilly", 50, "out_of_order"),
    ("CH509", "Glasgow Buchanan Street", 150, "available"),
]

# session, account, charger, day, started, kWh, amount, card used, status
SESSIONS = [
    ("VS30101", "VA1001", "CH214", "2026-12-05", "08:10", 30.0, 1770, "4417", "completed"),
    ("VS30311", "VA1003", "CH118", "2026-12-08", "17:40", 20.0, 1580, "3311", "failed"),
    ("VS30312", "VA1003", "CH118", "2026-11-20", "09:05", 25.0, 1975, "3311", "completed"),
    ("VS30401", "VA1004", "CH305", "2026-12-11", "12:30", 35.0, 2065, "6610", "completed"),
    ("VS30499", "VA1023", "CH305", "2026-12-13", "19:15", 30.0, 2370, "2468", "completed"),
    ("VS30701", "VA1007", "CH509", "2026-12-10", "07:50", 21.0, 1239, "5534", "failed"),
    ("VS30702", "VA1007", "CH509", "2026-12-11", "18:20", 16.0, 944, "5534", "failed"),
    ("VS30703", "VA1007", "CH509", "2026-12-12", "08:00", 40.0, 2360, "5534", "completed"),
    ("VS30901", "VA1009", "CH214", "2026-12-09", "13:00", 18.0, 1422, "2718", "failed"),
    ("VS31001", "VA1010", "CH402", "2026-11-24", "16:45", 25.0, 1975, "6284", "failed"),
    ("VS31101", "VA1011", "CH214", "2026-12-13", "11:20", 40.0, 2360, "3141", "completed"),
    ("VS32201", "VA1022", "CH118", "2026-12-12", "10:05", 32.0, 2528, "1357", "completed"),
    ("VS32202", "VA1022", "CH118", "2026-12-03", "18:30", 12.0, 948, "1357", "completed"),
]

# charge card, account, status, ordered
CARDS = [
    ("RF1001", "VA1001", "active", "2025-06-01"),
    ("RF1401", "VA1014", "active", "2026-03-02"),
    ("RF1501", "VA1015", "active", "2025-01-10"),
    ("RF1502", "VA1015", "active", "2025-04-22"),
    ("RF1503", "VA1015", "active", "2026-02-14"),
    ("RF1801", "VA1018", "active", "2026-01-05"),
]

# account, registration
VEHICLES = [
    ("VA1001", "LR21 KXP"), ("VA1006", "GL70 WEB"), ("VA1008", "PV19 TSA"),
    ("VA1008", "PV68 NMO"), ("VA1016", "QH20 ELX"), ("VA1016", "QH71 ZAP"),
    ("VA1016", "QH22 VOL"), ("VA1017", "RD17 OLD"), ("VA1017", "RD23 ECO"),
    ("VA1018", "SW22 LEC"), ("VA1019", "TK71 AMP"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany(
        "INSERT INTO drivers (account_id, name, email, phone, card_last4, plan, billing_day, "
        "balance_pence) VALUES (?,?,?,?,?,?,?,?)",
        DRIVERS,
    )
    db.executemany("INSERT INTO chargers VALUES (?,?,?,?)", CHARGERS)
    db.executemany("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?)", SESSIONS)
    db.executemany(
        "INSERT INTO charge_cards (card_id, account_id, status, ordered) VALUES (?,?,?,?)", CARDS
    )
    db.executemany("INSERT INTO vehicles (account_id, registration) VALUES (?,?)", VEHICLES)
