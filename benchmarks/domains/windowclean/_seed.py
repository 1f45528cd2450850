"""Kingfisher Window Cleaning: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 09:00 (UK, GMT). Each street is cleaned
on its round day (one weekday); a customer's round comes every 4, 6 or 8 weeks. Customers are
identified by their account number (KW and four digits) and the postcode of the property.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# a visit's price for the house, every 4 weeks, by property type
PROPERTY_PENCE = {"flat": 1000, "terraced": 1500, "bungalow": 1600, "semi": 1800,
                  "detached": 2400}  # fmt: skip
PROPERTY_NAMES = {"flat": "flat", "terraced": "terraced house", "bungalow": "bungalow",
                  "semi": "semi-detached house", "detached": "detached house"}  # fmt: skip
FREQUENCIES = (4, 6, 8)
# the house price goes up for rounds less often (dirtier glass); never the extras
SURCHARGE_PERCENT = {4: 0, 6: 10, 8: 20}
# extras cleaned at every visit, a flat price each
EXTRA_PENCE = {"conservatory": 800, "gutters": 600}
EXTRA_NAMES = {"conservatory": "the conservatory", "gutters": "gutter fronts and fascias"}
# one-off jobs done at a round visit
JOB_PENCE = {"solar_panels": 3000, "conservatory_roof": 3500}
GUTTER_CLEAR_PENCE = {"terraced": 4000, "bungalow": 4000, "semi": 5000, "detached": 6500}
JOB_NAMES = {"gutter_clear": "gutter clearing", "conservatory_roof": "a conservatory roof clean",
             "solar_panels": "a solar panel clean"}  # fmt: skip
FIRST_VISIT_DAYS = 3  # the first visit is the first round day at least 3 days away
SKIP_NOTICE_DAYS = 2  # a skip 2+ days before the visit is free
LATE_SKIP_PENCE = 500
MOVE_WINDOW_DAYS = 7  # a visit moves at most 7 days either side of its date
PAUSE_MAX_DAYS = 84  # 12 weeks
PAUSE_EVERY_DAYS = 365  # one pause in any 12 months
DISPUTE_DAYS = 14  # a charge is disputed within 14 days of its visit
NOTICE_DAYS = 14  # a round ends 14 days after notice
HORIZON = date(2027, 6, 30)  # visits are scheduled this far ahead
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def visit_price(property_type: str, frequency: int, extras: list[str]) -> int:
    """A visit's price: the house at the frequency's rate, plus each extra at its flat price."""
    house = PROPERTY_PENCE[property_type] * (100 + SURCHARGE_PERCENT[frequency]) // 100
    return house + sum(EXTRA_PENCE[e] for e in extras)


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- KW3001
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    property_type TEXT NOT NULL,              -- flat / terraced / bungalow / semi / detached
    conservatory INTEGER NOT NULL DEFAULT 0,  -- a conservatory is on record
    round_day TEXT NOT NULL,                  -- the street's round weekday
    access_code TEXT,                         -- side gate / key safe: never read out
    card_last4 TEXT NOT NULL,
    card_expiry TEXT NOT NULL,                -- YYYY-MM
    last_pause_on TEXT                        -- the start of the last pause
);
CREATE TABLE rounds (
    account_id TEXT PRIMARY KEY,
    frequency_weeks INTEGER NOT NULL,
    extras TEXT NOT NULL DEFAULT '',          -- "conservatory,gutters"
    price_pence INTEGER NOT NULL,             -- per visit
    status TEXT NOT NULL DEFAULT 'active',    -- active / ending
    started_on TEXT NOT NULL,
    ends_on TEXT
);
CREATE TABLE visits (
    visit_id TEXT PRIMARY KEY,                -- V6001
    account_id TEXT NOT NULL,
    date TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'scheduled'  -- scheduled / skipped / paused / cancelled / done
);
CREATE TABLE full_days (
    date TEXT PRIMARY KEY                     -- the round is full that day
);
CREATE TABLE charges (
    charge_id TEXT PRIMARY KEY,               -- C8001
    account_id TEXT NOT NULL,
    visit_id TEXT NOT NULL,
    visit_date TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- visit / late_skip
    amount_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'unpaid'     -- unpaid / paid / disputed
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    charge_ids TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,
    paid_at TEXT NOT NULL
);
CREATE TABLE disputes (
    dispute_id INTEGER PRIMARY KEY,
    charge_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    raised_at TEXT NOT NULL
);
CREATE TABLE jobs (
    job_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    visit_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- gutter_clear / conservatory_roof / solar_panels
    price_pence INTEGER NOT NULL
);
CREATE TABLE pauses (
    pause_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    start TEXT NOT NULL,
    "end" TEXT NOT NULL
);
"""

