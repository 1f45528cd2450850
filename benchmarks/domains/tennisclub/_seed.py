"""Ashcombe Lawn Tennis Club: schema, the fixed clock, fees, rules and the seed data.

The desk's clock is fixed at Monday 8 February 2027, 10:00 (UK, GMT). Courts are booked by the
hour, slots starting on the hour from 07:00 to 21:00. Members are identified by their
membership number (ALT and four digits) and the postcode on their membership.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2027, 2, 8, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# annual membership fees by tier
FEES = {"adult": 42000, "offpeak": 26400, "junior": 12000, "senior": 30000}
TIER_NAMES = {"adult": "Adult", "offpeak": "Off-peak", "junior": "Junior", "senior": "Senior"}
JUNIOR_UNDER = 18  # Junior: under 18 (on the first day of the membership year, at renewal)
SENIOR_FROM = 65  # Senior: 65 or over
OFFPEAK_BEFORE = "17:00"  # Off-peak: weekday slots starting before 17:00 only
RENEW_OPENS_DAYS = 60  # renewal opens 60 days before the expiry date

INDOOR_PENCE = 1200  # an indoor court, per hour
FLOODLIGHT_PENCE = 400  # an outdoor floodlit court, per hour, for slots from 16:00
LIGHTS_FROM = "16:00"  # outdoor courts without floodlights can't be played from 16:00
GUEST_PENCE = 600  # per guest per booking
MAX_GUESTS = 3  # a court takes four players: the member and up to three guests
GUEST_MONTH_LIMIT = 3  # a guest plays at most three times in a calendar month
BOOK_AHEAD_DAYS = 7
NOTICE_HOURS = 24  # cancellations 24+ hours before the start are refunded in full
FIRST_SLOT, LAST_SLOT = "07:00", "21:00"

SCHEMA_SQL = """
CREATE TABLE members (
    member_id TEXT PRIMARY KEY,               -- ALT2001
    name TEXT NOT NULL,
    dob TEXT NOT NULL,
    postcode TEXT NOT NULL,
    email TEXT NOT NULL,
    tier TEXT NOT NULL,                       -- adult / offpeak / junior / senior
    expires TEXT NOT NULL,                    -- the last day of the membership year
    card_last4 TEXT NOT NULL,
    card_expiry TEXT NOT NULL                 -- YYYY-MM, checked by the payment system only
);
CREATE TABLE courts (
    court_id TEXT PRIMARY KEY,                -- C1
    name TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- indoor / outdoor
    floodlit INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- CB7001
    member_id TEXT NOT NULL,
    court_id TEXT NOT NULL,
    day TEXT NOT NULL,
    start_time TEXT NOT NULL,                 -- HH:00, one hour
    court_fee_pence INTEGER NOT NULL DEFAULT 0,
    light_fee_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled / played
);
CREATE TABLE booking_guests (
    guest_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL,
    guest_name TEXT NOT NULL,
    fee_pence INTEGER NOT NULL
);
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,              -- CS301
    title TEXT NOT NULL,
    day TEXT NOT NULL,
    start_time TEXT NOT NULL,
    coach TEXT NOT NULL,
    places INTEGER NOT NULL,
    price_pence INTEGER NOT NULL,
    juniors_only INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE enrolments (
    enrolment_id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    member_id TEXT NOT NULL,
    price_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / cancelled
);
CREATE TABLE waitlist (
    entry_id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL,
    member_id TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    member_id TEXT NOT NULL,
    kind TEXT NOT NULL,   -- court_fee, floodlights, guest_fee, coaching, upgrade, renewal, refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# member, name, date of birth, postcode, tier, expires, card (its expiry: CARD_EXPIRY)
PEOPLE = [
    ("ALT2001", "Sophie Turner", "1988-04-12", "GU21 4QT", "adult", "2027-09-30", "4417"),
    ("ALT2002", "Marcus Bell", "1979-11-02", "GU22 7RL", "adult", "2027-06-30", "2290"),
    ("ALT2003", "Lena Fischer", "1991-06-23", "GU21 5JD", "adult", "2027-08-31", "8823"),
    ("ALT2004", "Kofi Mensah", "1985-01-30", "GU24 8PB", "adult", "2027-11-30", "6610"),
    ("ALT2005", "Helen Carter", "1972-09-09", "GU22 0HS", "adult", "2027-07-31", "3051"),
    ("ALT2006", "Priya Nair", "1983-03-17", "GU21 3NE", "offpeak", "2027-12-31", "7702"),
    ("ALT2007", "Tom Whitley", "1969-07-04", "GU23 6AX", "adult", "2027-05-31", "1189"),
    ("ALT2008", "Grace Okafor", "1994-10-21", "GU21 6TY", "adult", "2027-10-31", "5534"),
    ("ALT2009", "Gareth Lloyd", "1976-02-14", "GU22 9BW", "adult", "2027-06-30", "9046"),
    ("ALT2010", "Rachel Doyle", "1981-08-08", "GU24 0LF", "adult", "2027-04-30", "2718"),
    ("ALT2011", "James Holt", "1990-12-01", "GU21 8SG", "adult", "2027-09-30", "6284"),
    ("ALT2012", "Nina Patel", "1987-05-19", "GU22 8DU", "adult", "2027-08-31", "3141"),
    ("ALT2013", "Felix Brandt", "1975-03-28", "GU23 7HH", "adult", "2027-11-30", "8080"),
    ("ALT2014", "Amira Haddad", "1993-09-15", "GU21 2WP", "adult", "2027-12-31", "4242"),
    ("ALT2015", "Dan Cole", "1980-06-06", "GU22 7QA", "adult", "2027-10-31", "5150"),
    ("ALT2016", "Ruth Evans", "1966-01-25", "GU24 9EX", "adult", "2027-07-31", "6006"),
    ("ALT2017", "Peter Shaw", "1971-10-10", "GU21 7LN", "adult", "2027-03-31", "7117"),
    ("ALT2018", "Claire Dunn", "1984-12-24", "GU22 6RB", "adult", "2027-03-31", "1212"),
    ("ALT2019", "Leo Marsh", "2009-03-15", "GU23 8JS", "junior", "2027-03-31", "3434"),
    ("ALT2020", "Simon Reeve", "1977-04-03", "GU21 9DZ", "adult", "2027-10-31", "5656"),
    ("ALT2021", "Hannah Moore", "1989-07-27", "GU22 5UP", "offpeak", "2027-05-31", "7878"),
    ("ALT2022", "Mark Ellis", "1968-11-11", "GU24 7GT", "adult", "2027-03-31", "9090"),
    ("ALT2023", "Zoe Adams", "1996-02-02", "GU21 1BA", "adult", "2027-09-30", "1357"),
    # other members: they fill courts and coaching places
    ("ALT2024", "Oscar Reid", "1982-05-05", "GU22 1AA", "adult", "2027-06-30", "2468"),
    ("ALT2025", "Ivy Chen", "1992-03-03", "GU21 4BB", "adult", "2027-08-31", "1122"),
    ("ALT2026", "Bill Morgan", "1955-09-19", "GU23 5CC", "senior", "2027-05-31", "3344"),
    ("ALT2027", "Maya Singh", "1998-12-12", "GU24 3DD", "adult", "2027-09-30", "5566"),
    ("ALT2028", "Joan Pike", "1958-07-07", "GU22 2EE", "senior", "2027-04-30", "7788"),
]
CARD_EXPIRY = {"ALT2022": "2027-01"}  # Mark Ellis's card on file has expired
CUSTOMERS = [
    (m, n, dob, pc, n.lower().replace(" ", ".") + "@example.com", tier, exp, card,
     CARD_EXPIRY.get(m, "2028-06"))
    for m, n, dob, pc, tier, exp, card in PEOPLE
]  # fmt: skip

COURTS = [
    ("C1", "Court 1", "outdoor", 0),
    ("C2", "Court 2", "outdoor", 0),
    ("C3", "Court 3", "outdoor", 1),
    ("C4", "Court 4", "outdoor", 1),
    ("C5", "Court 5", "indoor", 0),
    ("C6", "Court 6", "indoor", 0),
]

# booking, member, court, day, start, court fee, floodlight fee, status
BOOKINGS = [
    ("CB6880", "ALT2009", "C1", "2027-01-23", "11:00", 0, 0, "played"),
    ("CB6901", "ALT2009", "C1", "2027-02-01", "11:00", 0, 0, "played"),
    ("CB6902", "ALT2024", "C2", "2027-02-03", "10:00", 0, 0, "played"),
    ("CB6903", "ALT2009", "C1", "2027-02-06", "11:00", 0, 0, "played"),
    ("CB7001", "ALT2005", "C5", "2027-02-11", "19:00", 1200, 0, "confirmed"),
    ("CB7002", "ALT2009", "C1", "2027-02-12", "11:00", 0, 0, "confirmed"),
    ("CB7003", "ALT2010", "C3", "2027-02-13", "10:00", 0, 0, "confirmed"),
    ("CB7004", "ALT2011", "C6", "2027-02-11", "18:00", 1200, 0, "confirmed"),
    ("CB7005", "ALT2012", "C5", "2027-02-09", "08:00", 1200, 0, "confirmed"),
    ("CB7006", "ALT2013", "C6", "2027-02-13", "10:00", 1200, 0, "confirmed"),
    ("CB7007", "ALT2024", "C4", "2027-02-10", "16:00", 0, 400, "confirmed"),
    ("CB7008", "ALT2025", "C6", "2027-02-11", "19:00", 1200, 0, "cancelled"),
    ("CB7009", "ALT2027", "C2", "2027-02-13", "11:00", 0, 0, "confirmed"),
]

# booking, guest, fee
GUESTS = [
    ("CB6880", "Ollie Grant", 600),
    ("CB6901", "Ollie Grant", 600),
    ("CB6902", "Ollie Grant", 600),
    ("CB6903", "Ollie Grant", 600),
    ("CB7006", "Sam Ford", 600),
    ("CB7006", "Lily Ford", 600),
]

# session, title, day, start, coach, places, price, juniors only
SESSIONS = [
    ("CS301", "Adult improvers", "2027-02-11", "19:00", "Maria Lopez", 8, 1500, 0),
    ("CS302", "Cardio tennis", "2027-02-13", "09:00", "Maria Lopez", 10, 1200, 0),
    ("CS303", "Junior squad", "2027-02-13", "10:00", "Rob Kerr", 12, 1000, 1),
    ("CS304", "Doubles tactics clinic", "2027-02-10", "10:00", "Rob Kerr", 6, 1500, 0),
    ("CS305", "Serve masterclass", "2027-02-09", "18:00", "Maria Lopez", 6, 2000, 0),
]
OTHERS = ["ALT2002", "ALT2003", "ALT2007", "ALT2017", "ALT2018", "ALT2020", "ALT2022", "ALT2023"]
ENROLMENTS = (
    [("CS301", m, 1500) for m in OTHERS]
    + [("CS302", m, 1200) for m in ("ALT2024", "ALT2025", "ALT2027", "ALT2028")]
    + [("CS304", m, 1500) for m in ("ALT2016", "ALT2026", "ALT2028", "ALT2025", "ALT2001")]
    + [("CS305", m, 2000) for m in ("ALT2024", "ALT2025", "ALT2026", "ALT2027", "ALT2028",
                                    "ALT2010")]
)  # fmt: skip
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO members VALUES (?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO courts VALUES (?,?,?,?)", COURTS)
    db.executemany("INSERT INTO bookings VALUES (?,?,?,?,?,?,?,?)", BOOKINGS)
    db.executemany(
        "INSERT INTO booking_guests (booking_id, guest_name, fee_pence) VALUES (?,?,?)", GUESTS
    )
    db.executemany("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?)", SESSIONS)
    db.executemany(
        "INSERT INTO enrolments (session_id, member_id, price_pence) VALUES (?,?,?)", ENROLMENTS
    )
