"""Linnet Broadband: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 18 November 2026, 10:00 (UK, GMT). Customers are
identified by their account number (LB and six digits) and the account holder's date of birth.
Working days are Monday to Friday but for the bank holidays below.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 11, 18, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# monthly prices by plan
PLANS = {"fibre100": 2800, "fibre500": 3800, "fibre900": 4800}
PLAN_NAMES = {"fibre100": "Fibre 100", "fibre500": "Fibre 500", "fibre900": "Fibre 900"}
TERM_MONTHS = 18  # the minimum term
COOLING_OFF_DAYS = 14  # no early termination charge within 14 days of the contract start
NOTICE_DAYS = 30  # a cancellation ends the service 30 days after it is asked for
WIRING_PENCE = 6500  # an engineer visit for a fault in the home's own wiring
COMPENSATION_PENCE = 933  # a day, from the day after the fault was reported until it was fixed
ROUTER_FREE_MONTHS = 24  # a replacement router is free within 24 months of the contract start
ROUTER_PENCE = 3500
ROUTER_DAYS = 3  # working days to deliver a router
VISIT_MIN_DAYS = 2  # an engineer visit at least 2 working days away
MOVE_NOTICE_DAYS = 10  # working days' notice of a home move
MOVE_FEE_PENCE = 5000  # waived with a new 18-month term
SLOTS = {"AM": "morning (8am to 1pm)", "PM": "afternoon (1pm to 6pm)"}
BANK_HOLIDAYS = {date(2026, 12, 25), date(2026, 12, 28), date(2027, 1, 1)}
# outward codes the fibre network does not reach
NO_FIBRE = {"LA22", "PH41", "IV27"}


def working_day(d: date) -> bool:
    return d.weekday() < 5 and d not in BANK_HOLIDAYS


def add_working_days(d: date, n: int) -> date:
    while n:
        d += timedelta(days=1)
        if working_day(d):
            n -= 1
    return d


def add_months(d: date, months: int) -> date:
    month = d.month - 1 + months
    year, month = d.year + month // 12, month % 12 + 1
    return date(year, month, min(d.day, 28))


def months_left(start: date, term_end: date) -> int:
    """Months from `start` to the end of the minimum term, a part month counting as whole."""
    if term_end <= start:
        return 0
    months = (term_end.year - start.year) * 12 + term_end.month - start.month
    return months + (1 if term_end.day > start.day else 0)


def next_bill(today: date, bill_day: int) -> date:
    """The next bill date after today (today's own bill has been made)."""
    if today.day < bill_day:
        return today.replace(day=bill_day)
    return add_months(today.replace(day=1), 1).replace(day=bill_day)


SCHEMA_SQL = """
CREATE TABLE customers (
    account_id TEXT PRIMARY KEY,              -- LB204001
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    plan TEXT NOT NULL,                       -- fibre100 / fibre500 / fibre900
    contract_start TEXT NOT NULL,             -- the current 18-month term began
    bill_day INTEGER NOT NULL,
    line_result TEXT NOT NULL DEFAULT 'network', -- what a line test finds: network / home_wiring
    status TEXT NOT NULL DEFAULT 'active',    -- active / cancelling
    end_date TEXT
);
CREATE TABLE plan_changes (
    change_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    from_plan TEXT NOT NULL,
    to_plan TEXT NOT NULL,
    effective TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE faults (
    fault_id TEXT PRIMARY KEY,                -- FT7001
    account_id TEXT NOT NULL,
    reported_on TEXT NOT NULL,
    fixed_on TEXT,                            -- NULL while open
    location TEXT                             -- network / home_wiring, once line-tested
);
CREATE TABLE visits (
    visit_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    fault_id TEXT NOT NULL,
    visit_date TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- AM / PM
    charge_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'
);
CREATE TABLE credits (
    credit_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    fault_id TEXT NOT NULL,
    days INTEGER NOT NULL,
    amount_pence INTEGER NOT NULL,
    bill_date TEXT NOT NULL
);
CREATE TABLE router_orders (
    order_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    charge_pence INTEGER NOT NULL,
    delivery_date TEXT NOT NULL,
    address TEXT NOT NULL
);
CREATE TABLE moves (
    move_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    new_address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    move_date TEXT NOT NULL,
    new_term INTEGER NOT NULL,                -- 1: a new 18-month term from the move date
    fee_pence INTEGER NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- early_termination / move_fee / router
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# account, name, date of birth, plan, contract start, bill day, address, line result;
# emails and mobiles follow from them (LB204007: rachel.stone@example.com, 07700 900107)
PEOPLE = [
    ("LB204001", "Helen Price", "1979-04-12", "fibre100", "2025-06-01", 1,
     "14 Station Road, Leeds LS1 4DY", "network"),
    ("LB204002", "Tom Baker", "1985-09-03", "fibre500", "2023-02-10", 10,
     "7 Park Lane, Leeds LS8 2JT", "network"),
    ("LB204003", "Sunita Rao", "1990-01-22", "fibre500", "2025-09-01", 1,
     "22 Victoria Street, Bradford BD1 2LP", "network"),
    ("LB204004", "Gareth Lloyd", "1972-07-30", "fibre500", "2025-05-15", 15,
     "3 Mill Hill, Harrogate HG1 5NE", "network"),
    ("LB204005", "Megan Hughes", "1988-11-05", "fibre100", "2024-12-01", 5,
     "51 Church Road, York YO10 4DT", "network"),
    ("LB204006", "Colin Fraser", "1965-02-14", "fibre100", "2024-01-20", 20,
     "9 Beech Avenue, Leeds LS6 3BQ", "home_wiring"),
    ("LB204007", "Rachel Stone", "1993-06-18", "fibre500", "2025-11-03", 3,
     "40 Queen Street, Wakefield WF1 1JU", "home_wiring"),
    ("LB204008", "Peter Walsh", "1970-10-09", "fibre900", "2025-04-25", 25,
     "18 Grove Terrace, Leeds LS4 2HW", "network"),
    ("LB204009", "Aisha Begum", "1982-03-27", "fibre500", "2025-07-12", 12,
     "6 Manor Close, Bradford BD8 7QS", "network"),
    ("LB204010", "Daniel Kerr", "1995-12-01", "fibre500", "2025-03-01", 1,
     "27 Kings Road, Harrogate HG1 5JW", "network"),
    ("LB204011", "Linda Marsh", "1958-08-19", "fibre100", "2022-05-01", 1,
     "2 Orchard Way, York YO24 1BG", "network"),
    ("LB204012", "Oliver Grant", "1987-05-05", "fibre500", "2025-08-01", 1,
     "8 Elm Road, Leeds LS7 3QP", "network"),
    ("LB204013", "Fatima Noor", "1991-09-14", "fibre900", "2023-01-06", 6,
     "60 Bridge Street, York YO1 6DD", "network"),
    ("LB204014", "James Cole", "1976-04-04", "fibre100", "2025-10-08", 8,
     "12 High Street, Otley LS21 3AB", "network"),
    ("LB204015", "Karen Doyle", "1969-01-31", "fibre500", "2025-02-14", 14,
     "5 Moor Lane, Ilkley LS29 8DB", "network"),
    ("LB204016", "Stephen Ellis", "1980-07-07", "fibre500", "2025-09-01", 1,
     "31 Cross Street, Leeds LS2 7EA", "network"),
    ("LB204017", "Chloe Adams", "1998-02-28", "fibre900", "2026-11-10", 10,
     "4 Albion Place, Leeds LS1 6JL", "network"),
    ("LB204018", "Martin Reid", "1962-11-23", "fibre100", "2023-04-01", 1,
     "19 Oak Drive, Wetherby LS22 6PD", "network"),
    ("LB204019", "Joan Reid", "1950-06-09", "fibre500", "2025-06-20", 20,
     "11 Chapel Row, Selby YO8 4PR", "network"),
    ("LB204020", "Nina Patel", "1984-10-10", "fibre100", "2024-06-15", 15,
     "72 North Street, Leeds LS7 1AF", "network"),
    ("LB204021", "Rob Turner", "1977-12-12", "fibre500", "2025-10-20", 20,
     "15 West Park, Harrogate HG1 1BJ", "network"),
    ("LB204022", "Emily Shaw", "1989-08-08", "fibre100", "2025-01-10", 10,
     "8 Cedar Grove, Leeds LS17 6NE", "network"),
    ("LB204023", "Owen Davies", "1974-03-03", "fibre500", "2024-09-05", 5,
     "44 Forest Road, York YO31 9LS", "network"),
]
CUSTOMERS = [
    (a, n, dob, n.lower().replace(" ", ".") + "@example.com", f"07700 900{100 + int(a[-2:])}",
     addr, plan, start, day, line)
    for a, n, dob, plan, start, day, addr, line in PEOPLE
]  # fmt: skip

# fault, account, reported, fixed, location (None until line-tested)
FAULTS = [
    ("FT7001", "LB204004", "2026-11-17", None, None),
    ("FT7002", "LB204005", "2026-11-16", None, None),
    ("FT7003", "LB204006", "2026-11-17", None, None),
    ("FT7004", "LB204007", "2026-11-18", None, None),
    ("FT7005", "LB204008", "2026-11-02", "2026-11-06", "network"),
    ("FT7006", "LB204009", "2026-11-12", None, "network"),
    ("FT7007", "LB204023", "2026-11-17", None, None),
    ("FT7008", "LB204011", "2026-06-03", "2026-06-04", "network"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany(
        "INSERT INTO customers (account_id, name, date_of_birth, email, phone, address, plan, "
        "contract_start, bill_day, line_result) VALUES (?,?,?,?,?,?,?,?,?,?)",
        CUSTOMERS,
    )
    db.executemany("INSERT INTO faults VALUES (?,?,?,?,?)", FAULTS)
    # the June fault was already compensated
    db.execute(
        "INSERT INTO credits (account_id, fault_id, days, amount_pence, bill_date) "
        "VALUES ('LB204011', 'FT7008', 1, 933, '2026-07-01')"
    )
