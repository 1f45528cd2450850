"""Oakmere Homes repairs line: schema, the fixed clock, priorities, price list and the seed data.

The desk's clock is fixed at Tuesday 8 December 2026, 10:00 (UK, GMT). Callers are identified by
the tenancy reference (OH and five digits) and their own date of birth, as held on the tenancy
for the named tenant, a registered representative or another listed household member.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 8, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# bank holidays in the window the desk books into: never working days
BANK_HOLIDAYS = {date(2026, 12, 25), date(2026, 12, 28), date(2027, 1, 1)}
URGENT_WORKING_DAYS = 5  # urgent repairs: attended within 5 working days
ROUTINE_DAYS = 28  # routine repairs: within 28 calendar days
EMERGENCY_HOURS = 24  # emergencies: attended within 24 hours
DAMP_WORKING_DAYS = 10  # a damp-and-mould inspection within 10 working days
STAGE1_WORKING_DAYS = 10  # complaint responses
STAGE2_WORKING_DAYS = 20
CHANGE_HOURS = 24  # no change or cancellation within 24 hours of the appointment's start
MAX_AHEAD_DAYS = 28  # an appointment is never moved further ahead than this from today
RECHARGE_PAY_DAYS = 28

# rechargeable work caused by the household, VAT included (price list, pence)
RECHARGES = {
    "lock_change": ("changing the locks after lost keys", 8500),
    "reglazing": ("boarding up and reglazing a window broken by the household", 14000),
    "internal_door": ("replacing an internal door damaged by the household", 11000),
    "toilet_misuse": ("clearing a toilet blocked by wipes, nappies or objects", 6500),
}
TRADES = {"PL": "plumbing", "EL": "electrical", "JN": "joinery", "HT": "heating",
          "GZ": "glazing", "SV": "surveyor"}  # fmt: skip
WINDOWS = {"AM": ("08:00", "12:00"), "PM": ("12:00", "16:00"), "EM": ("14:00", "20:00")}
VULNERABILITIES = {"age", "disability", "health", "young_child"}


def add_working_days(day: date, count: int, *, skip_holidays: bool = True) -> date:
    """The working day `count` working days after `day` (weekends and bank holidays skipped)."""
    while count:
        day += timedelta(days=1)
        if day.weekday() < 5 and not (skip_holidays and day in BANK_HOLIDAYS):
            count -= 1
    return day


def working_days() -> list[date]:
    """The days contractors work, from tomorrow to mid-January."""
    out, day = [], NOW.date()
    while day < date(2027, 1, 16):
        day += timedelta(days=1)
        if day.weekday() < 5 and day not in BANK_HOLIDAYS:
            out.append(day)
    return out


SCHEMA_SQL = """
CREATE TABLE tenancies (
    tenancy_ref TEXT PRIMARY KEY,              -- OH20101
    address TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    call_ahead_phone TEXT,                     -- contractors ring it before arriving
    vulnerability TEXT NOT NULL DEFAULT ''     -- comma list: age, disability, health, young_child
);
CREATE TABLE people (
    person_id TEXT PRIMARY KEY,                -- H101
    tenancy_ref TEXT NOT NULL REFERENCES tenancies(tenancy_ref),
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    role TEXT NOT NULL                         -- tenant / representative / occupant
);
CREATE TABLE slots (
    slot_id TEXT PRIMARY KEY,                  -- PL-1211-AM
    trade TEXT NOT NULL,
    day TEXT NOT NULL,
    window TEXT NOT NULL,                      -- AM 08-12, PM 12-16, EM (emergency) 14-20
    taken INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE repairs (
    repair_id TEXT PRIMARY KEY,                -- RP7005
    tenancy_ref TEXT NOT NULL,
    problem TEXT NOT NULL,
    trade TEXT NOT NULL,
    priority TEXT NOT NULL,                    -- emergency / urgent / routine
    due_by TEXT NOT NULL,
    slot_id TEXT,
    reported_by TEXT NOT NULL,
    recharge_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'booked'      -- booked / cancelled / completed
);
CREATE TABLE inspections (
    inspection_id TEXT PRIMARY KEY,            -- DM901
    tenancy_ref TEXT NOT NULL,
    rooms TEXT NOT NULL,
    slot_id TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'booked'
);
CREATE TABLE complaints (
    complaint_id TEXT PRIMARY KEY,             -- CP3010
    tenancy_ref TEXT NOT NULL,
    summary TEXT NOT NULL,
    stage INTEGER NOT NULL,
    opened TEXT NOT NULL,
    respond_by TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'        -- open / responded / closed
);
CREATE TABLE recharges (
    recharge_id INTEGER PRIMARY KEY,
    tenancy_ref TEXT NOT NULL,
    repair_id TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    due TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# tenancy, address, vulnerability; emails and phones follow from the tenant's name and number
TENANCIES = [
    ("OH20101", "Flat 2, 12 Alder Court", ""),
    ("OH20102", "7 Birch Lane", ""),
    ("OH20103", "Flat 3, 12 Alder Court", ""),
    ("OH20104", "22 Cedar Road", ""),
    ("OH20105", "5 Elm Close", ""),
    ("OH20106", "14 Elm Close", ""),
    ("OH20107", "3 Foxglove Walk", "age"),
    ("OH20108", "Flat 6, 30 Rowan House", ""),
    ("OH20109", "41 Willow Street", ""),
    ("OH20110", "9 Willow Street", ""),
    ("OH20111", "17 Maple Road", ""),
    ("OH20112", "28 Maple Road", ""),
    ("OH20113", "Flat 1, 30 Rowan House", "age"),
    ("OH20114", "Flat 4, 30 Rowan House", ""),
    ("OH20115", "6 Heron Way", ""),
    ("OH20116", "11 Heron Way", ""),
    ("OH20117", "2 Linden Grove", ""),
    ("OH20118", "19 Linden Grove", ""),
    ("OH20119", "Flat 1, 8 Hazel Court", ""),
    ("OH20120", "Flat 2, 8 Hazel Court", "health"),
    ("OH20121", "25 Orchard Rise", ""),
    ("OH20122", "4 Orchard Rise", "health"),
    ("OH20123", "Flat 5, 12 Alder Court", ""),
    ("OH20124", "33 Sorrel Drive", ""),
]

# person, tenancy, name, date of birth, role
PEOPLE = [
    ("H101", "OH20101", "Margaret Byrne", "1961-04-19", "tenant"),
    ("H102", "OH20102", "Kwame Mensah", "1985-09-02", "tenant"),
    ("H103", "OH20103", "Sophie Turner", "1990-01-27", "tenant"),
    ("H104", "OH20104", "Derek Lowe", "1972-06-30", "tenant"),
    ("H105", "OH20105", "Aisha Rahman", "1979-11-05", "tenant"),
    ("H106", "OH20106", "Peter Quinn", "1966-02-14", "tenant"),
    ("H107", "OH20107", "Edith Clarke", "1936-08-08", "tenant"),
    ("H127", "OH20107", "Helen Clarke", "1968-03-21", "representative"),
    ("H108", "OH20108", "Nia Davies", "1994-07-12", "tenant"),
    ("H109", "OH20109", "Gary Holt", "1958-10-10", "tenant"),
    ("H110", "OH20110", "Farah Iqbal", "1983-05-25", "tenant"),
    ("H111", "OH20111", "Liam Walsh", "1988-12-01", "tenant"),
    ("H112", "OH20112", "Rosa Martin", "1982-02-09", "tenant"),
    ("H113", "OH20113", "Joan Fletcher", "1950-03-03", "tenant"),
    ("H114", "OH20114", "Chloe Adams", "1997-06-18", "tenant"),
    ("H115", "OH20115", "Victor Osei", "1975-09-09", "tenant"),
    ("H116", "OH20116", "Brian Kelly", "1969-01-15", "tenant"),
    ("H117", "OH20117", "Sandra Price", "1971-07-07", "tenant"),
    ("H118", "OH20118", "Tom Reid", "1992-04-04", "tenant"),
    ("H119", "OH20119", "Grace Bell", "1987-10-30", "tenant"),
    ("H120", "OH20120", "Dean Hughes", "1977-02-28", "tenant"),
    ("H121", "OH20121", "Irene Shaw", "1955-12-12", "tenant"),
    ("H131", "OH20121", "Mark Shaw", "1990-05-05", "occupant"),
    ("H122", "OH20122", "Harold Finch", "1948-11-11", "tenant"),
    ("H123", "OH20123", "Leah Morgan", "1991-08-23", "tenant"),
    ("H124", "OH20124", "Omar Haddad", "1984-03-17", "tenant"),
]

# repair, tenancy, problem, trade, priority, due by, slot, reported by
REPAIRS = [
    ("RP7005", "OH20105", "ceiling light not working", "electrical", "routine", "2027-01-01",
     "EL-1214-AM", "Aisha Rahman"),
    ("RP7006", "OH20106", "bedroom door sticking", "joinery", "routine", "2027-01-02",
     "JN-1211-PM", "Peter Quinn"),
    ("RP7007", "OH20107", "leaking pipe under the kitchen sink", "plumbing", "urgent",
     "2026-12-15", "PL-1215-AM", "Helen Clarke"),
    ("RP7012", "OH20112", "bath tap dripping", "plumbing", "routine", "2026-12-31", "PL-1210-PM",
     "Rosa Martin"),
    ("RP7013", "OH20113", "socket in the living room not working", "electrical", "routine",
     "2027-01-02", "EL-1216-PM", "Joan Fletcher"),
    ("RP7015", "OH20115", "kitchen cupboard door hanging off", "joinery", "routine",
     "2027-01-03", "JN-1211-AM", "Victor Osei"),
    ("RP7020", "OH20120", "leaking bath waste", "plumbing", "urgent", "2026-12-14",
     "PL-1210-AM", "Dean Hughes"),
    ("RP7021", "OH20121", "cracked bedroom window pane", "glazing", "urgent", "2026-12-14",
     "GZ-1214-PM", "Irene Shaw"),
    ("RP7024", "OH20124", "bath blocked", "plumbing", "urgent", "2026-12-14", "PL-1209-AM",
     "Omar Haddad"),
]

# complaint, tenancy, summary, stage, opened, respond by, status
COMPLAINTS = [
    ("CP3010", "OH20110", "contractor left rubble in the garden", 1, "2026-12-03", "2026-12-17",
     "open"),
    ("CP3017", "OH20117", "three missed appointments for a leaking roof", 1, "2026-11-10",
     "2026-11-24", "responded"),
]
# fmt: on


def slot_rows() -> list[tuple[str, str, str, str, int]]:
    """Every contractor's slots: AM and PM on working days, emergency slots today."""
    rows = []
    for code, trade in TRADES.items():
        if code != "SV":
            rows.append((f"{code}-{NOW:%m%d}-EM", trade, NOW.date().isoformat(), "EM", 0))
        for day in working_days():
            for window in ("AM", "PM"):
                # the first working day is fully booked by other households already
                busy = int(day == working_days()[0])
                rows.append((f"{code}-{day:%m%d}-{window}", trade, day.isoformat(), window, busy))
    return rows


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    first = {p[1]: p[2] for p in reversed(PEOPLE)}
    db.executemany(
        "INSERT INTO tenancies (tenancy_ref, address, email, phone, vulnerability) "
        "VALUES (?,?,?,?,?)",
        [(t, a, first[t].lower().replace(" ", ".") + "@example.com",
          f"07700 900{int(t[-3:]):03d}", v) for t, a, v in TENANCIES],
    )  # fmt: skip
    db.executemany("INSERT INTO people VALUES (?,?,?,?,?)", PEOPLE)
    db.executemany("INSERT INTO slots VALUES (?,?,?,?,?)", slot_rows())
    db.executemany(
        "INSERT INTO repairs (repair_id, tenancy_ref, problem, trade, priority, due_by, slot_id, "
        "reported_by) VALUES (?,?,?,?,?,?,?,?)",
        REPAIRS,
    )
    db.executemany("UPDATE slots SET taken = 1 WHERE slot_id = ?", [(r[6],) for r in REPAIRS])
    db.executemany("INSERT INTO complaints VALUES (?,?,?,?,?,?,?)", COMPLAINTS)
