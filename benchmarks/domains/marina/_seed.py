"""Saltmarsh Marina: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 10 May 2027, 10:00 (UK, BST). Berth-holders and registered
visitors are identified by their berth-holder number (SM and four digits) and the name of the
boat on the account. Lengths and draughts are kept in centimetres.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 5, 10, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
GATE_CODE = "4817"  # this month's code for the pontoon gates: texted, never said

# visitor berths: nightly rate by length band (up to the band's length, in cm): off-peak, peak
VISITOR_BANDS = [(800, 2400, 3200), (1000, 3000, 4000), (1200, 3600, 4800), (1500, 4500, 6000)]
VISITOR_MAX_CM = 1500
PEAK_FIRST, PEAK_LAST = (6, 1), (8, 31)  # the peak season's nights: 1 June to 31 August
VISITOR_FREE_CANCEL_DAYS = 7  # 7+ days before arrival: all back; inside: the first night kept

# annual berth contracts: the berth's length in metres and its price for the contract year
BERTH_ANNUAL = {8: 240000, 10: 300000, 12: 360000, 15: 450000}

# lift-out and storage ashore
LIFT_WEEKDAYS = (1, 3)  # Tuesdays and Thursdays
LIFTS_PER_DAY = 3
LIFT_FIXED_PENCE = 12000  # lift-out, pressure wash and chocking
LIFT_PER_METRE_PENCE = 1000
STORAGE_PER_METRE_WEEK_PENCE = 300
LIFT_FREE_CHANGE_DAYS = 7  # a lift moved 7+ days before its day is free
LIFT_CHANGE_FEE_PENCE = 3000

TOPUP_MIN_PENCE, TOPUP_MAX_PENCE = 1000, 10000  # electricity top-ups, whole pounds
CREW_PASS_CAP = 4  # active crew/guest passes per boat


def season(day: date) -> str:
    return "peak" if PEAK_FIRST <= (day.month, day.day) <= PEAK_LAST else "off-peak"


def night_rate(length_cm: int, night: date) -> int:
    """A visitor night for a boat of this length on this night (0 when too long)."""
    for upto, off_peak, peak in VISITOR_BANDS:
        if length_cm <= upto:
            return peak if season(night) == "peak" else off_peak
    return 0


def fuel_hours(day: date) -> tuple[str, str] | None:
    """The fuel berth's opening hours on a day; None when it is closed."""
    if (day.month, day.day) in {(12, 25), (12, 26)}:
        return None
    if season(day) == "peak":
        return ("07:00", "20:00")
    if 4 <= day.month <= 10:
        return ("08:00", "18:00")
    return ("09:00", "16:00")


