"""Greenacre Allotments: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). The rent year is the
calendar year; next year's (2027) rent invoices went out on 1 November and are due by 31
January 2027. People on the allotment register (tenants and waiting-list applicants) are
identified by their tenancy number (GA and four digits) and the postcode on the register.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

SITES = ("Hill Road", "Mill Lane", "Church Fields")
RENT_PER_M2 = 48  # pence per square metre per year
WATER = {"full": 1800, "half": 900}  # the year's water charge by plot size
CONCESSION_PERCENT = 50  # off the rent (not water, sheds or bins) with a reference
EXTRAS = {"shed": 3600, "compost_bin": 800}  # a year's rent of a council shed / compost bin
EXTRA_DUE_DAYS = 30
LATE_FEE_PENCE = 1000  # an invoice paid after its due date
KEY_DEPOSIT_PENCE = 2000
MAX_COWORKERS = 2
APPEAL_DAYS = 14  # a warning can be appealed within 14 days of the inspection
REFUND_CUTOFF = (3, 1)  # a year's rent comes back only if the tenancy ends before 1 March
RENT_YEAR = 2027


def rent_for(area_m2: int) -> int:
    return area_m2 * RENT_PER_M2


SCHEMA_SQL = """
CREATE TABLE tenants (
    tenancy_id TEXT PRIMARY KEY,              -- GA2001 (waiting-list applicants have one too)
    name TEXT NOT NULL,
    address TEXT NOT NULL,                    -- the household
    postcode TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    card_ok INTEGER NOT NULL DEFAULT 1,       -- 0: the card on file is declined
    concession_ref TEXT
);
CREATE TABLE plots (
    plot_id TEXT PRIMARY KEY,                 -- HR-04
    site TEXT NOT NULL,
    size TEXT NOT NULL,                       -- full / half
    area_m2 INTEGER NOT NULL,
    tenancy_id TEXT,                          -- NULL: vacant
    status TEXT NOT NULL DEFAULT 'let',       -- let / notice / vacant
    end_date TEXT
);
CREATE TABLE waiting_list (
    entry_id INTEGER PRIMARY KEY,
    site TEXT NOT NULL,
    tenancy_id TEXT NOT NULL,
    joined TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'waiting'    -- waiting / left / housed
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-7006
    tenancy_id TEXT NOT NULL,
    year INTEGER NOT NULL,
    kind TEXT NOT NULL,                       -- rent / shed / compost_bin
    rent_pence INTEGER NOT NULL DEFAULT 0,
    water_pence INTEGER NOT NULL DEFAULT 0,
    other_pence INTEGER NOT NULL DEFAULT 0,
    discount_pence INTEGER NOT NULL DEFAULT 0,
    late_fee_pence INTEGER NOT NULL DEFAULT 0,
    issued TEXT NOT NULL,
    due TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'unpaid'     -- unpaid / paid / void / refunded
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    tenancy_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / refund / key_deposit
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE extras (
    extra_id INTEGER PRIMARY KEY,
    tenancy_id TEXT NOT NULL,
    plot_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- shed / compost_bin
    price_pence INTEGER NOT NULL
);
CREATE TABLE coworkers (
    coworker_id INTEGER PRIMARY KEY,
    tenancy_id TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE gate_keys (
    key_id INTEGER PRIMARY KEY,
    tenancy_id TEXT NOT NULL,
    holder TEXT NOT NULL,
    deposit_pence INTEGER NOT NULL
);
CREATE TABLE inspections (
    inspection_id TEXT PRIMARY KEY,           -- INS-311
    tenancy_id TEXT NOT NULL,
    plot_id TEXT NOT NULL,
    inspected_on TEXT NOT NULL,
    outcome TEXT NOT NULL,                    -- pass / warning
    note TEXT NOT NULL,
    appeal TEXT                               -- NULL / lodged
);
"""

# fmt: off
# tenancy, name, address, postcode, card, card ok; phones and emails follow from them
PEOPLE = [
    ("GA2001", "Carol Hughes", "3 Beech Walk", "GR4 7LP", "4417", 1),
    ("GA2002", "Dev Rao", "14 Elm Row", "GR2 3HT", "2290", 1),
    ("GA2003", "Meena Rao", "14 Elm Row", "GR2 3HT", "2291", 1),
    ("GA2004", "Lena Fischer", "27 Station Road", "GR1 5DQ", "8823", 1),
    ("GA2005", "Peter Walsh", "8 Kiln Lane", "GR3 9AB", "6610", 1),
    ("GA2006", "Joan Baker", "41 Hill Road", "GR1 2EF", "3051", 1),
    ("GA2007", "Sunil Mehta", "5 Weir Close", "GR2 8NN", "7702", 1),
    ("GA2008", "Margaret Doyle", "19 Church Street", "GR3 4JW", "1189", 1),
    ("GA2009", "Kevin Lowe", "62 Mill Lane", "GR2 6RS", "5534", 1),
    ("GA2010", "Ada Nwosu", "11 Orchard Way", "GR4 1BX", "9046", 1),
    ("GA2011", "Tom Becker", "2 Glebe Cottages", "GR3 5TT", "2718", 1),
    ("GA2012", "Rita Hall", "90 Hill Road", "GR1 2GH", "6284", 1),
    ("GA2013", "Gareth Price", "7 Tanners Yard", "GR2 4PL", "3141", 1),
    ("GA2014", "Nadia Karim", "33 Vicarage Road", "GR3 2QE", "8080", 1),
    ("GA2015", "Owen Reid", "15 Larch Drive", "GR1 8WA", "4242", 1),
    ("GA2016", "Brenda Cole", "4 Miller's Court", "GR2 7YD", "5150", 1),
    ("GA2017", "Harry Lim", "21 Abbey View", "GR3 6LU", "6006", 1),
    ("GA2018", "Eileen Shaw", "58 Hill Road", "GR1 2GJ", "7117", 1),
    ("GA2019", "Frank Osei", "12 Quarry Rise", "GR1 9KM", "1212", 1),
    ("GA2020", "Grace Tan", "6 Wharf Street", "GR2 5AE", "3434", 1),
    ("GA2021", "Victor Adams", "29 Chapel Row", "GR3 3CB", "5656", 1),
    ("GA2022", "Rosie Marsh", "77 Bridge Street", "GR2 1HX", "7878", 1),
    ("GA2023", "Iris Novak", "10 Fern Lane", "GR4 2SD", "9090", 1),
    ("GA2024", "Colin Birch", "36 Abbey View", "GR3 6LW", "1357", 1),
    ("GA2025", "Hugh Bell", "18 Rectory Lane", "GR3 8PP", "2468", 0),
    ("GA2026", "Maya Singh", "45 Station Road", "GR1 5DS", "3690", 1),
]
TENANTS = [
    (t, n, a, pc, f"07700 900{100 + int(t[-2:]):03d}",
     n.lower().replace(" ", ".") + "@example.com", card, ok, None)
    for t, n, a, pc, card, ok in PEOPLE
]  # fmt: skip

# plot, site, size, area, tenancy (None: vacant)
PLOTS = [
    ("HR-04", "Hill Road", "full", 250, "GA2006"),
    ("HR-06", "Hill Road", "half", 125, "GA2019"),
    ("HR-09", "Hill Road", "full", 250, "GA2009"),
    ("HR-14", "Hill Road", "full", 250, "GA2012"),
    ("HR-17", "Hill Road", "full", 250, "GA2015"),
    ("HR-20", "Hill Road", "half", 125, "GA2018"),
    ("HR-22", "Hill Road", "full", 250, None),
    ("ML-03", "Mill Lane", "half", 125, "GA2013"),
    ("ML-07", "Mill Lane", "full", 250, "GA2007"),
    ("ML-09", "Mill Lane", "full", 250, "GA2020"),
    ("ML-11", "Mill Lane", "full", 250, "GA2010"),
    ("ML-15", "Mill Lane", "half", 125, "GA2016"),
    ("ML-20", "Mill Lane", "full", 260, None),
    ("CF-02", "Church Fields", "full", 250, "GA2008"),
    ("CF-03", "Church Fields", "half", 125, "GA2021"),
    ("CF-05", "Church Fields", "full", 250, "GA2011"),
    ("CF-06", "Church Fields", "full", 250, "GA2025"),
    ("CF-08", "Church Fields", "full", 250, "GA2014"),
    ("CF-11", "Church Fields", "full", 240, "GA2017"),
    ("CF-14", "Church Fields", "half", 125, None),
]

# site, tenancy, joined
WAITING = [
    ("Hill Road", "GA2003", "2025-03-01"),
    ("Hill Road", "GA2020", "2025-05-10"),
    ("Hill Road", "GA2004", "2025-09-02"),
    ("Hill Road", "GA2026", "2026-04-18"),
    ("Mill Lane", "GA2022", "2025-06-20"),
    ("Mill Lane", "GA2023", "2026-01-09"),
    ("Church Fields", "GA2019", "2025-01-15"),
    ("Church Fields", "GA2005", "2025-07-04"),
    ("Church Fields", "GA2024", "2026-03-22"),
]

# invoice, tenancy, year, kind, rent, water, other, issued, due, status
INVOICES = [
    ("INV-7106", "GA2006", 2026, "rent", 12000, 1800, 0, "2025-11-01", "2026-01-31", "paid"),
    ("INV-7006", "GA2006", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7007", "GA2007", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "paid"),
    ("INV-7107", "GA2007", 2026, "shed", 0, 0, 3600, "2026-10-31", "2026-11-30", "unpaid"),
    ("INV-7008", "GA2008", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7009", "GA2009", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7010", "GA2010", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "paid"),
    ("INV-7013", "GA2013", 2027, "rent", 6000, 900, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7015", "GA2015", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7017", "GA2017", 2027, "rent", 11520, 1800, 0, "2026-11-01", "2027-01-31", "paid"),
    ("INV-7117", "GA2017", 2026, "rent", 11520, 1800, 0, "2025-11-01", "2026-01-31", "paid"),
    ("INV-7018", "GA2018", 2027, "rent", 6000, 900, 0, "2026-11-01", "2027-01-31", "paid"),
    ("INV-7019", "GA2019", 2027, "rent", 6000, 900, 0, "2026-11-01", "2027-01-31", "paid"),
    ("INV-7020", "GA2020", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7021", "GA2021", 2027, "rent", 6000, 900, 0, "2026-11-01", "2027-01-31", "unpaid"),
    ("INV-7025", "GA2025", 2027, "rent", 12000, 1800, 0, "2026-11-01", "2027-01-31", "unpaid"),
]

COWORKERS = [
    ("GA2014", "Ali Karim"),
    ("GA2014", "Rosa Lind"),
    ("GA2016", "Jo Marsh"),
]

# tenancy, holder
KEYS = [(p[4], next(t[1] for t in PEOPLE if t[0] == p[4])) for p in PLOTS if p[4]]

# inspection, tenancy, plot, day, outcome, note
INSPECTIONS = [
    ("INS-301", "GA2011", "CF-05", "2026-06-12", "pass", "well kept"),
    ("INS-311", "GA2011", "CF-05", "2026-12-01", "warning",
     "plot overgrown: less than half under cultivation"),
    ("INS-312", "GA2012", "HR-14", "2026-11-10", "warning",
     "rubbish and old carpet left on the plot"),
    ("INS-313", "GA2020", "ML-09", "2026-09-03", "pass", "well kept"),
]
# fmt: on

BONFIRE_MONTHS = (11, 12, 1, 2, 3)  # November to March
LAST_BONFIRE = date(2027, 3, 31)


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO tenants VALUES (?,?,?,?,?,?,?,?,?)", TENANTS)
    db.executemany(
        "INSERT INTO plots (plot_id, site, size, area_m2, tenancy_id, status) VALUES (?,?,?,?,?,?)",
        [(*p, "let" if p[4] else "vacant") for p in PLOTS],
    )
    db.executemany("INSERT INTO waiting_list (site, tenancy_id, joined) VALUES (?,?,?)", WAITING)
    db.executemany(
        "INSERT INTO invoices (invoice_id, tenancy_id, year, kind, rent_pence, water_pence, "
        "other_pence, issued, due, status) VALUES (?,?,?,?,?,?,?,?,?,?)",
        INVOICES,
    )
    db.executemany("INSERT INTO coworkers (tenancy_id, name) VALUES (?,?)", COWORKERS)
    db.executemany(
        "INSERT INTO gate_keys (tenancy_id, holder, deposit_pence) VALUES (?,?,?)",
        [(t, h, KEY_DEPOSIT_PENCE) for t, h in KEYS],
    )
    db.executemany(
        "INSERT INTO inspections (inspection_id, tenancy_id, plot_id, inspected_on, outcome, "
        "note) VALUES (?,?,?,?,?,?)",
        INSPECTIONS,
    )
