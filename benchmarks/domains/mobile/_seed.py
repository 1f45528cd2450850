"""Brightwave Mobile: schema, seed data and the fixed clock."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta, timezone

BST = timezone(timedelta(hours=1), "BST")
NOW = datetime(2026, 5, 13, 11, 0, tzinfo=BST)
"""Wednesday 13 May 2026, 11:00 UK time. Nothing reads the real clock."""
TODAY: date = NOW.date()

SIM_SWAP_FEE = 10.00
PAC_VALID_DAYS = 30
MAX_ROAMING_DAYS = 30

SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    account_pin TEXT NOT NULL,
    bill_due_day INTEGER NOT NULL,
    overdue_balance REAL NOT NULL DEFAULT 0
);
CREATE TABLE plans (
    plan_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    family TEXT NOT NULL CHECK (family IN ('sim_only', 'handset')),
    monthly_price REAL NOT NULL,
    data_gb INTEGER,                      -- NULL: unlimited data
    eu_roaming_included INTEGER NOT NULL DEFAULT 0,
    on_sale INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE lines (
    phone_number TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    user_name TEXT NOT NULL,
    plan_id TEXT NOT NULL REFERENCES plans(plan_id),
    contract_start TEXT NOT NULL,
    contract_end TEXT NOT NULL,
    sim_id TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
    roaming_barred INTEGER NOT NULL DEFAULT 0,
    data_used_gb REAL NOT NULL DEFAULT 0
);
CREATE TABLE addons (
    addon_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('data', 'roaming')),
    price REAL NOT NULL,                  -- data: per add-on; roaming: per day
    data_gb INTEGER,
    zone TEXT
);
CREATE TABLE line_addons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL REFERENCES lines(phone_number),
    addon_id TEXT NOT NULL REFERENCES addons(addon_id),
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    price REAL NOT NULL,
    added_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'
);
CREATE TABLE bills (
    bill_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    period TEXT NOT NULL,                 -- YYYY-MM of the usage billed
    issued_on TEXT NOT NULL,
    due_on TEXT NOT NULL,
    total REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('paid', 'due', 'overdue'))
);
CREATE TABLE bill_items (
    item_id INTEGER PRIMARY KEY AUTOINCREMENT,
    bill_id TEXT NOT NULL REFERENCES bills(bill_id),
    phone_number TEXT NOT NULL,
    description TEXT NOT NULL,
    amount REAL NOT NULL,
    kind TEXT NOT NULL,                   -- plan, addon, roaming, usage, fee
    detail TEXT NOT NULL DEFAULT ''
);
CREATE TABLE plan_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL REFERENCES lines(phone_number),
    from_plan TEXT NOT NULL,
    to_plan TEXT NOT NULL,
    changed_on TEXT NOT NULL,
    prorated_amount REAL NOT NULL
);
CREATE TABLE sim_swaps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL REFERENCES lines(phone_number),
    old_sim_id TEXT NOT NULL,
    new_sim_id TEXT NOT NULL,
    fee REAL NOT NULL,
    requested_on TEXT NOT NULL,
    deliver_by TEXT NOT NULL
);
CREATE TABLE port_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL REFERENCES lines(phone_number),
    pac_code TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    expires_on TEXT NOT NULL
);
CREATE TABLE cancellations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone_number TEXT NOT NULL REFERENCES lines(phone_number),
    cancelled_on TEXT NOT NULL,
    early_termination_fee REAL NOT NULL
);
CREATE TABLE session (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    verified_customer_id TEXT,
    method TEXT,
    failed_attempts INTEGER NOT NULL DEFAULT 0
);
"""

PLANS = [
    # plan_id, name, family, price, data_gb, eu_roaming_included, on_sale
    ("ESS5", "Essentials 5GB", "sim_only", 12.00, 5, 0, 1),
    ("SMART30", "Smart 30GB", "sim_only", 18.00, 30, 0, 1),
    ("MAX100", "Max 100GB", "sim_only", 25.00, 100, 0, 1),
    ("UNL", "Unlimited", "sim_only", 32.00, None, 1, 1),
    ("FLEX10", "Flex 10GB + phone", "handset", 30.00, 10, 0, 1),
    ("FLEX50", "Flex 50GB + phone", "handset", 38.00, 50, 0, 1),
    ("FLEXUNL", "Flex Unlimited + phone", "handset", 45.00, None, 1, 1),
    ("TALK2", "Talk & Text 2GB (retired)", "sim_only", 8.00, 2, 0, 0),
]

ADDONS = [
    # addon_id, name, kind, price, data_gb, zone
    ("DATA5", "5GB data add-on", "data", 5.00, 5, None),
    ("DATA20", "20GB data add-on", "data", 12.50, 20, None),
    ("ROAM_EU", "Europe roaming pass", "roaming", 2.50, None, "europe"),
    ("ROAM_NA", "USA & Canada roaming pass", "roaming", 5.00, None, "usa_canada"),
    ("ROAM_WORLD", "Worldwide roaming pass", "roaming", 7.50, None, "world"),
]