SCHEMA_SQL = """
CREATE TABLE holders (
    holder_id TEXT PRIMARY KEY,               -- SM2001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,                      -- the mobile on record: gate codes go here
    card_last4 TEXT NOT NULL
);
CREATE TABLE boats (
    boat_id TEXT PRIMARY KEY,                 -- B101
    holder_id TEXT NOT NULL REFERENCES holders(holder_id),
    name TEXT NOT NULL,
    length_cm INTEGER NOT NULL,
    draught_cm INTEGER NOT NULL,
    insurer TEXT NOT NULL,
    policy_no TEXT NOT NULL,
    insurance_expiry TEXT NOT NULL,
    meter_pence INTEGER NOT NULL DEFAULT 0    -- electricity credit on the berth's pedestal
);
CREATE TABLE pontoons (
    pontoon TEXT PRIMARY KEY,                 -- A / B / C
    max_length_cm INTEGER NOT NULL,
    max_draught_cm INTEGER NOT NULL,
    visitor_berths INTEGER NOT NULL
);
CREATE TABLE berths (
    berth_id TEXT PRIMARY KEY,                -- A04
    pontoon TEXT NOT NULL,
    size_m INTEGER NOT NULL
);
CREATE TABLE contracts (
    contract_id TEXT PRIMARY KEY,             -- BC4006
    holder_id TEXT NOT NULL,
    boat_id TEXT NOT NULL,
    berth_id TEXT NOT NULL,
    starts TEXT NOT NULL,
    ends TEXT NOT NULL,                       -- the contract year's last day
    payment TEXT NOT NULL,                    -- annual / monthly
    annual_pence INTEGER NOT NULL,
    monthly_pence INTEGER NOT NULL,           -- 0 for annual payers
    status TEXT NOT NULL DEFAULT 'active',    -- active / notice_given
    notice_end TEXT                           -- the last day after notice was given
);
CREATE TABLE visitor_bookings (
    booking_id TEXT PRIMARY KEY,              -- VB3004
    holder_id TEXT NOT NULL,
    boat_id TEXT NOT NULL,
    pontoon TEXT NOT NULL,
    arrival TEXT NOT NULL,
    departure TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- paid in full at booking
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE lifts (
    lift_id TEXT PRIMARY KEY,                 -- LO5013
    holder_id TEXT NOT NULL,
    boat_id TEXT NOT NULL,
    lift_date TEXT NOT NULL,
    storage_weeks INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,             -- lift and storage, paid on the lift day
    status TEXT NOT NULL DEFAULT 'booked'
);
CREATE TABLE crew_passes (
    pass_id INTEGER PRIMARY KEY,
    boat_id TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'
);
CREATE TABLE meter_topups (
    topup_id INTEGER PRIMARY KEY,
    boat_id TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE gate_code_sends (
    send_id INTEGER PRIMARY KEY,
    holder_id TEXT NOT NULL,
    phone TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    holder_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- visitor / refund / berth_change / change_fee /
    amount_pence INTEGER NOT NULL,            -- electricity
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# holder, name, card; emails and phones follow from them (SM2016: pat.lyle@example.com,
# 07700 900716)
PEOPLE = [
    ("SM2001", "Alan Reed", "4401"), ("SM2002", "Beth Marsh", "2202"),
    ("SM2003", "Colin Shaw", "8803"), ("SM2004", "Dana Fry", "6604"),
    ("SM2005", "Ed Lowe", "3005"), ("SM2006", "Fay Quinn", "7706"),
    ("SM2007", "Gil Hart", "1107"), ("SM2008", "Hugh Penn", "5508"),
    ("SM2009", "Iris Cole", "9009"), ("SM2010", "Jim Dale", "2710"),
    ("SM2011", "Kay Webb", "6211"), ("SM2012", "Leo Park", "3112"),
    ("SM2013", "Mia Ross", "8013"), ("SM2014", "Ned Ames", "4214"),
    ("SM2015", "Ola Berg", "5115"), ("SM2016", "Pat Lyle", "6016"),
    ("SM2017", "Quin Yates", "7117"), ("SM2018", "Rae Tully", "1218"),
    ("SM2019", "Sid Varga", "3419"), ("SM2020", "Tia Nolan", "5620"),
    ("SM2021", "Uma Grant", "7821"), ("SM2022", "Vic Hale", "9022"),
    ("SM2023", "Wyn Ford", "1323"),
]
HOLDERS = [
    (h, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{700 + int(h[-2:])}", card)
    for h, n, card in PEOPLE
]

# boat, holder, name, length cm, draught cm, insurer, policy, expiry, meter credit
BOATS = [
    ("B101", "SM2001", "Curlew", 940, 140, "Pantaenius", "PX-40101", "2028-02-28", 0),
    ("B102", "SM2002", "Kittiwake", 1120, 180, "Craftinsure", "CI-70102", "2028-01-31", 0),
    ("B103", "SM2003", "Tern", 1400, 240, "Pantaenius", "PX-40103", "2027-11-30", 0),
    ("B104", "SM2004", "Puffin", 860, 130, "GJW Direct", "GJ-10104", "2028-03-31", 0),
    ("B105", "SM2005", "Gannet", 990, 150, "Craftinsure", "CI-70105", "2027-12-31", 0),
    ("B106", "SM2006", "Osprey", 980, 150, "Navigators & General", "NG-20106", "2028-03-31", 1250),
    ("B107", "SM2007", "Shearwater", 960, 140, "Pantaenius", "PX-40107", "2028-01-15", 800),
    ("B108", "SM2008", "Albatross", 1120, 170, "GJW Direct", "GJ-10108", "2027-10-31", 2100),
    ("B109", "SM2009", "Heron", 900, 130, "Craftinsure", "CI-70109", "2028-02-28", 500),
    ("B110", "SM2010", "Petrel", 1050, 160, "Pantaenius", "PX-40110", "2028-03-31", 1500),
    ("B111", "SM2011", "Skua", 940, 140, "Navigators & General", "NG-20111", "2028-01-31", 900),
    ("B112", "SM2012", "Fulmar", 880, 130, "Craftinsure", "CI-70112", "2027-05-20", 400),
    ("B113", "SM2013", "Guillemot", 1020, 150, "GJW Direct", "GJ-10113", "2028-02-28", 0),
    ("B114", "SM2014", "Razorbill", 900, 130, "Pantaenius", "PX-40114", "2028-04-30", 600),
    ("B115", "SM2015", "Dunlin", 760, 110, "Craftinsure", "CI-70115", "2028-03-31", 350),
    ("B116", "SM2016", "Godwit", 840, 120, "GJW Direct", "GJ-10116", "2028-01-31", 1800),
    ("B117", "SM2017", "Avocet", 1000, 150, "Pantaenius", "PX-40117", "2028-02-28", 700),
    ("B118", "SM2018", "Plover", 1180, 180, "Navigators & General", "NG-20118", "2028-03-31", 0),
    ("B119", "SM2019", "Redshank", 920, 140, "Navigators & General", "NG-20119", "2027-05-31",
     1100),
    ("B120", "SM2020", "Sanderling", 1250, 220, "Pantaenius", "PX-40120", "2027-06-30", 0),
    ("B121", "SM2021", "Knot", 960, 140, "Craftinsure", "CI-70121", "2028-01-31", 650),
    ("B122", "SM2022", "Turnstone", 800, 120, "GJW Direct", "GJ-10122", "2028-02-28", 200),
    ("B123", "SM2023", "Whimbrel", 1300, 230, "Pantaenius", "PX-40123", "2028-03-31", 0),
]

# pontoon, max length cm, max draught cm, visitor berths
PONTOONS = [("A", 1000, 160, 3), ("B", 1200, 200, 2), ("C", 1500, 260, 2)]
BERTHS = (
    [(f"A{n:02d}", "A", 8) for n in range(1, 4)]
    + [(f"A{n:02d}", "A", 10) for n in range(4, 14)]
    + [(f"B{n:02d}", "B", 12) for n in range(1, 7)]
    + [(f"C{n:02d}", "C", 15) for n in range(1, 4)]
)

# contract, holder, boat, berth, payment; every contract year runs 1 April 2027 - 31 March 2028
_CONTRACTS = [
    ("BC4006", "SM2006", "B106", "A04", "annual"),
    ("BC4007", "SM2007", "B107", "B01", "monthly"),
    ("BC4008", "SM2008", "B108", "B02", "annual"),
    ("BC4009", "SM2009", "B109", "A05", "annual"),
    ("BC4010", "SM2010", "B110", "B03", "monthly"),
    ("BC4011", "SM2011", "B111", "A06", "annual"),
    ("BC4012", "SM2012", "B112", "A07", "monthly"),
    ("BC4013", "SM2013", "B113", "B04", "annual"),
    ("BC4014", "SM2014", "B114", "A08", "annual"),
    ("BC4015", "SM2015", "B115", "A01", "monthly"),
    ("BC4016", "SM2016", "B116", "A09", "annual"),
    ("BC4017", "SM2017", "B117", "A10", "annual"),
    ("BC4018", "SM2018", "B118", "B05", "annual"),
    ("BC4019", "SM2019", "B119", "A11", "monthly"),
    ("BC4021", "SM2021", "B121", "A12", "annual"),
    ("BC4022", "SM2022", "B122", "A02", "monthly"),
]
_SIZE = {b[0]: b[2] for b in BERTHS}
CONTRACTS = [
    (c, h, b, berth, "2027-04-01", "2028-03-31", pay, BERTH_ANNUAL[_SIZE[berth]],
     BERTH_ANNUAL[_SIZE[berth]] // 12 if pay == "monthly" else 0)
    for c, h, b, berth, pay in _CONTRACTS
]

# booking, holder, boat, pontoon, arrival, departure, price
VISITS = [
    ("VB3004", "SM2004", "B104", "A", "2027-06-05", "2027-06-08", 12000),
    ("VB3005", "SM2005", "B105", "A", "2027-05-13", "2027-05-16", 9000),
    ("VB3020", "SM2020", "B120", "C", "2027-06-03", "2027-06-06", 18000),
    ("VB3023", "SM2023", "B123", "C", "2027-06-04", "2027-06-07", 18000),
]

# lift, holder, boat, lift day, storage weeks, price
LIFTS = [
    ("LO5013", "SM2013", "B113", "2027-05-13", 4, 34440),
    ("LO5014", "SM2014", "B114", "2027-05-13", 4, 31800),
]

CREW = [
    ("B117", "Ruth Yates"),
    ("B118", "Anna Tully"), ("B118", "Ben Tully"), ("B118", "Carl Mendes"),
    ("B118", "Dora Pike"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO holders VALUES (?,?,?,?,?)", HOLDERS)
    db.executemany("INSERT INTO boats VALUES (?,?,?,?,?,?,?,?,?)", BOATS)
    db.executemany("INSERT INTO pontoons VALUES (?,?,?,?)", PONTOONS)
    db.executemany("INSERT INTO berths VALUES (?,?,?)", BERTHS)
    db.executemany(
        "INSERT INTO contracts (contract_id, holder_id, boat_id, berth_id, starts, ends, "
        "payment, annual_pence, monthly_pence) VALUES (?,?,?,?,?,?,?,?,?)",
        CONTRACTS,
    )
    db.executemany(
        "INSERT INTO visitor_bookings (booking_id, holder_id, boat_id, pontoon, arrival, "
        "departure, price_pence) VALUES (?,?,?,?,?,?,?)",
        VISITS,
    )
    db.executemany(
        "INSERT INTO lifts (lift_id, holder_id, boat_id, lift_date, storage_weeks, price_pence) "
        "VALUES (?,?,?,?,?,?)",
        LIFTS,
    )
    db.executemany("INSERT INTO crew_passes (boat_id, name) VALUES (?,?)", CREW)
