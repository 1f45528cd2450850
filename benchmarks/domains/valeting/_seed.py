"""Shine & Co. Mobile Valeting: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Tuesday 15 December 2026, 09:00 (UK, GMT). Visits are a morning
(starting 08:00) or an afternoon (starting 13:00) at the customer's address, on days a valeter
works in their postcode area. Customers are identified by their customer number (SC and four
digits) and the registration of a vehicle on the account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 15, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# package price by vehicle size, paid in full at booking
PRICES = {
    "exterior": {"small": 2500, "medium": 3000, "large": 3500},
    "full": {"small": 6000, "medium": 7000, "large": 8500},
    "detail": {"small": 12000, "medium": 14000, "large": 16000},
}
PACKAGE_NAMES = {"exterior": "exterior wash", "full": "full valet", "detail": "showroom detail"}
ADDONS = {"pet_hair": 1500, "headlights": 4000, "ceramic": 9000}
ADDON_NAMES = {"pet_hair": "pet-hair removal", "headlights": "headlight restoration",
               "ceramic": "ceramic coating"}  # fmt: skip
CERAMIC_PACKAGES = {"full", "detail"}  # ceramic coating only with a full valet or a detail
SLOT_START = {"morning": "08:00", "afternoon": "13:00"}
SLOT_END = {"morning": "12:00", "afternoon": "17:00"}
FREE_MOVE_HOURS = 24  # a move is free until 24 hours before the visit starts
MOVE_FEE_PENCE = 1500
FULL_REFUND_HOURS = 48  # cancelled 48+ hours before: all back; inside: half; on the day: none
RECLEAN_HOURS = 48  # a missed area reported within 48 hours of the visit's end: a free re-clean
PLAN_DISCOUNT_PERCENT = 10
COVERED_AREAS = ("GU", "RG", "SL")
CLOSED_DAYS = {date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1)}


def price(package: str, size: str) -> int:
    return PRICES[package][size]


def plan_price(package: str, size: str) -> int:
    return price(package, size) * (100 - PLAN_DISCOUNT_PERCENT) // 100


def starts_at(day: str, slot: str) -> datetime:
    hour = int(SLOT_START[slot][:2])
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UK)


def ends_at(day: str, slot: str) -> datetime:
    hour = int(SLOT_END[slot][:2])
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UK)


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- SC1001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    parking TEXT NOT NULL,                    -- driveway / street
    card_last4 TEXT NOT NULL
);
CREATE TABLE vehicles (
    registration TEXT PRIMARY KEY,            -- 'KX19 LMN'
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    model TEXT NOT NULL,
    size TEXT NOT NULL                        -- small / medium / large
);
CREATE TABLE availability (
    area TEXT NOT NULL,                       -- postcode area: GU, RG, SL
    day TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- morning / afternoon
    free INTEGER NOT NULL,                    -- valeters still free
    PRIMARY KEY (area, day, slot)
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- SV7005
    customer_id TEXT NOT NULL,
    registration TEXT NOT NULL,
    package TEXT NOT NULL,                    -- exterior / full / detail / reclean
    day TEXT NOT NULL,
    slot TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- the package
    total_pence INTEGER NOT NULL,             -- package and add-ons, paid by card
    location TEXT NOT NULL,                   -- driveway / street
    water_power_note TEXT,                    -- required (by policy) for driveway jobs
    reclean_of TEXT,
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / completed / cancelled
);
CREATE TABLE addons (
    addon_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- pet_hair / headlights / ceramic
    price_pence INTEGER NOT NULL
);
CREATE TABLE plans (
    plan_id TEXT PRIMARY KEY,                 -- MP301
    customer_id TEXT NOT NULL,
    registration TEXT NOT NULL,
    package TEXT NOT NULL,
    monthly_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    started TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- payment / move_fee / refund
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, postcode, parking, card; street addresses and phones follow from them
PEOPLE = [
    ("SC1001", "Amy Clarke", "GU1 4AB", "street", "4417"),
    ("SC1002", "Ben Harris", "RG4 7PL", "driveway", "2290"),
    ("SC1003", "Carla Mendes", "SL6 2QT", "driveway", "8823"),
    ("SC1004", "Dev Kapoor", "OX2 9EN", "street", "6610"),
    ("SC1005", "Ella Booth", "GU2 8XR", "street", "3051"),
    ("SC1006", "Finn Walsh", "RG1 3DD", "street", "7702"),
    ("SC1007", "Grace Lee", "SL1 5FH", "driveway", "1189"),
    ("SC1008", "Harry Young", "GU7 1LB", "street", "5534"),
    ("SC1009", "Isla Grant", "RG2 0AA", "street", "9046"),
    ("SC1010", "Jack Dawson", "SL4 6RP", "street", "2718"),
    ("SC1011", "Kate Bishop", "GU9 9TT", "street", "6284"),
    ("SC1012", "Liam Carter", "RG6 2WW", "street", "3141"),
    ("SC1013", "Maya Ellis", "SL2 3JJ", "street", "8080"),
    ("SC1014", "Noah Reid", "GU3 2CC", "street", "4242"),
    ("SC1015", "Olivia Shaw", "RG9 4HH", "driveway", "5150"),
    ("SC1016", "Peter Quinn", "SL3 8KK", "street", "6006"),
    ("SC1017", "Rosa Diaz", "GU4 7MM", "street", "7117"),
    ("SC1018", "Sam Turner", "RG10 1NN", "street", "1212"),
    ("SC1019", "Tara Nolan", "SL5 0PP", "street", "3434"),
    ("SC1020", "Umar Farooq", "GU5 5RR", "street", "5656"),
    ("SC1021", "Vicky Stone", "RG7 6SS", "street", "7878"),
    ("SC1022", "Will Archer", "SL9 7UU", "street", "9090"),
    ("SC1023", "Zoe Archer", "SL9 7UU", "street", "1357"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(c[-2:])}",
     f"{int(c[-2:]) + 10} Station Road", pc, parking, card)
    for c, n, pc, parking, card in PEOPLE
]  # fmt: skip

# registration, customer, model, size
VEHICLES = [
    ("KX19 LMN", "SC1001", "Ford Fiesta", "small"),
    ("LR68 PKT", "SC1002", "VW Golf", "medium"),
    ("YH21 RVA", "SC1003", "Range Rover Evoque", "large"),
    ("OU70 BGD", "SC1004", "Skoda Octavia", "medium"),
    ("GK17 HNZ", "SC1005", "Toyota Yaris", "small"),
    ("RE66 TYU", "SC1006", "Honda CR-V", "large"),
    ("WP20 KSD", "SC1007", "Audi A3", "medium"),
    ("BT15 ZXC", "SC1008", "Nissan Qashqai", "medium"),
    ("MA19 FGH", "SC1009", "Mini Cooper", "small"),
    ("HN18 VBM", "SC1010", "Kia Sportage", "large"),
    ("SK64 PLO", "SC1011", "Fiat 500", "small"),
    ("DE69 QAZ", "SC1012", "Ford Focus", "medium"),
    ("EA67 NMB", "SC1013", "Vauxhall Astra", "medium"),
    ("GN16 XSW", "SC1014", "Peugeot 208", "small"),
    ("RJ70 UYT", "SC1015", "BMW X5", "large"),
    ("OE19 HJK", "SC1016", "VW Polo", "small"),
    ("GF21 BNM", "SC1017", "Tesla Model 3", "medium"),
    ("RX17 CVB", "SC1018", "Land Rover Discovery", "large"),
    ("WU68 DFG", "SC1019", "Hyundai i20", "small"),
    ("GJ20 KLM", "SC1020", "Mercedes A-Class", "medium"),
    ("RV15 POI", "SC1021", "Volvo XC60", "large"),
    ("AJ66 TRE", "SC1022", "Audi Q5", "large"),
    ("ZA70 QWE", "SC1023", "Mini Countryman", "medium"),
]

# booking, customer, registration, package, day, slot, package price, total, location, note,
# status
BOOKINGS = [
    ("SV7005", "SC1005", "GK17 HNZ", "exterior", "2026-12-19", "morning", 2500, 2500, "street",
     None, "booked"),
    ("SV7006", "SC1006", "RE66 TYU", "full", "2026-12-21", "morning", 8500, 8500, "street",
     None, "booked"),
    ("SV7007", "SC1007", "WP20 KSD", "full", "2026-12-22", "afternoon", 7000, 7000, "driveway",
     "outside tap by the garage; socket in the garage", "booked"),
    ("SV7008", "SC1008", "BT15 ZXC", "exterior", "2026-12-17", "afternoon", 3000, 3000,
     "street", None, "booked"),
    ("SV7009", "SC1009", "MA19 FGH", "full", "2026-12-16", "morning", 6000, 6000, "street",
     None, "booked"),
    ("SV7010", "SC1010", "HN18 VBM", "exterior", "2026-12-16", "afternoon", 3500, 3500,
     "street", None, "booked"),
    ("SV7011", "SC1011", "SK64 PLO", "full", "2026-12-16", "morning", 6000, 6000, "street",
     None, "booked"),
    ("SV7012", "SC1012", "DE69 QAZ", "full", "2026-12-28", "morning", 7000, 7000, "street",
     None, "booked"),
    ("SV7013", "SC1013", "EA67 NMB", "exterior", "2026-12-29", "afternoon", 3000, 3000,
     "street", None, "booked"),
    ("SV7014", "SC1014", "GN16 XSW", "detail", "2026-12-31", "morning", 12000, 16000, "street",
     None, "booked"),
    ("SV7015", "SC1015", "RJ70 UYT", "full", "2026-12-17", "morning", 8500, 10000, "driveway",
     "outside tap; extension lead from the porch", "booked"),
    ("SV7016", "SC1016", "OE19 HJK", "exterior", "2026-12-15", "afternoon", 2500, 2500,
     "street", None, "booked"),
    ("SV7019", "SC1019", "WU68 DFG", "full", "2026-12-19", "afternoon", 6000, 7500, "street",
     None, "booked"),
    ("SV7020", "SC1020", "GJ20 KLM", "full", "2026-12-14", "morning", 7000, 7000, "street",
     None, "completed"),
    ("SV7021", "SC1021", "RV15 POI", "exterior", "2026-12-11", "afternoon", 3500, 3500,
     "street", None, "completed"),
    ("SV7023", "SC1023", "ZA70 QWE", "detail", "2026-12-30", "morning", 14000, 14000, "street",
     None, "booked"),
]

# add-ons already on bookings: booking, kind, price
ADDONS_SEED = [
    ("SV7014", "headlights", 4000),
    ("SV7015", "pet_hair", 1500),
    ("SV7019", "pet_hair", 1500),
]

# slots with no valeter left (every other working day has two per area and slot)
FULL_SLOTS = [("RG", "2026-12-23", "morning"), ("GU", "2026-12-24", "afternoon")]
# fmt: on


def working_days() -> list[str]:
    """Monday to Saturday, 15 December 2026 to 31 January 2027, but for the closed days."""
    first, out = date(2026, 12, 15), []
    for n in range(48):
        d = first + timedelta(days=n)
        if d.weekday() != 6 and d not in CLOSED_DAYS:
            out.append(d.isoformat())
    return out


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO vehicles VALUES (?,?,?,?)", VEHICLES)
    full = set(FULL_SLOTS)
    db.executemany(
        "INSERT INTO availability VALUES (?,?,?,?)",
        [(a, d, s, 0 if (a, d, s) in full else 2)
         for a in COVERED_AREAS for d in working_days() for s in ("morning", "afternoon")],
    )  # fmt: skip
    db.executemany(
        "INSERT INTO bookings (booking_id, customer_id, registration, package, day, slot, "
        "price_pence, total_pence, location, water_power_note, status) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        BOOKINGS,
    )
    db.executemany("INSERT INTO addons (booking_id, kind, price_pence) VALUES (?,?,?)",
                   ADDONS_SEED)  # fmt: skip
