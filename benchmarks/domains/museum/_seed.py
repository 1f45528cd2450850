"""The Halden Museum Members' desk: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Members are identified by
their membership number (HM and five digits) and the date of birth of the named member or the
joint member. The winter exhibition's timed slots run from 15 December 2026 to 31 January 2027
(closed 24 to 26 December).
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

PRICES = {"individual": 6400, "joint": 9800, "family": 11200}  # a year, in pence
CONCESSION_PERCENT = 25  # over-65s and full-time students, Individual only
SENIOR_AGE = 65
MAX_CHILDREN = 4  # Family: up to four children under 18
RENEW_WINDOW_DAYS = 30  # renewals open 30 days before expiry
COOLING_OFF_DAYS = 14  # a new membership cancelled within 14 days is refunded in full
CARD_FEE_PENCE = 500  # a replacement card
CARD_FREE_DAYS = 21  # free for a card that never arrived, within 21 days of joining
GUEST_PENCE = 900  # a guest's timed ticket; members are free
MAX_TICKETS = 4  # a slot, a membership, guests included
SLOT_TIMES = ("10:00", "11:30", "13:00", "14:30", "16:00")
SLOT_CAPACITY = 30
EXHIBITION = "Frost and Light: Northern Winters in Art"
FIRST_DAY, LAST_DAY = date(2026, 12, 15), date(2027, 1, 31)
CLOSED = {date(2026, 12, 24), date(2026, 12, 25), date(2026, 12, 26)}


def year_price(kind: str, concession: str) -> int:
    """A year's price: the concession takes 25% off an Individual membership only."""
    price = PRICES[kind]
    if kind == "individual" and concession in {"senior", "student"}:
        price -= price * CONCESSION_PERCENT // 100
    return price


def slot_id(day: date, time: str) -> str:
    return f"W{day:%m%d}-{time.replace(':', '')}"


SCHEMA_SQL = """
CREATE TABLE memberships (
    membership_id TEXT PRIMARY KEY,           -- HM20001
    kind TEXT NOT NULL,                       -- individual / joint / family
    member_name TEXT NOT NULL,
    member_dob TEXT NOT NULL,
    joint_name TEXT,                          -- joint and family: the second adult
    joint_dob TEXT,
    children INTEGER NOT NULL DEFAULT 0,      -- family: children under 18
    address TEXT NOT NULL,
    email TEXT NOT NULL,
    concession TEXT NOT NULL DEFAULT 'none',  -- none / senior / student
    price_pence INTEGER NOT NULL,             -- what the current year cost
    joined_on TEXT NOT NULL,
    expires_on TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',    -- active / lapsed / cancelled
    gift_aid INTEGER NOT NULL DEFAULT 0,
    gift_aid_declared TEXT                    -- the declaration's date
);
CREATE TABLE slots (
    slot_id TEXT PRIMARY KEY,                 -- W0106-1300
    day TEXT NOT NULL,
    time TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    booked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tickets (
    booking_id TEXT PRIMARY KEY,              -- TB7001
    membership_id TEXT NOT NULL REFERENCES memberships(membership_id),
    slot_id TEXT NOT NULL REFERENCES slots(slot_id),
    tickets INTEGER NOT NULL,
    guests INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,
    booked_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    membership_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- join / renewal / rejoin / guests / card / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE cards (
    card_id INTEGER PRIMARY KEY,
    membership_id TEXT NOT NULL,
    reason TEXT NOT NULL,                     -- lost / never_arrived
    fee_pence INTEGER NOT NULL,
    address TEXT NOT NULL,
    requested_at TEXT NOT NULL
);
"""

