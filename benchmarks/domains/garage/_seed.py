"""Kestrel Motors Service Centre: schema, the fixed clock, prices and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 09:00 (UK, GMT). Cars are dropped off at
08:00 on the booked day, so the 24-hour rule for moves and cancellations is counted from 08:00.
Customers are identified by their customer reference (KM and four digits) and the registration
of a vehicle on their account.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 9, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

DROP_OFF_HOUR = 8  # cars are dropped off at 08:00; the 24-hour rule counts from then
BAYS_PER_DAY = 3  # services and MOTs a day (Monday to Saturday)
COURTESY_CARS = 2  # courtesy cars out on any one day
LICENCE_YEARS = 3  # a full licence held at least this long for a courtesy car
LATE_HOURS = 24  # moving or cancelling less than this before drop-off costs LATE_FEE_PENCE
LATE_FEE_PENCE = 3000
MOT_PENCE = 5485
COLLECTION_PENCE = 2000  # collection and delivery, both ways
COLLECTION_MILES = 10
DISPUTE_DAYS = 14  # from the invoice date
WARRANTY_DAYS = 365
WARRANTY_MILES = 12000
WEAR_ITEMS = ("brake pads", "brake discs", "wiper blades", "tyres", "bulbs", "clutch")

# service: name, price by engine band (small up to 1,400cc, medium 1,401-2,000cc, large over)
SERVICES = {
    "interim": ("Interim service", (13900, 15900, 17900)),
    "full": ("Full service", (22900, 25900, 28900)),
    "major": ("Major service", (33900, 37900, 41900)),
}
BANDS = ("small (up to 1,400cc)", "medium (1,401cc to 2,000cc)", "large (over 2,000cc)")


def band(engine_cc: int) -> int:
    """The engine size band: 0 small, 1 medium, 2 large (2,000cc itself is medium)."""
    if engine_cc <= 1400:
        return 0
    return 1 if engine_cc <= 2000 else 2


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- KM2001
    name TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    licence_years INTEGER NOT NULL,           -- years a full driving licence has been held
    distance_miles INTEGER NOT NULL,          -- home from the garage, for collection
    card_last4 TEXT NOT NULL
);
CREATE TABLE vehicles (
    registration TEXT PRIMARY KEY,            -- LK19 XPD
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    model TEXT NOT NULL,
    engine_cc INTEGER NOT NULL,
    mileage INTEGER NOT NULL
);
CREATE TABLE bookings (
    booking_id TEXT PRIMARY KEY,              -- KB3105
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    registration TEXT NOT NULL REFERENCES vehicles(registration),
    kind TEXT NOT NULL,                       -- interim / full / major / mot
    day TEXT NOT NULL,                        -- YYYY-MM-DD, drop-off 08:00
    price_pence INTEGER NOT NULL,             -- the work, paid on collection
    courtesy_car INTEGER NOT NULL DEFAULT 0,
    collection INTEGER NOT NULL DEFAULT 0,    -- collection and delivery booked
    status TEXT NOT NULL DEFAULT 'confirmed'  -- confirmed / in_workshop / cancelled
);
CREATE TABLE quote_lines (
    line_id INTEGER PRIMARY KEY,
    booking_id TEXT NOT NULL REFERENCES bookings(booking_id),
    description TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    safety INTEGER NOT NULL DEFAULT 0,        -- safety-critical: can't be declined at the desk
    status TEXT NOT NULL DEFAULT 'pending'    -- pending / approved / declined
);
CREATE TABLE parts (
    part_id TEXT PRIMARY KEY,                 -- P-0412
    customer_id TEXT NOT NULL,
    registration TEXT NOT NULL,
    description TEXT NOT NULL,
    fitted_on TEXT NOT NULL,
    fitted_miles INTEGER NOT NULL,
    claim TEXT                                -- NULL, or 'open'
);
CREATE TABLE invoices (
    invoice_id TEXT PRIMARY KEY,              -- INV-7013
    customer_id TEXT NOT NULL,
    issued TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'unpaid'     -- unpaid / paid
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
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- late_fee / invoice_payment
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, phone, email, licence years, miles away, card
CUSTOMERS = [
    ("KM2001", "Alice Brennan", "07700 900101", "alice.brennan@example.com", 10, 4, "4417"),
    ("KM2002", "Rahul Mehta", "07700 900102", "rahul.mehta@example.com", 8, 6, "2290"),
    ("KM2003", "Gemma Stokes", "07700 900103", "gemma.stokes@example.com", 15, 3, "8823"),
    ("KM2004", "Tom Kerr", "07700 900104", "tom.kerr@example.com", 2, 5, "6610"),
    ("KM2005", "Leah Price", "07700 900105", "leah.price@example.com", 12, 2, "3051"),
    ("KM2006", "Owen Hughes", "07700 900106", "owen.hughes@example.com", 20, 8, "7702"),
    ("KM2007", "Priya Shah", "07700 900107", "priya.shah@example.com", 6, 4, "1189"),
    ("KM2008", "Daniel Fox", "07700 900108", "daniel.fox@example.com", 25, 9, "5534"),
    ("KM2009", "Sarah Lin", "07700 900109", "sarah.lin@example.com", 9, 3, "9046"),
    ("KM2010", "Mark Evans", "07700 900110", "mark.evans@example.com", 30, 6, "2718"),
    ("KM2011", "Fiona Grey", "07700 900111", "fiona.grey@example.com", 11, 5, "6284"),
    ("KM2012", "Ian Moss", "07700 900112", "ian.moss@example.com", 40, 7, "3141"),
    ("KM2013", "Chloe Ward", "07700 900113", "chloe.ward@example.com", 4, 2, "8080"),
    ("KM2014", "Ben Ortiz", "07700 900114", "ben.ortiz@example.com", 7, 6, "4242"),
    ("KM2015", "Nadia Rossi", "07700 900115", "nadia.rossi@example.com", 13, 8, "5150"),
    ("KM2016", "Paul Adams", "07700 900116", "paul.adams@example.com", 22, 4, "6006"),
    ("KM2017", "Hannah Webb", "07700 900117", "hannah.webb@example.com", 5, 3, "7117"),
    ("KM2018", "Jack Turner", "07700 900118", "jack.turner@example.com", 14, 7, "1212"),
    ("KM2019", "Emma Clarke", "07700 900119", "emma.clarke@example.com", 16, 5, "3434"),
    ("KM2020", "George Hall", "07700 900120", "george.hall@example.com", 35, 14, "5656"),
    ("KM2021", "Ruth Cole", "07700 900121", "ruth.cole@example.com", 18, 6, "7878"),
    ("KM2022", "Luke Perry", "07700 900122", "luke.perry@example.com", 9, 4, "9090"),
    ("KM2023", "Amir Khan", "07700 900123", "amir.khan@example.com", 10, 3, "1357"),
    ("KM2024", "Zara Bell", "07700 900124", "zara.bell@example.com", 6, 9, "2468"),
    ("KM2025", "Craig Dunn", "07700 900125", "craig.dunn@example.com", 12, 2, "3579"),
]

# registration, customer, model, engine cc, mileage
VEHICLES = [
    ("LK19 XPD", "KM2001", "Ford Fiesta 1.0", 999, 31200),
    ("BD68 TWN", "KM2002", "Volkswagen Golf 2.0 TDI", 2000, 58400),
    ("YA21 HRV", "KM2003", "Skoda Octavia 1.5", 1498, 27100),
    ("MA17 ZKC", "KM2004", "BMW 330i", 2998, 64900),
    ("SN20 BXL", "KM2005", "Toyota Yaris 1.5", 1490, 22800),
    ("WP16 GKE", "KM2006", "Vauxhall Astra 1.4", 1399, 77300),
    ("FG70 LMA", "KM2007", "Kia Ceed 1.6", 1591, 18900),
    ("RX15 DNO", "KM2008", "Audi A4 2.0", 1968, 91200),
    ("KT18 VWS", "KM2009", "Nissan Qashqai 1.3", 1332, 45600),
    ("HJ67 PLE", "KM2010", "Mazda 6 2.2", 2191, 48900),
    ("CU69 RTY", "KM2011", "Honda Civic 1.5", 1498, 33300),
    ("EA66 MBN", "KM2012", "Peugeot 308 1.2", 1199, 70100),
    ("GN21 OPK", "KM2013", "Fiat 500 1.2", 1242, 15400),
    ("DL19 ASC", "KM2014", "Renault Clio 1.0", 999, 29800),
    ("BV17 UHT", "KM2015", "Hyundai i30 1.4", 1353, 52700),
    ("NK20 CWE", "KM2016", "Volvo XC60 2.0", 1969, 40300),
    ("AJ22 FRZ", "KM2017", "Mini Cooper 1.5", 1499, 12800),
    ("PO18 KDW", "KM2018", "Land Rover Discovery 3.0", 2993, 88500),
    ("SF19 YTB", "KM2019", "Seat Leon 1.4", 1395, 36600),
    ("MM65 JRA", "KM2020", "Ford Focus 1.6", 1596, 99000),
    ("LB20 HVX", "KM2021", "Citroen C3 1.2", 1199, 24400),
    ("TE68 NUP", "KM2022", "Suzuki Swift 1.2", 1242, 41000),
    ("WU71 ZDC", "KM2023", "Ford Puma 1.0", 999, 9800),
    ("YH17 KLA", "KM2024", "Volkswagen Polo 1.2", 1197, 60200),
    ("RV21 BNM", "KM2025", "Toyota Corolla 1.8", 1798, 21500),
]

# booking, customer, registration, kind, day, price, courtesy car, collection, status
BOOKINGS = [
    ("KB3105", "KM2005", "SN20 BXL", "full", "2026-12-17", 25900, 0, 0, "confirmed"),
    ("KB3106", "KM2006", "WP16 GKE", "interim", "2026-12-15", 13900, 0, 0, "confirmed"),
    ("KB3107", "KM2007", "FG70 LMA", "mot", "2026-12-18", 5485, 0, 0, "confirmed"),
    ("KB3108", "KM2008", "RX15 DNO", "major", "2026-12-14", 37900, 1, 0, "in_workshop"),
    ("KB3109", "KM2009", "KT18 VWS", "full", "2026-12-14", 22900, 0, 0, "in_workshop"),
    ("KB3120", "KM2020", "MM65 JRA", "mot", "2026-12-21", 5485, 0, 0, "confirmed"),
    ("KB3121", "KM2021", "LB20 HVX", "interim", "2026-12-18", 13900, 0, 0, "confirmed"),
    ("KB3123", "KM2023", "WU71 ZDC", "interim", "2026-12-16", 13900, 0, 0, "confirmed"),
    ("KB3124", "KM2024", "YH17 KLA", "full", "2026-12-16", 22900, 1, 0, "confirmed"),
    ("KB3125", "KM2025", "RV21 BNM", "mot", "2026-12-16", 5485, 0, 0, "confirmed"),
]

# booking, description, amount, safety-critical
QUOTE_LINES = [
    ("KB3108", "Front brake pads and discs", 24800, 1),
    ("KB3108", "Wiper blades", 2400, 0),
    ("KB3108", "Air conditioning regas", 6900, 0),
    ("KB3109", "Two rear tyres", 17800, 1),
    ("KB3109", "Cabin pollen filter", 3200, 0),
]

# part, customer, registration, description, fitted on, fitted at miles
PARTS = [
    ("P-0412", "KM2010", "HJ67 PLE", "Alternator", "2026-03-10", 41200),
    ("P-0433", "KM2011", "CU69 RTY", "Front brake pads", "2026-08-02", 30100),
    ("P-0388", "KM2012", "EA66 MBN", "Water pump", "2025-10-02", 61500),
]

# invoice, customer, issued, status, [(description, amount)]
INVOICES = [
    ("INV-7013", "KM2013", "2026-12-11", "unpaid", [
        ("Full service", 22900), ("Front wiper blades", 2400), ("Brake fluid change", 5940),
    ]),
    ("INV-7014", "KM2014", "2026-12-07", "unpaid", [
        ("Interim service", 13900), ("Brake fluid change", 4800), ("Screenwash top-up", 600),
    ]),
    ("INV-7022", "KM2022", "2026-12-04", "paid", [
        ("Interim service", 13900), ("Front wiper blades", 2400),
    ]),
    ("INV-6915", "KM2015", "2026-11-20", "paid", [
        ("Full service", 22900), ("Engine air filter", 3600),
    ]),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the desk's customers, cars, bookings and invoices."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO vehicles VALUES (?,?,?,?,?)", VEHICLES)
    db.executemany("INSERT INTO bookings VALUES (?,?,?,?,?,?,?,?,?)", BOOKINGS)
    db.executemany(
        "INSERT INTO quote_lines (booking_id, description, amount_pence, safety) VALUES (?,?,?,?)",
        QUOTE_LINES,
    )
    db.executemany("INSERT INTO parts (part_id, customer_id, registration, description, "
                   "fitted_on, fitted_miles) VALUES (?,?,?,?,?,?)", PARTS)  # fmt: skip
    for invoice, customer, issued, status, lines in INVOICES:
        db.execute("INSERT INTO invoices VALUES (?,?,?,?)", (invoice, customer, issued, status))
        db.executemany(
            "INSERT INTO invoice_lines (invoice_id, description, amount_pence) VALUES (?,?,?)",
            [(invoice, d, a) for d, a in lines],
        )
    # Ben Ortiz disputed his brake fluid line by phone on 9 December: it is on hold
    db.execute(
        "UPDATE invoice_lines SET disputed = 1, dispute_reason = ? WHERE invoice_id = ? "
        "AND description = ?",
        ("not done: the fluid tested fine in October", "INV-7014", "Brake fluid change"),
    )
