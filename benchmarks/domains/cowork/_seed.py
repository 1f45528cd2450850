"""Hive Works Coworking: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 10:00 (UK, GMT). One building, four
meeting rooms open 08:00-20:00. Members are identified by their member number (HW and four
digits) and the email address on their account. Billing is monthly, on the 1st.
"""

from __future__ import annotations

import calendar
import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
NEXT_BILLING = "2027-01-01"

OPEN_HOUR, CLOSE_HOUR = 8, 20  # rooms bookable 08:00-20:00, whole hours
MAX_HOURS = 8  # per booking
LATE_HOURS = 24  # cancelling or moving less than this before the start: late
GUEST_PENCE = 1000  # a guest pass, per guest per day
MAX_GUESTS = 2  # per member per day
DAY_PASS_PENCE = 2500  # a day's hot desk for a non-member
LOCKER_PENCE = 1500  # a month
LOCKER_DEPOSIT_PENCE = 3000
LOST_KEY_PENCE = 1200  # kept from the deposit when the key is not returned
DISPUTE_DAYS = 30  # from the invoice date
MAX_PAUSE_MONTHS = 3
PAUSE_EVERY_DAYS = 365  # at most one pause in any 12 months

# plan: name, monthly price, room credit hours a month
PLANS = {
    "flex": ("Flex", 14900, 4),
    "desk": ("Fixed Desk", 29900, 8),
    "office": ("Private Office", 64900, 16),
}
# room: name, capacity, price an hour
ROOMS = {
    "nectar": ("Nectar", 2, 1200),
    "bee": ("Bee Room", 4, 2000),
    "honeycomb": ("Honeycomb", 8, 3500),
    "hall": ("Queen's Hall", 16, 6000),
}