# fmt: off
# membership, kind, member, dob, joint, joint dob, children, address, concession, price,
# joined, expires, status, gift aid, declared; emails follow from the member's name
MEMBERS = [
    ("HM20001", "individual", "Helen Dray", "1975-06-12", None, None, 0,
     "9 Abbey Close, Halden HD1 2AB", "none", 6400, "2026-06-30", "2027-06-30", "active", 0, None),
    ("HM20002", "individual", "Priya Nair", "1988-09-03", None, None, 0,
     "31 Kiln Street, Halden HD3 5RT", "none", 6400, "2026-09-15", "2027-09-15", "active", 0, None),
    ("HM20003", "individual", "Colin Marsh", "1969-11-21", None, None, 0,
     "2 Weir Cottages, Halden HD4 1QP", "none", 6400, "2026-01-03", "2027-01-03", "active", 0,
     None),
    ("HM20004", "individual", "Ruth Okafor", "1992-04-17", None, None, 0,
     "18 Glebe Road, Halden HD2 8LS", "none", 6400, "2026-08-01", "2027-08-01", "active", 0, None),
    ("HM20005", "individual", "Daniel Kerr", "1984-12-01", None, None, 0,
     "5 Ferry Lane, Halden HD1 9JD", "none", 6400, "2026-05-20", "2027-05-20", "active", 1,
     "2026-05-20"),
    ("HM20006", "joint", "Aisha Rahman", "1981-03-14", "Yusuf Rahman", "1979-07-30", 0,
     "44 Castle View, Halden HD3 2EE", "none", 9800, "2026-11-24", "2027-11-24", "active", 0,
     None),
    ("HM20007", "individual", "Graham Pike", "1958-10-10", None, None, 0,
     "12 Mill Lane, Halden HD1 4QR", "senior", 4800, "2026-04-04", "2027-04-04", "active", 0,
     None),
    ("HM20008", "joint", "Lucy Hart", "1991-05-05", "Sam Hart", "1990-01-22", 0,
     "7 Rope Walk, Halden HD2 3NN", "none", 9800, "2026-10-10", "2027-10-10", "active", 0, None),
    ("HM20010", "individual", "Elena Rossi", "1963-08-19", None, None, 0,
     "Calle Mayor 12, 03001 Alicante, Spain", "none", 6400, "2026-07-07", "2027-07-07", "active",
     0, None),
    ("HM20011", "individual", "Peter Walsh", "1970-02-02", None, None, 0,
     "60 Tanner Row, Halden HD4 6BB", "none", 6400, "2025-11-30", "2026-11-30", "lapsed", 0, None),
    ("HM20012", "individual", "Nina Patel", "1995-12-24", None, None, 0,
     "3 Orchard Row, Halden HD2 7LP", "none", 6400, "2026-03-20", "2027-03-20", "active", 0, None),
    ("HM20013", "individual", "Omar Haddad", "1987-06-06", None, None, 0,
     "21 Bridge End, Halden HD1 7TT", "none", 6400, "2026-06-01", "2027-06-01", "active", 0, None),
    ("HM20014", "family", "Claire Dunn", "1982-01-15", "Mark Dunn", "1980-09-09", 2,
     "88 Moor Road, Halden HD3 9PW", "none", 11200, "2026-09-01", "2027-09-01", "active", 0, None),
    ("HM20015", "joint", "Ben Carter", "1992-11-11", "Amy Carter", "1993-03-03", 0,
     "16 Quay Street, Halden HD1 5HX", "none", 9800, "2026-12-05", "2027-12-05", "active", 0,
     None),
    ("HM20016", "individual", "Jade Foster", "2001-07-19", None, None, 0,
     "Flat 4, 70 College Road, Halden HD2 1UN", "student", 4800, "2026-12-01", "2027-12-01",
     "active", 0, None),
    ("HM20017", "individual", "Simon Reid", "1966-05-25", None, None, 0,
     "27 Market Hill, Halden HD4 3CF", "none", 6400, "2026-02-28", "2027-02-28", "active", 0, None),
    ("HM20018", "individual", "Sophie Lyle", "1994-10-02", None, None, 0,
     "10 Chapel Yard, Halden HD3 4GG", "none", 6400, "2026-05-05", "2027-05-05", "active", 0, None),
    ("HM20019", "joint", "Rachel Moore", "1977-08-08", "Kevin Moore", "1976-04-12", 0,
     "53 Priory Walk, Halden HD2 6SD", "none", 9800, "2026-06-15", "2027-06-15", "active", 0, None),
    ("HM20020", "individual", "Frank Doyle", "1950-01-30", None, None, 0,
     "1 Almshouse Lane, Halden HD1 8RR", "senior", 4800, "2026-02-14", "2027-02-14", "active", 1,
     "2025-02-14"),
]
# slots with places already taken: slot, booked
TAKEN = {"W0108-1430": 29, "W0113-1300": 12, "W0109-1130": 18}
# booking, membership, slot, tickets, guests, price, booked at
TICKETS = [
    ("TB7001", "HM20014", "W0113-1300", 2, 0, 0, "2026-12-01 09:12"),
    ("TB7002", "HM20020", "W0115-1130", 1, 0, 0, "2026-12-02 14:40"),
]
# fmt: on


def email_of(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.com"


def slots() -> list[tuple[str, str, str, int, int]]:
    out = []
    day = FIRST_DAY
    while day <= LAST_DAY:
        if day not in CLOSED:
            for time in SLOT_TIMES:
                sid = slot_id(day, time)
                out.append((sid, day.isoformat(), time, SLOT_CAPACITY, TAKEN.get(sid, 0)))
        day += timedelta(days=1)
    return out


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany(
        "INSERT INTO memberships (membership_id, kind, member_name, member_dob, joint_name, "
        "joint_dob, children, address, email, concession, price_pence, joined_on, expires_on, "
        "status, gift_aid, gift_aid_declared) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(*m[:8], email_of(m[2]), *m[8:]) for m in MEMBERS],
    )
    db.executemany("INSERT INTO slots VALUES (?,?,?,?,?)", slots())
    db.executemany("INSERT INTO tickets VALUES (?,?,?,?,?,?,?)", TICKETS)
