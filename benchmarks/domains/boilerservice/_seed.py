"""Hearthwell Heating: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Thursday 10 December 2026, 08:30 (UK, GMT). Engineers visit in a
morning window (08:00-12:00) or an afternoon window (12:00-16:00), in the postcode districts
they cover. Customers are identified by their customer number (HW and five digits) and the
postcode of a property on the account.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 10, 8, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
OFFICE = "01632 961 480"

WINDOWS = {"am": ("08:00", "12:00"), "pm": ("12:00", "16:00")}
WINDOW_WORDS = {"am": "morning", "pm": "afternoon"}
KINDS = {"service": "annual boiler service", "gas_safety": "landlord gas safety check",
         "breakdown": "breakdown call-out"}  # fmt: skip

SERVICE_PENCE = 8900  # the annual service, paid to the engineer on the day; free on a plan
GAS_SAFETY_PENCE = 7200  # the gas safety check and certificate (CP12), never on a plan
CALLOUT_WEEKDAY_PENCE = 9500  # a breakdown call-out, Monday to Friday, taken at booking
CALLOUT_SATURDAY_PENCE = 13500  # a breakdown call-out on a Saturday
CHANGE_NOTICE_HOURS = 24  # moves and cancellations free 24+ hours before the window starts
REBOOK_FEE_PENCE = 2500  # a move inside 24 hours
LATE_CANCEL_FEE_PENCE = 2500  # a service or gas safety check cancelled inside 24 hours
CALLOUT_REFUND_HOURS = 4  # a call-out cancelled 4+ hours before its window: fee refunded
COVER_WAIT_DAYS = 14  # breakdown cover on a new plan starts 14 days after the plan's start
PLAN_MONTHLY = {"cover": 950, "cover_plus": 1650}
PLAN_NAMES = {"none": "no plan", "cover": "Hearth Cover", "cover_plus": "Hearth Cover Plus"}
PLUS_MAX_AGE_YEARS = 10  # Cover Plus only for boilers installed less than 10 years ago
PARTS_CAP_PENCE = 40000  # Cover Plus pays parts up to £400.00 a repair
QUOTE_VALID_DAYS = 30  # a part quote can be approved up to 30 days after it was given
CERT_EARLY_MONTHS = 2  # a gas safety check up to 2 months early keeps the old expiry date
# no visits on Sundays or on these days; Saturdays are for breakdown call-outs only
CLOSED = {date(2026, 12, 25), date(2026, 12, 26), date(2026, 12, 28), date(2027, 1, 1)}
SLOTS_FROM, SLOTS_TO = date(2026, 12, 10), date(2027, 2, 26)


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- HW20101
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE properties (
    property_id TEXT PRIMARY KEY,             -- PR101
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,                   -- KV2 3LP
    district TEXT NOT NULL,                   -- KV2
    rented INTEGER NOT NULL DEFAULT 0,        -- let to a tenant: a landlord's property
    boiler TEXT NOT NULL,
    installed TEXT NOT NULL,                  -- the boiler's installation date
    last_service TEXT,
    plan TEXT NOT NULL DEFAULT 'none',        -- none / cover / cover_plus
    plan_start TEXT,
    monthly_pence INTEGER NOT NULL DEFAULT 0,
    cert_expiry TEXT,                         -- the current gas safety certificate's expiry
    tenant_name TEXT,
    tenant_phone TEXT
);
CREATE TABLE engineers (
    engineer_id TEXT PRIMARY KEY,             -- ENG1
    name TEXT NOT NULL,
    districts TEXT NOT NULL,                  -- "KV1,KV2,KV3"
    saturdays INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE slots (
    engineer_id TEXT NOT NULL REFERENCES engineers(engineer_id),
    day TEXT NOT NULL,
    window TEXT NOT NULL,                     -- am / pm
    status TEXT NOT NULL DEFAULT 'free',      -- free / booked / leave
    job_id TEXT,
    PRIMARY KEY (engineer_id, day, window)
);
CREATE TABLE jobs (
    job_id TEXT PRIMARY KEY,                  -- JOB-6108
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    property_id TEXT NOT NULL REFERENCES properties(property_id),
    kind TEXT NOT NULL,                       -- service / gas_safety / breakdown
    day TEXT NOT NULL,
    window TEXT NOT NULL,
    engineer_id TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- the visit's price (a call-out: its fee)
    paid_pence INTEGER NOT NULL DEFAULT 0,    -- taken at booking (call-out fees)
    status TEXT NOT NULL DEFAULT 'booked',    -- booked / attended / cancelled
    booked_at TEXT NOT NULL
);
CREATE TABLE part_quotes (
    quote_id TEXT PRIMARY KEY,                -- PQ-313
    customer_id TEXT NOT NULL,
    property_id TEXT NOT NULL,
    job_id TEXT NOT NULL,                     -- the visit that diagnosed it
    part TEXT NOT NULL,
    part_code TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- fitted, VAT included
    quoted_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'quoted',    -- quoted / approved
    customer_pays_pence INTEGER,
    approved_on TEXT
);
CREATE TABLE supplier_parts (
    part_code TEXT PRIMARY KEY,
    status TEXT NOT NULL                      -- in_stock / discontinued
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,               -- callout_fee / rebook_fee / cancel_fee / refund / part
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, card; the email and phone follow from them (HW20107: 07700 900107)
PEOPLE = [
    ("HW20101", "Aled Hughes", "4102"), ("HW20102", "Bethan Lloyd", "7731"),
    ("HW20103", "Carys Morgan", "2259"), ("HW20104", "Dominic Shaw", "6618"),
    ("HW20105", "Elin Parry", "3390"), ("HW20106", "Fraser Doyle", "8024"),
    ("HW20107", "Gwen Ashby", "5147"), ("HW20108", "Harriet Cole", "9903"),
    ("HW20109", "Ivor Bennett", "1276"), ("HW20110", "Jodie Marsh", "4460"),
    ("HW20111", "Kieran Walsh", "7385"), ("HW20112", "Lowri Price", "2811"),
    ("HW20113", "Martin Fenwick", "6052"), ("HW20114", "Nia Jenkins", "3719"),
    ("HW20115", "Oliver Grant", "8846"), ("HW20116", "Pippa Hart", "5521"),
    ("HW20117", "Rhys Tanner", "9168"), ("HW20118", "Sophie Lane", "1437"),
    ("HW20119", "Tomasz Kowal", "4093"), ("HW20120", "Una Fletcher", "7204"),
    ("HW20121", "Victor Osei", "2680"), ("HW20122", "Wendy Adeyemi", "6375"),
    ("HW20123", "Yusuf Demir", "3958"), ("HW20124", "Zoe Whitfield", "8512"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{c[-3:]}", card)
    for c, n, card in PEOPLE
]  # fmt: skip

# engineer, name, districts covered, works Saturdays
ENGINEERS = [
    ("ENG1", "Dev Mistry", "KV1,KV2,KV3", 1),
    ("ENG2", "Hollie Brennan", "KV3,KV4,KV5", 0),
    ("ENG3", "Marek Nowak", "KV5,KV6,KV7", 1),
    ("ENG4", "Sian Pryce", "KV7,KV8,KV9", 0),
]
# engineer, first and last day away (training): KV4 has nobody until Thursday 17 December
LEAVE = [("ENG2", date(2026, 12, 10), date(2026, 12, 16))]

# property, customer, address, postcode, rented, boiler, installed, last service, plan,
# plan start, cert expiry, tenant, tenant phone
PROPERTIES = [
    ("PR101", "HW20101", "31 Bramley Road", "KV2 3LP", 0, "Vaillant ecoTEC plus 832",
     "2019-04-02", "2025-11-20", "none", None, None, None, None),
    ("PR102", "HW20102", "4 Quarry Lane", "KV6 1DW", 0, "Ideal Logic Combi 30",
     "2018-06-15", "2025-12-01", "none", None, None, None, None),
    ("PR103", "HW20103", "22 Ferry Street", "KV1 4TB", 1, "Baxi 800 Combi",
     "2021-02-11", "2026-01-20", "none", None, "2027-01-05", "Dan Okoro", "07700 900713"),
    ("PR104", "HW20103", "7 Mill Court", "KV5 2QS", 1, "Worcester Greenstar 25i",
     "2017-10-03", "2026-03-02", "none", None, "2027-03-14", "Lena Fischer", "07700 900714"),
    ("PR105", "HW20104", "56 Chapel Hill", "KV5 8NE", 0, "Glow-worm Energy 30c",
     "2015-05-20", "2025-10-10", "none", None, None, None, None),
    ("PR106", "HW20105", "9 Heron Walk", "KV6 5JY", 0, "Ideal Vogue C32",
     "2020-08-08", "2025-09-30", "none", None, None, None, None),
    ("PR107", "HW20106", "27 Kiln Street", "KV7 2AB", 0, "Vaillant ecoTEC pro 28",
     "2017-01-19", "2026-11-25", "cover", "2026-12-01", None, None, None),
    ("PR108", "HW20107", "3 Rookery Close", "KV8 4PL", 0, "Worcester Greenstar 30i",
     "2022-03-30", "2025-12-12", "none", None, None, None, None),
    ("PR109", "HW20108", "14 Sandpiper Drive", "KV9 1RW", 0, "Baxi 600 Combi",
     "2019-11-11", "2025-12-15", "none", None, None, None, None),
    ("PR110", "HW20109", "8 Cooper's Lane", "KV1 7HD", 0, "Ideal Logic Max",
     "2021-05-05", "2025-12-10", "none", None, None, None, None),
    ("PR111", "HW20110", "12 Lark Rise", "KV4 3GG", 1, "Vokera Easi-Heat Plus",
     "2016-07-21", "2026-01-14", "none", None, "2027-01-20", "Sam Petrov", "07700 900711"),
    ("PR112", "HW20111", "60 Victoria Terrace", "KV2 9QE", 0, "Viessmann Vitodens 050",
     "2018-02-02", "2025-11-30", "none", None, None, None, None),
    ("PR113", "HW20112", "2 Forge Cottages", "KV3 1LW", 0, "Alpha E-Tec 33",
     "2020-01-15", "2025-12-09", "none", None, None, None, None),
    ("PR114", "HW20113", "41 Larch Avenue", "KV5 6TF", 0, "Potterton Assure 30",
     "2017-09-09", "2025-12-20", "none", None, None, None, None),
    ("PR115", "HW20114", "5 Aspen Court", "KV7 3HN", 0, "Vaillant ecoTEC plus 835",
     "2020-09-14", "2026-06-10", "cover_plus", "2025-06-01", None, None, None),
    ("PR116", "HW20115", "88 Mill Road", "KV8 2DD", 0, "Worcester Greenstar 24i",
     "2014-04-04", "2025-10-02", "none", None, None, None, None),
    ("PR117", "HW20116", "11 Thistle Way", "KV9 6BN", 0, "Baxi Duo-tec 28",
     "2012-11-30", "2025-11-11", "none", None, None, None, None),
    ("PR118", "HW20117", "19 Beacon Rise", "KV1 2SF", 0, "Ideal Independent C30",
     "2016-03-10", "2026-02-14", "none", None, None, None, None),
    ("PR119", "HW20118", "6 Cobble Lane", "KV2 5RR", 0, "Potterton Promax 24",
     "2013-09-01", "2026-04-22", "none", None, None, None, None),
    ("PR120", "HW20119", "Flat 3, 40 Station Road", "KV6 3EX", 1, "Ideal Logic Combi 24",
     "2019-03-19", "2026-04-02", "none", None, "2027-04-02", "Amy Reid", "07700 900731"),
    ("PR121", "HW20120", "12 Weaver's Row", "KV4 7UP", 1, "Baxi 600 Combi",
     "2018-10-22", "2026-01-08", "none", None, "2027-01-08", "Kofi Mensah", "07700 900721"),
    ("PR122", "HW20121", "9 Orchard Row", "KV3 6DE", 1, "Worcester Greenstar 29CDi",
     "2015-12-01", "2026-01-12", "none", None, "2027-01-12", "Ruth Ellis", "07700 900722"),
    ("PR123", "HW20122", "70 Meadow Bank", "KV4 2JS", 0, "Vaillant ecoTEC plus 825",
     "2021-11-03", "2025-12-18", "none", None, None, None, None),
    ("PR124", "HW20123", "Flat 2, 9 Rowan Court", "KV2 4NN", 0, "Ideal Logic Combi 30",
     "2020-06-06", "2025-12-21", "none", None, None, None, None),
    ("PR125", "HW20124", "5 Linden Way", "KV2 6HA", 0, "Worcester Greenstar 30i",
     "2019-08-19", "2025-12-14", "none", None, None, None, None),
]

# job, customer, property, kind, day, window, engineer, price, paid, status, booked at
JOBS = [
    ("JOB-6108", "HW20108", "PR109", "service", "2026-12-16", "am", "ENG4", 8900, 0,
     "booked", "2026-11-20 10:12"),
    ("JOB-6109", "HW20109", "PR110", "service", "2026-12-11", "am", "ENG1", 8900, 0,
     "booked", "2026-11-24 16:40"),
    ("JOB-6110", "HW20110", "PR111", "gas_safety", "2026-12-22", "pm", "ENG2", 7200, 0,
     "booked", "2026-11-30 09:05"),
    ("JOB-6111", "HW20111", "PR112", "breakdown", "2026-12-11", "pm", "ENG1", 9500, 9500,
     "booked", "2026-12-09 18:20"),
    ("JOB-6112", "HW20112", "PR113", "service", "2026-12-10", "am", "ENG1", 8900, 0,
     "booked", "2026-11-18 11:31"),
    ("JOB-6113", "HW20113", "PR114", "breakdown", "2026-12-03", "am", "ENG3", 9500, 9500,
     "attended", "2026-12-02 08:47"),
    ("JOB-6114", "HW20114", "PR115", "breakdown", "2026-12-07", "pm", "ENG3", 0, 0,
     "attended", "2026-12-07 07:58"),
    ("JOB-6115", "HW20115", "PR116", "breakdown", "2026-11-02", "am", "ENG4", 9500, 9500,
     "attended", "2026-10-31 12:03"),
    ("JOB-6116", "HW20116", "PR117", "breakdown", "2026-12-08", "am", "ENG4", 9500, 9500,
     "attended", "2026-12-07 19:26"),
    ("JOB-6117", "HW20124", "PR125", "service", "2026-12-14", "am", "ENG1", 8900, 0,
     "booked", "2026-11-26 14:14"),
    ("JOB-6171", "HW20123", "PR124", "service", "2026-12-21", "pm", "ENG1", 8900, 0,
     "booked", "2026-12-01 13:50"),
]

# quote, customer, property, job, part, part code, price, quoted on
QUOTES = [
    ("PQ-313", "HW20113", "PR114", "JOB-6113", "diverter valve", "POT-DV-30", 13800,
     "2026-12-03"),
    ("PQ-314", "HW20114", "PR115", "JOB-6114", "heat exchanger", "VAI-HX-35", 46000,
     "2026-12-07"),
    ("PQ-315", "HW20115", "PR116", "JOB-6115", "fan assembly", "WOR-FAN-24", 21200,
     "2026-11-02"),
    ("PQ-316", "HW20116", "PR117", "JOB-6116", "printed circuit board", "BAX-PCB-07", 24500,
     "2026-12-08"),
]
SUPPLIER = [("POT-DV-30", "in_stock"), ("VAI-HX-35", "in_stock"), ("WOR-FAN-24", "in_stock"),
            ("BAX-PCB-07", "discontinued")]  # fmt: skip
# the call-out fees paid for the seeded call-outs
CHARGES = [
    ("HW20111", "callout_fee", 9500, "JOB-6111", "2026-12-09 18:20"),
    ("HW20113", "callout_fee", 9500, "JOB-6113", "2026-12-02 08:47"),
    ("HW20115", "callout_fee", 9500, "JOB-6115", "2026-10-31 12:03"),
    ("HW20116", "callout_fee", 9500, "JOB-6116", "2026-12-07 19:26"),
]
# fmt: on


def district(postcode: str) -> str:
    """The outward code of a postcode: "KV2 3LP" -> "KV2"."""
    code = postcode.strip().upper()
    return code.split()[0] if " " in code else code[:-3]


def _days() -> Iterator[date]:
    day = SLOTS_FROM
    while day <= SLOTS_TO:
        yield day
        day += timedelta(days=1)


def _slot_rows() -> Iterator[tuple[str, str, str, str]]:
    """Every engineer's windows: Monday to Friday, Saturdays for some, none on closed days."""
    for engineer_id, _name, _districts, saturdays in ENGINEERS:
        for day in _days():
            if day.weekday() == 6 or day in CLOSED or (day.weekday() == 5 and not saturdays):
                continue
            away = any(e == engineer_id and a <= day <= b for e, a, b in LEAVE)
            for window in WINDOWS:
                yield engineer_id, day.isoformat(), window, "leave" if away else "free"


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", CUSTOMERS)
    db.executemany(
        "INSERT INTO properties (property_id, customer_id, address, postcode, district, rented, "
        "boiler, installed, last_service, plan, plan_start, monthly_pence, cert_expiry, "
        "tenant_name, tenant_phone) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(*p[:4], district(p[3]), *p[4:10], PLAN_MONTHLY.get(p[8], 0), *p[10:])
         for p in PROPERTIES],
    )  # fmt: skip
    db.executemany("INSERT INTO engineers VALUES (?,?,?,?)", ENGINEERS)
    db.executemany("INSERT INTO slots (engineer_id, day, window, status) VALUES (?,?,?,?)",
                   list(_slot_rows()))  # fmt: skip
    db.executemany("INSERT INTO jobs VALUES (?,?,?,?,?,?,?,?,?,?,?)", JOBS)
    for job in JOBS:
        if job[9] == "booked":
            db.execute(
                "UPDATE slots SET status = 'booked', job_id = ? "
                "WHERE engineer_id = ? AND day = ? AND window = ?",
                (job[0], job[6], job[4], job[5]),
            )
    db.executemany(
        "INSERT INTO part_quotes (quote_id, customer_id, property_id, job_id, part, part_code, "
        "price_pence, quoted_on) VALUES (?,?,?,?,?,?,?,?)",
        QUOTES,
    )
    db.executemany("INSERT INTO supplier_parts VALUES (?,?)", SUPPLIER)
    db.executemany(
        "INSERT INTO charges (customer_id, kind, amount_pence, ref, created_at) VALUES (?,?,?,?,?)",
        CHARGES,
    )