# fmt: off
# account | name | address | postcode | property | conservatory | round day | access code |
# card | card expiry; emails and phones follow from the name and number (KW3018: 07700 900318)
PEOPLE = [
    "KW3001|Alice Brooks|14 Elm Road|GL7 1AB|terraced|0|tue|-|4417|2028-03",
    "KW3002|Raj Mehta|3 Orchard Close|GL7 2CD|detached|1|thu|-|2290|2027-09",
    "KW3003|Tom Reid|22 Mill Lane|GL7 3EF|detached|0|mon|-|8823|2028-01",
    "KW3004|Gina Holt|8 Church Street|GL7 4GH|semi|1|fri|-|6610|2027-06",
    "KW3005|Owen Lloyd|41 Station Road|GL7 5JK|semi|0|mon|-|3051|2027-12",
    "KW3006|Priya Nair|9 Brook Street|GL7 6LM|terraced|0|thu|-|7702|2028-05",
    "KW3007|Dan Cole|17 Park Avenue|GL7 7NP|semi|0|fri|-|1189|2027-08",
    "KW3008|Sarah Finch|5 Meadow Way|GL7 8QR|bungalow|0|thu|-|5534|2027-04",
    "KW3009|Mark Ellis|30 High Street|GL7 9ST|terraced|0|tue|-|9046|2028-02",
    "KW3010|Fiona Page|2 Willow Court|GL8 1AB|semi|0|wed|-|2718|2027-11",
    "KW3011|Ian Shaw|66 Queens Road|GL8 2CD|terraced|0|wed|-|6284|2027-07",
    "KW3012|Chloe Dunn|12 Forge Lane|GL8 3EF|semi|0|thu|-|3141|2028-04",
    "KW3013|Ben Quinn|7 Cedar Drive|GL8 4GH|semi|0|wed|-|8080|2027-10",
    "KW3014|Nadia Ross|19 Rose Walk|GL8 5JK|terraced|0|fri|-|4242|2027-05",
    "KW3015|Paul Grant|4 Beech Grove|GL8 6LM|semi|0|fri|-|5150|2028-06",
    "KW3016|Hannah Wood|1 Manor Farm Lane|GL8 7NP|detached|0|tue|-|6006|2027-03",
    "KW3017|Jack Price|88 Victoria Street|GL8 8QR|terraced|0|mon|-|7117|2027-12",
    "KW3018|Emma Stone|25 Lark Rise|GL8 9ST|semi|0|tue|1357|1212|2028-08",
    "KW3019|George Hart|The Old Rectory, Back Lane|GL9 1AB|detached|0|mon|2580|3434|2027-02",
    "KW3020|Ruth Baker|11 Hawthorn Close|GL9 2CD|bungalow|0|wed|-|5656|2028-09",
    "KW3021|Luke Ward|53 Canal Street|GL9 3EF|terraced|0|thu|-|7878|2026-11",
    "KW3022|Amir Hussain|6 Abbey Road|GL9 4GH|semi|0|tue|-|9090|2027-06",
    "KW3023|Zara Lowe|15 Sunnyside|GL9 5JK|semi|1|wed|-|1357|2028-01",
]
# fmt: on
DAYS = {d[:3]: d for d in WEEKDAYS}
LAST_PAUSE = {"KW3014": "2026-06-01"}


def _customer(line: str) -> tuple[object, ...]:
    a, n, addr, pc, prop, cons, day, code, card, exp = line.split("|")
    return (a, n, addr, pc, n.lower().replace(" ", ".") + "@example.com",
            f"07700 900{300 + int(a[-2:])}", prop, int(cons), DAYS[day],
            None if code == "-" else code, card, exp, LAST_PAUSE.get(a))  # fmt: skip


CUSTOMERS = [_customer(line) for line in PEOPLE]

