"""Harlow Home Insurance: schema, the fixed clock and the seed data.

The desk's clock is fixed at Thursday 3 December 2026, 10:00 (Leeds, GMT). Prices are in pence.
Add-ons are priced per policy year and charged or refunded pro rata for the days left; a
cancellation inside the 14-day cooling-off period refunds everything paid, after it the unused
part of what was paid less a £25.00 fee.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 3, 10, 0, tzinfo=LONDON)
COOLING_OFF_DAYS = 14
CANCELLATION_FEE_PENCE = 2500
ADDON_ANNUAL_PENCE = {"accidental_damage": 4800, "legal_cover": 2995}
ADDON_NAMES = {"accidental_damage": "accidental damage cover", "legal_cover": "legal cover"}
PERILS = ("storm", "escape_of_water", "theft", "fire", "accidental_damage")

SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,              -- the insured home
    email TEXT NOT NULL,
    correspondence_address TEXT NOT NULL,
    correspondence_postcode TEXT NOT NULL
);
CREATE TABLE policies (
    policy_number TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    status TEXT NOT NULL,                -- active / lapsed / cancelled
    annual_premium_pence INTEGER NOT NULL,
    billing TEXT NOT NULL,               -- monthly / annual
    payment_day INTEGER,                 -- day of the month of the direct debit (monthly only)
    paid_pence INTEGER NOT NULL,         -- premium paid so far this policy year
    excess_pence INTEGER NOT NULL,
    accidental_damage INTEGER NOT NULL,  -- 0 / 1
    legal_cover INTEGER NOT NULL,        -- 0 / 1
    cancelled_on TEXT,
    refund_pence INTEGER
);
CREATE TABLE adjustments (
    adjustment_id TEXT PRIMARY KEY,
    policy_number TEXT NOT NULL REFERENCES policies(policy_number),
    description TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,       -- charge (+) or refund (-)
    made_on TEXT NOT NULL
);
CREATE TABLE claims (
    claim_id TEXT PRIMARY KEY,
    policy_number TEXT NOT NULL REFERENCES policies(policy_number),
    peril TEXT NOT NULL,
    incident_date TEXT NOT NULL,
    description TEXT NOT NULL,
    estimate_pence INTEGER NOT NULL,
    excess_pence INTEGER NOT NULL,
    payable_pence INTEGER NOT NULL,      -- estimate less the excess, never below zero
    status TEXT NOT NULL,                -- open / settled / closed
    next_step TEXT NOT NULL,
    opened_on TEXT NOT NULL
);
"""

CUSTOMERS = [
    ("HC-2001", "Priya Nair", "14 Elmfield Road, Leeds", "LS6 2AB", "priya.nair@example.com"),
    ("HC-2002", "Tom Ellery", "3 Mill Lane, York", "YO1 7HT", "tom.ellery@example.com"),
    ("HC-2003", "Grace Mensah", "22 Park Terrace, Leeds", "LS2 9JT", "g.mensah@example.com"),
    ("HC-2004", "Daniel Price", "8 Canal Street, Leeds", "LS11 5PL", "dan.price@example.com"),
    ("HC-2005", "Susan Clarke", "41 Ashgrove, Bradford", "BD7 1BN", "sue.clarke@example.com"),
    ("HC-2006", "Mark Oduya", "17 Beech Avenue, Harrogate", "HG1 2QP", "m.oduya@example.com"),
    ("HC-2007", "Ian Clarke", "43 Ashgrove, Bradford", "BD7 1BN", "ian.clarke@example.com"),
    ("HC-2008", "Ravi Shah", "5 Church View, Wakefield", "WF1 3AA", "ravi.shah@example.com"),
    ("HC-2009", "Joanne Whitfield", "Flat 2, 19 Hyde Park Road, Leeds", "LS6 1AH",
     "jo.whitfield@example.com"),
    ("HC-2010", "Aaron Kelly", "60 Station Road, Hull", "HU1 2PB", "aaron.kelly@example.com"),
    ("HC-2011", "Beth Laing", "12 Rose Court, Leeds", "LS8 4DD", "beth.laing@example.com"),
    ("HC-2012", "Nina Patel", "9 Kirk Lane, Leeds", "LS16 7EF", "nina.patel@example.com"),
    ("HC-2013", "Owen Fraser", "2 Hill Top, Halifax", "HX1 5AB", "owen.fraser@example.com"),
    ("HC-2014", "Chloe Dunn", "31 Queens Road, Harrogate", "HG2 0HA", "chloe.dunn@example.com"),
]

