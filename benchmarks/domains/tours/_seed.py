"""Saltwind Sea Kayak Tours: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 15 June 2026, 09:00 (UK, BST). Tours run from the
Saltwind boathouse; groups meet there 30 minutes before the start. Bookings are identified by
their reference (SW and four digits) and the lead participant's surname.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 6, 15, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# kind: (slot code, name, price per person, minimum age, group cap)
TOURS = {
    "harbour": ("HAR", "Harbour Explorer", 4500, 8, 10),
    "caves": ("CAV", "Sea Caves Adventure", 6500, 12, 8),
    "sunset": ("SUN", "Sunset Paddle", 5000, 14, 10),
    "lesson": ("LES", "Beginner Kayak Lesson", 4000, 10, 6),
}
SINGLE_PENCE = 1000  # a single kayak, per person, on top of the tour price (tandem is included)
WETSUIT_PENCE = 800  # wetsuit hire, per person
PHOTOS_PENCE = 1500  # the photo package, per booking
MOVE_FEE_PENCE = 1500  # every move after the first free one
MAX_WEIGHT_KG = 120  # per paddler
ADULT_AGE = 18  # the lead participant and an under-16's tandem partner
TANDEM_UNDER = 16  # under-16s paddle only in a tandem with an adult
FULL_REFUND_HOURS = 7 * 24  # 7+ days before the start: full refund
HALF_REFUND_HOURS = 48  # 2-6 days: half; less than 48 hours: nothing
MOVE_CLOSES_HOURS = 48  # moves up to 48 hours before the start (weather rebooks any time)
MEET_MINUTES = 30
MEET_POINT = "the Saltwind boathouse on Harbour Slip"
CONDITIONS = ("asthma", "allergy", "diabetes", "epilepsy", "heart", "other")

SCHEMA_SQL = """
CREATE TABLE slots (
    slot_id TEXT PRIMARY KEY,                 -- CAV-0627-1000
    tour TEXT NOT NULL,                       -- harbour / caves / sunset / lesson
    day TEXT NOT NULL,                        -- YYYY-MM-DD
    start TEXT NOT NULL,                      -- HH:MM
    capacity INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'running'    -- running / weather_cancelled
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- SW2101
    lead_name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    slot_id TEXT NOT NULL REFERENCES slots(slot_id),
    total_pence INTEGER NOT NULL,             -- tour places, kayaks, wetsuits and photos
    paid_pence INTEGER NOT NULL,
    photos INTEGER NOT NULL DEFAULT 0,
    moves_used INTEGER NOT NULL DEFAULT 0,    -- the first move is free
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE participants (
    participant_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL REFERENCES bookings(booking_ref),
    name TEXT NOT NULL,
    age INTEGER NOT NULL,
    weight_kg INTEGER NOT NULL,
    kayak TEXT NOT NULL DEFAULT 'tandem',     -- tandem / single
    wetsuit INTEGER NOT NULL DEFAULT 0,
    lead INTEGER NOT NULL DEFAULT 0,
    medical_condition TEXT,                   -- asthma / allergy / diabetes / epilepsy / ...
    medical_note TEXT
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- move_fee / refund / voucher
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE vouchers (
    code TEXT PRIMARY KEY,                    -- GV-4821
    balance_pence INTEGER NOT NULL,
    expires TEXT NOT NULL
);
"""

# the timetable: harbour twice a day, caves every morning, sunset Fri/Sat, lessons Tue/Thu/Sat
FIRST_DAY, LAST_DAY = date(2026, 6, 13), date(2026, 7, 31)
TIMETABLE = {
    "harbour": (("09:30", "14:00"), range(7)),
    "caves": (("10:00",), range(7)),
    "sunset": (("19:30",), (4, 5)),
    "lesson": (("09:00",), (1, 3, 5)),
}
WEATHER_CANCELLED = {"CAV-0614-1000", "CAV-0616-1000"}


def slot_id(tour: str, day: date, start: str) -> str:
    return f"{TOURS[tour][0]}-{day:%m%d}-{start.replace(':', '')}"


def slots() -> list[tuple[str, str, str, str, int, str]]:
    out = []
    day = FIRST_DAY
    while day <= LAST_DAY:
        for tour, (starts, weekdays) in TIMETABLE.items():
            if day.weekday() in weekdays:
                for start in starts:
                    sid = slot_id(tour, day, start)
                    status = "weather_cancelled" if sid in WEATHER_CANCELLED else "running"
                    out.append((sid, tour, day.isoformat(), start, TOURS[tour][4], status))
        day += timedelta(days=1)
    return out


# fmt: off
# ref, slot, paid, photos, moves used, participants (name, age, kg; each in a tandem, no
# wetsuit, no medical note); the first participant is the lead
BOOKINGS = [
    ("SW2101", "HAR-0627-0930", 9000, 0, 0, [("Hannah Marsh", 34, 62), ("Tom Marsh", 36, 80)]),
    ("SW2102", "HAR-0704-0930", 9000, 0, 0, [("Owen Clarke", 41, 85), ("Beth Clarke", 39, 64)]),
    ("SW2103", "CAV-0620-1000", 13000, 0, 0, [("Grace Okafor", 29, 60), ("Ade Okafor", 31, 78)]),
    ("SW2104", "HAR-0623-1400", 9000, 0, 0, [("Daniel Reid", 52, 88), ("Alison Reid", 50, 66)]),
    ("SW2105", "SUN-0703-1930", 10000, 0, 0, [("Sophie Turner", 27, 58),
                                              ("Kieran Lowe", 28, 82)]),
    ("SW2106", "CAV-0619-1000", 13000, 0, 0, [("Marcus Bell", 44, 90), ("Jo Bell", 43, 65)]),
    ("SW2107", "HAR-0616-1400", 4500, 0, 0, [("Ruth Evans", 61, 70)]),
    ("SW2108", "CAV-0614-1000", 13000, 0, 0, [("Aisha Khan", 33, 57), ("Omar Khan", 35, 84)]),
    ("SW2109", "CAV-0616-1000", 13000, 0, 0, [("Peter Walsh", 58, 92), ("Ann Walsh", 56, 68)]),
    ("SW2110", "LES-0625-0900", 8000, 0, 0, [("Emily Stone", 24, 55), ("Jack Stone", 26, 75)]),
    ("SW2111", "HAR-0711-0930", 4500, 0, 0, [("Nina Patel", 38, 61), ("Ravi Patel", 40, 79),
                                             ("Anil Patel", 70, 72)]),
    ("SW2112", "SUN-0626-1930", 5000, 1, 0, [("Liam Foster", 31, 83), ("Chloe Foster", 30, 59)]),
    ("SW2113", "HAR-0705-1400", 9000, 0, 0, [("Karen Hughes", 45, 68), ("Maya Hughes", 14, 48)]),
    ("SW2114", "HAR-0629-1400", 4500, 0, 0, [("George Adams", 66, 81)]),
    ("SW2115", "LES-0630-0900", 8000, 0, 0, [("Fiona Grant", 36, 63), ("Katie Smith", 35, 57)]),
    ("SW2121", "HAR-0630-0930", 9000, 0, 0, [("Laura Price", 40, 66), ("Ella Price", 11, 38)]),
    ("SW2122", "HAR-0622-0930", 9000, 0, 0, [("Chris Morgan", 47, 86), ("Dee Morgan", 45, 64)]),
    ("SW2123", "HAR-0709-0930", 4500, 0, 0, [("Rachel Dunn", 39, 62), ("Paul Dunn", 41, 88)]),
    ("SW2124", "HAR-0628-0930", 13500, 0, 0, [("Jenna Morris", 32, 60), ("Sam Patel", 33, 76),
                                              ("Lucy Wade", 31, 58)]),
    ("SW2125", "CAV-0701-1000", 13000, 0, 0, [("Ben Harper", 42, 84), ("Kate Harper", 40, 63)]),
    ("SW2126", "CAV-0624-1000", 13000, 0, 1, [("Megan Lloyd", 30, 59), ("Huw Lloyd", 32, 80)]),
    ("SW2127", "LES-0702-0900", 4000, 0, 0, [("Oliver Shaw", 22, 74)]),
    ("SW2128", "CAV-0704-1000", 13000, 0, 0, [("Zoe Fraser", 37, 61), ("Ian Fraser", 39, 83)]),
    ("SW2190", "CAV-0704-1000", 39000, 0, 0, [("Sandra Cole", 50, 70), ("Mel Cole", 48, 66),
                                              ("Jess Cole", 21, 57), ("Rob Cole", 23, 80),
                                              ("Amy Cole", 19, 55), ("Dev Cole", 52, 90)]),
]
VOUCHERS = [
    ("GV-4821", 3000, "2027-03-31"),
    ("GV-5150", 10000, "2027-05-31"),
    ("GV-3307", 5000, "2026-05-31"),  # expired
]
# fmt: on


def price_of(tour: str, kayak: str = "tandem") -> int:
    """One person's place: the tour price, plus the single-kayak supplement."""
    return TOURS[tour][2] + (SINGLE_PENCE if kayak == "single" else 0)


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO slots VALUES (?,?,?,?,?,?)", slots())
    tour_of = {s[0]: s[1] for s in slots()}
    for ref, sid, paid, photos, moves, people in BOOKINGS:
        lead = people[0][0]
        first, last = lead.lower().split()
        total = len(people) * price_of(tour_of[sid]) + photos * PHOTOS_PENCE
        db.execute(
            "INSERT INTO bookings (booking_ref, lead_name, email, phone, slot_id, total_pence, "
            "paid_pence, photos, moves_used) VALUES (?,?,?,?,?,?,?,?,?)",
            (ref, lead, f"{first}.{last}@example.com", f"07700 900{ref[-3:]}", sid, total,
             paid, photos, moves),
        )  # fmt: skip
        for i, (name, age, kg) in enumerate(people):
            db.execute(
                "INSERT INTO participants (booking_ref, name, age, weight_kg, lead) "
                "VALUES (?,?,?,?,?)",
                (ref, name, age, kg, int(i == 0)),
            )
    db.executemany("INSERT INTO vouchers VALUES (?,?,?)", VOUCHERS)
