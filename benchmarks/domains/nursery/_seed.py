"""Little Acorns Day Nursery: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 11 January 2027, 09:30 (UK, GMT). The nursery is open
Monday to Friday, 08:00-18:00: a morning session is 08:00-13:00, an afternoon 13:00-18:00, a
full day 08:00-18:00. Parents are identified by their account reference (LA and four digits)
and the date of birth of a child on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 1, 11, 9, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# extra sessions, per child per session
PRICES = {"morning": 3200, "afternoon": 3000, "full": 5800}
SESSION_NAMES = {"morning": "morning (08:00-13:00)", "afternoon": "afternoon (13:00-18:00)",
                 "full": "full day (08:00-18:00)"}  # fmt: skip
SIBLING_PERCENT = 10  # off extra sessions for each child after the eldest at the nursery
NOTICE_DAYS = 14  # cancelling or swapping 14+ days before the session: no charge
SWAP_FEE_PENCE = 1000  # swapping with less notice
CLOSING = "18:00"
LATE_BLOCK_MINUTES, LATE_BLOCK_PENCE = 15, 1500  # per started 15 minutes after 18:00
LATEST_COLLECTION = "19:00"  # staff wait until then; later is the emergency plan
DISPUTE_DAYS = 30  # an invoice line can be disputed within 30 days of the invoice's issue
FUNDED_MIN_AGE, FUNDED_MAX_AGE = 3, 4  # funded hours: children aged 3 or 4
MAX_COLLECTORS = 4


SCHEMA_SQL = """
CREATE TABLE families (
    account_ref TEXT PRIMARY KEY,             -- LA2001
    holder_name TEXT NOT NULL,                -- the account holder
    partner_name TEXT,                        -- a second parent on the account
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE children (
    child_id TEXT PRIMARY KEY,                -- C301
    account_ref TEXT NOT NULL REFERENCES families(account_ref),
    first_name TEXT NOT NULL,
    dob TEXT NOT NULL,
    room TEXT NOT NULL,                       -- Seedlings / Saplings / Oak Room
    funding_code TEXT,
    funded_hours INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE places (
    room TEXT NOT NULL,
    day TEXT NOT NULL,
    am_free INTEGER NOT NULL,                 -- extra places left, morning
    pm_free INTEGER NOT NULL,                 -- extra places left, afternoon
    PRIMARY KEY (room, day)
);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,              -- S7005
    account_ref TEXT NOT NULL,
    child_id TEXT NOT NULL,
    day TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- morning / afternoon / full
    price_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- session / swap_fee / late_fee / credit
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE funding_codes (
    code TEXT PRIMARY KEY,                    -- 11 digits, from the government
    account_ref TEXT NOT NULL,
    hours INTEGER NOT NULL,                   -- 15 or 30 a week
    valid_until TEXT NOT NULL,
    child_id TEXT                             -- the child it was applied to
);
CREATE TABLE collectors (
    collector_id TEXT PRIMARY KEY,            -- K101
    account_ref TEXT NOT NULL,
    name TEXT NOT NULL,
    relationship TEXT NOT NULL,
    password TEXT NOT NULL,                   -- said at the door; never read out
    added_by TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'     -- active / removed
);
CREATE TABLE late_collections (
    late_id INTEGER PRIMARY KEY,
    account_ref TEXT NOT NULL,
    child_id TEXT NOT NULL,
    day TEXT NOT NULL,
    collect_time TEXT NOT NULL,
    fee_pence INTEGER NOT NULL
);
CREATE TABLE medical_notes (
    note_id INTEGER PRIMARY KEY,
    child_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- allergy / medical
    detail TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-4018
    account_ref TEXT NOT NULL,
    period TEXT NOT NULL,                     -- "December 2026"
    issued TEXT NOT NULL,
    due TEXT NOT NULL,
    total_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'       -- open / paid / disputed
);
CREATE TABLE invoice_lines (
    invoice_id TEXT NOT NULL,
    line_no INTEGER NOT NULL,
    description TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    PRIMARY KEY (invoice_id, line_no)
);
CREATE TABLE disputes (
    dispute_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL,
    line_no INTEGER NOT NULL,
    reason TEXT NOT NULL,
    raised_at TEXT NOT NULL
);
"""

# fmt: off
# account, holder, partner, card; email and phone follow (LA2018: 07700 900618)
PEOPLE = [
    ("LA2001", "Hannah Cole", "James Cole", "4417"),
    ("LA2002", "Priya Nair", None, "2290"),
    ("LA2003", "Tom Reid", "Amy Reid", "8823"),
    ("LA2004", "Sophie Grant", None, "6610"),
    ("LA2005", "Daniel Okoro", None, "3051"),
    ("LA2006", "Emily Shaw", None, "7702"),
    ("LA2007", "Laura Bennett", None, "1189"),
    ("LA2008", "Mark Hughes", None, "5534"),
    ("LA2009", "Aisha Khan", None, "9046"),
    ("LA2010", "Rachel Moore", None, "2718"),
    ("LA2011", "Ben Carter", None, "6284"),
    ("LA2012", "Claire Evans", "Matt Evans", "3141"),
    ("LA2013", "Nina Patel", "Sam Patel", "8080"),
    ("LA2014", "Gemma Wood", None, "4242"),
    ("LA2015", "Lucy Hall", None, "5150"),
    ("LA2016", "Omar Farouk", None, "6006"),
    ("LA2017", "Kate Lewis", None, "7117"),
    ("LA2018", "Chris Young", None, "1212"),
    ("LA2019", "Fiona Blake", None, "3434"),
    ("LA2020", "Peter Walsh", None, "5656"),
    ("LA2021", "Jade Morris", None, "7878"),
    ("LA2022", "Helen Price", None, "9090"),
    ("LA2023", "Rob Turner", None, "1357"),
    ("LA2024", "Sarah Knight", None, "2468"),
]
FAMILIES = [
    (a, h, p, h.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(a[-2:])}", card)
    for a, h, p, card in PEOPLE
]  # fmt: skip

# child, account, first name, date of birth, room
CHILDREN = [
    ("C301", "LA2001", "Ava", "2023-03-14", "Oak Room"),
    ("C302", "LA2002", "Oliver", "2022-09-02", "Oak Room"),
    ("C303", "LA2002", "Mia", "2024-11-20", "Saplings"),
    ("C304", "LA2003", "Ruby", "2022-06-30", "Oak Room"),
    ("C305", "LA2003", "Leo", "2025-02-11", "Seedlings"),
    ("C306", "LA2004", "Finn", "2023-07-08", "Oak Room"),
    ("C307", "LA2005", "Zara", "2024-05-05", "Saplings"),
    ("C308", "LA2006", "Noah", "2023-10-10", "Oak Room"),
    ("C309", "LA2007", "Isla", "2024-08-19", "Saplings"),
    ("C310", "LA2008", "Freddie", "2023-01-25", "Oak Room"),
    ("C311", "LA2009", "Yusuf", "2024-03-01", "Saplings"),
    ("C312", "LA2010", "Alfie", "2023-05-17", "Oak Room"),
    ("C313", "LA2010", "Poppy", "2025-06-02", "Seedlings"),
    ("C314", "LA2011", "Lily", "2024-04-09", "Saplings"),
    ("C315", "LA2012", "Jack", "2023-11-03", "Oak Room"),
    ("C316", "LA2013", "Arjun", "2023-08-21", "Oak Room"),
    ("C317", "LA2014", "Harry", "2024-01-12", "Saplings"),
    ("C318", "LA2015", "Evie", "2023-04-27", "Oak Room"),
    ("C319", "LA2016", "Adam", "2023-12-01", "Oak Room"),
    ("C320", "LA2017", "Sienna", "2024-09-15", "Saplings"),
    ("C321", "LA2018", "Theo", "2023-02-14", "Oak Room"),
    ("C322", "LA2019", "Grace", "2022-12-05", "Oak Room"),
    ("C323", "LA2020", "Oscar", "2024-06-23", "Saplings"),
    ("C324", "LA2021", "Arthur", "2023-09-09", "Oak Room"),
    ("C325", "LA2022", "Maisie", "2024-03-18", "Saplings"),
    ("C326", "LA2023", "Ella", "2023-06-06", "Oak Room"),
    ("C327", "LA2024", "Jacob", "2024-07-30", "Saplings"),
]

# session, account, child, day, kind
SESSIONS = [
    ("S7001", "LA2001", "C301", "2027-01-13", "morning"),
    ("S7005", "LA2005", "C307", "2027-01-29", "afternoon"),
    ("S7006", "LA2006", "C308", "2027-01-15", "morning"),
    ("S7007", "LA2007", "C309", "2027-01-20", "morning"),
    ("S7008", "LA2008", "C310", "2027-02-03", "full"),
    ("S7009", "LA2009", "C311", "2027-01-14", "afternoon"),
    ("S7024", "LA2024", "C327", "2027-01-21", "full"),
]

# code, account, hours, valid until
FUNDING_CODES = [
    ("50012345678", "LA2010", 30, "2027-03-31"),
    ("50087654321", "LA2011", 15, "2027-03-31"),
    ("50011112222", "LA2018", 15, "2026-12-31"),
]

# collector, account, name, relationship, password, added by
COLLECTORS = [
    ("K101", "LA2013", "Meera Patel", "grandmother", "lotus", "Nina Patel"),
    ("K102", "LA2014", "Kelly Price", "childminder", "sunflower", "Gemma Wood"),
    ("K103", "LA2014", "Anne Wood", "grandmother", "robin", "Gemma Wood"),
    ("K104", "LA2015", "Jean Hall", "grandmother", "daffodil", "Lucy Hall"),
    ("K105", "LA2021", "Dave Morris", "grandfather", "kestrel", "Jade Morris"),
]

# invoice, account, period, issued, due, status, lines (description, pence)
INVOICES = [
    ("INV-4018", "LA2018", "December 2026", "2026-12-31", "2027-01-15", "open",
     [("December sessions (regular pattern)", 98000),
      ("Late collection fee, Wednesday 16 December", 1500)]),
    ("INV-4019", "LA2019", "November 2026", "2026-11-30", "2026-12-15", "paid",
     [("November sessions (regular pattern)", 64000),
      ("Extra full day, Friday 20 November", 5800)]),
    ("INV-4119", "LA2019", "December 2026", "2026-12-31", "2027-01-15", "open",
     [("December sessions (regular pattern)", 56000)]),
    ("INV-4022", "LA2022", "December 2026", "2026-12-31", "2027-01-15", "open",
     [("December sessions (regular pattern)", 62000), ("Extra morning, Friday 11 December", 3200),
      ("Late collection fee, Tuesday 8 December", 1500)]),
]
# extra places full in a room on a day: (room, day, morning free, afternoon free)
FULL_DAYS = [("Oak Room", "2027-01-22", 0, 0), ("Saplings", "2027-01-27", 0, 1)]
ROOMS = ("Seedlings", "Saplings", "Oak Room")
# fmt: on


def open_days(first: date, last: date) -> list[str]:
    days, day = [], first
    while day <= last:
        if day.weekday() < 5:
            days.append(day.isoformat())
        day += timedelta(days=1)
    return days


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO families VALUES (?,?,?,?,?,?)", FAMILIES)
    db.executemany(
        "INSERT INTO children (child_id, account_ref, first_name, dob, room) VALUES (?,?,?,?,?)",
        CHILDREN,
    )
    full = {(room, day): (am, pm) for room, day, am, pm in FULL_DAYS}
    db.executemany(
        "INSERT INTO places VALUES (?,?,?,?)",
        [(room, day, *full.get((room, day), (2, 2)))
         for room in ROOMS for day in open_days(date(2027, 1, 12), date(2027, 3, 31))],
    )  # fmt: skip
    rooms = {c[0]: c[4] for c in CHILDREN}
    for sid, acc, child, day, kind in SESSIONS:
        db.execute("INSERT INTO sessions (session_id, account_ref, child_id, day, kind, "
                   "price_pence) VALUES (?,?,?,?,?,?)",
                   (sid, acc, child, day, kind, PRICES[kind]))  # fmt: skip
        halves = {"morning": "am_free", "afternoon": "pm_free"}.get(kind)
        sets = [halves] if halves else ["am_free", "pm_free"]
        for col in sets:
            db.execute(f"UPDATE places SET {col} = {col} - 1 WHERE room = ? AND day = ?",  # noqa: S608
                       (rooms[child], day))  # fmt: skip
    db.executemany(
        "INSERT INTO funding_codes (code, account_ref, hours, valid_until) VALUES (?,?,?,?)",
        FUNDING_CODES,
    )
    db.executemany("INSERT INTO collectors (collector_id, account_ref, name, relationship, "
                   "password, added_by) VALUES (?,?,?,?,?,?)", COLLECTORS)  # fmt: skip
    for inv, acc, period, issued, due, status, lines in INVOICES:
        total = sum(p for _, p in lines)
        db.execute("INSERT INTO invoices VALUES (?,?,?,?,?,?,?)",
                   (inv, acc, period, issued, due, total, status))  # fmt: skip
        db.executemany("INSERT INTO invoice_lines VALUES (?,?,?,?)",
                       [(inv, n, d, p) for n, (d, p) in enumerate(lines, 1)])  # fmt: skip