SCHEMA_SQL = """
CREATE TABLE plans (
    plan TEXT PRIMARY KEY,                    -- flex / desk / office
    name TEXT NOT NULL,
    monthly_pence INTEGER NOT NULL,
    credit_hours INTEGER NOT NULL
);
CREATE TABLE rooms (
    room_id TEXT PRIMARY KEY,                 -- nectar / bee / honeycomb / hall
    name TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    rate_pence INTEGER NOT NULL               -- an hour
);
CREATE TABLE members (
    member_id TEXT PRIMARY KEY,               -- HW1001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    plan TEXT NOT NULL REFERENCES plans(plan),
    pending_plan TEXT,                        -- a downgrade from the next billing date
    credit_hours INTEGER NOT NULL,            -- room credit left this month
    pause_start TEXT,                         -- YYYY-MM-01 of a booked pause
    pause_months INTEGER,
    last_pause_start TEXT,                    -- the start of the latest pause taken
    joined TEXT NOT NULL
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- BK2201
    member_id TEXT NOT NULL REFERENCES members(member_id),
    room_id TEXT NOT NULL REFERENCES rooms(room_id),
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    start TEXT NOT NULL,                      -- HH:00
    hours INTEGER NOT NULL,
    attendees INTEGER,
    credit_hours INTEGER NOT NULL,            -- hours paid from the room credit
    charged_pence INTEGER NOT NULL,           -- hours beyond the credit, at the room's rate
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE passes (
    pass_id INTEGER PRIMARY KEY,
    member_id TEXT NOT NULL REFERENCES members(member_id),
    kind TEXT NOT NULL,                       -- guest / day
    name TEXT NOT NULL,                       -- the guest's or day-pass holder's name
    day TEXT NOT NULL,
    price_pence INTEGER NOT NULL
);
CREATE TABLE lockers (
    locker_id TEXT PRIMARY KEY,               -- L01
    member_id TEXT,                           -- NULL: free
    rented_from TEXT,
    deposit_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-2612-1009: issued Dec 2026 to HW1009
    member_id TEXT NOT NULL REFERENCES members(member_id),
    issued TEXT NOT NULL,
    total_pence INTEGER NOT NULL
);
CREATE TABLE invoice_lines (
    line_id INTEGER PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices(invoice_id),
    description TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    disputed INTEGER NOT NULL DEFAULT 0,
    dispute_reason TEXT
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    member_id TEXT NOT NULL,
    kind TEXT NOT NULL,   -- room_hours / room_refund / room_difference / guest_pass / day_pass /
                          -- plan_upgrade / locker_rent / locker_deposit / deposit_refund
    amount_pence INTEGER NOT NULL,            -- negative: money back
    ref TEXT,                                 -- the booking, locker or plan it is for
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# member, name, email, card, plan, credit hours left, last pause start
MEMBERS = [
    ("HW1001", "Priya Nair", "priya.nair@example.com", "4821", "flex", 4, None),
    ("HW1002", "Tom Reyes", "tom.reyes@example.com", "3307", "desk", 4, None),
    ("HW1003", "Grace Adeyemi", "grace.adeyemi@example.com", "9154", "flex", 1, None),
    ("HW1004", "Lukas Berger", "lukas.berger@example.com", "6620", "office", 16, None),
    ("HW1005", "Hannah Cole", "hannah.cole@example.com", "2289", "flex", 3, None),
    ("HW1006", "Marco Silva", "marco.silva@example.com", "7713", "desk", 8, None),
    ("HW1007", "Aisha Khan", "aisha.khan@example.com", "5046", "desk", 6, None),
    ("HW1008", "Ben Okoro", "ben.okoro@example.com", "1180", "flex", 2, None),
    ("HW1009", "Sofia Marin", "sofia.marin@example.com", "8832", "office", 12, "2026-03-01"),
    ("HW1010", "James Whitfield", "james.whitfield@example.com", "4471", "flex", 4,
     "2025-07-01"),
    ("HW1011", "Chloe Dubois", "chloe.dubois@example.com", "6015", "desk", 8, None),
    ("HW1012", "Isla Grant", "isla.grant@example.com", "3398", "flex", 4, None),
    ("HW1013", "Elena Popescu", "elena.popescu@example.com", "7261", "flex", 1, None),
    ("HW1014", "Owen Price", "owen.price@example.com", "9902", "desk", 6, None),
    ("HW1015", "Nina Berg", "nina.berg@example.com", "2754", "flex", 0, None),
    ("HW1016", "Dan Mills", "dan.mills@example.com", "8147", "desk", 8, None),
    ("HW1017", "Sam Turner", "sam.turner@example.com", "1536", "flex", 4, None),
    ("HW1018", "Farah Ali", "farah.ali@example.com", "6683", "desk", 8, None),
    ("HW1019", "Zoe Hart", "zoe.hart@example.com", "2047", "flex", 4, None),
    ("HW1020", "Ravi Patel", "ravi.patel@example.com", "5390", "desk", 8, None),
]

# booking, member, room, day, start, hours, attendees, credit hours, charged
BOOKINGS = [
    ("BK2201", "HW1008", "bee", "2026-12-10", "09:00", 2, 3, 2, 0),
    ("BK2219", "HW1002", "honeycomb", "2026-12-10", "13:00", 4, 7, 4, 0),
    ("BK2226", "HW1006", "bee", "2026-12-11", "10:00", 2, 4, 2, 0),
    ("BK2230", "HW1013", "hall", "2026-12-15", "10:00", 3, 12, 2, 6000),
    ("BK2244", "HW1014", "bee", "2026-12-14", "10:00", 2, 3, 2, 0),
    ("BK2251", "HW1015", "nectar", "2026-12-10", "08:00", 2, 2, 1, 1200),
    ("BK2263", "HW1004", "hall", "2026-12-16", "15:00", 2, 10, 2, 0),
    ("BK2270", "HW1020", "honeycomb", "2026-12-18", "09:00", 2, 6, 0, 0),
    ("BK2288", "HW1009", "nectar", "2026-12-16", "15:00", 1, 2, 1, 0),
]

# member, guest, day
PASSES = [
    ("HW1006", "Lena Fischer", "2026-12-11"),
    ("HW1006", "Paul Grant", "2026-12-11"),
    ("HW1017", "Maya Brooks", "2026-12-14"),
]

# locker, member, rented from
LOCKERS = [
    ("L01", None, None), ("L02", "HW1009", "2026-06-01"), ("L03", None, None),
    ("L04", "HW1007", "2026-09-01"), ("L05", None, None), ("L06", None, None),
    ("L07", "HW1004", "2026-02-01"), ("L08", None, None), ("L09", None, None),
    ("L10", None, None),
]

# invoice, member, issued, [(description, amount)]
INVOICES = [
    ("INV-2612-1009", "HW1009", "2026-12-01", [
        ("Private Office plan, December 2026", 64900),
        ("Meeting room hours beyond credit: Queen's Hall, 2 hours", 12000),
        ("Printing and copying, November", 4560),
        ("Locker L02, December", 1500),
    ]),
    ("INV-2611-1009", "HW1009", "2026-11-01", [
        ("Private Office plan, November 2026", 64900),
        ("Locker L02, November", 1500),
    ]),
    ("INV-2612-1019", "HW1019", "2026-12-01", [
        ("Flex plan, December 2026", 14900),
    ]),
    ("INV-2611-1019", "HW1019", "2026-11-01", [
        ("Flex plan, November 2026", 14900),
        ("Guest passes: 3 guests, October", 3000),
    ]),
    ("INV-2612-1001", "HW1001", "2026-12-01", [
        ("Flex plan, December 2026", 14900),
        ("Guest passes: 1 guest, November", 1000),
    ]),
    ("INV-2612-1007", "HW1007", "2026-12-01", [
        ("Fixed Desk plan, December 2026", 29900),
        ("Locker L04, December", 1500),
    ]),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    db.executemany("INSERT INTO plans VALUES (?,?,?,?)", [(k, *v) for k, v in PLANS.items()])
    db.executemany("INSERT INTO rooms VALUES (?,?,?,?)", [(k, *v) for k, v in ROOMS.items()])
    for member, name, email, card, plan, credit, paused in MEMBERS:
        db.execute(
            "INSERT INTO members (member_id, name, email, card_last4, plan, credit_hours, "
            "last_pause_start, joined) VALUES (?,?,?,?,?,?,?,?)",
            (member, name, email, card, plan, credit, paused, "2025-09-01"),
        )
    db.executemany(
        "INSERT INTO bookings (booking_id, member_id, room_id, day, start, hours, attendees, "
        "credit_hours, charged_pence) VALUES (?,?,?,?,?,?,?,?,?)",
        BOOKINGS,
    )
    db.executemany(
        "INSERT INTO passes (member_id, kind, name, day, price_pence) VALUES (?,?,?,?,?)",
        [(m, "guest", g, d, GUEST_PENCE) for m, g, d in PASSES],
    )
    db.executemany(
        "INSERT INTO lockers VALUES (?,?,?,?)",
        [(lk, m, f, LOCKER_DEPOSIT_PENCE if m else 0) for lk, m, f in LOCKERS],
    )
    for invoice, member, issued, lines in INVOICES:
        db.execute(
            "INSERT INTO invoices VALUES (?,?,?,?)",
            (invoice, member, issued, sum(a for _, a in lines)),
        )
        db.executemany(
            "INSERT INTO invoice_lines (invoice_id, description, amount_pence) VALUES (?,?,?)",
            [(invoice, d, a) for d, a in lines],
        )


def prorata(diff_pence: int, today: date) -> int:
    """The part of a monthly difference for the rest of this month, today included."""
    days = calendar.monthrange(today.year, today.month)[1]
    return round(diff_pence * (days - today.day + 1) / days)
