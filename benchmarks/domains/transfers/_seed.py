"""Swiftline Airport Transfers: schema, the fixed clock, fares, rules and the seed data.

The desk's clock is fixed at Wednesday 16 December 2026, 10:00 (UK, GMT). Swiftline serves
Northgate Airport (NGA) from home addresses in postcode districts KM1 to KM8, in four zones.
Customers are identified by a booking reference (SW and five digits) and the email address the
booking was made with; every booking on that email is then theirs.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 16, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%dT%H:%M"
AIRPORT = "Northgate Airport"

CLASSES = ("saloon", "estate", "8-seater")
# fares by zone and vehicle class, one way, in pence
FARES = {
    1: {"saloon": 4500, "estate": 5500, "8-seater": 8000},
    2: {"saloon": 6000, "estate": 7200, "8-seater": 10500},
    3: {"saloon": 8000, "estate": 9500, "8-seater": 13500},
    4: {"saloon": 11000, "estate": 13000, "8-seater": 18000},
}
# passengers and large cases each class takes
CAPACITY = {"saloon": (3, 2), "estate": (4, 4), "8-seater": (8, 8)}
MEET_GREET_PENCE = 1200  # airport pickups only: the driver meets you in arrivals
CHILD_SEAT_PENCE = 800  # each
MAX_CHILD_SEATS = 3
FREE_WAIT_MINUTES = 45  # from the flight's actual landing time (flights are tracked)
WAIT_BLOCK_MINUTES = 15
WAIT_BLOCK_PENCE = 750  # per 15 minutes or part after the free time
AMEND_FREE_HOURS = 24  # a change of pickup time is free 24+ hours before the pickup
AMEND_FEE_PENCE = 1000
REFUND_FULL_HOURS = 48  # cancelled 48+ hours before: all paid back
REFUND_HALF_HOURS = 24  # 24 to 48 hours before: half; under 24 hours: nothing
RETURN_DISCOUNT_PERCENT = 10  # a return leg added to a booking: 10% off the return's fare
OFFICE_PHONE = "01632 961 500"


def fare(zone: int, vehicle_class: str) -> int:
    return FARES[zone][vehicle_class]


SCHEMA_SQL = """
CREATE TABLE customers (
    email TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    phone TEXT NOT NULL,                      -- the mobile the driver texts
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE zones (
    district TEXT PRIMARY KEY,                -- KM3
    zone INTEGER NOT NULL
);
CREATE TABLE bookings (
    booking_ref TEXT PRIMARY KEY,             -- SW30101
    email TEXT NOT NULL REFERENCES customers(email),
    direction TEXT NOT NULL,                  -- to_airport / from_airport
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    zone INTEGER NOT NULL,
    pickup_at TEXT NOT NULL,                  -- YYYY-MM-DDTHH:MM; from_airport: the landing time
    flight_no TEXT,                           -- from_airport: the flight the driver tracks
    vehicle_class TEXT NOT NULL,              -- saloon / estate / 8-seater
    passengers INTEGER NOT NULL,
    large_bags INTEGER NOT NULL,
    meet_greet INTEGER NOT NULL DEFAULT 0,
    child_seats INTEGER NOT NULL DEFAULT 0,
    fare_pence INTEGER NOT NULL,              -- after any promo or return discount
    extras_pence INTEGER NOT NULL DEFAULT 0,  -- meet-and-greet and child seats
    promo_code TEXT,
    return_of TEXT,                           -- a return leg: the outward booking
    driver_name TEXT,
    driver_mobile TEXT,                       -- staff only: never given to customers
    status TEXT NOT NULL DEFAULT 'confirmed', -- confirmed / completed / cancelled
    landed_at TEXT,                           -- completed airport pickups: the driver's log
    met_at TEXT,
    waiting_fee_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    booking_ref TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / amend_fee / refund / waiting_refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE promo_codes (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,                       -- percent / fixed
    value INTEGER NOT NULL,                   -- percent off the fare, or pence off
    valid_until TEXT NOT NULL
);
CREATE TABLE promo_uses (
    use_id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    code TEXT NOT NULL,
    booking_ref TEXT NOT NULL
);
CREATE TABLE fully_booked (
    vehicle_class TEXT NOT NULL,
    day TEXT NOT NULL
);
CREATE TABLE lost_property (
    report_id TEXT PRIMARY KEY,               -- LP6001
    booking_ref TEXT NOT NULL,
    email TEXT NOT NULL,
    item TEXT NOT NULL,
    reported_at TEXT NOT NULL
);
CREATE TABLE complaints (
    complaint_id TEXT PRIMARY KEY,            -- CP7001
    booking_ref TEXT NOT NULL,
    email TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

ZONES = [("KM1", 1), ("KM2", 1), ("KM3", 2), ("KM4", 2), ("KM5", 3), ("KM6", 3), ("KM7", 4),
         ("KM8", 4)]  # fmt: skip

# fmt: off
# name, address, postcode, card; the email is first.last@example.com and the mobile follows the
# row (row 1: 07700 900101, row 23: 07700 900123)
PEOPLE = [
    ("Alice Grant", "12 Elm Road", "KM3 4AB", "4417"),
    ("Ben Carter", "5 Mill Lane", "KM1 2CD", "2290"),
    ("Carla Diaz", "8 Orchard Way", "KM5 6EF", "8823"),
    ("Dev Malik", "21 Station Road", "KM2 7GH", "6610"),
    ("Erin Walsh", "3 Bridge Street", "KM4 1JK", "3051"),
    ("Femi Adeyemi", "40 Park Avenue", "KM3 9LM", "7702"),
    ("Grace Kim", "17 Church Walk", "KM4 5NP", "1189"),
    ("Harry Bell", "9 Quarry Hill", "KM1 3QR", "5534"),
    ("Isla Reid", "2 Willow Court", "KM6 8ST", "9046"),
    ("Jonah Price", "66 High Street", "KM2 4UV", "2718"),
    ("Kate Owens", "14 Meadow Rise", "KM3 2WX", "6284"),
    ("Liam Ford", "7 Harbour View", "KM1 6YZ", "3141"),
    ("Maya Singh", "31 Cedar Drive", "KM5 1AB", "8080"),
    ("Omar Shaw", "3 Larch Close", "KM4 3CD", "4242"),
    ("Oscar Hughes", "55 Kings Road", "KM2 9EF", "5150"),
    ("Paula Ng", "10 Abbey Lane", "KM3 7GH", "6006"),
    ("Quentin Lowe", "4 Rowan Way", "KM4 8JK", "7117"),
    ("Rosa Lopez", "28 Fern Grove", "KM3 5LM", "1212"),
    ("Sam Turner", "19 Beech Road", "KM2 2NP", "3434"),
    ("Tara Quinn", "6 Holly Bank", "KM4 6QR", "5656"),
    ("Uma Patel", "12 Ash Grove", "KM1 8ST", "7878"),
    ("Victor Hale", "80 Moor Lane", "KM6 4UV", "9090"),
    ("Will Stone", "1 The Green", "KM4 2WX", "1357"),
]


def email_of(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.com"


CUSTOMERS = [
    (email_of(n), n, f"07700 900{100 + i:03d}", addr, pc, card)
    for i, (n, addr, pc, card) in enumerate(PEOPLE, start=1)
]
_HOME = {email_of(n): (addr, pc) for n, addr, pc, _ in PEOPLE}
_ZONE = dict(ZONES)

# drivers: name and personal mobile (staff only)
DRIVERS = [
    ("Priya Nair", "07700 900801"),
    ("Tom Briggs", "07700 900802"),
    ("Leah Moore", "07700 900803"),
    ("Ravi Shah", "07700 900804"),
    ("Mark Dean", "07700 900805"),
    ("Ann Cole", "07700 900806"),
    ("Joe Platt", "07700 900807"),
    ("Kim Lowe", "07700 900808"),
    ("Sue Hart", "07700 900809"),
    ("Paul Kerr", "07700 900810"),
    ("Neil Ross", "07700 900811"),
    ("Dave Mills", "07700 900812"),
]
# ref, customer's name, to/from the airport, pickup (in 2026), flight, class, passengers, bags,
# meet-and-greet, child seats, done or booked, driver (index into DRIVERS); the fare is the zone's
# (Tara Quinn's less WINTER10) and the extras are priced as the policy says
BOOKINGS = [
    ("SW30101", "Alice Grant", "to", "11-20T06:00", None, "saloon", 2, 2, 0, 0, "done", 0),
    ("SW30202", "Ben Carter", "to", "12-01T09:00", None, "saloon", 1, 1, 0, 0, "done", 1),
    ("SW30303", "Carla Diaz", "to", "10-10T07:30", None, "saloon", 2, 2, 0, 0, "done", 2),
    ("SW30404", "Dev Malik", "to", "12-20T08:00", None, "saloon", 2, 2, 0, 0, "booked", 3),
    ("SW30505", "Erin Walsh", "to", "12-17T07:00", None, "saloon", 1, 1, 0, 0, "booked", 4),
    ("SW30606", "Femi Adeyemi", "to", "12-17T09:30", None, "saloon", 2, 1, 0, 0, "booked", 5),
    ("SW30707", "Grace Kim", "to", "12-22T11:00", None, "saloon", 1, 2, 0, 0, "booked", 6),
    ("SW30808", "Harry Bell", "to", "12-17T06:00", None, "saloon", 2, 2, 0, 0, "booked", 7),
    ("SW30909", "Isla Reid", "from", "12-19T16:00", "EZ2310", "estate", 4, 3, 0, 0, "booked", 8),
    ("SW31010", "Jonah Price", "from", "12-12T14:00", "BA1410", "saloon", 1, 1, 0, 0, "done", 9),
    ("SW31111", "Kate Owens", "to", "12-13T05:30", None, "saloon", 1, 1, 0, 0, "done", 10),
    ("SW31212", "Liam Ford", "to", "12-28T12:00", None, "saloon", 2, 2, 0, 0, "booked", 1),
    ("SW31313", "Maya Singh", "from", "12-18T21:40", "LS1190", "saloon", 1, 1, 0, 0, "booked", 2),
    ("SW31414", "Omar Shaw", "to", "12-20T07:00", None, "saloon", 2, 2, 0, 0, "booked", 3),
    ("SW31515", "Oscar Hughes", "from", "12-20T18:00", "BA2490", "saloon", 1, 1, 0, 0, "booked", 4),
    ("SW31616", "Paula Ng", "from", "12-21T13:05", "FR812", "saloon", 2, 2, 0, 0, "booked", 5),
    ("SW31717", "Quentin Lowe", "to", "12-19T04:30", None, "saloon", 1, 1, 0, 0, "booked", 6),
    ("SW31818", "Rosa Lopez", "from", "12-17T16:00", "EZ1876", "estate", 3, 3, 1, 1, "booked", 7),
    ("SW31919", "Sam Turner", "from", "12-15T19:30", "U24417", "saloon", 1, 1, 0, 0, "done", 11),
    ("SW32020", "Tara Quinn", "to", "11-14T10:00", None, "saloon", 1, 1, 0, 0, "done", 8),
    ("SW32121", "Uma Patel", "to", "11-02T08:00", None, "saloon", 2, 2, 0, 0, "done", 9),
    ("SW32222", "Victor Hale", "to", "10-22T12:00", None, "estate", 3, 3, 0, 1, "done", 10),
    ("SW32323", "Will Stone", "to", "12-22T08:00", None, "8-seater", 7, 7, 0, 0, "booked", 11),
]
# the driver's log of completed airport pickups: landed, met, waiting fee charged
WAITING = {
    "SW31010": ("2026-12-12T15:20", "2026-12-12T16:10", 4500),  # charged from 14:00, not 15:20
    "SW31919": ("2026-12-15T19:25", "2026-12-15T19:50", 0),
}
PROMO_CODES = [("WINTER10", "percent", 10, "2027-01-31"), ("SWIFT5", "fixed", 500, "2026-12-31")]
PROMO_USES = [("tara.quinn@example.com", "WINTER10", "SW32020")]
FULLY_BOOKED = [("8-seater", "2026-12-24"), ("estate", "2026-12-31")]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO zones VALUES (?,?)", ZONES)
    for ref, name, way, at, flight, cls, pax, bags, mg, seats, done, driver in BOOKINGS:
        email, direction, at = email_of(name), f"{way}_airport", f"2026-{at}"
        status = "completed" if done == "done" else "confirmed"
        driver_name, mobile = DRIVERS[driver]
        address, postcode = _HOME[email]
        zone = _ZONE[postcode.split()[0]]
        fare_p = fare(zone, cls) * (90 if ref == "SW32020" else 100) // 100
        extras = mg * MEET_GREET_PENCE + seats * CHILD_SEAT_PENCE
        landed, met, waiting = WAITING.get(ref, (None, None, 0))
        db.execute(
            "INSERT INTO bookings (booking_ref, email, direction, address, postcode, zone, "
            "pickup_at, flight_no, vehicle_class, passengers, large_bags, meet_greet, "
            "child_seats, fare_pence, extras_pence, promo_code, driver_name, driver_mobile, "
            "status, landed_at, met_at, waiting_fee_pence) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (ref, email, direction, address, postcode, zone, at, flight,
             cls, pax, bags, mg, seats, fare_p, extras, "WINTER10" if ref == "SW32020" else None,
             driver_name, mobile, status, landed, met, waiting),
        )  # fmt: skip
    db.executemany("INSERT INTO promo_codes VALUES (?,?,?,?)", PROMO_CODES)
    db.executemany("INSERT INTO promo_uses (email, code, booking_ref) VALUES (?,?,?)", PROMO_USES)
    db.executemany("INSERT INTO fully_booked VALUES (?,?)", FULLY_BOOKED)
