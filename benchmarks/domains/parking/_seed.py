"""Westbrook Borough Council parking desk: the schema and the seed data."""

from __future__ import annotations

import sqlite3

SCHEMA_SQL = """
CREATE TABLE accounts (
    account_no TEXT PRIMARY KEY, first_name TEXT NOT NULL, surname TEXT NOT NULL,
    address TEXT NOT NULL, postcode TEXT NOT NULL, zone TEXT NOT NULL, email TEXT NOT NULL,
    phone TEXT NOT NULL, card_last4 TEXT NOT NULL, card_expiry TEXT NOT NULL
);
CREATE TABLE permits (
    permit_no TEXT PRIMARY KEY, account_no TEXT NOT NULL REFERENCES accounts(account_no),
    vrm TEXT NOT NULL, zone TEXT NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL,
    price_pence INTEGER NOT NULL, status TEXT NOT NULL, cancelled_from TEXT,
    refund_pence INTEGER
);
CREATE TABLE visitor_passes (
    purchase_id TEXT PRIMARY KEY, account_no TEXT NOT NULL REFERENCES accounts(account_no),
    passes INTEGER NOT NULL, bought_on TEXT NOT NULL
);
CREATE TABLE pcns (
    pcn_no TEXT PRIMARY KEY, vrm TEXT NOT NULL, issued_on TEXT NOT NULL,
    contravention TEXT NOT NULL, location TEXT NOT NULL, status TEXT NOT NULL,
    paid_pence INTEGER NOT NULL DEFAULT 0, paid_on TEXT, challenge_reason TEXT
);
CREATE TABLE payments (
    payment_id TEXT PRIMARY KEY, account_no TEXT NOT NULL, item TEXT NOT NULL,
    amount_pence INTEGER NOT NULL, card_last4 TEXT NOT NULL, paid_on TEXT NOT NULL
);
"""

ACCOUNTS = [
    ("PA-20311", "Grace", "Okafor", "14 Elm Street", "WB3 7QT", "B", "grace.okafor@example.com",
     "07700 900311", "4412", "2028-03"),
    ("PA-20312", "Daniel", "Okafor", "14 Elm Street", "WB3 7QT", "B", "dan.okafor@example.com",
     "07700 900312", "8830", "2027-06"),
    ("PA-20418", "Priya", "Shah", "22 Elm Street", "WB3 7QT", "B", "priya.shah@example.com",
     "07700 900418", "1029", "2026-10"),
    ("PA-20527", "Tom", "Hughes", "3 Mill Lane", "WB1 2LP", "A", "tom.hughes@example.com",
     "07700 900527", "5561", "2029-01"),
    ("PA-20533", "Ellen", "Hughes", "9 Mill Lane", "WB1 2LP", "A", "ellen.hughes@example.com",
     "07700 900533", "7720", "2027-09"),
    ("PA-20640", "Marek", "Nowak", "41 Station Road", "WB2 9HS", "C", "marek.nowak@example.com",
     "07700 900640", "3305", "2028-11"),
    ("PA-20702", "Sarah", "Bennett", "5 Canal Row", "WB2 4RD", "C", "sarah.b@example.com",
     "07700 900702", "6648", "2027-02"),
]

PERMITS = [
    ("RP-5101", "PA-20311", "AB12 CDE", "B", "2026-01-01", "2026-12-31", 8000, "active"),
    ("RP-5102", "PA-20312", "AB12 CDF", "B", "2026-03-01", "2027-02-28", 12000, "active"),
    ("RP-5103", "PA-20418", "LK19 XRT", "B", "2025-12-20", "2026-12-19", 8000, "active"),
    ("RP-5104", "PA-20527", "WB68 HTU", "A", "2026-06-01", "2027-05-31", 8000, "active"),
    ("RP-5105", "PA-20527", "YC21 PLM", "A", "2026-09-01", "2027-08-31", 12000, "active"),
    ("RP-5106", "PA-20640", "MN70 KSD", "C", "2026-02-01", "2027-01-31", 8000, "active"),
    ("RP-5107", "PA-20702", "SB15 ENT", "C", "2026-04-15", "2027-04-14", 8000, "active"),
]

VISITOR_PASSES = [
    ("VP-301", "PA-20311", 40, "2026-03-10"),
    ("VP-302", "PA-20312", 50, "2026-08-02"),
    ("VP-303", "PA-20640", 20, "2026-05-05"),
    ("VP-304", "PA-20527", 10, "2026-07-19"),
]

PCNS = [
    ("WB40011234", "AB12 CDE", "2026-11-26", "parked in a permit bay without a valid permit",
     "Elm Street", "unpaid"),
    ("WB40011278", "AB12 CDF", "2026-11-30", "parked on double yellow lines", "High Street",
     "unpaid"),
    ("WB40010955", "MN70 KSD", "2026-11-18", "parked beyond the time allowed", "Station Road",
     "unpaid"),
    ("WB40010602", "SB15 ENT", "2026-10-29", "parked in a loading bay", "Canal Row", "unpaid"),
    ("WB40010890", "WB68 HTU", "2026-11-20", "parked in a permit bay without a valid permit",
     "Mill Lane", "unpaid"),
]


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO accounts VALUES (?,?,?,?,?,?,?,?,?,?)", ACCOUNTS)
    db.executemany(
        "INSERT INTO permits (permit_no, account_no, vrm, zone, start_date, end_date, "
        "price_pence, status) VALUES (?,?,?,?,?,?,?,?)", PERMITS)
    db.executemany("INSERT INTO visitor_passes VALUES (?,?,?,?)", VISITOR_PASSES)
    db.executemany(
        "INSERT INTO pcns (pcn_no, vrm, issued_on, contravention, location, status) "
        "VALUES (?,?,?,?,?,?)", PCNS)
