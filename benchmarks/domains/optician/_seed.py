"""Clearview Opticians: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). Eye tests are in
half-hour slots, Monday to Friday, 09:00-11:30 and 14:00-16:00. Customers are identified by
their customer number (CV and four digits) and their date of birth.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

TEST_PENCE = 2500  # a private eye test; NHS-funded tests are free
NHS_UNDER, NHS_FROM = 16, 60  # NHS-funded: under 16 or 60 and over on the test day
LATE_HOURS = 24  # moving or cancelling a private test less than 24 hours before it costs
LATE_FEE_PENCE = 1500
TIMES = ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30",
         "14:00", "14:30", "15:00", "15:30", "16:00"]  # fmt: skip
FIRST_DAY, LAST_DAY = date(2026, 12, 7), date(2027, 1, 29)  # the diary that is open

FRAMES = {"CF-118": ("Bexley", 6500), "CF-214": ("Ashby", 8900), "CF-305": ("Marlow", 12900)}
LENSES = {"single vision": 4000, "bifocal": 8000, "varifocal": 12000}
COATINGS = {"anti-glare": 2500, "blue-light": 3000}
SECOND_PAIR_PERCENT = 30  # off a whole pair ordered within 30 days of another order
SECOND_PAIR_DAYS = 30
EXCESS = {"repair": 1000, "replacement": 2500}  # under Clearview Cover only
NOTICE_MONTHS = 1  # a contact-lens plan ends one month after the customer gives notice
MAX_PAUSE_MONTHS = 3
PLANS = {"daily": 2800, "monthly": 1600}  # a month of lenses


def opening_days() -> list[date]:
    days, d = [], FIRST_DAY
    while d <= LAST_DAY:
        if d.weekday() < 5:
            days.append(d)
        d += timedelta(days=1)
    return days


def age_on(dob: str, day: date) -> int:
    born = date.fromisoformat(dob)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def add_months(iso: str, months: int) -> str:
    d = date.fromisoformat(iso)
    month = d.month - 1 + months
    return date(d.year + month // 12, month % 12 + 1, min(d.day, 28)).isoformat()


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- CV2001
    name TEXT NOT NULL,
    dob TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    benefit_ref TEXT                          -- a qualifying benefit on record (NHS-funded tests)
);
CREATE TABLE blocked (
    day TEXT NOT NULL,                        -- slots taken by patients of other desks
    time TEXT NOT NULL
);
CREATE TABLE appointments (
    appt_id TEXT PRIMARY KEY,                 -- AP3005
    customer_id TEXT NOT NULL,
    day TEXT NOT NULL,
    time TEXT NOT NULL,
    nhs INTEGER NOT NULL DEFAULT 0,
    fee_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- GO4011
    customer_id TEXT NOT NULL,
    frame TEXT NOT NULL,                      -- CF-214
    lens TEXT NOT NULL,                       -- single vision / bifocal / varifocal
    coatings TEXT NOT NULL DEFAULT '',        -- "anti-glare,blue-light"
    price_pence INTEGER NOT NULL,             -- paid in full when ordered
    ordered_on TEXT NOT NULL,
    status TEXT NOT NULL,                     -- placed / at_lab / ready / collected / cancelled
    collected_on TEXT,
    cover INTEGER NOT NULL DEFAULT 0          -- Clearview Cover on this pair
);
CREATE TABLE claims (
    claim_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- repair / replacement
    excess_pence INTEGER NOT NULL,
    made_on TEXT NOT NULL
);
CREATE TABLE subscriptions (
    sub_id TEXT PRIMARY KEY,                  -- CL5019
    customer_id TEXT NOT NULL,
    plan TEXT NOT NULL,                       -- daily / monthly lenses
    monthly_pence INTEGER NOT NULL,
    next_payment TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',    -- active / paused / ending
    last_paused TEXT,
    end_date TEXT
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- late_fee / order / coating / refund / excess
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE prescription_copies (
    copy_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, date of birth, card, benefit reference; emails and phones follow from them
# (CV2018: emma.clarke@example.com, 07700 900618)
PEOPLE = [
    ("CV2001", "Alice Ward", "1989-04-12", "4417", None),
    ("CV2002", "Raj Patel", "1958-06-03", "2290", None),
    ("CV2003", "Tom Hale", "1981-09-20", "8823", "UC-448120"),
    ("CV2004", "Gina Moss", "1995-01-30", "6610", None),
    ("CV2005", "Owen Price", "1970-11-02", "3051", None),
    ("CV2006", "Priya Shah", "1993-07-07", "7702", None),
    ("CV2007", "Dan Fox", "1949-02-14", "1189", None),
    ("CV2008", "Sarah Lin", "1985-05-25", "5534", None),
    ("CV2009", "Mark Evans", "1977-03-03", "9046", None),
    ("CV2010", "Fiona Grey", "1990-10-10", "2718", None),
    ("CV2011", "Ian Moss", "1962-08-19", "6284", None),
    ("CV2012", "Chloe Ward", "1998-12-01", "3141", None),
    ("CV2013", "Ben Ortiz", "1987-06-16", "8080", None),
    ("CV2014", "Nadia Rossi", "1982-02-22", "4242", None),
    ("CV2015", "Paul Adams", "1966-04-04", "5150", None),
    ("CV2016", "Hannah Webb", "1991-09-09", "6006", None),
    ("CV2017", "Jack Turner", "1980-01-17", "7117", None),
    ("CV2018", "Emma Clarke", "1975-07-21", "1212", None),
    ("CV2019", "George Hall", "1955-05-05", "3434", None),
    ("CV2020", "Ruth Cole", "1984-11-11", "5656", None),
    ("CV2021", "Luke Perry", "1996-03-30", "7878", None),
    ("CV2022", "Amir Khan", "1988-08-08", "9090", None),
    ("CV2023", "Zara Bell", "1979-12-12", "1357", None),
    ("CV2024", "Nina Hart", "1983-02-02", "2468", None),
    ("CV2025", "Kate Long", "1961-06-06", "9753", None),
]
CUSTOMERS = [
    (c, n, dob, n.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(c[-2:])}",
     card, ref)
    for c, n, dob, card, ref in PEOPLE
]  # fmt: skip

# the diary's other patients: Wednesday 9 December is full, Thursday 10 December's first hour
BLOCKED = [("2026-12-09", t) for t in TIMES] + [("2026-12-10", "09:00"), ("2026-12-10", "09:30")]

# appointment, customer, day, time, nhs, fee
APPOINTMENTS = [
    ("AP3005", "CV2005", "2026-12-08", "11:00", 0, 2500),
    ("AP3006", "CV2006", "2026-12-08", "09:00", 0, 2500),
    ("AP3007", "CV2007", "2026-12-08", "09:30", 1, 0),
    ("AP3008", "CV2008", "2026-12-07", "15:00", 0, 2500),
    ("AP3009", "CV2009", "2026-12-17", "11:00", 0, 2500),
    ("AP3024", "CV2024", "2026-12-16", "14:30", 0, 2500),
]

# order, customer, frame, lens, coatings, price, ordered, status, collected, cover
ORDERS = [
    ("GO4011", "CV2011", "CF-305", "varifocal", "anti-glare", 27400, "2026-11-27", "ready",
     None, 0),
    ("GO4012", "CV2012", "CF-214", "single vision", "anti-glare", 15400, "2026-12-04", "placed",
     None, 0),
    ("GO4013", "CV2013", "CF-118", "single vision", "", 10500, "2026-11-30", "at_lab", None, 0),
    ("GO4014", "CV2014", "CF-305", "single vision", "blue-light", 19900, "2026-12-05", "placed",
     None, 0),
    ("GO4015", "CV2015", "CF-214", "varifocal", "", 20900, "2026-12-01", "at_lab", None, 0),
    ("GO4016", "CV2016", "CF-214", "single vision", "", 12900, "2026-07-20", "collected",
     "2026-08-10", 1),
    ("GO4017", "CV2017", "CF-118", "bifocal", "", 14500, "2026-05-10", "collected",
     "2026-06-01", 0),
    ("GO4018", "CV2018", "CF-305", "varifocal", "anti-glare", 27400, "2026-02-20", "collected",
     "2026-03-15", 1),
    ("GO4025", "CV2025", "CF-118", "single vision", "", 10500, "2026-12-03", "placed", None, 0),
]

# subscription, customer, plan, next payment
SUBSCRIPTIONS = [
    ("CL5019", "CV2019", "daily", "2026-12-15"),
    ("CL5020", "CV2020", "monthly", "2026-12-20"),
    ("CL5023", "CV2023", "daily", "2026-12-28"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO blocked VALUES (?,?)", BLOCKED)
    db.executemany(
        "INSERT INTO appointments (appt_id, customer_id, day, time, nhs, fee_pence) "
        "VALUES (?,?,?,?,?,?)",
        APPOINTMENTS,
    )
    db.executemany("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?)", ORDERS)
    db.executemany(
        "INSERT INTO subscriptions (sub_id, customer_id, plan, monthly_pence, next_payment) "
        "VALUES (?,?,?,?,?)",
        [(s, c, p, PLANS[p], n) for s, c, p, n in SUBSCRIPTIONS],
    )
