"""Northgate Assessment: schema, the fixed clock, fees, rules and the seed data.

The desk's clock is fixed at Monday 11 January 2027, 10:00 (UK, GMT). Exam sessions are on
Saturdays. Candidates are identified by their candidate number (NA and five digits) and their
date of birth; a parent registered on the account may act for a candidate under 18.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 1, 11, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

FEES = {"B2": 18000, "C1": 19500, "C2": 21000}  # the entry fee by level
ENTRY_CLOSE_DAYS = 42  # entries close 6 weeks before the session
LATE_CLOSE_DAYS = 21  # a late entry is taken until 3 weeks before, never after
LATE_FEE_PENCE = 4500
TRANSFER_FEE_PENCE = 3000  # to another session of the same level
TRANSFER_DAYS = 14  # up to 2 weeks before the original session
HALF_REFUND_DAYS = 28  # a withdrawal 4+ weeks before the session gets half the fee back
ACCESS_DAYS = 28  # access arrangement evidence must arrive 4 weeks before the session
REMARK_FEE_PENCE = 4000
REMARK_DAYS = 30  # a re-mark is asked for within 30 days of results day
CERTIFICATE_FEE_PENCE = 2500
CERTIFICATE_DAYS = 30  # only a certificate issued more than 30 days ago is replaced
ADULT_AGE = 18
ARRANGEMENTS = {"extra_time": "25% extra time", "reader": "a reader"}

SCHEMA_SQL = """
CREATE TABLE candidates (
    candidate_id TEXT PRIMARY KEY,            -- NA31001
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    parent_name TEXT,                         -- a parent registered on the account
    card_last4 TEXT NOT NULL,
    evidence_on TEXT                          -- access-arrangement evidence received on
);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,              -- NS203
    level TEXT NOT NULL,                      -- B2 / C1 / C2
    day TEXT NOT NULL                         -- the exam day (a Saturday)
);
CREATE TABLE entries (
    entry_id TEXT PRIMARY KEY,                -- EN7004
    candidate_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    fee_paid_pence INTEGER NOT NULL,          -- the entry fee and any late fee
    medical_cert INTEGER NOT NULL DEFAULT 0,  -- a medical certificate is on file
    status TEXT NOT NULL DEFAULT 'entered'    -- entered / withdrawn
);
CREATE TABLE access_arrangements (
    access_id INTEGER PRIMARY KEY,
    entry_id TEXT NOT NULL,
    arrangement TEXT NOT NULL,                -- extra_time / reader
    status TEXT NOT NULL                      -- approved / awaiting_evidence
);
CREATE TABLE results (
    result_id TEXT PRIMARY KEY,               -- RS8017
    candidate_id TEXT NOT NULL,
    level TEXT NOT NULL,
    session_day TEXT NOT NULL,
    results_day TEXT NOT NULL,
    grade TEXT NOT NULL,                      -- Distinction / Merit / Pass / Fail
    certificate_issued TEXT                   -- the day the certificate was issued
);
CREATE TABLE remarks (
    remark_id INTEGER PRIMARY KEY,
    result_id TEXT NOT NULL,
    fee_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'requested'
);
CREATE TABLE certificate_orders (
    order_id INTEGER PRIMARY KEY,
    result_id TEXT NOT NULL,
    fee_pence INTEGER NOT NULL,
    ordered_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    candidate_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- entry / transfer_fee / remark_fee /
                                              -- certificate_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# candidate, name, date of birth, parent registered, card, access evidence received on;
# emails and phones follow from them (NA31018: liam.oconnor@example.com, 07700 900118)
PEOPLE = [
    ("NA31001", "Sofia Marin", "1998-04-14", None, "4417", None),
    ("NA31002", "Tomasz Nowak", "1995-09-02", None, "2290", None),
    ("NA31003", "Daniel Okoro", "2007-06-30", "Grace Okoro", "8823", None),
    ("NA31004", "Hiroshi Tanaka", "1990-11-21", None, "6610", None),
    ("NA31005", "Amara Nwosu", "2001-02-08", None, "3051", None),
    ("NA31006", "Lucia Ferrari", "1999-07-19", None, "7702", "2026-11-30"),
    ("NA31007", "Pieter de Vries", "1987-03-03", None, "1189", None),
    ("NA31008", "Chen Wei", "2000-12-12", None, "5534", None),
    ("NA31009", "Olivia Brown", "1993-05-27", None, "9046", None),
    ("NA31010", "Rahul Mehta", "1996-08-15", None, "2718", None),
    ("NA31011", "Ines Castro", "1992-01-09", None, "6284", None),
    ("NA31012", "Jonas Berg", "1997-10-04", None, "3141", None),
    ("NA31013", "Fatima Haddad", "2002-06-06", None, "8080", None),
    ("NA31014", "Mateo Silva", "1994-03-30", None, "4242", None),
    ("NA31015", "Grace Kim", "2003-09-17", None, "5150", "2026-12-01"),
    ("NA31016", "Yusuf Demir", "1998-12-25", None, "6006", None),
    ("NA31017", "Anna Kowalska", "1991-07-07", None, "7117", None),
    ("NA31018", "Liam O'Connor", "1989-02-14", None, "1212", None),
    ("NA31019", "Elena Petrova", "1985-11-11", None, "3434", None),
    ("NA31020", "Maya Patel", "2010-05-12", "Nisha Patel", "5656", None),
    ("NA31021", "Kofi Mensah", "1999-01-23", None, "7878", None),
    ("NA31022", "Sara Lindqvist", "1996-04-01", None, "9090", None),
    ("NA31023", "Omar Farouk", "1994-08-08", None, "1357", None),
]


def _email(name: str) -> str:
    return name.lower().replace("'", "").replace(" ", ".") + "@example.com"


CANDIDATES = [
    (c, n, dob, _email(n), f"07700 900{100 + int(c[-2:])}", parent, card, evidence)
    for c, n, dob, parent, card, evidence in PEOPLE
]  # fmt: skip

# session, level, day
SESSIONS = [
    ("NS101", "B2", "2027-01-23"), ("NS102", "B2", "2027-02-13"),
    ("NS103", "B2", "2027-03-06"), ("NS104", "B2", "2027-03-27"),
    ("NS201", "C1", "2027-01-30"), ("NS202", "C1", "2027-02-20"),
    ("NS203", "C1", "2027-03-20"), ("NS204", "C1", "2027-05-15"),
    ("NS301", "C2", "2027-02-06"), ("NS302", "C2", "2027-03-06"),
    ("NS303", "C2", "2027-04-17"),
]

# entry, candidate, session, fee paid, medical certificate on file
ENTRIES = [
    ("EN7004", "NA31004", "NS101", 18000, 0),
    ("EN7005", "NA31005", "NS301", 21000, 0),
    ("EN7008", "NA31008", "NS103", 18000, 0),
    ("EN7011", "NA31011", "NS203", 19500, 0),
    ("EN7012", "NA31012", "NS103", 18000, 0),
    ("EN7013", "NA31013", "NS202", 24000, 1),
    ("EN7014", "NA31014", "NS302", 21000, 0),
    ("EN7015", "NA31015", "NS103", 18000, 0),
    ("EN7016", "NA31016", "NS101", 18000, 0),
    ("EN7022", "NA31022", "NS104", 18000, 0),
]

# result, candidate, level, session day, results day, grade, certificate issued
RESULTS = [
    ("RS8003", "NA31003", "C1", "2026-11-07", "2026-12-22", "Merit", "2026-12-29"),
    ("RS8007", "NA31007", "C2", "2026-11-07", "2026-12-22", "Pass", "2026-12-29"),
    ("RS8017", "NA31017", "C1", "2026-11-07", "2026-12-22", "Pass", "2026-12-29"),
    ("RS8018", "NA31018", "C2", "2026-10-10", "2026-11-24", "Pass", "2026-12-01"),
    ("RS8019", "NA31019", "B2", "2025-06-14", "2025-07-29", "Merit", "2025-08-12"),
    ("RS8021", "NA31021", "C2", "2026-11-07", "2026-12-22", "Distinction", "2026-12-29"),
    ("RS8023", "NA31023", "C1", "2026-11-07", "2026-12-22", "Fail", None),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO candidates VALUES (?,?,?,?,?,?,?,?)", CANDIDATES)
    db.executemany("INSERT INTO sessions VALUES (?,?,?)", SESSIONS)
    db.executemany(
        "INSERT INTO entries (entry_id, candidate_id, session_id, fee_paid_pence, medical_cert) "
        "VALUES (?,?,?,?,?)",
        ENTRIES,
    )
    db.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?)", RESULTS)