CUSTOMERS = [
    # id, name, dob, email, address, postcode, pin, due day, overdue balance
    ("C1001", "Amelia Hart", "1988-03-14", "amelia.hart@example.co.uk",
     "14 Birch Grove, Leeds", "LS6 2AB", "0274", 15, 0.0),
    ("C1002", "Daniel Okoro", "1979-11-02", "daniel.okoro@example.co.uk",
     "8 Harbour Street, Bristol", "BS1 4RT", "5521", 1, 0.0),
    ("C1003", "Priya Nair", "1992-07-21", "priya.nair@example.co.uk",
     "3 Lime Court, Manchester", "M14 5QP", "8830", 20, 0.0),
    ("C1004", "George Whitfield", "1956-05-30", "g.whitfield@example.co.uk",
     "22 Orchard Lane, Norwich", "NR2 3HT", "1147", 5, 0.0),
    ("C1005", "Sofia Rossi", "1990-12-09", "sofia.rossi@example.co.uk",
     "51 Canal Wharf, Birmingham", "B1 2JX", "6402", 10, 0.0),
    ("C1006", "Tom Reid", "1985-04-17", "tom.reid@example.co.uk",
     "9 Cedar Road, Leeds", "LS8 1DN", "3019", 25, 0.0),
    ("C1007", "Hannah Lewis", "1999-01-25", "hannah.lewis@example.co.uk",
     "Flat 4, 17 Queen's Road, Brighton", "BN1 3XE", "7715", 12, 0.0),
    ("C1008", "Marcus Bell", "1983-08-08", "marcus.bell@example.co.uk",
     "60 Station Road, Cardiff", "CF10 1AB", "4490", 18, 0.0),
    ("C1009", "Olivia Grant", "1971-09-03", "olivia.grant@example.co.uk",
     "2 Mill Lane, York", "YO1 7HH", "9362", 8, 46.50),
]

LINES = [
    # phone, customer, user, plan, contract start, contract end, sim, roaming barred, data used
    ("07700900123", "C1001", "Amelia Hart", "SMART30", "2025-10-01", "2026-09-30",
     "8944100000000123", 0, 12.4),
    ("07700900456", "C1002", "Daniel Okoro", "FLEX10", "2025-03-01", "2027-02-28",
     "8944100000000456", 0, 6.1),
    ("07700900457", "C1002", "Sam Okoro", "ESS5", "2024-06-01", "2025-05-31",
     "8944100000000457", 0, 4.8),
    ("07700900789", "C1003", "Priya Nair", "MAX100", "2024-02-01", "2026-01-31",
     "8944100000000789", 0, 38.0),
    ("07700900321", "C1004", "George Whitfield", "TALK2", "2019-08-01", "2020-07-31",
     "8944100000000321", 0, 2.0),
    ("07700900654", "C1005", "Sofia Rossi", "MAX100", "2025-09-01", "2026-08-31",
     "8944100000000654", 0, 21.7),
    ("07700900888", "C1006", "Tom Reid", "ESS5", "2024-12-01", "2025-11-30",
     "8944100000000888", 0, 1.9),
    ("07700900246", "C1007", "Hannah Lewis", "SMART30", "2025-07-01", "2026-06-30",
     "8944100000000246", 0, 17.3),
    ("07700900135", "C1008", "Marcus Bell", "FLEX50", "2025-07-01", "2027-06-30",
     "8944100000000135", 0, 22.0),
    ("07700900975", "C1009", "Olivia Grant", "SMART30", "2023-04-01", "2024-03-31",
     "8944100000000975", 1, 9.5),
]

_PLAN_FEE = "Monthly plan charge, billed in advance."
_118 = ("Directory-enquiry services (118 numbers) are charged per call by the service and are "
        "not part of the plan's inclusive minutes.")
_DAYPASS = ("The phone was used abroad without a roaming pass, so the automatic day rate of "
            "£2.50 per day used applied.")
_PREMIUM = ("Texts to premium short codes (competitions, votes, subscriptions) are charged by "
            "the service provider and collected on the Brightwave bill.")
_LATE = "A £5.00 late payment fee applies when a bill is paid after its due date."
_INTL = ("Calls from the UK to numbers abroad are not part of the plan's inclusive minutes; "
         "they are charged per minute.")
_0871 = "Calls to 0871 numbers carry a service charge set by the company called."