# fmt: off
# account, every N weeks, extras, next visit, started
ROUNDS = [
    ("KW3005", 4, "", "2026-12-21", "2025-03-10"),
    ("KW3006", 4, "", "2026-12-10", "2024-06-13"),
    ("KW3007", 4, "", "2026-12-11", "2025-09-05"),
    ("KW3008", 6, "", "2026-12-10", "2023-04-20"),
    ("KW3009", 4, "", "2026-12-15", "2026-02-03"),
    ("KW3010", 4, "", "2026-12-23", "2025-01-15"),
    ("KW3011", 4, "", "2026-12-30", "2024-11-06"),
    ("KW3012", 4, "", "2026-12-10", "2025-05-22"),
    ("KW3013", 4, "", "2026-12-16", "2022-08-17"),
    ("KW3014", 4, "", "2026-12-18", "2025-02-14"),
    ("KW3015", 4, "", "2026-12-18", "2026-04-10"),
    ("KW3016", 8, "", "2026-12-29", "2024-09-03"),
    ("KW3017", 4, "", "2026-12-14", "2025-07-07"),
    ("KW3018", 4, "", "2026-12-15", "2026-01-13"),
    ("KW3019", 6, "", "2026-12-14", "2023-10-02"),
    ("KW3020", 4, "", "2026-12-16", "2025-11-19"),
    ("KW3021", 4, "", "2026-12-17", "2026-05-21"),
    ("KW3022", 4, "", "2026-12-22", "2025-08-26"),
    ("KW3023", 4, "conservatory", "2026-12-16", "2024-03-13"),
]

# past visits done and their charges: account, visit date, kind, amount, status
PAST = [
    ("KW3010", "2026-10-28", "visit", 1800, "paid"),
    ("KW3010", "2026-11-25", "visit", 1800, "unpaid"),
    ("KW3011", "2026-12-02", "visit", 1500, "unpaid"),
    ("KW3012", "2026-11-12", "visit", 1800, "unpaid"),
    ("KW3020", "2026-11-18", "visit", 1600, "unpaid"),
    ("KW3021", "2026-11-19", "visit", 1500, "unpaid"),
    ("KW3022", "2026-10-27", "late_skip", 500, "unpaid"),
    ("KW3022", "2026-11-24", "visit", 1800, "unpaid"),
    ("KW3005", "2026-11-23", "visit", 1800, "paid"),
]

FULL_DAYS = ["2026-12-16", "2026-12-19", "2027-01-07"]
# fmt: on


def round_dates(first: str, weeks: int, until: date = HORIZON) -> list[str]:
    """The visit dates of a round from its first visit, every `weeks` weeks, to the horizon."""
    out, day = [], date.fromisoformat(first)
    while day <= until:
        out.append(day.isoformat())
        day += timedelta(weeks=weeks)
    return out


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    props = {c[0]: (c[6], c[7]) for c in CUSTOMERS}
    visit_no, charge_no = 6001, 8001
    for account, date_, kind, amount, status in PAST:
        if kind == "visit":
            db.execute("INSERT INTO visits VALUES (?,?,?,?,?)",
                       (f"V{visit_no}", account, date_, amount, "done"))  # fmt: skip
        else:
            db.execute("INSERT INTO visits VALUES (?,?,?,?,?)",
                       (f"V{visit_no}", account, date_, 1800, "skipped"))  # fmt: skip
        db.execute(
            "INSERT INTO charges VALUES (?,?,?,?,?,?,?)",
            (f"C{charge_no}", account, f"V{visit_no}", date_, kind, amount, status),
        )
        visit_no, charge_no = visit_no + 1, charge_no + 1
    for account, weeks, extras, first, started in ROUNDS:
        property_type, _ = props[account]
        price = visit_price(property_type, weeks, [e for e in extras.split(",") if e])
        db.execute(
            "INSERT INTO rounds (account_id, frequency_weeks, extras, price_pence, started_on) "
            "VALUES (?,?,?,?,?)",
            (account, weeks, extras, price, started),
        )
        for day in round_dates(first, weeks):
            db.execute("INSERT INTO visits VALUES (?,?,?,?,?)",
                       (f"V{visit_no}", account, day, price, "scheduled"))  # fmt: skip
            visit_no += 1
    for account, start in LAST_PAUSE.items():
        db.execute('INSERT INTO pauses (account_id, start, "end") VALUES (?,?,?)',
                   (account, start, "2026-07-26"))  # fmt: skip
    db.executemany("INSERT INTO full_days VALUES (?)", [(d,) for d in FULL_DAYS])