# policy, customer, start, end, status, premium, billing, day, paid, excess, AD, legal
POLICIES = [
    ("HH-104211", "HC-2001", "2026-03-14", "2027-03-13", "active", 38400, "monthly", 14, 28800,
     25000, 0, 0),
    ("HH-104388", "HC-2002", "2026-11-26", "2027-11-25", "active", 30000, "monthly", 26, 2500,
     25000, 0, 0),
    ("HH-104502", "HC-2003", "2026-11-10", "2027-11-09", "active", 42000, "annual", None,
     42000, 35000, 0, 1),
    ("HH-104617", "HC-2004", "2025-11-01", "2026-10-31", "lapsed", 36000, "monthly", 1, 36000,
     25000, 0, 0),
    ("HH-104733", "HC-2005", "2026-05-02", "2027-05-01", "active", 45600, "monthly", 2, 30400,
     25000, 1, 1),
    ("HH-104850", "HC-2006", "2026-08-20", "2027-08-19", "active", 33000, "monthly", 20, 11000,
     25000, 0, 1),
    ("HH-104901", "HC-2007", "2026-04-18", "2027-04-17", "active", 34800, "monthly", 18, 23200,
     25000, 0, 0),
    ("HH-105044", "HC-2008", "2026-02-01", "2027-01-31", "active", 31200, "monthly", 1, 28600,
     10000, 1, 0),
    ("HH-105120", "HC-2009", "2026-01-15", "2027-01-14", "active", 27600, "monthly", 15, 25300,
     25000, 0, 0),
    ("HH-105233", "HC-2010", "2026-06-30", "2027-06-29", "active", 40800, "monthly", 28, 17000,
     10000, 1, 0),
    ("HH-105301", "HC-2011", "2026-09-09", "2027-09-08", "active", 29400, "monthly", 9, 7350,
     25000, 0, 0),
    ("HH-105377", "HC-2012", "2026-07-22", "2027-07-21", "active", 35400, "monthly", 22, 14750,
     25000, 0, 1),
    ("HH-105412", "HC-2013", "2026-10-05", "2027-10-04", "active", 32400, "monthly", 5, 5400,
     25000, 0, 0),
    ("HH-105468", "HC-2014", "2026-04-05", "2027-04-04", "active", 37200, "monthly", 5, 24800,
     25000, 1, 0),
]

CLAIMS = [
    ("CL-55012", "HH-104733", "escape_of_water", "2026-11-20",
     "Leak from the kitchen sink waste pipe; damaged kitchen floor and units", 180000, 25000,
     155000, "open", "loss adjuster visiting on Tuesday 8 December", "2026-11-21"),
    ("CL-55019", "HH-104901", "theft", "2026-11-24",
     "Bicycle and power tools stolen from the locked garden shed", 85000, 25000, 60000, "open",
     "waiting for the crime reference number from the customer", "2026-11-25"),
    ("CL-54870", "HH-105044", "storm", "2026-02-18",
     "Roof tiles blown off in Storm Imogen", 64000, 10000, 54000, "settled",
     "paid £540.00 on 9 March 2026", "2026-02-19"),
]


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)",
                   [(*c, c[2], c[3]) for c in CUSTOMERS])
    db.executemany("INSERT INTO policies VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,NULL)", POLICIES)
    db.executemany("INSERT INTO claims VALUES (?,?,?,?,?,?,?,?,?,?,?)", CLAIMS)