BILL_ITEMS = {
    # customer: {period: [(phone, description, amount, kind, detail)]}
    "C1001": {
        "2026-03": [("07700900123", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE)],
        "2026-04": [
            ("07700900123", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE),
            ("07700900123", "Call to 118 118 (directory enquiries), 12 April", 7.50, "usage", _118),
            ("07700900123", "Europe roaming day rate, France, 3-4 April (2 days x £2.50)", 5.00,
             "roaming", _DAYPASS),
        ],
    },
    "C1002": {
        "2026-03": [
            ("07700900456", "Flex 10GB + phone monthly charge", 30.00, "plan", _PLAN_FEE),
            ("07700900457", "Essentials 5GB monthly charge", 12.00, "plan", _PLAN_FEE),
        ],
        "2026-04": [
            ("07700900456", "Flex 10GB + phone monthly charge", 30.00, "plan", _PLAN_FEE),
            ("07700900457", "Essentials 5GB monthly charge", 12.00, "plan", _PLAN_FEE),
            ("07700900457", "Premium texts to short code 80888 (3 x £1.50)", 4.50, "usage",
             _PREMIUM),
        ],
    },
    "C1003": {
        "2026-03": [("07700900789", "Max 100GB monthly charge", 25.00, "plan", _PLAN_FEE)],
        "2026-04": [
            ("07700900789", "Max 100GB monthly charge", 25.00, "plan", _PLAN_FEE),
            ("07700900789", "Late payment fee (March bill paid 6 days late)", 5.00, "fee", _LATE),
        ],
    },
    "C1004": {
        "2026-03": [("07700900321", "Talk & Text 2GB monthly charge", 8.00, "plan", _PLAN_FEE)],
        "2026-04": [
            ("07700900321", "Talk & Text 2GB monthly charge", 8.00, "plan", _PLAN_FEE),
            ("07700900321", "1GB data top-up, 21 April", 3.00, "addon",
             "A one-off data top-up bought when the plan's data ran out."),
        ],
    },
    "C1005": {
        "2026-03": [("07700900654", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE)],
        "2026-04": [("07700900654", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE)],
    },
    "C1006": {
        "2026-03": [("07700900888", "Essentials 5GB monthly charge", 12.00, "plan", _PLAN_FEE)],
        "2026-04": [("07700900888", "Essentials 5GB monthly charge", 12.00, "plan", _PLAN_FEE)],
    },
    "C1007": {
        "2026-03": [("07700900246", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE)],
        "2026-04": [
            ("07700900246", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE),
            ("07700900246", "International calls to Poland (6 calls, 41 minutes)", 9.84, "usage",
             _INTL),
        ],
    },
    "C1008": {
        "2026-03": [("07700900135", "Flex 50GB + phone monthly charge", 38.00, "plan", _PLAN_FEE)],
        "2026-04": [("07700900135", "Flex 50GB + phone monthly charge", 38.00, "plan", _PLAN_FEE)],
    },
    "C1009": {
        "2026-03": [("07700900975", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE)],
        "2026-04": [
            ("07700900975", "Smart 30GB monthly charge", 18.00, "plan", _PLAN_FEE),
            ("07700900975", "Calls to 0871 numbers (4 calls)", 10.50, "usage", _0871),
        ],
    },
}

ISSUED = {"2026-03": "2026-04-01", "2026-04": "2026-05-01"}
DUE_MONTH = {"2026-03": "2026-04", "2026-04": "2026-05"}


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with Brightwave's customers, lines, plans and bills."""
    db.executemany("INSERT INTO plans VALUES (?, ?, ?, ?, ?, ?, ?)", PLANS)
    db.executemany("INSERT INTO addons VALUES (?, ?, ?, ?, ?, ?)", ADDONS)
    db.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", CUSTOMERS)
    db.executemany(
        "INSERT INTO lines (phone_number, customer_id, user_name, plan_id, contract_start,"
        " contract_end, sim_id, roaming_barred, data_used_gb) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        LINES,
    )
    due_days = {c[0]: c[7] for c in CUSTOMERS}
    overdue = {c[0] for c in CUSTOMERS if c[8] > 0}
    for customer, periods in BILL_ITEMS.items():
        for period, items in periods.items():
            bill_id = f"B-{customer[1:]}-{period.replace('-', '')}"
            due_on = f"{DUE_MONTH[period]}-{due_days[customer]:02d}"
            status = "paid" if due_on < TODAY.isoformat() else "due"
            if customer in overdue:
                status = "overdue"
            total = round(sum(item[2] for item in items), 2)
            db.execute(
                "INSERT INTO bills VALUES (?, ?, ?, ?, ?, ?, ?)",
                (bill_id, customer, period, ISSUED[period], due_on, total, status),
            )
            db.executemany(
                "INSERT INTO bill_items (bill_id, phone_number, description, amount, kind, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(bill_id, *item) for item in items],
            )
    # Sofia moved from Smart 30GB to Max 100GB on 4 May: one plan change per billing month.
    db.execute(
        "INSERT INTO plan_changes (phone_number, from_plan, to_plan, changed_on, prorated_amount)"
        " VALUES ('07700900654', 'SMART30', 'MAX100', '2026-05-04', 6.32)"
    )
    db.execute("INSERT INTO session (id, failed_attempts) VALUES (1, 0)")
